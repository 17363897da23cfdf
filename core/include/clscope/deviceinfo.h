// Snapshots of platforms and devices: every parameter of the info table read once, as immutable values
// that the CLI prints, the GUI shows and tests compare with clinfo.
#pragma once

#include "clscope/infotable.h"
#include "clscope/version.h"

#include <CL/cl.h>

#include <cstdint>
#include <optional>
#include <string>
#include <variant>
#include <vector>

namespace clscope {

struct NameVersion
{
    std::string name;
    cl_version version = 0;
};

struct Unsupported
{
    cl_int error =
        CL_INVALID_VALUE; // what the driver answered; CL_SUCCESS when not queried (version/ext gate)
    // Set when the driver reported a size over what CLScope accepts for the value (clquery.h); nothing
    // was read: "the driver reports 9223372036854775807 bytes for CL_DEVICE_NAME, more than the 65536 ..."
    std::string refused = {};
};

// One decoded parameter value. Integers, bitfields, enums and versions are std::uint64_t (or int64 when
// signed); arrays are vectors; Bytes/PciBusInfo/AmdTopology are a vector of their integer fields.
using RawValue = std::variant<Unsupported, bool, std::uint64_t, std::int64_t, std::string,
                              std::vector<std::uint64_t>, std::vector<NameVersion>>;

struct InfoValue
{
    const InfoParam *param = nullptr;
    RawValue value;
    // Why an answer means nothing though the driver gave it: CL_DEVICE_LUID_KHR while
    // CL_DEVICE_LUID_VALID_KHR is false (NVIDIA's driver then returns bytes left from an earlier answer).
    // display() shows it after the value; the JSON keeps the raw bytes as clinfo does.
    std::string caveat = {};

    bool supported() const { return !std::holds_alternative<Unsupported>(value); }
    // "1 GiB", "Denormals | INF and NaN", "GPU | Accelerator", "Global", "1024×1024×64",
    // "unsupported (CL_INVALID_VALUE)": what a person reads (the tree, `clscope-cli info`).
    std::string display() const;
    // The CL_* names of a bitfield, enum or enum array: "CL_FP_DENORM | CL_FP_INF_NAN", "CL_GLOBAL";
    // empty for every other kind.
    std::string symbolic() const;
    // The raw value as text, for tooltips: "1073741824", "0x3f", "[1024, 1024, 64]".
    std::string rawText() const;

private:
    std::string displayValue() const;
};

// An image format list for one memory flag and image type.
struct ImageFormatSet
{
    cl_mem_flags memFlags = 0;
    cl_mem_object_type imageType = 0;
    std::vector<cl_image_format> formats;
};

struct DeviceSnapshot
{
    cl_device_id id = nullptr;
    int index = 0;
    std::vector<InfoValue> values; // in table order
    std::vector<ImageFormatSet> imageFormats;
    std::optional<std::uint64_t>
        kernelPreferredWorkGroupSizeMultiple; // from a trivial kernel, as clinfo does
    cl_int kernelProbeError = CL_SUCCESS;     // why that kernel gave no value (no context, no build, ...)
    std::string error; // set when the probe that needs a context failed (the values are still there)

    const InfoValue *find(std::string_view name) const;
    std::string name() const;
    std::string string(std::string_view name) const; // a String value, or "" when unsupported
    std::uint64_t integer(std::string_view name, std::uint64_t fallback = 0) const;
    ClVersion version() const; // from CL_DEVICE_VERSION
};

struct PlatformSnapshot
{
    cl_platform_id id = nullptr;
    int index = 0;
    std::vector<InfoValue> values;
    std::vector<DeviceSnapshot> devices;
    std::string error; // a platform whose devices could not be listed says why here

    const InfoValue *find(std::string_view name) const;
    std::string name() const;
    std::string string(std::string_view name) const;
    ClVersion version() const;
};

// An OpenCL driver that this process did not load because its probe crashed, hung or failed
// (icdprobe.h, loaderenv.h).
struct SkippedIcd
{
    std::string file;    // the .icd file ("/etc/OpenCL/vendors/bad.icd"), or the library named directly
    std::string library; // the library it names ("libbad.so")
    std::string reason;  // "crashed (SIGSEGV)", "did not answer within 10 s", "failed (exit status 1: ...)"
    std::string message; // the whole line: "the OpenCL driver ... crashed (SIGSEGV) while listing ..."
};

struct SystemSnapshot
{
    std::vector<PlatformSnapshot> platforms;
    std::string error;                   // clGetPlatformIDs failed as a whole (no ICD at all, loader broken)
    std::vector<SkippedIcd> skippedIcds; // drivers left out of this process (the loader's setup)
    const DeviceSnapshot *device(int platform, int device) const;
};

// Values gathered by group, in a fixed group order (General, Compute, Memory, Images, Extensions,
// OpenCL 3.0 features, Vendor-specific), table order within a group. Rows that were not queried
// (ruled out by version or extension) are left out; rows the driver rejected stay.
struct GroupedValues
{
    InfoGroup group;
    std::vector<const InfoValue *> values;
};
std::vector<GroupedValues> groupValues(const std::vector<InfoValue> &values);

// The values a driver answered with a size over the limit (Unsupported::refused), in table order (the
// JSON's "info_errors").
std::vector<const InfoValue *> refusedValues(const std::vector<InfoValue> &values);

// Queries one parameter of a device or platform. Never throws for a parameter the driver rejects.
InfoValue queryDeviceParam(cl_device_id device, const InfoParam &param);
InfoValue queryPlatformParam(cl_platform_id platform, const InfoParam &param);

struct SnapshotOptions
{
    bool imageFormats = true; // needs a context per device
    bool kernelProbe = true;  // builds a trivial kernel per device for CL_KERNEL_* values
};

// Reads every platform and device. A platform that fails is kept with its error; the others still show.
// Every size and count a driver reports is bounded (clquery.h). The drivers the loader setup of this
// process skipped are listed in skippedIcds.
SystemSnapshot takeSnapshot(const SnapshotOptions &options = {});
DeviceSnapshot snapshotDevice(cl_device_id device, int index, const SnapshotOptions &options);

// JSON of the CLI contract: {"platforms":[{CL_PLATFORM_*:..., "devices":[{CL_DEVICE_*:...}]}]}.
std::string snapshotToJson(const SystemSnapshot &snapshot, int indent = 2);

// Human names: "CL_RGBA", "CL_FLOAT", "CL_MEM_READ_ONLY", "CL_MEM_OBJECT_IMAGE2D".
std::string_view channelOrderName(cl_channel_order order);
std::string_view channelTypeName(cl_channel_type type);
std::string_view memFlagName(cl_mem_flags flags);
std::string_view imageTypeName(cl_mem_object_type type);

} // namespace clscope
