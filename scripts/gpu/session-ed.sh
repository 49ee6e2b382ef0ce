#!/usr/bin/env bash
# Fourteenth session, call 18 (one GPU): the review's tidy of coop's set_up and choices() (one
# FormTrials built once for every subdomain; the report of the one agreed form): the gpu tests, the
# coop tests twice more, and 128 x 128 x 64 under coop on 1 and 4 slabs (the summary's report).
set -uo pipefail
source scripts/gpu/lib.sh "$1"
gpu_test_pair test_multi_gpu test_cuda_engine
run coop_tests_x2 300 "$b/tests/gpu/test_multi_gpu" --gtest_color=no --gtest_brief=1 --gtest_repeat=2 --gtest_filter='MultiGpu.Coop*:MultiGpu.Bench*'
quarter_deck 64 z64
for slabs in 1 4; do
  run "z64_${slabs}slabs" 60 "$b/yeex" run "$out/z64.toml" --engine cuda --gpus 1 --subdomains $slabs --exchange coop --output "$out/o"
  rm -rf "$out/o"
done
echo "done ($((SECONDS - t0)) s)" >> "$out/summary.txt"; pack
grep -h "PASSED\|FAILED" "$out"/test_*.txt "$out"/coop_tests_x2.txt
grep -h "exchange  coop\|stepping" "$out"/z64_*slabs.txt
