#!/usr/bin/env bash
# Thirteenth session, call 10 (one GPU): is b2r's loss on two slabs of one GPU (call 6) the slabs
# drifting apart between exchanges? yeex-lock is main with lockstep.patch (YEEX_EXP_LOCKSTEP: after
# every step each slab's thread waits for its GPU, then for the other slabs). The 512 x 512 x 1024
# box on 1 and 2 slabs, 200 steps, b2r R = 2 and overlap, with and without lockstep, twice.
set -uo pipefail
source scripts/gpu/lib.sh "$1"
sed -e 's/^cells = \[512, 512, 512\]/cells = [512, 512, 1024]/' -e 's/^cell_size = \[1e-3, 1e-3, 1e-3\]/cell_size = [1e-3, 1e-3, 0.5e-3]/' \
  inputs/bench_box.toml > "$out/box2.toml"
for rep in 1 2; do
  for x in "b2r --halo-depth 2" overlap; do
    for lock in 0 1; do
      for n in 1 2; do
        name="$(echo "$x" | tr -d ' -' | sed 's/halodepth/R/')_lock${lock}_${n}_$rep"
        env=()
        [[ $lock == 1 ]] && env=(YEEX_EXP_LOCKSTEP=1)
        # shellcheck disable=SC2086 # "$x" carries the backend and its options
        run "$name" 90 env "${env[@]}" "$b/yeex-lock" run "$out/box2.toml" --engine cuda --subdomains $n --exchange $x --steps 200 --output "$out/o"
        rm -rf "$out/o"
      done
    done
  done
done
echo "done ($((SECONDS - t0)) s)" >> "$out/summary.txt"
grep -H "stepping" "$out"/*_lock*.txt | sed "s|$out/||" | awk '{print $1, $5}'
