/* The capture-overhead benchmark of docs/benchmarks.md: N launches of an empty kernel on one queue, the
 * host time of the enqueue calls alone per launch, then the time until clFinish returns. Run it plain and
 * under clscope-cli capture to see what the layer adds per clEnqueueNDRangeKernel. The modes do, without
 * the layer, each part of what the layer asks of the driver, to tell which part costs:
 *   plain        no profiling, no events (the default)
 *   profiling    a queue with CL_QUEUE_PROFILING_ENABLE, no events
 *   events       that queue and an event per launch, released at once
 *   events-held  that queue and an event per launch, all held until the loop ends, then released
 *   events-noprof  an event per launch, released at once, on a queue without profiling
 *   events-poll  that queue and an event per launch, handed to a second thread that asks each one's status
 *                and its four timestamps once it is complete and then releases it, as the layer's writer
 * Usage: launchloop N [plain|profiling|events|events-poll] */
#define CL_TARGET_OPENCL_VERSION 300
#include <CL/cl.h>

#include <pthread.h>
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

/* events-poll: a ring of events from the enqueuing thread to the polling one. */
enum { kRing = 1 << 16 };
static cl_event ring[kRing];
static volatile long produced, consumed;
static volatile int stop;

static void *poller(void *unused)
{
    (void)unused;
    const struct timespec period = {0, 1000000}; /* the layer's writer wakes every millisecond too */
    for (;;) {
        const long end = __atomic_load_n(&produced, __ATOMIC_ACQUIRE);
        long at = consumed;
        while (at < end) {
            cl_event e = ring[at % kRing];
            cl_int status = CL_QUEUED;
            clGetEventInfo(e, CL_EVENT_COMMAND_EXECUTION_STATUS, sizeof status, &status, NULL);
            if (status > CL_COMPLETE)
                break; /* later ones on an in-order queue are not done either */
            cl_ulong t[4];
            const cl_profiling_info names[4] = {CL_PROFILING_COMMAND_QUEUED, CL_PROFILING_COMMAND_SUBMIT,
                                                CL_PROFILING_COMMAND_START, CL_PROFILING_COMMAND_END};
            for (int i = 0; i < 4; ++i)
                clGetEventProfilingInfo(e, names[i], sizeof t[i], &t[i], NULL);
            clReleaseEvent(e);
            ++at;
        }
        __atomic_store_n(&consumed, at, __ATOMIC_RELEASE);
        if (stop && at == __atomic_load_n(&produced, __ATOMIC_ACQUIRE))
            return NULL;
        nanosleep(&period, NULL);
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
    const char *mode = argc > 2 ? argv[2] : "plain";
    const int noprof = strcmp(mode, "events-noprof") == 0, held = strcmp(mode, "events-held") == 0;
    const int events = strcmp(mode, "events") == 0 || noprof, poll = strcmp(mode, "events-poll") == 0;
    const int profile = (events && !noprof) || held || poll || strcmp(mode, "profiling") == 0;
    if (!profile && !noprof && strcmp(mode, "plain") != 0) {
        fprintf(stderr,
                "launchloop: unknown mode %s (plain, profiling, events, events-held, events-noprof, "
                "events-poll)\n",
                mode);
        return 2;
    }
    const cl_queue_properties profiling[] = {CL_QUEUE_PROPERTIES, CL_QUEUE_PROFILING_ENABLE, 0};
    cl_command_queue queue =
        clCreateCommandQueueWithProperties(context, device, profile ? profiling : NULL, &err);
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
    cl_event *kept = held ? malloc(sizeof(cl_event) * (size_t)n) : NULL;
    if (held && !kept) {
        fprintf(stderr, "launchloop: no memory for %ld events\n", n);
        return 2;
    }
    pthread_t thread;
    if (poll && pthread_create(&thread, NULL, poller, NULL) != 0) {
        fprintf(stderr, "launchloop: no polling thread\n");
        return 2;
    }
    const double t0 = nowNs();
    for (long i = 0; i < n; ++i) {
        cl_event event = NULL;
        if (poll) /* the ring is full: wait for the poller, as the layer never does (its deque grows) */
            while (produced - __atomic_load_n(&consumed, __ATOMIC_ACQUIRE) >= kRing)
                ;
        check(clEnqueueNDRangeKernel(queue, kernel, 1, NULL, &global, NULL, 0, NULL,
                                     events || poll || held ? &event : NULL),
              "clEnqueueNDRangeKernel");
        if (events)
            clReleaseEvent(event);
        if (held)
            kept[i] = event;
        if (poll) {
            ring[produced % kRing] = event;
            __atomic_store_n(&produced, produced + 1, __ATOMIC_RELEASE);
        }
    }
    const double t1 = nowNs();
    check(clFinish(queue), "clFinish");
    const double t2 = nowNs();
    if (held) {
        for (long i = 0; i < n; ++i)
            clReleaseEvent(kept[i]);
        free(kept);
    }
    if (poll) {
        stop = 1;
        pthread_join(thread, NULL);
    }
    printf("launches %ld mode %s enqueue_ns_per_launch %.1f total_ms %.1f\n", n, mode, (t1 - t0) / n,
           (t2 - t0) / 1e6);
    fflush(stdout); /* before exit: a test reads it while the layer still holds the program */
    clReleaseKernel(kernel);
    clReleaseProgram(program);
    clReleaseCommandQueue(queue);
    clReleaseContext(context);
    return 0;
}
