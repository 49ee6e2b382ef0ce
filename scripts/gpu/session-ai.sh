#!/usr/bin/env bash
# One device call (1 GPU), seventh session, eighth: the CPML layout again (the first node past the
# x_min face on a line: YEEX_CPML_LINE_NODE=0 turns it off; the plain box ending at the x_max face
# unless YEEX_CPML_ROUND_END), now with each shell box's rows started on a line (lead idle lanes
# before the box; YEEX_CPML_NO_LEAD turns that off). 512^3, 10 cells on every face, twice; PEC.
#   BUILD_DIR=build/slim scripts/gpu/session-ai.sh OUT_DIR
set -uo pipefail
cd "$(dirname "$0")/../.."
source scripts/gpu/lib.sh
for rep in 1 2; do
  pec "pec_$rep" 512 f32
  cpml "old_$rep" 512 f32 YEEX_CPML_LINE_NODE=0 YEEX_CPML_ROUND_END=1
  cpml "line_only_$rep" 512 f32 YEEX_CPML_ROUND_END=1
  cpml "new_$rep" 512 f32
  cpml "end_only_$rep" 512 f32 YEEX_CPML_LINE_NODE=0
done
pack
cpml line_only_nolead 512 f32 YEEX_CPML_ROUND_END=1 YEEX_CPML_NO_LEAD=1
cpml new_nolead 512 f32 YEEX_CPML_NO_LEAD=1
cpml new_cores 512 f32 YEEX_CPML_CORES=1
pec f64_pec 512 f64
cpml f64_old 512 f64 YEEX_CPML_LINE_NODE=0 YEEX_CPML_ROUND_END=1
cpml f64_new 512 f64
cpml f64_line_only 512 f64 YEEX_CPML_ROUND_END=1
cpml f64_new_cores 512 f64 YEEX_CPML_CORES=1
cpml s256_old 256 f32 YEEX_CPML_LINE_NODE=0 YEEX_CPML_ROUND_END=1
cpml s256_new 256 f32
cpml s256_line_only 256 f32 YEEX_CPML_ROUND_END=1
echo "done ($((SECONDS - t0)) s)" >> "$out/summary.txt"; pack
