#!/usr/bin/env bash
# Twenty-second session, call 1 (4 GPUs): b2r on graph's transport (counters on the GPUs, steps
# replayed as CUDA graphs) where each GPU holds one slab, graph's pushing sweeps up to 192^2-node
# planes, the source check shared by coop and graph. scripts/gpu-check.sh and strong 128^3 on 1, 2,
# 4 for every backend (b2r at R = 2), twice (check_and_strong128); b2r with overlap's events
# forced (yeex-b2rev) against the counters at 128^3, R = 2 and 4; weak 512^3 a GPU for b2r either
# way, graph and overlap; strong 256 x 256 x 4096 (268 M cells, as the 2-D blog's 16384^2) for
# graph (pushing forced: yeex-in; the split) and overlap; strong 192^3 graph (now pushing).
#   BUILD_DIR=build/slim scripts/gpu/session-gp.sh OUT_DIR
set -uo pipefail
cd "$(dirname "$0")/../.."
source scripts/gpu/lib.sh "$1"
check_and_strong128
env_bin yeex-b2rev YEEX_B2R_TRANSPORT=events
env_bin yeex-in YEEX_PUSHING_SWEEPS=1
long=(bench --engine cuda --steps 400 --warmup 50 --repeats 9 --scaling strong --counts 1,4)
for rep in 1 2; do
  for depth in 2 4; do
    run "strong128_b2r_R${depth}_$rep" 60 "$b/yeex" "${long[@]}" --size 128 --exchanges b2r --halo-depth $depth
    run "strong128_b2rev_R${depth}_$rep" 60 "$b/yeex-b2rev" "${long[@]}" --size 128 --exchanges b2r --halo-depth $depth
  done
done
pack
run strong192 60 "$b/yeex" "${long[@]}" --size 192 --exchanges graph
for rep in 1 2; do
  run "weak512_$rep" 150 "${bench[@]}" --scaling weak --size 512 --counts 1,4 --exchanges b2r,graph,overlap --halo-depth 2 --json "$out/weak_512_$rep.json"
  run "weak512_b2rev_$rep" 100 "$b/yeex-b2rev" bench --engine cuda --steps 50 --warmup 10 --repeats 5 --scaling weak --size 512 --counts 1,4 --exchanges b2r --halo-depth 2
  pack
done
tall_deck
grep -E "^cells|^cell_size" "$out/tall.toml" >> "$out/summary.txt"
tall=(bench --engine cuda --deck "$out/tall.toml" --steps 50 --warmup 10 --repeats 5 --scaling strong --counts 1,4)
for rep in 1 2; do
  run "strongtall_$rep" 150 "$b/yeex" "${tall[@]}" --exchanges graph,overlap,host-staged --json "$out/strong_tall_$rep.json"
  run "strongtall_in_$rep" 100 "$b/yeex-in" "${tall[@]}" --exchanges graph
  pack
done
pushing_report
python3 -c 'import json, sys
for f in sys.argv[1:]:
  for r in json.load(open(f))["rows"]: print(f.split("/")[-1], r.get("exchange"), r.get("devices"), r.get("exchange_choices"))' "$out/strong_128_1.json" "$out/weak_512_1.json" "$out/strong_tall_1.json" 2>&1 | sort -u | head -40
