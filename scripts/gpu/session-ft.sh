#!/usr/bin/env bash
# Nineteenth session, call 6 (1 GPU): where the rest of T1's loss goes: the session's starting
# engine (yeex-head: c30421e's cuda_engine.cu, linked with this tree) against form 3 (the wait
# alone) with sources in the E sweep on and off, and form 0 (no griddepcontrol): T1 and coop at
# 512^3 and 128^3, three times.
#   BUILD_DIR=build/slim scripts/gpu/session-ft.sh OUT_DIR
set -uo pipefail
cd "$(dirname "$0")/../.."
source scripts/gpu/lib.sh "$1"
nvidia-smi -L > "$out/machine.txt"
for rep in 1 2 3; do
  for v in "yeex-head 0 1" "yeex-f3 1 1" "yeex-f3 1 0" "yeex-f0 0 1" "yeex-f0 0 0"; do
    set -- $v
    bin=$1 pdl=$2 swept=$3
    {
      run "${bin}_p${pdl}s${swept}_512_$rep" 60 env YEEX_PDL=$pdl YEEX_SWEPT_SOURCES=$swept "$b/$bin" bench --engine cuda \
        --gpus 1 --counts 1 --steps 30 --warmup 10 --repeats 5 --size 512 --exchanges coop
      run "${bin}_p${pdl}s${swept}_128_$rep" 60 env YEEX_PDL=$pdl YEEX_SWEPT_SOURCES=$swept "$b/$bin" bench --engine cuda \
        --gpus 1 --counts 1 --steps 400 --warmup 50 --repeats 9 --size 128 --exchanges coop
    }
  done
  pack
done
echo "done ($((SECONDS - t0)) s)" >> "$out/summary.txt"; pack
for f in "$out"/yeex*.txt; do printf '%-26s %s\n' "$(basename "$f" .txt)" "$(grep -v '^#' "$f" | awk '$4 == "-" || $4 == "coop" {printf "%s %s  ", $4, $7}')"; done
