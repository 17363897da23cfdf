#!/usr/bin/env bash
# One visit to the H200 machine (shared/GPU.md) for issue 18: the work-group size sweep of the tiled matrix
# multiply, separate runs of the same local sizes (the sweep adds nothing to the launches), a build matrix
# with NVIDIA's register counts, and the PTX of --disassemble.
# Usage there: bash docs/gpu-sweep-run.sh build/cli "$OUT"
set -u
cli="$1/app/clscope-cli"
out="$2"
mkdir -p /tmp/vendors && echo /usr/lib/libnvidia-opencl.so.1 > /tmp/vendors/nvidia.icd \
  && cp /etc/OpenCL/vendors/*.icd /tmp/vendors/ 2>/dev/null
export OCL_ICD_VENDORS=/tmp/vendors
export CLSCOPE_CACHE_DIR=/tmp/clscope-cache
stamp() { echo "== $(date -u +%H:%M:%S) $*" >> "$out/log.txt"; }
{
  echo "== machine"; nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv 2>&1 | head -3
  echo "== ldd"; ldd "$cli"
} > "$out/machine.txt" 2>&1
k=resources/kernels/matmul_tiled.cl
for n in 256 2048; do
  count=$((n * n))
  launch=("$k" --kernel matmul_tiled --global "$n,$n" --arg "A=buffer:float:$count:random=1:0:1"
          --arg "B=buffer:float:$count:random=2:0:1" --arg "C=buffer:float:$count" --arg "N=int:$n")
  stamp "sweep $n"
  timeout 300 "$cli" sweep "${launch[@]}" --local 16,16 --repeat 20 --device nvidia --json \
    > "$out/sweep-$n.json" 2> "$out/sweep-$n.err"
  timeout 300 "$cli" sweep "${launch[@]}" --local 16,16 --repeat 20 --device nvidia > "$out/sweep-$n.txt" 2>&1
  # The same local sizes as separate runs, twice: their medians against the sweep's.
  for local in 16,16 32,32 8,8 32,8 64,4 128,2 256,1; do
    for round in 1 2; do
      timeout 120 "$cli" run "${launch[@]}" --local "$local" --repeat 21 --device nvidia --json \
        > "$out/run-$n-${local//,/x}-$round.json" 2> "$out/run-$n-${local//,/x}-$round.err"
    done
  done
done
stamp "matrix"
timeout 300 "$cli" build "$k" --matrix "-O0|-cl-opt-disable|-cl-fast-relaxed-math|-cl-mad-enable -DTILE=32" --device all --json \
  > "$out/matrix.json" 2> "$out/matrix.err"
timeout 300 "$cli" build "$k" --matrix "-O0|-cl-fast-relaxed-math|-cl-mad-enable -DTILE=32" --device all \
  > "$out/matrix.txt" 2>&1
timeout 300 "$cli" build "$k" --matrix "-cl-opt-disable|-cl-fast-relaxed-math|-cl-mad-enable -DTILE=32" \
  --device nvidia > "$out/matrix-optdisable.txt" 2>&1
stamp "disassemble"
timeout 120 "$cli" build "$k" --disassemble --device nvidia > "$out/disassemble-nvidia.txt" 2>&1
timeout 120 "$cli" build "$k" --disassemble --device pocl > "$out/disassemble-pocl.txt" 2>&1
stamp "done"
ls -la "$out" >> "$out/log.txt"
