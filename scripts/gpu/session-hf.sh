#!/usr/bin/env bash
# Twenty-third session, call 10 (4 GPUs, if lent): the allocation rounding on 4 GPUs, the rows it
# was meant for: weak 512^3 a GPU on 1, 2, 4 for every backend, and strong 640^3 on 1 and 4 for
# graph, overlap and host-staged, rounded (the default); then plain (YEEX_ARRAY_ROUNDING_MIB=0)
# for b2r and graph weak, graph strong.
#   BUILD_DIR=build/slim scripts/gpu/session-hf.sh OUT_DIR
set -uo pipefail
cd "$(dirname "$0")/../.."
source scripts/gpu/lib.sh "$1"
machine_info
for mib in 32 0; do
  e=(env YEEX_ARRAY_ROUNDING_MIB=$mib)
  weak=$all strong=graph,overlap,host-staged
  ((mib == 0)) && weak=b2r,graph strong=graph
  run "weak_512_m$mib" 150 "${e[@]}" "${bench[@]}" --scaling weak --size 512 --counts 1,2,4 --exchanges $weak --halo-depth 2 --json "$out/weak_512_m$mib.json"
  pack
  run "strong_640_m$mib" 120 "${e[@]}" "${bench[@]}" --scaling strong --size 640 --counts 1,4 --exchanges $strong --json "$out/strong_640_m$mib.json"
  pack
done
echo "done ($((SECONDS - t0)) s)" >> "$out/summary.txt"; pack
cat "$out/summary.txt"
grep -H "weak \|strong " "$out"/*_m*.txt | grep -v "#" | sed "s|$out/||" | awk '{print $1, $4, $5, $6, $7, $8, $12, $13}'
