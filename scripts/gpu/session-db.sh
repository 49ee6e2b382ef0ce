#!/usr/bin/env bash
# Thirteenth session, call 6 (one GPU): weak scaling without a link. The bench box stretched to
# 512 x 512 x 1024 cells (half the cell size along z, the same objects), on 1 slab and on 2 slabs of
# the one GPU (512^3 each), 200 steps, per backend: overlap, b2r R = 2 and 3, host-staged, p2p. The
# two slabs' kernels share the GPU, so the ratio is what the split itself costs (redundant planes,
# cut sweeps, launches, events), without the link. Twice each. BUILD_DIR as session-cw.sh.
set -uo pipefail
source scripts/gpu/lib.sh "$1"
sed -e 's/^cells = \[512, 512, 512\]/cells = [512, 512, 1024]/' -e 's/^cell_size = \[1e-3, 1e-3, 1e-3\]/cell_size = [1e-3, 1e-3, 0.5e-3]/' \
  inputs/bench_box.toml > "$out/box2.toml"
grep -E "^cells|^cell_size" "$out/box2.toml" >> "$out/summary.txt"
for rep in 1 2; do
  for x in overlap "b2r --halo-depth 2" "b2r --halo-depth 3" host-staged p2p; do
    for n in 1 2; do
      name="box2_$(echo "$x" | tr -d ' -' | sed 's/halodepth/R/')_${n}_$rep"
      # shellcheck disable=SC2086 # "$x" carries the backend and its options
      run "$name" 90 "$b/yeex" run "$out/box2.toml" --engine cuda --subdomains "$n" --exchange $x --steps 200 --output "$out/o"
      rm -rf "$out/o"
    done
  done
done
grep -H "stepping\|Gcells" "$out"/box2_*.txt | sed "s|$out/||" > "$out/rates.txt"
echo "done ($((SECONDS - t0)) s)" >> "$out/summary.txt"
cat "$out/rates.txt"
