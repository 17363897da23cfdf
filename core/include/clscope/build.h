// Program builds in the manner of pyopencl's Program.build: options split like a shell, include paths,
// per-platform defaults, per-device logs kept also on success, diagnostics parsed from the logs, an
// on-disk binary cache keyed by everything that changes the binary, and the kernels of the result with
// their arguments and work-group limits. Results are immutable values; a failed build is a result.
#pragma once

#include "clscope/clhandle.h"
#include "clscope/error.h"

#include <CL/cl.h>

#include <array>
#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <set>
#include <span>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

namespace clscope {

// Input that cannot be built at all: unreadable source, malformed options, a device that takes no
// SPIR-V. Distinct from ClError (the driver failed) and from a failed build (a BuildResult). An Input
// error, except a device that takes no SPIR-V: the input is fine, that device cannot build it (Failure).
class BuildInputError : public Error
{
public:
    explicit BuildInputError(const std::string &message, ErrorCategory category = ErrorCategory::Input)
        : Error(message, category)
    {}
};

// ---- Options ----------------------------------------------------------------------------------------

// Splits like a POSIX shell: whitespace separates, '...' is literal, "..." keeps spaces and lets a
// backslash escape " and \, an unquoted backslash escapes any character. Throws BuildInputError on an
// unterminated quote or a trailing lone backslash.
std::vector<std::string> splitOptions(std::string_view options);

// The inverse of splitOptions: tokens that need it are double-quoted, so splitOptions(join(t)) == t.
std::string joinOptions(const std::vector<std::string> &tokens);

// Throws BuildInputError when a source's text holds a NUL byte ("cannot read a.cl: it holds a NUL byte at
// offset 12, so it is not a text file"): the driver would take the text up to it and drop the rest.
void checkSourceText(const std::string &path, std::string_view text);
// The bytes of a source file, checked by checkSourceText; throws BuildInputError naming the file and the
// reason.
std::string readSourceFile(const std::string &path);

// The -I directories named by the tokens ("-I dir", "-Idir"), in order.
std::vector<std::string> includePaths(const std::vector<std::string> &tokens);

// "-D CLSCOPE_USING_OCLGRIND -D PYOPENCL_USING_OCLGRIND" on Oclgrind, "-D CLSCOPE_USING_POCL" on PoCL, else
// nothing.
std::vector<std::string> platformDefaultOptions(std::string_view platformName);

inline constexpr const char *kArgInfoOption = "-cl-kernel-arg-info";

struct OptionInputs
{
    std::string platformName;
    std::string userOptions;         // as typed
    std::string sourceDirectory;     // becomes -I when set
    std::string environment;         // CLSCOPE_BUILD_OPTIONS
    std::string pyopenclEnvironment; // PYOPENCL_BUILD_OPTIONS, read as pyopencl reads it
    bool kernelArgInfo = true;       // add -cl-kernel-arg-info unless already there
};

// The options a build passes to the driver, in this order: -I of the source folder (searched first, as a
// compiler searches the including file's folder), the user's, the platform defaults after them (as
// pyopencl appends its own), CLSCOPE_BUILD_OPTIONS, PYOPENCL_BUILD_OPTIONS, -cl-kernel-arg-info. Throws
// BuildInputError naming the variable when one of the two is malformed.
std::vector<std::string> effectiveOptions(const OptionInputs &inputs);

// ---- Diagnostics -----------------------------------------------------------------------------------

enum class Severity { Error, Warning, Note };
std::string_view severityName(Severity severity); // "error", "warning", "note"

struct Diagnostic
{
    std::string file; // the user's file for the main source; headers keep their names; "" when none
    int line = 0;     // 1-based; 0 when the message has no location
    int column = 0;   // 1-based; 0 when unknown
    Severity severity = Severity::Error;
    std::string message;

    bool operator==(const Diagnostic &) const = default;
};

// True for the names drivers give the main source: PoCL's tempfile_*.cl, Oclgrind's input.cl, NVIDIA's
// <kernel>, <source>, Intel's string index ("1"), AMD's .../CompileSource and /tmp/OCL*.cl, any *.cl
// under /tmp/.
bool isDriverSourceAlias(std::string_view file);

// Parses clang style ("file:line:col: error: msg"), PoCL style ("error: file:line:col: msg") and
// location-less lines ("error: unknown argument"); skips source echoes, carets, fix-its, "In file
// included from" and "N errors generated." lines. Driver aliases of the main source become sourceFile
// unless they are among knownFiles (headers found by the include scan keep their names).
std::vector<Diagnostic> parseDiagnostics(std::string_view log, std::string_view sourceFile,
                                         const std::vector<std::string> &knownFiles = {});

// ---- Hashing and includes --------------------------------------------------------------------------

using Digest = std::array<std::uint8_t, 32>;

// FIPS 180-4 SHA-256, incremental.
class Sha256
{
public:
    Sha256();
    void update(const void *data, std::size_t size);
    void update(std::string_view text) { update(text.data(), text.size()); }
    Digest finish(); // the object is spent afterwards

private:
    void compress(const std::uint8_t *block);

    std::array<std::uint32_t, 8> m_state;
    std::array<std::uint8_t, 64> m_buffer;
    std::size_t m_buffered = 0;
    std::uint64_t m_length = 0;
};

Digest sha256(std::string_view data);
std::string toHex(const Digest &digest);

struct IncludedFile
{
    std::string spelling; // as written: "helper.h"
    std::string path;     // the file found, empty when missing
    std::string contents; // empty when missing
    bool found = false;
};

// Every header reachable from source through #include "x" / #include <x>, depth first, each file once.
// "x" is looked up in the including file's folder first, then in sourceDirectory, then includePaths;
// <x> in sourceDirectory, then includePaths.
std::vector<IncludedFile> scanIncludes(std::string_view source, const std::string &sourceDirectory,
                                       const std::vector<std::string> &includePaths);

// The folder of pyopencl's headers (pyopencl-complex.h and the others), where pyopencl is installed; ""
// when it is not. A build whose source includes a pyopencl-*.h header found nowhere else gets -I of it at
// the end of its options, as pyopencl's Program.build adds it to every build.
std::string pyopenclIncludeDirectory();

struct IncludeScan
{
    std::vector<IncludedFile> files;
    // Why the headers the compiler will read cannot be known from the text, empty when they can: an
    // include through a macro (`#include HDR`), an include directive the scan does not follow
    // (#include_next), a header found but unreadable. Such a program must not be cached: its key would
    // miss a header, and an edited header would give a stale binary.
    std::string unresolved;
};
IncludeScan scanIncludeTree(std::string_view source, const std::string &sourceDirectory,
                            const std::vector<std::string> &includePaths);

// ---- Binary cache ----------------------------------------------------------------------------------

enum class CacheState { Off, Miss, Hit };
std::string_view cacheStateName(CacheState state); // "off", "miss", "hit"

// What makes one device's compiler output differ from another's.
struct DeviceIdentity
{
    std::string vendor;
    std::string name;
    std::string version;       // CL_DEVICE_VERSION
    std::string driverVersion; // CL_DRIVER_VERSION

    static DeviceIdentity of(cl_device_id device); // throws ClError when the device cannot be queried
};

// A cache key: the SHA-256 that names the entry file, and the inputs it was computed from (length-framed
// source, options, device identity, every included header; missing ones by name only). The inputs are
// stored inside the entry and compared on every read, so an entry that holds another program (a renamed
// file, a copied one, a digest collision) is a miss, whatever its checksum says.
struct CacheKey
{
    Digest digest{};
    std::string material;

    CacheKey() = default;
    // A key known by its digest only (tools and tests that store opaque entries): binds nothing more.
    CacheKey(const Digest &d) // implicit: a digest is a key
        : digest(d)
    {}
    CacheKey(const Digest &d, std::string m)
        : digest(d)
        , material(std::move(m))
    {}
    bool operator==(const CacheKey &) const = default;
};

CacheKey makeCacheKey(std::string_view source, std::string_view options, const DeviceIdentity &device,
                      const std::vector<IncludedFile> &includes);
// The key of something kept next to a program's binary (the struct layouts of structs.h): the program's
// key material with `what` after it, so that it changes whenever the program's key does.
CacheKey derivedCacheKey(const CacheKey &program, std::string_view what);
// makeCacheKey(...).digest.
Digest cacheKey(std::string_view source, std::string_view options, const DeviceIdentity &device,
                const std::vector<IncludedFile> &includes);

struct CacheEntry
{
    std::vector<unsigned char> binary;
    std::string log; // stored so that warnings reappear on a hit
};

// Entry file: magic "CLSCOPEB", format version, key digest, key material, binary and log sizes, SHA-256 of
// everything after the header's checksum field and of the key digest, then the payload (key material,
// binary, log). Little-endian.
std::string encodeCacheEntry(const CacheKey &key, const CacheEntry &entry);
// Nothing when magic, version, key digest, key material, sizes or checksum disagree.
std::optional<CacheEntry> decodeCacheEntry(std::string_view bytes, const CacheKey &expectedKey);

class BinaryCache
{
public:
    inline static constexpr std::uint32_t kFormatVersion = 2; // 2: the key material is in the entry

    // Disabled.
    BinaryCache() = default;
    explicit BinaryCache(std::filesystem::path directory);

    // $CLSCOPE_CACHE_DIR, else $XDG_CACHE_HOME/clscope/binaries, else ~/.cache/clscope/binaries;
    // disabled when CLSCOPE_NO_CACHE is set to anything but "" or "0".
    static BinaryCache fromEnvironment();

    bool enabled() const { return !m_directory.empty(); }
    const std::filesystem::path &directory() const { return m_directory; }
    std::filesystem::path entryPath(const Digest &key) const;

    // A missing entry, one that is not a regular file or too large (never read: a FIFO there cannot block
    // the build), or one that fails decodeCacheEntry (then removed) gives nothing.
    std::optional<CacheEntry> load(const CacheKey &key) const;
    // Written to a temporary file in the same folder and renamed over the entry, so readers and other
    // writers see the old entry or the new one, never a part. False when the folder is not writable;
    // then *error says why ("cannot write /x/ab.clbin.tmp-1: No space left on device").
    bool store(const CacheKey &key, const CacheEntry &entry, std::string *error = nullptr) const;
    void remove(const Digest &key) const;

private:
    std::filesystem::path m_directory;
};

// ---- Kernels ---------------------------------------------------------------------------------------

enum class AddressQualifier { Global, Local, Constant, Private };
enum class AccessQualifier { None, ReadOnly, WriteOnly, ReadWrite };
enum TypeQualifier : unsigned { TypeConst = 1, TypeRestrict = 2, TypeVolatile = 4, TypePipe = 8 };

std::string_view addressQualifierName(AddressQualifier q); // "global", "local", "constant", "private"
std::string_view accessQualifierName(AccessQualifier q);   // "none", "read_only", "write_only", "read_write"
std::vector<std::string> typeQualifierNames(unsigned qualifiers); // {"const", "restrict", ...}

struct KernelArg
{
    std::string name;
    AddressQualifier address = AddressQualifier::Private;
    AccessQualifier access = AccessQualifier::None;
    std::string typeName; // as drivers spell it: "float4*", "uint", "image2d_t"
    unsigned typeQualifiers = 0;

    bool operator==(const KernelArg &) const = default;
};

struct KernelSignature
{
    std::string name;
    std::vector<KernelArg> args;
};

// Kernel signatures from OpenCL C source, for programs whose driver has no arg info (binaries, builds
// without -cl-kernel-arg-info). Comments and preprocessor lines are dropped; macros are not expanded.
std::vector<KernelSignature> parseKernelSignatures(std::string_view source);

// The functions a source declares at file scope (a prototype), defines, and calls (NAME( inside a body),
// macros not expanded. With separate compilation a function declared and called but defined by no source
// of the program fails the link: PoCL says so with an empty log, and Oclgrind links it and aborts the
// process when the kernel is created, so the build names it before it links.
struct FunctionNames
{
    std::map<std::string, int> declared; // with the line of the first declaration (1-based)
    std::set<std::string> defined;
    std::set<std::string> called;
};
FunctionNames functionNames(std::string_view source);

struct WorkGroupInfo
{
    std::string device;
    std::size_t workGroupSize = 0;
    std::size_t preferredWorkGroupSizeMultiple = 0;
    std::uint64_t localMemSize = 0;
    std::uint64_t privateMemSize = 0;
    std::array<std::size_t, 3> compileWorkGroupSize{};
};

enum class ArgInfoSource { Driver, Source, None };
std::string_view argInfoSourceName(ArgInfoSource source); // "driver", "source", "none"

struct KernelInfo
{
    std::string name;
    std::vector<KernelArg> args;
    ArgInfoSource argInfo = ArgInfoSource::None; // where args came from; None: only their count is known
    std::vector<WorkGroupInfo> workGroups;       // one per device of the build
    // Why the driver would not make this kernel ("clCreateKernel failed: INVALID_KERNEL_NAME"); its args
    // then come from the source and it has no workGroups. Empty for a kernel that can run.
    std::string error;
};

// The kernels of a built program; arg info from the driver, else from source (when given).
std::vector<KernelInfo> queryKernels(cl_program program, const std::vector<cl_device_id> &devices,
                                     std::string_view source);

// ---- Builds ----------------------------------------------------------------------------------------

enum class BuildStatus { Success, Failure };

struct DeviceBuildLog
{
    cl_device_id id = nullptr;
    std::string device; // CL_DEVICE_NAME
    std::string log;    // the driver's build log, verbatim (trailing NULs and blank lines trimmed)
    bool success = false;
    CacheState cache = CacheState::Off;
};

// One more source of a program built from several, as hosts pass several strings to
// clCreateProgramWithSource.
struct SourceText
{
    std::string path; // diagnostics name it; may be empty
    std::string text; // read from path when empty
};

struct BuildRequest
{
    std::vector<cl_device_id> devices; // one or more devices of one platform
    cl_context context = nullptr;      // optional: build in this context (it must hold the devices)
    std::string sourcePath;            // diagnostics name it, its folder becomes -I; may be empty
    std::string source;                // the text; read from sourcePath when empty
    std::string options;               // as typed, split like a shell
    // The program's other sources, after `source`. Without `link` they are one text to the driver, as the
    // strings of clCreateProgramWithSource are, each after a `#line 1 "PATH"` marker so that diagnostics
    // name its file (quoted includes are looked up from the first file's folder, as the driver does).
    std::vector<SourceText> moreSources;
    // Separate compilation: each source compiled apart (clCompileProgram) and the objects linked
    // (clLinkProgram). Diagnostics name each compile's file; such a build is not cached.
    bool link = false;
    bool kernelArgInfo = true;      // add -cl-kernel-arg-info (retried without when refused)
    bool platformDefaults = true;   // -D CLSCOPE_USING_POCL / _OCLGRIND
    bool environmentOptions = true; // append CLSCOPE_BUILD_OPTIONS and PYOPENCL_BUILD_OPTIONS
    // Where the last copy of the result releases its program and context: called with the release, on
    // the thread where that copy dies, it runs the release where it likes (the GUI hands it to the
    // device's worker, so that the GUI thread never calls the driver). Empty: released in place.
    std::function<void(std::function<void()> release)> releaseOn;
};

// The context and program of a build, released when the last result that holds them goes away.
class ProgramHandle
{
public:
    ProgramHandle(cl_context context, cl_program program); // takes ownership of one reference each
    ProgramHandle(const ProgramHandle &) = delete;
    ProgramHandle &operator=(const ProgramHandle &) = delete;

    cl_context context() const { return m_context.get(); }
    cl_program program() const { return m_program.get(); }

private:
    ClContext m_context; // released after the program
    ClProgram m_program;
};

// Facts about a built program found out after its build (the struct layouts a device was asked for,
// structs.h), shared by every copy of the result, so that each is asked once per build. Thread-safe.
class BuildMemo
{
public:
    std::optional<std::string> find(const std::string &key) const;
    void put(const std::string &key, std::string value);
    std::size_t size() const;

private:
    mutable std::mutex m_mutex;
    std::map<std::string, std::string> m_entries;
};

struct BuildResultData
{
    BuildStatus status = BuildStatus::Failure;
    double durationMs = 0;
    CacheState cache = CacheState::Off; // Hit when every device hit, Off when the cache is off
    // Why the cache was not used although it is on, or could not keep this build: the program's headers
    // cannot be known (cache off), the cache folder cannot be written. Empty when all went well.
    std::string cacheNote;
    // The effective options passed to the driver (effectiveOptions): -I of the source's folder, the user's,
    // platform defaults, CLSCOPE_BUILD_OPTIONS, PYOPENCL_BUILD_OPTIONS, -cl-kernel-arg-info. Another build of
    // the same program (the memory check's, on Oclgrind) starts from userOptions instead, and adds its own
    // platform's defaults and the environment.
    std::string options;
    std::string userOptions; // as the request gave them (BuildRequest::options)
    std::string sourcePath;
    std::vector<std::string> headers; // the headers the source includes that were found (paths)
    std::vector<DeviceBuildLog> logs;
    std::vector<Diagnostic> diagnostics; // of every device, duplicates merged
    std::vector<KernelInfo> kernels;     // empty when the build failed
    std::shared_ptr<const ProgramHandle> program;
    std::string source;                 // the text built (empty for binaries and SPIR-V without one)
    std::vector<IncludedFile> includes; // the headers it includes that were found, with their text
    BinaryCache binaryCache;            // the cache the build went through (disabled when off)
    std::vector<CacheKey> cacheKeys;    // the program's key per device of logs (empty: not cached)
    std::shared_ptr<BuildMemo> memo = std::make_shared<BuildMemo>();
};

// Immutable and cheap to copy (shared data), so it can travel through queued signals.
class BuildResult
{
public:
    BuildResult();
    explicit BuildResult(BuildResultData data);

    bool success() const { return m_d->status == BuildStatus::Success; }
    BuildStatus status() const { return m_d->status; }
    double durationMs() const { return m_d->durationMs; }
    CacheState cache() const { return m_d->cache; }
    const std::string &cacheNote() const { return m_d->cacheNote; }
    const std::string &options() const { return m_d->options; }
    const std::string &userOptions() const { return m_d->userOptions; }
    const std::string &sourcePath() const { return m_d->sourcePath; }
    const std::vector<std::string> &headers() const { return m_d->headers; }
    const std::vector<DeviceBuildLog> &logs() const { return m_d->logs; }
    const std::vector<Diagnostic> &diagnostics() const { return m_d->diagnostics; }
    const std::vector<KernelInfo> &kernels() const { return m_d->kernels; }
    const KernelInfo *kernel(std::string_view name) const;
    // The program stays valid as long as a copy of this result lives; null after a failed build.
    cl_program program() const { return m_d->program ? m_d->program->program() : nullptr; }
    cl_context context() const { return m_d->program ? m_d->program->context() : nullptr; }
    const std::string &source() const { return m_d->source; }
    const std::vector<IncludedFile> &includes() const { return m_d->includes; }
    const BinaryCache &binaryCache() const { return m_d->binaryCache; }
    // The program's cache key on the device, when the build went through the cache (hit or miss).
    std::optional<CacheKey> cacheKey(cl_device_id device) const;
    BuildMemo &memo() const { return *m_d->memo; }
    // This result as the build that compiled the program would give it: a hit on the entries that another
    // process (the build's child, buildchild.h) stored just now is that compile's miss, and compileMs (the
    // other process's time) is added to the duration.
    BuildResult compiledElsewhere(double compileMs) const;

private:
    std::shared_ptr<const BuildResultData> m_d;
};

// Builds from source through the cache. Throws BuildInputError (unreadable file, malformed options)
// and ClError (no device, devices of several platforms, a driver failure that is not a build failure).
BuildResult buildProgram(const BuildRequest &request, const BinaryCache &cache);
inline BuildResult buildProgram(const BuildRequest &request)
{
    return buildProgram(request, BinaryCache::fromEnvironment());
}

// Builds from SPIR-V. Throws BuildInputError("device X does not accept SPIR-V") when a device reports
// no SPIR-V in CL_DEVICE_IL_VERSION. request.source, when given, is used for kernel signatures only.
BuildResult buildProgramFromIL(const BuildRequest &request, std::span<const unsigned char> il);

// Builds from one binary per device (in request.devices order). A binary the driver refuses is a
// failed build with the reason in that device's log.
BuildResult buildProgramFromBinaries(const BuildRequest &request,
                                     const std::vector<std::vector<unsigned char>> &binaries);

// A program of built-in kernels (CL_DEVICE_BUILT_IN_KERNELS), names separated by ';' as the device lists
// them; nothing is compiled. A name a device lacks is a failed build whose log lists what the device has.
BuildResult buildProgramFromBuiltIns(const BuildRequest &request, const std::string &names);

// SPIR-V, told by its magic number in either byte order (never by a file's name).
bool isSpirv(std::span<const unsigned char> bytes);

// The sizes of a built program's binaries (CL_PROGRAM_BINARY_SIZES), one per device in the order of devices
// (0 for a device the program was not built for), without reading the binaries.
std::vector<std::size_t> programBinarySizes(cl_program program, const std::vector<cl_device_id> &devices);
// The binaries of a built program, one per device in the order of devices.
std::vector<std::vector<unsigned char>> programBinaries(cl_program program,
                                                        const std::vector<cl_device_id> &devices);

// The JSON of the CLI contract: status, duration_ms, cache, logs, kernels, diagnostics, options.
std::string buildResultToJson(const BuildResult &result, int indent = 2);

} // namespace clscope
