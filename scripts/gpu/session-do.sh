#!/usr/bin/env bash
# Thirteenth session, calls 23, 26 and 28 (one GPU): the final build (sources sharing a node in rounds;
# call 26: b47cec3, with the double kernel calling inject_sources; call 28: 5c994b6, without):
# final_checks (gpu-check.sh, validate on one GPU and with coop, cpml-check.sh's benchmark), then the
# twin-source deck of session-dm.sh on the host engine, the cuda engine and coop on 1 and 4 slabs,
# each run's probes.h5 kept for reading back on the CPU machine.
set -uo pipefail
source scripts/gpu/lib.sh "$1"
final_checks
twin_deck
twin_run host yeex --engine host
twin_run cuda yeex --engine cuda
twin_run coop_1 yeex --engine cuda --exchange coop
twin_run coop_4slabs yeex --engine cuda --gpus 1 --subdomains 4 --exchange coop
twin_run overlap_4slabs yeex --engine cuda --gpus 1 --subdomains 4 --exchange overlap
pack
final_report
ls "$out"/probes_*.h5
