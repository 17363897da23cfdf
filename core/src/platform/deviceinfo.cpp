// Reading the info table from a driver: raw bytes decoded by value kind, never throwing for a
// parameter the driver rejects, and whole-system snapshots that survive a broken platform.
#include "clscope/deviceinfo.h"

#include "clscope/clquery.h"
#include "clscope/error.h"
#include "clscope/loaderenv.h"

#include <CL/cl_ext.h>

#include <algorithm>
#include <cstring>
#include <memory>
#include <span>
#include <type_traits>

namespace clscope {
namespace {

using Bytes = std::span<const unsigned char>;

// The most a driver may answer for a parameter of this kind (clquery.h): strings 64 KiB, arrays 4096
// entries, numbers 64 bytes. A larger answer is refused before anything is allocated.
std::size_t byteLimit(const InfoParam &param)
{
    switch (param.kind) {
    case ValueKind::String:
        return kMaxInfoStringBytes;
    case ValueKind::IntegerArray:
    case ValueKind::EnumArray:
    case ValueKind::Bytes:
    case ValueKind::PciBusInfo:
        return kMaxInfoArrayEntries * std::max<std::size_t>(param.elementSize, sizeof(std::uint64_t));
    case ValueKind::NameVersionList:
        return kMaxInfoArrayEntries * sizeof(cl_name_version);
    case ValueKind::Bool:
    case ValueKind::Integer:
    case ValueKind::SignedInteger:
    case ValueKind::Bitfield:
    case ValueKind::Enum:
    case ValueKind::Version:
    case ValueKind::AmdTopology:
        break;
    }
    return kMaxInfoScalarBytes;
}

std::uint64_t readUnsigned(const unsigned char *p, size_t size)
{
    switch (size) {
    case 1:
        return *p;
    case 2: {
        std::uint16_t v;
        std::memcpy(&v, p, 2);
        return v;
    }
    case 4: {
        std::uint32_t v;
        std::memcpy(&v, p, 4);
        return v;
    }
    default: {
        std::uint64_t v = 0;
        std::memcpy(&v, p, size < 8 ? size : 8);
        return v;
    }
    }
}

std::int64_t readSigned(const unsigned char *p, size_t size)
{
    switch (size) {
    case 1:
        return static_cast<std::int8_t>(*p);
    case 2: {
        std::int16_t v;
        std::memcpy(&v, p, 2);
        return v;
    }
    case 4: {
        std::int32_t v;
        std::memcpy(&v, p, 4);
        return v;
    }
    default: {
        std::int64_t v = 0;
        std::memcpy(&v, p, size < 8 ? size : 8);
        return v;
    }
    }
}

std::vector<std::uint64_t> readArray(Bytes bytes, size_t elementSize)
{
    std::vector<std::uint64_t> out;
    if (elementSize == 0)
        elementSize = 1;
    for (size_t off = 0; off + elementSize <= bytes.size(); off += elementSize)
        out.push_back(readUnsigned(bytes.data() + off, elementSize));
    return out;
}

RawValue decode(const InfoParam &param, Bytes bytes)
{
    switch (param.kind) {
    case ValueKind::String: {
        std::string s(bytes.begin(), bytes.end());
        while (!s.empty() && s.back() == '\0')
            s.pop_back();
        return s;
    }
    case ValueKind::Bool:
        if (bytes.empty())
            return Unsupported{CL_INVALID_VALUE};
        return readUnsigned(bytes.data(), bytes.size()) != 0;
    case ValueKind::Integer:
    case ValueKind::Bitfield:
    case ValueKind::Enum:
    case ValueKind::Version:
        if (bytes.empty())
            return Unsupported{CL_INVALID_VALUE};
        return readUnsigned(bytes.data(), bytes.size());
    case ValueKind::SignedInteger:
        if (bytes.empty())
            return Unsupported{CL_INVALID_VALUE};
        return readSigned(bytes.data(), bytes.size());
    case ValueKind::IntegerArray:
        return readArray(bytes, param.elementSize);
    case ValueKind::EnumArray: {
        auto values =
            readArray(bytes, param.elementSize ? param.elementSize : sizeof(cl_device_partition_property));
        // Property lists end with 0; a list that is only {0} means "none" and keeps its single 0.
        while (values.size() > 1 && values.back() == 0)
            values.pop_back();
        return values;
    }
    case ValueKind::NameVersionList: {
        std::vector<NameVersion> list;
        for (size_t off = 0; off + sizeof(cl_name_version) <= bytes.size(); off += sizeof(cl_name_version)) {
            cl_name_version nv;
            std::memcpy(&nv, bytes.data() + off, sizeof nv);
            nv.name[CL_NAME_VERSION_MAX_NAME_SIZE - 1] = '\0';
            list.push_back({nv.name, nv.version});
        }
        return list;
    }
    case ValueKind::Bytes:
        return readArray(bytes, 1);
    case ValueKind::PciBusInfo:
        return readArray(bytes, 4);
    case ValueKind::AmdTopology: {
        // cl_device_topology_amd: type (cl_uint) at 0, then in the PCIe variant bus, device,
        // function as chars at offsets 21, 22, 23 (the struct is 24 bytes).
        if (bytes.size() < 24)
            return Unsupported{CL_INVALID_VALUE};
        return std::vector<std::uint64_t>{
            readUnsigned(bytes.data(), 4), static_cast<unsigned char>(bytes[21]),
            static_cast<unsigned char>(bytes[22]), static_cast<unsigned char>(bytes[23])};
    }
    }
    return Unsupported{CL_INVALID_VALUE};
}

bool hasExtension(const std::string &extensions, std::string_view name)
{
    size_t pos = 0;
    while ((pos = extensions.find(name, pos)) != std::string::npos) {
        const bool startOk = pos == 0 || extensions[pos - 1] == ' ';
        const size_t end = pos + name.size();
        const bool endOk = end == extensions.size() || extensions[end] == ' ';
        if (startOk && endOk)
            return true;
        pos = end;
    }
    return false;
}

// A row is queried when the device version reaches its minimum, or (for rows that name an extension
// and a version, like the cl_khr_extended_versioning ones) when the extension is there.
bool shouldQuery(const InfoParam &param, int version, const std::string &extensions)
{
    const bool versionOk = version >= param.minVersion;
    if (param.extension.empty())
        return versionOk;
    if (param.minVersion > 100 && versionOk)
        return true;
    return hasExtension(extensions, param.extension);
}

// One parameter through the bounded reader: decoded, the driver's error, or refused for its size.
InfoValue readValue(const InfoParam &param, const InfoBytes &read)
{
    if (read.tooLarge())
        return {&param, Unsupported{CL_INVALID_VALUE, read.refusal(param.name)}};
    if (read.error != CL_SUCCESS)
        return {&param, Unsupported{read.error}};
    return {&param, decode(param, Bytes(reinterpret_cast<const unsigned char *>(read.bytes.data()),
                                        read.bytes.size()))};
}

struct ContextDeleter
{
    void operator()(cl_context c) const { clReleaseContext(c); }
};
using ContextPtr = std::unique_ptr<std::remove_pointer_t<cl_context>, ContextDeleter>;

void probeImageFormats(cl_context context, DeviceSnapshot &snap)
{
    static constexpr cl_mem_flags kFlags[] = {CL_MEM_READ_ONLY, CL_MEM_WRITE_ONLY, CL_MEM_READ_WRITE,
                                              CL_MEM_KERNEL_READ_AND_WRITE};
    static constexpr cl_mem_object_type kTypes[] = {CL_MEM_OBJECT_IMAGE1D,       CL_MEM_OBJECT_IMAGE1D_BUFFER,
                                                    CL_MEM_OBJECT_IMAGE1D_ARRAY, CL_MEM_OBJECT_IMAGE2D,
                                                    CL_MEM_OBJECT_IMAGE2D_ARRAY, CL_MEM_OBJECT_IMAGE3D};
    for (cl_mem_flags flags : kFlags) {
        if (flags == CL_MEM_KERNEL_READ_AND_WRITE && snap.version().asNumber() < 200)
            continue;
        for (cl_mem_object_type type : kTypes) {
            cl_uint count = 0;
            if (clGetSupportedImageFormats(context, flags, type, 0, nullptr, &count) != CL_SUCCESS)
                continue;
            if (count > kMaxInfoArrayEntries) {
                snap.error =
                    limitMessage("clGetSupportedImageFormats", count, "image formats", kMaxInfoArrayEntries);
                continue;
            }
            ImageFormatSet set{flags, type, std::vector<cl_image_format>(count)};
            if (count > 0 && clGetSupportedImageFormats(context, flags, type, count, set.formats.data(),
                                                        nullptr) != CL_SUCCESS)
                continue;
            snap.imageFormats.push_back(std::move(set));
        }
    }
}

// clinfo reports CL_KERNEL_PREFERRED_WORK_GROUP_SIZE_MULTIPLE from a trivial kernel; so do we.
void probeKernel(cl_context context, cl_device_id device, DeviceSnapshot &snap)
{
    static const char *kSource = "kernel void sum(global int *a, global const int *b) "
                                 "{ a[get_global_id(0)] += b[get_global_id(0)]; }";
    cl_int err = CL_SUCCESS;
    cl_program program = clCreateProgramWithSource(context, 1, &kSource, nullptr, &err);
    if (err != CL_SUCCESS) {
        snap.kernelProbeError = err;
        return;
    }
    if (err = clBuildProgram(program, 1, &device, nullptr, nullptr, nullptr); err == CL_SUCCESS) {
        cl_kernel kernel = clCreateKernel(program, "sum", &err);
        if (err == CL_SUCCESS) {
            size_t multiple = 0;
            err = clGetKernelWorkGroupInfo(kernel, device, CL_KERNEL_PREFERRED_WORK_GROUP_SIZE_MULTIPLE,
                                           sizeof multiple, &multiple, nullptr);
            if (err == CL_SUCCESS)
                snap.kernelPreferredWorkGroupSizeMultiple = multiple;
            clReleaseKernel(kernel);
        }
    } else {
        snap.error = "the probe kernel did not build";
    }
    snap.kernelProbeError = err;
    clReleaseProgram(program);
}

// cl_khr_device_uuid: the LUID means something only when CL_DEVICE_LUID_VALID_KHR is true. NVIDIA's driver
// on an H200 says false and still answers CL_DEVICE_LUID_KHR with eight bytes of an earlier answer.
void markInvalidLuid(std::vector<InfoValue> &values)
{
    InfoValue *luid = nullptr;
    bool invalid = false;
    for (InfoValue &v : values) {
        if (v.param->id == CL_DEVICE_LUID_KHR)
            luid = &v;
        else if (const bool *valid = std::get_if<bool>(&v.value);
                 valid && v.param->id == CL_DEVICE_LUID_VALID_KHR)
            invalid = !*valid;
    }
    if (luid && invalid && luid->supported())
        luid->caveat = "not valid: CL_DEVICE_LUID_VALID_KHR is false";
}

template<typename Snap> const InfoValue *findIn(const Snap &snap, std::string_view name)
{
    for (const auto &v : snap.values) {
        if (v.param && v.param->name == name)
            return &v;
    }
    return nullptr;
}

template<typename Snap> std::string stringIn(const Snap &snap, std::string_view name)
{
    const InfoValue *v = findIn(snap, name);
    if (v && std::holds_alternative<std::string>(v->value))
        return std::get<std::string>(v->value);
    return {};
}

} // namespace

InfoValue queryDeviceParam(cl_device_id device, const InfoParam &param)
{
    return readValue(param, deviceInfoBytes(device, param.id, byteLimit(param)));
}

InfoValue queryPlatformParam(cl_platform_id platform, const InfoParam &param)
{
    return readValue(param, platformInfoBytes(platform, param.id, byteLimit(param)));
}

std::vector<const InfoValue *> refusedValues(const std::vector<InfoValue> &values)
{
    std::vector<const InfoValue *> out;
    for (const InfoValue &v : values) {
        if (const auto *u = std::get_if<Unsupported>(&v.value); u && !u->refused.empty())
            out.push_back(&v);
    }
    return out;
}

const InfoValue *DeviceSnapshot::find(std::string_view name) const
{
    return findIn(*this, name);
}
std::string DeviceSnapshot::string(std::string_view name) const
{
    return stringIn(*this, name);
}
std::string DeviceSnapshot::name() const
{
    return string("CL_DEVICE_NAME");
}

std::uint64_t DeviceSnapshot::integer(std::string_view name, std::uint64_t fallback) const
{
    const InfoValue *v = find(name);
    if (v && std::holds_alternative<std::uint64_t>(v->value))
        return std::get<std::uint64_t>(v->value);
    if (v && std::holds_alternative<bool>(v->value))
        return std::get<bool>(v->value) ? 1 : 0;
    return fallback;
}

ClVersion DeviceSnapshot::version() const
{
    return parseOpenCLVersion(string("CL_DEVICE_VERSION")).value_or(ClVersion{1, 0, 0});
}

const InfoValue *PlatformSnapshot::find(std::string_view name) const
{
    return findIn(*this, name);
}
std::string PlatformSnapshot::string(std::string_view name) const
{
    return stringIn(*this, name);
}
std::string PlatformSnapshot::name() const
{
    return string("CL_PLATFORM_NAME");
}

ClVersion PlatformSnapshot::version() const
{
    return parseOpenCLVersion(string("CL_PLATFORM_VERSION")).value_or(ClVersion{1, 0, 0});
}

const DeviceSnapshot *SystemSnapshot::device(int platform, int device) const
{
    if (platform < 0 || platform >= static_cast<int>(platforms.size()))
        return nullptr;
    const auto &devs = platforms[static_cast<size_t>(platform)].devices;
    if (device < 0 || device >= static_cast<int>(devs.size()))
        return nullptr;
    return &devs[static_cast<size_t>(device)];
}

std::vector<GroupedValues> groupValues(const std::vector<InfoValue> &values)
{
    static constexpr InfoGroup kOrder[] = {InfoGroup::Platform,   InfoGroup::General, InfoGroup::Compute,
                                           InfoGroup::Memory,     InfoGroup::Images,  InfoGroup::Extensions,
                                           InfoGroup::Features30, InfoGroup::Vendor};
    std::vector<GroupedValues> out;
    for (InfoGroup group : kOrder) {
        GroupedValues g{group, {}};
        for (const InfoValue &v : values) {
            const auto *u = std::get_if<Unsupported>(&v.value);
            if (v.param->group == group && (!u || u->error != CL_SUCCESS))
                g.values.push_back(&v);
        }
        if (!g.values.empty())
            out.push_back(std::move(g));
    }
    return out;
}

DeviceSnapshot snapshotDevice(cl_device_id device, int index, const SnapshotOptions &options)
{
    DeviceSnapshot snap;
    snap.id = device;
    snap.index = index;
    const int version =
        parseOpenCLVersion(deviceString(device, CL_DEVICE_VERSION)).value_or(ClVersion{1, 0, 0}).asNumber();
    const std::string extensions = deviceString(device, CL_DEVICE_EXTENSIONS);
    for (const InfoParam &param : deviceParams()) {
        if (shouldQuery(param, version, extensions))
            snap.values.push_back(queryDeviceParam(device, param));
        else
            snap.values.push_back({&param, Unsupported{CL_SUCCESS}});
    }
    markInvalidLuid(snap.values);
    if (!options.imageFormats && !options.kernelProbe)
        return snap;
    cl_int err = CL_SUCCESS;
    ContextPtr context(clCreateContext(nullptr, 1, &device, nullptr, nullptr, &err));
    if (err != CL_SUCCESS) {
        snap.error = ClError("clCreateContext", err).what();
        if (options.kernelProbe)
            snap.kernelProbeError = err;
        return snap;
    }
    if (options.imageFormats && snap.integer("CL_DEVICE_IMAGE_SUPPORT") != 0)
        probeImageFormats(context.get(), snap);
    if (options.kernelProbe && snap.integer("CL_DEVICE_COMPILER_AVAILABLE") != 0)
        probeKernel(context.get(), device, snap);
    return snap;
}

SystemSnapshot takeSnapshot(const SnapshotOptions &options)
{
    SystemSnapshot system;
    if (const LoaderSetup *setup = loaderSetup()) {
        for (const IcdProbe &probe : setup->probes) {
            if (probe.skipped())
                system.skippedIcds.push_back(
                    {probe.icd.file, probe.icd.library, probe.reason(), probe.message()});
        }
    }
    const IdList<cl_platform_id> platforms = platformIds();
    if (platforms.error == CL_PLATFORM_NOT_FOUND_KHR ||
        (platforms.error == CL_SUCCESS && platforms.reported == 0))
        return system; // no platform at all: not an error, the GUI says how to install one
    if (platforms.error != CL_SUCCESS) {
        system.error = ClError("clGetPlatformIDs", platforms.error).what();
        return system;
    }
    if (!platforms.refused.empty()) {
        system.error = platforms.refused;
        return system;
    }
    const std::vector<cl_platform_id> &ids = platforms.ids;
    for (size_t p = 0; p < ids.size(); ++p) {
        PlatformSnapshot plat;
        plat.id = ids[p];
        plat.index = static_cast<int>(p);
        std::string extensions;
        {
            InfoValue ext = queryPlatformParam(ids[p], *findParam("CL_PLATFORM_EXTENSIONS"));
            if (std::holds_alternative<std::string>(ext.value))
                extensions = std::get<std::string>(ext.value);
        }
        InfoValue ver = queryPlatformParam(ids[p], *findParam("CL_PLATFORM_VERSION"));
        const int version =
            std::holds_alternative<std::string>(ver.value)
                ? parseOpenCLVersion(std::get<std::string>(ver.value)).value_or(ClVersion{1, 0, 0}).asNumber()
                : 100;
        for (const InfoParam &param : platformParams()) {
            if (shouldQuery(param, version, extensions))
                plat.values.push_back(queryPlatformParam(ids[p], param));
            else
                plat.values.push_back({&param, Unsupported{CL_SUCCESS}});
        }
        const IdList<cl_device_id> devices = deviceIds(ids[p]);
        if (devices.error != CL_SUCCESS && devices.error != CL_DEVICE_NOT_FOUND) {
            plat.error = ClError("clGetDeviceIDs", devices.error).what();
        } else if (!devices.refused.empty()) {
            plat.error = devices.refused;
        } else {
            for (size_t d = 0; d < devices.ids.size(); ++d)
                plat.devices.push_back(snapshotDevice(devices.ids[d], static_cast<int>(d), options));
        }
        system.platforms.push_back(std::move(plat));
    }
    return system;
}

} // namespace clscope
