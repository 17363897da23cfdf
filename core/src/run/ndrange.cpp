// NDRange parsing and validation: the launch sizes checked against the device's and the kernel's
// limits before the driver sees them, so that each error names the limit rather than only
// CL_INVALID_WORK_GROUP_SIZE.
#include "clscope/runner.h"
#include "clscope/text.h"

#include "clscope/queue.h"

#include "clscope/checkedmath.h"
#include "clscope/clquery.h"
#include "clscope/error.h"
#include "clscope/version.h"

#include <charconv>

namespace clscope {
namespace {

// "8192" in one dimension, "64,64 (4096 work-items)" in more.
std::string describeLocal(const std::vector<std::size_t> &local, std::size_t product)
{
    if (local.size() == 1)
        return "local size " + std::to_string(local.front());
    return "local size " + formatSizeList(local) + " (" + std::to_string(product) + " work-items)";
}

template<typename T> T deviceValue(cl_device_id device, cl_device_info param, const char *name)
{
    T value{};
    check(clGetDeviceInfo(device, param, sizeof value, &value, nullptr), "clGetDeviceInfo", name);
    return value;
}

} // namespace

std::vector<std::size_t> parseSizeList(std::string_view text, std::string_view what)
{
    const std::string shown(trimBlanks(text));
    std::vector<std::size_t> sizes;
    std::size_t pos = 0;
    while (true) {
        const std::size_t comma = text.find(',', pos);
        const std::string_view part = trimBlanks(
            text.substr(pos, comma == std::string_view::npos ? std::string_view::npos : comma - pos));
        std::size_t value = 0;
        const auto [end, ec] = std::from_chars(part.data(), part.data() + part.size(), value);
        if (part.empty() || ec != std::errc() || end != part.data() + part.size())
            throw RunInputError(std::string(what) + " '" + shown + "' is not a list of sizes (X[,Y[,Z]])");
        sizes.push_back(value);
        if (comma == std::string_view::npos)
            break;
        pos = comma + 1;
    }
    if (sizes.size() > 3)
        throw RunInputError(std::string(what) + " '" + shown + "' has " + std::to_string(sizes.size()) +
                            " dimensions (1 to 3)");
    return sizes;
}

std::string formatSizeList(const std::vector<std::size_t> &sizes)
{
    std::string out;
    for (std::size_t i = 0; i < sizes.size(); ++i)
        out += (i ? "," : "") + std::to_string(sizes[i]);
    return out;
}

bool optionsAllowNonUniform(std::string_view buildOptions)
{
    std::vector<std::string> tokens;
    try {
        tokens = splitOptions(buildOptions);
    } catch (const BuildInputError &) {
        return false;
    }
    bool cl2 = false;
    for (const std::string &t : tokens) {
        if (t == "-cl-uniform-work-group-size")
            return false;
        // -cl-std=CL2.0, CL3.0 (and later): the language versions where work-groups may be non-uniform.
        if (t.starts_with("-cl-std=CL") && t.size() > 10 && t[10] >= '2' && t[10] <= '9')
            cl2 = true;
    }
    return cl2;
}

LaunchLimits queryLaunchLimits(cl_device_id device, cl_kernel kernel, std::string_view buildOptions)
{
    LaunchLimits l;
    l.kernel = kernelString(kernel, CL_KERNEL_FUNCTION_NAME);
    l.maxWorkItemDimensions = deviceValue<cl_uint>(device, CL_DEVICE_MAX_WORK_ITEM_DIMENSIONS,
                                                   "CL_DEVICE_MAX_WORK_ITEM_DIMENSIONS");
    l.maxWorkItemSizes.resize(checkReported(l.maxWorkItemDimensions, kMaxInfoArrayEntries,
                                            "CL_DEVICE_MAX_WORK_ITEM_DIMENSIONS", "dimensions"));
    check(clGetDeviceInfo(device, CL_DEVICE_MAX_WORK_ITEM_SIZES,
                          l.maxWorkItemSizes.size() * sizeof(std::size_t), l.maxWorkItemSizes.data(),
                          nullptr),
          "clGetDeviceInfo", "CL_DEVICE_MAX_WORK_ITEM_SIZES");
    l.maxWorkGroupSize =
        deviceValue<std::size_t>(device, CL_DEVICE_MAX_WORK_GROUP_SIZE, "CL_DEVICE_MAX_WORK_GROUP_SIZE");
    l.localMemSize = deviceValue<cl_ulong>(device, CL_DEVICE_LOCAL_MEM_SIZE, "CL_DEVICE_LOCAL_MEM_SIZE");
    l.maxMemAllocSize =
        deviceValue<cl_ulong>(device, CL_DEVICE_MAX_MEM_ALLOC_SIZE, "CL_DEVICE_MAX_MEM_ALLOC_SIZE");
    l.globalMemSize = deviceValue<cl_ulong>(device, CL_DEVICE_GLOBAL_MEM_SIZE, "CL_DEVICE_GLOBAL_MEM_SIZE");
    l.addressBits = deviceValue<cl_uint>(device, CL_DEVICE_ADDRESS_BITS, "CL_DEVICE_ADDRESS_BITS");

    // A value the driver will not give stays at "not known" rather than failing the run.
    clGetKernelWorkGroupInfo(kernel, device, CL_KERNEL_WORK_GROUP_SIZE, sizeof l.kernelWorkGroupSize,
                             &l.kernelWorkGroupSize, nullptr);
    std::size_t compile[3] = {0, 0, 0};
    if (clGetKernelWorkGroupInfo(kernel, device, CL_KERNEL_COMPILE_WORK_GROUP_SIZE, sizeof compile, compile,
                                 nullptr) == CL_SUCCESS)
        l.compileWorkGroupSize = {compile[0], compile[1], compile[2]};
    cl_ulong local = 0;
    if (clGetKernelWorkGroupInfo(kernel, device, CL_KERNEL_LOCAL_MEM_SIZE, sizeof local, &local, nullptr) ==
        CL_SUCCESS)
        l.kernelLocalMemSize = local;

    // OpenCL 2.x requires non-uniform work-groups; 3.0 makes them optional; 1.x has none.
    bool deviceSupports = false;
    const auto version = parseOpenCLVersion(deviceInfoString(device, CL_DEVICE_VERSION, "CL_DEVICE_VERSION"));
    if (version && version->major == 2) {
        deviceSupports = true;
    } else if (version && version->major >= 3) {
        cl_bool supported = CL_FALSE;
        deviceSupports = clGetDeviceInfo(device, CL_DEVICE_NON_UNIFORM_WORK_GROUP_SUPPORT, sizeof supported,
                                         &supported, nullptr) == CL_SUCCESS &&
                         supported == CL_TRUE;
    }
    l.nonUniformWorkGroups = deviceSupports && optionsAllowNonUniform(buildOptions);
    return l;
}

namespace {

// Drivers count work-groups in an int: PoCL's pthread scheduler asserted ('get_wg_index_range: Assertion
// max_wgs > 0') on 2^62 work-items in groups of its choice and crashed (SIGSEGV) or never returned on
// 2^63-1. So a launch has at most 2^31-1 work-groups, of the local size given or else of the largest the
// device takes (a driver that picks smaller groups makes more of them: the cap is a floor, not a promise).
void checkGroupCount(const std::vector<std::size_t> &global, const std::vector<std::size_t> &local,
                     const LaunchLimits &limits)
{
    constexpr std::uint64_t kMostGroups = (std::uint64_t(1) << 31) - 1;
    std::uint64_t groups = 1;
    for (std::size_t i = 0; i < global.size(); ++i) {
        const std::uint64_t size =
            local.empty() ? std::max<std::uint64_t>(limits.maxWorkGroupSize, 1) : local[i];
        groups = checkedMul<std::uint64_t>(groups, global[i] / size + (global[i] % size != 0))
                     .value_or(UINT64_MAX);
    }
    if (groups <= kMostGroups)
        return;
    throw RunInputError("global size " + formatSizeList(global) + " is " +
                        (groups == UINT64_MAX ? std::string("more than 2^64") : std::to_string(groups)) +
                        " work-groups of " +
                        (local.empty() ? "the largest size, CL_DEVICE_MAX_WORK_GROUP_SIZE (" +
                                             std::to_string(limits.maxWorkGroupSize) + ")"
                                       : "local size " + formatSizeList(local)) +
                        ", more than the 2147483647 (2^31-1) work-groups a driver counts");
}

} // namespace

NDRange resolveNDRange(const NDRange &range, const LaunchLimits &limits)
{
    NDRange out = range;
    const std::size_t dims = range.global.size();
    const std::string kernel = limits.kernel.empty() ? std::string("the kernel") : "kernel " + limits.kernel;
    if (dims < 1 || dims > 3)
        throw RunInputError("global size needs 1 to 3 dimensions, got " + std::to_string(dims));
    if (dims > limits.maxWorkItemDimensions)
        throw RunInputError("global size " + formatSizeList(range.global) + " has " + std::to_string(dims) +
                            " dimensions, more than CL_DEVICE_MAX_WORK_ITEM_DIMENSIONS (" +
                            std::to_string(limits.maxWorkItemDimensions) + ")");
    for (std::size_t i = 0; i < dims; ++i) {
        if (range.global[i] == 0)
            throw RunInputError("global size " + formatSizeList(range.global) + " is 0 in dimension " +
                                std::to_string(i) + " (every dimension needs at least 1 work-item)");
    }
    if (!range.local.empty() && range.local.size() != dims)
        throw RunInputError("local size " + formatSizeList(range.local) + " has " +
                            std::to_string(range.local.size()) + " dimensions, global size " +
                            formatSizeList(range.global) + " has " + std::to_string(dims));
    if (!range.offset.empty() && range.offset.size() != dims)
        throw RunInputError("offset " + formatSizeList(range.offset) + " has " +
                            std::to_string(range.offset.size()) + " dimensions, global size " +
                            formatSizeList(range.global) + " has " + std::to_string(dims));
    if (out.offset.empty())
        out.offset.assign(dims, 0);
    // The device counts work-items in its own size_t; drivers (PoCL's scheduler among them) count them and
    // their groups as signed numbers, so the range must stay below 2^(bits-1).
    const unsigned bits = limits.addressBits == 0 || limits.addressBits > 64 ? 64u : limits.addressBits;
    const std::uint64_t deviceSizeMax = bits == 64 ? UINT64_MAX : (std::uint64_t(1) << bits) - 1;
    const std::uint64_t countMax = (std::uint64_t(1) << (bits - 1)) - 1;
    const std::string addressBits = " of a device with " + std::to_string(bits) + " address bits " +
                                    "(CL_DEVICE_ADDRESS_BITS " + std::to_string(bits) + ")";
    for (std::size_t i = 0; i < dims; ++i) {
        const auto end = checkedAdd<std::uint64_t>(out.offset[i], range.global[i]);
        if (!end || *end > SIZE_MAX)
            throw RunInputError("offset " + formatSizeList(out.offset) + " plus global size " +
                                formatSizeList(range.global) + " passes the largest size_t in dimension " +
                                std::to_string(i));
        if (*end > deviceSizeMax)
            throw RunInputError("offset " + formatSizeList(out.offset) + " plus global size " +
                                formatSizeList(range.global) + " passes the largest size_t (" +
                                std::to_string(deviceSizeMax) + ")" + addressBits + " in dimension " +
                                std::to_string(i));
    }
    const auto workItems = checkedProduct<std::uint64_t>(range.global);
    if (!workItems || *workItems > countMax)
        throw RunInputError("global size " + formatSizeList(range.global) + " is " +
                            (workItems ? std::to_string(*workItems) : std::string("more than 2^64")) +
                            " work-items, more than the " + std::to_string(countMax) + " (2^" +
                            std::to_string(bits - 1) + "-1)" + addressBits + " can count");

    // reqd_work_group_size: the only local size the kernel runs with, so it is also the default.
    const auto &compiled = limits.compileWorkGroupSize;
    if (compiled[0] || compiled[1] || compiled[2]) {
        const std::vector<std::size_t> required(compiled.begin(), compiled.end());
        for (std::size_t i = dims; i < 3; ++i) {
            if (compiled[i] > 1)
                throw RunInputError(
                    kernel + " requires work-groups of " + formatSizeList(required) +
                    " (CL_KERNEL_COMPILE_WORK_GROUP_SIZE), more dimensions than global size " +
                    formatSizeList(range.global));
        }
        const std::vector<std::size_t> wanted(compiled.begin(), compiled.begin() + std::ptrdiff_t(dims));
        if (out.local.empty())
            out.local = wanted;
        else if (out.local != wanted)
            throw RunInputError("local size " + formatSizeList(out.local) +
                                " differs from the work-group size " + formatSizeList(wanted) + " that " +
                                kernel + " requires (CL_KERNEL_COMPILE_WORK_GROUP_SIZE)");
    }
    if (out.local.empty()) {
        checkGroupCount(range.global, {}, limits);
        return out;
    }

    for (std::size_t i = 0; i < dims; ++i) {
        if (out.local[i] == 0)
            throw RunInputError("local size " + formatSizeList(out.local) + " is 0 in dimension " +
                                std::to_string(i) + " (every dimension needs at least 1 work-item)");
    }
    // Larger than any limit when it does not fit: the messages below then name the limit it passes.
    const std::size_t product = checkedProduct<std::size_t>(out.local).value_or(SIZE_MAX);
    if (limits.maxWorkGroupSize && product > limits.maxWorkGroupSize)
        throw RunInputError(describeLocal(out.local, product) + " exceeds CL_DEVICE_MAX_WORK_GROUP_SIZE (" +
                            std::to_string(limits.maxWorkGroupSize) + ")");
    for (std::size_t i = 0; i < dims && i < limits.maxWorkItemSizes.size(); ++i) {
        if (out.local[i] > limits.maxWorkItemSizes[i])
            throw RunInputError("local size " + std::to_string(out.local[i]) + " in dimension " +
                                std::to_string(i) + " exceeds CL_DEVICE_MAX_WORK_ITEM_SIZES[" +
                                std::to_string(i) + "] (" + std::to_string(limits.maxWorkItemSizes[i]) + ")");
    }
    if (limits.kernelWorkGroupSize && product > limits.kernelWorkGroupSize)
        throw RunInputError(describeLocal(out.local, product) + " exceeds CL_KERNEL_WORK_GROUP_SIZE (" +
                            std::to_string(limits.kernelWorkGroupSize) + ") of " + kernel);
    if (!limits.nonUniformWorkGroups) {
        for (std::size_t i = 0; i < dims; ++i) {
            if (range.global[i] % out.local[i] != 0)
                throw RunInputError("global size " + std::to_string(range.global[i]) +
                                    " is not a multiple of local size " + std::to_string(out.local[i]) +
                                    " in dimension " + std::to_string(i) +
                                    " (non-uniform work-groups need CL_DEVICE_NON_UNIFORM_WORK_GROUP_SUPPORT "
                                    "and -cl-std=CL2.0 "
                                    "or later)");
        }
    }
    // Work-groups times their size: with non-uniform groups the last group of a dimension is rounded up.
    std::vector<std::uint64_t> groups(dims), rounded(dims);
    for (std::size_t i = 0; i < dims; ++i) {
        groups[i] = range.global[i] / out.local[i] + (range.global[i] % out.local[i] != 0);
        rounded[i] = checkedMul<std::uint64_t>(groups[i], out.local[i]).value_or(UINT64_MAX);
    }
    const auto groupCount = checkedProduct<std::uint64_t>(groups);
    const auto roundedItems = checkedProduct<std::uint64_t>(rounded);
    if (!groupCount || !roundedItems || *roundedItems > countMax)
        throw RunInputError("global size " + formatSizeList(range.global) + " in work-groups of " +
                            formatSizeList(out.local) + " is " +
                            (groupCount ? std::to_string(*groupCount) : std::string("more than 2^64")) +
                            " work-groups of " + std::to_string(product) + " work-items, more than the " +
                            std::to_string(countMax) + " work-items" + addressBits + " can count");
    checkGroupCount(range.global, out.local, limits);
    return out;
}

void checkLocalMemory(std::uint64_t localArgBytes, const LaunchLimits &limits)
{
    const auto total = checkedAdd<std::uint64_t>(localArgBytes, limits.kernelLocalMemSize);
    if (limits.localMemSize && (!total || *total > limits.localMemSize))
        throw RunInputError("local memory of " +
                            (total ? std::to_string(*total) : std::string("more than 18446744073709551615")) +
                            " bytes (__local arguments " + std::to_string(localArgBytes) + " + kernel " +
                            std::to_string(limits.kernelLocalMemSize) +
                            ") exceeds CL_DEVICE_LOCAL_MEM_SIZE (" + std::to_string(limits.localMemSize) +
                            ")");
}

void checkLocalMemory(const std::vector<std::uint64_t> &localArgBytes, const LaunchLimits &limits)
{
    const auto sum = checkedSum<std::uint64_t>(localArgBytes);
    if (!sum)
        throw RunInputError("local memory of more than 18446744073709551615 bytes (the __local arguments " +
                            std::string("together) exceeds CL_DEVICE_LOCAL_MEM_SIZE (") +
                            std::to_string(limits.localMemSize) + ")");
    checkLocalMemory(*sum, limits);
}

void checkBufferSizes(const std::vector<std::string> &names, const std::vector<std::uint64_t> &bytes,
                      const LaunchLimits &limits)
{
    std::uint64_t total = 0;
    for (std::size_t i = 0; i < bytes.size(); ++i) {
        if (limits.maxMemAllocSize && bytes[i] > limits.maxMemAllocSize)
            throw RunInputError("buffer " + names[i] + " of " + std::to_string(bytes[i]) +
                                " bytes exceeds CL_DEVICE_MAX_MEM_ALLOC_SIZE (" +
                                std::to_string(limits.maxMemAllocSize) + ")");
        total = checkedAdd<std::uint64_t>(total, bytes[i]).value_or(UINT64_MAX);
    }
    if (limits.globalMemSize && total > limits.globalMemSize)
        throw RunInputError(
            "the buffers take " +
            (total == UINT64_MAX ? std::string("18446744073709551615 or more") : std::to_string(total)) +
            " bytes together, more than " + "CL_DEVICE_GLOBAL_MEM_SIZE (" +
            std::to_string(limits.globalMemSize) + ")");
}

} // namespace clscope
