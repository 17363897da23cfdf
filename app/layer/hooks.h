// The layer's recording forwarders, and what they share with the generic ones of layer.cpp.
#pragma once

#include <CL/cl_icd.h>

#include <climits>
#include <cstdint>
#include <string_view>

namespace clscope::layer {

// The result recorded for a call that returns a handle and gave null.
inline constexpr std::int32_t kNullReturned = INT32_MIN;

// The entry's index in entrypoints.h (its id in the capture's api_names); 0xffff for an unknown name.
std::uint16_t entryId(std::string_view name);

// One ApiCall record: which entry, on which thread, when, for how long, and what it returned.
void recordApiCall(std::uint16_t id, std::uint64_t start, std::uint64_t duration,
                   std::int32_t result) noexcept;

// Replaces the generic forwarders of the recorded calls by the recording ones; entries the driver below
// does not have stay null.
void installHooks(cl_icd_dispatch &table, const cl_icd_dispatch &next);

} // namespace clscope::layer
