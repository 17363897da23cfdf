// Summary statistics of a read-back buffer: min, max and mean over the finite values, and how many NaN and
// Inf values it holds (the line under the results table).
#pragma once

#include "clscope/kernelargs.h"

#include <cstddef>

namespace clscope::ui {

struct BufferSummary
{
    double min = 0;
    double max = 0;
    double mean = 0;
    std::size_t nanCount = 0;
    std::size_t infCount = 0;
    std::size_t count = 0; // finite values the min/max/mean are over
};

BufferSummary summarize(const BufferData &buffer);

} // namespace clscope::ui
