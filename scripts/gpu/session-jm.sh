#!/usr/bin/env bash
# Thirtieth session, call 6 (2 x H200), the committed build: calls 4-5 saw yeex abort ("malloc():
# unaligned tcache chunk") and crash (SIGSEGV) under Nsight Compute in graph runs of 60 steps on 2
# GPUs. Without a profiler: the same run (640 x 640 x 320, graph, split and pushing forced) and
# graph's and coop's 2-GPU runs of a small deck under glibc's heap checks (MALLOC_CHECK_=3) and
# compute-sanitizer's memcheck (the device's accesses, pinned host memory included).
#   BUILD_DIR=build/x scripts/gpu/session-jm.sh OUT_DIR
set -uo pipefail
cd "$(dirname "$0")/../.."
source scripts/gpu/lib.sh "$1"
machine_info
box_deck slab320 640 640 320 60
box_deck small 96 96 64 80
sanitizer=$(command -v compute-sanitizer || ls /usr/local/cuda/bin/compute-sanitizer 2>/dev/null | head -1)
echo "compute-sanitizer: $sanitizer" >> "$out/summary.txt"
for mode in 0 1; do
  box_run "slab320_push$mode" slab320 MALLOC_CHECK_=3 YEEX_PUSHING_SWEEPS=$mode -- --gpus 2 --exchange graph
done
for x in graph coop overlap; do
  box_run "small_$x" small MALLOC_CHECK_=3 -- --gpus 2 --exchange "$x"
  run "memcheck_$x" 240 "$sanitizer" --tool memcheck --print-limit 20 "$b/yeex" run "$out/small.toml" --engine cuda \
    --gpus 2 --exchange "$x" --output "$out/o_memcheck_$x"
  rm -rf "$out/o_memcheck_$x"
  pack
done
grep -H "stepping\|checksum\|rror" "$out"/slab320_*.txt "$out"/small_*.txt | sed "s|$out/||"
grep -H "ERROR SUMMARY\|Invalid\|rror" "$out"/memcheck_*.txt | sed "s|$out/||" | head -30
cat "$out/summary.txt"
pack
