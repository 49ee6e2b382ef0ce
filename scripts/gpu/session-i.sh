#!/usr/bin/env bash
# One device call (one GPU of the 4×H200 box), fourth session, diagnostics for the next one:
# `ncu --set full` of coop's kernel with bands (one 512^3 step), and of the CPML split sweep's
# x-box and z-box launches (first H half-step at 512^3, 10-cell CPML on all faces: launches
# 0 plain, 1-2 z boxes, 3-4 y boxes, 5-6 x boxes). Everything also lands in OUT_DIR.tar.gz.
#   BUILD_DIR=build/slim scripts/gpu/session-i.sh OUT_DIR
set -uo pipefail
cd "$(dirname "$0")/../.."
source scripts/gpu/lib.sh
one=(bench --engine cuda --gpus 1 --counts 1 --size 512 --steps 1 --warmup 0 --repeats 1)
run ncu_coop_bands 120 ncu --set full -k regex:coop_kernel -c 1 "$b/yeex" "${one[@]}" --exchanges coop
run ncu_cpml_xbox 90 ncu --set full -k regex:yee_sweep -s 5 -c 1 "$b/yeex" "${one[@]}" --exchanges p2p --cpml 10
run ncu_cpml_zbox 90 ncu --set full -k regex:yee_sweep -s 1 -c 1 "$b/yeex" "${one[@]}" --exchanges p2p --cpml 10
echo "done ($((SECONDS - t0)) s)" >> "$out/summary.txt"
tar czf "$out.tar.gz" -C "$(dirname "$out")" "$(basename "$out")"
