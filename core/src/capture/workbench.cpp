// A captured launch made into the workbench's inputs: --arg specs with buffers from .npy files of their
// "before" contents, the NDRange, and the "after" contents to compare with.
#include "clscope/capture.h"
#include "clscope/text.h"

#include "clscope/npy.h"

#include <filesystem>

namespace clscope {

namespace {

namespace fs = std::filesystem;

std::string joinSizes(const std::vector<std::size_t> &v)
{
    std::string s;
    for (std::size_t x : v)
        s += (s.empty() ? "" : ",") + std::to_string(x);
    return s;
}

// The value as TYPE:V[,V...] when the type is a number type of that size, else as bytesN:HEX.
std::string valueSpec(const KernelArg &arg, const std::vector<unsigned char> &value)
{
    const std::optional<ElementType> type = parseElementType(arg.typeName);
    if (type && !type->isRaw() && type->size() == value.size()) {
        std::string v;
        const std::size_t scalar = scalarSize(type->scalar);
        for (int c = 0; c < type->width; ++c)
            v += (c ? "," : "") +
                 formatNumber(decodeNumber(type->scalar, value.data() + std::size_t(c) * scalar),
                              type->scalar);
        return type->name() + ":" + v;
    }
    return "bytes" + std::to_string(value.size()) + ":" + hexBytes(value);
}

// Typed .npy when the bytes are whole elements of the pointee's scalar, else uchar.
ElementType writeContents(const fs::path &path, ElementType type, const std::vector<unsigned char> &bytes)
{
    // 3-vectors are stored as 4: their buffers go as the scalar type, which holds the same bytes.
    if (!type.isRaw() && type.storedWidth() != type.width)
        type = ElementType{type.scalar, 1, 0};
    if (type.isRaw() || bytes.size() % type.size() != 0)
        type = ElementType{ScalarKind::UChar, 1, 0};
    NpyArray a;
    a.dtype = type.scalar;
    a.shape = {bytes.size() / type.size()};
    if (type.width > 1)
        a.shape.push_back(std::size_t(type.width));
    a.data = bytes;
    writeNpyFile(path.string(), a);
    return type;
}

} // namespace

ElementType pointeeElementType(std::string_view typeName)
{
    std::string t(typeName);
    while (!t.empty() && (t.back() == '*' || t.back() == ' '))
        t.pop_back();
    for (bool again = true; again;) {
        again = false;
        for (const char *q :
             {"const ", "volatile ", "restrict ", "__global ", "global ", "__constant ", "constant "})
            if (t.rfind(q, 0) == 0) {
                t.erase(0, std::string_view(q).size());
                again = true;
            }
    }
    if (auto e = parseElementType(t))
        return *e;
    return ElementType{ScalarKind::UChar, 1, 0};
}

WorkbenchLaunch workbenchLaunch(const CapturedLaunch &l, const std::vector<KernelArg> &args,
                                const std::string &directory)
{
    if (const std::string blocker = replayBlocker(l); !blocker.empty())
        throw CaptureError(blocker);
    const std::string what = "launch " + std::to_string(l.index) + " (" + l.kernel + ")";
    if (args.size() != l.args.size())
        throw CaptureError(what + ": the kernel built here has " + std::to_string(args.size()) +
                           " arguments, the captured launch set " + std::to_string(l.args.size()));
    std::error_code ec;
    fs::create_directories(directory, ec);
    if (ec)
        throw CaptureError("cannot create " + directory + ": " + ec.message());
    const fs::path dir(directory);

    WorkbenchLaunch w;
    w.kernel = l.kernel;
    w.sources = l.sources;
    w.options = l.options;
    w.global = joinSizes(l.global);
    w.local = joinSizes(l.local);
    bool offset = false;
    for (std::size_t o : l.offset)
        offset |= o != 0;
    if (offset)
        w.offset = joinSizes(l.offset);
    for (const CapturedArg &a : l.args) {
        const KernelArg &k = args[a.index < args.size() ? a.index : 0];
        const std::string name = k.name.empty() ? "#" + std::to_string(a.index) : k.name;
        if (a.kind == "local") {
            w.args.push_back(name + "=local:" + std::to_string(a.size));
        } else if (a.kind == "mem") {
            const std::string stem = "arg" + std::to_string(a.index);
            const fs::path before = dir / (stem + "_before.npy");
            try {
                const ElementType type = writeContents(before, pointeeElementType(k.typeName), a.before);
                w.args.push_back(name + "=buffer:" + type.name() + ":" +
                                 std::to_string(a.before.size() / type.size()) + ":file=" + before.string());
                if (a.hasAfter) {
                    const fs::path after = dir / (stem + "_after.npy");
                    writeContents(after, type, a.after);
                    w.expected.push_back({name, after.string(), a.after != a.before});
                }
            } catch (const std::exception &e) {
                throw CaptureError(what + " argument " + std::to_string(a.index) + ": " + e.what());
            }
        } else if (a.kind == "null") {
            throw CaptureError(what + " argument " + std::to_string(a.index) +
                               ": a null buffer cannot be expressed in the workbench yet");
        } else {
            w.args.push_back(name + "=" + valueSpec(k, a.value));
        }
    }
    return w;
}

} // namespace clscope
