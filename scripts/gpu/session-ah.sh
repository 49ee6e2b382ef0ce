#!/usr/bin/env bash
# One device call (1 GPU), seventh session, seventh: where a CPML run's extra time goes. 512^3, 10
# cells on every face: the build with some of its launches left out (YEEX_CPML_SKIP: x, y, z shell
# boxes, p the plain box; timing only, the fields are then wrong), forked (the build) and in line
# (YEEX_CPML_FORK_NODES past the shell size); PEC twice.
#   BUILD_DIR=build/slim scripts/gpu/session-ah.sh OUT_DIR
set -uo pipefail
cd "$(dirname "$0")/../.."
source scripts/gpu/lib.sh
cpml_baseline 1
for skip in x y z xy xyz p py pxy; do cpml "skip_$skip" 512 f32 YEEX_CPML_SKIP=$skip; done
inline=YEEX_CPML_FORK_NODES=1000000000000
cpml inline 512 f32 $inline
for skip in x y z xyz p; do cpml "inline_skip_$skip" 512 f32 $inline YEEX_CPML_SKIP=$skip; done
cpml_baseline 2
echo "done ($((SECONDS - t0)) s)" >> "$out/summary.txt"; pack
