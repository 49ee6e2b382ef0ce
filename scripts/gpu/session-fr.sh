#!/usr/bin/env bash
# Nineteenth session, call 4 (4 GPUs): the build to commit, programmatic dependent launch and
# sources in the E sweep on by default: every gpu test binary; issue 3's table (weak 512^3 per GPU
# on 1, 2, 4 GPUs; strong 640^3 on 1, 4; strong 512^3, 256^3 and 128^3 on 1, 2, 4, the small ones
# 400 steps x 9, 128^3 twice), every backend; scripts/gpu-check.sh.
#   BUILD_DIR=build/slim scripts/gpu/session-fr.sh OUT_DIR
set -uo pipefail
cd "$(dirname "$0")/../.."
source scripts/gpu/lib.sh "$1"
machine_and_tests
long=("$b/yeex" bench --engine cuda --steps 400 --warmup 50 --repeats 9 --scaling strong)
run weak_512 150 "${bench[@]}" --scaling weak --size 512 --counts 1,2,4 --exchanges $all --halo-depth 2 --json "$out/weak_512.json"; pack
run strong_640 150 "${bench[@]}" --scaling strong --size 640 --counts 1,4 --exchanges $all --halo-depth 2 --json "$out/strong_640.json"; pack
run strong_512 100 "${bench[@]}" --scaling strong --size 512 --counts 1,2,4 --exchanges $all --halo-depth 2 --json "$out/strong_512.json"; pack
run strong_256 100 "${long[@]}" --size 256 --counts 1,2,4 --exchanges $all --halo-depth 2 --json "$out/strong_256.json"; pack
for rep in 1 2; do
  run "strong_128_$rep" 100 "${long[@]}" --size 128 --counts 1,2,4 --exchanges $all --halo-depth 2 --json "$out/strong_128_$rep.json"; pack
done
run gpu_check 300 scripts/gpu-check.sh "$b" "$out/gpu-check"
echo "done ($((SECONDS - t0)) s)" >> "$out/summary.txt"; pack
cat "$out/summary.txt"
grep -h "PASSED\|FAILED\|not run" "$out"/tests_*.txt | sort | uniq -c
grep -E "PASS|FAIL" "$out/gpu-check/gpu-check.log" | tail -5
for f in "$out"/weak_512.txt "$out"/strong_*.txt; do echo "== $(basename "$f")"; grep -v "^#" "$f" | grep -v "^scaling" | awk '$5 != 2'; done
