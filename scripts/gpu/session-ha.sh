#!/usr/bin/env bash
# Twenty-third session, call 5 (all GPUs): call 4's allocation rounding (yeex-alloc, every array of
# 64 MiB or more rounded up to YEEX_EXP_ALLOC_MIB MiB) beyond b2r at 512^3 in float: weak 512^3
# in float (b2r, graph, overlap, coop; twice) and in double (b2r, graph), strong 640^3 (graph,
# overlap) and 256^3 (graph, overlap, b2r), each without rounding and with 16 and 32 MiB.
#   BUILD_DIR=build/slim scripts/gpu/session-ha.sh OUT_DIR
set -uo pipefail
cd "$(dirname "$0")/../.."
source scripts/gpu/lib.sh "$1"
machine_info
all_gpus yeex-alloc
for mib in 0 16 32; do
  for rep in 1 2; do
    run "weak_m${mib}_$rep" 90 env YEEX_EXP_ALLOC_MIB=$mib "${x[@]}" --scaling weak --size 512 --exchanges b2r,graph,overlap,coop
  done
  run "weak64_m$mib" 90 env YEEX_EXP_ALLOC_MIB=$mib "${x[@]}" --scaling weak --size 512 --precision f64 --exchanges b2r,graph
  run "strong640_m$mib" 90 env YEEX_EXP_ALLOC_MIB=$mib "${x[@]}" --scaling strong --size 640 --exchanges graph,overlap
  run "strong256_m$mib" 60 env YEEX_EXP_ALLOC_MIB=$mib "${x[@]}" --scaling strong --size 256 --exchanges graph,overlap,b2r
  pack
done
echo "done ($((SECONDS - t0)) s)" >> "$out/summary.txt"; pack
grep -H "weak \|strong " "$out"/*.txt | grep -v "#" | sed "s|$out/||" | awk '{print $1, $4, $5, $6, $7, $8, $12, $13}'
