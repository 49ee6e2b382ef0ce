#!/usr/bin/env bash
# Twenty-fourth session, call 1 (one GPU): coop's loads through the read-only path. yeex-ldg1 (an
# experiment build) loads the material class and the coefficients with __ldg (read-only for the
# kernel's whole life: legal); yeex-ldg2 the other field of a sweep too (a diagnostic only: fields
# change during the persistent kernel). Coop on one GPU at 512^3 against the committed build, f32
# twice in turn, f64 once; the default deck's checksum under coop on 4 slabs of one GPU, each build.
#   BUILD_DIR=build/slim scripts/gpu/session-hj.sh OUT_DIR
set -uo pipefail
cd "$(dirname "$0")/../.."
source scripts/gpu/lib.sh "$1"
machine_info
for rep in 1 2; do
  for bin in yeex yeex-ldg1 yeex-ldg2; do run "${bin}_f32_$rep" 60 "$b/$bin" "${coop_one_512[@]}"; done
done
for bin in yeex yeex-ldg1 yeex-ldg2; do run "${bin}_f64" 60 "$b/$bin" "${coop_one_512[@]}" --precision f64; done
for bin in yeex yeex-ldg1 yeex-ldg2; do
  for p in f32 f64; do
    "$b/$bin" run --engine cuda --gpus 1 --subdomains 4 --exchange coop --precision $p --output "$out/o" 2>&1 |
      grep checksum | sed "s/^/$bin $p /" >> "$out/bits.txt"
    rm -rf "$out/o"
  done
done
echo "done ($((SECONDS - t0)) s)" >> "$out/summary.txt"; pack
cat "$out/bits.txt"
grep -H "coop \| - " "$out"/yeex*.txt | grep -v "#" | sed "s|$out/||" | awk '{print $1, $6, $7, $12}'
