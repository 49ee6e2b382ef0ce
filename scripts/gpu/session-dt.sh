#!/usr/bin/env bash
# Fourteenth session, call 1 (one GPU): the build d354e65+ (number_rounds in one pass): the gpu test
# binaries and the twin-source deck (host, cuda, coop on 4 slabs, overlap on 4 slabs); then coop's
# inject_sources inlined (yeex) against not inlined (yeex-ni: coop-inject-noinline.patch of session
# 13) in float at 128^3 (400 x 9), 160^3, 192^3, 256^3, 512^3, and in double at 512^3; twice.
set -uo pipefail
source scripts/gpu/lib.sh "$1"
gpu_test_pair test_multi_gpu test_cuda_engine test_topology_gpu
twin_deck
twin_run host yeex --engine host
twin_run cuda yeex --engine cuda
twin_run coop_4slabs yeex --engine cuda --gpus 1 --subdomains 4 --exchange coop
twin_run overlap_4slabs yeex --engine cuda --gpus 1 --subdomains 4 --exchange overlap
pack
coop_rate_runs 2 "yeex yeex-ni" "128 --steps 400 --repeats 9" 160 192 256 512 "512 --precision f64 --steps 40 --repeats 5"
echo "done ($((SECONDS - t0)) s)" >> "$out/summary.txt"; pack
grep -h "PASSED\|FAILED" "$out"/test_*.txt
coop_rates
