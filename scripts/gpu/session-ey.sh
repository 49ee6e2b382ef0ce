#!/usr/bin/env bash
# Seventeenth session, call 1 (one GPU): the landed build da7a408 (coop's trial launches meet the
# team): final_checks (gpu-check.sh, validate on one GPU and with coop, cpml-check.sh's benchmark),
# which session 16 ran only before the fix; then the gpu test binaries REPS more times each, to look
# for any other flaky test.
set -uo pipefail
source scripts/gpu/lib.sh "$1"
final_checks
for i in $(seq "${REPS:-20}"); do
  for t in test_multi_gpu test_cuda_engine test_topology_gpu; do
    run "${t}_$i" 120 "$b/tests/gpu/$t" --gtest_color=no --gtest_brief=1
  done
done
pack
final_report
for t in test_multi_gpu test_cuda_engine test_topology_gpu; do
  echo "$t: $(grep -c "^${t}_[0-9]* exit 0" "$out/summary.txt") passed of $(grep -c "^${t}_" "$out/summary.txt")"
done
grep -v "exit 0" "$out/summary.txt"
grep -h "FAILED" "$out"/test_*.txt | sort | uniq -c
