#!/usr/bin/env bash
# Twentieth session, call 7 (4 GPUs): the border-first schedule with E's bulk planes that read an
# H border plane moved into E's borders (YEEX_WIDE_E_BORDER=1), so that the bulk lane's E sweep
# no longer waits for the border lane's H sweep (one cross-lane wait a step instead of two):
# test_multi_gpu's border-first cases under it (bits), then weak scaling on the 640 x 640 x 160
# slab deck on 1, 2 and 4 GPUs (host-staged, overlap, graph) without and with it, twice.
#   BUILD_DIR=build/slim scripts/gpu/session-gc.sh OUT_DIR
set -uo pipefail
cd "$(dirname "$0")/../.."
source scripts/gpu/lib.sh "$1"
nvidia-smi -L > "$out/machine.txt"
run tests_wide 300 env YEEX_WIDE_E_BORDER=1 "$b/tests/gpu/test_multi_gpu" --gtest_color=no --gtest_brief=1 \
  --gtest_filter='-*coop*:*Coop*'
pack
slab_weak host-staged,overlap,graph
for rep in 1 2; do
  run "weak_$rep" 200 "${bench[@]}" "${weak[@]}"
  run "weak_wide_$rep" 200 env YEEX_WIDE_E_BORDER=1 "${bench[@]}" "${weak[@]}"
  pack
done
echo "done ($((SECONDS - t0)) s)" >> "$out/summary.txt"; pack
cat "$out/summary.txt"
grep -h "PASSED\|FAILED\|tests ran" "$out"/tests_wide.txt | head
grep -H "weak " "$out"/weak_*.txt | sed "s|$out/||" | awk '{print $1, $3, $4, $5, $6, $12, $13}'
