#!/usr/bin/env bash
# The user guide's pictures (docs/images/*.png), each made by the app itself with --screenshot under Xvfb.
# Usage: bash docs/make-screenshots.sh [BUILD_DIR]   (default build/release; needs xvfb-run and ImageMagick)
set -euo pipefail
cd "$(dirname "$0")/.."
app="${1:-build/release}/app/clscope"
cli="${1:-build/release}/app/clscope-cli"
out=docs/images
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
mkdir -p "$out"
export CLSCOPE_DEVICE=pocl
shot() { # NAME ARGS...: a 1500x950 window, kept at 1200 pixels wide
  local name="$1"; shift
  xvfb-run -a -s "-screen 0 1600x1000x24" "$app" --size 1500x950 "$@" --screenshot "$tmp/$name.png"
  convert "$tmp/$name.png" -resize 1200x "$out/$name.png"
}
mandel=(resources/kernels/mandelbrot.cl --build --run mandelbrot --arg iterations=buffer:uint:262144:zeros
        --arg width=uint:512 --arg height=uint:512 --arg max_iter=uint:256 --global 512,512)
shot devices --show devicesDock
shot build-errors tests/data/build/error.cl --build --show diagnosticsDock
shot build-log resources/kernels/vector_add.cl --build --show buildLogDock
shot run-results resources/kernels/vector_add.cl --build --run vector_add --arg a=buffer:float:4096:iota \
  --arg b=buffer:float:4096:fill=0.5 --arg c=buffer:float:4096:zeros --arg n=uint:4000 --global 4096 \
  --print c --show resultsDock
shot run-history "${mandel[@]}" --print iterations --show runHistoryDock
shot timeline "${mandel[@]}" --repeat 6 --show timelineDock
shot timeline-zoomed "${mandel[@]}" --repeat 6 --show timelineDock --timeline-view 0,8000
# The off-by-one write of issue 31 (c[i + 1] over 1024 floats): the report names the buffer and the index.
shot memory-check tests/data/check/bounds.cl --build --run write_past_end --arg c=buffer:float:1024:zeros \
  --global 1024 --memory-check --show diagnosticsDock
# A struct argument in its field editor, and a buffer of structs a column per field; an image read back.
shot struct-editor tests/data/structs/particles.cl --build --run apply \
  --arg "p=struct:x=1.5,v=(1,2,3,4),inner={a=7,b=(4,5,6)}" --arg "out=buffer:Particle:8:fill={mass=100}" \
  --global 8 --print out --show resultsDock --edit-struct p
shot results-image tests/data/images/blur.cl --build --run blur_box \
  --arg input_image=image2d:RGBA:UNSIGNED_INT8:file=tests/data/images/picture.png \
  --arg output_image=image2d:RGBA:UNSIGNED_INT8:40x30:zeros --arg size=int:1 --global 40,30 \
  --print output_image --show resultsDock
# Generated code, build matrix and run on every device (PoCL and Oclgrind), at the two window sizes.
matmul64=(resources/kernels/matmul_tiled.cl --build --run matmul_tiled --global 64,64 --local 16,16
          --arg A=buffer:float:4096:random=1 --arg B=buffer:float:4096:random=2 --arg C=buffer:float:4096:zeros
          --arg N=int:64 --repeat 3)
for size in 1280x800 1600x1000; do
  sized() { local name="$1"; shift; xvfb-run -a -s "-screen 0 1600x1000x24" "$app" --size "$size" "$@" \
    --screenshot "$out/$name-$size.png"; }
  sized code resources/kernels/matmul_tiled.cl --build --show-code
  sized code-diff resources/kernels/matmul_tiled.cl --matrix "-cl-opt-disable|-cl-fast-relaxed-math" --code-diff
  sized matrix "${matmul64[@]}" --matrix "-O0|-cl-fast-relaxed-math|-cl-mad-enable -DTILE=32" --time-it
  sized runall "${matmul64[@]}" --run-all
  sized runall-differ tests/data/run/native_precision.cl --build --run-all
done
"$cli" bench bandwidth --effort quick --save "$tmp/baseline.json" > /dev/null
shot benchmarks --bench bandwidth --baseline "$tmp/baseline.json" --show benchmarksDock
# Captures: pyopencl's demo_mandelbrot.py with its launch's contents, and a MemoryPool program for memory.
PYOPENCL_CTX=0 "$cli" capture -o "$tmp/mandelbrot.clscope" --kernel mandelbrot -- \
  /usr/bin/python3 /usr/share/doc/python-pyopencl-doc/examples/demo_mandelbrot.py > /dev/null 2>&1
PYOPENCL_CTX=0 STOP_AFTER=2 "$cli" capture -o "$tmp/pool.clscope" -- \
  /usr/bin/python3 tests/data/capture/live_pool.py > /dev/null 2>&1
shot capture-kernels "$tmp/mandelbrot.clscope" --show capture --capture-tab kernels
shot capture-timeline "$tmp/mandelbrot.clscope" --show timelineDock
shot capture-memory "$tmp/pool.clscope" --show capture --capture-tab "device memory"
shot capture-programs "$tmp/mandelbrot.clscope" --show capture --capture-tab programs
shot capture-api "$tmp/pool.clscope" --show capture --capture-tab "api calls"
# A capture at 1280x800: the Capture panel in the centre, its timeline under it, the Arguments panel as it was.
xvfb-run -a -s "-screen 0 1600x1000x24" "$app" --size 1280x800 "$tmp/mandelbrot.clscope" --show capture \
  --show argumentsDock --screenshot "$out/capture-1280x800.png"
# The local-size sweep's window (Build > Sweep local size), 1-D and 2-D, at both window sizes, and a
# kernel whose outputs depend on the local size.
sweep() { # NAME SIZE ARGS...: the dialog alone, as large as the window lets it be
  local name="$1" size="$2"; shift 2
  xvfb-run -a -s "-screen 0 1600x1000x24" "$app" --size "$size" "$@" --screenshot "$out/$name.png"
}
for size in 1280x800 1600x1000; do
  sweep "sweep-1d-$size" "$size" resources/kernels/vector_add.cl --build --sweep auto
  sweep "sweep-2d-$size" "$size" resources/kernels/matmul_tiled.cl --build --sweep auto
done
sweep sweep-differ 1280x800 tests/data/run/sweep.cl --build --run local_size_shows \
  --arg out=buffer:int:1024 --global 1024 --local 64 --sweep "8;16;32;3;128;256;driver"
# The pool chart following a workload: three pictures two seconds apart.
xvfb-run -a -s "-screen 0 1600x1000x24" "$app" --size 1500x950 --show memoryPoolDock --workload churn \
  --rate 20000 --screenshot "$tmp/memory-pool.png" --screenshots 3 --screenshot-every 2000
for i in 01 02 03; do convert "$tmp/memory-pool-$i.png" -resize 1200x "$out/memory-pool-$i.png"; done
ls -la "$out"
