// Build matrices (buildmatrix.h): option sets, NVIDIA's ptxas figures, and one cell's figures.
#include "clscope/buildmatrix.h"

#include "clscope/text.h"

#include <algorithm>
#include <atomic>
#include <charconv>
#include <chrono>

#include <unistd.h>

namespace clscope {

namespace {

// The number before `unit` in text ("32768 bytes smem" -> 32768 for "bytes smem").
std::optional<std::uint64_t> numberBefore(std::string_view text, std::string_view unit)
{
    const std::size_t at = text.find(unit);
    if (at == std::string_view::npos || at < 2)
        return std::nullopt;
    std::size_t end = at;
    while (end > 0 && text[end - 1] == ' ')
        --end;
    std::size_t start = end;
    while (start > 0 && text[start - 1] >= '0' && text[start - 1] <= '9')
        --start;
    std::uint64_t v = 0;
    if (start == end || std::from_chars(text.data() + start, text.data() + end, v).ec != std::errc())
        return std::nullopt;
    return v;
}

} // namespace

std::vector<std::string> parseOptionSets(std::string_view text)
{
    std::vector<std::string> out;
    std::size_t pos = 0;
    while (true) {
        const std::size_t bar = std::min(text.find('|', pos), text.size());
        std::string set(trimSpace(text.substr(pos, bar - pos)));
        if (std::find(out.begin(), out.end(), set) != out.end())
            throw BuildInputError("the option set '" + set + "' is given twice in --matrix");
        out.push_back(std::move(set));
        if (bar == text.size())
            break;
        pos = bar + 1;
    }
    if (out.size() == 1 && out.front().empty())
        throw BuildInputError("--matrix needs option sets: \"-O0|-cl-fast-relaxed-math\"");
    return out;
}

std::vector<KernelResources> parsePtxasInfo(std::string_view log)
{
    std::vector<KernelResources> out;
    KernelResources *current = nullptr;
    bool ownProperties = false; // the last "Function properties for X" was the current kernel's
    std::size_t pos = 0;
    while (pos < log.size()) {
        const std::size_t end = std::min(log.find('\n', pos), log.size());
        const std::string_view line = trimSpace(log.substr(pos, end - pos));
        pos = end + 1;
        // ptxas info    : Compiling entry function 'matmul_tiled' for 'sm_90'
        if (const std::size_t at = line.find("Compiling entry function '"); at != std::string_view::npos) {
            const std::size_t start = at + 26;
            const std::size_t close = line.find('\'', start);
            if (close == std::string_view::npos)
                continue;
            KernelResources k;
            k.kernel = std::string(line.substr(start, close - start));
            out.push_back(std::move(k));
            current = &out.back();
            ownProperties = false;
            continue;
        }
        if (!current)
            continue;
        // Without optimisation the functions it calls get properties of their own (barrier, get_global_id).
        if (const std::size_t at = line.find("Function properties for "); at != std::string_view::npos) {
            ownProperties = line.substr(at + 24) == current->kernel;
            continue;
        }
        // ptxas info    : Function properties for matmul_tiled
        // 0 bytes stack frame, 0 bytes spill stores, 0 bytes spill loads
        if (ownProperties && line.find("stack frame") != std::string_view::npos) {
            current->stackFrame = numberBefore(line, "bytes stack frame");
            current->spillStores = numberBefore(line, "bytes spill stores");
            current->spillLoads = numberBefore(line, "bytes spill loads");
            continue;
        }
        // ptxas info    : Used 32 registers, 32768 bytes smem, 380 bytes cmem[0]
        if (const std::size_t at = line.find("Used ");
            at != std::string_view::npos && line.find("registers") != std::string_view::npos) {
            if (const auto r = numberBefore(line, "registers"))
                current->registers = int(*r);
            current->sharedBytes = numberBefore(line, "bytes smem");
        }
    }
    return out;
}

bool takesNvVerbose(std::string_view platformName)
{
    return lowerAscii(platformName).find("nvidia") != std::string::npos;
}

std::string matrixBuildOptions(std::string_view base, std::string_view set, std::string_view platformName,
                               std::uint64_t nonce)
{
    std::vector<std::string> tokens = splitOptions(base);
    const std::vector<std::string> more = splitOptions(set);
    tokens.insert(tokens.end(), more.begin(), more.end());
    if (takesNvVerbose(platformName) &&
        std::find(tokens.begin(), tokens.end(), "-cl-nv-verbose") == tokens.end())
        tokens.emplace_back("-cl-nv-verbose");
    tokens.emplace_back("-D");
    tokens.emplace_back("CLSCOPE_MATRIX_BUILD=" + std::to_string(nonce));
    return joinOptions(tokens);
}

std::uint64_t matrixNonce()
{
    static std::atomic<std::uint64_t> counter{0};
    const auto now = std::uint64_t(std::chrono::system_clock::now().time_since_epoch().count());
    return now ^ (std::uint64_t(::getpid()) << 40) ^ (counter.fetch_add(1) << 20);
}

MatrixCell matrixCell(const std::string &options, const BuildResult &build, std::size_t deviceIndex)
{
    MatrixCell c;
    c.options = options;
    const DeviceBuildLog &log = build.logs().at(deviceIndex);
    c.device = log.device;
    c.success = log.success;
    c.buildMs = build.durationMs();
    c.log = log.log;
    if (c.success && build.program())
        c.binaryBytes = programBinarySizes(build.program(), {log.id}).front();
    for (const Diagnostic &d : build.diagnostics()) {
        c.warnings += d.severity == Severity::Warning;
        c.errors += d.severity == Severity::Error;
        if (d.severity == Severity::Error && c.firstError.empty())
            c.firstError =
                (d.file.empty() ? std::string() : d.file + ':' + std::to_string(d.line) + ": ") + d.message;
    }
    if (!c.success && c.firstError.empty()) {
        // No diagnostic to name (the driver refused the options, or said nothing parseable): its log's first
        // line.
        const std::string_view first = trimSpace(std::string_view(c.log).substr(0, c.log.find('\n')));
        c.firstError = first.empty() ? std::string("the build failed without a message") : std::string(first);
    }
    for (KernelInfo k : build.kernels()) {
        std::erase_if(k.workGroups, [&](const WorkGroupInfo &w) { return w.device != c.device; });
        c.kernels.push_back(std::move(k));
    }
    c.resources = parsePtxasInfo(log.log);
    return c;
}

} // namespace clscope
