// The layer's side of the capture stream: records are appended under a short lock to one buffer that a
// writer thread swaps out and sends to the recorder's socket, so no thread of the program ever waits on
// I/O. The writer also collects the profiling timestamps of finished commands (polling the events the
// layer holds, then releasing them). When the buffer is full or the recorder is gone, records are
// dropped and counted, and the count itself is sent as a Drops record.
#pragma once

#include "protocol.h"

#include <CL/cl_icd.h>

#include <cstddef>
#include <cstdint>
#include <optional>

namespace clscope::layer {

namespace wire = clscope::capture::wire;

// The next layer down (or the loader's dispatch to the driver). Set once in clInitLayer.
extern const cl_icd_dispatch *g_next;

std::uint64_t nowNs(); // CLOCK_MONOTONIC, the clock of std::chrono::steady_clock
std::uint32_t threadId();

// True while a recorder listens: the layer then records; otherwise every hook only forwards.
bool recording();

// Starts the stream from the environment (kEnvFd). Called once from clInitLayer; never throws.
void startStream();

// Reserves a record of `payload` bytes, lets `encode` fill it, and commits it. Never throws; a record that
// does not fit is dropped and counted.
class RecordSink
{
public:
    virtual void encode(wire::Encoder &e) const = 0;

protected:
    ~RecordSink() = default;
};
void emitRecord(wire::Kind kind, std::size_t payload, const RecordSink &sink) noexcept;

// Contents of a launch (Contents, ContentsPart records): asked for by the user and read while the launch
// waits for the device, they wait for room in the buffer instead of being dropped (as long as the writer
// makes progress: past 10 s without any they are dropped and counted). Never throws.
void emitContents(wire::Kind kind, std::size_t payload, const RecordSink &sink) noexcept;

// A RecordSink that calls `encode`.
template<typename F> class FnSink final : public RecordSink
{
public:
    explicit FnSink(F &encode)
        : m_encode(encode)
    {}
    void encode(wire::Encoder &e) const override { m_encode(e); }

private:
    F &m_encode;
};

template<typename F> void emit(wire::Kind kind, std::size_t payload, F &&encode) noexcept
{
    emitRecord(kind, payload, FnSink<F>(encode));
}

template<typename F> void emitContentsRecord(wire::Kind kind, std::size_t payload, F &&encode) noexcept
{
    emitContents(kind, payload, FnSink<F>(encode));
}

// Hands an event (that the layer owns one reference of) to the writer, which sends its timestamps as a
// CommandTimes record for `command` once it has completed, and releases it. Events of one queue are
// polled in order. `enqueuedNs`: when the enqueue call returned (the writer reads events once no enqueue
// came for a while).
void watchEvent(cl_event event, std::uint64_t command, std::uint64_t queue,
                std::uint64_t enqueuedNs) noexcept;

// Sends the timestamps of the commands that have finished now, from the calling thread, and wakes the
// writer to send them: called when a call that waits for commands returns (clFinish, clWaitForEvents), so
// that a program that dies right after waiting keeps the device times of what it waited for. Never throws.
// finishedQueue: the queue a clFinish waited for, whose events are all complete (their status may lag).
void readFinishedEvents(std::optional<std::uint64_t> finishedQueue = std::nullopt) noexcept;

// Puts the layer's crash path back on top of a fatal-signal handler installed after it (which it then
// calls): the records buffered when the program dies are sent whichever handler came last. Cheap (one
// sigaction read per signal); called by the writer on its period and after calls that may load a
// compiler that installs handlers (builds, kernel creation).
void guardCrashHandler() noexcept;

} // namespace clscope::layer
