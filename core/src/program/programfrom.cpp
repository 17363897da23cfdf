// Programs from SPIR-V, from device binaries and from a device's built-in kernels, finished as builds from
// source are (programbuild.h); the binaries of a built program.
#include "programbuild.h"

#include "clquery.h"
#include "clscope/error.h"
#include "clscope/programsource.h"
#include "clscope/text.h"

#include <algorithm>
#include <utility>

namespace clscope {

using namespace detail;

BuildResult buildProgramFromIL(const BuildRequest &request, std::span<const unsigned char> il)
{
    Prepared p = prepare(request, false);
    p.subject = compileSubject(request.sourcePath, "SPIR-V", il.size());
    for (size_t i = 0; i < request.devices.size(); ++i) {
        // A device below OpenCL 2.1 rejects the query itself, which also means no SPIR-V.
        const std::string versions = deviceString(request.devices[i], CL_DEVICE_IL_VERSION);
        if (versions.find("SPIR-V") == std::string::npos)
            throw BuildInputError("device " + p.deviceNames[i] + " does not accept SPIR-V",
                                  ErrorCategory::Failure);
    }
    const auto started = Clock::now();
    ClContext context = makeContext(request);
    cl_int err = CL_SUCCESS;
    ClProgram program(clCreateProgramWithIL(context.get(), il.data(), il.size(), &err));
    if (err == CL_INVALID_VALUE || err == CL_INVALID_BINARY) {
        Attempt refused;
        refused.error = CL_INVALID_BINARY;
        for (size_t i = 0; i < request.devices.size(); ++i)
            refused.logs.push_back({request.devices[i], p.deviceNames[i],
                                    "clCreateProgramWithIL failed: " + errorLabel(err), false,
                                    CacheState::Off});
        return finish(request, p, context, program, std::move(refused), CacheState::Off, started);
    }
    check(err, "clCreateProgramWithIL");
    Attempt a = runBuild(program.get(), request, p, p.options);
    return finish(request, p, context, program, std::move(a), CacheState::Off, started);
}

BuildResult buildProgramFromBinaries(const BuildRequest &request,
                                     const std::vector<std::vector<unsigned char>> &binaries)
{
    Prepared p = prepare(request, false);
    p.subject =
        compileSubject(request.sourcePath, "a device binary", binaries.empty() ? 0 : binaries[0].size());
    if (binaries.size() != request.devices.size())
        throw BuildInputError("one binary per device is needed (" + std::to_string(binaries.size()) +
                              " for " + std::to_string(request.devices.size()) + " devices)");
    const auto started = Clock::now();
    ClContext context = makeContext(request);
    std::vector<size_t> sizes;
    std::vector<const unsigned char *> pointers;
    for (const auto &b : binaries) {
        sizes.push_back(b.size());
        pointers.push_back(b.data());
    }
    std::vector<cl_int> status(binaries.size(), CL_SUCCESS);
    cl_int err = CL_SUCCESS;
    ClProgram program(clCreateProgramWithBinary(context.get(), cl_uint(request.devices.size()),
                                                request.devices.data(), sizes.data(), pointers.data(),
                                                status.data(), &err));
    if (err == CL_INVALID_BINARY || err == CL_INVALID_VALUE) {
        Attempt refused;
        refused.error = CL_INVALID_BINARY;
        for (size_t i = 0; i < request.devices.size(); ++i) {
            const cl_int s = status[i] != CL_SUCCESS ? status[i] : err;
            refused.logs.push_back({request.devices[i], p.deviceNames[i],
                                    "clCreateProgramWithBinary failed: " + errorLabel(s), false,
                                    CacheState::Off});
        }
        program.reset();
        return finish(request, p, context, program, std::move(refused), CacheState::Off, started);
    }
    check(err, "clCreateProgramWithBinary");
    Attempt a = runBuild(program.get(), request, p, p.options);
    return finish(request, p, context, program, std::move(a), CacheState::Off, started);
}

BuildResult buildProgramFromBuiltIns(const BuildRequest &request, const std::string &names)
{
    Prepared p = prepare(request, false);
    const auto started = Clock::now();
    ClContext context = makeContext(request);
    // The driver's answer to an unknown name is a bare INVALID_VALUE: say which name and what there is.
    Attempt a;
    for (size_t i = 0; i < request.devices.size(); ++i) {
        const std::string have = deviceString(request.devices[i], CL_DEVICE_BUILT_IN_KERNELS);
        std::vector<std::string> available;
        for (std::size_t start = 0; start <= have.size();) {
            const std::size_t end = std::min(have.find(';', start), have.size());
            if (end > start)
                available.emplace_back(trimSpace(std::string_view(have).substr(start, end - start)));
            start = end + 1;
        }
        std::string missing;
        for (std::size_t start = 0; start <= names.size();) {
            const std::size_t end = std::min(names.find(';', start), names.size());
            const std::string name(trimSpace(std::string_view(names).substr(start, end - start)));
            if (!name.empty() && std::find(available.begin(), available.end(), name) == available.end())
                missing += (missing.empty() ? "" : ", ") + name;
            start = end + 1;
        }
        DeviceBuildLog log{request.devices[i], p.deviceNames[i], {}, missing.empty(), CacheState::Off};
        if (!missing.empty()) {
            log.log = "no built-in kernel " + missing +
                      " on this device (it has: " + (have.empty() ? std::string("none") : have) + ")";
            a.error = CL_INVALID_VALUE;
        }
        a.logs.push_back(std::move(log));
    }
    ClProgram program;
    std::string failure;
    for (const DeviceBuildLog &log : a.logs)
        failure += (failure.empty() || log.log.empty() ? "" : "; ") + log.log;
    if (a.error == CL_SUCCESS) {
        cl_int err = CL_SUCCESS;
        program.reset(clCreateProgramWithBuiltInKernels(context.get(), cl_uint(request.devices.size()),
                                                        request.devices.data(), names.c_str(), &err));
        check(err, "clCreateProgramWithBuiltInKernels");
        // Nothing to compile, but PoCL makes the program executable only in clBuildProgram (no options: the
        // build's options are for sources).
        a = runBuild(program.get(), request, p, std::string());
    }
    p.options.clear();
    return finish(request, p, context, program, std::move(a), CacheState::Off, started, {}, {}, {}, failure);
}

bool isSpirv(std::span<const unsigned char> bytes)
{
    if (bytes.size() < 4) // the magic number is the first word; the driver judges the rest
        return false;
    const std::uint32_t little = std::uint32_t(bytes[0]) | std::uint32_t(bytes[1]) << 8 |
                                 std::uint32_t(bytes[2]) << 16 | std::uint32_t(bytes[3]) << 24;
    return little == 0x07230203u || little == 0x03022307u;
}

namespace {

// The program's devices in its own order, which need not be the caller's, with the size of each binary.
struct ProgramDeviceSizes
{
    std::vector<cl_device_id> order;
    std::vector<size_t> sizes;
};

ProgramDeviceSizes programDeviceSizes(cl_program program)
{
    cl_uint count = 0;
    check(clGetProgramInfo(program, CL_PROGRAM_NUM_DEVICES, sizeof count, &count, nullptr),
          "clGetProgramInfo", "CL_PROGRAM_NUM_DEVICES");
    ProgramDeviceSizes p;
    p.order.resize(checkReported(count, kMaxDevices, "CL_PROGRAM_NUM_DEVICES", "devices"));
    check(
        clGetProgramInfo(program, CL_PROGRAM_DEVICES, count * sizeof(cl_device_id), p.order.data(), nullptr),
        "clGetProgramInfo", "CL_PROGRAM_DEVICES");
    p.sizes.resize(count);
    check(clGetProgramInfo(program, CL_PROGRAM_BINARY_SIZES, count * sizeof(size_t), p.sizes.data(), nullptr),
          "clGetProgramInfo", "CL_PROGRAM_BINARY_SIZES");
    return p;
}

// The index of d in the program's order; order.size() when the program was not built for it.
std::size_t indexOf(const ProgramDeviceSizes &p, cl_device_id d)
{
    return std::size_t(std::find(p.order.begin(), p.order.end(), d) - p.order.begin());
}

} // namespace

std::vector<std::size_t> programBinarySizes(cl_program program, const std::vector<cl_device_id> &devices)
{
    const ProgramDeviceSizes p = programDeviceSizes(program);
    std::vector<std::size_t> out;
    for (cl_device_id d : devices) {
        const std::size_t i = indexOf(p, d);
        out.push_back(i < p.sizes.size() ? p.sizes[i] : 0);
    }
    return out;
}

std::vector<std::vector<unsigned char>> programBinaries(cl_program program,
                                                        const std::vector<cl_device_id> &devices)
{
    const ProgramDeviceSizes p = programDeviceSizes(program);
    const std::size_t count = p.order.size();
    std::vector<std::vector<unsigned char>> all(count);
    std::vector<unsigned char *> pointers(count);
    for (std::size_t i = 0; i < count; ++i) {
        all[i].resize(checkReported(p.sizes[i], kMaxBinaryBytes, "CL_PROGRAM_BINARY_SIZES", "bytes"));
        pointers[i] = p.sizes[i] ? all[i].data() : nullptr;
    }
    check(clGetProgramInfo(program, CL_PROGRAM_BINARIES, count * sizeof(unsigned char *), pointers.data(),
                           nullptr),
          "clGetProgramInfo", "CL_PROGRAM_BINARIES");
    std::vector<std::vector<unsigned char>> out;
    for (cl_device_id d : devices) {
        const std::size_t i = indexOf(p, d);
        out.push_back(i < count ? std::move(all[i]) : std::vector<unsigned char>());
    }
    return out;
}

namespace {
// One table for both directions, in the capture format's words.
constexpr std::pair<ProgramKind, std::string_view> kProgramKindNames[] = {
    {ProgramKind::Source, "source"},
    {ProgramKind::Il, "il"},
    {ProgramKind::Binary, "binary"},
    {ProgramKind::BuiltIns, "built-in"},
};
} // namespace

std::string_view programKindName(ProgramKind kind)
{
    for (const auto &[k, name] : kProgramKindNames) {
        if (k == kind)
            return name;
    }
    return "source";
}

std::optional<ProgramKind> parseProgramKind(std::string_view name)
{
    for (const auto &[k, word] : kProgramKindNames) {
        if (word == name)
            return k;
    }
    return std::nullopt;
}

ProgramKind programFileKind(std::span<const unsigned char> bytes, ProgramKind otherwise)
{
    return isSpirv(bytes) ? ProgramKind::Il : otherwise;
}

BuildResult buildProgramSource(const ProgramSource &program, BuildRequest request, const BinaryCache &cache)
{
    switch (program.kind) {
    case ProgramKind::BuiltIns:
        return buildProgramFromBuiltIns(request, program.builtIns);
    case ProgramKind::Il:
        request.source.clear(); // the driver describes the kernels of SPIR-V and of a binary
        return buildProgramFromIL(request, program.bytes);
    case ProgramKind::Binary:
        request.source.clear();
        return buildProgramFromBinaries(
            request, std::vector<std::vector<unsigned char>>(request.devices.size(), program.bytes));
    case ProgramKind::Source:
        break;
    }
    return buildProgram(request, cache);
}

} // namespace clscope
