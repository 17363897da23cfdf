#define N 4
#define FAKE kernel void fake(int a) \
  {}
#if 1
__kernel void p(__global int *x)
#endif
{ x[0] = N; }
