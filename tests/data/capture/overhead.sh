#!/bin/sh
# The capture-overhead figures of docs/benchmarks.md, on any machine: launchloop (100,000 launches of an
# empty kernel) plain and under `clscope-cli capture`, alternated ROUNDS times; then 1,000,000 launches
# under capture and the time capture-info takes to summarise them (launchloop's profiling, events,
# events-held, events-noprof and events-poll modes do each part of what the layer asks of the driver, without
# it; TIMESTAMPS, e.g. "64 program", adds captures with --timestamps of each); then clpeak --kernel-latency
# plain and under capture when CLPEAK names a clpeak binary. Usage: overhead.sh CLI LAUNCHLOOP OUT [ROUNDS]
set -u
cli=$1
loop=$2
out=$3
rounds=${4:-7}
mkdir -p "$out"
{
  echo "== $(date -u) $(uname -n) $(nproc) cores, load $(cut -d' ' -f1-3 /proc/loadavg)"
  i=0
  while [ $i -lt "$rounds" ]; do
    echo "plain $("$loop" 100000)"
    # What each part of the layer's request costs the driver, without the layer.
    for mode in profiling events events-held events-noprof events-poll; do
      echo "$mode $("$loop" 100000 "$mode")"
    done
    echo "capture $("$cli" capture -o "$out/loop.clscope" -- "$loop" 100000 2>/dev/null)"
    for ts in ${TIMESTAMPS:-}; do
      echo "capture --timestamps $ts $("$cli" capture --timestamps "$ts" -o "$out/loop.clscope" -- "$loop" 100000 \
        2>/dev/null)"
      if command -v python3 > /dev/null; then
        echo "layer-only --timestamps $ts $(CLSCOPE_CAPTURE_TIMESTAMPS=$ts python3 "$(dirname "$0")/drain.py" \
          "$(dirname "$cli")/libclscope-layer.so" "$loop" 100000 2>/dev/null)"
      fi
    done
    # The layer alone: its stream drained by a script, no recorder (needs python3).
    if command -v python3 > /dev/null; then
      echo "layer-only $(python3 "$(dirname "$0")/drain.py" "$(dirname "$cli")/libclscope-layer.so" "$loop" 100000 2>/dev/null)"
    fi
    i=$((i + 1))
  done
  s=$(date +%s%N)
  "$cli" capture -o "$out/big.clscope" -- "$loop" 1000000 2>/dev/null
  e=$(date +%s%N)
  echo "1M launches under capture: $(( (e - s) / 1000000 )) ms wall"
  for i in 1 2 3; do
    s=$(date +%s%N)
    "$cli" capture-info "$out/big.clscope" --json > "$out/big-summary.json"
    e=$(date +%s%N)
    echo "capture-info of 1M commands: $(( (e - s) / 1000000 )) ms"
  done
  grep -E '"(commands|launches|dropped_records)"' "$out/big-summary.json"
  if [ -n "${CLPEAK:-}" ]; then
    "$CLPEAK" -p 0 -d 0 --kernel-latency > "$out/clpeak-plain.txt" 2>&1
    echo "clpeak plain rc=$?: $(grep -i latency "$out/clpeak-plain.txt")"
    "$cli" capture -o "$out/clpeak.clscope" -- "$CLPEAK" -p 0 -d 0 --kernel-latency > "$out/clpeak-capture.txt" \
      2> "$out/clpeak-capture.err"
    echo "clpeak capture rc=$?: $(grep -i latency "$out/clpeak-capture.txt")"
    cat "$out/clpeak-capture.err"
  fi
  echo "== $(date -u) load $(cut -d' ' -f1-3 /proc/loadavg)"
} 2>&1 | tee "$out/overhead.txt"
