#!/usr/bin/env bash
# Nineteenth session, call 7 (1 GPU): the candidate (yeex-c: the wait alone, sources added by the
# thread picked by block and thread index, no coordinates kept live) against the session's
# starting engine (yeex-head) and the wait alone without sources in the sweep (yeex-p, the kernel
# without the check): T1 and coop at 512^3 (f32, f64) and 128^3, three times.
#   BUILD_DIR=build/slim scripts/gpu/session-fu.sh OUT_DIR
set -uo pipefail
cd "$(dirname "$0")/../.."
source scripts/gpu/lib.sh "$1"
nvidia-smi -L > "$out/machine.txt"
for rep in 1 2 3; do
  for v in "yeex-head 0 1" "yeex-p 1 0" "yeex-c 1 1" "yeex-c 1 0"; do
    set -- $v
    bin=$1 pdl=$2 swept=$3
    for c in "512 30 5 10 f32" "128 400 9 50 f32" "512 20 5 5 f64"; do
      set -- $c
      run "${bin}_p${pdl}s${swept}_$1$5_$rep" 60 env YEEX_PDL=$pdl YEEX_SWEPT_SOURCES=$swept "$b/$bin" bench --engine cuda \
        --gpus 1 --counts 1 --steps $2 --repeats $3 --warmup $4 --size $1 --precision $5 --exchanges coop
    done
  done
  pack
done
echo "done ($((SECONDS - t0)) s)" >> "$out/summary.txt"; pack
for f in "$out"/yeex*.txt; do printf '%-30s %s\n' "$(basename "$f" .txt)" "$(grep -v '^#' "$f" | awk '$4 == "-" || $4 == "coop" {printf "%s %s  ", $4, $7}')"; done
