#!/usr/bin/env bash
# Sixteenth session, call 1 (one GPU machine; the kokkos part runs on its CPU cores): the kokkos
# engine with Debian unstable's Kokkos 5.2.2 (OpenMP), built on the Debian 12 machine with
# -Wl,--allow-shlib-undefined (Kokkos's libraries need glibc 2.38, which runs here) and carried as
# KOKKOS_BUILD (yeex, tests/kokkos/test_kokkos_engine) with the libraries in build/kokkos/prefix:
# scripts/kokkos-check.sh. Then the gpu tests of the cuda build (its host engine now reads its
# row classes from kernels/row_classes.hpp; the engine list gained kokkos).
set -uo pipefail
source scripts/gpu/lib.sh "$1"
run kokkos_check 420 scripts/kokkos-check.sh "${KOKKOS_BUILD:-build/kslim}" "$out/kokkos-check"; pack
gpu_test_pair test_multi_gpu test_cuda_engine test_topology_gpu
run engines 20 "$b/yeex" engines
echo "done ($((SECONDS - t0)) s)" >> "$out/summary.txt"; pack
cat "$out/summary.txt"
grep -h "PASSED\|FAILED" "$out"/test_*.txt
tail -40 "$out/kokkos-check/kokkos-check.log"
