#!/usr/bin/env bash
# Fourteenth session, call 16 (one GPU): subdomains take one kernel form, chosen by the team's trial
# times. The gpu tests; the coop tests of test_multi_gpu three times more (CoopReportsItsKernelForm
# had failed on two slabs choosing differently); yeex validate with coop on 4 slabs; 128 x 128 x 32
# and x 64 under coop on 4 slabs of the GPU (YEEX_COOP_TUNE_LOG=1: each slab's own times); yeex
# bench --json of coop at 128^3, 256^3, 512^3 (50 x 5).
set -uo pipefail
source scripts/gpu/lib.sh "$1"
gpu_test_pair test_multi_gpu test_cuda_engine
run coop_tests_x3 300 "$b/tests/gpu/test_multi_gpu" --gtest_color=no --gtest_brief=1 --gtest_repeat=3 --gtest_filter='MultiGpu.Coop*:MultiGpu.Bench*'
run validate_coop4 200 "$b/yeex" validate --engine cuda --gpus 1 --subdomains 4 --exchange coop
pack
for nz in 32 64; do
  quarter_deck $nz "z$nz"
  run "z${nz}_4slabs" 60 env YEEX_COOP_TUNE_LOG=1 "$b/yeex" run "$out/z$nz.toml" --engine cuda --gpus 1 --subdomains 4 --exchange coop --output "$out/o"
  rm -rf "$out/o"
done
run bench 120 "$b/yeex" bench --engine cuda --gpus 1 --counts 1 --exchanges coop --size 128 256 512 --steps 50 --repeats 5 --json "$out/bench.json"
echo "done ($((SECONDS - t0)) s)" >> "$out/summary.txt"; pack
grep -h "PASSED\|FAILED" "$out"/test_*.txt "$out"/coop_tests_x3.txt
tail -1 "$out/validate_coop4.txt"
grep -h "^coop:\|exchange  coop\|stepping" "$out"/z*_4slabs.txt
python3 -c "import json,sys; [print(r['size'], r['exchange'], round(r['gcells_per_s'], 2), r['settling_steps'], repr(r['exchange_choices'])) for r in json.load(open(sys.argv[1]))['rows']]" "$out/bench.json"
