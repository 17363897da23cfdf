// clscope-cli replay FILE --launch N|A-B: a captured launch (or a range of them, buffers flowing from one to
// the next) again, on any device, compared with what the program's own run produced.
#include "cli.h"

#include "clscope/capture.h"
#include "clscope/devicespec.h"
#include "clscope/format.h"

#include <algorithm>
#include <charconv>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iostream>

namespace clscope::cli {
namespace {

struct ReplayOptions
{
    CommonOptions common;
    std::string file;
    std::string launch; // "N" or "A-B"
    double tolerance = 0;
};

// "7" -> {7, 7}, "3-9" -> {3, 9}.
std::pair<std::int64_t, std::int64_t> parseLaunchRange(const std::string &text)
{
    const auto number = [&](std::string_view t) -> std::int64_t {
        std::int64_t v = -1;
        const auto [end, ec] = std::from_chars(t.data(), t.data() + t.size(), v);
        if (t.empty() || ec != std::errc() || end != t.data() + t.size() || v < 0)
            throw CliFailure{ExitUsage,
                             "--launch takes a launch index from 0 or a range A-B, not '" + text + "'"};
        return v;
    };
    const std::size_t dash = text.find('-', 1);
    if (dash == std::string::npos)
        return {number(text), number(text)};
    const std::int64_t first = number(std::string_view(text).substr(0, dash));
    const std::int64_t last = number(std::string_view(text).substr(dash + 1));
    if (last < first)
        throw CliFailure{ExitUsage, "--launch " + text + ": the range ends before it starts"};
    return {first, last};
}

void printReplay(const ReplayResult &r)
{
    std::cout << "launch " << r.launch << " (" << r.kernel << "), captured on " << r.capturedDevice
              << ", replayed on " << r.device << " in " << formatNanoseconds(double(r.durationNs)) << '\n';
    for (std::uint32_t arg : r.reloaded)
        std::cout << "  argument " << arg
                  << ": set from the capture (the program changed it since the last launch)\n";
    for (const ReplayOutput &out : r.outputs)
        std::cout << "  " << replayArgumentName(out) << ", " << out.elements << " x " << out.type << ": "
                  << replayVerdict(out) << '\n';
    if (r.outputs.empty())
        std::cout << "  " << replayVerdict(r) << '\n';
}

// Debian's oclgrind registers no ICD. When the spec asks for Oclgrind and no vendors folder was chosen,
// a private one (the system's ICDs plus Oclgrind's) is handed to the loader before its first call; the
// loader reads it once, so the folder is removed right after the device is chosen.
std::filesystem::path exposeOclgrind(const std::string &spec)
{
    namespace fs = std::filesystem;
    std::string lower = spec;
    std::transform(lower.begin(), lower.end(), lower.begin(),
                   [](unsigned char c) { return std::tolower(c); });
    if (lower.find("oclgrind") == std::string::npos || std::getenv("OCL_ICD_VENDORS") ||
        std::getenv("OCL_ICD_FILENAMES"))
        return {};
    std::error_code ec;
    fs::path icd;
    for (const char *candidate :
         {"/usr/lib/oclgrind/liboclgrind-rt-icd.so", "/usr/lib/x86_64-linux-gnu/liboclgrind-rt-icd.so",
          "/usr/local/lib/liboclgrind-rt-icd.so", "/usr/lib/liboclgrind-rt-icd.so"})
        if (fs::exists(candidate, ec)) {
            icd = candidate;
            break;
        }
    if (icd.empty())
        return {};
    std::string templ = (fs::temp_directory_path(ec) / "clscope-vendors-XXXXXX").string();
    if (!::mkdtemp(templ.data()))
        return {};
    const fs::path dir = templ;
    for (const auto &entry : fs::directory_iterator("/etc/OpenCL/vendors", ec))
        if (entry.path().extension() == ".icd")
            fs::copy_file(entry.path(), dir / entry.path().filename(), ec);
    std::ofstream(dir / "clscope-oclgrind.icd") << icd.string() << '\n';
    ::setenv("OCL_ICD_VENDORS", dir.c_str(), 1);
    return dir;
}

int runReplay(const ReplayOptions &o)
{
    const std::string spec = checkUsage(o.common, o.file);
    const auto [first, last] = parseLaunchRange(o.launch);
    if (o.tolerance < 0)
        throw CliFailure{ExitUsage, "--tolerance must not be negative"};
    constexpr std::int64_t kMaxRange = 100000;
    if (last - first >= kMaxRange)
        throw CliFailure{ExitUsage, "--launch " + o.launch + ": at most " + std::to_string(kMaxRange) +
                                        " launches in one range"};
    std::vector<CapturedLaunch> launches;
    try {
        const CaptureReader reader(o.file);
        for (std::int64_t i = first; i <= last; ++i)
            launches.push_back(reader.launch(i));
    } catch (const CaptureError &e) {
        throw CliFailure{ExitUsage, e.what()};
    }
    const std::filesystem::path vendors = exposeOclgrind(spec);
    struct RemoveVendors
    {
        const std::filesystem::path &dir;
        ~RemoveVendors()
        {
            std::error_code ec;
            if (!dir.empty())
                std::filesystem::remove_all(dir, ec);
        }
    } removeVendors{vendors};
    const SelectedDevice device = selectDevice(spec);
    const std::vector<ReplayResult> results = replayLaunches(launches, device.device, o.tolerance);
    const auto differs =
        std::find_if(results.begin(), results.end(), [](const ReplayResult &r) { return !r.equal(); });
    if (o.common.json) {
        // One launch: its object, as before ranges; a range: the range's document.
        std::cout << (first == last ? replayJson(results.front()) : replayJson(results)) << '\n';
    } else {
        for (const ReplayResult &r : results)
            printReplay(r);
        if (first != last)
            std::cout << results.size() << " launches replayed in order, buffers kept between them: "
                      << (differs == results.end()
                              ? "all equal"
                              : "launch " + std::to_string(differs->launch) + " is the first that differs")
                      << '\n';
    }
    return differs == results.end() ? ExitOk : ExitFailed;
}

struct ExportOptions
{
    std::string file;
    std::int64_t launch = -1;
    std::string pyopencl;
};

int runExport(const ExportOptions &o)
{
    CommonOptions none;
    checkUsage(none, o.file);
    if (o.launch < 0)
        throw CliFailure{ExitUsage, "--launch takes a launch index from 0, not " + std::to_string(o.launch)};
    CapturedLaunch launch;
    try {
        launch = CaptureReader(o.file).launch(o.launch);
    } catch (const CaptureError &e) {
        throw CliFailure{ExitUsage, e.what()};
    }
    exportPyopencl(launch, o.pyopencl);
    std::cout << "wrote " << o.pyopencl << "/replay.py: python3 " << o.pyopencl << "/replay.py [TOLERANCE]\n";
    return ExitOk;
}

} // namespace

void addReplayCommand(CLI::App &app, Action &action)
{
    auto o = std::make_shared<ReplayOptions>();
    CLI::App *sub = app.add_subcommand("replay", "Run one captured launch again on any device and compare");
    sub->add_option("file", o->file, "Capture file")->required();
    sub->add_option(
           "--launch", o->launch,
           "Launch index (from 0, in enqueue order), or a range A-B replayed in order with the buffers "
           "kept on the device between the launches")
        ->required();
    sub->add_option("--tolerance", o->tolerance,
                    "Largest absolute difference of floating values that is equal");
    addCommonOptions(sub, o->common);
    sub->callback([o, &action] { action = [o] { return runReplay(*o); }; });

    auto e = std::make_shared<ExportOptions>();
    CLI::App *ex = app.add_subcommand("export", "Write a captured launch as a standalone pyopencl script");
    ex->add_option("file", e->file, "Capture file")->required();
    ex->add_option("--launch", e->launch, "Launch index (from 0, in enqueue order)")->required();
    ex->add_option("--pyopencl", e->pyopencl, "Folder for replay.py, kernel.cl and the .npy files")
        ->required();
    ex->callback([e, &action] { action = [e] { return runExport(*e); }; });
}

} // namespace clscope::cli
