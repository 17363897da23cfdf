// Workloads that exercise a memory pool so that its charts have something to show: a steady churn over a
// size mix, a growing working set, a fragmentation storm, and the replay of a trace file (the format of
// `clscope-cli pool replay`). Plain step machines: the pool worker calls step() at the requested rate.
#pragma once

#include "clscope/pool.h"

#include <QString>

#include <memory>

namespace clscope::ui {

enum class WorkloadKind : int { Churn, GrowingSet, FragmentationStorm, Replay };

struct WorkloadSpec
{
    WorkloadKind kind = WorkloadKind::Churn;
    double opsPerSecond = 10000; // 0: as fast as possible
    QString tracePath;           // Replay
    quint64 seed = 1;            // the synthetic kinds are reproducible
};

QString workloadName(WorkloadKind kind);

class PoolWorkload
{
public:
    virtual ~PoolWorkload() = default;
    // One operation: an allocate, a free, or (storm, trace) a free_held / stop_holding. Throws what the
    // pool throws, or std::runtime_error naming the trace line.
    virtual void step(MemoryPool &pool) = 0;
    // A replay ends with its trace; the synthetic kinds run until stopped.
    virtual bool isFinished() const { return false; }
    // Gives back the blocks it holds. Replay keeps them active, as the trace left them (so the counters
    // match `clscope-cli pool replay`); they go when the pool goes.
    virtual void releaseAll() {}
};

// nullptr with *error set when a replay's trace cannot be read or parsed ("trace.txt: line 3: ...").
std::unique_ptr<PoolWorkload> makeWorkload(const WorkloadSpec &spec, QString *error);

} // namespace clscope::ui
