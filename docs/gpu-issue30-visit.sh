#!/usr/bin/env bash
# One visit to the GPU machine for issue 30 (docs/benchmarks.md): the device's peaks, copies against the
# bandwidth roof and the tiled matmul against its own sweep; and, in a second call of the same visit, the
# capture fuzzer over the machine's cores (issue 27: docs/fuzzing.md).
# Here:  bash docs/gpu-pool-commits.sh prepare          (headers and CMake stand-ins into build-bench/)
#        cp build/fuzz/tests/fuzz/fuzz_capture build-bench/bin/   (the fuzz preset's binary; runs there as built)
# There: bash docs/gpu-issue30-visit.sh roofline "$OUT"
#        bash docs/gpu-issue30-visit.sh fuzz "$OUT" [RUNS_PER_JOB] [JOBS]
# Oclgrind is not on that machine, so the work is not counted there: tst_cli_lines and tst_cli_roofline count
# it here (a copy of N floats moves 8N bytes; the tiled matmul of N x N does 2 N^3 flops); the percent of
# roof is computed here from these files with roofline's own rule.
set -u
what="$1"
out="$2/w"
mkdir -p "$out"
b="$PWD/build-bench"
pack() {  # one archive (at most 8 files come back, 16 MiB each)
  tar -czf "$1/results-$what.tgz" -C "$1" w
  rm -rf "$out"
}
trap 'pack "$2"' EXIT
{ lscpu | sed -n 's/^Model name: *//p'; nproc; nvidia-smi -L; } > "$out/machine.txt" 2>&1

if [ "$what" = fuzz ]; then
  runs="${3:-62500}"
  jobs="${4:-16}"
  mkdir -p "$out/fuzz" /tmp/fuzz-corpus
  cd "$out/fuzz" || exit 1
  # -jobs runs that many fuzzing processes, each with its own -runs; they share the scratch corpus folder.
  UBSAN_OPTIONS=halt_on_error=1 timeout 570 "$b/bin/fuzz_capture" -jobs="$jobs" -workers="$jobs" -runs="$runs" \
    -max_len=40000 -rss_limit_mb=2048 -timeout=25 -print_final_stats=1 -artifact_prefix="$out/fuzz/" \
    /tmp/fuzz-corpus "$OLDPWD/tests/fuzz/corpus/capture" > "$out/fuzz/driver.log" 2>&1
  echo "fuzz: exit $?"
  grep -h "stat::number_of_executed_units\|stat::peak_rss_mb\|Done [0-9]* runs" fuzz-*.log | sort | uniq -c | tail -5
  grep -h "stat::number_of_executed_units" fuzz-*.log | awk '{s += $2} END {print "executions:", s}'
  ls "$out/fuzz" | grep -E '^(crash|leak|timeout|oom)-' || echo "no findings"
  ls /tmp/fuzz-corpus | wc -l
  exit 0
fi

export PATH=/opt/torch/.venv/bin:$PATH
unset CPATH C_INCLUDE_PATH CPLUS_INCLUDE_PATH
mkdir -p /tmp/vendors && echo /usr/lib/libnvidia-opencl.so.1 > /tmp/vendors/nvidia.icd \
  && cp /etc/OpenCL/vendors/*.icd /tmp/vendors/ 2>/dev/null
export OCL_ICD_VENDORS=/tmp/vendors
cmake -S . -B /tmp/b-head -G Ninja -DCMAKE_BUILD_TYPE=Release -DCMAKE_CXX_FLAGS="-I$b/include" \
  -DCLSCOPE_BUILD_GUI=OFF -DCLSCOPE_BUILD_TESTS=OFF -DCLSCOPE_OCLGRIND_PLUGIN=OFF -DCMAKE_PREFIX_PATH="$b/cmake" \
  -DSQLite3_INCLUDE_DIR="$b/include" -DSQLite3_LIBRARY=/usr/lib/x86_64-linux-gnu/libsqlite3.so.0 \
  > "$out/configure.log" 2>&1 && cmake --build /tmp/b-head --target clscope-cli -j16 > "$out/build.log" 2>&1 \
  || { tail -30 "$out/configure.log" "$out/build.log"; exit 1; }
cli=/tmp/b-head/app/clscope-cli
timeout 180 $cli bench all --device nvidia --save "$out/gpu-bench.json" > "$out/bench.txt" 2>&1
echo "bench all: exit $?"
n=268435456 # floats: 1 GiB a buffer
for k in copy:tests/data/lines/work.cl:1 copy4:tests/data/lines/copy4.cl:4 vec4:tests/data/lines/work.cl:4; do
  IFS=: read -r kernel file per <<< "$k"
  for l in driver 256; do
    local=(); [ "$l" = driver ] || local=(--local "$l")
    timeout 90 $cli run "$file" --kernel "$kernel" --global $((n / per)) "${local[@]}" \
      --arg "a=buffer:float:$n:iota" --arg "b=buffer:float:$n" --repeat 20 --device nvidia --json \
      > "$out/$kernel-$l.json" 2> "$out/$kernel-$l.err"
    echo "$kernel local $l: exit $?"
  done
done
# The tiled matmul: its sweep over the local sizes that matter, then 20 launches at 16,16 as roofline times them.
for m in 2048 4096; do
  args=(--kernel matmul_tiled --global "$m,$m" --arg "A=buffer:float:$((m * m)):fill=1" --arg "B=buffer:float:$((m * m)):fill=2"
        --arg "C=buffer:float:$((m * m))" --arg "N=int:$m")
  timeout 200 $cli sweep resources/kernels/matmul_tiled.cl "${args[@]}" --local 16,16 \
    --local-candidates "16,16;32,8;64,4;8,32;32,4;16,8;driver" --repeat 10 --device nvidia --json \
    > "$out/sweep-matmul$m.json" 2> "$out/sweep-matmul$m.err"
  echo "sweep matmul $m: exit $?"
  timeout 120 $cli run resources/kernels/matmul_tiled.cl "${args[@]}" --local 16,16 --repeat 20 --device nvidia \
    --json > "$out/matmul$m.json" 2> "$out/matmul$m.err"
  echo "matmul $m: exit $?"
done
ls -la "$out"
