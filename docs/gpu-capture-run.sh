#!/bin/sh
# One visit to the H200 machine (shared/GPU.md) for the capture figures and the NVIDIA info check:
# build/cli holds clscope-cli, the layer, capture_launchloop, clpeak, clinfo and Debian's libsqlite3.
# Usage: docs/gpu-capture-run.sh build/cli OUT
set -u
b=$1
out=$2
mkdir -p "$out" /tmp/vendors /tmp/nvonly
echo /usr/lib/libnvidia-opencl.so.1 > /tmp/vendors/nvidia.icd
cp /etc/OpenCL/vendors/*.icd /tmp/vendors/ 2>/dev/null
echo /usr/lib/libnvidia-opencl.so.1 > /tmp/nvonly/nvidia.icd
# ocl-icd before CUDA's own libOpenCL.so.1, which ignores OPENCL_LAYERS (docs/benchmarks.md).
export LD_LIBRARY_PATH="$b/lib:/usr/lib/x86_64-linux-gnu${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
cli="$b/app/clscope-cli"
nvidia-smi -L > "$out/gpu.txt" 2>&1
# Device info against clinfo on the NVIDIA platform, compared back here with tst_cli_info givenFilesEqual
# (CLSCOPE_CLINFO_JSON=clinfo-nvidia.json CLSCOPE_INFO_JSON=info-nvidia.json).
OCL_ICD_VENDORS=/tmp/nvonly "$cli" info --json > "$out/info-nvidia.json" 2> "$out/info-nvidia.err"
OCL_ICD_VENDORS=/tmp/nvonly "$b/clinfo" --json > "$out/clinfo-nvidia.json" 2> "$out/clinfo-nvidia.err"
# A sample from its own clscope-run line, on the GPU.
OCL_ICD_VENDORS=/tmp/vendors "$cli" run resources/kernels/matmul_tiled.cl --device nvidia --json \
  > "$out/matmul-nvidia.json" 2> "$out/matmul-nvidia.err"
OCL_ICD_VENDORS=/tmp/nvonly "$cli" info > "$out/info-nvidia.txt" 2>&1
# Capture overhead: launchloop plain / profiling / events / events-poll / captured / layer only, 1M
# launches, clpeak under capture.
OCL_ICD_VENDORS=/tmp/nvonly CLPEAK="$b/clpeak" sh tests/data/capture/overhead.sh "$cli" "$b/capture_launchloop" \
  "$out/overhead" "${ROUNDS:-4}" > /dev/null 2>&1
rm -f "$out/overhead/"*.clscope
