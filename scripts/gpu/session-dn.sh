#!/usr/bin/env bash
# Thirteenth session, calls 21 and 22 (one GPU). Call 21: coop's inject_sources as a call (__noinline__): with the
# chained sources inlined the persistent kernels spilled more (f32 56 B of stack, f64 8; call 20:
# f64 512^3 25.10 against 25.68 Gcells/s), as a call none spill. The gpu tests; coop at 128^3
# (400 x 9), 256^3, 512^3 f32, 512^3 f64 and 512^3 CPML, the build (yeex) and yeex-prev
# (b452096, sources a thread each, inlined), in turn, twice. Call 22: the same with the build that
# adds sources sharing a node in rounds (a thread per source, a grid.sync() before each round).
set -uo pipefail
source scripts/gpu/lib.sh "$1"
gpu_test_pair test_multi_gpu test_cuda_engine
pack
coop_rate_runs 2 "yeex yeex-prev" "128 --steps 400 --repeats 9" 256 512 "512 --precision f64" "512 --cpml 10"
echo "done ($((SECONDS - t0)) s)" >> "$out/summary.txt"; pack
grep -h "PASSED\|FAILED" "$out"/test_*.txt
coop_rates
