#!/usr/bin/env bash
# Kokkos check: the kokkos-labelled tests, the quick validation and a host-against-kokkos benchmark,
# on the CPU of a machine where a Kokkos build links and runs (glibc >= 2.38: scripts/kokkos-fetch.sh).
#
#   scripts/kokkos-check.sh [BUILD_DIR] [OUT_DIR]
#
# BUILD_DIR defaults to build/kokkos/build (the `kokkos` preset; fetched and built here if missing).
# A BUILD_DIR built elsewhere needs yeex and tests/kokkos/test_kokkos_engine, and Kokkos's
# libraries under KOKKOS_PREFIX (default build/kokkos/prefix). Everything printed also goes to
# OUT_DIR (default results/kokkos-check-DATE)/kokkos-check.log, with the bench JSON beside it.
set -euo pipefail
cd "$(dirname "$0")/.."
build=${1:-build/kokkos/build}
out=${2:-results/kokkos-check-$(date -u +%Y%m%d)}
prefix=${KOKKOS_PREFIX:-build/kokkos/prefix}
mkdir -p "$out"
exec > >(tee "$out/kokkos-check.log") 2>&1

section() { printf '\n## %s\n' "$*"; }

section "machine ($(date -u +%Y-%m-%dT%H:%M:%SZ))"
echo "command: $0 $*"
echo "git: $(git describe --always --dirty 2>/dev/null || echo unknown)"
echo "$(nproc) cores: $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2- | sed 's/^ *//')"
ldd --version | sed -n 1p

if [[ ! -x $build/yeex ]]; then
  section "build ($build)"
  [[ -d $prefix ]] || scripts/kokkos-fetch.sh "$prefix"
  cmake --preset kokkos -G Ninja && cmake --build "$build" -j"$(nproc)"
fi
export LD_LIBRARY_PATH="$PWD/$prefix/usr/lib/x86_64-linux-gnu${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
# Kokkos's advice for OpenMP; both engines run under it.
export OMP_PROC_BIND=${OMP_PROC_BIND:-spread} OMP_PLACES=${OMP_PLACES:-threads}
echo "OMP_PROC_BIND=$OMP_PROC_BIND OMP_PLACES=$OMP_PLACES OMP_NUM_THREADS=${OMP_NUM_THREADS:-unset}"

section "engines"
"$build/yeex" engines

section "kokkos tests"
status=0
"$build/tests/kokkos/test_kokkos_engine" --gtest_color=no || status=1

section "validate --quick on the kokkos engine"
"$build/yeex" validate --quick --engine kokkos || status=1

section "default deck, 3 slabs (b2r, R = 2) on the kokkos engine: the host engine's checksum"
# `checksum NAME OPTIONS...`: the default deck's checksum lines, run under ${launcher[@]} (none: directly).
launcher=()
checksum() {
  "${launcher[@]}" "$build/yeex" run inputs/dipole_box.toml --steps 200 --quiet --json --force --output "$out/$1" "${@:2}" |
    grep -A6 '"checksum"'
}
host=$(checksum host --engine host)
kokkos=$(checksum kokkos --engine kokkos --subdomains 3 --exchange b2r --halo-depth 2)
rm -rf "$out/host" "$out/kokkos"
if [[ $host == "$kokkos" ]]; then echo "the same checksum"; else echo "DIFFERENT checksums"; status=1; fi
echo "$kokkos"

if command -v mpirun >/dev/null; then
  section "MPI mode: 3 ranks (mpi transport) on the kokkos engine: the host engine's checksum"
  export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
  launcher=(mpirun -np 3 --bind-to none)
  ranks=$(checksum kokkos_mpi --engine kokkos --exchange mpi || true)
  rm -rf "$out/kokkos_mpi"
  if [[ $host == "$ranks" ]]; then echo "the same checksum"; else echo "DIFFERENT checksums"; status=1; fi
fi

section "benchmark: host and kokkos engines, one slab"
for precision in f32 f64; do
  for engine in host kokkos; do
    "$build/yeex" bench --engine "$engine" --precision "$precision" --size 128 256 --counts 1 --exchanges host-staged \
      --steps 20 --warmup 5 --repeats 3 --json "$out/bench_${engine}_$precision.json"
  done
done

section "result"
if [[ $status -eq 0 ]]; then echo "kokkos check: PASS"; else echo "kokkos check: FAIL"; fi
exit $status
