// A kernel of the shape of Rodinia's OpenCL hotspot (written for CLScope's tests, not copied): the chip's
// temperature on a grid_rows x grid_cols grid advanced by `iteration` time steps in one launch, a
// "pyramid". Each work-group loads a BLOCK_SIZE x BLOCK_SIZE tile into __local memory, with a halo of
// border_cols/border_rows (= iteration) cells around the part it owns, steps the tile `iteration` times
// there (each step leaves one more ring of the tile stale), and writes back the inner
// (BLOCK_SIZE - 2 * iteration)^2 cells. A neighbour past the chip's edge is the cell itself.
// Host side, as Rodinia's: local BLOCK_SIZE x BLOCK_SIZE, global ceil(grid / inner) * BLOCK_SIZE per axis.
#ifndef BLOCK_SIZE
#define BLOCK_SIZE 16
#endif

#define AMBIENT_TEMP 80.0f

__kernel void hotspot(int iteration,                 // time steps of this launch
                      __global const float *power,    // watts per cell
                      __global const float *temp_src, // temperatures before
                      __global float *temp_dst,       // temperatures after
                      int grid_cols, int grid_rows,   // the grid
                      int border_cols, int border_rows, // the halo: iteration cells
                      float Cap,                        // thermal capacitance of a cell
                      float Rx, float Ry, float Rz,     // thermal resistances: x, y, to the ambient
                      float step)                       // the time step, seconds
{
    __local float temp[BLOCK_SIZE][BLOCK_SIZE];
    __local float heat[BLOCK_SIZE][BLOCK_SIZE];
    __local float next[BLOCK_SIZE][BLOCK_SIZE];

    const int tx = get_local_id(0);
    const int ty = get_local_id(1);
    const int inner = BLOCK_SIZE - 2 * iteration;
    const int x0 = inner * (int)get_group_id(0) - border_cols; // the grid cell under tile[0][0]
    const int y0 = inner * (int)get_group_id(1) - border_rows;
    const int x = x0 + tx;
    const int y = y0 + ty;
    const int index = y * grid_cols + x;

    if (x >= 0 && x < grid_cols && y >= 0 && y < grid_rows) {
        temp[ty][tx] = temp_src[index];
        heat[ty][tx] = power[index];
    }
    barrier(CLK_LOCAL_MEM_FENCE);

    // The part of the tile that lies on the grid, and each cell's neighbours clamped to it.
    const int xmin = max(-x0, 0);
    const int ymin = max(-y0, 0);
    const int xmax = min(grid_cols - 1 - x0, BLOCK_SIZE - 1);
    const int ymax = min(grid_rows - 1 - y0, BLOCK_SIZE - 1);
    const int west = max(tx - 1, xmin);
    const int east = min(tx + 1, xmax);
    const int north = max(ty - 1, ymin);
    const int south = min(ty + 1, ymax);

    const float stepPerCap = step / Cap;
    const float gx = 1.0f / Rx;
    const float gy = 1.0f / Ry;
    const float gz = 1.0f / Rz;

    bool fresh = false; // this cell's value in next[][] is valid after the step just made
    for (int i = 0; i < iteration; ++i) {
        fresh = tx >= i + 1 && tx <= BLOCK_SIZE - 2 - i && ty >= i + 1 && ty <= BLOCK_SIZE - 2 - i &&
                tx >= xmin && tx <= xmax && ty >= ymin && ty <= ymax;
        if (fresh) {
            const float t = temp[ty][tx];
            next[ty][tx] = t + stepPerCap * (heat[ty][tx] +
                                             (temp[south][tx] + temp[north][tx] - 2.0f * t) * gy +
                                             (temp[ty][east] + temp[ty][west] - 2.0f * t) * gx +
                                             (AMBIENT_TEMP - t) * gz);
        }
        barrier(CLK_LOCAL_MEM_FENCE);
        if (i + 1 == iteration)
            break;
        if (fresh)
            temp[ty][tx] = next[ty][tx];
        barrier(CLK_LOCAL_MEM_FENCE);
    }

    if (fresh)
        temp_dst[index] = next[ty][tx];
}
