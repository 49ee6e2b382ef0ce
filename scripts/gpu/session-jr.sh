#!/usr/bin/env bash
# Thirtieth session, call 9 (4 x H200, lent late in the session), the final build (935e8e6):
# scripts/gpu-check.sh (checked_start), graph's pushing sweeps in pairs against its border split at
# strong 224^3 and 256^3 on 4 GPUs (YEEX_PUSHING_SWEEPS=1 against 0; the limit is 192^2), then issue
# 3's core rows (issue3_core) as far as the call's time allows.
#   BUILD_DIR=build/x scripts/gpu/session-jr.sh OUT_DIR
set -uo pipefail
cd "$(dirname "$0")/../.."
source scripts/gpu/lib.sh "$1"
checked_start
for size in 224 256; do
  for mode in 0 1; do
    run "limit_${size}_push$mode" 60 env YEEX_PUSHING_SWEEPS=$mode "${long[@]}" --size $size --counts 1,4 --exchanges graph
  done
done
pack
issue3_core
finish
