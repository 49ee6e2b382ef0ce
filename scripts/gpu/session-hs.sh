#!/usr/bin/env bash
# Twenty-fifth session, call 2 (all GPUs): bench's repeats timed by CUDA events (Engine::stamp)
# and the health check's scan kernel in its second form (16-byte loads, one launch for the six
# arrays). Every gpu test; the check's cost at 512^3 (after every step, and the default); the engine
# at 512^3 on one GPU, f32 and f64, events against the host's clock; weak 512^3 on 1 and all GPUs,
# every backend.
#   BUILD_DIR=build/slim scripts/gpu/session-hs.sh OUT_DIR
set -uo pipefail
cd "$(dirname "$0")/../.."
source scripts/gpu/lib.sh "$1"
tested_start
check_costs
for precision in f32 f64; do
  run "one_$precision" 90 "${one[@]}" --exchanges overlap,coop --size 512 --precision "$precision" --json "$out/one_$precision.json"
done
pack
all_gpus yeex
run weak 300 "${x[@]}" --exchanges "$all" --scaling weak --size 512 --json "$out/weak.json" --markdown "$out/weak.md"
echo "done ($((SECONDS - t0)) s)" >> "$out/summary.txt"; pack
grep -E "^## |PASSED|FAILED|SKIPPED \[" "$out/gpu_tests.txt" | head -20
print_costs
for f in "$out"/one_f32.json "$out"/one_f64.json "$out"/weak.json; do
  python3 -c "
import json, sys
for r in json.load(open(sys.argv[1]))['rows']:
    if not r['skipped']:
        print(sys.argv[1].split('/')[-1], r['scaling'], r['exchange'], r['devices'], 'events %.4f ms' % (1e3 * r['seconds_per_step_median']), 'host %.4f ms' % (1e3 * r['host_clock_seconds_per_step_median']), '%.2f Gcells/s' % r['gcells_per_s'], 'eff %.1f %%' % (100 * r['efficiency']))" "$f"
done
cat "$out/weak.md"
cat "$out/summary.txt"
