#!/usr/bin/env bash
# Twelfth session, call 2 (one GPU): the bench box (inputs/bench_box.toml, 512^3, 200 steps) on 1
# and 4 z-slabs of the one GPU, per backend: what splitting costs without any link (the halo
# copies are device-to-device, the synchronisation is all there is). BUILD_DIR as session-cl.sh.
set -uo pipefail
source scripts/gpu/lib.sh "$1"
for x in overlap coop p2p host-staged; do
  for n in 1 4; do
    run "box_${x}_$n" 90 "$b/yeex" run inputs/bench_box.toml --subdomains "$n" --exchange "$x" --steps 200 --output "$out/o"
    rm -rf "$out/o"
  done
done
run "box_coop1024_4" 90 "$b/yeex-1024" run inputs/bench_box.toml --subdomains 4 --exchange coop --steps 200 --output "$out/o"
rm -rf "$out/o"
grep -H "stepping" "$out"/box_*.txt > "$out/box_rates.txt"
pack
