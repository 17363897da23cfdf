#!/bin/sh
# The H200 check of capture --timestamps (docs/benchmarks.md): launchloop plain and under capture with --timestamps
# all, 64 and program, three rounds, then their summaries. Run from the repository root with build/cli carried.
set -u
b=build/cli
o=/tmp/v
mkdir -p $o /tmp/nvonly
echo /usr/lib/libnvidia-opencl.so.1 > /tmp/nvonly/nvidia.icd
export LD_LIBRARY_PATH=$b/lib:/usr/lib/x86_64-linux-gnu
export OCL_ICD_VENDORS=/tmp/nvonly
for r in 1 2 3; do
  echo "plain $($b/capture_launchloop 100000)" >> $o/runs.txt
  for ts in all 64 program; do
    echo "capture --timestamps $ts $($b/app/clscope-cli capture --timestamps $ts -o $o/l-$ts.clscope -- $b/capture_launchloop 100000 2> $o/l-$ts.err)" >> $o/runs.txt
  done
done
for ts in all 64 program; do
  $b/app/clscope-cli capture-info $o/l-$ts.clscope --json > $o/l-$ts.json 2>&1
  cat $o/l-$ts.err >> $o/summaries.txt
done
ls -la $o >> $o/runs.txt
rm -f $o/*.clscope
cat $o/runs.txt $o/summaries.txt
