// Struct layouts from the device, as pyopencl's match_dtype_to_c_struct asks them: a kernel appended to
// the program's own source writes sizeof, __alignof__ and every field's offset and size (pointer
// arithmetic on a __global T*, never dereferenced) into a buffer; the answer becomes the TypeTable of a
// run, kept in the build's memo and next to its binary in the cache.
#include "clscope/structs.h"

#include "clscope/compilerthread.h"
#include "clscope/error.h"
#include "clscope/queue.h"
#include "clscope/text.h"
#include "clscope/version.h"

#include <algorithm>
#include <charconv>
#include <cstring>
#include <numeric>
#include <set>
#include <type_traits>

namespace clscope {
namespace {

constexpr const char *kProbeKernel = "clscope_layout_probe";

// "struct  Tagged" -> "struct Tagged": names as drivers and users space them.
std::string normalName(std::string_view name)
{
    std::string out;
    bool space = false;
    for (char c : trimSpace(name)) {
        if (c == ' ' || c == '\t') {
            space = true;
            continue;
        }
        if (space && !out.empty())
            out += ' ';
        space = false;
        out += c;
    }
    return out;
}

// Integer types whose size is the device's: chosen by the size the device gives.
std::optional<ElementType> integerOfSize(std::string_view type, std::size_t size)
{
    const bool isEnum = type.starts_with("enum");
    const bool isSigned = isEnum || type == "ptrdiff_t" || type == "intptr_t";
    const bool isUnsigned = type == "size_t" || type == "uintptr_t" || type == "bool";
    if (!isSigned && !isUnsigned)
        return std::nullopt;
    switch (size) {
    case 1:
        return ElementType{isSigned ? ScalarKind::Char : ScalarKind::UChar, 1, 0};
    case 2:
        return ElementType{isSigned ? ScalarKind::Short : ScalarKind::UShort, 1, 0};
    case 4:
        return ElementType{isSigned ? ScalarKind::Int : ScalarKind::UInt, 1, 0};
    case 8:
        return ElementType{isSigned ? ScalarKind::Long : ScalarKind::ULong, 1, 0};
    default:
        return std::nullopt;
    }
}

// Walks the types to probe twice in the same order: once to write the probe's expressions (no values),
// once with the values the device wrote to build the layouts. Control flow never depends on a value, so
// the n-th expression and the n-th value always belong together.
class Walker
{
public:
    Walker(const SourceTypes &types, const std::vector<std::uint64_t> *values)
        : m_types(types)
        , m_values(values)
    {}

    void root(const std::string &given)
    {
        const std::string name = normalName(given);
        if (name.empty() || !m_roots.insert(name).second)
            return;
        if (const StructDecl *decl = m_types.find(name)) {
            if (!decl->cName().empty()) {
                const auto layout = layoutOf(*decl);
                m_table.structs[name] = layout;
                m_table.sizes[name] = layout->size;
                return;
            }
        }
        const std::uint64_t size = ask("sizeof(" + name + ")");
        m_table.sizes[name] = std::size_t(size);
        if (auto element = parseElementType(m_types.resolve(name)); element && element->size() == size)
            m_table.aliases[name] = *element;
    }

    TypeTable take()
    {
        for (const auto &[decl, layout] : m_layouts) {
            for (const std::string &n : decl->names) {
                m_table.structs.emplace(n, layout);
                m_table.sizes.emplace(n, layout->size);
            }
        }
        for (const auto &[alias, target] : m_types.aliases) {
            if (const StructDecl *decl = m_types.find(alias)) {
                const auto it = m_layouts.find(decl);
                if (it != m_layouts.end()) {
                    m_table.structs.emplace(alias, it->second);
                    m_table.sizes.emplace(alias, it->second->size);
                }
            }
        }
        m_table.knownStructs = m_types.structNames();
        return std::move(m_table);
    }

    std::string kernel() const
    {
        std::string out =
            "\n__kernel void " + std::string(kProbeKernel) + "(__global ulong *clscope_out)\n{\n";
        for (const std::string &d : m_pointers)
            out += "    " + d + "\n";
        for (std::size_t i = 0; i < m_expressions.size(); ++i)
            out += "    clscope_out[" + std::to_string(i) + "] = (ulong)(" + m_expressions[i] + ");\n";
        return out + "}\n";
    }

    std::size_t count() const { return m_values ? m_next : m_expressions.size(); }

private:
    std::uint64_t ask(std::string expression)
    {
        if (!m_values) {
            m_expressions.push_back(std::move(expression));
            return 0;
        }
        if (m_next >= m_values->size())
            throw ClError("layout probe", CL_INVALID_VALUE, "the probe wrote fewer values than it was asked");
        return (*m_values)[m_next++];
    }

    static std::string offsetOf(const std::string &expression, const std::string &base)
    {
        return "(__global char *)&(" + expression + ") - (__global char *)" + base;
    }

    void implausible(const std::string &what) const
    {
        // pyopencl refuses the same way: an offset past sizeof is a compiler bug, not a layout.
        if (m_values)
            throw ClError("layout probe", CL_INVALID_VALUE,
                          "the device reported an implausible layout for " + what + " (offset past sizeof)");
    }

    std::shared_ptr<const StructLayout> layoutOf(const StructDecl &decl)
    {
        if (const auto it = m_layouts.find(&decl); it != m_layouts.end())
            return it->second;
        auto layout = std::make_shared<StructLayout>();
        m_layouts[&decl] = layout;
        const std::string cName = decl.cName();
        const std::string base = "clscope_p" + std::to_string(m_pointers.size());
        m_pointers.push_back("__global " + cName + " *" + base + " = (__global " + cName + " *)clscope_out;");
        layout->name = cName;
        layout->isUnion = decl.isUnion;
        layout->size = std::size_t(ask("sizeof(" + cName + ")"));
        layout->alignment = std::size_t(ask("__alignof__(" + cName + ")"));
        m_walking.insert(&decl);
        layout->fields = fields(decl, base + "->", base, 0, layout->size, cName);
        m_walking.erase(&decl);
        return layout;
    }

    std::vector<FieldLayout> fields(const StructDecl &decl, const std::string &prefix,
                                    const std::string &base, std::uint64_t start, std::size_t containerSize,
                                    const std::string &what)
    {
        std::vector<FieldLayout> out;
        for (const FieldDecl &f : decl.fields) {
            if (f.name.empty()) {
                if (!f.inlineType)
                    continue;
                for (FieldLayout &inner : fields(*f.inlineType, prefix, base, start, containerSize, what))
                    out.push_back(std::move(inner));
                continue;
            }
            out.push_back(field(f, prefix, base, start, containerSize, what));
        }
        return out;
    }

    FieldLayout field(const FieldDecl &f, const std::string &prefix, const std::string &base,
                      std::uint64_t start, std::size_t containerSize, const std::string &what)
    {
        FieldLayout out;
        out.name = f.name;
        out.type =
            f.inlineType && f.type.empty() ? std::string(f.inlineType->isUnion ? "union" : "struct") : f.type;
        if (f.pointer)
            out.type += " *";
        const std::string expression = prefix + f.name;
        const std::uint64_t absolute = ask(offsetOf(expression, base));
        out.size = std::size_t(ask("sizeof(" + expression + ")"));
        out.offset = std::size_t(absolute >= start ? absolute - start : 0);
        if (m_values && (absolute < start || out.offset + out.size > containerSize))
            implausible(what + "." + f.name);
        std::string element = expression;
        std::uint64_t outer = out.size;
        for (std::size_t i = 0; i < f.dims.size(); ++i) {
            element += "[0]";
            const std::uint64_t inner = ask("sizeof(" + element + ")");
            out.dims.push_back(inner ? std::size_t(outer / inner) : 0);
            outer = inner;
        }
        const std::size_t elementSize = std::size_t(outer);
        const auto opaque = [&](std::string why) {
            out.element = ElementType::bytes(std::max<std::size_t>(elementSize, 1));
            out.opaque = std::move(why);
        };
        if (f.pointer) {
            opaque("a pointer");
        } else if (f.inlineType) {
            auto nested = std::make_shared<StructLayout>();
            nested->name = f.type;
            nested->isUnion = f.inlineType->isUnion;
            nested->size = elementSize;
            nested->alignment = std::size_t(ask("__alignof__(" + element + ")"));
            nested->fields =
                fields(*f.inlineType, element + ".", base, absolute, elementSize, what + "." + f.name);
            out.nested = std::move(nested);
        } else if (const StructDecl *decl = m_types.find(f.type); decl && !decl->cName().empty()) {
            if (m_walking.count(decl)) {
                opaque("a struct that contains itself");
            } else {
                out.nested = layoutOf(*decl);
                if (m_values && out.nested->size != elementSize)
                    opaque("the device gives " + std::to_string(elementSize) + " bytes for " + f.type +
                           " here and " + std::to_string(out.nested->size) + " alone");
            }
        } else {
            const std::string resolved = m_types.resolve(f.type);
            if (auto type = parseElementType(resolved)) {
                out.element = type;
                if (m_values && type->size() != elementSize)
                    opaque("the device gives " + std::to_string(elementSize) + " bytes for " + f.type);
            } else if (auto integer = integerOfSize(resolved, elementSize)) {
                out.element = integer;
            } else if (m_values) {
                opaque("type " + f.type + " is not one CLScope knows");
            }
        }
        if (!out.element && !out.nested)
            out.element = ElementType::bytes(std::max<std::size_t>(elementSize, 1)); // the planning pass only
        return out;
    }

    const SourceTypes &m_types;
    const std::vector<std::uint64_t> *m_values;
    std::size_t m_next = 0;
    std::vector<std::string> m_expressions;
    std::vector<std::string> m_pointers;
    std::map<const StructDecl *, std::shared_ptr<StructLayout>> m_layouts;
    std::set<const StructDecl *> m_walking;
    std::set<std::string> m_roots;
    TypeTable m_table;
};

constexpr std::string_view kSerialMagic = "clscope struct layout 1";

std::string serialize(const std::vector<std::uint64_t> &values)
{
    std::string out(kSerialMagic);
    for (std::uint64_t v : values)
        out += ' ' + std::to_string(v);
    return out;
}

std::optional<std::vector<std::uint64_t>> deserialize(std::string_view text, std::size_t count)
{
    if (!text.starts_with(kSerialMagic))
        return std::nullopt;
    text.remove_prefix(kSerialMagic.size());
    std::vector<std::uint64_t> values;
    while (!text.empty()) {
        if (text.front() != ' ')
            return std::nullopt;
        text.remove_prefix(1);
        std::uint64_t v = 0;
        const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), v);
        if (ec != std::errc())
            return std::nullopt;
        values.push_back(v);
        text.remove_prefix(std::size_t(end - text.data()));
    }
    if (values.size() != count)
        return std::nullopt;
    return values;
}

template<typename T, auto Release> struct Owned
{
    T handle = nullptr;
    Owned() = default;
    explicit Owned(T h)
        : handle(h)
    {}
    Owned(const Owned &) = delete;
    Owned &operator=(const Owned &) = delete;
    ~Owned()
    {
        if (handle)
            Release(handle);
    }
};

// The compiler's first error in a build log, for the message of a probe that did not build.
std::string firstError(const std::string &log)
{
    for (const Diagnostic &d : parseDiagnostics(log, "")) {
        if (d.severity == Severity::Error)
            return d.message +
                   (d.line ? " (line " + std::to_string(d.line) + " of the source with the probe)" : "");
    }
    return std::string(trimSpace(log.substr(0, std::min<std::size_t>(log.size(), 200))));
}

struct ProbeOutcome
{
    std::vector<std::uint64_t> values;
    std::string error; // non-empty: the probe did not build or run
};

ProbeOutcome runProbe(const BuildResult &build, cl_device_id device, const std::string &kernel,
                      std::size_t count)
{
    ProbeOutcome outcome;
    const std::string text = build.source() + "\n" + kernel;
    const char *pointer = text.c_str();
    const std::size_t length = text.size();
    cl_int err = CL_SUCCESS;
    Owned<cl_program, clReleaseProgram> program(
        clCreateProgramWithSource(build.context(), 1, &pointer, &length, &err));
    check(err, "clCreateProgramWithSource", "layout probe");
    // The program's own source again: as deep an expression as the build's, so the same large stack.
    onCompilerThread(
        [&] { err = clBuildProgram(program.handle, 1, &device, build.options().c_str(), nullptr, nullptr); },
        compileSubject(build.sourcePath(), text));
    if (err != CL_SUCCESS) {
        std::size_t size = 0;
        std::string log;
        if (clGetProgramBuildInfo(program.handle, device, CL_PROGRAM_BUILD_LOG, 0, nullptr, &size) ==
                CL_SUCCESS &&
            size) {
            log.resize(size);
            clGetProgramBuildInfo(program.handle, device, CL_PROGRAM_BUILD_LOG, size, log.data(), nullptr);
            while (!log.empty() && log.back() == '\0')
                log.pop_back();
        }
        outcome.error =
            "the probe did not build" + (log.empty() ? " (" + errorLabel(err) + ")" : ": " + firstError(log));
        return outcome;
    }
    Owned<cl_kernel, clReleaseKernel> probe(clCreateKernel(program.handle, kProbeKernel, &err));
    check(err, "clCreateKernel", "layout probe");
    Owned<cl_mem, clReleaseMemObject> buffer(
        clCreateBuffer(build.context(), CL_MEM_WRITE_ONLY, count * sizeof(cl_ulong), nullptr, &err));
    check(err, "clCreateBuffer", "layout probe");
    check(clSetKernelArg(probe.handle, 0, sizeof(cl_mem), &buffer.handle), "clSetKernelArg", "layout probe");
    Owned<cl_command_queue, clReleaseCommandQueue> queue(createCommandQueue(build.context(), device, false));
    const std::size_t one = 1;
    check(clEnqueueNDRangeKernel(queue.handle, probe.handle, 1, nullptr, &one, &one, 0, nullptr, nullptr),
          "clEnqueueNDRangeKernel", "layout probe");
    std::vector<cl_ulong> values(count);
    check(clEnqueueReadBuffer(queue.handle, buffer.handle, CL_TRUE, 0, count * sizeof(cl_ulong),
                              values.data(), 0, nullptr, nullptr),
          "clEnqueueReadBuffer", "layout probe");
    outcome.values.assign(values.begin(), values.end());
    return outcome;
}

// The device's answer for one probe kernel: from the build's memo, else the binary cache, else the
// device itself (then kept in both).
ProbeOutcome answer(const BuildResult &build, cl_device_id device, const std::string &kernel,
                    std::size_t count)
{
    char id[32];
    const auto r = std::to_chars(id, id + sizeof id, reinterpret_cast<std::uintptr_t>(device), 16);
    const std::string memoKey = "struct layout probe on " + std::string(id, r.ptr) + "\n" + kernel;
    if (const auto known = build.memo().find(memoKey)) {
        if (known->starts_with("error: "))
            return {{}, known->substr(7)};
        if (auto values = deserialize(*known, count))
            return {std::move(*values), {}};
    }
    const std::optional<CacheKey> programKey = build.cacheKey(device);
    const std::optional<CacheKey> key =
        programKey ? std::optional(layoutCacheKey(*programKey, kernel)) : std::nullopt;
    if (key && build.binaryCache().enabled()) {
        if (const auto entry = build.binaryCache().load(*key)) {
            const std::string_view text(reinterpret_cast<const char *>(entry->binary.data()),
                                        entry->binary.size());
            if (auto values = deserialize(text, count)) {
                build.memo().put(memoKey, std::string(text));
                return {std::move(*values), {}};
            }
        }
    }
    ProbeOutcome outcome = runProbe(build, device, kernel, count);
    if (!outcome.error.empty()) {
        build.memo().put(memoKey, "error: " + outcome.error);
        return outcome;
    }
    const std::string text = serialize(outcome.values);
    build.memo().put(memoKey, text);
    if (key && build.binaryCache().enabled())
        build.binaryCache().store(*key, {std::vector<unsigned char>(text.begin(), text.end()), {}});
    return outcome;
}

} // namespace

// ---- Layout values ----------------------------------------------------------------------------------

std::size_t FieldLayout::elements() const
{
    return std::accumulate(dims.begin(), dims.end(), std::size_t(1), std::multiplies<>());
}

std::string FieldLayout::declaration() const
{
    std::string out =
        nested ? (nested->name.empty() ? std::string(nested->isUnion ? "union" : "struct") : nested->name)
        : opaque.empty() && element ? element->name()
                                    : type;
    for (std::size_t d : dims)
        out += "[" + std::to_string(d) + "]";
    return out;
}

const FieldLayout *StructLayout::field(std::string_view name) const
{
    for (const FieldLayout &f : fields) {
        if (f.name == name)
            return &f;
    }
    return nullptr;
}

std::string StructLayout::fieldNames() const
{
    std::string out;
    for (const FieldLayout &f : fields)
        out += (out.empty() ? "" : ", ") + f.name;
    return out.empty() ? std::string("none") : out;
}

std::string StructLayout::label() const
{
    if (!name.empty())
        return name;
    return isUnion ? "the union" : "the struct";
}

std::shared_ptr<const StructLayout> TypeTable::findStruct(std::string_view name) const
{
    const auto it = structs.find(normalName(name));
    return it == structs.end() ? nullptr : it->second;
}

std::optional<std::size_t> TypeTable::sizeOf(std::string_view name) const
{
    const auto it = sizes.find(normalName(name));
    return it == sizes.end() ? std::nullopt : std::optional(it->second);
}

// ---- Probing ----------------------------------------------------------------------------------------

std::string layoutProbeKernel(const SourceTypes &types, const std::vector<std::string> &names,
                              std::size_t *count)
{
    Walker walker(types, nullptr);
    for (const std::string &n : names)
        walker.root(n);
    if (count)
        *count = walker.count();
    return walker.kernel();
}

CacheKey layoutCacheKey(const CacheKey &program, std::string_view probeKernel)
{
    return derivedCacheKey(program, "struct layout probe 1\n" + std::string(probeKernel));
}

SourceTypes buildSourceTypes(const BuildResult &build, cl_device_id device)
{
    std::vector<std::string> defines = optionDefines(build.options());
    // What the compiler defines for the device, so that `#if __OPENCL_VERSION__ >= 200` reads as it will.
    const auto text = [&](cl_device_info param) -> std::string {
        std::size_t size = 0;
        if (clGetDeviceInfo(device, param, 0, nullptr, &size) != CL_SUCCESS || size == 0)
            return {};
        std::string out(size, '\0');
        if (clGetDeviceInfo(device, param, size, out.data(), nullptr) != CL_SUCCESS)
            return {};
        return out;
    };
    if (const auto v = parseOpenCLVersion(text(CL_DEVICE_VERSION)))
        defines.push_back("__OPENCL_VERSION__=" + std::to_string(v->asNumber()));
    if (const auto v = parseOpenCLCVersion(text(CL_DEVICE_OPENCL_C_VERSION)))
        defines.push_back("__OPENCL_C_VERSION__=" + std::to_string(v->asNumber()));
    return parseSourceTypes(build.source(), build.includes(), defines);
}

std::vector<std::string> unknownArgumentTypes(const KernelInfo &kernel)
{
    std::vector<std::string> out;
    for (const ArgSlot &slot : argSlots(kernel)) {
        if (slot.kind != ArgKind::Value && slot.kind != ArgKind::Buffer && slot.kind != ArgKind::Local)
            continue;
        const std::string base = normalName(slot.baseType());
        if (slot.type || base == "void" || base.empty())
            continue;
        if (std::find(out.begin(), out.end(), base) == out.end())
            out.push_back(base);
    }
    return out;
}

TypeTable probeTypes(const BuildResult &build, cl_device_id device, const std::vector<std::string> &names)
{
    if (!build.success() || !build.program())
        throw RunInputError("the program did not build");
    if (build.source().empty())
        throw RunInputError("struct layouts need the program's source, and this build has none");
    const SourceTypes types = buildSourceTypes(build, device);
    // Only names the program knows reach the probe: a struct of the source, a typedef, or an argument's
    // type (which the compiler accepted). A user's typo is left to the binding, which names the argument.
    std::vector<std::string> argumentTypes;
    for (const KernelInfo &k : build.kernels()) {
        for (std::string &t : unknownArgumentTypes(k)) {
            if (std::find(argumentTypes.begin(), argumentTypes.end(), t) == argumentTypes.end())
                argumentTypes.push_back(std::move(t));
        }
    }
    std::vector<std::string> asked;
    for (const std::string &given : names) {
        const std::string n = normalName(given);
        const bool known = types.find(n) || types.aliases.count(n) ||
                           std::find(argumentTypes.begin(), argumentTypes.end(), n) != argumentTypes.end();
        if (known && std::find(asked.begin(), asked.end(), n) == asked.end())
            asked.push_back(n);
    }
    // Every argument type of every kernel first, so that one probe (one entry in the cache) serves all
    // the program's kernels; only what was asked when that one does not build.
    std::vector<std::string> all = argumentTypes;
    for (const std::string &n : asked) {
        if (std::find(all.begin(), all.end(), n) == all.end())
            all.push_back(n);
    }
    std::string error;
    for (const std::vector<std::string> *attempt : {&all, &asked}) {
        if (attempt == &asked && asked.size() == all.size())
            break;
        if (attempt->empty())
            continue;
        std::size_t count = 0;
        const std::string kernel = layoutProbeKernel(types, *attempt, &count);
        ProbeOutcome outcome = answer(build, device, kernel, count);
        if (!outcome.error.empty()) {
            if (error.empty())
                error = outcome.error;
            continue;
        }
        Walker walker(types, &outcome.values);
        for (const std::string &n : *attempt)
            walker.root(n);
        return walker.take();
    }
    if (!error.empty())
        throw ClError("layout probe", CL_BUILD_PROGRAM_FAILURE, error);
    TypeTable empty;
    empty.knownStructs = types.structNames();
    return empty;
}

} // namespace clscope
