// The on-disk binary cache: keys, the entry file format, and atomic writes that let several processes
// build into one folder at once.
#include "clscope/build.h"

#include "clquery.h"
#include "clscope/fileio.h"

#include <atomic>
#include <cstdlib>
#include <cstring>
#include <random>

#include <unistd.h>

namespace clscope {
namespace {

namespace fs = std::filesystem;

constexpr char kMagic[8] = {'C', 'L', 'S', 'C', 'O', 'P', 'E', 'B'};
// magic, version, header size, key, key material size, binary size, log size, checksum.
constexpr std::size_t kHeaderSize = 8 + 4 + 4 + 32 + 8 + 8 + 8 + 32;
constexpr std::size_t kChecksumOffset = kHeaderSize - 32;

void putU32(std::string &out, std::uint32_t v)
{
    for (int i = 0; i < 4; ++i)
        out += char(v >> (8 * i));
}

void putU64(std::string &out, std::uint64_t v)
{
    for (int i = 0; i < 8; ++i)
        out += char(v >> (8 * i));
}

std::uint64_t getLittle(std::string_view bytes, std::size_t offset, int width)
{
    std::uint64_t v = 0;
    for (int i = 0; i < width; ++i)
        v |= std::uint64_t(static_cast<unsigned char>(bytes[offset + i])) << (8 * i);
    return v;
}

// Length framing keeps ("ab","c") and ("a","bc") apart.
void frame(std::string &out, std::string_view field)
{
    putU64(out, field.size());
    out.append(field);
}

// Everything an entry holds, the key included: a changed byte anywhere fails the checksum.
Digest entryChecksum(const Digest &key, std::string_view material, std::string_view binary,
                     std::string_view log)
{
    Sha256 h;
    h.update(key.data(), key.size());
    for (std::string_view part : {material, binary, log}) {
        std::string length;
        putU64(length, part.size());
        h.update(length);
        h.update(part);
    }
    return h.finish();
}

std::string envOr(const char *name)
{
    const char *v = std::getenv(name);
    return v ? std::string(v) : std::string();
}

// Unique per process and call, so concurrent writers never share a temporary file.
std::string temporarySuffix()
{
    static std::atomic<unsigned> counter{0};
    thread_local std::mt19937_64 random{std::random_device{}()};
    return ".tmp-" + std::to_string(::getpid()) + '-' + std::to_string(counter++) + '-' +
           std::to_string(random() & 0xffffff);
}

} // namespace

std::string_view cacheStateName(CacheState state)
{
    switch (state) {
    case CacheState::Off:
        return "off";
    case CacheState::Miss:
        return "miss";
    case CacheState::Hit:
        return "hit";
    }
    return "off";
}

DeviceIdentity DeviceIdentity::of(cl_device_id device)
{
    // The name query doubles as the validity check: a dead device handle is an infrastructure failure.
    size_t size = 0;
    check(clGetDeviceInfo(device, CL_DEVICE_NAME, 0, nullptr, &size), "clGetDeviceInfo", "CL_DEVICE_NAME");
    DeviceIdentity id;
    id.vendor = deviceString(device, CL_DEVICE_VENDOR);
    id.name = deviceString(device, CL_DEVICE_NAME);
    id.version = deviceString(device, CL_DEVICE_VERSION);
    id.driverVersion = deviceString(device, CL_DRIVER_VERSION);
    return id;
}

CacheKey makeCacheKey(std::string_view source, std::string_view options, const DeviceIdentity &device,
                      const std::vector<IncludedFile> &includes)
{
    std::string m;
    frame(m, "clscope binary cache key 2");
    frame(m, source);
    frame(m, options);
    frame(m, device.vendor);
    frame(m, device.name);
    frame(m, device.version);
    frame(m, device.driverVersion);
    for (const IncludedFile &f : includes) {
        frame(m, f.spelling);
        frame(m, f.found ? "found" : "missing");
        if (f.found)
            frame(m, f.contents);
    }
    const Digest digest = sha256(m);
    return CacheKey(digest, std::move(m));
}

CacheKey derivedCacheKey(const CacheKey &program, std::string_view what)
{
    std::string m;
    frame(m, "clscope derived cache key 1");
    frame(m, std::string_view(reinterpret_cast<const char *>(program.digest.data()), program.digest.size()));
    frame(m, program.material);
    frame(m, what);
    const Digest digest = sha256(m);
    return CacheKey(digest, std::move(m));
}

Digest cacheKey(std::string_view source, std::string_view options, const DeviceIdentity &device,
                const std::vector<IncludedFile> &includes)
{
    return makeCacheKey(source, options, device, includes).digest;
}

std::string encodeCacheEntry(const CacheKey &key, const CacheEntry &entry)
{
    const std::string_view binary(reinterpret_cast<const char *>(entry.binary.data()), entry.binary.size());
    std::string out;
    out.reserve(kHeaderSize + key.material.size() + binary.size() + entry.log.size());
    out.append(kMagic, sizeof kMagic);
    putU32(out, BinaryCache::kFormatVersion);
    putU32(out, std::uint32_t(kHeaderSize));
    out.append(reinterpret_cast<const char *>(key.digest.data()), key.digest.size());
    putU64(out, key.material.size());
    putU64(out, binary.size());
    putU64(out, entry.log.size());
    const Digest sum = entryChecksum(key.digest, key.material, binary, entry.log);
    out.append(reinterpret_cast<const char *>(sum.data()), sum.size());
    out.append(key.material);
    out.append(binary);
    out.append(entry.log);
    return out;
}

std::optional<CacheEntry> decodeCacheEntry(std::string_view bytes, const CacheKey &expectedKey)
{
    if (bytes.size() < kHeaderSize || std::memcmp(bytes.data(), kMagic, sizeof kMagic) != 0)
        return std::nullopt;
    if (getLittle(bytes, 8, 4) != BinaryCache::kFormatVersion || getLittle(bytes, 12, 4) != kHeaderSize)
        return std::nullopt;
    const Digest &key = expectedKey.digest;
    if (std::memcmp(bytes.data() + 16, key.data(), key.size()) != 0)
        return std::nullopt;
    const std::uint64_t materialSize = getLittle(bytes, 48, 8);
    const std::uint64_t binarySize = getLittle(bytes, 56, 8);
    const std::uint64_t logSize = getLittle(bytes, 64, 8);
    // Compared by subtraction so that absurd sizes cannot overflow a sum.
    std::uint64_t rest = bytes.size() - kHeaderSize;
    if (materialSize > rest)
        return std::nullopt;
    rest -= materialSize;
    if (binarySize > rest || logSize != rest - binarySize)
        return std::nullopt;
    const std::string_view material = bytes.substr(kHeaderSize, materialSize);
    const std::string_view binary = bytes.substr(kHeaderSize + materialSize, binarySize);
    const std::string_view log = bytes.substr(kHeaderSize + materialSize + binarySize);
    const Digest sum = entryChecksum(key, material, binary, log);
    if (std::memcmp(bytes.data() + kChecksumOffset, sum.data(), sum.size()) != 0)
        return std::nullopt;
    // The inputs the entry was built from must be the ones asked for, byte for byte.
    if (material != expectedKey.material)
        return std::nullopt;
    CacheEntry entry;
    entry.binary.assign(binary.begin(), binary.end());
    entry.log.assign(log);
    return entry;
}

BinaryCache::BinaryCache(std::filesystem::path directory)
    : m_directory(std::move(directory))
{}

BinaryCache BinaryCache::fromEnvironment()
{
    const std::string off = envOr("CLSCOPE_NO_CACHE");
    if (!off.empty() && off != "0")
        return BinaryCache();
    if (std::string dir = envOr("CLSCOPE_CACHE_DIR"); !dir.empty())
        return BinaryCache(dir);
    if (std::string xdg = envOr("XDG_CACHE_HOME"); !xdg.empty())
        return BinaryCache(fs::path(xdg) / "clscope" / "binaries");
    if (std::string home = envOr("HOME"); !home.empty())
        return BinaryCache(fs::path(home) / ".cache" / "clscope" / "binaries");
    return BinaryCache(); // nowhere to put it
}

std::filesystem::path BinaryCache::entryPath(const Digest &key) const
{
    return m_directory / (toHex(key) + ".clbin");
}

std::optional<CacheEntry> BinaryCache::load(const CacheKey &key) const
{
    if (!enabled())
        return std::nullopt;
    const fs::path path = entryPath(key.digest);
    std::error_code ec;
    if (!fs::exists(fs::symlink_status(path, ec)))
        return std::nullopt;
    std::string bytes;
    try {
        bytes = readRegularFile(path, kMaxCacheEntryBytes);
    } catch (const FileError &) {
        // A FIFO, a folder or a giant file where the entry goes: never read, replaced by the rebuild.
        remove(key.digest);
        return std::nullopt;
    }
    auto entry = decodeCacheEntry(bytes, key);
    if (!entry)
        remove(key.digest); // corrupt, from another format or another program: the rebuild writes a fresh one
    return entry;
}

bool BinaryCache::store(const CacheKey &key, const CacheEntry &entry, std::string *error) const
{
    if (!enabled())
        return false;
    const auto fail = [&](const std::string &why) {
        if (error)
            *error = why;
        return false;
    };
    std::error_code ec;
    fs::create_directories(m_directory, ec);
    if (ec)
        return fail("cannot create the cache folder " + m_directory.string() + ": " + ec.message());
    const fs::path target = entryPath(key.digest);
    fs::path temporary = target;
    temporary += temporarySuffix();
    try {
        writeWholeFile(temporary, encodeCacheEntry(key, entry));
    } catch (const FileError &e) {
        fs::remove(temporary, ec);
        return fail(e.what());
    }
    // rename() replaces the target atomically on POSIX: a concurrent reader sees a whole entry or none.
    fs::rename(temporary, target, ec);
    if (ec) {
        const std::string why = "cannot write " + target.string() + ": " + ec.message();
        fs::remove(temporary, ec);
        return fail(why);
    }
    return true;
}

void BinaryCache::remove(const Digest &key) const
{
    if (!enabled())
        return;
    std::error_code ec;
    fs::remove(entryPath(key), ec);
}

} // namespace clscope
