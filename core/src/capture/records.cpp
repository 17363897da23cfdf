// CaptureWriter::Impl::record: one case per kind of record of the layer's stream (protocol.h), each
// turned into rows of the capture file (schema.h). Handles become row ids through the live-object maps.
#include "recorder_impl.h"

namespace clscope {

using namespace capture;

namespace {

std::string memKindName(w::MemKind k)
{
    switch (k) {
    case w::MemKind::Buffer:
        return "buffer";
    case w::MemKind::SubBuffer:
        return "sub-buffer";
    case w::MemKind::Image:
        return "image";
    case w::MemKind::Svm:
        return "svm";
    case w::MemKind::Pipe:
        return "pipe";
    case w::MemKind::Interop:
        return "interop";
    }
    return "unknown";
}

std::string programKindName(w::ProgramKind k)
{
    switch (k) {
    case w::ProgramKind::Source:
        return "source";
    case w::ProgramKind::Binary:
        return "binary";
    case w::ProgramKind::IL:
        return "il";
    case w::ProgramKind::BuiltIn:
        return "built-in";
    case w::ProgramKind::Linked:
        return "linked";
    }
    return "unknown";
}

std::string buildOpName(w::BuildOp op)
{
    switch (op) {
    case w::BuildOp::Build:
        return "build";
    case w::BuildOp::Compile:
        return "compile";
    case w::BuildOp::Link:
        return "link";
    }
    return "unknown";
}

const char *contentStateName(w::ContentState s)
{
    switch (s) {
    case w::ContentState::Captured:
        return "captured";
    case w::ContentState::OverBudget:
        return "over-budget";
    case w::ContentState::NotABuffer:
        return "not-a-buffer";
    case w::ContentState::ReadFailed:
        return "read-failed";
    }
    return "unknown";
}

} // namespace

namespace capture {
std::string commandTypeName(std::uint32_t type)
{
    switch (type) {
    case CL_COMMAND_NDRANGE_KERNEL:
        return "ndrange-kernel";
    case CL_COMMAND_TASK:
        return "task";
    case CL_COMMAND_NATIVE_KERNEL:
        return "native-kernel";
    case CL_COMMAND_READ_BUFFER:
        return "read-buffer";
    case CL_COMMAND_WRITE_BUFFER:
        return "write-buffer";
    case CL_COMMAND_COPY_BUFFER:
        return "copy-buffer";
    case CL_COMMAND_READ_IMAGE:
        return "read-image";
    case CL_COMMAND_WRITE_IMAGE:
        return "write-image";
    case CL_COMMAND_COPY_IMAGE:
        return "copy-image";
    case CL_COMMAND_COPY_IMAGE_TO_BUFFER:
        return "copy-image-to-buffer";
    case CL_COMMAND_COPY_BUFFER_TO_IMAGE:
        return "copy-buffer-to-image";
    case CL_COMMAND_MAP_BUFFER:
        return "map-buffer";
    case CL_COMMAND_MAP_IMAGE:
        return "map-image";
    case CL_COMMAND_UNMAP_MEM_OBJECT:
        return "unmap";
    case CL_COMMAND_MARKER:
        return "marker";
    case CL_COMMAND_READ_BUFFER_RECT:
        return "read-buffer-rect";
    case CL_COMMAND_WRITE_BUFFER_RECT:
        return "write-buffer-rect";
    case CL_COMMAND_COPY_BUFFER_RECT:
        return "copy-buffer-rect";
    case CL_COMMAND_BARRIER:
        return "barrier";
    case CL_COMMAND_MIGRATE_MEM_OBJECTS:
        return "migrate";
    case CL_COMMAND_FILL_BUFFER:
        return "fill-buffer";
    case CL_COMMAND_FILL_IMAGE:
        return "fill-image";
    case CL_COMMAND_SVM_FREE:
        return "svm-free";
    case CL_COMMAND_SVM_MEMCPY:
        return "svm-memcpy";
    case CL_COMMAND_SVM_MEMFILL:
        return "svm-memfill";
    case CL_COMMAND_SVM_MAP:
        return "svm-map";
    case CL_COMMAND_SVM_UNMAP:
        return "svm-unmap";
    case CL_COMMAND_SVM_MIGRATE_MEM:
        return "svm-migrate";
    }
    return "command-" + std::to_string(type);
}
} // namespace capture

void CaptureWriter::Impl::record(w::Kind kind, w::Decoder &in)
{
    using u64 = std::uint64_t;
    switch (kind) {
    case w::Kind::Hello: {
        in.get<std::uint32_t>();
        const auto pid = in.get<std::uint32_t>();
        const auto ts = in.get<u64>();
        const std::string_view layer = in.blob();
        insProcess.bind(1, pid).bind(2, layer).bind(3, ts).run();
        process = lastId();
        flushWaiting(std::chrono::milliseconds(0));
        launchBase = nextLaunch;
        devices.clear();
        live.clear();
        commandRows.clear();
        kernelArgs.clear();
        break;
    }
    case w::Kind::ApiName: {
        const auto id = in.get<std::uint16_t>();
        insApiName.bind(1, id).bind(2, in.blob()).run();
        break;
    }
    case w::Kind::ApiCall: {
        const auto id = in.get<std::uint16_t>();
        const auto thread = in.get<std::uint32_t>();
        const auto start = in.get<u64>(), dur = in.get<u64>();
        const auto result = in.get<std::int32_t>();
        insApiCall.bind(1, process)
            .bind(2, id)
            .bind(3, thread)
            .bind(4, start)
            .bind(5, dur)
            .bind(6, result)
            .run();
        break;
    }
    case w::Kind::Device: {
        const u64 handle = in.get<u64>(), platform = in.get<u64>();
        const std::string pname(in.blob()), name(in.blob()), version(in.blob());
        const u64 type = in.get<u64>();
        const std::string vendor(in.blob());
        insDevice.bind(1, process).bind(2, handle).bind(3, platform).bind(4, pname).bind(5, name);
        insDevice.bind(6, version).bind(7, type).bind(8, vendor).run();
        devices[handle] = lastId();
        break;
    }
    case w::Kind::Context: {
        const u64 handle = in.get<u64>(), ts = in.get<u64>();
        std::string devs, props;
        for (std::uint32_t i = 0, n = in.get<std::uint32_t>(); i < n && in.ok(); ++i) {
            auto it = devices.find(in.get<u64>());
            devs += (devs.empty() ? "" : ",") + std::to_string(it == devices.end() ? 0 : it->second);
        }
        for (std::uint32_t i = 0, n = in.get<std::uint32_t>(); i < n && in.ok(); ++i)
            props += (props.empty() ? "" : ",") + std::to_string(in.get<u64>());
        insContext.bind(1, process).bind(2, handle).bind(3, devs).bind(4, props).bind(5, ts).run();
        add(w::ObjectType::Context, handle, lastId());
        break;
    }
    case w::Kind::Queue: {
        const u64 handle = in.get<u64>(), ctx = in.get<u64>(), dev = in.get<u64>(), props = in.get<u64>();
        const auto added = in.get<std::uint8_t>();
        const u64 ts = in.get<u64>();
        auto d = devices.find(dev);
        insQueue.bind(1, process).bind(2, handle).bind(3, find(w::ObjectType::Context, ctx));
        insQueue.bind(4, d == devices.end() ? 0 : d->second).bind(5, props).bind(6, added).bind(7, ts).run();
        add(w::ObjectType::Queue, handle, lastId());
        break;
    }
    case w::Kind::Mem: {
        const u64 handle = in.get<u64>(), ctx = in.get<u64>();
        const auto kind = static_cast<w::MemKind>(in.get<std::uint8_t>());
        const u64 flags = in.get<u64>(), size = in.get<u64>(), host = in.get<u64>(), parent = in.get<u64>();
        const u64 origin = in.get<u64>();
        const auto itype = in.get<std::uint32_t>();
        const u64 wd = in.get<u64>(), ht = in.get<u64>(), dp = in.get<u64>(), arr = in.get<u64>();
        const auto order = in.get<std::uint32_t>(), dtype = in.get<std::uint32_t>();
        const u64 ts = in.get<u64>();
        insMem.bind(1, process)
            .bind(2, handle)
            .bind(3, find(w::ObjectType::Context, ctx))
            .bind(4, memKindName(kind));
        insMem.bind(5, flags).bind(6, size).bind(7, host).bind(9, origin);
        if (const std::int64_t parentId = find(w::ObjectType::Mem, parent))
            insMem.bind(8, parentId);
        else
            insMem.bindNull(8);
        insMem.bind(10, itype).bind(11, wd).bind(12, ht).bind(13, dp).bind(14, arr).bind(15, order).bind(
            16, dtype);
        insMem.bind(17, ts).run();
        add(w::ObjectType::Mem, handle, lastId());
        break;
    }
    case w::Kind::Sampler: {
        const u64 handle = in.get<u64>(), ctx = in.get<u64>();
        const auto norm = in.get<std::uint32_t>(), am = in.get<std::uint32_t>(), fm = in.get<std::uint32_t>();
        insSampler.bind(1, process).bind(2, handle).bind(3, find(w::ObjectType::Context, ctx)).bind(4, norm);
        insSampler.bind(5, am).bind(6, fm).run();
        add(w::ObjectType::Sampler, handle, lastId());
        break;
    }
    case w::Kind::Retain:
    case w::Kind::Release: {
        const auto type = static_cast<w::ObjectType>(in.get<std::uint8_t>());
        const u64 handle = in.get<u64>(), ts = in.get<u64>();
        if (kind == w::Kind::Retain) {
            auto it = live.find({int(type), handle});
            if (it != live.end())
                ++it->second.refs;
        } else {
            release(type, handle, ts);
        }
        break;
    }
    case w::Kind::Program: {
        const u64 handle = in.get<u64>(), ctx = in.get<u64>();
        const auto pk = static_cast<w::ProgramKind>(in.get<std::uint8_t>());
        const u64 ts = in.get<u64>();
        insProgram.bind(1, process).bind(2, handle).bind(3, find(w::ObjectType::Context, ctx));
        insProgram.bind(4, programKindName(pk)).bind(5, ts).run();
        const std::int64_t id = lastId();
        add(w::ObjectType::Program, handle, id);
        for (std::uint32_t i = 0, n = in.get<std::uint32_t>(); i < n && in.ok(); ++i) {
            const u64 dev = in.get<u64>();
            const std::string_view data = in.blob();
            auto d = devices.find(dev);
            insSource.bind(1, id)
                .bind(2, i)
                .bind(3, d == devices.end() ? 0 : d->second)
                .bindBlob(4, data)
                .run();
        }
        break;
    }
    case w::Kind::Build: {
        const std::int64_t program = find(w::ObjectType::Program, in.get<u64>());
        const auto op = static_cast<w::BuildOp>(in.get<std::uint8_t>());
        const std::string options(in.blob());
        const auto result = in.get<std::int32_t>();
        const u64 start = in.get<u64>(), dur = in.get<u64>();
        std::string inputs;
        for (std::uint32_t i = 0, n = in.get<std::uint32_t>(); i < n && in.ok(); ++i)
            inputs +=
                (inputs.empty() ? "" : ",") + std::to_string(find(w::ObjectType::Program, in.get<u64>()));
        insBuild.bind(1, program).bind(2, buildOpName(op)).bind(3, options).bind(4, result).bind(5, start);
        insBuild.bind(6, dur).bind(7, inputs).run();
        const std::int64_t build = lastId();
        for (std::uint32_t i = 0, n = in.get<std::uint32_t>(); i < n && in.ok(); ++i) {
            auto d = devices.find(in.get<u64>());
            const auto status = in.get<std::int32_t>();
            insLog.bind(1, build)
                .bind(2, d == devices.end() ? 0 : d->second)
                .bind(3, status)
                .bind(4, in.blob());
            insLog.run();
        }
        break;
    }
    case w::Kind::Kernel: {
        const u64 handle = in.get<u64>(), program = in.get<u64>();
        const std::string name(in.blob());
        const auto nargs = in.get<std::uint32_t>();
        const u64 ts = in.get<u64>();
        insKernel.bind(1, process)
            .bind(2, handle)
            .bind(3, find(w::ObjectType::Program, program))
            .bind(4, name);
        insKernel.bind(5, nargs).bind(6, ts).run();
        const std::int64_t id = lastId();
        add(w::ObjectType::Kernel, handle, id);
        kernelArgs[id].resize(nargs);
        break;
    }
    case w::Kind::KernelArg: {
        const std::int64_t kernel = find(w::ObjectType::Kernel, in.get<u64>());
        const auto index = in.get<std::uint32_t>();
        const auto ak = static_cast<w::ArgKind>(in.get<std::uint8_t>());
        const u64 size = in.get<u64>();
        const std::string_view value = in.blob();
        if (!kernel)
            break;
        std::vector<CurrentArg> &args = kernelArgs[kernel];
        if (index == UINT32_MAX) { // a clone: the arguments of its source kernel
            u64 source = 0;
            if (value.size() == 8)
                std::memcpy(&source, value.data(), 8);
            auto src = kernelArgs.find(find(w::ObjectType::Kernel, source));
            if (src != kernelArgs.end())
                args = src->second;
            break;
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
                if (const std::int64_t mem = find(w::ObjectType::Mem, hv)) {
                    a.kind = "mem";
                    a.mem = mem;
                } else if (find(w::ObjectType::Sampler, hv)) {
                    a.kind = "sampler";
                    a.mem = find(w::ObjectType::Sampler, hv);
                }
            }
        }
        args[index] = std::move(a);
        break;
    }
    case w::Kind::Command: {
        WaitingCommand w;
        w.c = in.command();
        w.kernel = find(w::ObjectType::Kernel, w.c.kernel);
        w.mem = find(w::ObjectType::Mem, w.c.mem);
        w.mem2 = find(w::ObjectType::Mem, w.c.mem2);
        w.queue = find(w::ObjectType::Queue, w.c.queue);
        w.launch = w.c.launch >= 0 ? launchBase + w.c.launch : -1;
        w.arrived = std::chrono::steady_clock::now();
        if (w.launch >= 0)
            nextLaunch = std::max(nextLaunch, w.launch + 1);
        if (w.launch >= 0 && w.kernel) {
            const auto args = kernelArgs.find(w.kernel);
            if (args != kernelArgs.end()) {
                for (std::size_t i = 0; i < args->second.size(); ++i) {
                    const CurrentArg &a = args->second[i];
                    insArg.bind(1, w.launch).bind(2, std::uint64_t(i));
                    insArg.bind(3, a.kind.empty() ? std::string_view("unset") : std::string_view(a.kind));
                    insArg.bind(4, a.size).bindBlob(5, a.value);
                    a.mem ? insArg.bind(6, a.mem) : insArg.bindNull(6);
                    insArg.run();
                }
            }
        }
        if (w.c.result != CL_SUCCESS || w.c.ownEvent == std::uint8_t(w::OwnEvent::None)) {
            insertCommand(w, nullptr, 0); // no timestamps will come
        } else {
            // Written once its timestamps arrive (one insert instead of an insert and an update), or
            // without them when they are late.
            waitingOrder.push_back(w.c.id);
            waiting.emplace(w.c.id, w);
        }
        break;
    }
    case w::Kind::CommandTimes: {
        const u64 id = in.get<u64>();
        const auto status = in.get<std::int32_t>();
        u64 t[4];
        for (u64 &v : t)
            v = in.get<u64>();
        if (auto wt = waiting.find(id); wt != waiting.end()) {
            insertCommand(wt->second, t, status);
            waiting.erase(wt);
            break;
        }
        auto it = commandRows.find(id);
        if (it == commandRows.end())
            break;
        updTimes.bind(1, status)
            .bind(2, t[0])
            .bind(3, t[1])
            .bind(4, t[2])
            .bind(5, t[3])
            .bind(6, it->second)
            .run();
        commandRows.erase(it);
        if (auto rt = rowTotals.find(id); rt != rowTotals.end()) {
            addTime(rt->second, t);
            rowTotals.erase(rt);
        }
        break;
    }
    case w::Kind::Contents: {
        const std::int64_t launch = launchBase + in.get<std::int64_t>();
        const auto arg = in.get<std::uint32_t>();
        const auto phase = in.get<std::uint8_t>();
        const std::int64_t mem = find(w::ObjectType::Mem, in.get<u64>());
        const auto state = static_cast<w::ContentState>(in.get<std::uint8_t>());
        const std::string_view data = in.blob();
        insContents.bind(1, launch).bind(2, arg).bind(3, phase ? "after" : "before").bind(4, mem);
        insContents.bind(5, contentStateName(state)).bindBlob(6, data).run();
        break;
    }
    case w::Kind::Drops: {
        const u64 recs = in.get<u64>(), bytes = in.get<u64>(), ts = in.get<u64>();
        insDrops.bind(1, process).bind(2, recs).bind(3, bytes).bind(4, ts).run();
        break;
    }
    case w::Kind::End: {
        endProcess.bind(1, in.get<u64>()).bind(2, process).run();
        break;
    }
    }
}

} // namespace clscope
