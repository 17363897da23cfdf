// The pool workloads (see poolworkload.h). Sizes and probabilities are picked to give charts with a
// recognizable shape on a CPU device without using more than a few hundred MiB.
#include "poolworkload.h"

#include "files/readfile.h"

#include "clscope/fileio.h"

#include <QCoreApplication>
#include <QFileInfo>

#include <algorithm>
#include <cmath>
#include <optional>
#include <random>
#include <stdexcept>
#include <string>
#include <vector>

namespace clscope::ui {

QString workloadName(WorkloadKind kind)
{
    switch (kind) {
    case WorkloadKind::Churn:
        return QCoreApplication::translate("PoolWorkload", "Steady churn");
    case WorkloadKind::GrowingSet:
        return QCoreApplication::translate("PoolWorkload", "Growing working set");
    case WorkloadKind::FragmentationStorm:
        return QCoreApplication::translate("PoolWorkload", "Fragmentation storm");
    case WorkloadKind::Replay:
        return QCoreApplication::translate("PoolWorkload", "Replay trace");
    }
    return {};
}

namespace {
constexpr std::size_t KiB = 1024;
constexpr std::size_t MiB = 1024 * KiB;

// Live blocks of a synthetic workload; freeing one returns it to the pool it came from (PooledBuffer
// keeps that pool's state alive, so this is safe after the pool was replaced).
class SyntheticWorkload : public PoolWorkload
{
public:
    explicit SyntheticWorkload(quint64 seed)
        : m_rng(seed)
    {}
    void releaseAll() override
    {
        m_live.clear();
        m_liveBytes = 0;
    }

protected:
    double uniform() { return std::uniform_real_distribution<double>(0, 1)(m_rng); }
    // Sizes spread evenly over octaves, as real programs' buffers are.
    std::size_t logUniform(std::size_t lo, std::size_t hi)
    {
        return std::size_t(
            std::exp(std::log(double(lo)) + uniform() * (std::log(double(hi)) - std::log(double(lo)))));
    }
    void allocate(MemoryPool &pool, std::size_t size)
    {
        m_live.push_back(pool.allocate(size));
        m_liveBytes += size;
    }
    void freeAt(std::size_t index)
    {
        m_liveBytes -= m_live[index].size();
        std::swap(m_live[index], m_live.back());
        m_live.pop_back();
    }
    void freeRandom() { freeAt(std::uniform_int_distribution<std::size_t>(0, m_live.size() - 1)(m_rng)); }

    std::mt19937_64 m_rng;
    std::vector<PooledBuffer> m_live;
    std::size_t m_liveBytes = 0;
};

// Allocations from a fixed size mix around a steady working set: after warm-up nearly every request
// is a hit, which is the pool's reason to exist.
class ChurnWorkload : public SyntheticWorkload
{
public:
    using SyntheticWorkload::SyntheticWorkload;
    void step(MemoryPool &pool) override
    {
        const bool grow = m_live.size() < kTarget ? uniform() < 0.6 : uniform() < 0.4;
        if (grow || m_live.empty()) {
            allocate(pool, pickSize());
        } else {
            freeRandom();
        }
    }

private:
    static constexpr std::size_t kTarget = 64;
    std::size_t pickSize()
    {
        struct Share
        {
            std::size_t size;
            double weight;
        };
        static constexpr Share kMix[] = {{64, 0.20},       {1000, 0.25},      {4 * KiB, 0.20},
                                         {64 * KiB, 0.15}, {256 * KiB, 0.10}, {1 * MiB, 0.10}};
        double u = uniform();
        for (const Share &s : kMix) {
            if (u < s.weight)
                return jitter(s.size);
            u -= s.weight;
        }
        return jitter(kMix[0].size);
    }
    // A few percent either way: requests of "the same" buffer differ a little, landing in one or two bins.
    std::size_t jitter(std::size_t size)
    {
        return std::max<std::size_t>(1, std::size_t(size * (0.97 + 0.06 * uniform())));
    }
};

// Grows a working set of mixed sizes to a ceiling, then drains it, and again: a sawtooth of active
// bytes over a plateau of managed bytes once the bins are warm.
class GrowingWorkload : public SyntheticWorkload
{
public:
    using SyntheticWorkload::SyntheticWorkload;
    void step(MemoryPool &pool) override
    {
        if (m_draining) {
            if (m_live.empty()) {
                m_draining = false;
            } else {
                freeRandom();
                return;
            }
        }
        if (m_liveBytes >= kCeiling) {
            m_draining = true;
            freeRandom();
        } else if (uniform() < 0.75 || m_live.empty()) {
            allocate(pool, logUniform(4 * KiB, 1 * MiB));
        } else {
            freeRandom();
        }
    }

private:
    static constexpr std::size_t kCeiling = 96 * MiB;
    bool m_draining = false;
};

// Fills the pool with blocks of scattered sizes, punches holes in every other one, then asks for sizes
// of other bins: held blocks pile up in bins nobody asks for, managed bytes run far above active bytes.
// A program that lives like this trims its pool now and then; the storm does so above a ceiling.
class StormWorkload : public SyntheticWorkload
{
public:
    using SyntheticWorkload::SyntheticWorkload;
    void step(MemoryPool &pool) override
    {
        switch (m_phase) {
        case Phase::Fill:
            allocate(pool, logUniform(16, 1 * MiB));
            if (++m_count == kFill)
                next(Phase::Punch);
            break;
        case Phase::Punch:
            // Half of the fill; sizes are random, so which half does not matter.
            freeRandom();
            if (++m_count == kFill / 2)
                next(Phase::Mismatch);
            break;
        case Phase::Mismatch:
            allocate(pool, logUniform(16, 1 * MiB));
            if (++m_count == kFill / 2)
                next(Phase::Drain);
            break;
        case Phase::Drain:
            freeRandom();
            if (m_live.empty())
                next(Phase::Trim);
            break;
        case Phase::Trim:
            if (pool.counters().managedBytes > kCeiling)
                pool.freeHeld();
            next(Phase::Fill);
            break;
        }
    }

private:
    enum class Phase { Fill, Punch, Mismatch, Drain, Trim };
    static constexpr std::size_t kFill = 192;
    static constexpr std::uint64_t kCeiling = 192 * MiB;
    void next(Phase phase)
    {
        m_phase = phase;
        m_count = 0;
    }
    Phase m_phase = Phase::Fill;
    std::size_t m_count = 0;
};

// The trace through core's replayer (the one of clscope-cli pool replay), bound to the pool of its first
// step: the worker ends the run whenever its pool is replaced.
class ReplayWorkload : public PoolWorkload
{
public:
    explicit ReplayWorkload(std::vector<PoolOp> ops)
        : m_ops(std::move(ops))
    {}
    bool isFinished() const override { return m_replayer ? m_replayer->finished() : m_ops.empty(); }
    void step(MemoryPool &pool) override
    {
        if (!m_replayer)
            m_replayer.emplace(pool, std::move(m_ops));
        else if (&m_replayer->pool() != &pool)
            throw std::logic_error("the trace's pool was replaced during its replay");
        m_replayer->step();
    }

private:
    std::vector<PoolOp> m_ops; // until the first step hands them to the replayer
    std::optional<PoolTraceReplayer> m_replayer;
};

std::unique_ptr<PoolWorkload> makeReplay(const QString &path, QString *error)
{
    const QString name = QFileInfo(path).fileName();
    if (path.isEmpty()) {
        *error = QCoreApplication::translate("PoolWorkload", "No trace file chosen");
        return nullptr;
    }
    // The replay holds every op: a trace is read whole, so only a regular file within a document's limit
    // (/dev/zero, a FIFO or a folder is refused at once, without blocking).
    const FileRead read = readCheckedFile(path, qint64(kMaxDocumentBytes));
    if (!read.ok()) {
        *error =
            QCoreApplication::translate("PoolWorkload", "Cannot read trace %1: %2").arg(path, read.error);
        return nullptr;
    }
    const QByteArray &text = read.bytes;
    try {
        auto ops = parsePoolTrace(std::string_view(text.constData(), std::size_t(text.size())));
        if (ops.empty()) {
            *error = QCoreApplication::translate("PoolWorkload", "%1: the trace has no operations").arg(name);
            return nullptr;
        }
        return std::make_unique<ReplayWorkload>(std::move(ops));
    } catch (const PoolTraceError &e) {
        *error = name + QStringLiteral(": ") + QString::fromStdString(e.what());
        return nullptr;
    }
}
} // namespace

std::unique_ptr<PoolWorkload> makeWorkload(const WorkloadSpec &spec, QString *error)
{
    switch (spec.kind) {
    case WorkloadKind::Churn:
        return std::make_unique<ChurnWorkload>(spec.seed);
    case WorkloadKind::GrowingSet:
        return std::make_unique<GrowingWorkload>(spec.seed);
    case WorkloadKind::FragmentationStorm:
        return std::make_unique<StormWorkload>(spec.seed);
    case WorkloadKind::Replay:
        return makeReplay(spec.tracePath, error);
    }
    *error = QCoreApplication::translate("PoolWorkload", "Unknown workload");
    return nullptr;
}

} // namespace clscope::ui
