int helper(int x) { return x; }
kernel void nothing(void) { helper(1); }
kernel void empty() {}
