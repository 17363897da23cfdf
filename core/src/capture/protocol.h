// The stream from the layer (inside the captured program) to the recorder (clscope-cli capture): framed
// binary records. Header-only and free of exceptions and allocation, because the layer includes it too.
//
// A record is: u32 size (of the whole record, header included), u16 kind, u16 zero, then the payload as
// little-endian fields in the order each kind lists below. Strings and blobs are u32 length + bytes.
// The recorder reads a truncated last record (the program died mid-write) as the end of the stream.
#pragma once

#include <charconv>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <optional>
#include <string_view>
#include <type_traits>

namespace clscope::capture::wire {

inline constexpr std::uint32_t kVersion = 1;
inline constexpr std::size_t kHeaderSize = 8;

enum class Kind : std::uint16_t {
    Hello = 1,    // u32 version, u32 pid, u64 host_ns, str layer
    ApiName = 2,  // u16 id, str name
    ApiCall = 3,  // u16 id, u32 thread, u64 start_ns, u64 duration_ns, i32 result
    Device = 4,   // u64 handle, u64 platform, str platform_name, str name, str version, u64 type, str vendor
    Context = 5,  // u64 handle, u64 ts, u32 n, u64 devices[n], u32 m, u64 properties[m]
    Queue = 6,    // u64 handle, u64 context, u64 device, u64 app_properties, u8 profiling_added, u64 ts
    Mem = 7,      // u64 handle, u64 context, u8 kind, u64 flags, u64 size, u64 host_ptr, u64 parent,
                  // u64 origin, u32 image_type, u64 w, u64 h, u64 d, u64 array, u32 order, u32 dtype, u64 ts
    Retain = 8,   // u8 object (ObjectType), u64 handle, u64 ts
    Release = 9,  // u8 object, u64 handle, u64 ts
    Program = 10, // u64 handle, u64 context, u8 kind (ProgramKind), u64 ts, u32 n, n x (u64 device, blob)
    Build = 11,   // u64 program, u8 op (BuildOp), str options, i32 result, u64 start, u64 duration,
                  // u32 ninputs, u64 inputs[], u32 n, n x (u64 device, i32 status, str log)
    Kernel = 12,  // u64 handle, u64 program, str name, u32 num_args, u64 ts
    KernelArg = 13,    // u64 kernel, u32 index, u8 kind (ArgKind), u64 size, blob value
    Command = 14,      // see CommandRecordWire
    CommandTimes = 15, // u64 command, i32 status, u64 queued, u64 submit, u64 start, u64 end
    Contents = 16,     // i64 launch, u32 arg, u8 phase (0 before, 1 after), u64 mem, u8 state, blob bytes
    Drops = 17,        // u64 records, u64 bytes, u64 ts: records the layer could not send
    End = 18,          // u64 ts: the program's layer shut down cleanly
    Sampler = 19,      // u64 handle, u64 context, u32 normalized, u32 addressing, u32 filter
};
// One piece of a Contents record too large for one (kContentsPiece bytes each, in order): i64 launch, u32
// arg, u8 phase, u64 mem, u64 total bytes, u64 offset, blob bytes. The recorder joins the pieces into one
// Contents record (state captured) once all have come. Not in Kind, whose every value records.cpp handles:
// the recorder takes it before.
inline constexpr Kind kContentsPart = static_cast<Kind>(20);
inline constexpr std::size_t kContentsPiece = std::size_t(4) << 20;

enum class ObjectType : std::uint8_t { Context = 1, Queue, Mem, Program, Kernel, Event, Sampler };
enum class MemKind : std::uint8_t { Buffer = 1, SubBuffer, Image, Svm, Pipe, Interop };
enum class ProgramKind : std::uint8_t { Source = 1, Binary, IL, BuiltIn, Linked };
enum class BuildOp : std::uint8_t { Build = 1, Compile, Link };
enum class ArgKind : std::uint8_t { Value = 1, Mem, Local, Svm, Sampler, NullMem };
// Contents state: captured, or why not.
enum class ContentState : std::uint8_t { Captured = 0, OverBudget, NotABuffer, ReadFailed };

// CommandWire::ownEvent and the capture's commands.own_event.
enum class OwnEvent : std::uint8_t {
    Program = 0, // the program's own event (its timestamps)
    Layer = 1,   // the program passed none; the layer used one of its own and released it
    None = 2,    // the program passed none and the layer took none (--timestamps): no device times
};

// Fixed fields of a Command record, in wire order.
struct CommandWire
{
    std::uint64_t id = 0;     // the layer's command number (CommandTimes refer to it)
    std::int64_t launch = -1; // kernel launches: 0, 1, ... in enqueue order over all queues
    std::uint32_t type = 0;   // CL_COMMAND_*
    std::uint64_t queue = 0;
    std::uint64_t kernel = 0;
    std::uint32_t dims = 0;
    std::uint64_t global[3] = {};
    std::uint64_t local[3] = {};
    std::uint64_t offset[3] = {};
    std::uint8_t localGiven = 0;
    std::uint64_t bytes = 0;
    std::uint64_t mem = 0;  // source / target object
    std::uint64_t mem2 = 0; // destination of copies
    std::uint32_t waitCount = 0;
    std::uint8_t blocking = 0;
    std::uint8_t ownEvent = 0; // OwnEvent: whose event timed the command
    std::uint32_t thread = 0;
    std::uint64_t hostStart = 0;
    std::uint64_t hostDuration = 0;
    std::int32_t result = 0;
};

// Writes fields into a caller-provided buffer. Never writes past the end; ok() says whether all fitted.
class Encoder
{
public:
    Encoder(unsigned char *data, std::size_t capacity)
        : m_data(data)
        , m_capacity(capacity)
    {}

    template<typename T> void put(T value)
    {
        static_assert(std::is_trivially_copyable_v<T>);
        raw(&value, sizeof value);
    }
    void raw(const void *src, std::size_t n)
    {
        if (m_size + n > m_capacity) {
            m_overflow = true;
            return;
        }
        if (n)
            std::memcpy(m_data + m_size, src, n);
        m_size += n;
    }
    void blob(const void *src, std::size_t n)
    {
        put(static_cast<std::uint32_t>(n));
        raw(src, n);
    }
    void str(std::string_view s) { blob(s.data(), s.size()); }
    void command(const CommandWire &c)
    {
        put(c.id), put(c.launch), put(c.type), put(c.queue), put(c.kernel), put(c.dims);
        for (int i = 0; i < 3; ++i)
            put(c.global[i]);
        for (int i = 0; i < 3; ++i)
            put(c.local[i]);
        for (int i = 0; i < 3; ++i)
            put(c.offset[i]);
        put(c.localGiven), put(c.bytes), put(c.mem), put(c.mem2), put(c.waitCount), put(c.blocking);
        put(c.ownEvent), put(c.thread), put(c.hostStart), put(c.hostDuration), put(c.result);
    }
    std::size_t size() const { return m_size; }
    bool ok() const { return !m_overflow; }

private:
    unsigned char *m_data;
    std::size_t m_capacity;
    std::size_t m_size = 0;
    bool m_overflow = false;
};

// Writes the header of a record of `total` bytes (header included) at `at`.
inline void putHeader(unsigned char *at, Kind kind, std::size_t total)
{
    const auto size = static_cast<std::uint32_t>(total);
    const auto k = static_cast<std::uint16_t>(kind);
    const std::uint16_t zero = 0;
    std::memcpy(at, &size, 4);
    std::memcpy(at + 4, &k, 2);
    std::memcpy(at + 6, &zero, 2);
}

// Bytes a string or blob field takes on the wire.
inline constexpr std::size_t blobSize(std::size_t n)
{
    return 4 + n;
}

// Reads fields of one record's payload. Reading past the end yields zeros and sets !ok().
class Decoder
{
public:
    Decoder(const unsigned char *data, std::size_t size)
        : m_data(data)
        , m_size(size)
    {}

    template<typename T> T get()
    {
        T value{};
        if (m_pos + sizeof value > m_size) {
            m_bad = true;
            return value;
        }
        std::memcpy(&value, m_data + m_pos, sizeof value);
        m_pos += sizeof value;
        return value;
    }
    std::string_view blob()
    {
        const auto n = get<std::uint32_t>();
        if (m_pos + n > m_size) {
            m_bad = true;
            return {};
        }
        std::string_view s(reinterpret_cast<const char *>(m_data + m_pos), n);
        m_pos += n;
        return s;
    }
    CommandWire command()
    {
        CommandWire c;
        c.id = get<std::uint64_t>(), c.launch = get<std::int64_t>(), c.type = get<std::uint32_t>();
        c.queue = get<std::uint64_t>(), c.kernel = get<std::uint64_t>(), c.dims = get<std::uint32_t>();
        for (auto &v : c.global)
            v = get<std::uint64_t>();
        for (auto &v : c.local)
            v = get<std::uint64_t>();
        for (auto &v : c.offset)
            v = get<std::uint64_t>();
        c.localGiven = get<std::uint8_t>(), c.bytes = get<std::uint64_t>(), c.mem = get<std::uint64_t>();
        c.mem2 = get<std::uint64_t>(), c.waitCount = get<std::uint32_t>(), c.blocking = get<std::uint8_t>();
        c.ownEvent = get<std::uint8_t>(), c.thread = get<std::uint32_t>(), c.hostStart = get<std::uint64_t>();
        c.hostDuration = get<std::uint64_t>(), c.result = get<std::int32_t>();
        return c;
    }
    bool ok() const { return !m_bad; }

private:
    const unsigned char *m_data;
    std::size_t m_size;
    std::size_t m_pos = 0;
    bool m_bad = false;
};

// Environment variables from the recorder to the layer.
inline constexpr const char *kEnvFd = "CLSCOPE_CAPTURE_FD";             // "FD:INODE" of the stream socket
inline constexpr const char *kEnvContents = "CLSCOPE_CAPTURE_CONTENTS"; // "all" or empty
inline constexpr const char *kEnvKernels = "CLSCOPE_CAPTURE_KERNELS";   // "a,b": contents of these kernels
inline constexpr const char *kEnvLaunches = "CLSCOPE_CAPTURE_LAUNCHES"; // "0,5": contents of these launches
inline constexpr const char *kEnvBudget = "CLSCOPE_CAPTURE_BUDGET";     // bytes of contents at most
inline constexpr const char *kEnvBuffer = "CLSCOPE_CAPTURE_BUFFER"; // bytes the layer buffers before dropping
// Which commands the program passed no event for get one of the layer's: "all" (unset), "program" (none: only
// the program's own events time commands), or a number N (one in N, counted per thread).
inline constexpr const char *kEnvTimestamps = "CLSCOPE_CAPTURE_TIMESTAMPS";

// kEnvTimestamps' text as one command in how many gets an event of the layer's: "all" 1, "program" 0, N N
// (N >= 1); none for anything else.
inline std::optional<std::uint32_t> parseTimestampsEvery(std::string_view text)
{
    if (text == "all")
        return 1;
    if (text == "program")
        return 0;
    std::uint32_t every = 0;
    const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), every);
    if (ec != std::errc() || end != text.data() + text.size() || every == 0)
        return std::nullopt;
    return every;
}

} // namespace clscope::capture::wire
