#!/usr/bin/env bash
# Twenty-first session, call 4 (4 GPUs): the pushing sweep kernel ran 816 us against the plain
# kernel's 600 under Nsight Compute (call 3, no waits), the same DRAM bytes. Which part costs?
# YEEX_PUSH_EXPERIMENT bits: 2 no wait, 4 no stores into the neighbour, 8 no fence before the
# arrival, 16 no arrival (no barrier, no signal), 32 no barrier at the start. ncu on a 4-step run
# of 640 x 640 x 320 on 2 GPUs under graph, for 2, 2|4, 2|8, 2|4|8, 2|16, 2|4|16, 2|4|16|32; then
# weak scaling on the 640 x 640 x 160 slab deck for 0, 8, 12 (wrong fields where bits 4 or 8: times only).
#   BUILD_DIR=build/slim scripts/gpu/session-gk.sh OUT_DIR
set -uo pipefail
cd "$(dirname "$0")/../.."
source scripts/gpu/lib.sh "$1"
slab_start graph
box_deck slab320 640 640 320 4
ncu=$(command -v ncu || ls /usr/local/cuda/bin/ncu /opt/nvidia/nsight-compute/*/ncu 2>/dev/null | head -1)
for x in 2 6 10 14 18 22 54; do
  YEEX_PUSH_EXPERIMENT=$x run "ncu_x$x" 100 "$ncu" --clock-control none --kernel-name "regex:yee_.*sweep" --launch-count 12 --csv \
    --metrics gpu__time_duration.sum \
    "$b/yeex" run "$out/slab320.toml" --engine cuda --gpus 2 --exchange graph --output "$out/o_$x"
  rm -rf "$out/o_$x"
done
pack
for x in 0 8 12; do env_bin "yeex-x$x" YEEX_PUSH_EXPERIMENT=$x; run "weak160_x$x" 150 "$b/yeex-x$x" "${bench[@]:1}" "${weak[@]}"; done
echo "done ($((SECONDS - t0)) s)" >> "$out/summary.txt"; pack
cat "$out/summary.txt"
grep -H "weak " "$out"/weak*.txt | grep -v "#" | sed "s|$out/||" | awk '{print $1, $3, $4, $5, $6, $7, $12, $13}'
for f in "$out"/ncu_x*.txt; do
  echo "== $(basename "$f")"
  grep '^"' "$f" | awk -F'","' 'NR > 1 {k = ($5 ~ /pushing/ ? "push" : "plain") ($5 ~ /<float, 1/ ? "H" : "E"); v = $NF; gsub(/[",]/, "", v); t[k] += v; n[k]++}
    END {for (k in t) printf "%s %.1f us (%d)\n", k, t[k] / n[k] / 1000, n[k]}'
done
