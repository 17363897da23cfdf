#!/usr/bin/env bash
# A bandwidth-bound kernel's percent of roof on the GPU machine (docs/benchmarks.md, issue 30), in one visit.
# Here:  bash docs/gpu-pool-commits.sh prepare      (the OpenCL and SQLite headers, CMake stand-ins; no commits)
# There: bash docs/gpu-roofline.sh "$OUT"
# Oclgrind is not on that machine, so the work is not counted there: the copy kernel of
# tests/data/lines/work.cl moves 8N bytes and no flops, which tst_cli_roofline and tst_cli_lines count on
# Oclgrind here. What runs there: `bench all` (the peaks, saved as the document `roofline --peaks` takes) and
# the copy at three sizes, 20 timed launches each; the percent of roof is computed from those files here with
# roofline's own rule (docs/benchmarks.md shows the command).
set -u
out="$1"
export PATH=/opt/torch/.venv/bin:$PATH
unset CPATH C_INCLUDE_PATH CPLUS_INCLUDE_PATH
mkdir -p /tmp/vendors && echo /usr/lib/libnvidia-opencl.so.1 > /tmp/vendors/nvidia.icd \
  && cp /etc/OpenCL/vendors/*.icd /tmp/vendors/ 2>/dev/null
export OCL_ICD_VENDORS=/tmp/vendors
b="$PWD/build-bench"
{ lscpu | sed -n 's/^Model name: *//p'; nvidia-smi -L; } > "$out/machine.txt" 2>&1
cmake -S . -B /tmp/b-head -G Ninja -DCMAKE_BUILD_TYPE=Release -DCMAKE_CXX_FLAGS="-I$b/include" \
  -DCLSCOPE_BUILD_GUI=OFF -DCLSCOPE_BUILD_TESTS=OFF -DCLSCOPE_OCLGRIND_PLUGIN=OFF -DCMAKE_PREFIX_PATH="$b/cmake" \
  -DSQLite3_INCLUDE_DIR="$b/include" -DSQLite3_LIBRARY=/usr/lib/x86_64-linux-gnu/libsqlite3.so.0 \
  > "$out/configure.log" 2>&1 && cmake --build /tmp/b-head --target clscope-cli -j16 > "$out/build.log" 2>&1 \
  || { tail -30 "$out/configure.log" "$out/build.log"; exit 1; }
cli=/tmp/b-head/app/clscope-cli
$cli bench all --device nvidia --save "$out/h200-bench.json" > "$out/bench.txt" 2>&1
for n in 16777216 67108864 268435456; do
  $cli run tests/data/lines/work.cl --kernel copy --global "$n" --arg "a=buffer:float:$n:iota" \
    --arg "b=buffer:float:$n" --repeat 20 --device nvidia --json > "$out/copy-$n.json" 2> "$out/copy-$n.err"
  echo "copy $n: exit $?"
done
