// Buffer comparison between runs: exact for integers and bytes, a tolerance for floating point.
#include "outputcompare.h"

#include <algorithm>
#include <cmath>
#include <limits>

namespace clscope::ui {

namespace {

// The spacing of representable values of the buffer's floating type at magnitude x.
double ulpAt(ScalarKind kind, double x)
{
    x = std::fabs(x);
    switch (kind) {
    case ScalarKind::Double:
        return std::nextafter(x, std::numeric_limits<double>::infinity()) - x;
    case ScalarKind::Half: {
        // 10 bits of mantissa: 2^13 float ulps, and half's smallest subnormal step below its normal range.
        const float f = float(x);
        const double step = double(std::nextafter(f, std::numeric_limits<float>::infinity()) - f) * 8192.0;
        return std::max(step, std::ldexp(1.0, -24));
    }
    default: {
        const float f = float(x);
        return double(std::nextafter(f, std::numeric_limits<float>::infinity()) - f);
    }
    }
}

QString elementsText(const BufferData &b)
{
    return QStringLiteral("%1 × %2").arg(b.count).arg(QString::fromStdString(b.type.name()));
}

} // namespace

BufferAgreement compareBuffers(const BufferData &reference, const BufferData &other, Tolerance tolerance)
{
    BufferAgreement out;
    out.name = QString::fromStdString(reference.name);
    if (reference.count != other.count || !(reference.type == other.type) ||
        reference.bytes.size() != other.bytes.size()) {
        out.agrees = false;
        out.problem = QStringLiteral("%1 vs %2").arg(elementsText(reference), elementsText(other));
        return out;
    }
    if (reference.layout || other.layout || reference.type.isRaw()) {
        // Structs and raw bytes: by their bytes (the runner zeroes buffers, so padding compares too).
        out.compared = reference.bytes.size();
        for (std::size_t i = 0; i < reference.bytes.size(); ++i) {
            if (reference.bytes[i] != other.bytes[i]) {
                if (!out.differing)
                    out.firstDiffering = i;
                ++out.differing;
            }
        }
        out.agrees = out.differing == 0;
        return out;
    }
    const bool floating = isFloating(reference.type.scalar);
    out.exact = !floating;
    const std::size_t n = std::min(reference.componentCount(), other.componentCount());
    out.compared = n;
    for (std::size_t i = 0; i < n; ++i) {
        const Number a = reference.number(i);
        const Number b = other.number(i);
        bool same = false;
        if (!floating) {
            same = a == b;
        } else {
            const double x = toDouble(a);
            const double y = toDouble(b);
            if (std::isnan(x) || std::isnan(y)) {
                same = std::isnan(x) && std::isnan(y);
            } else if (std::isinf(x) || std::isinf(y)) {
                same = x == y;
            } else {
                const double diff = std::fabs(x - y);
                const double mag = std::max(std::fabs(x), std::fabs(y));
                same = diff <= tolerance.relative * mag + tolerance.ulps * ulpAt(reference.type.scalar, mag);
                out.maxAbs = std::max(out.maxAbs, diff);
                if (mag > 0)
                    out.maxRel = std::max(out.maxRel, diff / mag);
            }
        }
        if (!same) {
            if (!out.differing)
                out.firstDiffering = i;
            ++out.differing;
        }
    }
    out.agrees = out.differing == 0;
    return out;
}

std::vector<BufferAgreement> compareRuns(const RunResult &reference, const RunResult &other,
                                         Tolerance tolerance)
{
    std::vector<BufferAgreement> out;
    for (const BufferData &r : reference.buffers()) {
        const BufferData *o = other.buffer(r.name);
        if (!o) {
            BufferAgreement missing;
            missing.name = QString::fromStdString(r.name);
            missing.agrees = false;
            missing.problem = QStringLiteral("missing");
            out.push_back(missing);
            continue;
        }
        out.push_back(compareBuffers(r, *o, tolerance));
    }
    return out;
}

QString agreementText(const BufferAgreement &a)
{
    if (!a.problem.isEmpty())
        return a.problem;
    QString text;
    if (a.agrees)
        text = a.exact || a.maxAbs == 0 ? QStringLiteral("equal") : QStringLiteral("within tolerance");
    else
        text = QStringLiteral("%1 of %2 differ, first at %3")
                   .arg(a.differing)
                   .arg(a.compared)
                   .arg(a.firstDiffering);
    if (!a.exact && a.maxAbs > 0)
        text += QStringLiteral(" (max abs %1, rel %2)").arg(a.maxAbs, 0, 'g', 3).arg(a.maxRel, 0, 'g', 3);
    return text;
}

} // namespace clscope::ui
