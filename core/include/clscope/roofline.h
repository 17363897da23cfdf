// A kernel's speed of light: its counted work (lineprofile.h: flops, bytes to and from global memory) over
// its real device time, against the device's measured peaks (devicebench.h's bandwidth and compute
// benchmarks, measured once per device and kept). Which roof limits the kernel (memory below the ridge
// point, compute above it) and how far below that roof it runs.
#pragma once

#include "clscope/devicebench.h"
#include "clscope/lineprofile.h"

#include <CL/cl.h>

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace clscope {

struct DevicePeaks
{
    std::string device;       // CL_DEVICE_NAME
    std::string driver;       // CL_DRIVER_VERSION
    std::string measured;     // when, UTC ISO 8601
    double bandwidthGBps = 0; // global_bandwidth_gbps: the best of read, write and copy
    double singleGflops = 0;  // compute_sp_gflops
    double doubleGflops = 0;  // compute_dp_gflops; 0 when the device has no double precision
    bool operator==(const DevicePeaks &) const = default;
};

// The peaks of a bench document that ran `bandwidth` and `compute`. Throws Error naming the figure that is
// missing or not positive.
DevicePeaks peaksFromBench(const BenchDocument &document);

// Where the peaks of a device are kept: $CLSCOPE_PEAKS_DIR, else $XDG_CACHE_HOME/clscope/peaks, else
// ~/.cache/clscope/peaks; one bench document per device name and driver version.
std::string peaksFile(const std::string &device, const std::string &driver);

// The device's peaks: the kept ones, unless there are none or remeasure is set; then the bandwidth and
// compute benchmarks run (seconds on a CPU device) and their document is kept (written beside, then
// renamed; not kept where something other than a regular file has the name: a FIFO, a device, a folder).
// *fromFile says which file they came from or went to, *measuredNow whether they were measured; effort is the
// benchmarks' (Quick: a tenth of the time, for a first look).
DevicePeaks devicePeaks(cl_device_id device, bool remeasure, std::string *fromFile = nullptr,
                        bool *measuredNow = nullptr, BenchEffort effort = BenchEffort::Full);

// The newest peaks kept here for a device of this name, of any driver version (a device measured on an
// earlier visit of its machine, or a bench document copied into the peaks folder); nullopt when none.
// Files that are not regular, not bench documents, or of another device are passed over. *fromFile says
// which.
std::optional<DevicePeaks> keptPeaks(const std::string &device, std::string *fromFile = nullptr);

struct RooflinePoint
{
    std::string kernel;
    double seconds = 0;           // one launch on the device (the median of the timed launches)
    std::uint64_t flops = 0;      // single and double precision
    std::uint64_t bytes = 0;      // to and from global and constant memory
    bool doublePrecision = false; // most flops are double: the double roof applies
    double gflops = 0;            // achieved
    double gbps = 0;              // achieved
    double intensity = 0;         // flops per byte; 0 when no bytes moved
    double peakGflops = 0;        // the compute roof that applies
    double ridge = 0;             // the intensity where the roofs meet: peakGflops / bandwidth
    bool memoryBound = true;      // below the ridge (a kernel with no flops too)
    double roofGflops = 0;        // attainable at this intensity: min(peak, intensity x bandwidth)
    double percentOfRoof = 0;     // of the bandwidth roof when memory bound, else of the compute roof
};

// Throws Error when seconds is not positive.
RooflinePoint rooflinePoint(const std::string &kernel, const LineCounts &counts, double seconds,
                            const DevicePeaks &peaks);

// "copy: 33.6 MB and 0 flops in 523.02 us: 64.2 GB/s, ...", then the roof that limits it and its percent;
// above 100 % it says that the kernel beat the measured roof (its data fits in caches that the benchmark's
// buffers do not).
std::string formatRoofline(const RooflinePoint &point, const DevicePeaks &peaks);
// {"kernel", "seconds", "flops", "bytes", "gflops", "gbps", "intensity", "precision": "single"|"double",
// "limit": "memory"|"compute", "roof_gflops", "percent_of_roof", "peaks": {"bandwidth_gbps", "sp_gflops",
// "dp_gflops", "device", "driver", "measured"}}
std::string rooflineToJson(const std::vector<RooflinePoint> &points, const DevicePeaks &peaks,
                           int indent = 2);

} // namespace clscope
