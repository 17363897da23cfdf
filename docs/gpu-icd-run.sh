#!/bin/sh
set -u
b=build/cli; out=$OUT
mkdir -p /tmp/vendors /tmp/nvonly
echo /usr/lib/libnvidia-opencl.so.1 > /tmp/vendors/nvidia.icd; cp /etc/OpenCL/vendors/*.icd /tmp/vendors/ 2>/dev/null
echo /usr/lib/libnvidia-opencl.so.1 > /tmp/nvonly/nvidia.icd
export LD_LIBRARY_PATH="/usr/lib/x86_64-linux-gnu:$b/lib"
cli=$b/app/clscope-cli
ls /tmp/vendors > $out/vendors.txt
for i in 1 2 3; do /usr/bin/time -f "%e s" -o $out/time-probe-$i.txt env OCL_ICD_VENDORS=/tmp/vendors $cli info --json > $out/info-probe-$i.json 2> $out/info-probe-$i.err; done
for i in 1 2 3; do /usr/bin/time -f "%e s" -o $out/time-noprobe-$i.txt env CLSCOPE_ICD_PROBE=0 OCL_ICD_VENDORS=/tmp/vendors $cli info --json > $out/info-noprobe-$i.json 2> /dev/null; done
OCL_ICD_VENDORS=/tmp/nvonly $cli info --json > $out/info-nvidia.json 2> $out/info-nvidia.err
OCL_ICD_VENDORS=/tmp/nvonly $b/clinfo --raw > $out/clinfo-raw.txt 2>&1
OCL_ICD_VENDORS=/tmp/nvonly $b/clinfo > $out/clinfo.txt 2>&1
OCL_ICD_VENDORS=/tmp/vendors $cli run resources/kernels/matmul_tiled.cl --device nvidia --json > $out/matmul.json 2> $out/matmul.err
echo rc=$? >> $out/matmul.err
