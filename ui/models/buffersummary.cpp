// Summary statistics of a read-back buffer.
#include "buffersummary.h"

#include <algorithm>
#include <cmath>
#include <limits>

namespace clscope::ui {

BufferSummary summarize(const BufferData &buffer)
{
    BufferSummary s;
    double sum = 0;
    s.min = std::numeric_limits<double>::infinity();
    s.max = -std::numeric_limits<double>::infinity();
    const std::size_t n = buffer.componentCount();
    for (std::size_t i = 0; i < n; ++i) {
        const double v = buffer.value(i);
        if (std::isnan(v)) {
            ++s.nanCount;
        } else if (std::isinf(v)) {
            ++s.infCount;
        } else {
            s.min = std::min(s.min, v);
            s.max = std::max(s.max, v);
            sum += v;
            ++s.count;
        }
    }
    if (s.count == 0) {
        s.min = s.max = 0;
    } else {
        s.mean = sum / double(s.count);
    }
    return s;
}

} // namespace clscope::ui
