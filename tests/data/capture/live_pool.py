#!/usr/bin/python3
# A pyopencl program that runs until it is stopped (or STOP_AFTER seconds): kernel launches in a loop on
# arrays from a pyopencl MemoryPool, as real pyopencl programs allocate. Profiled live by
# tests/ui/tst_capturegui.cpp: the timeline must fill while it runs, and Stop must end it with the capture
# kept. It prints one line per round, so the console fills too.
import os
import sys
import time

import numpy as np
import pyopencl as cl
import pyopencl.array as cla
import pyopencl.tools as cltools

stop_after = float(os.environ.get("STOP_AFTER", "60"))
ctx = cl.create_some_context(interactive=False)
queue = cl.CommandQueue(ctx)
pool = cltools.MemoryPool(cltools.ImmediateAllocator(queue))
prg = cl.Program(ctx, """
__kernel void scale(__global float *x, const float k)
{
    const int i = get_global_id(0);
    x[i] = x[i] * k + 1.0f;
}
""").build()

start = time.time()
rounds = 0
while time.time() - start < stop_after:
    # New arrays each round: the pool hands the same few blocks back instead of allocating.
    a = cla.to_device(queue, np.arange(1 << 16, dtype=np.float32), allocator=pool)
    b = cla.empty(queue, 1 << 16, np.float32, allocator=pool)
    prg.scale(queue, a.shape, None, a.data, np.float32(0.5))
    cl.enqueue_copy(queue, b.data, a.data)
    b.get()
    del a, b
    rounds += 1
    print("round", rounds, "pool held", pool.held_blocks, "active", pool.active_blocks, flush=True)
    time.sleep(0.05)
print("done after", rounds, "rounds", flush=True)
sys.exit(0)
