#!/usr/bin/env bash
# Sixteenth session, call 3 (one GPU machine): the final build (the kokkos engine, engine_description
# in the reports): scripts/kokkos-check.sh on the machine's CPU cores (carried build as in
# session-et.sh, now with a 3-rank MPI-mode run), then final_checks on the cuda build
# (gpu-check.sh, validate on one GPU and with coop, cpml-check.sh's benchmark).
set -uo pipefail
source scripts/gpu/lib.sh "$1"
run kokkos_check 200 scripts/kokkos-check.sh "${KOKKOS_BUILD:-build/kslim}" "$out/kokkos-check"; pack
final_checks
final_report
grep -A3 "MPI mode\|3 slabs" "$out/kokkos-check/kokkos-check.log"
grep "PASS\|FAIL" "$out/kokkos-check/kokkos-check.log"
