kernel void u(unsigned int a, unsigned char b, unsigned long c, unsigned d, signed char e, long int f, global unsigned short *g) {}
