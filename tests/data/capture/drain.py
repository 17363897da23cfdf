#!/usr/bin/env python3
"""Runs a program with libclscope-layer.so streaming into a socket that is only drained (no recorder, no
SQLite): what the layer alone costs the program, for docs/benchmarks.md.
Usage: drain.py LAYER PROGRAM [ARGS...]"""
import os
import socket
import subprocess
import sys
import threading

ours, theirs = socket.socketpair()
env = dict(os.environ)
env["OPENCL_LAYERS"] = sys.argv[1]
env["CLSCOPE_CAPTURE_FD"] = "%d:%d" % (theirs.fileno(), os.fstat(theirs.fileno()).st_ino)
received = [0]


def drain():
    while True:
        data = ours.recv(1 << 20)
        if not data:
            break
        received[0] += len(data)


reader = threading.Thread(target=drain)
reader.start()
program = subprocess.Popen(sys.argv[2:], env=env, pass_fds=[theirs.fileno()])
theirs.close()
code = program.wait()
reader.join()
print("drained %d bytes" % received[0], file=sys.stderr)
sys.exit(code)
