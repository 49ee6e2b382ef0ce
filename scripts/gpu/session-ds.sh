#!/usr/bin/env bash
# Thirteenth session, call 29 (one GPU): the last build (d354e65: number_rounds in one pass): the
# two gpu test binaries, and the twin-source deck on the cuda engine and coop on 4 slabs.
set -uo pipefail
source scripts/gpu/lib.sh "$1"
gpu_test_pair test_multi_gpu test_cuda_engine
twin_deck
twin_run cuda yeex --engine cuda
twin_run coop_4slabs yeex --engine cuda --gpus 1 --subdomains 4 --exchange coop
echo "done ($((SECONDS - t0)) s)" >> "$out/summary.txt"; pack
grep -h "PASSED\|FAILED" "$out"/test_*.txt
