typedef struct { int a; } S;
kernel void s(global S *p, S byValue) {}
