// The addresses buffers have inside kernels, asked of the device itself: a one-line probe kernel stores its
// pointer argument as a number. On Oclgrind that number is the simulator's global address (the buffer's
// number in the top bits, the offset below), the one its reports of invalid accesses name, so a checked run
// can say which argument an address belongs to (check.h's nameBuffers). Also whether a device is Oclgrind.
#include "clscope/runner.h"

#include "clscope/clhandle.h"
#include "clscope/clquery.h"
#include "clscope/error.h"
#include "clscope/text.h"

#include <cstring>

namespace clscope {
namespace {

constexpr const char *kProbeSource =
    "__kernel void clscope_address_probe(__global const uchar *p, __global ulong *out, const uint i)\n"
    "{\n"
    "    out[i] = (ulong)p;\n"
    "}\n";

void probeCheck(cl_int err, const char *routine)
{
    if (err != CL_SUCCESS)
        throw ClError(routine, err);
}

} // namespace

bool isOclgrindDevice(cl_device_id device)
{
    cl_platform_id platform = nullptr;
    if (!device ||
        clGetDeviceInfo(device, CL_DEVICE_PLATFORM, sizeof platform, &platform, nullptr) != CL_SUCCESS)
        return false;
    return lowerAscii(platformString(platform, CL_PLATFORM_NAME)).find("oclgrind") != std::string::npos;
}

std::vector<std::optional<std::uint64_t>> probeBufferAddresses(cl_context context, cl_device_id device,
                                                               cl_command_queue queue,
                                                               const std::vector<cl_mem> &buffers)
{
    std::vector<std::optional<std::uint64_t>> out(buffers.size());
    std::vector<cl_uint> probed;
    for (std::size_t i = 0; i < buffers.size(); ++i) {
        if (buffers[i])
            probed.push_back(cl_uint(i));
    }
    if (probed.empty())
        return out;
    try {
        cl_int err = CL_SUCCESS;
        const char *source = kProbeSource;
        ClProgram program(clCreateProgramWithSource(context, 1, &source, nullptr, &err));
        probeCheck(err, "clCreateProgramWithSource");
        probeCheck(clBuildProgram(program.get(), 1, &device, "", nullptr, nullptr), "clBuildProgram");
        ClKernel kernel(clCreateKernel(program.get(), "clscope_address_probe", &err));
        probeCheck(err, "clCreateKernel");
        std::vector<cl_ulong> addresses(buffers.size(), 0);
        const std::size_t bytes = addresses.size() * sizeof(cl_ulong);
        ClMem result(clCreateBuffer(context, CL_MEM_READ_WRITE, bytes, nullptr, &err));
        probeCheck(err, "clCreateBuffer");
        cl_mem resultMem = result.get();
        probeCheck(clSetKernelArg(kernel.get(), 1, sizeof resultMem, &resultMem), "clSetKernelArg");
        for (cl_uint i : probed) {
            cl_mem mem = buffers[i];
            probeCheck(clSetKernelArg(kernel.get(), 0, sizeof mem, &mem), "clSetKernelArg");
            probeCheck(clSetKernelArg(kernel.get(), 2, sizeof i, &i), "clSetKernelArg");
            const std::size_t one = 1;
            probeCheck(
                clEnqueueNDRangeKernel(queue, kernel.get(), 1, nullptr, &one, nullptr, 0, nullptr, nullptr),
                "clEnqueueNDRangeKernel");
        }
        probeCheck(
            clEnqueueReadBuffer(queue, resultMem, CL_TRUE, 0, bytes, addresses.data(), 0, nullptr, nullptr),
            "clEnqueueReadBuffer");
        for (cl_uint i : probed)
            out[i] = addresses[i];
    } catch (const ClError &) {
        // A device that cannot run the probe leaves the addresses unknown: reports then keep Oclgrind's text.
        clFinish(queue);
        return std::vector<std::optional<std::uint64_t>>(buffers.size());
    }
    return out;
}

} // namespace clscope
