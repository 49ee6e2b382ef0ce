#!/usr/bin/env bash
# One device call (one H200), fifth session: CPML register caps, second round. yeex-yzA-xB: the y
# and z shell boxes' kernel at __launch_bounds__(256, A) (A = 6: 40 registers, the build; 4: 64;
# 3: 80; 2: 128), the x boxes' kernel in float at (256, B) (8: 32 registers, the build; 6: 40; 5:
# 48; 4: 64). 512^3, 10-cell CPML on all six faces, against PEC; the build first and last.
#   BUILD_DIR=build/slim scripts/gpu/session-o.sh OUT_DIR
set -uo pipefail
cd "$(dirname "$0")/../.."
source scripts/gpu/lib.sh
one=(bench --engine cuda --gpus 1 --counts 1 --size 512 --steps 100 --warmup 20 --repeats 5 --exchanges overlap)
run pec 60 $b/yeex "${one[@]}" --cpml 0
i=0
for v in yeex yeex-yz4-x6 yeex-yz3-x6 yeex-yz2-x6 yeex-yz4-x5 yeex-yz4-x4 yeex; do
  run "cpml_$((i++))_$v" 60 $b/$v "${one[@]}" --cpml 10
done
echo "done ($((SECONDS - t0)) s)" >> "$out/summary.txt"
tar czf "$out.tar.gz" -C "$(dirname "$out")" "$(basename "$out")"
