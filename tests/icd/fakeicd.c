/* Broken OpenCL drivers (ICDs) for the probe tests (docs/reliability.md, item 7). One source, built once per
 * way of breaking (tests/CMakeLists.txt defines one of the FAKEICD_* macros):
 *   FAKEICD_crash_platforms   segfaults in clIcdGetPlatformIDsKHR (the loader's first call into it)
 *   FAKEICD_hang_platforms    never returns from clIcdGetPlatformIDsKHR
 *   FAKEICD_crash_deviceinfo  lists a platform and a device, then segfaults in clGetDeviceInfo
 *   FAKEICD_hang_deviceinfo   lists a platform and a device, then never returns from clGetDeviceInfo
 *   FAKEICD_lying             two platforms that report absurd sizes: one a billion devices, the other
 *                             param_value_size_ret = SIZE_MAX/2 (and 1e9) for strings, arrays and numbers
 *   FAKEICD_quirky            a working device that answers as NVIDIA's 580 driver does on an H200: it
 *                             lists cl_khr_semaphore but refuses CL_{PLATFORM,DEVICE}_SEMAPHORE_TYPES_KHR
 *                             with CL_INVALID_VALUE, and says CL_DEVICE_LUID_VALID_KHR is false while
 *                             CL_DEVICE_LUID_KHR returns bytes left from its previous answer; and reports 0
 *                             bytes for CL_PLATFORM_SEMAPHORE_EXPORT_HANDLE_TYPES_KHR, then refuses the read
 * What ocl-icd needs from a driver: clIcdGetPlatformIDsKHR, clGetExtensionFunctionAddress and
 * clGetPlatformInfo exported, cl_khr_icd in CL_PLATFORM_EXTENSIONS, an ICD suffix, and objects whose first
 * member points at the dispatch table (CL/cl_icd.h). Only the entries the tests reach are filled. */
#include <CL/cl_icd.h>

#include <signal.h>
#include <stdint.h>
#include <string.h>
#include <unistd.h>

struct _cl_platform_id
{
    cl_icd_dispatch *dispatch;
    int lies_about_devices;
};

struct _cl_device_id
{
    cl_icd_dispatch *dispatch;
};

static cl_icd_dispatch dispatch;
static struct _cl_platform_id platforms[2] = {{&dispatch, 0}, {&dispatch, 1}};
static struct _cl_device_id device = {&dispatch};

#if defined(FAKEICD_lying)
static const cl_uint platform_count = 2;
#else
static const cl_uint platform_count = 1;
#endif

__attribute__((unused)) static void crash(void)
{
    volatile int *volatile nowhere = 0;
    *nowhere = 1;
}

__attribute__((unused)) static void hang(void)
{
    for (;;)
        pause();
}

static cl_int answer(const void *data, size_t n, size_t size, void *value, size_t *size_ret)
{
    if (value) {
        if (size < n)
            return CL_INVALID_VALUE;
        memcpy(value, data, n);
    }
    if (size_ret)
        *size_ret = n;
    return CL_SUCCESS;
}

static cl_int text(const char *s, size_t size, void *value, size_t *size_ret)
{
    return answer(s, strlen(s) + 1, size, value, size_ret);
}

/* A size it never has the bytes for: any read is refused. */
static cl_int lie(size_t claimed, void *value, size_t *size_ret)
{
    if (value)
        return CL_INVALID_VALUE;
    if (size_ret)
        *size_ret = claimed;
    return CL_SUCCESS;
}

static cl_int CL_API_CALL fake_get_platform_ids(cl_uint num_entries, cl_platform_id *out,
                                                cl_uint *num_platforms)
{
#if defined(FAKEICD_crash_platforms)
    crash();
#elif defined(FAKEICD_hang_platforms)
    hang();
#endif
    if (num_platforms)
        *num_platforms = platform_count;
    for (cl_uint i = 0; out && i < num_entries && i < platform_count; ++i)
        out[i] = &platforms[i];
    return CL_SUCCESS;
}

static cl_int CL_API_CALL fake_get_platform_info(cl_platform_id platform, cl_platform_info param, size_t size,
                                                 void *value, size_t *size_ret)
{
    const int liar = platform_count == 2;
    switch (param) {
    case CL_PLATFORM_EXTENSIONS:
#if defined(FAKEICD_quirky)
        return text("cl_khr_icd cl_khr_semaphore cl_khr_external_semaphore", size, value, size_ret);
#else
        return text("cl_khr_icd", size, value, size_ret);
#endif
    case CL_PLATFORM_ICD_SUFFIX_KHR:
        return text("FAKE", size, value, size_ret);
    case CL_PLATFORM_NAME:
#if defined(FAKEICD_quirky)
        return text("Fake quirky platform", size, value, size_ret);
#endif
        if (liar)
            return text(platform->lies_about_devices ? "Fake lying platform (devices)"
                                                     : "Fake lying platform (sizes)",
                        size, value, size_ret);
        return text("Fake broken platform", size, value, size_ret);
    case CL_PLATFORM_VENDOR:
        return text("CLScope tests", size, value, size_ret);
    case CL_PLATFORM_VERSION:
        return text("OpenCL 1.2 fake", size, value, size_ret);
#if defined(FAKEICD_quirky)
    case CL_PLATFORM_SEMAPHORE_EXPORT_HANDLE_TYPES_KHR:
        /* As NVIDIA's: no bytes to give, and a read of them refused. */
        if (value)
            return CL_INVALID_VALUE;
        if (size_ret)
            *size_ret = 0;
        return CL_SUCCESS;
#endif
    case CL_PLATFORM_PROFILE:
        if (liar && !platform->lies_about_devices)
            return lie(SIZE_MAX / 2, value, size_ret);
        return text("FULL_PROFILE", size, value, size_ret);
    default:
        return CL_INVALID_VALUE;
    }
}

static cl_int CL_API_CALL fake_get_device_ids(cl_platform_id platform, cl_device_type type,
                                              cl_uint num_entries, cl_device_id *out, cl_uint *num_devices)
{
    if (!(type & CL_DEVICE_TYPE_ACCELERATOR))
        return CL_DEVICE_NOT_FOUND;
    if (num_devices)
        *num_devices = platform->lies_about_devices ? 1000000000u : 1u;
    if (out && num_entries > 0)
        out[0] = &device;
    return CL_SUCCESS;
}

#if defined(FAKEICD_quirky)
/* The last string answered, as the driver's scratch buffer that CL_DEVICE_LUID_KHR copies from. */
static char scratch[64];

static cl_int remembered(const char *s, size_t size, void *value, size_t *size_ret)
{
    strncpy(scratch, s, sizeof scratch - 1);
    return text(s, size, value, size_ret);
}

static cl_int quirky_device_info(cl_device_info param, size_t size, void *value, size_t *size_ret)
{
    const cl_device_type type = CL_DEVICE_TYPE_ACCELERATOR;
    const cl_bool yes = CL_TRUE, no = CL_FALSE;
    const cl_uint one = 1, three = 3;
    const size_t sizes[3] = {64, 1, 1};
    const size_t sixty_four = 64;
    const cl_ulong mem = 1u << 30;
    switch (param) {
    case CL_DEVICE_NAME:
        return remembered("Fake quirky device", size, value, size_ret);
    case CL_DEVICE_VENDOR:
        return remembered("CLScope tests", size, value, size_ret);
    case CL_DEVICE_VERSION:
        return remembered("OpenCL 1.2 fake", size, value, size_ret);
    case CL_DRIVER_VERSION:
        return remembered("1.0", size, value, size_ret);
    case CL_DEVICE_PROFILE:
        return remembered("FULL_PROFILE", size, value, size_ret);
    case CL_DEVICE_EXTENSIONS:
        return remembered("cl_khr_semaphore cl_khr_device_uuid", size, value, size_ret);
    case CL_DEVICE_TYPE:
        return answer(&type, sizeof type, size, value, size_ret);
    case CL_DEVICE_AVAILABLE:
    case CL_DEVICE_COMPILER_AVAILABLE:
        return answer(&yes, sizeof yes, size, value, size_ret);
    case CL_DEVICE_PLATFORM: {
        const cl_platform_id mine = &platforms[0];
        return answer(&mine, sizeof mine, size, value, size_ret);
    }
    case CL_DEVICE_MAX_COMPUTE_UNITS:
        return answer(&one, sizeof one, size, value, size_ret);
    case CL_DEVICE_MAX_WORK_ITEM_DIMENSIONS:
        return answer(&three, sizeof three, size, value, size_ret);
    case CL_DEVICE_MAX_WORK_ITEM_SIZES:
        return answer(sizes, sizeof sizes, size, value, size_ret);
    case CL_DEVICE_MAX_WORK_GROUP_SIZE:
        return answer(&sixty_four, sizeof sixty_four, size, value, size_ret);
    case CL_DEVICE_GLOBAL_MEM_SIZE:
    case CL_DEVICE_MAX_MEM_ALLOC_SIZE:
        return answer(&mem, sizeof mem, size, value, size_ret);
    case CL_DEVICE_LUID_VALID_KHR:
        return answer(&no, sizeof no, size, value, size_ret);
    case CL_DEVICE_LUID_KHR:
        /* What the driver did on the H200: CL_SUCCESS and eight bytes of whatever it last wrote. */
        return answer(scratch, CL_LUID_SIZE_KHR, size, value, size_ret);
    case CL_DEVICE_SEMAPHORE_TYPES_KHR:
    default:
        return CL_INVALID_VALUE;
    }
}
#endif

static cl_int CL_API_CALL fake_get_device_info(cl_device_id dev, cl_device_info param, size_t size,
                                               void *value, size_t *size_ret)
{
    (void)dev;
#if defined(FAKEICD_quirky)
    return quirky_device_info(param, size, value, size_ret);
#endif
#if defined(FAKEICD_crash_deviceinfo)
    crash();
#elif defined(FAKEICD_hang_deviceinfo)
    hang();
#endif
    const cl_device_type type = CL_DEVICE_TYPE_ACCELERATOR;
    const cl_bool yes = CL_TRUE;
    const cl_uint absurd_dimensions = 4000000000u;
    switch (param) {
    case CL_DEVICE_NAME:
        return text("Fake lying device", size, value, size_ret);
    case CL_DEVICE_VERSION:
        return text("OpenCL 1.2 fake", size, value, size_ret);
    case CL_DEVICE_TYPE:
        return answer(&type, sizeof type, size, value, size_ret);
    case CL_DEVICE_AVAILABLE:
        return answer(&yes, sizeof yes, size, value, size_ret);
    case CL_DEVICE_PLATFORM: {
        const cl_platform_id mine = &platforms[platform_count - 1];
        return answer(&mine, sizeof mine, size, value, size_ret);
    }
    case CL_DEVICE_MAX_WORK_ITEM_DIMENSIONS:
        return answer(&absurd_dimensions, sizeof absurd_dimensions, size, value, size_ret);
    case CL_DEVICE_VENDOR:
        return lie(SIZE_MAX / 2, value, size_ret);
    case CL_DEVICE_EXTENSIONS:
        return lie(1000000000u, value, size_ret);
    case CL_DEVICE_MAX_WORK_ITEM_SIZES:
        return lie(SIZE_MAX / 2, value, size_ret);
    case CL_DEVICE_MAX_COMPUTE_UNITS:
        return lie(SIZE_MAX / 2, value, size_ret);
    default:
        return CL_INVALID_VALUE;
    }
}

static cl_context CL_API_CALL fake_create_context(const cl_context_properties *properties,
                                                  cl_uint num_devices, const cl_device_id *devices,
                                                  void(CL_CALLBACK *notify)(const char *, const void *,
                                                                            size_t, void *),
                                                  void *user_data, cl_int *errcode_ret)
{
    (void)properties;
    (void)num_devices;
    (void)devices;
    (void)notify;
    (void)user_data;
    if (errcode_ret)
        *errcode_ret = CL_DEVICE_NOT_AVAILABLE;
    return NULL;
}

static cl_int CL_API_CALL fake_retain_release_device(cl_device_id dev)
{
    (void)dev;
    return CL_SUCCESS;
}

__attribute__((constructor)) static void fill_dispatch(void)
{
    dispatch.clGetPlatformInfo = fake_get_platform_info;
    dispatch.clGetDeviceIDs = fake_get_device_ids;
    dispatch.clGetDeviceInfo = fake_get_device_info;
    dispatch.clCreateContext = fake_create_context;
    dispatch.clRetainDevice = fake_retain_release_device;
    dispatch.clReleaseDevice = fake_retain_release_device;
}

/* The exported entry points. They call the static functions rather than name each other, so that the
 * loader's own clGetPlatformInfo, already in the process, is never the one reached. */
cl_int CL_API_CALL clIcdGetPlatformIDsKHR(cl_uint num_entries, cl_platform_id *out, cl_uint *num_platforms);
cl_int CL_API_CALL clIcdGetPlatformIDsKHR(cl_uint num_entries, cl_platform_id *out, cl_uint *num_platforms)
{
    return fake_get_platform_ids(num_entries, out, num_platforms);
}

cl_int CL_API_CALL clGetPlatformInfo(cl_platform_id platform, cl_platform_info param, size_t size,
                                     void *value, size_t *size_ret)
{
    return fake_get_platform_info(platform, param, size, value, size_ret);
}

void *CL_API_CALL clGetExtensionFunctionAddress(const char *name)
{
    if (strcmp(name, "clIcdGetPlatformIDsKHR") == 0)
        return (void *)&fake_get_platform_ids;
    if (strcmp(name, "clGetPlatformInfo") == 0)
        return (void *)&fake_get_platform_info;
    return NULL;
}
