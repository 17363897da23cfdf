// Included by good.cl: the cache tests edit it to check that a header change is a miss.
#define OFFSET 0.0f
