#!/usr/bin/env bash
# Fourteenth session, call 2 (one GPU): coop's kernel calling inject_sources on short sweeps
# (calls_sources). The gpu tests (CoopEitherSourceFormKeepsTheBits runs both forms); then coop on
# one GPU with the form forced (yeex-c0: inlined, yeex-c1: called, YEEX_COOP_CALL_SOURCES) in float
# at 128^3 (400 x 9), 192^3, 256^3, 384^3, 512^3, in double at 128^3, 256^3, 512^3, with 10-cell
# CPML at 128^3 and 512^3, and at 128^3 on 4 slabs of the GPU; twice.
set -uo pipefail
source scripts/gpu/lib.sh "$1"
gpu_test_pair test_multi_gpu test_cuda_engine
pack
form_rates "128 --subdomains 4 --steps 400 --repeats 9"
echo "done ($((SECONDS - t0)) s)" >> "$out/summary.txt"; pack
grep -h "PASSED\|FAILED" "$out"/test_*.txt
coop_rates
