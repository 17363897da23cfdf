// Bucketed, peak-keeping store of the pool counters over time (see poolhistory.h).
#include "poolhistory.h"

#include <QIODevice>
#include <QString>

#include <algorithm>
#include <cmath>

namespace clscope::ui {

namespace {
// Of the points (a[0], a[1], ...) in time order, the lowest and the highest, in time order. Ties keep the
// earliest point, so a flat bucket stays flat.
template<std::size_t N> std::pair<double, double> extremesInOrder(const std::array<double, N> &a)
{
    std::size_t lo = 0;
    std::size_t hi = 0;
    for (std::size_t i = 1; i < N; ++i) {
        if (a[i] < a[lo])
            lo = i;
        if (a[i] > a[hi])
            hi = i;
    }
    return lo <= hi ? std::pair{a[lo], a[hi]} : std::pair{a[hi], a[lo]};
}
} // namespace

PoolHistory::PoolHistory(qsizetype maxBuckets, double bucketSeconds)
    : m_maxBuckets(std::max<qsizetype>(maxBuckets, 16))
    , m_width(bucketSeconds > 0 ? bucketSeconds : 0.001)
    , m_initialWidth(m_width)
{}

void PoolHistory::clear()
{
    m_keys.clear();
    for (auto &v : m_values)
        v.clear();
    m_counts.clear();
    m_samples = 0;
    m_last = {};
    m_width = m_initialWidth;
}

qint64 PoolHistory::cellOf(double seconds) const
{
    return qint64(std::floor(seconds / m_width));
}

void PoolHistory::append(double seconds, const PoolValues &values)
{
    if (!m_keys.isEmpty())
        seconds = std::max(seconds, m_keys.constLast());
    const qsizetype n = m_counts.size();
    if (n > 0 && cellOf(m_keys[2 * (n - 1)]) == cellOf(seconds)) {
        mergeInto(n - 1, seconds, values);
    } else {
        m_keys << seconds << seconds;
        for (int c = 0; c < kPoolChannelCount; ++c)
            m_values[c] << values[c] << values[c];
        m_counts << 1;
    }
    m_last = values;
    ++m_samples;
    if (m_counts.size() > m_maxBuckets)
        compact();
}

void PoolHistory::extendTo(double seconds, const PoolValues &values)
{
    const qsizetype n = m_counts.size();
    if (n == 0 || values != m_last) {
        append(seconds, values);
        return;
    }
    const qsizetype b = 2 * (n - 1);
    for (int c = 0; c < kPoolChannelCount; ++c) {
        if (m_values[c][b] != values[c] || m_values[c][b + 1] != values[c]) {
            // The bucket holds a change: stretching it would move its extreme. A new point says it.
            append(seconds, values);
            return;
        }
    }
    m_keys[b + 1] = std::max(m_keys[b + 1], seconds);
}

void PoolHistory::mergeInto(qsizetype bucket, double seconds, const PoolValues &values)
{
    const qsizetype b = 2 * bucket;
    m_keys[b + 1] = seconds;
    for (int c = 0; c < kPoolChannelCount; ++c) {
        QList<double> &v = m_values[c];
        const auto [first, second] = extremesInOrder(std::array<double, 3>{v[b], v[b + 1], values[c]});
        v[b] = first;
        v[b + 1] = second;
    }
    ++m_counts[bucket];
}

void PoolHistory::compact()
{
    // Double the width until a quarter of the room is free again, so compaction stays rare (amortized
    // constant per sample) however sparse the buckets are.
    while (m_counts.size() > m_maxBuckets * 3 / 4) {
        m_width *= 2;
        qsizetype out = 0;
        for (qsizetype in = 1; in < m_counts.size(); ++in) {
            const qsizetype o = 2 * out;
            const qsizetype i = 2 * in;
            if (cellOf(m_keys[o]) == cellOf(m_keys[i])) {
                m_keys[o + 1] = m_keys[i + 1];
                for (auto &v : m_values) {
                    const auto [first, second] =
                        extremesInOrder(std::array<double, 4>{v[o], v[o + 1], v[i], v[i + 1]});
                    v[o] = first;
                    v[o + 1] = second;
                }
                m_counts[out] += m_counts[in];
            } else {
                ++out;
                const qsizetype p = 2 * out;
                m_keys[p] = m_keys[i];
                m_keys[p + 1] = m_keys[i + 1];
                for (auto &v : m_values) {
                    v[p] = v[i];
                    v[p + 1] = v[i + 1];
                }
                m_counts[out] = m_counts[in];
            }
        }
        const qsizetype kept = m_counts.isEmpty() ? 0 : out + 1;
        m_counts.resize(kept);
        m_keys.resize(2 * kept);
        for (auto &v : m_values)
            v.resize(2 * kept);
    }
}

const char *PoolHistory::channelKey(PoolChannel channel)
{
    switch (channel) {
    case PoolChannel::HeldBytes:
        return "held_bytes";
    case PoolChannel::ActiveBytes:
        return "active_bytes";
    case PoolChannel::ManagedBytes:
        return "managed_bytes";
    case PoolChannel::HeldBlocks:
        return "held_blocks";
    case PoolChannel::ActiveBlocks:
        return "active_blocks";
    }
    return "";
}

bool PoolHistory::writeCsv(QIODevice &out, QString *error) const
{
    bool ok = true;
    QByteArray text = "time_first_s,time_last_s,samples";
    const auto flush = [&] {
        ok = ok && out.write(text) == text.size();
        text.clear();
    };
    for (int c = 0; c < kPoolChannelCount; ++c) {
        const QByteArray key = channelKey(PoolChannel(c));
        text += ',' + key + "_min," + key + "_max";
    }
    text += '\n';
    for (qsizetype b = 0; b < m_counts.size() && ok; ++b) {
        text += QByteArray::number(m_keys[2 * b], 'f', 6) + ',' +
                QByteArray::number(m_keys[2 * b + 1], 'f', 6) + ',' + QByteArray::number(m_counts[b]);
        for (const auto &v : m_values) {
            const double a = v[2 * b];
            const double z = v[2 * b + 1];
            // Counters are integers below 2^53, exact in a double: print them without a fraction.
            text += ',' + QByteArray::number(std::min(a, z), 'f', 0) + ',' +
                    QByteArray::number(std::max(a, z), 'f', 0);
        }
        text += '\n';
        if (text.size() > (1 << 20)) // write in pieces: a long run is tens of megabytes of text
            flush();
    }
    flush();
    if (!ok && error)
        *error = out.errorString();
    return ok;
}

} // namespace clscope::ui
