#!/bin/sh
# Regenerates the Oclgrind logs of this folder the way `clscope-cli run --check` makes them: the CLI's
# child mode (CLSCOPE_CHECK_CHILD=1) with the loader limited to Oclgrind and its checks on. Run from this
# folder: ./capture.sh PATH/TO/clscope-cli [PATH/TO/liboclgrind-rt-icd.so]
set -u
cli=$1
icd=${2:-/usr/lib/oclgrind/liboclgrind-rt-icd.so}
vendors=$(mktemp -d)
trap 'rm -rf "$vendors"' EXIT
echo "$icd" > "$vendors/oclgrind.icd"
export OCL_ICD_VENDORS="$vendors" CLSCOPE_CHECK_CHILD=1 CLSCOPE_NO_CACHE=1
export OCLGRIND_CHECK_API=1 OCLGRIND_DATA_RACES=1 OCLGRIND_UNINITIALIZED=1
unset CLSCOPE_DEVICE OCLGRIND_MAX_ERRORS

capture() { # NAME FILE KERNEL ARGS...: NAME.log is Oclgrind's log, NAME.stderr the child's stderr
    name=$1 file=$2 kernel=$3
    shift 3
    OCLGRIND_LOG="$name.log" "$cli" run "$file" --kernel "$kernel" --check "$@" >/dev/null 2>"$name.stderr"
    [ -s "$name.stderr" ] || rm -f "$name.stderr"
    [ -s "$name.log" ] || rm -f "$name.log"
}

capture oob_read bugs.cl oob_read --global 4 --arg in=buffer:float:4:iota --arg out=buffer:float:4
capture oob_write bugs.cl oob_write --global 4 --arg out=buffer:float:4
capture local_race bugs.cl local_race --global 8 --local 4 --arg out=buffer:int:8 --arg scratch=local:16
capture uninit_read bugs.cl uninit_read --global 2 --arg out=buffer:int:2 --arg k=0
capture divergent_barrier bugs.cl divergent_barrier --global 4 --local 4 --arg out=buffer:int:4
capture header header.cl read_next --global 2 --arg in=buffer:float:2:iota --arg out=buffer:float:2
OCLGRIND_MAX_ERRORS=2 capture max_errors bugs.cl local_race --global 8 --local 4 --arg out=buffer:int:8 \
    --arg scratch=local:16
capture api ../run/types.cl pair_by_value --global 1 --arg out=buffer:int:1 --arg v=bytes4:00000000
# A program from the binary cache: Oclgrind has no source text to show.
cache=$(mktemp -d)
CLSCOPE_NO_CACHE= CLSCOPE_CACHE_DIR=$cache "$cli" run bugs.cl --kernel oob_write --global 4 \
    --arg out=buffer:float:4 >/dev/null 2>&1
CLSCOPE_NO_CACHE= CLSCOPE_CACHE_DIR=$cache capture cached bugs.cl oob_write --global 4 --arg out=buffer:float:4
rm -rf "$cache"
