#!/usr/bin/python3
"""Replays a pool trace (clscope-cli pool replay's format) through pyopencl's own MemoryPool and prints,
as JSON, its four counters after every operation: the reference tst_pool_pyopencl compares with.

Usage: pyopencl_replay.py TRACE LEADING_BITS immediate|deferred
"""
import json
import sys

import pyopencl as cl
import pyopencl.tools as cltools


def main():
    path, bits, kind = sys.argv[1], int(sys.argv[2]), sys.argv[3]
    platform = next(p for p in cl.get_platforms() if "Portable Computing Language" in p.name)
    ctx = cl.Context(platform.get_devices()[:1])
    queue = cl.CommandQueue(ctx)
    allocator = cltools.ImmediateAllocator(queue) if kind == "immediate" else cltools.DeferredAllocator(ctx)
    pool = cltools.MemoryPool(allocator, bits)
    live = {}
    out = []
    with open(path) as f:
        for line in f:
            words = line.split("#", 1)[0].split()
            if not words:
                continue
            if words[0] == "alloc":
                live[words[1]] = pool.allocate(int(words[2]))
            elif words[0] == "free":
                live.pop(words[1]).release()
            elif words[0] == "free_held":
                pool.free_held()
            elif words[0] == "stop_holding":
                pool.stop_holding()
            else:
                raise SystemExit("unknown op " + words[0])
            out.append({"op": words[0], "held_blocks": pool.held_blocks, "active_blocks": pool.active_blocks,
                        "managed_bytes": pool.managed_bytes, "active_bytes": pool.active_bytes})
    json.dump(out, sys.stdout)


if __name__ == "__main__":
    main()
