#!/usr/bin/env bash
# Twenty-fifth session, call 10 (one GPU): coop's pair block on 128 x 128 x 64 and x 32, each shape
# forced (YEEX_COOP_PAIR_BLOCK=512 / 1024) and the default, three times in turn, with the kernel-form
# trials logged (YEEX_COOP_TUNE_LOG=1): call 8 had 1024 x 1 at 66-67 Gcells/s on x 64, call 9 the
# default (1024) at 61.4.
#   BUILD_DIR=build/slim scripts/gpu/session-ia.sh OUT_DIR
set -uo pipefail
cd "$(dirname "$0")/../.."
source scripts/gpu/lib.sh "$1"
machine_info
env_bin yeex-512 YEEX_COOP_PAIR_BLOCK=512 YEEX_COOP_TUNE_LOG=1
env_bin yeex-1024 YEEX_COOP_PAIR_BLOCK=1024 YEEX_COOP_TUNE_LOG=1
env_bin yeex-def YEEX_COOP_TUNE_LOG=1
for nz in 32 64; do box_deck "z$nz" 128 128 "$nz" 20000; done
for rep in 1 2 3; do
  for nz in 64 32; do
    for bin in yeex-def yeex-512 yeex-1024; do
      run "z${nz}_${bin}_$rep" 60 "$b/$bin" bench --deck "$out/z$nz.toml" --engine cuda --gpus 1 --counts 1 --exchanges coop \
        --steps 400 --warmup 50 --repeats 9 --json "$out/z${nz}_${bin}_$rep.json"
    done
  done
done
echo "done ($((SECONDS - t0)) s)" >> "$out/summary.txt"; pack
grep -H "coop \| - \|coop:" "$out"/z*.txt | grep -v "#" | sed "s|$out/||" | awk '{print $1, $2, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15}' | sort
cat "$out/summary.txt"
