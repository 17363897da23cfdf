// clscope-cli: the CLScope core, headless. Subcommands and the JSON contract are in DESIGN.md.
#include "cli.h"

#include "clscope/devicespec.h"
#include "clscope/error.h"
#include "clscope/loaderenv.h"

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
    if (!std::filesystem::is_regular_file(file, ec))
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

} // namespace clscope::cli

int main(int argc, char **argv)
{
    using namespace clscope::cli;
    // Before any OpenCL call or thread. Not for capture: the captured program must see the loader's
    // environment exactly as it would without CLScope.
    if (!(argc > 1 && std::string_view(argv[1]) == "capture"))
        clscope::registerInstalledPlatforms();
    CLI::App app{"clscope-cli: OpenCL devices, builds, runs, memory pool and benchmarks, headless"};
    app.require_subcommand(1);
    app.set_version_flag("--version", std::string("clscope-cli ") + CLSCOPE_VERSION);
    Action action;
    addInfoCommand(app, action);
    addPoolCommand(app, action);
    addBenchCommand(app, action);
    addBuildCommand(app, action);
    addRunCommand(app, action);
    addCaptureCommand(app, action);
    addReplayCommand(app, action);
    if (argc > 1 && argv[1][0] != '-') {
        bool known = false;
        for (const CLI::App *sub : app.get_subcommands({}))
            known |= sub->get_name() == argv[1];
        if (!known) {
            std::cerr << "clscope-cli: unknown subcommand '" << argv[1] << "' (see --help)\n";
            return ExitUsage;
        }
    }
    try {
        app.parse(argc, argv);
    } catch (const CLI::CallForHelp &e) {
        return app.exit(e);
    } catch (const CLI::CallForAllHelp &e) {
        return app.exit(e);
    } catch (const CLI::CallForVersion &e) {
        return app.exit(e);
    } catch (const CLI::ParseError &e) {
        // One clear line, exit 2 (DESIGN.md), rather than CLI11's usage dump.
        std::cerr << "clscope-cli: " << e.what() << " (see --help)\n";
        return ExitUsage;
    }
    try {
        return action ? action() : ExitUsage;
    } catch (const CliFailure &f) {
        std::cerr << "clscope-cli: " << f.message << '\n';
        return f.code;
    } catch (const clscope::ClError &e) {
        std::cerr << "clscope-cli: " << e.what() << '\n';
        return ExitFailed;
    } catch (const std::exception &e) {
        std::cerr << "clscope-cli: " << e.what() << '\n';
        return ExitFailed;
    }
}
