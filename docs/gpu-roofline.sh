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
out="$1/w"
mkdir -p "$out"
export PATH=/opt/torch/.venv/bin:$PATH
unset CPATH C_INCLUDE_PATH CPLUS_INCLUDE_PATH
mkdir -p /tmp/vendors && echo /usr/lib/libnvidia-opencl.so.1 > /tmp/vendors/nvidia.icd \
  && cp /etc/OpenCL/vendors/*.icd /tmp/vendors/ 2>/dev/null
export OCL_ICD_VENDORS=/tmp/vendors
b="$PWD/build-bench"
pack() {  # one archive (at most 8 files come back, 16 MiB each); without the captures if it is too large
  tar -czf "$1/results.tgz" -C "$1" w
  [ "$(stat -c %s "$1/results.tgz")" -lt 16000000 ] || tar -czf "$1/results.tgz" --exclude='*.clscope*' -C "$1" w
  rm -rf "$out"
}
trap 'pack "$1"' EXIT
{ lscpu | sed -n 's/^Model name: *//p'; nvidia-smi -L; } > "$out/machine.txt" 2>&1
cmake -S . -B /tmp/b-head -G Ninja -DCMAKE_BUILD_TYPE=Release -DCMAKE_CXX_FLAGS="-I$b/include" \
  -DCLSCOPE_BUILD_GUI=OFF -DCLSCOPE_BUILD_TESTS=OFF -DCLSCOPE_OCLGRIND_PLUGIN=OFF -DCMAKE_PREFIX_PATH="$b/cmake" \
  -DSQLite3_INCLUDE_DIR="$b/include" -DSQLite3_LIBRARY=/usr/lib/x86_64-linux-gnu/libsqlite3.so.0 \
  > "$out/configure.log" 2>&1 && cmake --build /tmp/b-head --target clscope-cli -j16 > "$out/build.log" 2>&1 \
  || { tail -30 "$out/configure.log" "$out/build.log"; exit 1; }
cli=/tmp/b-head/app/clscope-cli
ldd $cli > "$out/ldd.txt"
timeout 180 $cli bench all --device nvidia --save "$out/gpu-bench.json" > "$out/bench.txt" 2>&1
echo "bench all: exit $?"
for n in 16777216 67108864 268435456; do
  for l in driver 256; do
    local=(); [ "$l" = driver ] || local=(--local "$l")
    timeout 60 $cli run tests/data/lines/work.cl --kernel copy --global "$n" "${local[@]}" \
      --arg "a=buffer:float:$n:iota" --arg "b=buffer:float:$n" --repeat 20 --device nvidia --json \
      > "$out/copy-$n-$l.json" 2> "$out/copy-$n-$l.err"
    echo "copy $n local $l: exit $?"
  done
done
# CUDA's libOpenCL.so.1 (first on this machine's library path) ignores OPENCL_LAYERS: captured programs load
# ocl-icd's, as capture's own hint says.
ls -la /usr/lib/x86_64-linux-gnu/libOpenCL.so* /etc/ld.so.conf.d/ > "$out/loaders.txt" 2>&1
[ -e /usr/lib/x86_64-linux-gnu/libOpenCL.so.1 ] && export LD_LIBRARY_PATH=/usr/lib/x86_64-linux-gnu
# The whole loop of roofline CAPTURE: a program captured on the GPU (here clscope-cli run itself, the copy at 1M floats
# with its buffer contents, small enough to come back), put against its roofs at home with --peaks.
n=1048576
timeout 60 $cli capture --contents all -o "$out/gpu-copy.clscope" -- $cli run tests/data/lines/work.cl --kernel copy \
  --global "$n" --arg "a=buffer:float:$n:iota" --arg "b=buffer:float:$n" --repeat 20 --device nvidia \
  > "$out/capture-copy.txt" 2>&1
echo "capture copy: exit $?"
# Programs nobody here wrote, under capture on NVIDIA's driver: clinfo's output must not change; clpeak's own
# figures against what the capture timed of its launches.
PATH="$b/bin:$PATH"
clinfo > "$out/clinfo-plain.txt" 2>&1
timeout 60 $cli capture -o "$out/clinfo.clscope" -- clinfo > "$out/clinfo-captured.txt" 2> "$out/clinfo-capture.err"
echo "capture clinfo: exit $?; diff lines: $(diff "$out/clinfo-plain.txt" "$out/clinfo-captured.txt" | wc -l)"
clinfo -l > "$out/clinfo-l.txt" 2>&1
p=$(grep -n "NVIDIA" "$out/clinfo-l.txt" | head -1 | sed 's/.*Platform #\([0-9]*\).*/\1/')
timeout 90 clpeak -p "${p:-0}" -d 0 --use-event-timer --global-bandwidth --kernel-latency > "$out/clpeak-plain.txt" 2>&1
echo "clpeak plain: exit $?"
timeout 120 $cli capture -o "$out/clpeak.clscope" -- clpeak -p "${p:-0}" -d 0 --use-event-timer --global-bandwidth \
  --kernel-latency > "$out/clpeak-captured.txt" 2> "$out/clpeak-capture.err"
echo "clpeak captured: exit $?"
$cli capture-info "$out/clpeak.clscope" > "$out/clpeak-info.txt" 2>&1
$cli capture-info "$out/gpu-copy.clscope" > "$out/copy-info.txt" 2>&1
gzip -1 "$out/gpu-copy.clscope"
ls -la "$out"
