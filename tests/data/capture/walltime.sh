#!/bin/sh
# Wall time of a program plain and under `clscope-cli capture`, alternated in ABBA order (plain first in one
# pair, captured first in the next) so that a drift of the machine's load weighs on both alike; prints the
# medians, means and their ratios (docs/benchmarks.md: pyopencl's demo.py within 1.10x).
# Usage: walltime.sh CLI PAIRS PROGRAM [ARGS...]   e.g. PYOPENCL_CTX=0 walltime.sh clscope-cli 30 python3 demo.py
set -u
cli=$1
pairs=$2
shift 2
out=$(mktemp -d)
plain=""
captured=""
ms() { echo $(( ($2 - $1) / 10000 )); } # hundredths of a millisecond
runPlain() {
  s=$(date +%s%N)
  "$@" > /dev/null 2>&1
  plain="$plain $(ms "$s" "$(date +%s%N)")"
}
runCaptured() {
  s=$(date +%s%N)
  "$cli" capture -o "$out/walltime.clscope" -- "$@" > /dev/null 2>&1
  captured="$captured $(ms "$s" "$(date +%s%N)")"
}
i=0
while [ $i -lt "$pairs" ]; do
  if [ $((i % 2)) = 0 ]; then
    runPlain "$@"
    runCaptured "$@"
  else
    runCaptured "$@"
    runPlain "$@"
  fi
  i=$((i + 1))
done
rm -rf "$out"
python3 - "$plain" "$captured" << 'PY'
import statistics, sys
p = [int(x) / 100 for x in sys.argv[1].split()]
c = [int(x) / 100 for x in sys.argv[2].split()]
print("plain median %.1f ms mean %.1f | captured median %.1f ms mean %.1f | ratio median %.3f mean %.3f"
      % (statistics.median(p), statistics.mean(p), statistics.median(c), statistics.mean(c),
         statistics.median(c) / statistics.median(p), statistics.mean(c) / statistics.mean(p)))
PY
