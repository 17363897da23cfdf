// The one buffer comparison (compare.h): exact for integers, bytes and structs, a tolerance for floating
// point, NaN equal to NaN, the largest differences kept.
#include "clscope/compare.h"

#include "clscope/runner.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <limits>

namespace clscope {

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

std::string elementsText(const BufferBytes &b)
{
    return std::to_string(b.count) + " × " + b.type.name();
}

// Whether two components agree, keeping the largest finite differences in `out`.
bool componentsAgree(const Number &a, const Number &b, ScalarKind kind, const Tolerance &tolerance,
                     BufferComparison &out)
{
    const double x = toDouble(a);
    const double y = toDouble(b);
    if (std::isnan(x) || std::isnan(y))
        return std::isnan(x) && std::isnan(y);
    if (std::isinf(x) || std::isinf(y))
        return x == y;
    const double diff = std::fabs(x - y);
    const double mag = std::max(std::fabs(x), std::fabs(y));
    out.maxAbs = std::max(out.maxAbs, diff);
    if (mag > 0)
        out.maxRel = std::max(out.maxRel, diff / mag);
    if (!isFloating(kind))
        return a == b; // exactly, in the integer's own type (a double rounds 64-bit values)
    if (diff == 0)
        return true;
    return diff <= tolerance.absolute + tolerance.relative * mag +
                       (tolerance.ulps > 0 ? tolerance.ulps * ulpAt(kind, mag) : 0.0);
}

void markDifference(std::size_t i, double reference, double other, bool mark, BufferComparison &out)
{
    if (!out.differing) {
        out.firstDiffering = i;
        out.referenceAt = reference;
        out.otherAt = other;
        if (mark)
            out.differs.assign(out.compared, false);
    }
    if (mark)
        out.differs[i] = true;
    ++out.differing;
}

} // namespace

BufferComparison compareBuffers(const BufferBytes &reference, const BufferBytes &other,
                                const Tolerance &tolerance, bool markDiffering)
{
    BufferComparison out;
    const ElementType &type = reference.type;
    out.componentsPerElement =
        std::max<std::size_t>(1, type.isRaw() ? type.rawSize : std::size_t(type.width));
    if (reference.count != other.count || !(type == other.type) ||
        reference.bytes.size() != other.bytes.size()) {
        out.problem = elementsText(reference) + " vs " + elementsText(other);
        return out;
    }
    if (reference.structs || other.structs || type.isRaw()) {
        // Structs and raw bytes: by their bytes.
        out.compared = reference.bytes.size();
        for (std::size_t i = 0; i < out.compared; ++i) {
            if (reference.bytes[i] != other.bytes[i])
                markDifference(i, reference.bytes[i], other.bytes[i], markDiffering, out);
        }
        return out;
    }
    out.exact = !isFloating(type.scalar);
    // A short byte vector (never made by a run) gives the elements it holds rather than reading past it.
    const std::size_t elements =
        type.size() ? std::min(reference.count, reference.bytes.size() / type.size()) : 0;
    const std::size_t width = std::size_t(type.width);
    const std::size_t scalar = scalarSize(type.scalar);
    out.compared = elements * width;
    for (std::size_t i = 0; i < out.compared; ++i) {
        const std::size_t at = (i / width) * type.size() + (i % width) * scalar;
        const Number a = decodeNumber(type.scalar, reference.bytes.data() + at);
        const Number b = decodeNumber(type.scalar, other.bytes.data() + at);
        if (!componentsAgree(a, b, type.scalar, tolerance, out))
            markDifference(i, toDouble(a), toDouble(b), markDiffering, out);
    }
    return out;
}

std::vector<BufferComparison> compareRuns(const RunResult &reference, const RunResult &other,
                                          const Tolerance &tolerance)
{
    std::vector<BufferComparison> out;
    for (const BufferData &r : reference.buffers()) {
        const BufferData *o = other.buffer(r.name);
        if (!o) {
            BufferComparison missing;
            missing.name = r.name;
            missing.problem = "missing";
            out.push_back(std::move(missing));
            continue;
        }
        out.push_back(compareBuffers(r, *o, tolerance));
    }
    return out;
}

std::string comparisonText(const BufferComparison &c)
{
    if (!c.problem.empty())
        return c.problem;
    std::string text;
    if (c.agrees())
        text = c.exact || c.maxAbs == 0 ? "equal" : "within tolerance";
    else
        text = std::to_string(c.differing) + " of " + std::to_string(c.compared) + " differ, first at " +
               std::to_string(c.firstDiffering);
    if (!c.exact && c.maxAbs > 0) {
        char figures[64];
        std::snprintf(figures, sizeof figures, " (max abs %.3g, rel %.3g)", c.maxAbs, c.maxRel);
        text += figures;
    }
    return text;
}

} // namespace clscope
