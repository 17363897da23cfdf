// clscope-cli: the CLScope core, headless. Subcommands and the JSON contract are in DESIGN.md.
#include "cli.h"

#include "clscope/compilerthread.h"
#include "clscope/devicespec.h"
#include "clscope/error.h"
#include "clscope/loaderenv.h"

#include <nlohmann/json.hpp>

#include <filesystem>

#include <iostream>
#include <string_view>

namespace clscope::cli {

std::string checkUsage(const CommonOptions &opts, const std::string &file)
{
    const std::string spec = effectiveDeviceSpec(opts.device);
    if (!spec.empty())
        parseDeviceSpec(spec);
    std::error_code ec;
    if (!file.empty() && !std::filesystem::is_regular_file(file, ec))
        throw CliFailure{ExitUsage,
                         "cannot read " + file + ": " +
                             (std::filesystem::exists(file, ec) ? "not a regular file" : "no such file")};
    return spec;
}

void addCommonOptions(CLI::App *sub, CommonOptions &opts)
{
    sub->add_option("--device", opts.device,
                    "Device spec: 0:1, nvidia:h200, 0:0,1;pocl (default: CLSCOPE_DEVICE)");
    sub->add_flag("--json", opts.json, "Print one JSON document on stdout");
}

bool &jsonDocumentStarted()
{
    static bool started = false;
    return started;
}

namespace {

// CLI11 reads "-1" into an unsigned option as 2^64-1 (`bench --iterations -1` then runs forever). Every
// option whose type CLI11 names UINT refuses a sign, in every subcommand, now and when one is added.
void refuseNegativeUnsigned(CLI::App &app)
{
    const CLI::Validator notNegative(
        [](std::string &value) -> std::string {
            const std::size_t first = value.find_first_not_of(" \t");
            if (first != std::string::npos && (value[first] == '-' || value[first] == '+'))
                return "'" + value + "' is not a whole number of 0 or more";
            return {};
        },
        "", "");
    for (CLI::Option *option : app.get_options()) {
        if (option->get_type_name().starts_with("UINT"))
            option->check(notNegative);
    }
    for (CLI::App *sub : app.get_subcommands({}))
        refuseNegativeUnsigned(*sub);
}

// --json anywhere before "--" (what follows belongs to the compiler or the captured program).
bool wantsJson(int argc, char **argv)
{
    for (int i = 1; i < argc; ++i) {
        const std::string_view arg(argv[i]);
        if (arg == "--")
            return false;
        if (arg == "--json")
            return true;
    }
    return false;
}

int exitCodeOf(clscope::ErrorCategory category)
{
    return category == clscope::ErrorCategory::Input ? ExitUsage : ExitFailed;
}

// The one place errors are printed: a line on stderr, and with --json one document {"error": "..."} on
// stdout too, unless the command had begun its own document (it then ends that one with the error).
int reportError(bool json, const std::string &message, int code)
{
    std::cerr << "clscope-cli: " << message << '\n';
    if (json && !jsonDocumentStarted()) {
        nlohmann::ordered_json doc;
        doc["error"] = message;
        std::cout << doc.dump(2, ' ', false, nlohmann::json::error_handler_t::replace) << '\n';
    }
    std::cout.flush();
    return code;
}

} // namespace

} // namespace clscope::cli

int main(int argc, char **argv)
{
    using namespace clscope::cli;
    // The child of the driver probe (icdprobe.h): lists the one driver its loader sees, and nothing else.
    if (argc == 2 && std::string_view(argv[1]) == clscope::kProbeArgument)
        clscope::runIcdProbe();
    // Before any OpenCL call or thread: each driver tried in a child, the bad ones skipped (and named here),
    // Oclgrind registered. Not for capture: the captured program must see the loader's environment exactly
    // as it would without CLScope; nor for --version and --help, which need no driver (the probe takes
    // tens of milliseconds).
    const std::string_view first = argc > 1 ? std::string_view(argv[1]) : std::string_view();
    if (first != "capture" && first != "--version" && first != "--help" && first != "-h") {
        const clscope::LoaderSetup &loader = clscope::prepareLoader(clscope::selfExecutable());
        for (const clscope::IcdProbe *skipped : loader.skipped())
            std::cerr << "clscope-cli: warning: " << skipped->message() << '\n';
        if (!loader.note.empty())
            std::cerr << "clscope-cli: warning: " << loader.note << '\n';
    }
    // A driver's compiler that dies on a program says so, with the program's name, instead of SIGSEGV.
    clscope::reportCompilerCrashes("clscope-cli");
    CLI::App app{"clscope-cli: OpenCL devices, builds, runs, memory pool and benchmarks, headless"};
    app.require_subcommand(1);
    app.set_version_flag("--version", std::string("clscope-cli ") + CLSCOPE_VERSION);
    Action action;
    addInfoCommand(app, action);
    addPoolCommand(app, action);
    addBenchCommand(app, action);
    addBuildCommand(app, action);
    addRunCommand(app, action);
    addSweepCommand(app, action);
    addCaptureCommand(app, action);
    addReplayCommand(app, action);
    addRooflineCommand(app, action);
    addDebugCommand(app, action);
    refuseNegativeUnsigned(app);
    const bool json = wantsJson(argc, argv);
    if (argc > 1 && argv[1][0] != '-') {
        bool known = false;
        for (const CLI::App *sub : app.get_subcommands({}))
            known |= sub->get_name() == argv[1];
        if (!known)
            return reportError(json, "unknown subcommand '" + std::string(argv[1]) + "' (see --help)",
                               ExitUsage);
    }
    try {
        std::vector<std::string> words = nameCompilerOptions(argc, argv);
        std::vector<char *> pointers;
        for (std::string &w : words)
            pointers.push_back(w.data());
        app.parse(int(pointers.size()), pointers.data());
    } catch (const CLI::CallForHelp &e) {
        return app.exit(e);
    } catch (const CLI::CallForAllHelp &e) {
        return app.exit(e);
    } catch (const CLI::CallForVersion &e) {
        return app.exit(e);
    } catch (const CLI::ParseError &e) {
        // One clear line, exit 2 (DESIGN.md), rather than CLI11's usage dump.
        return reportError(json, std::string(e.what()) + " (see --help)", ExitUsage);
    }
    try {
        return action ? action() : ExitUsage;
    } catch (const CliFailure &f) {
        if (f.message.empty())
            return f.code; // already said (a child's own words)
        return reportError(json, f.message, f.code);
    } catch (const clscope::Error &e) {
        // The one place core's errors become an exit status: a command catches one only to say more, or
        // where it knows better (an unreadable input file it was given is bad usage).
        return reportError(json, e.what(), exitCodeOf(e.category()));
    } catch (const std::exception &e) {
        return reportError(json, e.what(), ExitFailed);
    }
}
