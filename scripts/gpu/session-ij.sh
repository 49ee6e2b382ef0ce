#!/usr/bin/env bash
# Twenty-sixth session, call 7 (4 x H200): call 6's build, the rest of issue 3's table
# (issue3_rest with TABLE_LARGE=1): strong 640^3 and 256 x 256 x 4096 on 1 and 4 GPUs, every
# backend; peer access off (weak and strong 512^3); the GPU pairs 0,1 and 0,3 at 256^3.
#   BUILD_DIR=build/slim scripts/gpu/session-ij.sh OUT_DIR
set -uo pipefail
cd "$(dirname "$0")/../.."
source scripts/gpu/lib.sh "$1"
machine_info
TABLE_LARGE=1 issue3_rest
for f in strong_640 strong_tall nopeer_weak_512 nopeer_strong_512 gpus_0_1_strong_256 gpus_0_3_strong_256; do
  echo "== $f"; grep -E "^(weak|strong) " "$out/$f.txt" | cut -c1-130
done
cat "$out/summary.txt"
