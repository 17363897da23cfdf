#!/bin/bash
# The kernel debugger's cost and answer time (issue 29): run from the repository root after
# cmake --build build/release --target clscope-cli clscope-oclgrind. N=1048576 for a million work-items.
CLI=${CLI:-build/release/app/clscope-cli}
N=${N:-262144}
L="--kernel work --global $N --local 64 --arg in=buffer:float:$N:iota --arg out=buffer:float:$N --arg n=int:$N"
V=$(mktemp -d); echo /usr/lib/oclgrind/liboclgrind-rt-icd.so > $V/o.icd
t() { local s=$(date +%s.%N); "$@" > /dev/null 2>&1 < /dev/null; echo "$(date +%s.%N) - $s" | bc; }
for round in ${ROUNDS:-1 2 3}; do
  plain=$(OCL_ICD_VENDORS=$V CLSCOPE_DEVICE=oclgrind CLSCOPE_NO_CACHE=1 t $CLI run tests/data/debug/bench.cl $L)
  debugbuild=$(OCL_ICD_VENDORS=$V CLSCOPE_DEVICE=oclgrind CLSCOPE_NO_CACHE=1 OCLGRIND_INTERACTIVE=1 t $CLI run tests/data/debug/bench.cl $L)
  armed=$(t $CLI debug tests/data/debug/bench.cl $L --break 9)
  armeditem=$(t $CLI debug tests/data/debug/bench.cl $L --break 9 --item 7)
  echo "round $round: plain Oclgrind $plain s, -O0 debug build (OCLGRIND_INTERACTIVE=1) $debugbuild s, debugger armed any item $armed s, armed one item $armeditem s"
done
$CLI debug tests/data/debug/bench.cl $L --break 6 --item 100 --step 40 --step-kind into --print acc --json | python3 -c '
import json,sys,statistics
d=json.load(sys.stdin); ms=[s["ms_since_resumed"] for s in d["stops"][1:]]
print("steps:", len(ms), "median ms", statistics.median(ms), "max ms", max(ms))'
rm -r $V
