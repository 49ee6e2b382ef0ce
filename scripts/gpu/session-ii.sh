#!/usr/bin/env bash
# Twenty-sixth session, call 6 (4 x H200): the session's build (coop's coefficient table in shared
# memory, a long sweep's sent plane published after its first band). scripts/gpu-check.sh (every
# gpu test, the default deck on 4 slabs, the benchmark, bench --verify), then the first part of
# issue 3's table (issue3_core: weak 512^3 on 1, 2, 4; strong 512^3, 256^3, 128^3; b2r R = 3, 4).
#   BUILD_DIR=build/slim scripts/gpu/session-ii.sh OUT_DIR
set -uo pipefail
cd "$(dirname "$0")/../.."
source scripts/gpu/lib.sh "$1"
machine_info
run gpu_check 300 scripts/gpu-check.sh "$b" "$out/gpu-check"
pack
issue3_core
echo "done ($((SECONDS - t0)) s)" >> "$out/summary.txt"; pack
grep -hE "PASSED|FAILED|gpu tests:|checksum|DIFFERS" "$out/gpu-check/gpu-check.log" | head -20
for f in weak_512 strong_512 strong_256 strong_128 strong_128_b2r_R3 strong_128_b2r_R4; do echo "== $f"; grep -E "^(weak|strong) " "$out/$f.txt" | cut -c1-130; done
cat "$out/summary.txt"
