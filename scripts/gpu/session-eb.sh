#!/usr/bin/env bash
# Fourteenth session, call 15 (one GPU): yeex bench runs coop's kernel-form trials untimed after the
# warm-up (settling_steps). The gpu tests (BenchTimesCoopAfterItsTrials); yeex bench --json of coop
# at 128^3, 256^3 and 512^3 with gpu-check's short repeats (50 steps x 5, 20 warm-up), which
# before held trials in their first repeats; twice.
set -uo pipefail
source scripts/gpu/lib.sh "$1"
gpu_test_pair test_multi_gpu test_cuda_engine
pack
for rep in 1 2; do
  run "bench_$rep" 120 "$b/yeex" bench --engine cuda --gpus 1 --counts 1 --exchanges coop --size 128 256 512 --steps 50 --repeats 5 --json "$out/bench_$rep.json"
done
echo "done ($((SECONDS - t0)) s)" >> "$out/summary.txt"; pack
grep -h "PASSED\|FAILED" "$out"/test_*.txt
for rep in 1 2; do
  python3 -c "import json,sys; [print(r['size'], r['exchange'], round(r['gcells_per_s'], 2), r['settling_steps'], repr(r['exchange_choices'])) for r in json.load(open(sys.argv[1]))['rows']]" "$out/bench_$rep.json"
done
