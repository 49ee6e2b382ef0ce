#!/usr/bin/env bash
# Seventeenth session, call 2 (one GPU): the build with the bad-input fixes (CLI and deck checks):
# the new test_gpu_cli alone (the cuda engine's refusals: exit 2, message, nothing written), then
# final_checks (gpu-check.sh with every gpu test, validate on one GPU and with coop,
# cpml-check.sh's benchmark), then a few bench commands whose defaults changed (counts on one GPU).
set -uo pipefail
source scripts/gpu/lib.sh "$1"
run test_gpu_cli 300 "$b/tests/gpu/test_gpu_cli" --gtest_color=no
final_checks
run bench_default_counts 120 "$b/yeex" bench --engine cuda --size 64 --steps 5 --warmup 2 --repeats 1
run bench_list 30 "$b/yeex" bench --engine cuda --exchanges list
run bench_nothing_runs 30 "$b/yeex" bench --engine cuda --size 64 --exchanges nccl --counts 1 --no-peer
pack
final_report
grep -h "PASSED\|FAILED\|OK \]" "$out/test_gpu_cli.txt" | head -20
for f in bench_default_counts bench_list bench_nothing_runs; do echo "== $f"; tail -12 "$out/$f.txt"; done
grep -v "exit 0" "$out/summary.txt"
