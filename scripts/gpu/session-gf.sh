#!/usr/bin/env bash
# Twentieth session, call 10 (one GPU): coop's report of its sweep sources (exchange_choices:
# "swept on K of N slabs with sources"): test_multi_gpu's coop cases, slabs sharing the GPU.
#   BUILD_DIR=build/slim scripts/gpu/session-gf.sh OUT_DIR
set -uo pipefail
cd "$(dirname "$0")/../.."
source scripts/gpu/lib.sh "$1"
nvidia-smi -L > "$out/machine.txt"
FILTER='*oop*' coop_tests report
box_deck small 64 64 64 40
"$b/yeex" run "$out/small.toml" --engine cuda --gpus 1 --subdomains 4 --exchange coop --output "$out/o" 2>&1 |
  grep -E "exchange|checksum" > "$out/run_summary.txt"
rm -rf "$out/o"
echo "done ($((SECONDS - t0)) s)" >> "$out/summary.txt"; pack
cat "$out/summary.txt" "$out/run_summary.txt"
grep -h "PASSED\|FAILED\|Failure" "$out"/coop_tests_*.txt | head
