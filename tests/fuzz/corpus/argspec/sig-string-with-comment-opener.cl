constant char msg[] = "/* not a comment";
kernel void str(int a) {}
