// The pool monitor's memory of the counters over time: the pool's own series is a small ring, so the
// monitor copies it out at every refresh into this store, which keeps the whole run in bounded memory.
// Samples are merged into time buckets that keep their extremes (so peaks survive), and when the store is
// full the bucket width doubles and neighbours merge, like a zoom-out that never drops a spike.
#pragma once

#include <QList>

#include <array>
#include <cstdint>

class QIODevice;
class QString;

namespace clscope::ui {

enum class PoolChannel : int { HeldBytes, ActiveBytes, ManagedBytes, HeldBlocks, ActiveBlocks };
inline constexpr int kPoolChannelCount = 5;
using PoolValues = std::array<double, kPoolChannelCount>;

class PoolHistory
{
public:
    // maxBuckets bounds memory (about 100 bytes a bucket); buckets start bucketSeconds wide.
    explicit PoolHistory(qsizetype maxBuckets = 65536, double bucketSeconds = 0.001);

    void clear();

    // Adds a sample. Times are seconds; one earlier than the last is taken as the last (the pool's coarse
    // clock may lag the precise one by a few ms) so keys never decrease.
    void append(double seconds, const PoolValues &values);
    // Says that the values still hold at `seconds` without adding a bucket when nothing changed: the
    // chart's lines reach "now" while the pool is idle, at no memory cost.
    void extendTo(double seconds, const PoolValues &values);

    bool isEmpty() const { return m_counts.isEmpty(); }
    qsizetype bucketCount() const { return m_counts.size(); }
    quint64 sampleCount() const { return m_samples; }
    double bucketSeconds() const { return m_width; }
    double firstKey() const { return m_keys.isEmpty() ? 0 : m_keys.constFirst(); }
    double lastKey() const { return m_keys.isEmpty() ? 0 : m_keys.constLast(); }
    // The latest values added (the last sample, not an extreme).
    const PoolValues &lastValues() const { return m_last; }

    // Two points per bucket, sorted by key: (first sample time, earlier extreme) and (last sample time,
    // later extreme), per channel. Feed these to decimateMinMax().
    const QList<double> &keys() const { return m_keys; }
    const QList<double> &values(PoolChannel channel) const { return m_values[int(channel)]; }
    // The whole series as CSV, one row per bucket: times, the number of samples merged, and the minimum
    // and maximum of each channel. Returns false (with a message) when the device cannot be written.
    bool writeCsv(QIODevice &out, QString *error = nullptr) const;

    static const char *channelKey(PoolChannel channel); // "held_bytes", ...

private:
    qint64 cellOf(double seconds) const;
    void mergeInto(qsizetype bucket, double seconds, const PoolValues &values);
    void compact();

    qsizetype m_maxBuckets;
    double m_width;
    double m_initialWidth;
    QList<double> m_keys;
    std::array<QList<double>, kPoolChannelCount> m_values;
    QList<quint32> m_counts; // samples per bucket
    quint64 m_samples = 0;
    PoolValues m_last{};
};

} // namespace clscope::ui
