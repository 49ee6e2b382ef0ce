#!/usr/bin/env bash
# yeex's host engine against gprMax 4.0.1 (PyPI wheel, its OpenMP CPU solver) on the same
# machine, in the same run, on the same problem: a closed PEC box of N^3 cells of 1 mm with a
# dielectric cube (eps_r = 4) over the middle third and a z Hertzian dipole at the centre
# driven by a 1 GHz Gaussian pulse. Both codes run float32 with the same OpenMP thread count.
#
# Denormals: ahead of the wavefront the fields decay through the subnormal range, where x86
# arithmetic is many times slower, and neither code sets flush-to-zero itself. So each code is
# run as shipped (`keep`) and with FTZ/DAZ set in the MXCSR register by a tiny LD_PRELOAD
# library (`flush`; OpenMP threads inherit it). `flush` is the speed of the stencils themselves.
#
# Usage: scripts/compare_gprmax.sh [--size N] [--steps N] [--threads N] [--repeats N]
#                                  [--denormals keep|flush|both] [--out FILE]
#   --size N       cells per side (default 200)
#   --steps N      time steps (default 300)
#   --threads N    OpenMP threads for both codes (default: nproc)
#   --repeats N    runs of each code; the median solve time is reported (default 1)
#   --denormals M  keep, flush or both (default both)
#   --out FILE     also write the markdown report (command, date, machine, table) to FILE
#
# Work files (inputs, logs, run.json) go to build/compare/; gprMax lives in build/gprmax-venv.
set -euo pipefail

ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
readonly ROOT GPRMAX_VERSION=4.0.1
readonly VENV="$ROOT/build/gprmax-venv" WORK="$ROOT/build/compare" YEEX="$ROOT/build/host/yeex"

SIZE=200 STEPS=300 THREADS=$(nproc) REPEATS=1 DENORMALS=both OUT=''
COMMAND_LINE="scripts/compare_gprmax.sh $*"

log() { printf 'compare: %s\n' "$*" >&2; }
die() { printf 'compare: error: %s\n' "$*" >&2; exit 1; }
usage() { sed -n '/^# Usage/,/^# Work/p' "${BASH_SOURCE[0]}" | sed 's/^# \{0,1\}//'; }

parse_args() {
  while (($#)); do
    case $1 in
      --size) SIZE=${2:?--size needs a value}; shift 2 ;;
      --steps) STEPS=${2:?--steps needs a value}; shift 2 ;;
      --threads) THREADS=${2:?--threads needs a value}; shift 2 ;;
      --repeats) REPEATS=${2:?--repeats needs a value}; shift 2 ;;
      --denormals) DENORMALS=${2:?--denormals needs keep, flush or both}; shift 2 ;;
      --out) OUT=${2:?--out needs a file}; shift 2 ;;
      -h | --help) usage; exit 0 ;;
      *) usage >&2; die "unknown argument: $1" ;;
    esac
  done
  local name
  for name in SIZE STEPS THREADS REPEATS; do
    [[ ${!name} =~ ^[1-9][0-9]*$ ]] || die "--${name,,} must be a positive integer, got '${!name}'"
  done
  case $DENORMALS in
    keep | flush) MODES=("$DENORMALS") ;;
    both) MODES=(keep flush) ;;
    *) die "--denormals must be keep, flush or both, got '$DENORMALS'" ;;
  esac
}

as_root() {
  if [[ $(id -u) -eq 0 ]]; then "$@"; else sudo "$@"; fi
}

# gprMax 4.0.1 wheels exist for CPython 3.11-3.13 only.
check_python() {
  python3 -c 'import sys; sys.exit(not ((3, 11) <= sys.version_info[:2] < (3, 14)))' \
    || die "gprMax $GPRMAX_VERSION needs Python 3.11-3.13; python3 is $(python3 --version 2>&1)"
}

# Debian splits venv/ensurepip into python3-venv; other Pythons (pyenv, conda) carry it.
ensure_venv_module() {
  python3 -c 'import ensurepip, venv' 2>/dev/null && return
  log "python3 cannot create virtual environments: installing python3-venv"
  as_root env DEBIAN_FRONTEND=noninteractive apt-get update -qq
  as_root env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq python3-venv
}

# A private venv keeps gprMax's pinned numpy/scipy/h5py away from everything else.
ensure_gprmax() {
  if "$VENV/bin/python" -c "import importlib.metadata as m, sys; \
      sys.exit(m.version('gprMax') != '$GPRMAX_VERSION')" 2>/dev/null; then
    log "gprMax $GPRMAX_VERSION already in $VENV"
    return
  fi
  check_python
  ensure_venv_module
  [[ -x "$VENV/bin/python" ]] || python3 -m venv "$VENV"
  log "installing gprMax==$GPRMAX_VERSION into $VENV"
  "$VENV/bin/python" -m pip install --quiet --upgrade pip
  "$VENV/bin/python" -m pip install --quiet "gprMax==$GPRMAX_VERSION"
}

# Use the binary that is there (a colleague's half-finished edit must not break a comparison);
# build the host preset only when there is none.
ensure_yeex() {
  [[ -x "$YEEX" ]] && return
  log "no $YEEX: building the host preset"
  "$ROOT/scripts/setup.sh" >&2
  local generator=()
  [[ -f "$ROOT/build/host/CMakeCache.txt" ]] || generator=(-G Ninja)
  (cd "$ROOT" && cmake --preset host "${generator[@]}" >&2 && cmake --build --preset host --parallel "$(nproc)" >&2)
}

# Geometry in metres: the middle third of the box and its centre, at 1 mm cells.
geometry() {
  LENGTH=$(awk -v n="$SIZE" 'BEGIN { printf "%.6g", n * 1e-3 }')
  LOWER=$(awk -v n="$SIZE" 'BEGIN { printf "%.6g", n * 1e-3 / 3 }')
  UPPER=$(awk -v n="$SIZE" 'BEGIN { printf "%.6g", n * 2e-3 / 3 }')
  CENTRE=$(awk -v n="$SIZE" 'BEGIN { printf "%.6g", n * 1e-3 / 2 }')
}

# gprMax: an integer #time_window is a number of iterations; #pml_cells: 0 leaves the outer
# boundary PEC, like yeex's; the trailing `n` on #box turns off dielectric smoothing so both
# codes see the same two materials (it changes no work per step).
write_gprmax_input() {
  cat >"$WORK/box.in" <<EOF
#title: gprMax comparison box
#domain: $LENGTH $LENGTH $LENGTH
#dx_dy_dz: 0.001 0.001 0.001
#time_window: $STEPS
#pml_cells: 0
#omp_threads: $THREADS
#material: 4 0 1 0 dielectric
#box: $LOWER $LOWER $LOWER $UPPER $UPPER $UPPER dielectric n
#waveform: gaussian 1 1e9 pulse
#hertzian_dipole: z $CENTRE $CENTRE $CENTRE pulse
EOF
}

write_yeex_deck() {
  cat >"$WORK/box.toml" <<EOF
title = "gprMax comparison box"
[grid]
cells = [$SIZE, $SIZE, $SIZE]
cell_size = [1e-3, 1e-3, 1e-3]
[time]
steps = $STEPS
courant = 0.99
[[material]]
name = "dielectric"
eps_r = 4.0
[[geometry]]
shape = "box"
material = "dielectric"
lower = [$LOWER, $LOWER, $LOWER]
upper = [$UPPER, $UPPER, $UPPER]
[[source]]
type = "hertzian_dipole"
polarisation = "z"
position = [$CENTRE, $CENTRE, $CENTRE]
waveform = "gaussian"
frequency = 1e9
[output]
directory = "build/compare-out"
EOF
}

# MXCSR bits FTZ (0x8000) and DAZ (0x0040), set before main(); threads created later inherit them.
build_flush_library() {
  [[ $(uname -m) == x86_64 ]] || die "--denormals flush sets the x86 MXCSR register: x86_64 only"
  cat >"$WORK/ftz.c" <<'EOF'
#include <xmmintrin.h>
__attribute__((constructor)) static void yeex_compare_set_ftz_daz(void) {
  _mm_setcsr(_mm_getcsr() | 0x8040);
}
EOF
  cc -O2 -shared -fPIC -o "$WORK/ftz.so" "$WORK/ftz.c"
}

# The environment of one run: OpenMP threads, and the FTZ/DAZ library in flush mode.
run_env() {
  local mode=$1
  echo "OMP_NUM_THREADS=$THREADS"
  [[ $mode == flush ]] && echo "LD_PRELOAD=$WORK/ftz.so"
  return 0
}

now() { date +%s.%N; }

# Whole-process wall time (Python start-up, model build, solve, output) goes to a .wall file
# next to the log, for the end-to-end column.
run_gprmax() {
  local mode=$1 i=$2 base start
  base="$WORK/gprmax-$mode-$i"
  log "gprMax run $i/$REPEATS, denormals $mode: ${SIZE}^3 cells, $STEPS steps, $THREADS threads"
  start=$(now)
  (cd "$WORK" && env $(run_env "$mode") "$VENV/bin/python" -m gprMax box.in \
      -cpu_precision single --hide-progress-bars >"$base.log" 2>&1) \
    || { tail -20 "$base.log" >&2; die "gprMax failed (log: $base.log)"; }
  awk -v a="$start" -v b="$(now)" 'BEGIN { printf "%.4f\n", b - a }' >"$base.wall"
}

run_yeex() {
  local mode=$1 i=$2 base start
  base="$WORK/yeex-$mode-$i"
  log "yeex run $i/$REPEATS, denormals $mode: ${SIZE}^3 cells, $STEPS steps, $THREADS threads"
  start=$(now)
  (cd "$ROOT" && env $(run_env "$mode") "$YEEX" run "$WORK/box.toml" --engine host \
      --precision f32 --steps "$STEPS" --json --quiet --output build/compare-out --force \
      >"$base.json" 2>"$base.err") \
    || { cat "$base.err" >&2; die "yeex failed (stderr: $base.err)"; }
  awk -v a="$start" -v b="$(now)" 'BEGIN { printf "%.4f\n", b - a }' >"$base.wall"
}

main() {
  parse_args "$@"
  mkdir -p "$WORK"
  rm -f "$WORK"/gprmax-*.log "$WORK"/gprmax-*.wall "$WORK"/yeex-*.json "$WORK"/yeex-*.err "$WORK"/yeex-*.wall
  ensure_gprmax
  ensure_yeex
  geometry
  write_gprmax_input
  write_yeex_deck
  [[ $DENORMALS == keep ]] || build_flush_library

  local load_before i mode
  load_before=$(cut -d' ' -f1-3 /proc/loadavg)
  # Alternate the codes so a burst of background load hits both rather than one.
  for ((i = 1; i <= REPEATS; i++)); do
    for mode in "${MODES[@]}"; do
      run_gprmax "$mode" "$i"
      run_yeex "$mode" "$i"
    done
  done

  local report_args=(--work "$WORK" --size "$SIZE" --steps "$STEPS" --threads "$THREADS"
    --repeats "$REPEATS" --modes "${MODES[@]}" --gprmax-python "$VENV/bin/python" --yeex "$YEEX"
    --command "$COMMAND_LINE" --load-before "$load_before")
  [[ -n $OUT ]] && report_args+=(--out "$OUT")
  python3 "$ROOT/scripts/compare_gprmax.py" "${report_args[@]}"
}

main "$@"
