// clscope-cli build: builds a kernel file on the selected devices and prints every device's log, the
// kernels and the diagnostics (or the contract's JSON). Exit 1 when the build fails, 2 on bad input.
#include "cli.h"

#include "clscope/build.h"
#include "clscope/buildchild.h"
#include "clscope/devicespec.h"
#include "clscope/disassemble.h"
#include "clscope/error.h"
#include "clscope/fileio.h"
#include "clscope/programsource.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <iostream>
#include <memory>

namespace clscope::cli {
namespace {

struct BuildOptions
{
    CommonOptions common;
    ProgramInput input;
    std::string options;                  // --options "..."
    std::vector<std::string> afterDashes; // everything after --
    std::string matrix;                   // --matrix "SET|SET|..."
    bool disassemble = false;
    std::string request; // --request FILE: a build request of the GUI's (buildchild.h)
};

CacheState mergedCache(const std::vector<BuildResult> &results)
{
    const auto all = [&](CacheState s) {
        return std::all_of(results.begin(), results.end(),
                           [s](const BuildResult &r) { return r.cache() == s; });
    };
    if (all(CacheState::Off))
        return CacheState::Off;
    return all(CacheState::Hit) ? CacheState::Hit : CacheState::Miss;
}

// One result for builds on several platforms: failure if any failed, logs of every device, kernels
// with the work-group info of every device.
BuildResult merge(const std::vector<BuildResult> &results)
{
    if (results.size() == 1)
        return results.front();
    BuildResultData d;
    d.status = std::all_of(results.begin(), results.end(), [](const BuildResult &r) { return r.success(); })
                   ? BuildStatus::Success
                   : BuildStatus::Failure;
    d.cache = mergedCache(results);
    d.sourcePath = results.front().sourcePath();
    d.userOptions = results.front().userOptions(); // one request's, split across platforms
    for (const auto &r : results) {
        if (d.cacheNote.empty())
            d.cacheNote = r.cacheNote();
        d.durationMs += r.durationMs();
        // Platforms differ in their default -D options, so each platform's options are listed.
        if (d.options.find(r.options()) == std::string::npos)
            d.options += (d.options.empty() ? "" : "; ") + r.options();
        d.logs.insert(d.logs.end(), r.logs().begin(), r.logs().end());
        for (const auto &diag : r.diagnostics()) {
            if (std::find(d.diagnostics.begin(), d.diagnostics.end(), diag) == d.diagnostics.end())
                d.diagnostics.push_back(diag);
        }
        for (const auto &k : r.kernels()) {
            auto it = std::find_if(d.kernels.begin(), d.kernels.end(),
                                   [&](const auto &x) { return x.name == k.name; });
            if (it == d.kernels.end())
                d.kernels.push_back(k);
            else
                it->workGroups.insert(it->workGroups.end(), k.workGroups.begin(), k.workGroups.end());
        }
    }
    if (d.status == BuildStatus::Failure)
        d.kernels.clear();
    return BuildResult(std::move(d));
}

std::string signature(const KernelInfo &k)
{
    std::string out = k.name + "(";
    for (size_t i = 0; i < k.args.size(); ++i) {
        const KernelArg &a = k.args[i];
        if (i)
            out += ", ";
        if (k.argInfo == ArgInfoSource::None) {
            out += "?";
            continue;
        }
        if (a.address != AddressQualifier::Private)
            out += std::string(addressQualifierName(a.address)) + ' ';
        if (a.access != AccessQualifier::None)
            out += std::string(accessQualifierName(a.access)) + ' ';
        if (a.typeQualifiers & TypeConst)
            out += "const ";
        if (a.typeQualifiers & TypeVolatile)
            out += "volatile ";
        out += a.typeName;
        if (a.typeQualifiers & TypeRestrict)
            out += " restrict";
        if (!a.name.empty())
            out += ' ' + a.name;
    }
    return out + ")";
}

void printText(const BuildResult &r)
{
    for (const auto &log : r.logs()) {
        std::cout << "--- " << log.device << " (cache " << cacheStateName(log.cache) << ", "
                  << (log.success ? "built" : "failed") << ") ---\n";
        std::cout << (log.log.empty() ? std::string("(no messages)") : log.log) << '\n';
    }
    // The logs as the drivers wrote them name their own temporary files (PoCL's tempfile_*.cl); the
    // diagnostics, in clang's form, name the user's files and lines, each once.
    size_t errors = 0, warnings = 0;
    for (const auto &d : r.diagnostics()) {
        errors += d.severity == Severity::Error;
        warnings += d.severity == Severity::Warning;
        std::string where = d.file.empty() ? std::string() : d.file + ':';
        if (!d.file.empty() && d.line > 0)
            where += std::to_string(d.line) + ':' + (d.column > 0 ? std::to_string(d.column) + ':' : "");
        std::cout << where << (where.empty() ? "" : " ") << severityName(d.severity) << ": " << d.message
                  << '\n';
    }
    char duration[32];
    std::snprintf(duration, sizeof duration, "%.1f", r.durationMs());
    std::cout << (r.success() ? "Build succeeded" : "Build failed") << " in " << duration << " ms (cache "
              << cacheStateName(r.cache()) << "): " << errors << (errors == 1 ? " error, " : " errors, ")
              << warnings << (warnings == 1 ? " warning\n" : " warnings\n");
    std::cout << "Options: " << r.options() << '\n';
    for (const auto &k : r.kernels()) {
        std::cout << "Kernel " << signature(k) << '\n';
        if (!k.error.empty())
            std::cout << "  cannot run: " << k.error << '\n';
        for (const auto &w : k.workGroups) {
            std::cout << "  " << w.device << ": work-group size " << w.workGroupSize
                      << ", preferred multiple " << w.preferredWorkGroupSizeMultiple << ", local "
                      << w.localMemSize << " B, private " << w.privateMemSize << " B";
            if (w.compileWorkGroupSize[0])
                std::cout << ", compiled for " << w.compileWorkGroupSize[0] << 'x'
                          << w.compileWorkGroupSize[1] << 'x' << w.compileWorkGroupSize[2];
            std::cout << '\n';
        }
    }
}

// The text of each device's generated code under a header line naming what it is and what made it.
void printCode(const std::vector<GeneratedCode> &code)
{
    for (const GeneratedCode &c : code) {
        std::cout << "--- Generated code: " << c.device << " (" << codeKindName(c.kind);
        if (!c.tool.empty())
            std::cout << " by " << c.tool;
        std::cout << ", " << c.binaryBytes << " bytes binary) ---\n";
        if (!c.note.empty())
            std::cout << "(" << c.note << ")\n";
        if (c.hasText())
            std::cout << c.text << (c.text.back() == '\n' ? "" : "\n");
    }
}

nlohmann::ordered_json codeJson(const std::vector<GeneratedCode> &code)
{
    auto out = nlohmann::ordered_json::array();
    for (const GeneratedCode &c : code)
        out.push_back({{"device", c.device},
                       {"kind", codeKindName(c.kind)},
                       {"binary_bytes", c.binaryBytes},
                       {"tool", c.tool},
                       {"note", c.note},
                       {"text", c.text}});
    return out;
}

// The GUI's build compiled here first, so that a compiler that crashes takes this process down rather
// than the window (buildchild.h): the request built as the GUI would build it (source through the binary
// cache; SPIR-V, a binary or built-in kernels as buildProgramSource builds them).
int runRequest(const std::string &file)
{
    const ChildBuildRequest child = readChildBuildRequest(file);
    const BuildResult result =
        buildProgramSource(child.program, child.request, BinaryCache::fromEnvironment());
    std::cout << buildResultToJson(result) << '\n'; // for the GUI, which reads its cache state
    return result.success() ? ExitOk : ExitFailed;
}

int runBuild(const BuildOptions &opts)
{
    if (!opts.request.empty())
        return runRequest(opts.request);
    checkProgramInput(opts.input);
    const std::string spec = checkUsage(opts.common, opts.input.file);
    // The two ways of giving options become one string that splits back into the same tokens.
    std::vector<std::string> tokens = splitOptions(opts.options);
    tokens.insert(tokens.end(), opts.afterDashes.begin(), opts.afterDashes.end());
    if (!opts.matrix.empty()) {
        if (opts.disassemble)
            throw CliFailure{ExitUsage, "--disassemble shows one build: not with --matrix"};
        return runBuildMatrix({opts.input, spec, joinOptions(tokens), opts.matrix, opts.common.json});
    }

    const BinaryCache cache = BinaryCache::fromEnvironment();
    std::vector<BuildResult> results;
    for (const auto &group : byPlatform(selectDevices(spec))) {
        BuildRequest request;
        for (const auto &d : group)
            request.devices.push_back(d.device);
        request.sourcePath = opts.input.file;
        request.options = joinOptions(tokens);
        results.push_back(buildProgramInput(opts.input, request, cache));
    }
    const BuildResult result = merge(results);
    if (!result.cacheNote().empty())
        std::cerr << "clscope-cli: warning: " << result.cacheNote() << '\n';
    // The code of each platform's build, in device order: only a program that built has any.
    std::vector<GeneratedCode> code;
    if (opts.disassemble && result.success()) {
        for (const BuildResult &r : results) {
            std::vector<GeneratedCode> part = generatedCode(r);
            code.insert(code.end(), std::make_move_iterator(part.begin()),
                        std::make_move_iterator(part.end()));
        }
    }
    if (opts.common.json) {
        if (!opts.disassemble) {
            std::cout << buildResultToJson(result) << '\n';
        } else {
            auto doc = nlohmann::ordered_json::parse(buildResultToJson(result));
            doc["generated_code"] = codeJson(code);
            std::cout << doc.dump(2, ' ', false, nlohmann::json::error_handler_t::replace) << '\n';
        }
    } else {
        printText(result);
        printCode(code);
    }
    return result.success() ? ExitOk : ExitFailed;
}

} // namespace

std::vector<std::vector<SelectedDevice>> byPlatform(const std::vector<SelectedDevice> &devices)
{
    std::vector<std::vector<SelectedDevice>> groups;
    for (const auto &d : devices) {
        auto it = std::find_if(groups.begin(), groups.end(),
                               [&](const auto &g) { return g.front().platform == d.platform; });
        if (it == groups.end())
            groups.push_back({d});
        else
            it->push_back(d);
    }
    return groups;
}

std::vector<std::string> nameCompilerOptions(int argc, char **argv)
{
    std::vector<std::string> words(argv, argv + argc);
    if (argc < 2 || words[1] != "build")
        return words;
    const auto dashes = std::find(words.begin() + 2, words.end(), "--");
    if (dashes == words.end())
        return words;
    std::vector<std::string> named(words.begin(), dashes);
    for (auto it = dashes + 1; it != words.end(); ++it)
        named.push_back("--compiler-option=" + *it);
    return named;
}

void addBuildCommand(CLI::App &app, Action &action)
{
    auto opts = std::make_shared<BuildOptions>();
    CLI::App *sub = app.add_subcommand("build", "Build an OpenCL C file (or SPIR-V .spv) and show every log");
    addProgramInputOptions(sub, opts->input,
                           "The .cl files of the program (or SPIR-V, or a binary with --binary) to build");
    sub->add_option("--options", opts->options, "Build options as one string, split like a shell");
    sub->add_option("--compiler-option", opts->afterDashes,
                    "Build options after --, one per argument (`build A.cl -- -D N=4 -I dir`)")
        ->group(""); // hidden: what main makes of the words after --
    sub->add_option("--request", opts->request, "A build request written by the GUI (its build's child)")
        ->group(""); // hidden: for the GUI, not for users
    sub->add_option("--matrix", opts->matrix,
                    "Build with each option set ('|' between them) on every selected device and compare: "
                    "build time, warnings, binary size, work-group info, registers and spills");
    sub->add_flag("--disassemble", opts->disassemble,
                  "Show the generated code of each device: PTX (NVIDIA), LLVM IR (PoCL, Oclgrind; llvm-dis), "
                  "SPIR-V (spirv-dis)");
    addCommonOptions(sub, opts->common);
    sub->footer(
        "Examples:\n  clscope-cli build kernel.cl --options \"-D N=64 -cl-fast-relaxed-math\"\n"
        "  clscope-cli build kernel.cl --device pocl --json -- -I include -D N=64\n"
        "  clscope-cli build --builtin 'pocl.add.i8' --device pocl\n"
        "  clscope-cli build matmul_tiled.cl --matrix \"-cl-opt-disable|-cl-fast-relaxed-math|-cl-mad-enable "
        "-DTILE=32\" "
        "--device all\n"
        "  clscope-cli build matmul_tiled.cl --disassemble --device pocl\n"
        "Environment: CLSCOPE_BUILD_OPTIONS and PYOPENCL_BUILD_OPTIONS (appended), CLSCOPE_CACHE_DIR, "
        "CLSCOPE_NO_CACHE=1");
    sub->callback([opts, &action] { action = [opts] { return runBuild(*opts); }; });
}

} // namespace clscope::cli
