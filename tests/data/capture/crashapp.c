/* A program for tests/app/tst_capturesafety.cpp: N launches of a small kernel on one queue without events,
 * then, as MODE says:
 *   abort          abort() at once (no clFinish: the launches are still in the layer's buffer)
 *   term           raise(SIGTERM) at once, its action the default (as kill PID does to most programs)
 *   crash-finished the launches wait for a user event, set after the loop, so that they all finish together
 *                  in clFinish; then SIGSEGV at once (their device times are known, not yet read)
 *   abort-finished the same, then abort()
 *   wait           clFinish, print "ready PID", then wait for a signal (the default action ends it)
 *   exit           clFinish, exit 0
 * The kernel's buffer holds BYTES (default 256). Usage: crashapp N MODE [BYTES] */
#define CL_TARGET_OPENCL_VERSION 300
#include <CL/cl.h>

#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static const char *kSource = "__kernel void add(__global int *a) { a[get_global_id(0)] += 1; }\n";

static void check(cl_int err, const char *what)
{
    if (err != CL_SUCCESS) {
        fprintf(stderr, "crashapp: %s failed: %d\n", what, err);
        exit(2);
    }
}

int main(int argc, char **argv)
{
    if (argc < 3) {
        fprintf(stderr, "usage: crashapp N abort|term|crash-finished|abort-finished|wait|exit [BYTES]\n");
        return 2;
    }
    const int n = atoi(argv[1]);
    const char *mode = argv[2];
    const size_t bytes = argc > 3 ? (size_t)atol(argv[3]) : 256;
    cl_platform_id platform;
    cl_device_id device;
    cl_int err;
    check(clGetPlatformIDs(1, &platform, NULL), "clGetPlatformIDs");
    check(clGetDeviceIDs(platform, CL_DEVICE_TYPE_ALL, 1, &device, NULL), "clGetDeviceIDs");
    cl_context context = clCreateContext(NULL, 1, &device, NULL, NULL, &err);
    check(err, "clCreateContext");
    cl_command_queue queue = clCreateCommandQueueWithProperties(context, device, NULL, &err);
    check(err, "clCreateCommandQueueWithProperties");
    cl_program program = clCreateProgramWithSource(context, 1, &kSource, NULL, &err);
    check(err, "clCreateProgramWithSource");
    check(clBuildProgram(program, 1, &device, "", NULL, NULL), "clBuildProgram");
    cl_kernel kernel = clCreateKernel(program, "add", &err);
    check(err, "clCreateKernel");
    cl_mem buffer = clCreateBuffer(context, CL_MEM_READ_WRITE, bytes, NULL, &err);
    check(err, "clCreateBuffer");
    check(clSetKernelArg(kernel, 0, sizeof buffer, &buffer), "clSetKernelArg");
    const size_t global = bytes / sizeof(int);
    const int gated = strstr(mode, "-finished") != NULL;
    cl_event gate = NULL;
    if (gated) {
        gate = clCreateUserEvent(context, &err);
        check(err, "clCreateUserEvent");
    }
    for (int i = 0; i < n; ++i)
        check(clEnqueueNDRangeKernel(queue, kernel, 1, NULL, &global, NULL, gated && i == 0 ? 1 : 0,
                                     gated && i == 0 ? &gate : NULL, NULL),
              "clEnqueueNDRangeKernel");
    if (gated)
        check(clSetUserEventStatus(gate, CL_COMPLETE), "clSetUserEventStatus");
    if (strcmp(mode, "abort") == 0)
        abort();
    if (strcmp(mode, "term") == 0)
        raise(SIGTERM);
    check(clFinish(queue), "clFinish");
    if (strcmp(mode, "exit") == 0)
        return 0;
    if (strcmp(mode, "abort-finished") == 0)
        abort();
    if (strcmp(mode, "crash-finished") == 0) {
        volatile int *nowhere = NULL;
        *nowhere = 1;
    }
    printf("ready %d\n", (int)getpid());
    fflush(stdout);
    for (;;)
        pause();
}
