#!/usr/bin/env bash
# One visit to the H200 machine (shared/GPU.md) for the paths of issues 14 and 15 that the development box
# only runs on PoCL and Oclgrind: images and samplers on NVIDIA's driver (its format list, the SDK-shaped
# blur against PoCL's on the same machine), the Rodinia-shaped hotspot, a struct argument laid out by
# NVIDIA, and workbench runs saved as captures and replayed on the other device (replay --launch A-B).
# Usage there: bash docs/gpu-issue14-run.sh build/cli "$OUT"   (build/cli from `cmake --preset cli`)
set -u
cli="$1/app/clscope-cli"
out="$2"
mkdir -p /tmp/vendors && echo /usr/lib/libnvidia-opencl.so.1 > /tmp/vendors/nvidia.icd \
  && cp /etc/OpenCL/vendors/*.icd /tmp/vendors/ 2>/dev/null
export OCL_ICD_VENDORS=/tmp/vendors
# ocl-icd first: CUDA's own libOpenCL ignores OPENCL_LAYERS (docs/benchmarks.md).
export LD_LIBRARY_PATH="$1/lib:/usr/lib/x86_64-linux-gnu${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"  # Debian's libsqlite3 carried in build/cli/lib
d=tests/data
log() { echo "== $(date -u +%H:%M:%S) $*" | tee -a "$out/log.txt"; }
{ nvidia-smi --query-gpu=name,driver_version --format=csv 2>&1 | head -2; ldd "$cli"; } > "$out/machine.txt" 2>&1

log "a DEPTH/FLOAT input image (cl_khr_depth_images: NVIDIA has it, PoCL 3.1 refuses it by name)"
"$cli" run $d/images/blur.cl --device nvidia --kernel blur_box --global 40,30 \
  --arg input_image=image2d:DEPTH:FLOAT:40x30 --arg output_image=image2d:RGBA:UNSIGNED_INT8:40x30 \
  --arg size=int:1 > "$out/formats.txt" 2>&1; echo "exit $?" >> "$out/formats.txt"

for dev in nvidia pocl; do
  for k in blur_box blur_sampled; do
    sampler=(); fmt=UNSIGNED_INT8
    if [ $k = blur_sampled ]; then sampler=(--arg sampler=sampler:unnormalized,clamp_to_edge,nearest); fmt=UNORM_INT8; fi
    log "$k on $dev"
    "$cli" run $d/images/blur.cl --device $dev --kernel $k --global 40,30 "${sampler[@]}" \
      --arg input_image=image2d:RGBA:$fmt:file=$d/images/picture.png \
      --arg output_image=image2d:RGBA:$fmt:40x30 --arg size=int:2 \
      --save output_image="$out/$k-$dev.npy" --save output_image="$out/$k-$dev.png" \
      > "$out/$k-$dev.txt" 2>&1; echo "exit $?" >> "$out/$k-$dev.txt"
  done
  log "hotspot on $dev"
  "$cli" run $d/hotspot/hotspot.cl --device $dev --kernel hotspot --global 96,96 --local 16,16 \
    --arg power=buffer:float:4096:file=$d/hotspot/power_64.npy \
    --arg temp_src=buffer:float:4096:file=$d/hotspot/temp_64.npy --arg temp_dst=buffer:float:4096 \
    --arg iteration=2 --arg grid_cols=64 --arg grid_rows=64 --arg border_cols=2 --arg border_rows=2 \
    --arg Cap=2.734375e-5 --arg Rx=10 --arg Ry=10 --arg Rz=80 --arg step=1.4583333e-7 \
    --save temp_dst="$out/hotspot-$dev.npy" > "$out/hotspot-$dev.txt" 2>&1; echo "exit $?" >> "$out/hotspot-$dev.txt"
  log "struct argument on $dev"
  "$cli" run $d/structs/particles.cl --device $dev --kernel apply --global 8 \
    --arg "p=struct:x=1.5,v=(1,2,3,4),inner={a=7,b=(4,5,6)}" --arg "out=buffer:Particle:8:fill={mass=100}" \
    --print out --json > "$out/struct-$dev.json" 2>&1; echo "exit $?" >> "$out/struct-$dev.json"
done
for k in blur_box blur_sampled hotspot; do
  a="$out/$k-nvidia.npy"; b="$out/$k-pocl.npy"
  if cmp -s "$a" "$b"; then echo "$k: NVIDIA and PoCL byte-equal"; else echo "$k: NVIDIA and PoCL differ: $(cmp -l "$a" "$b" 2>/dev/null | wc -l) bytes"; fi
done > "$out/compare.txt" 2>&1

log "a run saved as a capture on PoCL, replayed on NVIDIA (and the other way)"
printf '__kernel void halve(__global float *x) { const int i = get_global_id(0); x[i] = x[i] * 0.5f + (float)i; }\n' > /tmp/halve.cl
"$cli" run /tmp/halve.cl --device pocl --kernel halve --global 1048576 --repeat 8 \
  --arg x=buffer:float:1048576:random=3 --save-capture "$out/halve-pocl.clscope" > "$out/halve-pocl.txt" 2>&1
"$cli" replay "$out/halve-pocl.clscope" --launch 0-7 --device nvidia --json > "$out/replay-halve-nvidia.json" 2>&1
echo "exit $?" >> "$out/replay-halve-nvidia.json"
"$cli" run resources/kernels/vector_add.cl --device nvidia --kernel vector_add --global 1048576 \
  --arg a=buffer:float:1048576:random=1 --arg b=buffer:float:1048576:random=2 --arg c=buffer:float:1048576 \
  --arg n=uint:1048576 --save-capture "$out/vadd-nvidia.clscope" > "$out/vadd-nvidia.txt" 2>&1
"$cli" replay "$out/vadd-nvidia.clscope" --launch 0 --device pocl > "$out/replay-vadd-pocl.txt" 2>&1
echo "exit $?" >> "$out/replay-vadd-pocl.txt"
"$cli" capture-info "$out/vadd-nvidia.clscope" > "$out/vadd-nvidia-info.txt" 2>&1
rm -f "$out"/*.clscope "$out"/*.clscope-wal "$out"/*.clscope-shm  # results are the text files
log "done"
