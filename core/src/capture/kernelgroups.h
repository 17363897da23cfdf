// The summary's kernels by name and program sources (kernelgroups.cpp).
#pragma once

#include "reader_impl.h"

#include <cstdint>
#include <map>
#include <vector>

namespace clscope::capture {

// byObject: the totals of each kernel object (kernels.id; 0 for commands without one), its name set. Returns
// them summed by name and by sameSourcePrograms of their programs, labelled, with their contentLaunches and
// firstLaunch, by total device time (longest first).
std::vector<CaptureKernelTotal> groupKernelTotals(const Db &db,
                                                  const std::map<std::int64_t, CaptureKernelTotal> &byObject);

} // namespace clscope::capture
