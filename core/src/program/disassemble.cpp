// Generated code (disassemble.h): what a binary holds, told by its first bytes, and the tool that turns it
// into text, run in a child process with its output in files of a private temporary folder.
#include "clscope/disassemble.h"

#include "../check/childprocess.h"

#include "clscope/error.h"
#include "clscope/fileio.h"

#include <fcntl.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cctype>
#include <cerrno>
#include <chrono>
#include <csignal>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <string_view>
#include <thread>

extern char **environ;

namespace clscope {

namespace fs = std::filesystem;

namespace {

constexpr unsigned char kBitcode[] = {'B', 'C', 0xC0, 0xDE};
constexpr unsigned char kBitcodeWrapper[] = {0xDE, 0xC0, 0x17, 0x0B};
constexpr std::uint64_t kMaxDisassemblyBytes = 256ull << 20;
constexpr auto kToolTimeLimit = std::chrono::seconds(60);

bool startsWith(std::span<const unsigned char> bytes, std::span<const unsigned char> prefix)
{
    return bytes.size() >= prefix.size() && std::equal(prefix.begin(), prefix.end(), bytes.begin());
}

std::uint32_t little32(const unsigned char *p)
{
    return std::uint32_t(p[0]) | std::uint32_t(p[1]) << 8 | std::uint32_t(p[2]) << 16 |
           std::uint32_t(p[3]) << 24;
}

// PTX is text beginning (after comments) with .version or naming a .target; other text is text.
bool isText(std::span<const unsigned char> bytes)
{
    const std::size_t n = std::min<std::size_t>(bytes.size(), 4096);
    if (n == 0)
        return false;
    return std::all_of(bytes.begin(), bytes.begin() + std::ptrdiff_t(n), [](unsigned char c) {
        return c == '\n' || c == '\r' || c == '\t' || (c >= 0x20 && c < 0x7f) || c >= 0x80 || c == 0;
    });
}

struct ToolRun
{
    int exitCode = -1;
    std::string out;
    std::string err;
};

std::string readOutput(const fs::path &path)
{
    try {
        return readRegularFile(path, kMaxDisassemblyBytes);
    } catch (const Error &) {
        return {};
    }
}

// Runs `tool args...` with stdout and stderr in files of `dir`; a tool past the time limit is killed.
ToolRun runTool(const std::string &tool, const std::vector<std::string> &args, const fs::path &dir)
{
    const fs::path outPath = dir / "stdout";
    const fs::path errPath = dir / "stderr";
    posix_spawn_file_actions_t actions;
    posix_spawn_file_actions_init(&actions);
    posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0);
    posix_spawn_file_actions_addopen(&actions, 1, outPath.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0600);
    posix_spawn_file_actions_addopen(&actions, 2, errPath.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0600);
    std::vector<char *> argv{const_cast<char *>(tool.c_str())};
    for (const std::string &a : args)
        argv.push_back(const_cast<char *>(a.c_str()));
    argv.push_back(nullptr);
    pid_t pid = 0;
    const int spawned = posix_spawn(&pid, tool.c_str(), &actions, nullptr, argv.data(), environ);
    posix_spawn_file_actions_destroy(&actions);
    ToolRun run;
    if (spawned != 0) {
        run.err = "cannot start " + tool + ": " + errnoText(spawned);
        return run;
    }
    const auto deadline = std::chrono::steady_clock::now() + kToolTimeLimit;
    int status = 0;
    while (true) {
        const pid_t done = ::waitpid(pid, &status, WNOHANG);
        if (done == pid || (done < 0 && errno != EINTR))
            break;
        if (std::chrono::steady_clock::now() > deadline) {
            ::kill(pid, SIGKILL);
            ::waitpid(pid, &status, 0);
            run.err = tool + " did not finish in 60 s";
            return run;
        }
        std::this_thread::sleep_for(std::chrono::milliseconds(5));
    }
    run.exitCode = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
    run.out = readOutput(outPath);
    run.err = readOutput(errPath);
    return run;
}

// Each tool of that name that exists: PATH's, then /usr/lib/llvm-N/bin's for llvm tools, newest first.
std::vector<std::string> candidates(const std::string &name, bool llvm)
{
    std::vector<std::string> out;
    std::error_code ec;
    if (llvm) {
        std::vector<int> versions;
        for (const auto &entry : fs::directory_iterator("/usr/lib", ec)) {
            const std::string dir = entry.path().filename().string();
            if (dir.size() > 5 && dir.starts_with("llvm-") &&
                std::all_of(dir.begin() + 5, dir.end(),
                            [](unsigned char ch) { return std::isdigit(ch) != 0; }))
                versions.push_back(std::atoi(dir.c_str() + 5));
        }
        std::sort(versions.rbegin(), versions.rend());
        for (int v : versions) {
            const fs::path p = fs::path("/usr/lib") / ("llvm-" + std::to_string(v)) / "bin" / name;
            if (::access(p.c_str(), X_OK) == 0)
                out.push_back(p.string());
        }
    }
    if (const char *path = std::getenv("PATH")) {
        std::string_view rest(path);
        while (!rest.empty()) {
            const std::size_t colon = std::min(rest.find(':'), rest.size());
            const fs::path p = fs::path(std::string(rest.substr(0, colon))) / name;
            if (colon > 0 && ::access(p.c_str(), X_OK) == 0 &&
                std::find(out.begin(), out.end(), p.string()) == out.end())
                out.push_back(p.string());
            rest.remove_prefix(std::min(colon + 1, rest.size()));
        }
    }
    return out;
}

// "llvm-dis-14: error: ... (Producer: 'LLVM15.0.6' Reader: 'LLVM 14.0.6')" -> "15".
std::string producerVersion(const std::string &message)
{
    const std::size_t at = message.find("Producer: 'LLVM");
    if (at == std::string::npos)
        return {};
    std::size_t i = at + 15;
    std::string major;
    while (i < message.size() && std::isdigit(static_cast<unsigned char>(message[i])))
        major += message[i++];
    return major;
}

std::string toolLabel(const std::string &path)
{
    // /usr/lib/llvm-15/bin/llvm-dis -> llvm-dis-15
    const fs::path p(path);
    const std::string parent = p.parent_path().parent_path().filename().string();
    if (parent.starts_with("llvm-"))
        return p.filename().string() + parent.substr(4);
    return p.filename().string();
}

void runDisassembler(GeneratedCode &code, std::span<const unsigned char> payload, const std::string &name,
                     bool llvm, const std::string &package)
{
    const std::vector<std::string> tools = candidates(name, llvm);
    if (tools.empty()) {
        code.note =
            "no " + name + " to disassemble " + std::string(codeKindName(code.kind)) + ": install " + package;
        return;
    }
    detail::TempFolder dir("code", "disassembler");
    const fs::path input = dir.path() / (llvm ? "program.bc" : "program.spv");
    writeWholeFile(input, std::string_view(reinterpret_cast<const char *>(payload.data()), payload.size()));
    std::string lastError;
    for (const std::string &tool : tools) {
        const ToolRun run = runTool(tool, {input.string(), "-o", "-"}, dir.path());
        if (run.exitCode == 0 && !run.out.empty()) {
            code.text = run.out;
            code.tool = toolLabel(tool);
            return;
        }
        lastError = run.err;
        while (!lastError.empty() && (lastError.back() == '\n' || lastError.back() == '\r'))
            lastError.pop_back();
    }
    const std::string version = llvm ? producerVersion(lastError) : std::string();
    code.note = "no " + name + " here reads this " + std::string(codeKindName(code.kind)) +
                (version.empty() ? std::string() : " (made by LLVM " + version + ")") + ": install " +
                (version.empty() ? package : "llvm-" + version) +
                (lastError.empty() ? "" : " (" + lastError + ")");
}

} // namespace

std::string_view codeKindName(CodeKind kind)
{
    switch (kind) {
    case CodeKind::Ptx:
        return "PTX";
    case CodeKind::LlvmBitcode:
        return "LLVM IR";
    case CodeKind::SpirV:
        return "SPIR-V";
    case CodeKind::Elf:
        return "ELF";
    case CodeKind::Text:
        return "text";
    case CodeKind::Unknown:
        break;
    }
    return "binary";
}

BinaryContents classifyBinary(std::span<const unsigned char> binary)
{
    BinaryContents c;
    c.payload = binary;
    if (startsWith(binary, kBitcode) || startsWith(binary, kBitcodeWrapper)) {
        c.kind = CodeKind::LlvmBitcode;
        return c;
    }
    if (isSpirv(binary)) {
        c.kind = CodeKind::SpirV;
        return c;
    }
    static constexpr unsigned char kElf[] = {0x7F, 'E', 'L', 'F'};
    if (startsWith(binary, kElf)) {
        c.kind = CodeKind::Elf;
        return c;
    }
    static constexpr unsigned char kPocl[] = {'p', 'o', 'c', 'l', 'b', 'i', 'n', 0};
    if (startsWith(binary, kPocl)) {
        // The program's bitcode is the first file of the archive: | u32 length | bytes |, after its name.
        const auto it = std::search(binary.begin(), binary.end(), std::begin(kBitcode), std::end(kBitcode));
        const std::size_t at = std::size_t(it - binary.begin());
        if (it != binary.end() && at >= 4) {
            const std::size_t length = little32(binary.data() + at - 4);
            if (length >= sizeof kBitcode && length <= binary.size() - at) {
                c.kind = CodeKind::LlvmBitcode;
                c.payload = binary.subspan(at, length);
                c.container = "PoCL binary";
                return c;
            }
        }
        return c; // a PoCL binary without bitcode: only its size to show
    }
    if (isText(binary)) {
        const std::string_view text(reinterpret_cast<const char *>(binary.data()), binary.size());
        c.kind =
            text.find(".version") != std::string_view::npos && text.find(".target") != std::string_view::npos
                ? CodeKind::Ptx
                : CodeKind::Text;
    }
    return c;
}

GeneratedCode disassemble(std::span<const unsigned char> binary, std::string device)
{
    GeneratedCode code;
    code.device = std::move(device);
    code.binaryBytes = binary.size();
    const BinaryContents c = classifyBinary(binary);
    code.kind = c.kind;
    switch (c.kind) {
    case CodeKind::Ptx:
    case CodeKind::Text: {
        std::string text(reinterpret_cast<const char *>(c.payload.data()), c.payload.size());
        while (!text.empty() && text.back() == '\0')
            text.pop_back(); // NVIDIA's PTX ends in its terminating NUL
        code.text = std::move(text);
        break;
    }
    case CodeKind::LlvmBitcode:
        runDisassembler(code, c.payload, "llvm-dis", true, "the llvm package of the driver's LLVM");
        break;
    case CodeKind::SpirV:
        runDisassembler(code, c.payload, "spirv-dis", false, "spirv-tools");
        break;
    case CodeKind::Elf:
        code.note = "a native ELF binary (" + std::to_string(binary.size()) + " bytes): no text to show";
        break;
    case CodeKind::Unknown:
        code.note =
            "a driver-specific binary (" + std::to_string(binary.size()) + " bytes) no tool here reads";
        break;
    }
    if (!c.container.empty() && code.note.empty())
        code.note = "the program's bitcode, from the " + c.container;
    return code;
}

std::vector<GeneratedCode> generatedCode(const BuildResult &build)
{
    if (!build.success() || !build.program())
        throw BuildInputError("the program did not build: there is no generated code");
    std::vector<cl_device_id> devices;
    for (const DeviceBuildLog &log : build.logs())
        devices.push_back(log.id);
    const std::vector<std::vector<unsigned char>> binaries = programBinaries(build.program(), devices);
    std::vector<GeneratedCode> out;
    for (std::size_t i = 0; i < devices.size(); ++i)
        out.push_back(disassemble(binaries[i], build.logs()[i].device));
    return out;
}

} // namespace clscope
