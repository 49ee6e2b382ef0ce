#!/usr/bin/env bash
# Eighteenth session, call 2 (4 GPUs): the interconnect and the rest of issue 3's checks on 4 GPUs.
# p2p-check.sh (topology, every yeex-p2p test with the 4 B .. 256 MiB sweep, the bench's predicted
# exchange time at 256^3); validate-check.sh (one GPU, then 4 GPUs with p2p and coop); mpi-check.sh
# without its bench (MPI mode's checksums on 4 ranks against threads mode and one GPU, and its
# refusals). OUT_DIR.tar.gz is refreshed after every step.
#   BUILD_DIR=build/slim scripts/gpu/session-ff.sh OUT_DIR
set -uo pipefail
cd "$(dirname "$0")/../.."
source scripts/gpu/lib.sh "$1"
run p2p_check 240 scripts/gpu/p2p-check.sh "$b" "$out/p2p"; pack
OUT=$out/validate YEEX=$b/yeex run validate 200 scripts/gpu/validate-check.sh; pack
OUT=$out/mpi YEEX_SKIP_BENCH=1 run mpi_check 120 scripts/gpu/mpi-check.sh "$b"
echo "done ($((SECONDS - t0)) s)" >> "$out/summary.txt"; pack
cat "$out/summary.txt"
grep -hE "problem\(s\)|checksums:|PASS|FAIL" "$out"/validate/*.log "$out"/mpi/mpi-check.log 2>/dev/null | head -20
