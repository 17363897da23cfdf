kernel void outer(global int *a) { if (a[0]) { int kernel_x = 1; } }
void f(void) { struct { int kernel; } s; }
kernel void after(int b) {}
