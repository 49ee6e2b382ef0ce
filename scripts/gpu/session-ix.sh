#!/usr/bin/env bash
# Twenty-eighth session, call 4 (4 x H200): does coop's persistent sweep prefer another slot unit
# than the one the engine's placement trial keeps? Coop and the engine on one GPU at 512^3 with the
# unit fixed at 2, 32 and 1024 MiB (YEEX_FIELD_SLOT_MIB) and with the trial. Then the 268 M-cell
# strong rows again for the host-issued backends and graph (twice on 256 x 256 x 4096, once at
# 640^3), for their spread between invocations.
#   BUILD_DIR=build/slim scripts/gpu/session-ix.sh OUT_DIR
set -uo pipefail
cd "$(dirname "$0")/../.."
source scripts/gpu/lib.sh "$1"
machine_info
for unit in 2 32 1024 trial; do
  e=(env YEEX_FIELD_SLOT_LOG=1)
  [[ $unit == trial ]] || e+=(YEEX_FIELD_SLOT_MIB=$unit)
  run "coop512_$unit" 60 "${e[@]}" "$b/yeex" bench --engine cuda --gpus 1 --counts 1 --warmup 10 --repeats 5 --steps 50 \
    --size 512 --exchanges coop
done
pack
tall_deck
some=host-staged,overlap,b2r,graph,nccl
for rep in 1 2; do
  run "strong_tall_$rep" 150 "${bench[@]}" --deck "$out/tall.toml" --scaling strong --counts 1,4 --exchanges $some --halo-depth 2 \
    --json "$out/strong_tall_$rep.json"
  pack
done
run strong_640 150 "${bench[@]}" --scaling strong --size 640 --counts 1,4 --exchanges $some --halo-depth 2 --json "$out/strong_640.json"
finish
