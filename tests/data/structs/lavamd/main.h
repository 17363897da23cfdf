// The structs of Rodinia's lavaMD (main.h), as its OpenCL kernel includes them: fp is a macro, the
// vectors are plain structs of fp, a box knows where its particles start.
#ifndef LAVAMD_MAIN_H
#define LAVAMD_MAIN_H

#define fp float
#define NUMBER_PAR_PER_BOX 4

typedef struct
{
    fp x, y, z;
} THREE_VECTOR;

typedef struct
{
    fp v, x, y, z;
} FOUR_VECTOR;

typedef struct
{
    int x, y, z;
    long number;
    long offset;
} box_str;

typedef struct par_str
{
    fp alpha;
} par_str;

#endif
