// Export of one captured launch as a standalone pyopencl script: kernel.cl, the arguments' "before"
// contents as .npy inputs, their "after" contents as expected outputs, and replay.py, which builds,
// launches, compares and exits 1 at the first differing element.
#include "clscope/capture.h"
#include "clscope/text.h"

#include "clscope/build.h"
#include "clscope/kernelargs.h"
#include "clscope/npy.h"

#include <filesystem>
#include <fstream>
#include <sstream>

namespace clscope {

namespace {

namespace fs = std::filesystem;

std::string pyString(std::string_view s)
{
    std::string out = "\"";
    for (unsigned char c : s) {
        if (c == '\\' || c == '"')
            out += '\\', out += char(c);
        else if (c >= 32 && c < 127)
            out += char(c);
        else {
            char buf[8];
            std::snprintf(buf, sizeof buf, "\\x%02x", c);
            out += buf;
        }
    }
    return out + "\"";
}

std::string sizes(const std::vector<std::size_t> &v)
{
    std::string s = "(";
    for (std::size_t x : v)
        s += std::to_string(x) + ", ";
    return s + ")";
}

// The scalar of a buffer argument's pointee from the source's signature; uchar when it is not a number type.
ScalarKind pointeeScalar(const KernelSignature *sig, std::uint32_t index)
{
    if (sig && index < sig->args.size())
        if (const ElementType e = pointeeElementType(sig->args[index].typeName); !e.isRaw())
            return e.scalar;
    return ScalarKind::UChar;
}

void writeNpy(const fs::path &path, ScalarKind kind, const std::vector<unsigned char> &bytes)
{
    NpyArray a;
    a.dtype = kind;
    const std::size_t size = scalarSize(kind);
    if (bytes.size() % size != 0)
        a.dtype = ScalarKind::UChar;
    a.shape = {bytes.size() / scalarSize(a.dtype)};
    a.data = bytes;
    writeNpyFile(path.string(), a);
}

} // namespace

void exportPyopencl(const CapturedLaunch &l, const std::string &directory)
{
    // The export needs what replay needs: the source, and every argument's contents.
    if (const std::string blocker = replayBlocker(l); !blocker.empty())
        throw CaptureError(blocker);
    std::error_code ec;
    fs::create_directories(directory, ec);
    if (ec)
        throw CaptureError("cannot create " + directory + ": " + ec.message());
    const fs::path dir(directory);
    std::string source;
    for (const std::string &s : l.sources)
        source += s;
    {
        std::ofstream cl(dir / "kernel.cl", std::ios::binary);
        cl << source;
        if (!cl)
            throw CaptureError("cannot write " + (dir / "kernel.cl").string());
    }
    const std::vector<KernelSignature> sigs = parseKernelSignatures(source);
    const KernelSignature *sig = nullptr;
    for (const KernelSignature &s : sigs)
        if (s.name == l.kernel)
            sig = &s;

    std::ostringstream py;
    py << "#!/usr/bin/env python3\n"
       << "# Launch " << l.index << " of kernel " << l.kernel << ", captured on " << l.device
       << " by clscope-cli capture;\n"
       << "# written by clscope-cli export. Runs it once on the device pyopencl picks (PYOPENCL_CTX) and\n"
       << "# compares every buffer with the captured output. Usage: replay.py [TOLERANCE]\n"
       << "import os\nimport sys\n\nimport numpy as np\nimport pyopencl as cl\n\n"
       << "HERE = os.path.dirname(os.path.abspath(__file__))\n"
       << "TOLERANCE = float(sys.argv[1]) if len(sys.argv) > 1 else 0.0\n"
       << "with open(os.path.join(HERE, \"kernel.cl\")) as f:\n    SOURCE = f.read()\n"
       << "OPTIONS = " << pyString(l.options) << "\n\n"
       << "ctx = cl.create_some_context(interactive=False)\nqueue = cl.CommandQueue(ctx)\n"
       << "program = cl.Program(ctx, SOURCE).build(options=OPTIONS)\n"
       << "kernel = cl.Kernel(program, " << pyString(l.kernel) << ")\n"
       << "mf = cl.mem_flags\noutputs = []\n\n";
    for (const CapturedArg &a : l.args) {
        const std::string n = std::to_string(a.index);
        if (a.kind == "mem") {
            const ScalarKind kind = pointeeScalar(sig, a.index);
            writeNpy(dir / ("arg" + n + "_before.npy"), kind, a.before);
            py << "arg" << n << " = np.load(os.path.join(HERE, \"arg" << n << "_before.npy\"))\n"
               << "buf" << n << " = cl.Buffer(ctx, mf.READ_WRITE | mf.COPY_HOST_PTR, hostbuf=arg" << n
               << ")\n"
               << "kernel.set_arg(" << n << ", buf" << n << ")\n";
            if (a.hasAfter) {
                writeNpy(dir / ("arg" + n + "_after.npy"), kind, a.after);
                py << "outputs.append((" << n << ", buf" << n << ", arg" << n << "))\n";
            }
        } else if (a.kind == "local") {
            py << "kernel.set_arg(" << n << ", cl.LocalMemory(" << a.size << "))\n";
        } else {
            py << "kernel.set_arg(" << n << ", np.frombuffer(bytes.fromhex(\"" << hexBytes(a.value)
               << "\"), dtype=np.uint8))\n";
        }
    }
    py << "\ncl.enqueue_nd_range_kernel(queue, kernel, " << sizes(l.global) << ", "
       << (l.local.empty() ? std::string("None") : sizes(l.local))
       << ", global_work_offset=" << sizes(l.offset) << ")\nqueue.finish()\n\n"
       << "equal = True\n"
       << "for index, buf, like in outputs:\n"
       << "    got = np.empty_like(like)\n"
       << "    cl.enqueue_copy(queue, got, buf)\n"
       << "    want = np.load(os.path.join(HERE, \"arg%d_after.npy\" % index))\n"
       << "    if got.dtype.kind == \"f\":\n"
       << "        same = np.isclose(got, want, rtol=0, atol=TOLERANCE, equal_nan=True)\n"
       << "    else:\n"
       << "        same = got == want\n"
       << "    if same.all():\n"
       << "        print(\"argument %d: equal\" % index)\n"
       << "    else:\n"
       << "        first = int(np.argmin(same))\n"
       << "        print(\"argument %d: differs at element %d: expected %r, got %r\" % (index, first, "
          "want[first], got[first]))\n"
       << "        equal = False\n"
       << "sys.exit(0 if equal else 1)\n";
    const fs::path script = dir / "replay.py";
    {
        std::ofstream out(script);
        out << py.str();
        if (!out)
            throw CaptureError("cannot write " + script.string());
    }
    fs::permissions(script, fs::perms::owner_exec | fs::perms::group_exec | fs::perms::others_exec,
                    fs::perm_options::add, ec);
}

} // namespace clscope
