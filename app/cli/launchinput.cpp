// The launch run and sweep share: its options, the file's own `// clscope-run:` line, the request parsed
// before any driver is touched, and the build for the chosen device.
#include "cli.h"

#include "clscope/kernelargs.h"
#include "clscope/rundirective.h"

#include <iostream>

namespace clscope::cli {

void addLaunchOptions(CLI::App *sub, LaunchOptions &opts, const std::string &localHelp)
{
    addProgramInputOptions(sub, opts.input,
                           "The .cl files of the program (or SPIR-V, or a binary with --binary)");
    sub->add_option("--kernel", opts.kernel,
                    "The kernel to run (default: the one of the file's only // clscope-run: line)");
    sub->add_option("--global", opts.global,
                    "Global size X[,Y[,Z]] (default, with the arguments: the file's // clscope-run: line)");
    sub->add_option("--local", opts.local, localHelp);
    sub->add_option("--offset", opts.offset, "Global offset X[,Y[,Z]] (default: 0)");
    // One value per --arg and --print, so that a later positional is never taken for one.
    sub->add_option("--arg", opts.args,
                    "NAME=TYPE:VALUE, NAME=VALUE, NAME=struct:FIELD=VALUE,..., NAME=buffer:TYPE:COUNT[:INIT] "
                    "(TYPE may be a struct of the program) or NAME=local:BYTES")
        ->allow_extra_args(false);
    sub->add_option("--options", opts.options, "Build options as one string, split like a shell");
    addCommonOptions(sub, opts.common);
}

std::string argumentHelp()
{
    return "INIT: zeros, fill=V, iota[=START[:STEP]], random[=SEED[:LO:HI]], file=PATH (raw or .npy), "
           "copy=NAME; a buffer of structs takes zeros, fill={FIELD=VALUE,...}, file=PATH (structured "
           ".npy) or copy=NAME\n"
           "Structs: p=struct:x=1,v=(1,2,3,4),inner={a=3} (fields by name, missing ones zero; layouts "
           "from the device)\n"
           "Images: img=image2d:RGBA:UNORM_INT8:512x512[:INIT] (image1d W, image1d_buffer W, image1d_array "
           "WxL, "
           "image2d_array WxHxL, image3d WxHxD); INIT zeros, fill=V[,V...] (stored values), random[=SEED], "
           "gradient, file=PATH (PNG or .npy of shape (H, W, C); the size may then be left out)\n"
           "Samplers: s=sampler:normalized|unnormalized,none|clamp|clamp_to_edge|repeat|mirrored_repeat,"
           "nearest|linear (default unnormalized,clamp_to_edge,nearest)\n"
           "Types: " +
           elementTypeNames();
}

void applyRunDirective(LaunchOptions &opts, std::string *source)
{
    if (!opts.input.builtins.empty() && opts.kernel.empty() &&
        opts.input.builtins.find(';') == std::string::npos)
        opts.kernel = opts.input.builtins; // one built-in kernel: the one to run
    if (!opts.global.empty() || !opts.args.empty() || !opts.input.builtins.empty() || opts.input.binary) {
        if (opts.kernel.empty())
            throw CliFailure{ExitUsage, "--kernel is required"};
        if (opts.global.empty())
            throw CliFailure{ExitUsage, "--global is required"};
        return;
    }
    *source = readSourceFile(opts.input.file);
    const std::vector<RunDirective> directives = parseRunDirectives(*source);
    const RunDirective *d = findRunDirective(directives, opts.kernel);
    if (!d) {
        std::string what =
            opts.kernel.empty() ? std::string("--kernel") : "--global for kernel " + opts.kernel;
        if (directives.size() > 1 && opts.kernel.empty())
            what += " (the file has " + std::to_string(directives.size()) + " clscope-run launches)";
        throw CliFailure{ExitUsage, "no " + what + " given and " + opts.input.file +
                                        " has no // clscope-run: line for it"};
    }
    opts.kernel = d->kernel;
    opts.global = d->global;
    if (opts.local.empty())
        opts.local = d->local;
    if (opts.offset.empty())
        opts.offset = d->offset;
    if (opts.repeat == 1)
        opts.repeat = d->repeat;
    opts.args = d->args;
    if (opts.prints.empty())
        opts.prints = d->prints;
}

RunRequest launchRequest(const LaunchOptions &opts)
{
    RunRequest request;
    request.kernel = opts.kernel;
    request.range.global = parseSizeList(opts.global, "global size");
    if (!opts.local.empty())
        request.range.local = parseSizeList(opts.local, "local size");
    if (!opts.offset.empty())
        request.range.offset = parseSizeList(opts.offset, "offset");
    for (const std::string &arg : opts.args)
        request.args.push_back(parseArgSpec(arg));
    request.readBack = opts.prints;
    return request;
}

BuildResult buildForLaunch(const LaunchOptions &opts, const std::string &source, cl_device_id device)
{
    BuildRequest build;
    build.devices = {device};
    build.sourcePath = opts.input.file;
    build.source = source; // empty: the build reads the file
    build.options = opts.options;
    BuildResult result = buildProgramInput(opts.input, build, BinaryCache::fromEnvironment());
    if (!result.cacheNote().empty())
        std::cerr << "clscope-cli: warning: " << result.cacheNote() << '\n';
    if (result.success())
        return result;
    for (const auto &log : result.logs()) {
        if (!log.log.empty())
            std::cerr << log.log << '\n';
    }
    std::string message =
        "build of " + (opts.input.builtins.empty() ? opts.input.file : "--builtin " + opts.input.builtins) +
        " failed";
    if (!result.diagnostics().empty()) {
        const Diagnostic &d = result.diagnostics().front();
        message += " (" + d.file + ':' + std::to_string(d.line) + ':' + std::to_string(d.column) + ": " +
                   d.message + ')';
    }
    throw CliFailure{ExitFailed, message};
}

std::string prepareLaunch(LaunchOptions &opts, std::string *source)
{
    checkProgramInput(opts.input);
    const std::string spec = checkUsage(opts.common, opts.input.file);
    applyRunDirective(opts, source);
    return spec;
}

std::vector<std::string> runArguments(const LaunchOptions &opts)
{
    std::vector<std::string> args{"run"};
    args.insert(args.end(), opts.input.files.begin(), opts.input.files.end());
    args.insert(args.end(), {"--kernel", opts.kernel, "--global", opts.global});
    if (opts.input.link)
        args.emplace_back("--link");
    if (opts.input.binary)
        args.emplace_back("--binary");
    if (!opts.input.builtins.empty())
        args.insert(args.end(), {"--builtin", opts.input.builtins});
    if (!opts.local.empty())
        args.insert(args.end(), {"--local", opts.local});
    if (!opts.offset.empty())
        args.insert(args.end(), {"--offset", opts.offset});
    args.insert(args.end(), {"--repeat", std::to_string(opts.repeat)});
    for (const std::string &a : opts.args)
        args.insert(args.end(), {"--arg", a});
    for (const std::string &p : opts.prints)
        args.insert(args.end(), {"--print", p});
    if (!opts.options.empty())
        args.insert(args.end(), {"--options", opts.options});
    return args;
}

} // namespace clscope::cli
