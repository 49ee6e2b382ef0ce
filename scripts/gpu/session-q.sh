#!/usr/bin/env bash
# One device call (one H200), fifth session: the CPML shell boxes' block shape (YEEX_CPML_BLOCK;
# the plain kernel keeps 32x4): 32x4 (the build), 64x2, 128x1, 64x4, 32x8 at 512^3 with 10-cell
# CPML on all faces, against PEC; the build first and last.
#   BUILD_DIR=build/slim scripts/gpu/session-q.sh OUT_DIR
set -uo pipefail
cd "$(dirname "$0")/../.."
source scripts/gpu/lib.sh
one=("$b/yeex" bench --engine cuda --gpus 1 --counts 1 --size 512 --steps 100 --warmup 20 --repeats 5 --exchanges overlap)
run pec 60 "${one[@]}" --cpml 0
i=0
for shape in 32x4x1 64x2x1 128x1x1 64x4x1 32x8x1 32x4x1; do YEEX_CPML_BLOCK=$shape run "cpml_$((i++))_$shape" 60 "${one[@]}" --cpml 10; done
echo "done ($((SECONDS - t0)) s)" >> "$out/summary.txt"
tar czf "$out.tar.gz" -C "$(dirname "$out")" "$(basename "$out")"
