#!/usr/bin/env bash
# The pool's hit path at several commits in one visit to the GPU machine (docs/benchmarks.md, issue 28).
# Here:  bash docs/gpu-pool-commits.sh prepare COMMIT...   (sources of each commit, the OpenCL and SQLite
#        headers, and CMake stand-ins for CLI11 and nlohmann-json, into build-bench/, which run carries)
# There: bash docs/gpu-pool-commits.sh measure "$OUT" [ROUNDS]   (the working tree is measured as "head")
# Each commit's clscope-cli is built there (Release, no GUI, no tests: the machine has g++, CMake and Ninja but
# no sqlite3.h, and OpenCL headers too old for the image constants); then `bench pool --device nvidia --json`
# runs on each in turn, ROUNDS times (5), so that every commit sees the same moments of the machine.
set -u
bench=build-bench
if [ "${1:-}" = prepare ]; then
  shift
  rm -rf "$bench" && mkdir -p "$bench/cmake" "$bench/include"
  for c in "$@"; do
    mkdir -p "$bench/src-$c" && git archive "$c" CMakeLists.txt CMakePresets.json app core packaging | tar -x -C "$bench/src-$c"
  done
  cp -r /usr/include/CL /usr/include/sqlite3.h "$bench/include/"
  printf 'add_library(CLI11::CLI11 INTERFACE IMPORTED)\n' > "$bench/cmake/CLI11Config.cmake"
  printf 'add_library(nlohmann_json::nlohmann_json INTERFACE IMPORTED)\n' > "$bench/cmake/nlohmann_jsonConfig.cmake"
  exit 0
fi
[ "${1:-}" = measure ] || { echo "usage: $0 prepare COMMIT... | measure OUT [ROUNDS]" >&2; exit 2; }
out="$2"
rounds="${3:-5}"
export PATH=/opt/torch/.venv/bin:$PATH
unset CPATH C_INCLUDE_PATH CPLUS_INCLUDE_PATH
mkdir -p /tmp/vendors && echo /usr/lib/libnvidia-opencl.so.1 > /tmp/vendors/nvidia.icd \
  && cp /etc/OpenCL/vendors/*.icd /tmp/vendors/ 2>/dev/null
export OCL_ICD_VENDORS=/tmp/vendors
b="$PWD/$bench"
versions="$(cd "$b" && ls -d src-* | sed 's/^src-//') head"
{ lscpu | sed -n 's/^Model name: *//p'; nvidia-smi -L; } > "$out/machine.txt" 2>&1
for v in $versions; do
  src="$b/src-$v"
  [ "$v" = head ] && src="$PWD"
  (cmake -S "$src" -B "/tmp/b-$v" -G Ninja -DCMAKE_BUILD_TYPE=Release -DCMAKE_CXX_FLAGS="-I$b/include" \
     -DCLSCOPE_BUILD_GUI=OFF -DCLSCOPE_BUILD_TESTS=OFF -DCMAKE_PREFIX_PATH="$b/cmake" -DSQLite3_INCLUDE_DIR="$b/include" \
     -DSQLite3_LIBRARY=/usr/lib/x86_64-linux-gnu/libsqlite3.so.0 > "/tmp/cfg-$v.log" 2>&1 \
   && cmake --build "/tmp/b-$v" --target clscope-cli -j4 > "/tmp/build-$v.log" 2>&1 \
   || { echo "$v: build failed"; grep -m3 -A3 "error" "/tmp/cfg-$v.log" "/tmp/build-$v.log"; }) &
done
wait
for r in $(seq "$rounds"); do
  for v in $versions; do
    echo "== $v round $r" >> "$out/pool.txt"
    "/tmp/b-$v/app/clscope-cli" bench pool --device nvidia --json >> "$out/pool.txt" 2>&1
  done
done
