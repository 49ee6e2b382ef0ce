#!/usr/bin/env bash
# Nineteenth session, call 5 (1 GPU of 4): the engine's T1 fell from 54.4 to 52.1 Gcells/s at
# 512^3 between session 18 and calls 1-4, while coop's kernel (unchanged) ran the same: the
# griddepcontrol instructions at the top of every engine kernel? The build (YEEX_PDL_FORM 1: wait
# and trigger in every thread) with YEEX_PDL=0 and 1, against forms 0 (neither; YEEX_PDL=0 only:
# a dependent launch must wait), 2 (the trigger by one thread a block) and 3 (the wait alone),
# with YEEX_PDL=1: T1 and coop at 512^3 and 128^3, twice.
#   BUILD_DIR=build/slim scripts/gpu/session-fs.sh OUT_DIR
set -uo pipefail
cd "$(dirname "$0")/../.."
source scripts/gpu/lib.sh "$1"
nvidia-smi -L > "$out/machine.txt"
for rep in 1 2; do
  for v in "yeex 0" "yeex 1" "yeex-f0 0" "yeex-f2 1" "yeex-f3 1"; do
    set -- $v
    bin=$1 pdl=$2
    {
      run "${bin}_p${pdl}_512_$rep" 60 env YEEX_PDL=$pdl "$b/$bin" bench --engine cuda --gpus 1 --counts 1 --steps 30 \
        --warmup 10 --repeats 5 --size 512 --exchanges coop
      run "${bin}_p${pdl}_128_$rep" 60 env YEEX_PDL=$pdl "$b/$bin" bench --engine cuda --gpus 1 --counts 1 --steps 400 \
        --warmup 50 --repeats 9 --size 128 --exchanges coop
    }
  done
  pack
done
echo "done ($((SECONDS - t0)) s)" >> "$out/summary.txt"; pack
for f in "$out"/yeex*.txt; do printf '%-22s %s\n' "$(basename "$f" .txt)" "$(grep -v '^#' "$f" | awk '$4 == "-" || $4 == "coop" {printf "%s %s  ", $4, $7}')"; done
