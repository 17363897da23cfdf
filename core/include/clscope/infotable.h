// The table of OpenCL platform and device parameters: one row per CL_* parameter, with how to read its
// value, how to show it and where it belongs. One new parameter is one new row in infotable.cpp.
#pragma once

#include <CL/cl.h>

#include <cstdint>
#include <span>
#include <string_view>

namespace clscope {

// How the bytes returned by clGet*Info are decoded.
enum class ValueKind : std::uint8_t {
    String,          // char[]; trailing NULs dropped
    Bool,            // cl_bool
    Integer,         // unsigned integer of whatever size the driver returns (1, 2, 4 or 8 bytes)
    SignedInteger,   // signed integer of the returned size
    IntegerArray,    // array of elementSize-byte unsigned integers (size_t[], cl_uint[])
    Bitfield,        // integer whose bits have names (flags)
    Enum,            // integer with one named value (flags used as the name table)
    EnumArray,       // array of elementSize-byte enum values (partition properties), trailing 0 dropped
    Version,         // cl_version (packed major.minor.patch)
    NameVersionList, // cl_name_version[]
    Bytes,           // raw bytes shown as hex (UUID, LUID)
    PciBusInfo,      // cl_device_pci_bus_info_khr: domain, bus, device, function
    AmdTopology,     // cl_device_topology_amd: PCIe bus, device, function
};

// How a value is shown to a person (the raw value is always available too).
enum class Display : std::uint8_t {
    Plain,    // the number or text as it is
    Bytes,    // 1073741824 -> "1 GiB"
    MHz,      // clock frequency in MHz
    Nanosecs, // timer resolution
    Dims,     // size_t[] as 1024×1024×64
    Bits,     // address bits
    Hex,      // vendor IDs
    ExtList,  // space separated extension list, one per line
};

enum class InfoGroup : std::uint8_t {
    Platform,
    General,
    Compute,
    Memory,
    Images,
    Extensions,
    Features30,
    Vendor,
};

std::string_view groupName(InfoGroup group);

struct FlagName
{
    std::uint64_t value;
    std::string_view name;  // "CL_DEVICE_TYPE_GPU": JSON keys, tooltips, what the spec calls it
    std::string_view label; // "GPU": what a person reads (InfoValue::display)
};

struct InfoParam
{
    cl_uint id;
    std::string_view name;  // "CL_DEVICE_MAX_COMPUTE_UNITS"
    std::string_view label; // "Max compute units"
    ValueKind kind;
    InfoGroup group;
    Display display = Display::Plain;
    int minVersion = 100;            // 120 = OpenCL 1.2; rows above the device version are not queried
    std::string_view extension = {}; // queried only when the device (or platform) lists it
    std::span<const FlagName> flags = {};
    std::uint8_t elementSize = 0; // for arrays
};

std::span<const InfoParam> platformParams();
std::span<const InfoParam> deviceParams();

// Finds a row by CL_* name in either table, or nullptr.
const InfoParam *findParam(std::string_view name);

} // namespace clscope
