// The on-disk binary cache: keys, the entry file format, and atomic writes that let several processes
// build into one folder at once.
#include "clscope/build.h"

#include "clquery.h"

#include <atomic>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <random>
#include <sstream>

#include <unistd.h>

namespace clscope {
namespace {

namespace fs = std::filesystem;

constexpr char kMagic[8] = {'C', 'L', 'S', 'C', 'O', 'P', 'E', 'B'};
// magic, version, header size, key, binary size, log size, payload checksum.
constexpr std::size_t kHeaderSize = 8 + 4 + 4 + 32 + 8 + 8 + 32;

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
void frame(Sha256 &h, std::string_view field)
{
    std::uint8_t length[8];
    for (int i = 0; i < 8; ++i)
        length[i] = std::uint8_t(std::uint64_t(field.size()) >> (8 * i));
    h.update(length, sizeof length);
    h.update(field);
}

Digest payloadChecksum(const CacheEntry &entry)
{
    Sha256 h;
    h.update(entry.binary.data(), entry.binary.size());
    h.update(entry.log);
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
    id.vendor = detail::deviceString(device, CL_DEVICE_VENDOR);
    id.name = detail::deviceString(device, CL_DEVICE_NAME);
    id.version = detail::deviceString(device, CL_DEVICE_VERSION);
    id.driverVersion = detail::deviceString(device, CL_DRIVER_VERSION);
    return id;
}

Digest cacheKey(std::string_view source, std::string_view options, const DeviceIdentity &device,
                const std::vector<IncludedFile> &includes)
{
    Sha256 h;
    frame(h, "clscope binary cache key 1");
    frame(h, source);
    frame(h, options);
    frame(h, device.vendor);
    frame(h, device.name);
    frame(h, device.version);
    frame(h, device.driverVersion);
    for (const IncludedFile &f : includes) {
        frame(h, f.spelling);
        frame(h, f.found ? "found" : "missing");
        if (f.found)
            frame(h, f.contents);
    }
    return h.finish();
}

std::string encodeCacheEntry(const Digest &key, const CacheEntry &entry)
{
    std::string out;
    out.reserve(kHeaderSize + entry.binary.size() + entry.log.size());
    out.append(kMagic, sizeof kMagic);
    putU32(out, BinaryCache::kFormatVersion);
    putU32(out, std::uint32_t(kHeaderSize));
    out.append(reinterpret_cast<const char *>(key.data()), key.size());
    putU64(out, entry.binary.size());
    putU64(out, entry.log.size());
    const Digest sum = payloadChecksum(entry);
    out.append(reinterpret_cast<const char *>(sum.data()), sum.size());
    out.append(reinterpret_cast<const char *>(entry.binary.data()), entry.binary.size());
    out.append(entry.log);
    return out;
}

std::optional<CacheEntry> decodeCacheEntry(std::string_view bytes, const Digest &expectedKey)
{
    if (bytes.size() < kHeaderSize || std::memcmp(bytes.data(), kMagic, sizeof kMagic) != 0)
        return std::nullopt;
    if (getLittle(bytes, 8, 4) != BinaryCache::kFormatVersion || getLittle(bytes, 12, 4) != kHeaderSize)
        return std::nullopt;
    if (std::memcmp(bytes.data() + 16, expectedKey.data(), expectedKey.size()) != 0)
        return std::nullopt;
    const std::uint64_t binarySize = getLittle(bytes, 48, 8);
    const std::uint64_t logSize = getLittle(bytes, 56, 8);
    // Compared by subtraction so that absurd sizes cannot overflow the sum.
    const std::uint64_t payload = bytes.size() - kHeaderSize;
    if (binarySize > payload || logSize != payload - binarySize)
        return std::nullopt;
    CacheEntry entry;
    const char *p = bytes.data() + kHeaderSize;
    entry.binary.assign(p, p + binarySize);
    entry.log.assign(p + binarySize, logSize);
    const Digest sum = payloadChecksum(entry);
    if (std::memcmp(bytes.data() + 64, sum.data(), sum.size()) != 0)
        return std::nullopt;
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

std::optional<CacheEntry> BinaryCache::load(const Digest &key) const
{
    if (!enabled())
        return std::nullopt;
    const fs::path path = entryPath(key);
    std::ifstream in(path, std::ios::binary);
    if (!in)
        return std::nullopt;
    std::ostringstream ss;
    ss << in.rdbuf();
    in.close();
    auto entry = decodeCacheEntry(ss.str(), key);
    if (!entry)
        remove(key); // corrupt or from another format: the rebuild writes a fresh one
    return entry;
}

bool BinaryCache::store(const Digest &key, const CacheEntry &entry) const
{
    if (!enabled())
        return false;
    std::error_code ec;
    fs::create_directories(m_directory, ec);
    const fs::path target = entryPath(key);
    fs::path temporary = target;
    temporary += temporarySuffix();
    const std::string bytes = encodeCacheEntry(key, entry);
    {
        std::ofstream out(temporary, std::ios::binary | std::ios::trunc);
        if (!out)
            return false;
        out.write(bytes.data(), std::streamsize(bytes.size()));
        out.close();
        if (!out) {
            fs::remove(temporary, ec);
            return false;
        }
    }
    // rename() replaces the target atomically on POSIX: a concurrent reader sees a whole entry or none.
    fs::rename(temporary, target, ec);
    if (ec) {
        fs::remove(temporary, ec);
        return false;
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
