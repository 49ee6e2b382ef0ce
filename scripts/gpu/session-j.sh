#!/usr/bin/env bash
# One device call (4 GPUs), fifth session, first call: every gpu test (host-staged now border-first
# through pinned buffers, the CPML x faces inside the plain rows, coop's dynamic tile schedule),
# then the A/B benchmarks of those three changes and fresh efficiency tables:
#   CPML on one GPU at 512^3: PEC, CPML with the x faces in the rows (default) and in boxes;
#   coop on one GPU at 512^3: dynamic schedule (default) and static with bands;
#   weak 512^3/GPU and strong 256^3, 512^3 for every backend; strong 128^3 (400 steps x 9);
#   the same with --no-peer (host-staged, p2p, b2r); validate on GPUs.
#   BUILD_DIR=build/slim scripts/gpu/session-j.sh OUT_DIR
set -uo pipefail
cd "$(dirname "$0")/../.."
source scripts/gpu/lib.sh
gpu_tests
cpml=("$b/yeex" bench --engine cuda --gpus 1 --counts 1 --size 512 --steps 100 --warmup 20 --repeats 5 --exchanges coop)
run cpml_pec 60 "${cpml[@]}" --cpml 0 --json "$out/cpml_pec.json"
run cpml_rows 60 "${cpml[@]}" --cpml 10 --json "$out/cpml_rows.json"
YEEX_CPML_X_ROWS=0 run cpml_boxes 60 "${cpml[@]}" --cpml 10 --json "$out/cpml_boxes.json"
run cpml_rows_again 60 "${cpml[@]}" --cpml 10 --json "$out/cpml_rows_again.json"
YEEX_COOP_SCHEDULE=static run coop1_static 60 "${cpml[@]}" --cpml 0
run weak_512 150 "${bench[@]}" --scaling weak --size 512 --counts 2,4 --exchanges $all --halo-depth 2 --json "$out/weak_512.json"
YEEX_COOP_SCHEDULE=static run weak_512_coop_static 60 "${bench[@]}" --scaling weak --size 512 --counts 4 --exchanges coop
run strong 150 "${bench[@]}" --scaling strong --size 256 512 --counts 2,4 --exchanges $all --halo-depth 2 --json "$out/strong.json"
run strong_256_long 120 $b/yeex bench --engine cuda --steps 400 --warmup 50 --repeats 9 --scaling strong --size 256 --counts 4 \
  --exchanges overlap,coop,nccl,b2r --halo-depth 2 --json "$out/strong_256_long.json"
run strong_128_long 120 $b/yeex bench --engine cuda --steps 400 --warmup 50 --repeats 9 --scaling strong --size 128 --counts 1,2,4 \
  --exchanges $all --halo-depth 2 --json "$out/strong_128_long.json"
YEEX_COOP_SCHEDULE=static run strong_128_coop_static 60 $b/yeex bench --engine cuda --steps 400 --warmup 50 --repeats 9 \
  --scaling strong --size 128 --counts 4 --exchanges coop
run nopeer 150 "${bench[@]}" --no-peer --scaling both --size 512 --counts 2,4 --exchanges host-staged,p2p,b2r --halo-depth 2 \
  --json "$out/nopeer.json"
OUT=$out/validate YEEX=$b/yeex run validate 240 scripts/gpu/validate-check.sh
echo "done ($((SECONDS - t0)) s)" >> "$out/summary.txt"
tar czf "$out.tar.gz" -C "$(dirname "$out")" "$(basename "$out")"
