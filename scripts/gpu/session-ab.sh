#!/usr/bin/env bash
# One device call (1 GPU), seventh session, first: the CPML layout (the first node past the x_min
# face on a 128-byte line, the plain box reaching the x_max face). 512^3 with 10-cell CPML on every
# face, one GPU, twice over, interleaved: the previous split (YEEX_CPML_LINE_NODE=0
# YEEX_CPML_ROUND_END=1), each change alone, both (the build's default), PEC alongside; f64 and 256^3
# old against new; coop on one GPU with CPML old against new; then the gpu tests and `yeex validate`
# on one GPU (with coop's CPML kernel too). OUT_DIR.tar.gz is refreshed after every step.
#   BUILD_DIR=build/slim scripts/gpu/session-ab.sh OUT_DIR
set -uo pipefail
cd "$(dirname "$0")/../.."
source scripts/gpu/lib.sh
one=("$b/yeex" bench --engine cuda --gpus 1 --counts 1 --steps 100 --warmup 20 --repeats 5 --exchanges overlap)
old=(env YEEX_CPML_LINE_NODE=0 YEEX_CPML_ROUND_END=1)
for rep in 1 2; do
  run "pec_$rep" 60 "${one[@]}" --size 512 --json "$out/pec_$rep.json"
  run "old_$rep" 60 "${old[@]}" "${one[@]}" --size 512 --cpml 10 --json "$out/old_$rep.json"
  run "end_only_$rep" 60 env YEEX_CPML_LINE_NODE=0 "${one[@]}" --size 512 --cpml 10 --json "$out/end_only_$rep.json"
  run "line_only_$rep" 60 env YEEX_CPML_ROUND_END=1 "${one[@]}" --size 512 --cpml 10 --json "$out/line_only_$rep.json"
  run "new_$rep" 60 "${one[@]}" --size 512 --cpml 10 --json "$out/new_$rep.json"
  pack
done
run f64_pec 60 "${one[@]}" --size 512 --precision f64
run f64_old 60 "${old[@]}" "${one[@]}" --size 512 --cpml 10 --precision f64
run f64_new 60 "${one[@]}" --size 512 --cpml 10 --precision f64
run s256_old 60 "${old[@]}" "${one[@]}" --size 256 --cpml 10
run s256_new 60 "${one[@]}" --size 256 --cpml 10
coop=("$b/yeex" bench --engine cuda --gpus 1 --counts 1 --steps 50 --warmup 10 --repeats 5 --exchanges coop --size 512 --cpml 10)
run coop_old 60 "${old[@]}" "${coop[@]}"
run coop_new 60 "${coop[@]}"
pack
gpu_tests; pack
OUT=$out/validate YEEX=$b/yeex run validate 240 scripts/gpu/validate-check.sh; pack
run validate_coop_cpml 120 "$b/yeex" validate --engine cuda --gpus 1 --exchange coop --only cpml
echo "done ($((SECONDS - t0)) s)" >> "$out/summary.txt"; pack
