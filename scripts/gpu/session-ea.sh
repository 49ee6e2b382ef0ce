#!/usr/bin/env bash
# Fourteenth session, call 11 (one GPU): the run reports coop's kernel form (HaloExchange::choices:
# the summary's "exchange" line, run.json's run.exchange_choices, yeex bench --json per row). The
# gpu tests (CoopReportsItsKernelForm); 128 x 128 x 32 and x 64 under coop on one GPU and on 4
# slabs of it; yeex bench --json of coop at 128^3 and 512^3.
set -uo pipefail
source scripts/gpu/lib.sh "$1"
gpu_test_pair test_multi_gpu test_cuda_engine
pack
for nz in 32 64; do
  quarter_deck $nz "z$nz"
  for slabs in 1 4; do
    run "z${nz}_${slabs}slabs" 60 "$b/yeex" run "$out/z$nz.toml" --engine cuda --gpus 1 --subdomains $slabs --exchange coop --output "$out/o$nz$slabs"
    cp "$out/o$nz$slabs/run.json" "$out/run_z${nz}_${slabs}slabs.json"
    rm -rf "$out/o$nz$slabs"
  done
done
run bench 120 "$b/yeex" bench --engine cuda --gpus 1 --counts 1 --exchanges coop --size 128 512 --steps 60 --repeats 5 --json "$out/bench.json"
echo "done ($((SECONDS - t0)) s)" >> "$out/summary.txt"; pack
grep -h "PASSED\|FAILED" "$out"/test_*.txt
grep -H "exchange \|stepping" "$out"/z*_*slabs.txt | sed "s|$out/||"
python3 -c "import json,sys; [print(r['size'], r['exchange'], round(r['gcells_per_s'], 2), repr(r['exchange_choices'])) for r in json.load(open(sys.argv[1]))['rows']]" "$out/bench.json"
