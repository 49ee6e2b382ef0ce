#!/usr/bin/env bash
# Twenty-second session, call 4 (4 GPUs; call 3 came on 4 x H100): the committed code's checks on
# this machine (scripts/gpu-check.sh: every gpu test, the default deck, a short benchmark), then a
# second reading of call 3's rows that issue 3's targets name: weak 512^3 a GPU, strong 128^3
# (400 x 9) with b2r's two transports (yeex-b2rev: YEEX_B2R_TRANSPORT=events), strong 640^3 and
# 256 x 256 x 4096, every backend.
#   BUILD_DIR=build/slim scripts/gpu/session-gs.sh OUT_DIR
set -uo pipefail
cd "$(dirname "$0")/../.."
source scripts/gpu/lib.sh "$1"
nvidia-smi -L > "$out/machine.txt"
run gpu_check 300 scripts/gpu-check.sh "$b" "$out/gpu-check"; pack
env_bin yeex-b2rev YEEX_B2R_TRANSPORT=events
long=("$b/yeex" bench --engine cuda --steps 400 --warmup 50 --repeats 9 --scaling strong)
run strong_128 100 "${long[@]}" --size 128 --counts 1,4 --exchanges $all --halo-depth 2 --json "$out/strong_128.json"
run strong_128_b2rev 60 "$b/yeex-b2rev" bench --engine cuda --steps 400 --warmup 50 --repeats 9 --scaling strong --size 128 --counts 1,4 --exchanges b2r --halo-depth 2
run weak_512 150 "${bench[@]}" --scaling weak --size 512 --counts 1,4 --exchanges $all --halo-depth 2 --json "$out/weak_512.json"; pack
run strong_640 150 "${bench[@]}" --scaling strong --size 640 --counts 1,4 --exchanges $all --halo-depth 2 --json "$out/strong_640.json"; pack
tall_deck
run strong_tall 200 "${bench[@]}" --deck "$out/tall.toml" --scaling strong --counts 1,4 --exchanges $all --halo-depth 2 --json "$out/strong_tall.json"
echo "done ($((SECONDS - t0)) s)" >> "$out/summary.txt"; pack
cat "$out/summary.txt"
grep -E "PASS|FAIL|checksum" "$out/gpu-check/gpu-check.log" | head -12
grep -h " 4 \|exchange " "$out"/strong_*.txt "$out"/weak_*.txt | grep -v "^#" | cut -c1-140
