/* A program for tests/app/tst_capture.cpp and tst_capturereader.cpp: THREADS threads launch a kernel
 * LAUNCHES times in all, each on its own queue (created without profiling) and kernel, into a sub-buffer; an
 * image is written; then the program checks that its queues still report the properties it asked for,
 * prints what it did, and dies of SIGSEGV (with "crash") or exits 0. Usage: testapp LAUNCHES [crash] */
#define CL_TARGET_OPENCL_VERSION 300
#define CL_USE_DEPRECATED_OPENCL_1_2_APIS
#include <CL/cl.h>

#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define THREADS 3

static const char *kSource =
    "__kernel void scale(__global float *a, float f) { a[get_global_id(0)] *= f; }\n";

static cl_context g_context;
static cl_device_id g_device;
static cl_program g_program;
static cl_mem g_sub;
static int g_perThread;
static cl_command_queue g_queues[THREADS];

static void check(cl_int err, const char *what)
{
    if (err != CL_SUCCESS) {
        fprintf(stderr, "testapp: %s failed: %d\n", what, err);
        exit(2);
    }
}

static void *worker(void *arg)
{
    const int t = (int)(size_t)arg;
    cl_int err;
    const cl_queue_properties none[] = {0};
    cl_command_queue q = clCreateCommandQueueWithProperties(g_context, g_device, none, &err);
    check(err, "clCreateCommandQueueWithProperties");
    g_queues[t] = q;
    cl_kernel k = clCreateKernel(g_program, "scale", &err);
    check(err, "clCreateKernel");
    const float f = 2.0f;
    check(clSetKernelArg(k, 0, sizeof g_sub, &g_sub), "clSetKernelArg 0");
    check(clSetKernelArg(k, 1, sizeof f, &f), "clSetKernelArg 1");
    const size_t global = 512, local = 64;
    for (int i = 0; i < g_perThread; ++i) {
        /* No event: the layer must use (and release) its own. */
        check(clEnqueueNDRangeKernel(q, k, 1, NULL, &global, &local, 0, NULL, NULL),
              "clEnqueueNDRangeKernel");
        check(clFinish(q), "clFinish");
    }
    clReleaseKernel(k);
    return NULL;
}

int main(int argc, char **argv)
{
    if (argc < 2) {
        fprintf(stderr, "usage: testapp LAUNCHES [crash]\n");
        return 2;
    }
    const int launches = atoi(argv[1]);
    g_perThread = launches / THREADS;
    cl_platform_id platform;
    cl_int err = clGetPlatformIDs(1, &platform, NULL);
    check(err, "clGetPlatformIDs");
    check(clGetDeviceIDs(platform, CL_DEVICE_TYPE_ALL, 1, &g_device, NULL), "clGetDeviceIDs");
    g_context = clCreateContext(NULL, 1, &g_device, NULL, NULL, &err);
    check(err, "clCreateContext");
    g_program = clCreateProgramWithSource(g_context, 1, &kSource, NULL, &err);
    check(err, "clCreateProgramWithSource");
    check(clBuildProgram(g_program, 1, &g_device, "-cl-fast-relaxed-math", NULL, NULL), "clBuildProgram");

    cl_mem buffer = clCreateBuffer(g_context, CL_MEM_READ_WRITE, 1024 * sizeof(float), NULL, &err);
    check(err, "clCreateBuffer");
    const cl_buffer_region region = {512 * sizeof(float), 512 * sizeof(float)};
    g_sub = clCreateSubBuffer(buffer, CL_MEM_READ_WRITE, CL_BUFFER_CREATE_TYPE_REGION, &region, &err);
    check(err, "clCreateSubBuffer");
    cl_command_queue main = clCreateCommandQueue(g_context, g_device, 0, &err);
    check(err, "clCreateCommandQueue");
    float ones[1024];
    for (int i = 0; i < 1024; ++i)
        ones[i] = 1.0f;
    check(clEnqueueWriteBuffer(main, buffer, CL_TRUE, 0, sizeof ones, ones, 0, NULL, NULL),
          "clEnqueueWriteBuffer");

    const cl_image_format format = {CL_RGBA, CL_UNORM_INT8};
    cl_image_desc desc;
    memset(&desc, 0, sizeof desc);
    desc.image_type = CL_MEM_OBJECT_IMAGE2D;
    desc.image_width = 16;
    desc.image_height = 16;
    cl_mem image = clCreateImage(g_context, CL_MEM_READ_ONLY, &format, &desc, NULL, &err);
    check(err, "clCreateImage");
    unsigned char pixels[16 * 16 * 4];
    memset(pixels, 7, sizeof pixels);
    const size_t origin[3] = {0, 0, 0}, extent[3] = {16, 16, 1};
    cl_event written;
    check(clEnqueueWriteImage(main, image, CL_TRUE, origin, extent, 0, 0, pixels, 0, NULL, &written),
          "clEnqueueWriteImage");
    /* The queue has no profiling: the program must be told so, layer or not. */
    cl_ulong t;
    if (clGetEventProfilingInfo(written, CL_PROFILING_COMMAND_END, sizeof t, &t, NULL) !=
        CL_PROFILING_INFO_NOT_AVAILABLE) {
        fprintf(stderr, "testapp: profiling info available on a queue without profiling\n");
        return 3;
    }
    clReleaseEvent(written);

    pthread_t threads[THREADS];
    for (int i = 0; i < THREADS; ++i)
        pthread_create(&threads[i], NULL, worker, (void *)(size_t)i);
    for (int i = 0; i < THREADS; ++i)
        pthread_join(threads[i], NULL);

    cl_command_queue_properties props = 1;
    check(clGetCommandQueueInfo(main, CL_QUEUE_PROPERTIES, sizeof props, &props, NULL),
          "clGetCommandQueueInfo");
    for (int i = 0; i < THREADS && props == 0; ++i)
        check(clGetCommandQueueInfo(g_queues[i], CL_QUEUE_PROPERTIES, sizeof props, &props, NULL),
              "clGetCommandQueueInfo");
    size_t arraySize = 1;
    check(clGetCommandQueueInfo(g_queues[0], CL_QUEUE_PROPERTIES_ARRAY, 0, NULL, &arraySize),
          "clGetCommandQueueInfo");
    float out[1024];
    check(clEnqueueReadBuffer(main, buffer, CL_TRUE, 0, sizeof out, out, 0, NULL, NULL),
          "clEnqueueReadBuffer");
    printf("launches %d properties %lu array %zu first %g last %g\n", g_perThread * THREADS,
           (unsigned long)props, arraySize, out[0], out[1023]);
    fflush(stdout);
    if (argc > 2 && strcmp(argv[2], "crash") == 0) {
        volatile int *nowhere = NULL;
        *nowhere = 1;
    }
    for (int i = 0; i < THREADS; ++i)
        clReleaseCommandQueue(g_queues[i]);
    clReleaseCommandQueue(main);
    clReleaseMemObject(image);
    clReleaseMemObject(g_sub);
    clReleaseMemObject(buffer);
    clReleaseProgram(g_program);
    clReleaseContext(g_context);
    return 0;
}
