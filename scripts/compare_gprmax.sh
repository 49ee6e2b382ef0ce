#!/usr/bin/env bash
# yeex against gprMax 4.0.1 (PyPI wheel, its OpenMP CPU solver) on the same machine, in the same
# invocation, on the same model: `speed` (the default) times both codes, `fields` compares their
# receiver traces on one deck. gprMax's input is written from the deck yeex resolved
# (scripts/compare_gprmax.py to-gprmax).
#
# fields: the deck (default inputs/gpr_wet_soil.toml) run by yeex's host engine in float64 and by
# gprMax in double precision with the same dt; the traces of every probe component compared,
# yeex's sample n against gprMax's n + 1 (gprMax records before each update), the difference as
# a fraction of the trace's peak; a markdown report, optionally a plot and a tolerance.
#
# speed: a box of N^3 cells of 1 mm with a
# dielectric cube (eps_r = 4) over the middle third, a z Hertzian dipole at the centre driven by
# a 1 GHz Gaussian pulse and one receiver (all six components) 40 cells from it along x. The
# outer faces are a 10-cell PML (gprMax's default; yeex's CPML) or PEC walls. Both codes run
# with the same OpenMP thread count, in float32 and float64.
#
# Denormals: ahead of the wavefront the fields decay through the subnormal range, where x86
# arithmetic is many times slower, and gprMax does not set flush-to-zero itself (yeex's CPU
# engines do). So each code is run as shipped (`keep`) and with FTZ/DAZ set in the MXCSR
# register by a tiny LD_PRELOAD library (`flush`; OpenMP threads inherit it).
#
# Order: one warm-up run of each code (not reported), then --repeats rounds; a round runs every
# case (boundary x precision x denormals) once, gprMax then yeex: A B A B, so a burst of
# background load hits both codes. The 1-minute load average is recorded before each run.
#
# Usage: scripts/compare_gprmax.sh fields [--deck FILE] [--steps N] [--threads N]
#                                         [--pml matched|default] [--tolerance F] [--plot FILE]
#                                         [--out FILE]
#   --deck FILE    the yeex deck (default inputs/gpr_wet_soil.toml)
#   --steps N      override the deck's steps
#   --pml P        matched: yeex's CPML profile in gprMax's #pml_cfs (default); default: each
#                  code its own default PML
#   --tolerance F  exit 1 when a trace's max |yeex - gprMax| / peak exceeds F (e.g. 0.01)
#   --plot FILE    PNG of the first trace and the difference (installs matplotlib in the venv)
#   --out FILE     also write the markdown report to FILE
#
#        scripts/compare_gprmax.sh [speed] [--size N] [--steps N] [--threads N] [--repeats N]
#                                  [--boundary pml|pec|both] [--precision f32|f64|both]
#                                  [--denormals keep|flush|both] [--out FILE]
#   --size N       cells per side (default 200)
#   --steps N      time steps (default 250)
#   --threads N    OpenMP threads for both codes (default: nproc)
#   --repeats N    rounds; the median of each case is reported (default 2)
#   --boundary B   pml, pec or both (default both: PML rows first)
#   --precision P  f32, f64 or both (default both)
#   --denormals M  keep, flush or both (default both)
#   --out FILE     also write the markdown report (command, date, machine, table) to FILE
#
# Work files (inputs, logs, run.json) go to build/compare/; gprMax lives in build/gprmax-venv.
set -euo pipefail

ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
readonly ROOT GPRMAX_VERSION=4.0.1 PML_CELLS=10
readonly VENV="$ROOT/build/gprmax-venv" WORK="$ROOT/build/compare" YEEX="$ROOT/build/host/yeex"

SIZE=200 STEPS=250 THREADS=$(nproc) REPEATS=2 DENORMALS=both BOUNDARY=both PRECISION=both OUT=''
DECK="$ROOT/inputs/gpr_wet_soil.toml" FIELD_STEPS='' PML=matched TOLERANCE='' PLOT=''
COMMAND_LINE="scripts/compare_gprmax.sh $*"

log() { printf 'compare: %s\n' "$*" >&2; }
die() { printf 'compare: error: %s\n' "$*" >&2; exit 1; }
usage() { sed -n '/^# Usage/,/^# Work/p' "${BASH_SOURCE[0]}" | sed 's/^# \{0,1\}//'; }

parse_field_args() {
  while (($#)); do
    case $1 in
      --deck) DECK=${2:?--deck needs a file}; shift 2 ;;
      --steps) FIELD_STEPS=${2:?--steps needs a value}; shift 2 ;;
      --threads) THREADS=${2:?--threads needs a value}; shift 2 ;;
      --pml) PML=${2:?--pml needs matched or default}; shift 2 ;;
      --tolerance) TOLERANCE=${2:?--tolerance needs a value}; shift 2 ;;
      --plot) PLOT=${2:?--plot needs a file}; shift 2 ;;
      --out) OUT=${2:?--out needs a file}; shift 2 ;;
      -h | --help) usage; exit 0 ;;
      *) usage >&2; die "unknown argument for fields: $1" ;;
    esac
  done
  [[ -f $DECK ]] || die "--deck: no file '$DECK'"
  [[ -z $FIELD_STEPS || $FIELD_STEPS =~ ^[1-9][0-9]*$ ]] || die "--steps must be a positive integer, got '$FIELD_STEPS'"
  [[ $THREADS =~ ^[1-9][0-9]*$ ]] || die "--threads must be a positive integer, got '$THREADS'"
  [[ $PML == matched || $PML == default ]] || die "--pml must be matched or default, got '$PML'"
}

parse_speed_args() {
  while (($#)); do
    case $1 in
      --size) SIZE=${2:?--size needs a value}; shift 2 ;;
      --steps) STEPS=${2:?--steps needs a value}; shift 2 ;;
      --threads) THREADS=${2:?--threads needs a value}; shift 2 ;;
      --repeats) REPEATS=${2:?--repeats needs a value}; shift 2 ;;
      --denormals) DENORMALS=${2:?--denormals needs keep, flush or both}; shift 2 ;;
      --boundary) BOUNDARY=${2:?--boundary needs pml, pec or both}; shift 2 ;;
      --precision) PRECISION=${2:?--precision needs f32, f64 or both}; shift 2 ;;
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
  case $BOUNDARY in
    pml | pec) BOUNDARIES=("$BOUNDARY") ;;
    both) BOUNDARIES=(pml pec) ;;
    *) die "--boundary must be pml, pec or both, got '$BOUNDARY'" ;;
  esac
  case $PRECISION in
    f32 | f64) PRECISIONS=("$PRECISION") ;;
    both) PRECISIONS=(f32 f64) ;;
    *) die "--precision must be f32, f64 or both, got '$PRECISION'" ;;
  esac
  ((SIZE >= 3 * PML_CELLS)) || die "--size must be at least $((3 * PML_CELLS)) (a ${PML_CELLS}-cell PML on each side)"
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
  LOWER=$(awk -v n="$SIZE" 'BEGIN { printf "%.6g", n * 1e-3 / 3 }')
  UPPER=$(awk -v n="$SIZE" 'BEGIN { printf "%.6g", n * 2e-3 / 3 }')
  CENTRE=$(awk -v n="$SIZE" 'BEGIN { printf "%.6g", n * 1e-3 / 2 }')
  RECEIVER=$(awk -v n="$SIZE" 'BEGIN { r = int(n / 2) + 40; if (r > n - 11) r = n - 11; printf "%.6g", r * 1e-3 }')
}

# The same box for yeex (inputs/gprmax_box.toml is the PML case at the default size).
write_yeex_deck() {
  local boundary=$1
  {
    cat <<EOF
title = "gprMax comparison box"
[grid]
cells = [$SIZE, $SIZE, $SIZE]
cell_size = [1e-3, 1e-3, 1e-3]
[time]
steps = $STEPS
courant = 0.99
EOF
    [[ $boundary == pml ]] && printf '[boundary]\nall = "cpml"\n[boundary.cpml]\ncells = %d\n' "$PML_CELLS"
    cat <<EOF
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
[[probe]]
name = "rx"
position = [$RECEIVER, $CENTRE, $CENTRE]
components = ["Ex", "Ey", "Ez", "Hx", "Hy", "Hz"]
[output]
directory = "build/compare-out"
EOF
  } >"$WORK/box-$boundary.toml"
}

# gprMax's input, written from the deck as yeex resolves it (a one-step run's run.json) by
# compare_gprmax.py to-gprmax: #time_window as STEPS iterations, PEC faces without PML, gprMax's
# default PML profile, the cube a `#box: ... n` (no dielectric smoothing, so both codes see the
# same two materials; it changes no work per step), the receiver recording all six components.
write_gprmax_input() {
  local boundary=$1 resolved="$WORK/box-$boundary.run.json"
  (cd "$ROOT" && "$YEEX" run "$WORK/box-$boundary.toml" --engine host --steps 1 --json --quiet \
      --output build/compare-out --force >"$resolved") || die "yeex refused $WORK/box-$boundary.toml"
  python3 "$ROOT/scripts/compare_gprmax.py" to-gprmax "$resolved" --out "$WORK/box-$boundary.in" \
    --iterations "$STEPS" --threads "$THREADS" --pml default
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

# One run of one code in one case; base names: CODE-BOUNDARY-PRECISION-MODE-ROUND (round 0: the
# warm-up). Whole-process wall time (start-up, model build, solve, output) goes to a .wall file,
# the 1-minute load average before the run to a .load file.
run_case() {
  local code=$1 boundary=$2 precision=$3 mode=$4 round=$5 base start
  base="$WORK/$code-$boundary-$precision-$mode-$round"
  log "$code, round $round/$REPEATS: $boundary $precision denormals $mode, ${SIZE}^3 cells, $STEPS steps, $THREADS threads"
  cut -d' ' -f1 /proc/loadavg >"$base.load"
  start=$(now)
  if [[ $code == gprmax ]]; then
    local gprmax_precision=single
    [[ $precision == f64 ]] && gprmax_precision=double
    (cd "$WORK" && env $(run_env "$mode") "$VENV/bin/python" -m gprMax "box-$boundary.in" \
        -cpu_precision "$gprmax_precision" --hide-progress-bars >"$base.log" 2>&1) \
      || { tail -20 "$base.log" >&2; die "gprMax failed (log: $base.log)"; }
  else
    (cd "$ROOT" && env $(run_env "$mode") "$YEEX" run "$WORK/box-$boundary.toml" --engine host \
        --precision "$precision" --steps "$STEPS" --json --quiet --output build/compare-out --force \
        >"$base.json" 2>"$base.err") \
      || { cat "$base.err" >&2; die "yeex failed (stderr: $base.err)"; }
  fi
  awk -v a="$start" -v b="$(now)" 'BEGIN { printf "%.4f\n", b - a }' >"$base.wall"
}

# fields: both codes on one deck in float64, the traces compared by compare_gprmax.py (which runs
# them: yeex first, since gprMax's input is written from yeex's run.json).
run_fields() {
  ensure_gprmax
  ensure_yeex
  if [[ -n $PLOT ]] && ! "$VENV/bin/python" -c 'import matplotlib' 2>/dev/null; then
    log "installing matplotlib into $VENV for --plot"
    "$VENV/bin/python" -m pip install --quiet matplotlib
  fi
  local args=(fields --deck "$DECK" --threads "$THREADS" --pml "$PML" --work "$WORK/fields"
    --yeex "$YEEX" --gprmax-python "$VENV/bin/python")
  [[ -n $FIELD_STEPS ]] && args+=(--steps "$FIELD_STEPS")
  [[ -n $TOLERANCE ]] && args+=(--tolerance "$TOLERANCE")
  [[ -n $PLOT ]] && args+=(--plot "$PLOT")
  [[ -n $OUT ]] && args+=(--out "$OUT")
  "$VENV/bin/python" "$ROOT/scripts/compare_gprmax.py" "${args[@]}"
}

main() {
  local mode=speed
  case ${1:-} in speed | fields) mode=$1; shift ;; esac
  if [[ $mode == fields ]]; then
    parse_field_args "$@"
    run_fields
    return
  fi
  parse_speed_args "$@"
  mkdir -p "$WORK"
  rm -f "$WORK"/gprmax-*.log "$WORK"/yeex-*.json "$WORK"/yeex-*.err "$WORK"/*.wall "$WORK"/*.load
  ensure_gprmax
  ensure_yeex
  geometry
  local boundary precision mode i code
  for boundary in "${BOUNDARIES[@]}"; do
    write_yeex_deck "$boundary"
    write_gprmax_input "$boundary"
  done
  [[ $DENORMALS == keep ]] || build_flush_library

  local load_before
  load_before=$(cut -d' ' -f1-3 /proc/loadavg)
  for code in gprmax yeex; do run_case "$code" "${BOUNDARIES[0]}" "${PRECISIONS[0]}" "${MODES[0]}" 0; done
  for ((i = 1; i <= REPEATS; i++)); do
    for boundary in "${BOUNDARIES[@]}"; do
      for precision in "${PRECISIONS[@]}"; do
        for mode in "${MODES[@]}"; do
          for code in gprmax yeex; do run_case "$code" "$boundary" "$precision" "$mode" "$i"; done
        done
      done
    done
  done

  local report_args=(speed-report --work "$WORK" --size "$SIZE" --steps "$STEPS" --threads "$THREADS"
    --repeats "$REPEATS" --boundaries "${BOUNDARIES[@]}" --precisions "${PRECISIONS[@]}"
    --modes "${MODES[@]}" --pml-cells "$PML_CELLS" --gprmax-python "$VENV/bin/python" --yeex "$YEEX"
    --command "$COMMAND_LINE" --load-before "$load_before")
  [[ -n $OUT ]] && report_args+=(--out "$OUT")
  python3 "$ROOT/scripts/compare_gprmax.py" "${report_args[@]}"
}

main "$@"
