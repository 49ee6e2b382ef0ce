#!/usr/bin/env bash
# Twenty-fifth session, call 12 (4 x H200, the last minutes of the session's device time): the
# session's last build (8a9d8c3). In order of what issue 3 still lacks, packing after each: the
# multi-GPU tests on 4 GPUs; strong 128^3 on 1, 2, 4 GPUs, every backend (400 steps x 9, the
# latency-bound case); weak 512^3 a GPU on 1 and 4; strong 256^3 and 512^3 on 1 and 4; the other
# gpu tests.
#   BUILD_DIR=build/slim scripts/gpu/session-ic.sh OUT_DIR
set -uo pipefail
cd "$(dirname "$0")/../.."
source scripts/gpu/lib.sh "$1"
machine_info
run multi_gpu 120 "$b/tests/gpu/test_multi_gpu" --gtest_color=no --gtest_brief=1
pack
run strong128 60 "$b/yeex" bench --engine cuda --counts 1,2,4 --steps 400 --warmup 50 --repeats 9 --exchanges "$all" \
  --size 128 --json "$out/strong128.json" --markdown "$out/strong128.md"
pack
four=("$b/yeex" bench --engine cuda --steps 50 --warmup 10 --repeats 5 --counts 1,4)
run weak512 150 "${four[@]}" --exchanges "$all" --scaling weak --size 512 --json "$out/weak512.json" --markdown "$out/weak512.md"
pack
run strong256_512 120 "${four[@]}" --exchanges "$all" --scaling strong --size 256 512 --json "$out/strong.json" --markdown "$out/strong.md"
pack
for t in test_cuda_engine test_gpu_cli test_topology_gpu; do run "$t" 60 "$b/tests/gpu/$t" --gtest_color=no --gtest_brief=1; done
echo "done ($((SECONDS - t0)) s)" >> "$out/summary.txt"; pack
grep -hE "PASSED|FAILED" "$out"/multi_gpu.txt "$out"/test_*.txt
cat "$out"/strong128.md "$out"/weak512.md "$out"/strong.md 2>/dev/null | grep -v "^- \|^\`\|^# "
cat "$out/summary.txt"
