#!/usr/bin/env bash
# Twenty-third session, call 7 (all GPUs; asked on H100s): the committed allocation rounding
# against the plain sizes (YEEX_ARRAY_ROUNDING_MIB=0), in turn: weak 512^3 in float (b2r, graph,
# overlap, coop), strong 640^3 (graph, overlap), weak 512^3 in double (graph).
#   BUILD_DIR=build/slim scripts/gpu/session-hc.sh OUT_DIR
set -uo pipefail
cd "$(dirname "$0")/../.."
source scripts/gpu/lib.sh "$1"
machine_info
all_gpus yeex
for mib in 0 32; do
  e=(env YEEX_ARRAY_ROUNDING_MIB=$mib)
  run "weak512_m$mib" 90 "${e[@]}" "${x[@]}" --scaling weak --size 512 --exchanges b2r,graph,overlap,coop
  run "strong640_m$mib" 90 "${e[@]}" "${x[@]}" --scaling strong --size 640 --exchanges graph,overlap
  run "weak512f64_m$mib" 90 "${e[@]}" "${x[@]}" --scaling weak --size 512 --precision f64 --exchanges graph
  pack
done
echo "done ($((SECONDS - t0)) s)" >> "$out/summary.txt"; pack
head -3 "$out/machine.txt"
grep -H "weak \|strong " "$out"/*_m*.txt | grep -v "#" | sed "s|$out/||" | awk '{print $1, $4, $5, $6, $7, $8, $12, $13}'
