/* A broken OpenCL driver for tst_devicehang: the loader's first call into it never returns, as a
 * driver that deadlocks at initialisation does. */
#include <stddef.h>
#include <unistd.h>

int clIcdGetPlatformIDsKHR(unsigned num_entries, void **platforms, unsigned *num_platforms);

int clIcdGetPlatformIDsKHR(unsigned num_entries, void **platforms, unsigned *num_platforms)
{
    (void)num_entries;
    (void)platforms;
    (void)num_platforms;
    for (;;)
        pause();
    return 0;
}

void *clGetExtensionFunctionAddress(const char *name);

void *clGetExtensionFunctionAddress(const char *name)
{
    (void)name;
    return (void *)&clIcdGetPlatformIDsKHR;
}
