// CaptureWriter::Impl's handlers: one function per kind of record of the layer's stream (protocol.h), each
// turning its record into rows of the capture file (schema.h). Handles become row ids through the
// live-object map; the names stored for the stream's enumerations are in recordnames.cpp.
#include "recorder_impl.h"
#include "recordnames.h"

#include <algorithm>
#include <cstring>

namespace clscope {

using namespace capture;
namespace w = capture::wire;
using u64 = std::uint64_t;

void CaptureWriter::Impl::record(w::Kind kind, w::Decoder &in)
{
    switch (kind) {
    case w::Kind::Hello:
        return onHello(in);
    case w::Kind::ApiName:
        return onApiName(in);
    case w::Kind::ApiCall:
        return onApiCall(in);
    case w::Kind::Device:
        return onDevice(in);
    case w::Kind::Context:
        return onContext(in);
    case w::Kind::Queue:
        return onQueue(in);
    case w::Kind::Mem:
        return onMem(in);
    case w::Kind::Sampler:
        return onSampler(in);
    case w::Kind::Retain:
    case w::Kind::Release:
        return onRetainOrRelease(kind, in);
    case w::Kind::Program:
        return onProgram(in);
    case w::Kind::Build:
        return onBuild(in);
    case w::Kind::Kernel:
        return onKernel(in);
    case w::Kind::KernelArg:
        return onKernelArg(in);
    case w::Kind::Command:
        return onCommand(in);
    case w::Kind::CommandTimes:
        return onCommandTimes(in);
    case w::Kind::Contents:
        return onContents(in);
    case w::Kind::Drops:
        return onDrops(in);
    case w::Kind::End:
        return onEnd(in);
    }
}

// A new process: its own handles, devices and launch numbers (after the previous process's).
void CaptureWriter::Impl::onHello(w::Decoder &in)
{
    in.get<std::uint32_t>();
    const auto pid = in.get<std::uint32_t>();
    const auto ts = in.get<u64>();
    const std::string_view layer = in.blob();
    // The commands of the process before that still wait for their timestamps are its own: written first.
    commands.flushWaiting(std::chrono::milliseconds(0), process);
    sql.insProcess.bind(1, pid).bind(2, layer).bind(3, ts).run();
    process = lastId();
    launchBase = nextLaunch;
    devices.clear();
    live.clear();
    commands.forgetRows();
    kernelArgs.clear();
}

void CaptureWriter::Impl::onApiName(w::Decoder &in)
{
    const auto id = in.get<std::uint16_t>();
    sql.insApiName.bind(1, id).bind(2, in.blob()).run();
}

void CaptureWriter::Impl::onApiCall(w::Decoder &in)
{
    const auto id = in.get<std::uint16_t>();
    const auto thread = in.get<std::uint32_t>();
    const auto start = in.get<u64>(), dur = in.get<u64>();
    const auto result = in.get<std::int32_t>();
    sql.insApiCall.bind(1, process)
        .bind(2, id)
        .bind(3, thread)
        .bind(4, start)
        .bind(5, dur)
        .bind(6, result)
        .run();
}

void CaptureWriter::Impl::onDevice(w::Decoder &in)
{
    const u64 handle = in.get<u64>(), platform = in.get<u64>();
    const std::string pname(in.blob()), name(in.blob()), version(in.blob());
    const u64 type = in.get<u64>();
    const std::string vendor(in.blob());
    sql.insDevice.bind(1, process).bind(2, handle).bind(3, platform).bind(4, pname).bind(5, name);
    sql.insDevice.bind(6, version).bind(7, type).bind(8, vendor).run();
    devices[handle] = lastId();
}

void CaptureWriter::Impl::onContext(w::Decoder &in)
{
    const u64 handle = in.get<u64>(), ts = in.get<u64>();
    std::string devs, props;
    for (std::uint32_t i = 0, n = in.get<std::uint32_t>(); i < n && in.ok(); ++i)
        devs += (devs.empty() ? "" : ",") + std::to_string(deviceId(in.get<u64>()));
    for (std::uint32_t i = 0, n = in.get<std::uint32_t>(); i < n && in.ok(); ++i)
        props += (props.empty() ? "" : ",") + std::to_string(in.get<u64>());
    sql.insContext.bind(1, process).bind(2, handle).bind(3, devs).bind(4, props).bind(5, ts).run();
    live.add(w::ObjectType::Context, handle, lastId());
}

void CaptureWriter::Impl::onQueue(w::Decoder &in)
{
    const u64 handle = in.get<u64>(), ctx = in.get<u64>(), dev = in.get<u64>(), props = in.get<u64>();
    const auto added = in.get<std::uint8_t>();
    const u64 ts = in.get<u64>();
    sql.insQueue.bind(1, process).bind(2, handle).bind(3, live.find(w::ObjectType::Context, ctx));
    sql.insQueue.bind(4, deviceId(dev)).bind(5, props).bind(6, added).bind(7, ts).run();
    live.add(w::ObjectType::Queue, handle, lastId());
}

void CaptureWriter::Impl::onMem(w::Decoder &in)
{
    const u64 handle = in.get<u64>(), ctx = in.get<u64>();
    const auto kind = static_cast<w::MemKind>(in.get<std::uint8_t>());
    const u64 flags = in.get<u64>(), size = in.get<u64>(), host = in.get<u64>(), parent = in.get<u64>();
    const u64 origin = in.get<u64>();
    const auto itype = in.get<std::uint32_t>();
    const u64 wd = in.get<u64>(), ht = in.get<u64>(), dp = in.get<u64>(), arr = in.get<u64>();
    const auto order = in.get<std::uint32_t>(), dtype = in.get<std::uint32_t>();
    const u64 ts = in.get<u64>();
    Stmt &s = sql.insMem;
    s.bind(1, process)
        .bind(2, handle)
        .bind(3, live.find(w::ObjectType::Context, ctx))
        .bind(4, memKindName(kind));
    s.bind(5, flags).bind(6, size).bind(7, host).bind(9, origin);
    if (const std::int64_t parentId = live.find(w::ObjectType::Mem, parent))
        s.bind(8, parentId);
    else
        s.bindNull(8);
    s.bind(10, itype).bind(11, wd).bind(12, ht).bind(13, dp).bind(14, arr).bind(15, order).bind(16, dtype);
    s.bind(17, ts).run();
    live.add(w::ObjectType::Mem, handle, lastId());
}

void CaptureWriter::Impl::onSampler(w::Decoder &in)
{
    const u64 handle = in.get<u64>(), ctx = in.get<u64>();
    const auto norm = in.get<std::uint32_t>(), am = in.get<std::uint32_t>(), fm = in.get<std::uint32_t>();
    sql.insSampler.bind(1, process)
        .bind(2, handle)
        .bind(3, live.find(w::ObjectType::Context, ctx))
        .bind(4, norm);
    sql.insSampler.bind(5, am).bind(6, fm).run();
    live.add(w::ObjectType::Sampler, handle, lastId());
}

void CaptureWriter::Impl::onRetainOrRelease(w::Kind kind, w::Decoder &in)
{
    const auto type = static_cast<w::ObjectType>(in.get<std::uint8_t>());
    const u64 handle = in.get<u64>(), ts = in.get<u64>();
    if (kind == w::Kind::Retain) {
        live.retain(type, handle);
        return;
    }
    const std::int64_t released = live.release(db, type, handle, ts);
    if (released && type == w::ObjectType::Kernel)
        kernelArgs.erase(released);
}

// A program with its sources (or binaries, IL), one row per device that has one.
void CaptureWriter::Impl::onProgram(w::Decoder &in)
{
    const u64 handle = in.get<u64>(), ctx = in.get<u64>();
    const auto pk = static_cast<w::ProgramKind>(in.get<std::uint8_t>());
    const u64 ts = in.get<u64>();
    sql.insProgram.bind(1, process).bind(2, handle).bind(3, live.find(w::ObjectType::Context, ctx));
    sql.insProgram.bind(4, programKindName(pk)).bind(5, ts).run();
    const std::int64_t id = lastId();
    live.add(w::ObjectType::Program, handle, id);
    for (std::uint32_t i = 0, n = in.get<std::uint32_t>(); i < n && in.ok(); ++i) {
        const u64 dev = in.get<u64>();
        const std::string_view data = in.blob();
        sql.insSource.bind(1, id).bind(2, i).bind(3, deviceId(dev)).bindBlob(4, data).run();
    }
}

// A build, compile or link with its inputs and a log per device.
void CaptureWriter::Impl::onBuild(w::Decoder &in)
{
    const std::int64_t program = live.find(w::ObjectType::Program, in.get<u64>());
    const auto op = static_cast<w::BuildOp>(in.get<std::uint8_t>());
    const std::string options(in.blob());
    const auto result = in.get<std::int32_t>();
    const u64 start = in.get<u64>(), dur = in.get<u64>();
    std::string inputs;
    for (std::uint32_t i = 0, n = in.get<std::uint32_t>(); i < n && in.ok(); ++i)
        inputs +=
            (inputs.empty() ? "" : ",") + std::to_string(live.find(w::ObjectType::Program, in.get<u64>()));
    sql.insBuild.bind(1, program).bind(2, buildOpName(op)).bind(3, options).bind(4, result).bind(5, start);
    sql.insBuild.bind(6, dur).bind(7, inputs).run();
    const std::int64_t build = lastId();
    for (std::uint32_t i = 0, n = in.get<std::uint32_t>(); i < n && in.ok(); ++i) {
        const std::int64_t device = deviceId(in.get<u64>());
        const auto status = in.get<std::int32_t>();
        sql.insLog.bind(1, build).bind(2, device).bind(3, status).bind(4, in.blob());
        sql.insLog.run();
    }
}

void CaptureWriter::Impl::onKernel(w::Decoder &in)
{
    const u64 handle = in.get<u64>(), program = in.get<u64>();
    const std::string name(in.blob());
    const auto nargs = in.get<std::uint32_t>();
    const u64 ts = in.get<u64>();
    sql.insKernel.bind(1, process)
        .bind(2, handle)
        .bind(3, live.find(w::ObjectType::Program, program))
        .bind(4, name);
    sql.insKernel.bind(5, nargs).bind(6, ts).run();
    const std::int64_t id = lastId();
    live.add(w::ObjectType::Kernel, handle, id);
    kernelArgs[id].resize(nargs);
}

// clSetKernelArg: kept with the kernel until its next launch writes launch_args. A value of a handle's size
// that names a live buffer or sampler is that object.
void CaptureWriter::Impl::onKernelArg(w::Decoder &in)
{
    const std::int64_t kernel = live.find(w::ObjectType::Kernel, in.get<u64>());
    const auto index = in.get<std::uint32_t>();
    const auto ak = static_cast<w::ArgKind>(in.get<std::uint8_t>());
    const u64 size = in.get<u64>();
    const std::string_view value = in.blob();
    if (!kernel)
        return;
    std::vector<CurrentArg> &args = kernelArgs[kernel];
    if (index == UINT32_MAX) { // a clone: the arguments of its source kernel
        u64 source = 0;
        if (value.size() == 8)
            std::memcpy(&source, value.data(), 8);
        auto src = kernelArgs.find(live.find(w::ObjectType::Kernel, source));
        if (src != kernelArgs.end())
            args = src->second;
        return;
    }
    if (index >= args.size())
        args.resize(index + 1);
    CurrentArg a;
    a.size = size;
    a.value = value;
    if (ak == w::ArgKind::Local) {
        a.kind = "local";
    } else if (ak == w::ArgKind::Svm) {
        a.kind = "svm";
    } else {
        a.kind = "value";
        if (value.size() == sizeof(u64)) {
            u64 hv = 0;
            std::memcpy(&hv, value.data(), 8);
            if (const std::int64_t mem = live.find(w::ObjectType::Mem, hv)) {
                a.kind = "mem";
                a.mem = mem;
            } else if (live.find(w::ObjectType::Sampler, hv)) {
                a.kind = "sampler";
                a.mem = live.find(w::ObjectType::Sampler, hv);
            }
        }
    }
    args[index] = std::move(a);
}

// An enqueued command: a launch writes its kernel's current arguments; the command goes to the log.
void CaptureWriter::Impl::onCommand(w::Decoder &in)
{
    CommandLog::Command c;
    c.c = in.command();
    c.kernel = live.find(w::ObjectType::Kernel, c.c.kernel);
    c.mem = live.find(w::ObjectType::Mem, c.c.mem);
    c.mem2 = live.find(w::ObjectType::Mem, c.c.mem2);
    c.queue = live.find(w::ObjectType::Queue, c.c.queue);
    c.launch = c.c.launch >= 0 ? launchBase + c.c.launch : -1;
    c.arrived = std::chrono::steady_clock::now();
    if (c.launch >= 0)
        nextLaunch = std::max(nextLaunch, c.launch + 1);
    if (c.launch >= 0 && c.kernel) {
        const auto args = kernelArgs.find(c.kernel);
        if (args != kernelArgs.end()) {
            for (std::size_t i = 0; i < args->second.size(); ++i) {
                const CurrentArg &a = args->second[i];
                Stmt &s = sql.insArg;
                s.bind(1, c.launch).bind(2, std::uint64_t(i));
                s.bind(3, a.kind.empty() ? std::string_view("unset") : std::string_view(a.kind));
                s.bind(4, a.size).bindBlob(5, a.value);
                a.mem ? s.bind(6, a.mem) : s.bindNull(6);
                s.run();
            }
        }
    }
    commands.add(c, process);
}

void CaptureWriter::Impl::onCommandTimes(w::Decoder &in)
{
    const u64 id = in.get<u64>();
    const auto status = in.get<std::int32_t>();
    u64 t[4];
    for (u64 &v : t)
        v = in.get<u64>();
    commands.times(id, status, t, process);
}

void CaptureWriter::Impl::onContents(w::Decoder &in)
{
    const std::int64_t launch = launchBase + in.get<std::int64_t>();
    const auto arg = in.get<std::uint32_t>();
    const auto phase = in.get<std::uint8_t>();
    const std::int64_t mem = live.find(w::ObjectType::Mem, in.get<u64>());
    const auto state = static_cast<w::ContentState>(in.get<std::uint8_t>());
    const std::string_view data = in.blob();
    sql.insContents.bind(1, launch).bind(2, arg).bind(3, phase ? "after" : "before").bind(4, mem);
    sql.insContents.bind(5, contentStateName(state)).bindBlob(6, data).run();
}

bool CaptureWriter::Impl::contentsPart(w::Decoder &in)
{
    return contents.add(in, [this](w::Decoder &whole) { onContents(whole); });
}

void CaptureWriter::Impl::onDrops(w::Decoder &in)
{
    const u64 recs = in.get<u64>(), bytes = in.get<u64>(), ts = in.get<u64>();
    sql.insDrops.bind(1, process).bind(2, recs).bind(3, bytes).bind(4, ts).run();
}

void CaptureWriter::Impl::onEnd(w::Decoder &in)
{
    sql.endProcess.bind(1, in.get<u64>()).bind(2, process).run();
}

} // namespace clscope
