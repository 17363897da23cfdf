#!/usr/bin/env bash
# One visit to the H200 machine (shared/GPU.md): every measurement of docs/benchmarks.md in one script.
# Usage there: bash docs/gpu-run.sh build/cli "$OUT"  (build/cli also carries Debian's clpeak binary as
# build/cli/clpeak: the GPU machine has none).
set -u
cli="$1/app/clscope-cli"
clpeak="$1/clpeak"
out="$2"
mkdir -p /tmp/vendors && echo /usr/lib/libnvidia-opencl.so.1 > /tmp/vendors/nvidia.icd \
  && cp /etc/OpenCL/vendors/*.icd /tmp/vendors/ 2>/dev/null
export OCL_ICD_VENDORS=/tmp/vendors
stamp() { echo "== $(date -u +%H:%M:%S) $*" >> "$out/log.txt"; }
{
  echo "== machine"; nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv 2>&1 | head -3
  echo "== cpu"; lscpu | sed -n 's/^Model name: *//p'
  echo "== ldd"; ldd "$cli"
} > "$out/machine.txt" 2>&1
pidx=$(clinfo -l 2>/dev/null | sed -n 's/^Platform #\([0-9]*\): NVIDIA.*/\1/p' | head -1)
stamp "info"; "$cli" info --json > "$out/clscope-info.json" 2> "$out/clscope-info.err"
stamp "bench pool"; timeout 120 "$cli" bench pool --device nvidia --json > "$out/bench-pool.json" 2> "$out/bench-pool.err"
# clpeak and CLScope one after the other, twice, for the bandwidth comparison in one session.
for round in 1 2; do
  stamp "clpeak global bandwidth $round"
  timeout 120 "$clpeak" -p "${pidx:-0}" -d 0 --global-bandwidth > "$out/clpeak-bandwidth-$round.txt" 2>&1
  stamp "clscope bandwidth $round"
  timeout 120 "$cli" bench bandwidth --device nvidia --json > "$out/bench-bandwidth-$round.json" 2>&1
done
stamp "clpeak all"; timeout 240 "$clpeak" -p "${pidx:-0}" -d 0 > "$out/clpeak.txt" 2>&1
stamp "clscope bench all"; timeout 240 "$cli" bench all --device nvidia --json > "$out/bench-all.json" 2> "$out/bench-all.err"
stamp "done"
ls -la "$out" >> "$out/log.txt"
