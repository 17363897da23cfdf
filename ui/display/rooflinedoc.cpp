// roofline --json and run --lines --json as the GUI shows them, every field checked.
#include "rooflinedoc.h"

#include <QJsonArray>

#include <algorithm>
#include <cmath>
#include <limits>
#include <stdexcept>

namespace clscope::ui {

namespace {

[[noreturn]] void fail(const QString &what)
{
    throw std::runtime_error(what.toStdString());
}

QJsonValue field(const QJsonObject &o, const char *key, const QString &where)
{
    const QJsonValue v = o.value(QLatin1String(key));
    if (v.isUndefined())
        fail(QStringLiteral("%1 has no \"%2\"").arg(where, QLatin1String(key)));
    return v;
}

double number(const QJsonObject &o, const char *key, const QString &where)
{
    const QJsonValue v = field(o, key, where);
    if (!v.isDouble() || !std::isfinite(v.toDouble()) || v.toDouble() < 0)
        fail(QStringLiteral("%1's \"%2\" is not a number of 0 or more").arg(where, QLatin1String(key)));
    return v.toDouble();
}

std::uint64_t count(const QJsonObject &o, const char *key, const QString &where)
{
    const double d = number(o, key, where);
    // JSON numbers above 2^53 lose digits; counts that large are kept as large as a double says.
    return d >= 1.8e19 ? std::numeric_limits<std::uint64_t>::max() : std::uint64_t(d);
}

QString text(const QJsonObject &o, const char *key, const QString &where)
{
    const QJsonValue v = field(o, key, where);
    if (!v.isString())
        fail(QStringLiteral("%1's \"%2\" is not text").arg(where, QLatin1String(key)));
    return v.toString();
}

QJsonObject object(const QJsonObject &o, const char *key, const QString &where)
{
    const QJsonValue v = field(o, key, where);
    if (!v.isObject())
        fail(QStringLiteral("%1's \"%2\" is not an object").arg(where, QLatin1String(key)));
    return v.toObject();
}

QJsonArray array(const QJsonObject &o, const char *key, const QString &where)
{
    const QJsonValue v = field(o, key, where);
    if (!v.isArray())
        fail(QStringLiteral("%1's \"%2\" is not a list").arg(where, QLatin1String(key)));
    return v.toArray();
}

// Bytes of the two spaces a roofline counts (and of local memory apart).
std::uint64_t spaceBytes(const QJsonObject &counts, const char *space, const QString &where)
{
    std::uint64_t sum = 0;
    for (const char *direction : {"load", "store"}) {
        const std::uint64_t b = count(object(counts, direction, where), space, where);
        sum = b > std::numeric_limits<std::uint64_t>::max() - sum ? std::numeric_limits<std::uint64_t>::max()
                                                                  : sum + b;
    }
    return sum;
}

LineHeat lineFromJson(const QJsonObject &l, const QString &where)
{
    LineHeat h;
    h.file = text(l, "file", where);
    const double line = number(l, "line", where);
    if (line < 1 || line > 10'000'000 || line != std::floor(line))
        fail(QStringLiteral("%1's \"line\" is not a line number").arg(where));
    h.line = int(line);
    h.source = text(l, "source_line", where);
    h.executed = count(l, "executed", where);
    h.flops = count(l, "flops32", where) + count(l, "flops64", where);
    h.globalBytes = spaceBytes(l, "global", where) + spaceBytes(l, "constant", where);
    h.localBytes = spaceBytes(l, "local", where);
    h.atomics = count(l, "atomics", where);
    h.barriers = count(l, "barriers", where);
    h.divergentGroups = count(l, "divergent_groups", where);
    return h;
}

bool costlier(const LineHeat &a, const LineHeat &b)
{
    if (a.executed != b.executed)
        return a.executed > b.executed;
    if (a.globalBytes + a.localBytes != b.globalBytes + b.localBytes)
        return a.globalBytes + a.localBytes > b.globalBytes + b.localBytes;
    return a.file != b.file ? a.file < b.file : a.line < b.line;
}

RooflinePeaks peaksFromJson(const QJsonObject &p, const QString &where)
{
    RooflinePeaks peaks;
    peaks.device = text(p, "device", where);
    peaks.bandwidthGBps = number(p, "bandwidth_gbps", where);
    peaks.singleGflops = number(p, "sp_gflops", where);
    peaks.doubleGflops = number(p, "dp_gflops", where);
    if (p.contains(QLatin1String("from")))
        peaks.from = text(p, "from", where);
    if (!(peaks.bandwidthGBps > 0) || !(peaks.singleGflops > 0))
        fail(QStringLiteral("%1 has no bandwidth or compute roof").arg(where));
    return peaks;
}

} // namespace

std::vector<LineHeat> KernelLines::ofMain() const
{
    std::vector<LineHeat> out;
    std::copy_if(lines.begin(), lines.end(), std::back_inserter(out),
                 [&](const LineHeat &l) { return l.file == mainFile; });
    return out;
}

std::vector<LineHeat> KernelLines::byCost() const
{
    std::vector<LineHeat> out = lines;
    std::stable_sort(out.begin(), out.end(), costlier);
    return out;
}

KernelLines kernelLinesFromJson(const QJsonObject &profile)
{
    KernelLines k;
    k.kernel = text(profile, "kernel", QStringLiteral("the line profile"));
    const QString where = QStringLiteral("the line profile of %1").arg(k.kernel);
    k.executed = count(object(profile, "total", where), "executed", where);
    k.workItems = count(profile, "work_items", where);
    if (profile.contains(QLatin1String("sampling")))
        k.sampling = text(profile, "sampling", where);
    const QJsonArray lines = array(profile, "lines", where);
    if (lines.size() > 1'000'000)
        fail(QStringLiteral("%1 has more than 1,000,000 lines").arg(where));
    std::uint64_t hottest = 0;
    for (const QJsonValue &v : lines) {
        if (!v.isObject())
            fail(QStringLiteral("%1 has a line that is not an object").arg(where));
        LineHeat h = lineFromJson(v.toObject(), where);
        h.scaled = !k.sampling.isEmpty();
        hottest = std::max(hottest, h.executed);
        if (k.mainFile.isNull())
            k.mainFile = h.file; // the main source's lines come first
        k.lines.push_back(std::move(h));
    }
    for (LineHeat &h : k.lines) {
        h.share = k.executed ? double(h.executed) / double(k.executed) : 0.0;
        h.level = h.executed == 0 || hottest == 0
                      ? 0
                      : std::clamp(int(std::ceil(kHeatLevels * double(h.executed) / double(hottest))), 1,
                                   kHeatLevels);
    }
    return k;
}

QString heatText(const LineHeat &line)
{
    if (line.executed == 0)
        return QString();
    const double percent = 100.0 * line.share;
    return percent < 0.05 ? QStringLiteral("<0.1%") : QStringLiteral("%1%").arg(percent, 0, 'f', 1);
}

QString heatDetails(const LineHeat &line)
{
    QStringList parts{QStringLiteral("line %1: %2 instructions (%3 of the kernel's)")
                          .arg(line.line)
                          .arg(line.executed)
                          .arg(QStringLiteral("%1 %").arg(100.0 * line.share, 0, 'f', 1))};
    if (line.flops)
        parts << QStringLiteral("%1 flops").arg(line.flops);
    if (line.globalBytes)
        parts << QStringLiteral("%1 B global").arg(line.globalBytes);
    if (line.localBytes)
        parts << QStringLiteral("%1 B local").arg(line.localBytes);
    if (line.atomics)
        parts << QStringLiteral("%1 atomics").arg(line.atomics);
    if (line.barriers)
        parts << QStringLiteral("%1 barriers").arg(line.barriers);
    if (line.divergentGroups)
        parts << QStringLiteral("%1 divergent work-groups").arg(line.divergentGroups);
    if (line.scaled)
        parts << QStringLiteral("scaled from a sample of the work-groups");
    return parts.join(QStringLiteral(", "));
}

const RooflinePeaks *RooflineDocument::peaksOf(const QString &device) const
{
    for (const RooflinePeaks &p : peaks) {
        if (p.device == device)
            return &p;
    }
    return peaks.size() == 1 ? &peaks.front() : nullptr;
}

RooflineDocument rooflineFromJson(const QJsonObject &doc)
{
    RooflineDocument out;
    const QString top = QStringLiteral("the roofline document");
    const QJsonObject peaks = object(doc, "peaks", top);
    const bool capture = doc.contains(QLatin1String("capture"));
    if (capture) {
        out.title = text(doc, "program", top);
        for (auto it = peaks.begin(); it != peaks.end(); ++it) {
            if (!it.value().isObject())
                fail(QStringLiteral("the peaks of %1 are not an object").arg(it.key()));
            out.peaks.push_back(
                peaksFromJson(it.value().toObject(), QStringLiteral("the peaks of %1").arg(it.key())));
        }
    } else {
        out.peaks.push_back(peaksFromJson(peaks, QStringLiteral("the peaks")));
        out.title = text(doc, "device", top);
    }
    const QJsonArray kernels = array(doc, "kernels", top);
    if (kernels.size() > 100'000)
        fail(QStringLiteral("the roofline document has more than 100,000 kernels"));
    for (const QJsonValue &v : kernels) {
        if (!v.isObject())
            fail(QStringLiteral("the roofline document has a kernel that is not an object"));
        const QJsonObject o = v.toObject();
        RooflineKernel k;
        k.name = text(o, "kernel", top);
        const QString where = QStringLiteral("the kernel %1").arg(k.name);
        k.kernel = o.contains(QLatin1String("label")) ? text(o, "label", where) : k.name;
        if (capture) {
            k.program = qint64(number(o, "program", where));
            k.device = text(o, "device", where);
            k.launches = count(o, "launches", where);
            k.totalNs = count(o, "total_ns", where);
            k.share = number(o, "share_of_time", where);
            if (o.value(QLatin1String("counted_launch")).isDouble())
                k.countedLaunch = qint64(o.value(QLatin1String("counted_launch")).toDouble());
        } else {
            k.device = out.peaks.front().device;
            k.launches = count(doc, "launches_timed", top);
            k.share = 1.0; // the launch is the document's one kernel
        }
        if (o.contains(QLatin1String("error"))) {
            k.error = text(o, "error", where);
            out.kernels.push_back(std::move(k));
            continue;
        }
        k.counted = true;
        k.seconds = number(o, "seconds", where);
        if (!capture)
            k.totalNs = std::uint64_t(k.seconds * 1e9 * double(k.launches));
        k.bytes = count(o, "bytes", where);
        k.flops = count(o, "flops", where);
        k.gbps = number(o, "gbps", where);
        k.gflops = number(o, "gflops", where);
        k.intensity = number(o, "intensity", where);
        k.memoryBound = text(o, "limit", where) == QLatin1String("memory");
        k.doublePrecision = text(o, "precision", where) == QLatin1String("double");
        k.percentOfRoof = number(o, "percent_of_roof", where);
        if (o.contains(QLatin1String("line_profile"))) {
            k.lines = kernelLinesFromJson(object(o, "line_profile", where));
            k.hasLines = true;
        }
        out.kernels.push_back(std::move(k));
    }
    return out;
}

QString roofText(const RooflineKernel &k, const RooflinePeaks *peaks)
{
    if (!k.counted)
        return k.error;
    if (!peaks)
        return QStringLiteral("%1 %").arg(k.percentOfRoof, 0, 'f', 1);
    if (k.memoryBound)
        return QStringLiteral("memory bound: %1 % of the %2 GB/s bandwidth roof")
            .arg(k.percentOfRoof, 0, 'f', 1)
            .arg(peaks->bandwidthGBps, 0, 'f', 1);
    return QStringLiteral("compute bound: %1 % of the %2 GFLOP/s %3 roof")
        .arg(k.percentOfRoof, 0, 'f', 1)
        .arg(k.doublePrecision ? peaks->doubleGflops : peaks->singleGflops, 0, 'f', 1)
        .arg(k.doublePrecision ? QStringLiteral("double") : QStringLiteral("single"));
}

} // namespace clscope::ui
