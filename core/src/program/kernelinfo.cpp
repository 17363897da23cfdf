// The kernels of a built program: names, arguments (from the driver, else from the source) and the
// work-group limits of every device.
#include "clscope/build.h"

#include "clquery.h"
#include "clscope/clhandle.h"
#include "clscope/error.h"

#include <algorithm>

namespace clscope {
namespace {

template<typename T> std::optional<T> argValue(cl_kernel kernel, cl_uint index, cl_kernel_arg_info param)
{
    T value{};
    if (clGetKernelArgInfo(kernel, index, param, sizeof value, &value, nullptr) != CL_SUCCESS)
        return std::nullopt;
    return value;
}

AddressQualifier toAddress(cl_kernel_arg_address_qualifier q)
{
    switch (q) {
    case CL_KERNEL_ARG_ADDRESS_GLOBAL:
        return AddressQualifier::Global;
    case CL_KERNEL_ARG_ADDRESS_LOCAL:
        return AddressQualifier::Local;
    case CL_KERNEL_ARG_ADDRESS_CONSTANT:
        return AddressQualifier::Constant;
    default:
        return AddressQualifier::Private;
    }
}

AccessQualifier toAccess(cl_kernel_arg_access_qualifier q)
{
    switch (q) {
    case CL_KERNEL_ARG_ACCESS_READ_ONLY:
        return AccessQualifier::ReadOnly;
    case CL_KERNEL_ARG_ACCESS_WRITE_ONLY:
        return AccessQualifier::WriteOnly;
    case CL_KERNEL_ARG_ACCESS_READ_WRITE:
        return AccessQualifier::ReadWrite;
    default:
        return AccessQualifier::None;
    }
}

unsigned toTypeQualifiers(cl_kernel_arg_type_qualifier q)
{
    unsigned out = 0;
    if (q & CL_KERNEL_ARG_TYPE_CONST)
        out |= TypeConst;
    if (q & CL_KERNEL_ARG_TYPE_RESTRICT)
        out |= TypeRestrict;
    if (q & CL_KERNEL_ARG_TYPE_VOLATILE)
        out |= TypeVolatile;
    if (q & CL_KERNEL_ARG_TYPE_PIPE)
        out |= TypePipe;
    return out;
}

// Every argument from clGetKernelArgInfo, or nothing when the driver has no arg info for the kernel
// (CL_KERNEL_ARG_INFO_NOT_AVAILABLE: built without -cl-kernel-arg-info, or loaded from a binary).
std::optional<std::vector<KernelArg>> driverArgs(cl_kernel kernel, cl_uint count)
{
    std::vector<KernelArg> args;
    for (cl_uint i = 0; i < count; ++i) {
        auto name = kernelArgString(kernel, i, CL_KERNEL_ARG_NAME);
        auto type = kernelArgString(kernel, i, CL_KERNEL_ARG_TYPE_NAME);
        auto address = argValue<cl_kernel_arg_address_qualifier>(kernel, i, CL_KERNEL_ARG_ADDRESS_QUALIFIER);
        auto access = argValue<cl_kernel_arg_access_qualifier>(kernel, i, CL_KERNEL_ARG_ACCESS_QUALIFIER);
        auto qualifiers = argValue<cl_kernel_arg_type_qualifier>(kernel, i, CL_KERNEL_ARG_TYPE_QUALIFIER);
        if (!name || !type || !address || !access || !qualifiers)
            return std::nullopt;
        args.push_back({*name, toAddress(*address), toAccess(*access), *type, toTypeQualifiers(*qualifiers)});
    }
    return args;
}

WorkGroupInfo workGroupInfo(cl_kernel kernel, cl_device_id device)
{
    WorkGroupInfo w;
    w.device = deviceString(device, CL_DEVICE_NAME);
    // A value the driver will not give stays 0 rather than failing the whole listing.
    clGetKernelWorkGroupInfo(kernel, device, CL_KERNEL_WORK_GROUP_SIZE, sizeof w.workGroupSize,
                             &w.workGroupSize, nullptr);
    clGetKernelWorkGroupInfo(kernel, device, CL_KERNEL_PREFERRED_WORK_GROUP_SIZE_MULTIPLE,
                             sizeof w.preferredWorkGroupSizeMultiple, &w.preferredWorkGroupSizeMultiple,
                             nullptr);
    cl_ulong local = 0, priv = 0;
    if (clGetKernelWorkGroupInfo(kernel, device, CL_KERNEL_LOCAL_MEM_SIZE, sizeof local, &local, nullptr) ==
        CL_SUCCESS)
        w.localMemSize = local;
    if (clGetKernelWorkGroupInfo(kernel, device, CL_KERNEL_PRIVATE_MEM_SIZE, sizeof priv, &priv, nullptr) ==
        CL_SUCCESS)
        w.privateMemSize = priv;
    size_t compile[3] = {0, 0, 0};
    if (clGetKernelWorkGroupInfo(kernel, device, CL_KERNEL_COMPILE_WORK_GROUP_SIZE, sizeof compile, compile,
                                 nullptr) == CL_SUCCESS)
        w.compileWorkGroupSize = {compile[0], compile[1], compile[2]};
    return w;
}

} // namespace

std::string_view addressQualifierName(AddressQualifier q)
{
    switch (q) {
    case AddressQualifier::Global:
        return "global";
    case AddressQualifier::Local:
        return "local";
    case AddressQualifier::Constant:
        return "constant";
    case AddressQualifier::Private:
        return "private";
    }
    return "private";
}

std::string_view accessQualifierName(AccessQualifier q)
{
    switch (q) {
    case AccessQualifier::None:
        return "none";
    case AccessQualifier::ReadOnly:
        return "read_only";
    case AccessQualifier::WriteOnly:
        return "write_only";
    case AccessQualifier::ReadWrite:
        return "read_write";
    }
    return "none";
}

std::vector<std::string> typeQualifierNames(unsigned qualifiers)
{
    std::vector<std::string> out;
    if (qualifiers & TypeConst)
        out.emplace_back("const");
    if (qualifiers & TypeRestrict)
        out.emplace_back("restrict");
    if (qualifiers & TypeVolatile)
        out.emplace_back("volatile");
    if (qualifiers & TypePipe)
        out.emplace_back("pipe");
    return out;
}

std::string_view argInfoSourceName(ArgInfoSource source)
{
    switch (source) {
    case ArgInfoSource::Driver:
        return "driver";
    case ArgInfoSource::Source:
        return "source";
    case ArgInfoSource::None:
        return "none";
    }
    return "none";
}

namespace {

// The kernel names of a built program (CL_PROGRAM_KERNEL_NAMES, "a;b;c"); nothing when the driver will not
// say (OpenCL 1.1).
std::optional<std::vector<std::string>> kernelNames(cl_program program)
{
    const InfoBytes names = readInfoBytes(
        [&](std::size_t size, void *value, std::size_t *ret) {
            return clGetProgramInfo(program, CL_PROGRAM_KERNEL_NAMES, size, value, ret);
        },
        kMaxKernels * 256);
    if (names.tooLarge())
        throw InfoLimitError(names.refusal("CL_PROGRAM_KERNEL_NAMES"));
    if (!names.ok())
        return std::nullopt;
    std::vector<std::string> out;
    const std::string text = names.text();
    for (std::size_t start = 0; start <= text.size();) {
        const std::size_t end = std::min(text.find(';', start), text.size());
        if (end > start)
            out.push_back(text.substr(start, end - start));
        start = end + 1;
    }
    checkReported(out.size(), kMaxKernels, "CL_PROGRAM_KERNEL_NAMES", "kernels");
    return out;
}

// One kernel object per name, each made on its own: a kernel the driver cannot make (Oclgrind on one that
// calls __builtin_assume: "Undefined external function: llvm.assume") is reported with its error and
// costs no other kernel. clCreateKernelsInProgram made them all at once, and Oclgrind handed back a
// broken object for such a kernel that crashed the first query of it.
struct Made
{
    std::string name;
    ClKernel kernel;
    std::string error; // why there is no kernel
};

std::vector<Made> makeKernels(cl_program program)
{
    std::vector<Made> out;
    if (const auto names = kernelNames(program)) {
        for (const std::string &name : *names) {
            cl_int err = CL_SUCCESS;
            ClKernel kernel(clCreateKernel(program, name.c_str(), &err));
            if (err != CL_SUCCESS || !kernel.get())
                out.push_back({name, ClKernel(), "clCreateKernel failed: " + errorLabel(err)});
            else
                out.push_back({name, std::move(kernel), {}});
        }
        return out;
    }
    cl_uint count = 0;
    check(clCreateKernelsInProgram(program, 0, nullptr, &count), "clCreateKernelsInProgram");
    std::vector<cl_kernel> raw(checkReported(count, kMaxKernels, "clCreateKernelsInProgram", "kernels"));
    if (count > 0)
        check(clCreateKernelsInProgram(program, count, raw.data(), nullptr), "clCreateKernelsInProgram");
    for (cl_kernel k : raw)
        out.push_back({{}, ClKernel(k), {}});
    for (Made &m : out)
        m.name = kernelString(m.kernel.get(), CL_KERNEL_FUNCTION_NAME);
    return out;
}

} // namespace

std::vector<KernelInfo> queryKernels(cl_program program, const std::vector<cl_device_id> &devices,
                                     std::string_view source)
{
    const std::vector<Made> kernels = makeKernels(program);

    // Parsed lazily: most builds get their arg info from the driver.
    std::optional<std::vector<KernelSignature>> signatures;
    auto fromSource = [&](const std::string &name) -> const KernelSignature * {
        if (!signatures)
            signatures = parseKernelSignatures(source);
        for (const auto &s : *signatures) {
            if (s.name == name)
                return &s;
        }
        return nullptr;
    };

    std::vector<KernelInfo> out;
    for (const Made &made : kernels) {
        KernelInfo info;
        info.name = made.name;
        if (!made.error.empty()) {
            // Its arguments as the source declares them, so that the list still shows it.
            info.error = made.error;
            if (const KernelSignature *sig = fromSource(info.name)) {
                info.args = sig->args;
                info.argInfo = ArgInfoSource::Source;
            }
            out.push_back(std::move(info));
            continue;
        }
        const ClKernel &kernel = made.kernel;
        cl_uint numArgs = 0;
        check(clGetKernelInfo(kernel.get(), CL_KERNEL_NUM_ARGS, sizeof numArgs, &numArgs, nullptr),
              "clGetKernelInfo", "CL_KERNEL_NUM_ARGS");
        if (auto args = driverArgs(kernel.get(), numArgs)) {
            info.args = std::move(*args);
            info.argInfo = ArgInfoSource::Driver;
            // PoCL reports names that clash with its built-ins (step, length, min, max...) as _cl_NAME: the
            // source's name is shown where the source has it (the runner takes both, findArgument).
            constexpr std::string_view kPoclPrefix = "_cl_";
            for (std::size_t i = 0; i < info.args.size(); ++i) {
                std::string &name = info.args[i].name;
                if (!name.starts_with(kPoclPrefix))
                    continue;
                const KernelSignature *sig = fromSource(info.name);
                if (sig && sig->args.size() == info.args.size() &&
                    sig->args[i].name == std::string_view(name).substr(kPoclPrefix.size()))
                    name = sig->args[i].name;
            }
        } else if (const KernelSignature *sig = fromSource(info.name); sig && sig->args.size() == numArgs) {
            info.args = sig->args;
            info.argInfo = ArgInfoSource::Source;
        } else {
            info.args.resize(numArgs);
            info.argInfo = ArgInfoSource::None;
        }
        for (cl_device_id d : devices)
            info.workGroups.push_back(workGroupInfo(kernel.get(), d));
        out.push_back(std::move(info));
    }
    // Source order where the source names the kernel (drivers list them in differing orders), then by name.
    if (!signatures)
        signatures = parseKernelSignatures(source);
    auto rank = [&](const KernelInfo &k) {
        for (size_t i = 0; i < signatures->size(); ++i) {
            if ((*signatures)[i].name == k.name)
                return i;
        }
        return signatures->size();
    };
    std::stable_sort(out.begin(), out.end(), [&](const KernelInfo &a, const KernelInfo &b) {
        const size_t ra = rank(a), rb = rank(b);
        return ra != rb ? ra < rb : a.name < b.name;
    });
    return out;
}

} // namespace clscope
