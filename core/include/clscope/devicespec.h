// Device selection specs in the manner of pyopencl's PYOPENCL_CTX / PYOPENCL_TEST:
//   "0:1"          platform 0, device 1
//   "nvidia:h200"  platform whose name or vendor contains "nvidia", device whose name contains "h200"
//   "0:0,1;pocl"   devices 0 and 1 of platform 0, and every device of the platform matching "pocl"
//   "gpu" / ":cpu" device type words match the device type
// Matching is case-insensitive; numbers are indices. The spec comes from --device or CLSCOPE_DEVICE.
// "PYOPENCL_CTX=VALUE" and "PYOPENCL_TEST=VALUE" are read exactly as pyopencl reads those variables
// (create_some_context, tools.get_test_platforms_and_devices): effectiveDeviceSpec makes them from the
// environment when neither --device nor CLSCOPE_DEVICE is given.
#pragma once

#include "clscope/error.h"

#include <CL/cl.h>

#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

namespace clscope {

struct DeviceSpecTerm
{
    std::string platform;             // empty: any platform
    std::vector<std::string> devices; // empty: every device
};

// Throws DeviceSpecError on a malformed spec ("0::1", empty terms).
std::vector<DeviceSpecTerm> parseDeviceSpec(std::string_view spec);

// An Input error: a malformed spec, or one that no device matches.
class DeviceSpecError : public Error
{
public:
    explicit DeviceSpecError(const std::string &message)
        : Error(message, ErrorCategory::Input)
    {}
};

struct SelectedDevice
{
    cl_platform_id platform = nullptr;
    cl_device_id device = nullptr;
    int platformIndex = 0;
    int deviceIndex = 0;
    std::string platformName;
    std::string deviceName;
};

// Names of the candidates, for matching without touching OpenCL (tests, the GUI's snapshot).
struct DeviceCandidate
{
    int platformIndex = 0;
    int deviceIndex = 0;
    std::string platformName;
    std::string platformVendor;
    std::string deviceName;
    std::string deviceVendor;
    cl_device_type type = 0;
    cl_device_id id = nullptr;
};

struct SystemSnapshot;

// Every device of a snapshot as a candidate, in platform then device order: the one list of the devices a
// spec selects from and a launch, a replay or a comparison runs on (a platform whose devices could not be
// listed has none). Device lists made by hand from the platforms disagreed on order and on names.
std::vector<DeviceCandidate> deviceCandidates(const SystemSnapshot &snapshot);

// "0:0 Portable Computing Language / cpu-haswell, 1:0 Oclgrind / Oclgrind Simulator" ("none" for no
// candidates): the devices an error that no device matches lists.
std::string candidateList(const std::vector<DeviceCandidate> &candidates);

// "cpu-haswell — Portable Computing Language": a device as a table of devices names it.
std::string candidateLabel(const DeviceCandidate &candidate);

// Every candidate the spec selects, in platform then device order, without duplicates (pyopencl's forms: in
// the order pyopencl gives them). An empty spec selects the default: the first GPU if there is one, else
// the first device that is not a simulator. Throws DeviceSpecError for a malformed spec, and for a
// pyopencl form that pyopencl refuses, with pyopencl's reason.
std::vector<size_t> matchDeviceSpec(std::string_view spec, const std::vector<DeviceCandidate> &candidates);

// Lists the devices of this machine (platforms that fail are skipped).
std::vector<SelectedDevice> listDevices(std::vector<DeviceCandidate> *candidates = nullptr);

// The spec from the argument, else CLSCOPE_DEVICE, else "PYOPENCL_TEST=..." when that variable is set, else
// "PYOPENCL_CTX=..." when that one is (pyopencl's own precedence), else empty (the default device).
std::string effectiveDeviceSpec(std::string_view fromCommandLine);

// Selects devices by spec; throws DeviceSpecError("no OpenCL device matches 'x' (devices: ...)").
std::vector<SelectedDevice> selectDevices(std::string_view spec);
SelectedDevice selectDevice(std::string_view spec);

} // namespace clscope
