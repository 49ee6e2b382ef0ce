#!/usr/bin/env bash
# One device call (one H200), fifth session: CPML register caps. The y and z shell boxes' kernel
# (Axes 3 and 7) at MinBlocks 6 (40 registers, the build), 5 (48: yeex-shell5) and 4 (64:
# yeex-shell4); the x boxes' kernel in float at 40 registers instead of 32 (yeex-xbox6). 512^3,
# 10-cell CPML on all six faces, against PEC.
#   BUILD_DIR=build/slim scripts/gpu/session-n.sh OUT_DIR
set -uo pipefail
cd "$(dirname "$0")/../.."
source scripts/gpu/lib.sh
one=(bench --engine cuda --gpus 1 --counts 1 --size 512 --steps 100 --warmup 20 --repeats 5 --exchanges overlap)
run pec 60 $b/yeex "${one[@]}" --cpml 0
i=0; for v in yeex yeex-shell5 yeex-shell4 yeex-xbox6 yeex; do run "cpml_$((i++))_$v" 60 $b/$v "${one[@]}" --cpml 10; done
echo "done ($((SECONDS - t0)) s)" >> "$out/summary.txt"
tar czf "$out.tar.gz" -C "$(dirname "$out")" "$(basename "$out")"
