/* The capture-overhead benchmark of docs/benchmarks.md: N launches of an empty kernel on one queue, the
 * host time of the enqueue calls alone per launch, then the time until clFinish returns. Run it plain and
 * under clscope-cli capture to see what the layer adds per clEnqueueNDRangeKernel. With "events", the
 * program itself asks for profiling and an event per launch (what the layer asks of the driver).
 * Usage: launchloop N [events] */
#define CL_TARGET_OPENCL_VERSION 300
#include <CL/cl.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static double nowNs(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec * 1e9 + ts.tv_nsec;
}

static void check(cl_int err, const char *what)
{
    if (err != CL_SUCCESS) {
        fprintf(stderr, "launchloop: %s failed: %d\n", what, err);
        exit(2);
    }
}

int main(int argc, char **argv)
{
    const long n = argc > 1 ? atol(argv[1]) : 100000;
    cl_platform_id platform;
    cl_device_id device;
    cl_int err;
    check(clGetPlatformIDs(1, &platform, NULL), "clGetPlatformIDs");
    check(clGetDeviceIDs(platform, CL_DEVICE_TYPE_ALL, 1, &device, NULL), "clGetDeviceIDs");
    cl_context context = clCreateContext(NULL, 1, &device, NULL, NULL, &err);
    check(err, "clCreateContext");
    const int events = argc > 2 && strcmp(argv[2], "events") == 0;
    const cl_queue_properties profiling[] = {CL_QUEUE_PROPERTIES, CL_QUEUE_PROFILING_ENABLE, 0};
    cl_command_queue queue =
        clCreateCommandQueueWithProperties(context, device, events ? profiling : NULL, &err);
    check(err, "clCreateCommandQueueWithProperties");
    const char *source = "__kernel void empty(void) {}";
    cl_program program = clCreateProgramWithSource(context, 1, &source, NULL, &err);
    check(err, "clCreateProgramWithSource");
    check(clBuildProgram(program, 1, &device, NULL, NULL, NULL), "clBuildProgram");
    cl_kernel kernel = clCreateKernel(program, "empty", &err);
    check(err, "clCreateKernel");
    const size_t global = 1;
    for (int i = 0; i < 1000; ++i) /* warm up */
        check(clEnqueueNDRangeKernel(queue, kernel, 1, NULL, &global, NULL, 0, NULL, NULL), "warm-up");
    check(clFinish(queue), "clFinish");
    const double t0 = nowNs();
    for (long i = 0; i < n; ++i)
        check(clEnqueueNDRangeKernel(queue, kernel, 1, NULL, &global, NULL, 0, NULL, NULL),
              "clEnqueueNDRangeKernel");
    const double t1 = nowNs();
    check(clFinish(queue), "clFinish");
    const double t2 = nowNs();
    printf("launches %ld enqueue_ns_per_launch %.1f total_ms %.1f\n", n, (t1 - t0) / n, (t2 - t0) / 1e6);
    fflush(stdout); /* before exit: a test reads it while the layer still holds the program */
    clReleaseKernel(kernel);
    clReleaseProgram(program);
    clReleaseCommandQueue(queue);
    clReleaseContext(context);
    return 0;
}
