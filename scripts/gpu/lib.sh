# Shared by the session scripts (session-a.sh, session-b.sh, session-c.sh): sourced with OUT_DIR as
# $1 from the repository root. Sets out, b (the build), bench (yeex bench with the session's step
# counts), all (every backend) and t0, starts OUT_DIR/summary.txt, and defines run: `run NAME
# LIMIT COMMAND...` runs COMMAND under `timeout LIMIT` with its output in OUT_DIR/NAME.txt and one
# line in the summary; gpu_tests runs every gpu test binary of the build into OUT_DIR/gpu-tests;
# pack refreshes OUT_DIR.tar.gz.
out=${1:?usage: $0 OUT_DIR}
mkdir -p "$out"
export NCCL_NVLS_ENABLE=0
b=${BUILD_DIR:-build/cuda}
bench=("$b/yeex" bench --engine cuda --steps 50 --warmup 10 --repeats 5)
echo "date: $(date -u +%Y-%m-%dT%H:%M:%SZ)  git: $(git describe --always --dirty 2>/dev/null)" | tee "$out/summary.txt"
t0=$SECONDS
run() {
  local name=$1 limit=$2
  shift 2
  timeout "$limit" "$@" > "$out/$name.txt" 2>&1
  echo "$name exit $? ($((SECONDS - t0)) s)" >> "$out/summary.txt"
}
all=host-staged,p2p,overlap,coop,b2r,graph,nccl
# One GPU: `yeex bench` of the engine (T1) and of the backend that --exchanges names, 100 steps x 5
# after 20 warm-up. `pec NAME SIZE PRECISION` runs it (as `run NAME`) for overlap with PEC walls,
# `cpml NAME SIZE PRECISION [VAR=VALUE ...]` with 10-cell CPML on every face, under the
# environment VAR=VALUE (the sessions' knobs).
one=("$b/yeex" bench --engine cuda --gpus 1 --counts 1 --steps 100 --warmup 20 --repeats 5)
pec() { run "$1" 60 "${one[@]}" --exchanges overlap --size "$2" --precision "$3"; }
cpml() {
  local name=$1 size=$2 precision=$3
  shift 3
  run "$name" 60 env "$@" "${one[@]}" --exchanges overlap --size "$size" --precision "$precision" --cpml 10
}
# The reference pair of those runs at 512^3 in float: pec_REP (PEC walls) and base_REP (the build).
cpml_baseline() {
  pec "pec_$1" 512 f32
  cpml "base_$1" 512 f32
}
gpu_tests() { OUT=$out/gpu-tests run gpu_tests 150 scripts/gpu/gpu-tests.sh "$b"; }
# Packs OUT_DIR into OUT_DIR.tar.gz (one file comes back even where the folder has too many).
pack() { tar czf "$out.tar.gz" -C "$(dirname "$out")" "$(basename "$out")"; }
# cpml_deck writes OUT_DIR/deck.toml, a 160 x 120 x 72 CPML deck (inputs/dipole_free_space.toml
# enlarged, 120 steps); `deck_bits LABEL BINARY ENGINE PRECISION [VAR=VALUE ...]` runs it with
# $b/BINARY under the environment VAR=VALUE and appends "LABEL PRECISION checksum ..." to
# OUT_DIR/bits.txt (eighth session: the bits of the CPML kernels' variants).
cpml_deck() {
  sed -e 's/^cells = \[48, 48, 48\].*/cells = [160, 120, 72]/' -e 's/^steps = 300.*/steps = 120/' \
    inputs/dipole_free_space.toml > "$out/deck.toml"
}
deck_bits() {
  local label=$1 binary=$2 engine=$3 precision=$4
  shift 4
  env "$@" "$b/$binary" run "$out/deck.toml" --engine "$engine" --precision "$precision" --output "$out/o" 2>&1 |
    grep checksum | sed "s/^/$label $precision /" >> "$out/bits.txt"
  rm -rf "$out/o"
}
# `variant_bits VARIANT ...` runs the deck with this build's cuda engine in f32 and f64 under each
# VARIANT, a space-separated list of VAR=VALUE ("" for none), labelled "[VARIANT]".
variant_bits() {
  local v p
  for v in "$@"; do
    # shellcheck disable=SC2086 # VARIANT splits into its VAR=VALUE words
    for p in f32 f64; do deck_bits "[$v]" yeex cuda $p $v; done
  done
}
# `pair BIN NAME SIZE PRECISION`: PEC and CPML with $b/BIN, as BIN_pecNAME and BIN_cpmlNAME.
pair() {
  one[0]=$b/$1
  pec "$1_pec$2" "$3" "$4"
  cpml "$1_cpml$2" "$3" "$4"
  one[0]=$b/yeex
}
# `versus REP [OTHER]` runs PEC and CPML at 512^3 in f32 with this build (yeex) and another one
# (OTHER, default yeex-main), in turn: yeex_pec_REP, yeex_cpml_REP, OTHER_pec_REP, OTHER_cpml_REP.
versus() {
  local bin
  for bin in yeex "${2:-yeex-main}"; do pair "$bin" "_$1" 512 f32; done
}
# `versus_sizes OTHER`: the same in f64 at 512^3 and in f32 at 256^3, once (BIN_pec64_1,
# BIN_cpml64_1, BIN_pec256_1, BIN_cpml256_1).
versus_sizes() {
  local bin
  for bin in yeex "$1"; do pair "$bin" 64_1 512 f64; pair "$bin" 256_1 256 f32; done
}
# `bits_versus OTHER`: the CPML deck's bits (cpml_deck) with OTHER ("[OTHER]") and this build
# ("[new]"), f32 and f64.
bits_versus() {
  local p
  for p in f32 f64; do deck_bits "[$1]" "$1" cuda $p; deck_bits "[new]" yeex cuda $p; done
}
# `coop_versus OTHER [cpml]`: coop on one GPU at 512^3 with this build and OTHER, f32 (100 steps)
# and f64 (50), and with "cpml" 10-cell CPML in f32 too: BIN_coop512, BIN_coop512_f64,
# BIN_coop512_cpml.
coop_versus() {
  local bin args=(bench --engine cuda --gpus 1 --counts 1 --warmup 20 --exchanges coop --size 512)
  for bin in yeex "$1"; do
    run "${bin}_coop512" 60 "$b/$bin" "${args[@]}" --steps 100 --repeats 5
    run "${bin}_coop512_f64" 60 "$b/$bin" "${args[@]}" --steps 50 --repeats 5 --precision f64
    [[ ${2:-} == cpml ]] && run "${bin}_coop512_cpml" 60 "$b/$bin" "${args[@]}" --steps 50 --repeats 5 --cpml 10
  done
}
# The checks of a build to commit: `yeex validate` on one GPU (validate-check.sh) and with coop,
# and cpml-check.sh's benchmark (its tests skipped: gpu_tests or gpu-check.sh ran them).
release_checks() {
  OUT=$out/validate YEEX=$b/yeex run validate 240 scripts/gpu/validate-check.sh; pack
  run validate_coop 200 "$b/yeex" validate --engine cuda --gpus 1 --exchange coop --json "$out/validate_coop.json"
  OUT=$out/cpml YEEX_CPML_SKIP_TESTS=1 run cpml_check 120 scripts/gpu/cpml-check.sh "$b"
}
# final_checks (thirteenth session): scripts/gpu-check.sh, then release_checks; the summary last.
final_checks() {
  run gpu_check 400 scripts/gpu-check.sh "$b" "$out/gpu-check"; pack
  release_checks
  echo "done ($((SECONDS - t0)) s)" >> "$out/summary.txt"; pack
  cat "$out/summary.txt"
}
# `cpml_variants REP [NAME "VAR=VALUE ..."]...`: cpml_baseline REP, then CPML 512^3 f32 under each
# variant's environment as NAME_REP; pack.
cpml_variants() {
  local rep=$1
  shift
  cpml_baseline "$rep"
  while (($# >= 2)); do
    # shellcheck disable=SC2086 # the environment splits into its VAR=VALUE words
    cpml "$1_$rep" 512 f32 $2
    shift 2
  done
  pack
}
# `size_variant SUFFIX SIZE PRECISION NAME "VAR=VALUE ..."`: PEC, CPML, and CPML under the
# environment at one size, as pecSUFFIX, baseSUFFIX, NAMESUFFIX.
size_variant() {
  pec "pec$1" "$2" "$3"
  cpml "base$1" "$2" "$3"
  # shellcheck disable=SC2086 # the environment splits into its VAR=VALUE words
  cpml "$4$1" "$2" "$3" $5
}
# `exp_tests VAR=VALUE ...`: the experiment build's cuda engine and multi-GPU tests
# (tests/gpu/*_exp) under the environment.
exp_tests() {
  local t
  for t in test_cuda_engine_exp test_multi_gpu_exp; do run "$t" 120 env "$@" "$b/tests/gpu/$t" --gtest_color=no; done
}
# `exp_bits LABEL VAR=VALUE ...`: the CPML deck's bits (cpml_deck) with yeex-exp, f32 and f64,
# without ("[exp]") and with the environment ("[exp LABEL]").
exp_bits() {
  local label=$1 p
  shift
  for p in f32 f64; do deck_bits "[exp]" yeex-exp cuda $p; deck_bits "[exp $label]" yeex-exp cuda $p "$@"; done
}
# `exp_start LABEL VAR=VALUE ...`: exp_tests and exp_bits under the environment, then the bench
# runs with yeex-exp (one[0]).
exp_start() {
  local label=$1
  shift
  exp_tests "$@"
  cpml_deck
  exp_bits "$label" "$@"
  pack
  one[0]=$b/yeex-exp
}
# `fork_tests PREFIX VAR VALUE...` (tenth session's experiment knobs): the cuda engine's gpu tests
# with every CPML shell forked (YEEX_CPML_FORK_NODES=0) under VAR=VALUE, as cuda_tests_PREFIXVALUE,
# for each VALUE; pack.
fork_tests() {
  local prefix=$1 var=$2 v
  shift 2
  for v in "$@"; do
    run "cuda_tests_$prefix$v" 150 env YEEX_CPML_FORK_NODES=0 "$var=$v" "$b/tests/gpu/test_cuda_engine" --gtest_color=no
  done
  pack
}
# `exp_check LABEL VAR=VALUE LABEL2 VAR2=VALUE2` (eleventh session): exp_start under VAR=VALUE,
# yeex-exp's cuda engine tests with every CPML shell forked under it too (cuda_tests_fork_LABEL),
# and the CPML deck's bits under VAR2=VALUE2 as well; pack.
exp_check() {
  exp_start "$1" "$2"
  run "cuda_tests_fork_$1" 150 env YEEX_CPML_FORK_NODES=0 "$2" "$b/tests/gpu/test_cuda_engine_exp" --gtest_color=no
  exp_bits "$3" "$4"
  pack
}
# `exp_twice [NAME "VAR=VALUE ..."]...`: cpml_variants with yeex-exp, twice (REP 1 and 2).
exp_twice() {
  local rep
  for rep in 1 2; do
    one[0]=$b/yeex-exp
    cpml_variants "$rep" "$@"
  done
}
# `coop_bits BIN...` (twelfth session): the CPML deck's bits (cpml_deck) under coop on 1 and 4
# slabs of the GPU, f32 and f64, with each $b/BIN, appended to OUT_DIR/bits.txt as "BIN PRECISION
# SLABS checksum ...".
coop_bits() {
  local bin p slabs
  for bin in "$@"; do
    for p in f32 f64; do
      for slabs in 1 4; do
        "$b/$bin" run "$out/deck.toml" --gpus 1 --subdomains $slabs --exchange coop --precision $p --output "$out/o" 2>&1 |
          grep checksum | sed "s/^/$bin $p $slabs /" >> "$out/bits.txt"
        rm -rf "$out/o"
      done
    done
  done
}
# `coop_cpml_rates BIN...`: coop at 512^3 with 10-cell CPML, f32 twice (BIN_cpml512_REP) and f64
# once (BIN_cpml512_f64), with each $b/BIN; the rows in OUT_DIR/rates.txt; pack.
coop_cpml_rates() {
  local bin rep args=(bench --engine cuda --gpus 1 --counts 1 --warmup 20 --exchanges coop --size 512 --cpml 10 --repeats 5)
  for rep in 1 2; do
    for bin in "$@"; do run "${bin}_cpml512_$rep" 60 "$b/$bin" "${args[@]}" --steps 50; done
    pack
  done
  for bin in "$@"; do run "${bin}_cpml512_f64" 60 "$b/$bin" "${args[@]}" --steps 30 --precision f64; done
  grep -H "coop " "$out"/*_cpml512_*.txt | sed 's|.*/||' > "$out/rates.txt"
  pack
}
# --- thirteenth session ---
# `gpu_test_pair TEST...`: the named gpu test binaries of the build, one line each (--gtest_brief).
gpu_test_pair() {
  local t
  for t in "$@"; do run "$t" 300 "$b/tests/gpu/$t" --gtest_color=no --gtest_brief=1; done
}
# `coop_rate_runs REPS "BIN..." CASE...`: coop on one GPU with each $b/BIN in turn, for each CASE
# ("SIZE [options]"; 60 steps x 5 unless the case gives --steps), REPS times, as
# BIN_<case without its step options>[_REP] (the suffix where REPS > 1).
coop_rate_runs() {
  local reps=$1 bins=$2 rep bin c steps suffix
  shift 2
  local args=(bench --engine cuda --gpus 1 --counts 1 --warmup 10 --exchanges coop)
  for rep in $(seq "$reps"); do
    suffix=""
    ((reps > 1)) && suffix="_$rep"
    for bin in $bins; do
      for c in "$@"; do
        steps=(--steps 60 --repeats 5)
        [[ $c == *--steps* ]] && steps=()
        # shellcheck disable=SC2086 # $c carries the size and its options
        run "${bin}_$(echo "${c%% --steps*}" | tr -d ' -')$suffix" 60 "$b/$bin" "${args[@]}" "${steps[@]}" --size $c
      done
    done
  done
}
# `tests_and_coop_bits`: test_multi_gpu and test_cuda_engine, then the CPML deck's bits under coop
# on 1 and 4 slabs with this build and yeex-prev; pack.
tests_and_coop_bits() {
  gpu_test_pair test_multi_gpu test_cuda_engine
  cpml_deck
  coop_bits yeex yeex-prev
  pack
}
# `coop_rates`: each coop row of the bench outputs OUT_DIR/yeex*.txt, as "FILE GCELLS".
coop_rates() { grep -H "coop " "$out"/yeex*.txt | sed "s|$out/||" | awk '{print $1, $7}' | sort; }
# `twin_deck`: OUT_DIR/twin.toml, inputs/dipole_box.toml with a second, identical dipole on the
# same node, 150 steps. `twin_run LABEL BIN ARGS...` runs it with $b/BIN and keeps its probes.h5
# as OUT_DIR/probes_LABEL.h5 (read back on the CPU machine with h5dump: none on the GPU machine).
twin_deck() {
  python3 - "$out/twin.toml" <<'PY'
import sys
s = open("inputs/dipole_box.toml").read()
i, j = s.index("[[source]]"), s.index("[[probe]]")
twin = s[i:j].replace('name = "tx"', 'name = "tx2"')
open(sys.argv[1], "w").write(s[:j].replace("steps = 400", "steps = 150") + twin + s[j:])
PY
}
twin_run() {
  local label=$1 bin=$2
  shift 2
  "$b/$bin" run "$out/twin.toml" --quiet --output "$out/o" "$@" > "$out/twin_$label.log" 2>&1
  cp "$out/o/probes.h5" "$out/probes_$label.h5"
  rm -rf "$out/o"
}
# `final_report`: what final_checks found, from its logs.
final_report() {
  grep -E "PASS|FAIL|passed|checksum|^strong" "$out/gpu-check/gpu-check.log" | head -40
  grep -hE "problem\(s\)" "$out"/validate*.txt "$out"/validate/*.log 2>/dev/null | head
  grep -E "PASS|FAIL|%" "$out/cpml/cpml-check.log" | tail -3
}
# --- fourteenth session ---
# `quarter_deck`: OUT_DIR/quarter.toml, the bench box's model on 128 x 128 x 32 cells (the share of
# one GPU of 128^3 over 4), 20000 steps, no output. `quarter_runs REPS BIN...` runs it under coop on
# one GPU with each $b/BIN, REPS times, as quarter_BIN_REP (the summary's Gcells/s; DECK=NAME: the
# deck NAME.toml instead, as NAME_BIN_REP).
# `quarter_deck [NZ [NAME]]` writes the same with NZ planes (default 32) as OUT_DIR/NAME.toml (default
# quarter). `env_bin NAME VAR=VALUE...` writes $b/NAME: $b/yeex under the environment VAR=VALUE.
quarter_deck() { box_deck "${2:-quarter}" 128 128 "${1:-32}" 20000; }
env_bin() {
  local name=$1
  shift
  printf '#!/bin/sh\nexec env %s "$(dirname "$0")/yeex" "$@"\n' "$*" > "$b/$name"
  chmod +x "$b/$name"
}
quarter_runs() {
  local reps=$1 rep bin deck=${DECK:-quarter}
  shift
  for rep in $(seq "$reps"); do
    for bin in "$@"; do
      run "${deck}_${bin}_$rep" 60 "$b/$bin" run "$out/$deck.toml" --engine cuda --gpus 1 --exchange coop --output "$out/o"
      rm -rf "$out/o"
    done
  done
}
# `form_rates [CASE...]`: $b/yeex-c0 and $b/yeex-c1 (coop's kernel with inject_sources inlined /
# called: YEEX_COOP_CALL_SOURCES=0|1), then coop_rate_runs with both, twice, on f32 128^3 (400 x 9),
# 192^3, 256^3, 384^3, 512^3, f64 128^3 (400 x 9), 256^3, 512^3 (40 x 5), 10-cell CPML 128^3 (400
# x 9) and 512^3 (50 x 5), and the further CASEs.
form_rates() {
  local c
  for c in 0 1; do env_bin "yeex-c$c" YEEX_COOP_CALL_SOURCES=$c; done
  coop_rate_runs 2 "yeex-c0 yeex-c1" "128 --steps 400 --repeats 9" 192 256 384 512 \
    "128 --precision f64 --steps 400 --repeats 9" "256 --precision f64" "512 --precision f64 --steps 40 --repeats 5" \
    "128 --cpml 10 --steps 400 --repeats 9" "512 --cpml 10 --steps 50 --repeats 5" "$@"
}
# `knob_runs VAR "VALUES" BIN ARGS...`: yeex bench with $b/BIN ARGS under VAR=VALUE (VALUE "none":
# VAR unset) for each VALUE, in f32 (60 steps) and f64 (30), twice, as <VAR's last word><VALUE>_<precision>_<rep>
# (YEEX_EXP_FIELD_SKEW=0: skew0_f32_1).
knob_runs() {
  local var=$1 values=$2 bin=$3 rep value p steps env
  shift 3
  for rep in 1 2; do
    for value in $values; do
      env=()
      [[ $value != none ]] && env=("$var=$value")
      for p in f32 f64; do
        steps=60
        [[ $p == f64 ]] && steps=30
        run "$(echo "${var##*_}" | tr '[:upper:]' '[:lower:]')${value}_${p}_$rep" 60 env "${env[@]}" "$b/$bin" "$@" --steps $steps --precision $p
      done
    done
    pack
  done
}
# --- fifteenth session ---
# `coop_tests NAME [VAR=VALUE ...]`: test_multi_gpu's coop and bench tests (FILTER: other gtest
# filters) under the environment, as coop_tests_NAME.
coop_tests() {
  local name=$1
  shift
  run "coop_tests_$name" 300 env "$@" "$b/tests/gpu/test_multi_gpu" --gtest_color=no --gtest_brief=1 \
    --gtest_filter="${FILTER:-MultiGpu.Coop*:MultiGpu.Bench*}"
}
# `ncu_box NAME KERNEL_REGEX [yeex run ARGS ...]`: Nsight Compute's time and DRAM bytes for every
# launch of the kernels matching KERNEL_REGEX while `yeex run` runs the bench box (512^3) as a deck
# of 4 steps (OUT_DIR/box4.toml) on GPU 0 with the ARGS, coop's kernel form fixed (no trials), under
# the caller's environment: OUT_DIR/NAME.txt.
ncu_box() {
  local name=$1 kernel=$2 ncu
  shift 2
  [[ -f $out/box4.toml ]] || sed -e 's/^steps = 100 /steps = 4 /' inputs/bench_box.toml > "$out/box4.toml"
  ncu=$(command -v ncu || ls /usr/local/cuda/bin/ncu /opt/nvidia/nsight-compute/*/ncu 2>/dev/null | head -1)
  CUDA_VISIBLE_DEVICES=0 YEEX_COOP_CALL_SOURCES=1 run "$name" 200 "$ncu" --clock-control none \
    --kernel-name "regex:$kernel" --launch-count 100 --csv \
    --metrics gpu__time_duration.sum,dram__bytes_read.sum,dram__bytes_write.sum,lts__t_sector_hit_rate.pct,l1tex__t_sector_hit_rate.pct \
    "$b/yeex" run "$out/box4.toml" --engine cuda --gpus 1 --output "$out/o_$name" "$@"
  rm -rf "$out/o_$name"
}
# `ncu_values NAME`: the metric, unit and value columns of OUT_DIR/NAME.txt (ncu_box's and the like).
ncu_values() { grep '^"' "$out/$1.txt" | awk -F'","' 'NR > 1 {print $(NF-2), $(NF-1), $NF}' | tr -d '"'; }
# `fused_stream_runs FILTER SEGMENT...`: the fused-step prototype ($b/fused_stream: bits after 7
# steps, then 20 timed steps at 256^3 and 512^3) on the cases whose label holds FILTER, with
# segments of each SEGMENT planes, as FILTER_segSEGMENT; then the summary, the bits and 512^3 lines,
# the 256^3 ones.
fused_stream_runs() {
  local filter=$1 seg
  shift
  for seg in "$@"; do
    run "${filter}_seg$seg" 400 "$b/fused_stream" 7 20 "$seg" "$filter"
    pack
  done
  echo "done ($((SECONDS - t0)) s)" >> "$out/summary.txt"; pack
  cat "$out/summary.txt"
  grep -h "bits\|512^3" "$out/$filter"_seg*.txt
  grep -h "256^3" "$out/$filter"_seg*.txt
}
# `fuse_start NAME LAG PREFIX LAGS...` (the fused-sweep patches' knobs): coop_tests NAME under
# YEEX_COOP_FUSE=1, the coop tests again with YEEX_COOP_FUSE_LAG=LAG as NAME_lagLAG; pack; then
# $b/yeex-u (not fused) and $b/PREFIXL fused with lag L for each of LAGS.
fuse_start() {
  local name=$1 lag=$2 prefix=$3 l
  shift 3
  coop_tests "$name" YEEX_COOP_FUSE=1
  FILTER='MultiGpu.Coop*' coop_tests "${name}_lag$lag" YEEX_COOP_FUSE=1 YEEX_COOP_FUSE_LAG="$lag"
  pack
  env_bin yeex-u YEEX_COOP_FUSE=0
  for l in "$@"; do env_bin "$prefix$l" YEEX_COOP_FUSE=1 YEEX_COOP_FUSE_LAG="$l"; done
}
# `fuse_finish NAME`: pack; ncu_box NAME on the coop kernel under YEEX_COOP_FUSE=1; then the tests'
# verdicts, coop_rates and NAME's values.
fuse_finish() {
  pack
  YEEX_COOP_FUSE=1 ncu_box "$1" coop_kernel --exchange coop
  echo "done ($((SECONDS - t0)) s)" >> "$out/summary.txt"; pack
  grep -h "PASSED\|FAILED" "$out"/coop_tests_*.txt
  coop_rates
  ncu_values "$1"
}
# --- eighteenth session ---
# `graph_rows`: every gpu test binary of the build, then strong 64^3, 128^3 and 256^3 on 1, 2, 4
# GPUs (400 steps x 9) for overlap, coop, b2r (R = 2), nccl and graph (calls 6 and 7).
graph_rows() {
  local t size
  for t in "$b"/tests/gpu/test_*; do run "tests_$(basename "$t")" 240 "$t" --gtest_color=no --gtest_brief=1; done
  long=("$b/yeex" bench --engine cuda --steps 400 --warmup 50 --repeats 9 --scaling strong)
  for size in 64 128 256; do
    run "strong_$size" 90 "${long[@]}" --size $size --counts 1,2,4 --exchanges overlap,coop,b2r,nccl,graph --halo-depth 2 --json "$out/strong_$size.json"
  done
}
# `graph_report`: the summary, the tests' verdicts and every bench row.
graph_report() {
  echo "done ($((SECONDS - t0)) s)" >> "$out/summary.txt"
  cat "$out/summary.txt"
  grep -h "PASSED\|FAILED\|not run" "$out"/tests_*.txt | sort | uniq -c | head -20
  grep -hv "^#" "$out"/strong_*.txt "$out"/weak_*.txt | grep -v "^scaling"
}
# --- nineteenth session ---
# `gpus_and_tests`: the GPUs (nvidia-smi -L) into OUT_DIR/machine.txt, then the gpu test binaries
# test_multi_gpu, test_cuda_engine and test_gpu_cli (gpu_test_pair); pack.
gpus_and_tests() {
  nvidia-smi -L > "$out/machine.txt"
  gpu_test_pair test_multi_gpu test_cuda_engine test_gpu_cli
  pack
}
# `machine_and_tests`: the GPUs with their driver and clocks and the link matrix into
# OUT_DIR/machine.txt, then every gpu test binary of the build as tests_<binary>; pack.
machine_and_tests() {
  {
    nvidia-smi --query-gpu=index,name,memory.total,driver_version,clocks.max.sm --format=csv
    nvidia-smi topo -m
  } > "$out/machine.txt" 2>&1
  local t
  for t in "$b"/tests/gpu/test_*; do run "tests_$(basename "$t")" 200 "$t" --gtest_color=no --gtest_brief=1; done
  pack
}
# `box_deck NAME NX NY NZ [STEPS [nosource]]`: OUT_DIR/NAME.toml, the bench box's model on NX x NY x
# NZ cells (default 400 steps; "nosource": without its dipole), no output files: every position
# scaled with the box (the cell sizes stay 1 mm). quarter_deck is one of them.
box_deck() {
  python3 - "$out/$1.toml" "$2" "$3" "$4" "${5:-400}" "${6:-}" <<'PY'
import re, sys
path, n, steps, nosource = sys.argv[1], [int(x) for x in sys.argv[2:5]], sys.argv[5], sys.argv[6]
s = open("inputs/bench_box.toml").read()
s = s.replace("cells = [512, 512, 512]", f"cells = [{n[0]}, {n[1]}, {n[2]}]").replace("steps = 100 ", f"steps = {steps} ")
def scale(m):
    v = [float(x) for x in m.group(2).split(",")]
    return m.group(1) + "[" + ", ".join(f"{x / 0.512 * n[i] * 1e-3:.6g}" for i, x in enumerate(v)) + "]"
s = re.sub(r"^((?:lower|upper|position) = )\[([^\]]*)\]", scale, s, flags=re.M)
if nosource == "nosource":
    s = s[: s.index("[[source]]")] + s[s.index("[output]"):]
open(path, "w").write(s)
PY
}
# `box_run NAME DECK [VAR=VALUE...] -- ARGS...`: yeex run of OUT_DIR/DECK.toml under the
# environment, as NAME (its summary's stepping line is the rate).
box_run() {
  local name=$1 deck=$2 envs=()
  shift 2
  while (($#)) && [[ $1 != -- ]]; do envs+=("$1"); shift; done
  shift
  run "$name" 120 env "${envs[@]}" "$b/yeex" run "$out/$deck.toml" --engine cuda --output "$out/o_$name" "$@"
  rm -rf "$out/o_$name"
}
# --- twentieth session ---
# `check_and_strong128`: the GPUs into OUT_DIR/machine.txt, scripts/gpu-check.sh, then strong 128^3
# on 1, 2, 4 GPUs for every backend (400 steps x 9, b2r at R = 2), twice (strong_128_REP); pack.
check_and_strong128() {
  nvidia-smi -L > "$out/machine.txt"
  run gpu_check 300 scripts/gpu-check.sh "$b" "$out/gpu-check"; pack
  local rep long=("$b/yeex" bench --engine cuda --steps 400 --warmup 50 --repeats 9 --scaling strong)
  for rep in 1 2; do
    run "strong_128_$rep" 100 "${long[@]}" --size 128 --counts 1,2,4 --exchanges $all --halo-depth 2 --json "$out/strong_128_$rep.json"; pack
  done
}
# `coop_start`: the GPUs into OUT_DIR/machine.txt, test_multi_gpu's coop cases (coop_tests sweep,
# FILTER *oop*), and `long`: the arguments of strong 128^3 on 1 and 4 GPUs under coop (400 x 9).
coop_start() {
  nvidia-smi -L > "$out/machine.txt"
  FILTER='*oop*' coop_tests sweep; pack
  long=(bench --engine cuda --steps 400 --warmup 50 --repeats 9 --scaling strong --size 128 --counts 1,4 --exchanges coop)
}
# `slab_weak EXCHANGES`: OUT_DIR/slab160.toml (the bench box on 640 x 640 x 160, 2000 steps: one
# GPU's slab of 640^3 over 4) and `weak`: the arguments of weak scaling on it, on 1, 2 and 4 GPUs,
# for EXCHANGES (the 4-GPU row is 640^3, the slabs stacked along z).
slab_weak() {
  box_deck slab160 640 640 160 2000
  weak=(--deck "$out/slab160.toml" --scaling weak --counts 1,2,4 --exchanges "$1")
}
# `slab_start EXCHANGES`: the GPUs into OUT_DIR/machine.txt, then slab_weak EXCHANGES.
slab_start() {
  nvidia-smi -L > "$out/machine.txt"
  slab_weak "$1"
}
# --- twenty-first session ---
# `pushing_start`: slab_start graph, test_multi_gpu's graph and thin-slab cases (coop_tests graph,
# FILTER *raph*:*Thin*), and $b/yeex-split: graph with the border split (YEEX_PUSHING_SWEEPS=0).
pushing_start() {
  slab_start graph
  FILTER='*raph*:*Thin*' coop_tests graph; pack
  env_bin yeex-split YEEX_PUSHING_SWEEPS=0
}
# `pushing_report`: closes the summary, then prints it, the tests' verdicts and every strong and
# weak row of OUT_DIR/strong*.txt and weak*.txt (file, scaling, grid, backend, N, ms a step,
# Gcells/s, efficiency, own).
pushing_report() {
  echo "done ($((SECONDS - t0)) s)" >> "$out/summary.txt"; pack
  cat "$out/summary.txt"
  grep -h "PASSED\|FAILED\|Failure" "$out"/coop_tests_*.txt | head
  grep -H "strong \|weak " "$out"/strong*.txt "$out"/weak*.txt | grep -v "#" | sed "s|$out/||" | awk '{print $1, $3, $4, $5, $6, $7, $12, $13}'
}
# --- twenty-second session ---
# `machine_info`: the GPUs (name, memory, driver, clock) and their links into OUT_DIR/machine.txt.
machine_info() {
  {
    nvidia-smi --query-gpu=index,name,memory.total,driver_version,clocks.max.sm --format=csv
    nvidia-smi topo -m
  } > "$out/machine.txt" 2>&1
}
# `tall_deck`: OUT_DIR/tall.toml, inputs/bench_box.toml on 256 x 256 x 4096 cells (268,435,456:
# the reference codes' 16384^2), the box's size kept.
tall_deck() {
  sed -e 's/^cells = \[512, 512, 512\]/cells = [256, 256, 4096]/' \
    -e 's/^cell_size = \[1e-3, 1e-3, 1e-3\]/cell_size = [2e-3, 2e-3, 1.25e-4]/' inputs/bench_box.toml > "$out/tall.toml"
}
# `issue3_table`: issue 3's efficiency table, every backend, T1 (the engine on one GPU) and each
# backend's own one-GPU run in the same invocation: weak 512^3 a GPU on 1, 2, 4; strong 512^3,
# 256^3 and 128^3 (the small ones 400 steps x 9) on 1, 2, 4; b2r R = 3, 4 at 128^3; with
# TABLE_LARGE=1 strong 640^3 and 256 x 256 x 4096 (tall_deck) on 1 and 4; peer access off (weak
# and strong 512^3); the GPU pairs 0,1 and 0,3 at 256^3. Each as NAME.txt, NAME.json and NAME.md; pack.
# In two parts for two calls of the device: issue3_core (up to b2r's R = 3, 4), issue3_rest.
issue3_table() {
  issue3_core
  issue3_rest
}
long=("$b/yeex" bench --engine cuda --steps 400 --warmup 50 --repeats 9 --scaling strong)
issue3_core() {
  local R
  run weak_512 150 "${bench[@]}" --scaling weak --size 512 --counts 1,2,4 --exchanges $all --halo-depth 2 --json "$out/weak_512.json" --markdown "$out/weak_512.md"; pack
  run strong_512 100 "${bench[@]}" --scaling strong --size 512 --counts 1,2,4 --exchanges $all --halo-depth 2 --json "$out/strong_512.json" --markdown "$out/strong_512.md"; pack
  run strong_256 100 "${long[@]}" --size 256 --counts 1,2,4 --exchanges $all --halo-depth 2 --json "$out/strong_256.json" --markdown "$out/strong_256.md"; pack
  run strong_128 100 "${long[@]}" --size 128 --counts 1,2,4 --exchanges $all --halo-depth 2 --json "$out/strong_128.json" --markdown "$out/strong_128.md"; pack
  for R in 3 4; do run "strong_128_b2r_R$R" 60 "${long[@]}" --size 128 --counts 4 --exchanges b2r --halo-depth $R --json "$out/strong_128_b2r_R$R.json" --markdown "$out/strong_128_b2r_R$R.md"; done
  pack
}
issue3_rest() {
  local pair
  if [[ ${TABLE_LARGE:-0} == 1 ]]; then
    run strong_640 150 "${bench[@]}" --scaling strong --size 640 --counts 1,4 --exchanges $all --halo-depth 2 --json "$out/strong_640.json" --markdown "$out/strong_640.md"; pack
    tall_deck
    run strong_tall 200 "${bench[@]}" --deck "$out/tall.toml" --scaling strong --counts 1,4 --exchanges $all --halo-depth 2 --json "$out/strong_tall.json" --markdown "$out/strong_tall.md"; pack
  fi
  run nopeer_weak_512 100 "${bench[@]}" --no-peer --scaling weak --size 512 --counts 1,2,4 --exchanges host-staged,p2p,b2r --halo-depth 2 --json "$out/nopeer_weak_512.json" --markdown "$out/nopeer_weak_512.md"
  run nopeer_strong_512 100 "${bench[@]}" --no-peer --scaling strong --size 512 --counts 1,2,4 --exchanges host-staged,p2p,b2r --halo-depth 2 --json "$out/nopeer_strong_512.json" --markdown "$out/nopeer_strong_512.md"; pack
  for pair in 0,1 0,3; do
    run "gpus_${pair/,/_}_strong_256" 60 "${long[@]}" --devices "$pair" --size 256 --counts 1,2 --exchanges $all --halo-depth 2 --json "$out/gpus_${pair/,/_}_strong_256.json" --markdown "$out/gpus_${pair/,/_}_strong_256.md"
  done
  echo "done ($((SECONDS - t0)) s)" >> "$out/summary.txt"; pack
}
# --- twenty-third session ---
# coop_one_512: the arguments (after the binary) of coop on one GPU at 512^3, 60 steps x 5 after 10.
coop_one_512=(bench --engine cuda --gpus 1 --counts 1 --warmup 10 --steps 60 --repeats 5 --exchanges coop --size 512)
# `knob_versus NAME VAR REPS VALUE...`: coop on one GPU at 512^3 (coop_one_512), REPS times in turn:
# $b/yeex-base as one_base_REP, then $b/yeex under VAR=VALUE for each VALUE as one_NAMEVALUE_REP
# (an experiment's knob against the committed build).
knob_versus() {
  local name=$1 var=$2 reps=$3 rep v
  shift 3
  for ((rep = 1; rep <= reps; ++rep)); do
    run "one_base_$rep" 60 "$b/yeex-base" "${coop_one_512[@]}"
    for v in "$@"; do run "one_$name${v}_$rep" 60 env "$var=$v" "$b/yeex" "${coop_one_512[@]}"; done
  done
}
# `weak_versus NAME VAR VALUE...`: coop's weak 512^3 a GPU on 1 and all GPUs, $b/yeex-base as
# weak_base, then $b/yeex under VAR=VALUE as weak_NAMEVALUE; then the end of the session script:
# "done" in the summary, pack, and the summary printed.
weak_versus() {
  local name=$1 var=$2 v
  shift 2
  local weak=(bench --engine cuda --warmup 10 --steps 60 --repeats 5 --exchanges coop --scaling weak --size 512
    --counts 1,"$(nvidia-smi -L | wc -l)")
  run weak_base 90 "$b/yeex-base" "${weak[@]}"
  for v in "$@"; do run "weak_$name$v" 90 env "$var=$v" "$b/yeex" "${weak[@]}"; done
  echo "done ($((SECONDS - t0)) s)" >> "$out/summary.txt"; pack
  cat "$out/summary.txt"
}
# `all_gpus BIN`: sets x, $b/BIN's bench on 1 GPU and on all of them, 50 steps x 5 after 10.
all_gpus() { x=("$b/$1" bench --engine cuda --steps 50 --warmup 10 --repeats 5 --counts 1,"$(nvidia-smi -L | wc -l)"); }
# --- twenty-fifth session ---
# `tested_start`: machine_info, every gpu test (gpu_tests), pack: how most session scripts begin.
tested_start() {
  machine_info
  gpu_tests
  pack
}
# `check_costs`: the NaN/Inf health check's cost, `yeex run` of inputs/bench_box.toml (512^3) on
# one GPU for 400 steps with a check after every step (cost_1) and by chunks (cost_0); each
# run.json kept as cost_N.json.
check_costs() {
  local every check
  for every in 1 0; do
    check=()
    ((every)) && check=(--check-every "$every")
    run "cost_$every" 120 "$b/yeex" run inputs/bench_box.toml --engine cuda --gpus 1 --steps 400 "${check[@]}" --output "$out/c$every"
    cp "$out/c$every/run.json" "$out/cost_$every.json"
    rm -rf "$out/c$every"
  done
}
# `print_costs`: check_costs' timings, one line a run.
print_costs() {
  local every
  for every in 1 0; do
    python3 -c "import json,sys; t=json.load(open(sys.argv[1]))['timings_s']; print(sys.argv[1].split('/')[-1], {k: v for k, v in t.items() if k != 'definitions'})" "$out/cost_$every.json"
  done
}
# --- twenty-sixth session ---
# coop_weak4: the arguments (after the binary) of coop's weak 512^3 a GPU on 1 and 4 GPUs, 60 steps
# x 5 after 10.
coop_weak4=(bench --engine cuda --warmup 10 --steps 60 --repeats 5 --exchanges coop --scaling weak --size 512 --counts 1,4)
# `coop_tests`: the build's coop gpu tests (test_multi_gpu's *Coop*), as coop_tests.
coop_tests() { run coop_tests 120 "$b/tests/gpu/test_multi_gpu" --gtest_color=no --gtest_brief=1 --gtest_filter='*Coop*'; }
# `forms_one_512 REPS BIN...`: coop on one GPU at 512^3 (coop_one_512), each form's trial time
# logged (YEEX_COOP_TUNE_LOG=1), with $b/BIN for each BIN in turn, REPS times, as one_BIN_REP; pack.
forms_one_512() {
  local reps=$1 rep bin
  shift
  for ((rep = 1; rep <= reps; ++rep)); do
    for bin in "$@"; do run "one_${bin}_$rep" 60 env YEEX_COOP_TUNE_LOG=1 "$b/$bin" "${coop_one_512[@]}"; done
  done
  pack
}
# `one_512_cases BAND CASE...`: coop on one GPU at 512^3 (coop_one_512) under YEEX_COOP_BAND=BAND
# ("" for coop's own bands), each CASE as CASE_BAND: cpml32 (10-cell CPML), cpml64 (CPML in
# double), pec64 (double).
one_512_cases() {
  local band=$1 name
  shift
  for name in "$@"; do
    local extra=()
    case $name in
      cpml32) extra=(--cpml 10) ;;
      cpml64) extra=(--cpml 10 --precision f64) ;;
      pec64) extra=(--precision f64) ;;
    esac
    run "${name}_$band" 60 env ${band:+YEEX_COOP_BAND=$band} "$b/yeex" "${coop_one_512[@]}" "${extra[@]}"
  done
}
# `finish`: the end of a session script: "done" in the summary, pack; then the tests' verdicts,
# each other run's bench rows and coop's trial times, and the summary.
finish() {
  local f
  echo "done ($((SECONDS - t0)) s)" >> "$out/summary.txt"; pack
  grep -hE "^\[  (PASSED|FAILED)" "$out"/*.txt
  for f in "$out"/*.txt; do
    case ${f##*/} in summary.txt | machine.txt | *tests*.txt | multi_gpu.txt) continue ;; esac
    echo "== ${f##*/}"
    grep -E "^(weak|strong) |subdomain 0" "$f" | cut -c1-140
  done
  cat "$out/summary.txt"
}
# --- twenty-seventh session ---
# `alone_and_together NAME ARGS...`: yeex bench ARGS on GPU 0 alone (NAME_alone), then on each GPU
# at once, one process each (NAME_gpuI), with nvidia-smi's clocks and power every 100 ms (NAME_smi).
alone_and_together() {
  local name=$1 i pids=()
  shift
  run "${name}_alone" 90 env CUDA_VISIBLE_DEVICES=0 "$b/yeex" "$@"
  nvidia-smi --query-gpu=index,clocks.sm,clocks.mem,power.draw,temperature.gpu --format=csv -lms 100 > "$out/${name}_smi.txt" &
  local smi=$!
  for i in 0 1 2 3; do
    (CUDA_VISIBLE_DEVICES=$i timeout 90 "$b/yeex" "$@" > "$out/${name}_gpu$i.txt" 2>&1) &
    pids+=($!)
  done
  wait "${pids[@]}"
  kill "$smi"
  echo "${name} together ($((SECONDS - t0)) s)" >> "$out/summary.txt"
  pack
}
# `tall_planes NZ [NAME]`: OUT_DIR/NAME.toml (default tallNZ), tall_deck's model on 256 x 256 x NZ
# cells, its extent kept (0.512 m / NZ a cell along z; tall_deck first).
tall_planes() {
  [[ -f $out/tall.toml ]] || tall_deck
  sed -e "s/^cells = \[256, 256, 4096\]/cells = [256, 256, $1]/" \
    -e "s/^cell_size = \[2e-3, 2e-3, 1.25e-4\]/cell_size = [2e-3, 2e-3, $(python3 -c "print(0.512 / $1)")]/" \
    "$out/tall.toml" > "$out/${2:-tall$1}.toml"
}
# `engine_deck NAME DECK STEPS [VAR=VALUE ...]`: the engine on one GPU (and overlap's one-GPU row) on
# OUT_DIR/DECK.toml, STEPS steps x 5 after 10, under the environment, as NAME.
engine_deck() {
  local name=$1 deck=$2 steps=$3
  shift 3
  run "$name" 90 env "$@" "$b/yeex" bench --engine cuda --gpus 1 --counts 1 --warmup 10 --repeats 5 --steps "$steps" \
    --deck "$out/$deck.toml" --exchanges overlap
}
# `coop_tested_start`: machine_info, coop_tests, pack.
coop_tested_start() {
  machine_info
  coop_tests
  pack
}
# `quarter_decks`: a GPU's quarter of the two 268 M-cell decks, OUT_DIR/tallq.toml (256 x 256 x
# 1024, tall_planes) and OUT_DIR/slab160.toml (640 x 640 x 160, box_deck, 2000 steps).
quarter_decks() {
  tall_planes 1024 tallq
  box_deck slab160 640 640 160 2000
}
# `env_case LABEL "VAR=VALUE ..." DECK...`: engine_deck on each OUT_DIR/DECK.toml, 50 steps x 5,
# under the environment (a space-separated list, "" for none), as DECK_LABEL.
env_case() {
  local label=$1 vars=$2 deck
  shift 2
  # shellcheck disable=SC2086 # VARS splits into its VAR=VALUE words
  for deck in "$@"; do engine_deck "${deck}_$label" "$deck" 50 $vars; done
}
# `rounding_case MIB DECK...`: env_case under YEEX_ARRAY_ROUNDING_MIB=MIB, as DECK_rMIB.
rounding_case() {
  local mib=$1
  shift
  env_case "r$mib" "YEEX_ARRAY_ROUNDING_MIB=$mib" "$@"
}
# --- twenty-eighth session ---
# `placement_start`: machine_info, quarter_decks, and the whole grids OUT_DIR/box512.toml (512^3,
# 400 steps) and OUT_DIR/cube640.toml (640^3, 2000 steps) by box_deck.
placement_start() {
  machine_info
  quarter_decks
  box_deck box512 512 512 512 400
  box_deck cube640 640 640 640 2000
}
# --- twenty-ninth session ---
# `drop_source DECK NEW`: OUT_DIR/NEW.toml, OUT_DIR/DECK.toml without its [[source]] tables (what a
# step costs the GPU that holds the source).
drop_source() {
  python3 - "$out/$1.toml" "$out/$2.toml" <<'PY'
import re, sys
s = open(sys.argv[1]).read()
open(sys.argv[2], "w").write(re.sub(r"\[\[source\]\]\n(?:(?!\[).*\n)*", "", s))
PY
}
# `source_pairs REPS EXCHANGES DECK...`: strong scaling on 1 and all GPUs of each OUT_DIR/DECK.toml
# and of the same without its source (drop_source, DECK_ns), in turn, REPS times, as DECK_REP and
# DECK_ns_REP; pack after each pair.
source_pairs() {
  local reps=$1 exchanges=$2 rep deck d
  shift 2
  for deck in "$@"; do drop_source "$deck" "${deck}_ns"; done
  for ((rep = 1; rep <= reps; ++rep)); do
    for deck in "$@"; do
      for d in "$deck" "${deck}_ns"; do
        run "${d}_$rep" 150 "${bench[@]}" --deck "$out/$d.toml" --scaling strong --counts 1,"$(nvidia-smi -L | wc -l)" \
          --exchanges "$exchanges"
      done
      pack
    done
  done
}
# `bins_rows REPS "BIN..." NAME ARGS...`: `$b/BIN bench --engine cuda ARGS` (with --steps 50
# --warmup 10 --repeats 5 unless ARGS give --steps) with each BIN in turn, REPS times, as
# NAME_BIN_REP; pack after each round.
bins_rows() {
  local reps=$1 bins=$2 name=$3 rep bin counts=(--steps 50 --warmup 10 --repeats 5)
  shift 3
  [[ " $* " == *" --steps "* ]] && counts=()
  for ((rep = 1; rep <= reps; ++rep)); do
    for bin in $bins; do
      run "${name}_${bin}_$rep" 150 "$b/$bin" bench --engine cuda "${counts[@]}" "$@"
    done
    pack
  done
}
# `engine_tests_start`: machine_info, then test_cuda_engine and test_multi_gpu (gpu_test_pair); pack.
engine_tests_start() {
  machine_info
  gpu_test_pair test_cuda_engine test_multi_gpu
  pack
}
# `checked_start`: machine_info, then scripts/gpu-check.sh into OUT_DIR/gpu-check; pack.
checked_start() {
  machine_info
  run gpu_check 300 scripts/gpu-check.sh "$b" "$out/gpu-check"
  pack
}
