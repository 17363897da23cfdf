#!/usr/bin/env bash
# One visit to the H200 machine (shared/GPU.md): every measurement of docs/benchmarks.md in one script.
# Usage there: bash docs/gpu-run.sh build/cli "$OUT"
set -u
cli="$1/app/clscope-cli"
out="$2"
mkdir -p /tmp/vendors && echo /usr/lib/libnvidia-opencl.so.1 > /tmp/vendors/nvidia.icd \
  && cp /etc/OpenCL/vendors/*.icd /tmp/vendors/ 2>/dev/null
export OCL_ICD_VENDORS=/tmp/vendors
{
  echo "== machine"; nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv 2>&1 | head -3
  echo "== ldd"; ldd "$cli"
} > "$out/machine.txt" 2>&1
"$cli" info --json > "$out/clscope-info.json" 2> "$out/clscope-info.err"
clinfo --json > "$out/clinfo.json" 2> "$out/clinfo.err"
"$cli" bench pool --device nvidia --json > "$out/bench-pool.json" 2> "$out/bench-pool.err"
"$cli" bench all --device nvidia --json > "$out/bench-all.json" 2> "$out/bench-all.err"
# Debian's clpeak, carried along in the build folder: the NVIDIA platform only (PoCL on the CPUs is slow).
clpeak="$1/clpeak"
pidx=$(clinfo -l 2>/dev/null | sed -n 's/^Platform #\([0-9]*\): NVIDIA.*/\1/p' | head -1)
[ -x "$clpeak" ] && timeout 400 "$clpeak" -p "${pidx:-0}" -d 0 > "$out/clpeak.txt" 2>&1
"$cli" bench bandwidth --device nvidia --json > "$out/bench-bandwidth-2.json" 2>&1
ls -la "$out"
