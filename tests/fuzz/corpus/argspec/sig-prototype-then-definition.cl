kernel void twice(global int *a);
kernel void twice(global int *a) { a[0] = 2; }
