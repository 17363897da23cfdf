// clscope-cli run: builds a kernel file, runs one kernel with typed arguments and buffers, and prints the
// buffers asked for with the per-launch profile (or the contract's JSON). Exit 1 when the build or the run
// fails, 2 on bad usage (one stderr line naming the argument, the kernel or the limit). With --check the
// run goes to a child on Oclgrind (cmd_check.cpp), which comes back here as the in-process run.
#include "cli.h"
#include "clscope/capture.h"

#include <algorithm>

#include "clscope/build.h"
#include "clscope/check.h"
#include "clscope/devicespec.h"
#include "clscope/error.h"
#include "clscope/fileio.h"
#include "clscope/imagedata.h"
#include "clscope/kernelargs.h"
#include "clscope/npy.h"
#include "clscope/profile.h"
#include "clscope/runner.h"
#include "clscope/structs.h"

#include <nlohmann/json.hpp>

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <iostream>
#include <memory>

namespace clscope::cli {
namespace {

struct RunOptionsCli : LaunchOptions
{
    std::vector<std::string> saves; // NAME=PATH
    std::string trace;
    std::string saveCapture; // FILE.clscope
    bool check = false;
    bool lines = false;
    std::uint64_t sampleGroups = kDefaultSampleGroups; // of --lines
};

// The run's own arguments, for the child of --check (which picks Oclgrind itself, so --device is left out).
std::vector<std::string> childArguments(const RunOptionsCli &opts)
{
    std::vector<std::string> args = runArguments(opts);
    for (const std::string &p : opts.saves)
        args.insert(args.end(), {"--save", p});
    if (!opts.trace.empty())
        args.insert(args.end(), {"--trace", opts.trace});
    if (!opts.saveCapture.empty())
        args.insert(args.end(), {"--save-capture", opts.saveCapture});
    args.emplace_back("--check");
    if (opts.common.json)
        args.emplace_back("--json");
    return args;
}

nlohmann::ordered_json sizesJson(const std::vector<std::size_t> &sizes)
{
    auto out = nlohmann::ordered_json::array();
    for (std::size_t s : sizes)
        out.push_back(s);
    return out;
}

// Integers stay integers (64-bit exactly), floats are doubles; NaN and the infinities, which JSON cannot
// write as numbers, are the strings "nan", "inf" and "-inf" (docs/cli.md), never null.
nlohmann::ordered_json numberJson(const Number &n)
{
    return std::visit(
        [](auto v) {
            if constexpr (std::is_floating_point_v<decltype(v)>) {
                if (std::isnan(v))
                    return nlohmann::ordered_json("nan");
                if (std::isinf(v))
                    return nlohmann::ordered_json(v > 0 ? "inf" : "-inf");
            }
            return nlohmann::ordered_json(v);
        },
        n);
}

nlohmann::ordered_json structJson(const StructLayout &layout, const unsigned char *bytes);

// One element of a struct's field: a number, [components] of a vector, [re, im] of a complex number, an
// object for a struct, the bytes of an opaque field as numbers.
nlohmann::ordered_json elementJson(const FieldLayout &f, const unsigned char *p)
{
    if (f.nested)
        return structJson(*f.nested, p);
    const ElementType &t = *f.element;
    if (t.isRaw()) {
        auto out = nlohmann::ordered_json::array();
        for (std::size_t i = 0; i < t.rawSize; ++i)
            out.push_back(p[i]);
        return out;
    }
    if (t.width == 1)
        return numberJson(decodeNumber(t.scalar, p));
    auto out = nlohmann::ordered_json::array();
    for (int i = 0; i < t.width; ++i)
        out.push_back(numberJson(decodeNumber(t.scalar, p + std::size_t(i) * scalarSize(t.scalar))));
    return out;
}

nlohmann::ordered_json arrayJson(const FieldLayout &f, const unsigned char *p, std::size_t dim,
                                 std::size_t &index)
{
    if (dim == f.dims.size())
        return elementJson(f, p + (index++) * f.elementSize());
    auto out = nlohmann::ordered_json::array();
    for (std::size_t i = 0; i < f.dims[dim]; ++i)
        out.push_back(arrayJson(f, p, dim + 1, index));
    return out;
}

nlohmann::ordered_json structJson(const StructLayout &layout, const unsigned char *bytes)
{
    auto out = nlohmann::ordered_json::object();
    for (const FieldLayout &f : layout.fields) {
        std::size_t index = 0;
        out[f.name] = arrayJson(f, bytes + f.offset, 0, index);
    }
    return out;
}

// A buffer's numbers as numberJson writes them; a buffer of structs is an array of objects, field by field.
nlohmann::ordered_json bufferJson(const BufferData &buffer)
{
    auto out = nlohmann::ordered_json::array();
    if (buffer.layout) {
        const std::size_t size = buffer.type.size();
        for (std::size_t i = 0; size && i < buffer.count && (i + 1) * size <= buffer.bytes.size(); ++i)
            out.push_back(structJson(*buffer.layout, buffer.bytes.data() + i * size));
        return out;
    }
    for (const Number &n : buffer.numbers())
        out.push_back(numberJson(n));
    return out;
}

// --save NAME=PATH: the buffer or image NAME, read back, goes to PATH as .npy (an image to a .png as a
// picture).
struct SaveRequest
{
    std::string name;
    std::string path;
};

std::vector<SaveRequest> parseSaves(const std::vector<std::string> &saves)
{
    std::vector<SaveRequest> out;
    for (const std::string &s : saves) {
        const std::size_t eq = s.find('=');
        if (eq == 0 || eq == std::string::npos || eq + 1 == s.size())
            throw CliFailure{ExitUsage, "--save " + s + " needs the form NAME=PATH"};
        out.push_back({s.substr(0, eq), s.substr(eq + 1)});
    }
    return out;
}

// Writes every saved buffer (a failure to write exits 1 naming the file and why, ENOSPC by name).
void writeSaves(const RunResult &r, const std::vector<SaveRequest> &saves)
{
    for (const SaveRequest &s : saves) {
        const BufferData *b = r.buffer(s.name);
        if (!b)
            throw CliFailure{ExitFailed, "--save " + s.name + ": the buffer was not read back"};
        const bool png = std::filesystem::path(s.path).extension() == ".png";
        if (png && !b->image)
            throw CliFailure{ExitUsage, "--save " + s.name + "=" + s.path +
                                            ": only images are saved as PNG; a buffer is saved as .npy"};
        try {
            if (png)
                writeWholeFile(s.path, encodePng(imageToPng(*b)));
            else
                writeNpyFile(s.path, toNpy(*b));
        } catch (const Error &e) {
            throw CliFailure{ExitFailed, "--save " + s.name + "=" + s.path + ": " + e.what()};
        }
    }
}

std::string toJson(const RunResult &r, const std::vector<std::string> &prints,
                   const std::vector<SaveRequest> &saves, const std::string &printed)
{
    nlohmann::ordered_json j;
    j["kernel"] = r.kernel();
    j["global"] = sizesJson(r.global());
    j["local"] = r.local().empty() ? nlohmann::ordered_json(nullptr) : sizesJson(r.local());
    j["offset"] = sizesJson(r.offset());
    j["device"] = r.device();
    auto profile = nlohmann::ordered_json::array();
    for (const CommandRecord &c : r.launches())
        profile.push_back({{"queued", c.queued}, {"submit", c.submit}, {"start", c.start}, {"end", c.end}});
    j["profile"] = std::move(profile);
    auto buffers = nlohmann::ordered_json::object();
    for (const std::string &name : prints) {
        if (const BufferData *b = r.buffer(name))
            buffers[name] = bufferJson(*b);
    }
    j["buffers"] = std::move(buffers);
    // What the numbers of an image are: its type, format and size (pixels in rows, channels interleaved).
    auto images = nlohmann::ordered_json::object();
    for (const std::string &name : prints) {
        if (const BufferData *b = r.buffer(name); b && b->image) {
            const std::vector<std::size_t> region = imageRegion(b->image->shape, b->image->dim);
            images[name] = {{"type", imageDimName(b->image->dim)},
                            {"format", formatText(b->image->format)},
                            {"size", formatImageShape(b->image->shape, b->image->dim)},
                            {"region", sizesJson(region)},
                            {"channels", isPackedType(b->image->format.type)
                                             ? std::size_t(1)
                                             : channelLetters(b->image->format.order).size()}};
        }
    }
    if (!images.empty())
        j["images"] = std::move(images);
    if (!saves.empty()) {
        auto saved = nlohmann::ordered_json::object();
        for (const SaveRequest &s : saves)
            saved[s.name] = s.path;
        j["saved"] = std::move(saved);
    }
    j["printf"] = printed; // the kernel's printf output ("" when it printed nothing)
    j["duration_ms"] = r.durationMs();
    return j.dump(2, ' ', false, nlohmann::json::error_handler_t::replace);
}

void printText(const RunResult &r, const std::vector<std::string> &prints)
{
    std::cout << "Kernel " << r.kernel() << " on " << r.device() << ": global " << formatSizeList(r.global())
              << ", local "
              << (r.local().empty() ? std::string("(chosen by the driver)") : formatSizeList(r.local()))
              << ", offset " << formatSizeList(r.offset()) << '\n';
    char line[96];
    for (std::size_t i = 0; i < r.launches().size(); ++i) {
        std::snprintf(line, sizeof line, "Launch %zu: %.3f us", i + 1,
                      double(r.launches()[i].duration()) / 1e3);
        std::cout << line << '\n';
    }
    std::snprintf(line, sizeof line, "Wall time %.3f ms", r.durationMs());
    std::cout << line << '\n';
    for (const std::string &name : prints) {
        const BufferData *b = r.buffer(name);
        if (!b)
            continue;
        if (b->image)
            std::cout << name << " (" << imageDimName(b->image->dim) << " "
                      << formatImageShape(b->image->shape, b->image->dim) << " "
                      << formatText(b->image->format) << "):";
        else
            std::cout << name << " (" << b->count << " " << (b->layout ? b->layout->label() : b->type.name())
                      << "):";
        if (b->layout) {
            // One struct per element, in the --arg syntax: {x=1,v=(1,2,3,4),inner={a=3}}.
            const std::size_t size = b->type.size();
            for (std::size_t i = 0; size && i < b->count && (i + 1) * size <= b->bytes.size(); ++i)
                std::cout << ' ' << formatStruct(*b->layout, b->bytes.data() + i * size);
            std::cout << '\n';
            continue;
        }
        const ScalarKind kind = b->type.isRaw() ? ScalarKind::UChar : b->type.scalar;
        const std::vector<Number> numbers = b->numbers();
        if (b->type.complex) {
            for (std::size_t i = 0; i + 1 < numbers.size(); i += 2)
                std::cout << ' ' << formatComplex(toDouble(numbers[i]), toDouble(numbers[i + 1]), kind);
        } else {
            for (const Number &n : numbers)
                std::cout << ' ' << formatNumber(n, kind);
        }
        std::cout << '\n';
    }
}

int runRun(const RunOptionsCli &given)
{
    RunOptionsCli opts = given;
    std::string source; // read here only when the file's own launch is used
    const std::string spec = prepareLaunch(opts, &source);
    if (opts.repeat < 1)
        throw CliFailure{ExitUsage, "--repeat " + std::to_string(opts.repeat) + " must be at least 1"};

    // What can be checked without a device is checked before the build.
    RunRequest request = launchRequest(opts);
    request.repeat = opts.repeat;
    const std::vector<SaveRequest> saves = parseSaves(opts.saves);
    for (const SaveRequest &s : saves)
        request.readBack.push_back(s.name);

    const bool checkChild = opts.check && isCheckChild();
    if (opts.lines && opts.check)
        throw CliFailure{ExitUsage, "--lines and --check are two runs on Oclgrind: give one of them"};
    if (opts.lines) {
        CheckedRun run{childArguments(opts), opts.input.file, spec, opts.common.json};
        run.sampleGroups = opts.sampleGroups;
        return runWithLineProfile(run);
    }
    if (opts.check && !checkChild)
        return runUnderCheck({childArguments(opts), opts.input.file, spec, opts.common.json});
    // The child of --check sees Oclgrind only. No -g: Oclgrind always compiles with debug info
    // (-debug-info-kind=standalone), and its front end refuses -g.
    const SelectedDevice device = selectDevice(checkChild ? std::string("oclgrind") : spec);
    request.build = buildForLaunch(opts, source, device.device);
    request.device = device.device;
    RunOptions runOptions;
    runOptions.writeInsteadOfFill = checkChild;
    // Buffers of exactly the user's size (no pool slack past the end to hide an off-by-one), and where
    // Oclgrind put them, for the parent to name the buffers of its reports.
    runOptions.exactBuffers = checkChild;
    const char *buffersFile = checkChild ? std::getenv(kCheckBuffersVariable) : nullptr;
    runOptions.probeAddresses = buffersFile && *buffersFile;
    if (!opts.trace.empty()) {
        // The trace puts the pool's held/active bytes under the commands: both on steady_clock.
        runOptions.calibrateClock = true;
        runOptions.pool = makePool(AllocatorKind::Deferred, request.build.context());
    }
    // The kernel's printf goes to this process's stdout: taken apart, it is reported after the run instead
    // of landing in front of the output (or the JSON document).
    runOptions.capturePrintf = true;
    runOptions.keepContents = !opts.saveCapture.empty();
    const RunResult result = runKernel(request, runOptions);
    if (runOptions.probeAddresses) {
        try {
            writeWholeFile(buffersFile, checkedBuffersToJson(checkedBuffersOf(result)));
        } catch (const Error &) {
            // The reports then keep Oclgrind's addresses: nothing of the run is lost.
        }
    }
    if (!opts.saveCapture.empty()) {
        // The run as a capture: replay takes it as any capture (a failure exits 1, main.cpp).
        std::vector<std::string> words = childArguments(opts);
        words.erase(std::remove(words.begin(), words.end(), std::string("--check")), words.end());
        words.insert(words.begin(), "clscope-cli");
        writeRunCapture(opts.saveCapture, result, request.build, request.device, joinCommandLine(words));
    }
    const std::string &printed = result.printed();
    if (!opts.trace.empty()) {
        const RunProfile profile = hostProfile(result, runOptions.pool.get());
        writeChromeTrace(opts.trace, profile.commands, {}, profile.pool); // a failure exits 1 (main.cpp)
    }
    writeSaves(result, saves);
    if (result.printedDropped())
        std::cerr << "clscope-cli: warning: the kernel printed " << result.printedDropped()
                  << " more bytes than are kept; they were left out\n";
    if (opts.common.json) {
        std::cout << toJson(result, opts.prints, saves, printed) << '\n';
    } else {
        printText(result, opts.prints);
        if (!printed.empty())
            std::cout << "printf output:\n" << printed << (printed.back() == '\n' ? "" : "\n");
    }
    return ExitOk;
}

} // namespace

void addRunCommand(CLI::App &app, Action &action)
{
    auto opts = std::make_shared<RunOptionsCli>();
    CLI::App *sub =
        app.add_subcommand("run", "Build an OpenCL C file and run one kernel with typed arguments");
    addLaunchOptions(sub, *opts, "Local size X[,Y[,Z]] (default: the driver chooses)");
    sub->add_option("--repeat", opts->repeat, "Launches, one after another (default 1)");
    sub->add_option("--print", opts->prints, "A buffer to print after the run")->allow_extra_args(false);
    sub->add_option("--save", opts->saves,
                    "NAME=PATH: write the buffer or image NAME after the run to PATH as .npy, an image to a "
                    ".png as a picture (instead of printing it)")
        ->allow_extra_args(false);
    sub->add_option("--trace", opts->trace, "Write the commands as Chrome trace JSON to this file");
    sub->add_option("--save-capture", opts->saveCapture,
                    "Save the run as a capture file (docs/capture-format.md): every buffer before the first "
                    "launch and after the last, so that `replay FILE --launch 0` (0-N for --repeat N+1) runs "
                    "it again on any device and compares");
    sub->add_flag("--check", opts->check,
                  "Run on Oclgrind with its checks on and report invalid accesses, data races, uninitialised "
                  "values, barrier divergence and invalid API use at the kernel's lines (exit 3 when any)");
    sub->add_flag("--lines", opts->lines,
                  "Run on Oclgrind with CLScope's line profiler: for every source line, the instructions it "
                  "executed, its flops, the bytes it moved in global and local memory, atomics, barriers and "
                  "work-groups whose branches diverged");
    sub->add_option(
           "--sample-groups", opts->sampleGroups,
           "With --lines: a launch of more work-groups than this runs only this many, evenly spread "
           "(first and last included), and its counts are scaled; 0 runs every work-group (default " +
               std::to_string(kDefaultSampleGroups) + ")")
        ->check(CLI::Range(std::uint64_t{0}, std::uint64_t{1} << 30));
    sub->footer(argumentHelp() +
                "\nExample:\n  clscope-cli run vector_add.cl --kernel vector_add --global 1024 \\\n"
                "    --arg a=buffer:float:1024:iota --arg b=buffer:float:1024:fill=2 \\\n"
                "    --arg c=buffer:float:1024 --arg n=uint:1024 --print c --json");
    sub->callback([opts, &action] { action = [opts] { return runRun(*opts); }; });
}

} // namespace clscope::cli
