// A workbench run saved as a capture (issue 15): the run told as the layer would have told it of a program
// that made it (device, context, queue, memory objects, program and build, kernel and its arguments, every
// command with its timestamps, the buffers' contents before the first launch and after the last), through
// the same stream records into the same CaptureWriter, so that capture-info, the GUI and replay read it as
// any capture.
#include "clscope/capture.h"

#include "clscope/clquery.h"
#include "clscope/runner.h"

#include "protocol.h"

#include <map>
#include <unistd.h>

namespace clscope {

namespace {

namespace w = capture::wire;

class Stream
{
public:
    template<typename F> void add(w::Kind kind, std::size_t payload, F &&fill)
    {
        const std::size_t at = m_bytes.size();
        m_bytes.resize(at + w::kHeaderSize + payload);
        w::Encoder e(m_bytes.data() + at + w::kHeaderSize, payload);
        fill(e);
        if (!e.ok())
            throw CaptureError("a record of the run did not fit its size (a bug)");
        w::putHeader(m_bytes.data() + at, kind, w::kHeaderSize + e.size());
        m_bytes.resize(at + w::kHeaderSize + e.size());
    }
    const std::vector<unsigned char> &bytes() const { return m_bytes; }

private:
    std::vector<unsigned char> m_bytes;
};

// Handles of the run's objects on the wire: any numbers, unique per kind of object.
constexpr std::uint64_t kPlatform = 1, kDevice = 2, kContext = 3, kQueue = 4, kProgram = 5, kKernel = 6;
constexpr std::uint64_t kFirstMem = 100, kFirstSampler = 1000;

std::uint32_t commandType(const CommandRecord &c, bool image)
{
    switch (c.type) {
    case CommandRecord::Type::Kernel:
        return CL_COMMAND_NDRANGE_KERNEL;
    case CommandRecord::Type::Read:
        return image ? CL_COMMAND_READ_IMAGE : CL_COMMAND_READ_BUFFER;
    case CommandRecord::Type::Write:
        return image ? CL_COMMAND_WRITE_IMAGE : CL_COMMAND_WRITE_BUFFER;
    case CommandRecord::Type::Copy:
        return CL_COMMAND_COPY_BUFFER;
    case CommandRecord::Type::Fill:
        return CL_COMMAND_FILL_BUFFER;
    case CommandRecord::Type::Map:
        return CL_COMMAND_MAP_BUFFER;
    case CommandRecord::Type::Migrate:
        return CL_COMMAND_MIGRATE_MEM_OBJECTS;
    case CommandRecord::Type::Build:
    case CommandRecord::Type::Marker:
        break;
    }
    return CL_COMMAND_MARKER;
}

} // namespace

void writeRunCapture(const std::string &path, const RunResult &run, const BuildResult &build,
                     cl_device_id device, const std::string &command)
{
    if (run.arguments().empty() && !run.launches().empty())
        throw CaptureError("the run kept no arguments to save");
    const std::uint64_t now = hostNowNs();
    Stream s;
    const std::string layer = "clscope-cli run";
    s.add(w::Kind::Hello, 16 + w::blobSize(layer.size()), [&](w::Encoder &e) {
        e.put(w::kVersion), e.put(std::uint32_t(::getpid())), e.put(now), e.str(layer);
    });
    cl_platform_id platform = nullptr;
    clGetDeviceInfo(device, CL_DEVICE_PLATFORM, sizeof platform, &platform, nullptr);
    const std::string platformName = platform ? platformString(platform, CL_PLATFORM_NAME) : std::string();
    const std::string name = deviceString(device, CL_DEVICE_NAME);
    const std::string version = deviceString(device, CL_DEVICE_VERSION);
    const std::string vendor = deviceString(device, CL_DEVICE_VENDOR);
    cl_device_type type = 0;
    clGetDeviceInfo(device, CL_DEVICE_TYPE, sizeof type, &type, nullptr);
    s.add(w::Kind::Device,
          24 + w::blobSize(platformName.size()) + w::blobSize(name.size()) + w::blobSize(version.size()) +
              w::blobSize(vendor.size()),
          [&](w::Encoder &e) {
              e.put(kDevice), e.put(kPlatform), e.str(platformName), e.str(name), e.str(version);
              e.put(std::uint64_t(type)), e.str(vendor);
          });
    s.add(w::Kind::Context, 32, [&](w::Encoder &e) {
        e.put(kContext), e.put(now), e.put(std::uint32_t(1)), e.put(kDevice), e.put(std::uint32_t(0));
    });
    s.add(w::Kind::Queue, 41, [&](w::Encoder &e) {
        e.put(kQueue), e.put(kContext), e.put(kDevice), e.put(std::uint64_t(CL_QUEUE_PROFILING_ENABLE));
        e.put(std::uint8_t(0)), e.put(now);
    });

    // Memory objects: every buffer and image argument.
    const std::vector<RunArgument> &args = run.arguments();
    std::map<std::string, std::uint64_t> memOf; // by argument name
    for (std::size_t i = 0; i < args.size(); ++i) {
        const RunArgument &a = args[i];
        if (a.kind != ArgKind::Buffer && a.kind != ArgKind::Image)
            continue;
        const std::uint64_t handle = kFirstMem + i;
        memOf[a.name] = handle;
        s.add(w::Kind::Mem, 128, [&](w::Encoder &e) {
            e.put(handle), e.put(kContext);
            e.put(a.kind == ArgKind::Image ? w::MemKind::Image : w::MemKind::Buffer);
            e.put(std::uint64_t(CL_MEM_READ_WRITE)), e.put(a.bytes), e.put(std::uint64_t(0)),
                e.put(std::uint64_t(0));
            e.put(std::uint64_t(0));
            if (a.image) {
                e.put(std::uint32_t(imageObjectType(a.image->dim)));
                e.put(std::uint64_t(a.image->shape.width)), e.put(std::uint64_t(a.image->shape.height));
                e.put(std::uint64_t(a.image->shape.depth)), e.put(std::uint64_t(a.image->shape.layers));
                e.put(std::uint32_t(a.image->format.order)), e.put(std::uint32_t(a.image->format.type));
            } else {
                e.put(std::uint32_t(0));
                for (int k = 0; k < 4; ++k)
                    e.put(std::uint64_t(0));
                e.put(std::uint32_t(0)), e.put(std::uint32_t(0));
            }
            e.put(now);
        });
    }

    // The program from its source, its build on the device, the kernel and its arguments.
    const std::string &source = build.source();
    s.add(w::Kind::Program, 33 + 8 + w::blobSize(source.size()), [&](w::Encoder &e) {
        e.put(kProgram), e.put(kContext), e.put(w::ProgramKind::Source), e.put(now);
        e.put(std::uint32_t(1)), e.put(std::uint64_t(0)), e.str(source);
    });
    std::string log;
    for (const DeviceBuildLog &l : build.logs())
        if (l.id == device)
            log = l.log;
    const std::string &options = run.options().empty() ? build.options() : run.options();
    s.add(w::Kind::Build, 1 + 8 + w::blobSize(options.size()) + 4 + 16 + 4 + 4 + 12 + w::blobSize(log.size()),
          [&](w::Encoder &e) {
              e.put(kProgram), e.put(w::BuildOp::Build), e.str(options), e.put(std::int32_t(CL_SUCCESS));
              e.put(now), e.put(std::uint64_t(0)), e.put(std::uint32_t(0));
              e.put(std::uint32_t(1)), e.put(kDevice), e.put(std::int32_t(CL_BUILD_SUCCESS)), e.str(log);
          });
    s.add(w::Kind::Kernel, 28 + w::blobSize(run.kernel().size()), [&](w::Encoder &e) {
        e.put(kKernel), e.put(kProgram), e.str(run.kernel()), e.put(std::uint32_t(args.size())), e.put(now);
    });
    for (std::size_t i = 0; i < args.size(); ++i) {
        const RunArgument &a = args[i];
        std::vector<unsigned char> value;
        w::ArgKind kind = w::ArgKind::Value;
        std::uint64_t size = a.value.size();
        if (a.kind == ArgKind::Buffer || a.kind == ArgKind::Image) {
            kind = w::ArgKind::Mem;
            const std::uint64_t handle = memOf.at(a.name);
            value.resize(8);
            std::memcpy(value.data(), &handle, 8);
            size = 8;
        } else if (a.kind == ArgKind::Local) {
            kind = w::ArgKind::Local;
            size = a.bytes;
        } else if (a.kind == ArgKind::Sampler) {
            // A sampler object of its own, as the layer records one: the argument is its handle.
            const std::uint64_t handle = kFirstSampler + i;
            s.add(w::Kind::Sampler, 28, [&](w::Encoder &e) {
                e.put(handle), e.put(kContext), e.put(std::uint32_t(a.sampler.normalized ? 1 : 0));
                e.put(std::uint32_t(addressingMode(a.sampler.addressing)));
                e.put(std::uint32_t(a.sampler.linear ? CL_FILTER_LINEAR : CL_FILTER_NEAREST));
            });
            value.resize(8);
            std::memcpy(value.data(), &handle, 8);
            size = sizeof(cl_sampler);
        } else {
            value = a.value;
        }
        s.add(w::Kind::KernelArg, 25 + w::blobSize(value.size()), [&](w::Encoder &e) {
            e.put(kKernel), e.put(std::uint32_t(i)), e.put(kind), e.put(size),
                e.blob(value.data(), value.size());
        });
    }

    // The commands in enqueue order: launches numbered from 0, each transfer on its buffer, and their times.
    const auto memFor = [&](const CommandRecord &c) -> std::pair<std::uint64_t, bool> {
        // "write a", "read c", "fill a", "copy a to b": the first buffer named.
        const std::size_t space = c.name.find(' ');
        if (space == std::string::npos)
            return {0, false};
        std::string rest = c.name.substr(space + 1);
        if (const std::size_t to = rest.find(" to "); to != std::string::npos)
            rest = rest.substr(0, to);
        for (const RunArgument &a : args)
            if (a.name == rest && memOf.contains(a.name))
                return {memOf.at(a.name), a.kind == ArgKind::Image};
        return {0, false};
    };
    const auto copyTarget = [&](const CommandRecord &c) -> std::uint64_t {
        const std::size_t to = c.name.find(" to ");
        if (to == std::string::npos)
            return 0;
        const auto it = memOf.find(c.name.substr(to + 4));
        return it == memOf.end() ? 0 : it->second;
    };
    std::int64_t launch = 0;
    std::uint64_t id = 0;
    std::int64_t lastLaunch = -1;
    for (const CommandRecord &c : run.commands()) {
        if (c.hostSpan)
            continue;
        w::CommandWire cw;
        cw.id = ++id;
        const auto [mem, image] = memFor(c);
        cw.type = commandType(c, image);
        cw.queue = kQueue;
        if (c.type == CommandRecord::Type::Kernel) {
            lastLaunch = cw.launch = launch++;
            cw.kernel = kKernel;
            cw.dims = std::uint32_t(c.dims);
            for (int k = 0; k < 3; ++k) {
                cw.global[k] = c.global[std::size_t(k)];
                cw.local[k] = c.local[std::size_t(k)];
                cw.offset[k] = std::size_t(k) < run.offset().size() ? run.offset()[std::size_t(k)] : 0;
            }
            cw.localGiven = run.local().empty() ? 0 : 1;
        } else {
            cw.mem = mem;
            cw.mem2 = c.type == CommandRecord::Type::Copy ? copyTarget(c) : 0;
        }
        cw.bytes = c.bytes;
        cw.hostStart = c.hostSubmitNs;
        cw.result = CL_SUCCESS;
        s.add(w::Kind::Command, 256, [&](w::Encoder &e) { e.command(cw); });
        s.add(w::Kind::CommandTimes, 44, [&](w::Encoder &e) {
            e.put(cw.id), e.put(std::int32_t(CL_COMPLETE)), e.put(std::uint64_t(c.queued));
            e.put(std::uint64_t(c.submit)), e.put(std::uint64_t(c.start)), e.put(std::uint64_t(c.end));
        });
        if (c.type != CommandRecord::Type::Kernel || cw.launch != 0)
            continue;
        // The first launch's "before": what every buffer held when it started.
        for (std::size_t i = 0; i < args.size(); ++i) {
            const RunArgument &a = args[i];
            if (a.kind != ArgKind::Buffer || a.before.size() != a.bytes)
                continue;
            s.add(w::Kind::Contents, 23 + w::blobSize(a.before.size()), [&](w::Encoder &e) {
                e.put(std::int64_t(0)), e.put(std::uint32_t(i)), e.put(std::uint8_t(0)),
                    e.put(memOf.at(a.name));
                e.put(w::ContentState::Captured), e.blob(a.before.data(), a.before.size());
            });
        }
    }
    // The last launch's "after": what every buffer held when the run ended.
    if (lastLaunch >= 0) {
        for (std::size_t i = 0; i < args.size(); ++i) {
            const RunArgument &a = args[i];
            if (a.kind != ArgKind::Buffer || a.after.size() != a.bytes)
                continue;
            s.add(w::Kind::Contents, 23 + w::blobSize(a.after.size()), [&](w::Encoder &e) {
                e.put(lastLaunch), e.put(std::uint32_t(i)), e.put(std::uint8_t(1)), e.put(memOf.at(a.name));
                e.put(w::ContentState::Captured), e.blob(a.after.data(), a.after.size());
            });
        }
    }
    s.add(w::Kind::End, 8, [&](w::Encoder &e) { e.put(hostNowNs()); });

    CaptureWriter writer(path);
    writer.setMeta("command", command);
    writer.setMeta("layer", layer);
    writer.setMeta("started_ns", std::to_string(now));
    writer.feed(s.bytes().data(), s.bytes().size());
    writer.setMeta("ended_ns", std::to_string(hostNowNs()));
    writer.setMeta("exit_status", "0");
    writer.finish();
}

} // namespace clscope
