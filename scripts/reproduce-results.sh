#!/usr/bin/env bash
# Regenerates results/MACHINE/, the curated measurements of one machine kind (docs/benchmarking.md
# says what each number means, docs/performance.md shows them).
#
#   scripts/reproduce-results.sh [options] MACHINE
#
# MACHINE names the folder (h200, h200x2, h200x4, or any name of letters, digits, '.', '_', '-').
# Needs NVIDIA GPUs and a build of the `cuda` preset (yeex and yeex-p2p). Over N GPUs (default:
# every visible one), float32, every backend, each row checked with --verify:
#   p2p/             yeex-p2p topo and the whole yeex-p2p suite (JSON, text, plots)
#   weak_512         weak scaling, 512^3 per GPU, on 1, 2, 4, ..., N GPUs (50 steps x 5)
#   strong_512       strong scaling, 512^3 (50 steps x 5)
#   strong_256       strong scaling, 256^3 (400 steps x 9: short steps need longer repeats)
#   strong_128       strong scaling, 128^3 (400 steps x 9)
#   strong_128_b2r_R3, _R4   b2r at halo depth 3 and 4, 128^3 on N GPUs (N >= 2)
#   one_gpu_f64_512  every backend on one GPU, 512^3 in float64
#   dispersive/      inputs/bench_dispersive.toml (a two-pole Debye layer over a tenth of the box)
#                    against inputs/bench_box.toml, one GPU, float32 and float64
# each as NAME.json and NAME.md (written by yeex bench) and NAME.txt (its table on stdout), the
# efficiency plots (scripts/plot_bench.py; skipped where matplotlib is missing), machine.txt and
# README.md (build, machine, the commands, the files). Everything is written into a temporary
# folder, results/.MACHINE.tmp, and moved into place at the end: a failed run leaves the old set
# (and the temporary folder, for a look). About 4 minutes on 4 x H200.
#
# Options:
#   --build DIR   the build folder (default build/cuda)
#   --gpus N      use the first N visible GPUs (default: all)
#   --large       also the 268 M-cell rows into large/: strong 640^3 and 256 x 256 x 4096, on 1 and
#                 N GPUs (+2 min)
#   --gpu-check   also scripts/gpu-check.sh on the same build, into gpu-check/ (+4 min)
#   --dry-run     print the commands, run nothing (no GPU needed; N from --gpus, else from a
#                 MACHINE name ending in xN, else 1)
#   -h, --help    this text
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
cd "$root"

usage() { sed -n '2,/^set -euo/p' "$0" | sed '$d' | sed 's/^# \{0,1\}//'; }
die() { printf 'reproduce-results: %s\n' "$*" >&2; exit 2; }

build=build/cuda gpus="" large=0 gpu_check=0 dry=0 machine=""
while (($#)); do
  case $1 in
    --build) (($# > 1)) || die "--build needs a folder"; build=$2; shift 2 ;;
    --gpus) (($# > 1)) || die "--gpus needs a number"; gpus=$2; shift 2 ;;
    --large) large=1; shift ;;
    --gpu-check) gpu_check=1; shift ;;
    --dry-run) dry=1; shift ;;
    -h | --help) usage; exit 0 ;;
    -*) die "unknown option '$1' (see --help)" ;;
    *) [[ -z $machine ]] || die "one MACHINE only (got '$machine' and '$1')"; machine=$1; shift ;;
  esac
done
[[ -n $machine ]] || die "name the machine, e.g. scripts/reproduce-results.sh h200x4 (see --help)"
[[ $machine =~ ^[A-Za-z0-9][A-Za-z0-9._-]*$ ]] || die "MACHINE '$machine': letters, digits, '.', '_' and '-' only"
[[ -z $gpus || $gpus =~ ^[1-9][0-9]*$ ]] || die "--gpus '$gpus': a whole number of at least 1"

# N: the GPUs to use.
if [[ -z $gpus ]]; then
  if visible=$(nvidia-smi -L 2>/dev/null | grep -c '^GPU'); then
    gpus=$visible
    if [[ -n ${CUDA_VISIBLE_DEVICES:-} ]]; then
      IFS=, read -ra listed <<< "$CUDA_VISIBLE_DEVICES"
      ((${#listed[@]} < gpus)) && gpus=${#listed[@]}
    fi
  elif ((dry)); then
    gpus=1
    [[ $machine =~ x([1-9][0-9]*)$ ]] && gpus=${BASH_REMATCH[1]}
  else
    die "no GPU visible (nvidia-smi lists none): run this on a machine with NVIDIA GPUs, or use --dry-run"
  fi
fi
((gpus >= 1)) || die "no GPU visible"
# Device counts as yeex bench chooses them by default: 1, the powers of 2, and N.
counts=1
for ((n = 2; n < gpus; n *= 2)); do counts+=",$n"; done
((gpus > 1)) && counts+=",$gpus"

bin=$(cd "$build" 2>/dev/null && pwd) || { ((dry)) && bin=$root/$build; } || die "no build folder $build"
if ((!dry)); then
  for b in yeex yeex-p2p; do
    [[ -x $bin/$b ]] || die "no $build/$b: build the cuda preset first (cmake --preset cuda && cmake --build build/cuda)"
  done
fi
# The binaries by name, so that the commands recorded in the JSON read as a user types them.
export PATH=$bin:$PATH
export NCCL_NVLS_ENABLE=0  # no NVLink multicast: the halos are point to point
plots=0
((!dry)) && python3 -c 'import matplotlib' 2>/dev/null && plots=1

final=results/$machine
tmp=results/.$machine.tmp
commands=()  # every command, as run in $tmp
t0=$SECONDS

# run NAME COMMAND...: runs COMMAND in $tmp, its stdout and stderr also into NAME.txt (NAME "-":
# no file); prints the command and how long it took; a failure stops the script.
run() {
  local name=$1 start=$SECONDS rc
  shift
  local line="" word
  for word in "$@"; do
    [[ $word =~ ^[A-Za-z0-9_./,:=@%+-]+$ ]] || word=$(printf '%q' "$word")
    line+="${line:+ }$word"
  done
  [[ $name == - ]] || line+=" > $name.txt"
  commands+=("$line")
  printf '+ %s\n' "$line"
  ((dry)) && return 0
  if [[ $name == - ]]; then
    (cd "$tmp" && "$@") || rc=$?
  else
    (cd "$tmp" && "$@" 2>&1 | tee "$name.txt"; exit "${PIPESTATUS[0]}") || rc=$?
  fi
  if ((${rc:-0})); then
    printf 'reproduce-results: exit %d from: %s\nthe old set in %s is unchanged; this run is in %s\n' "$rc" "$line" "$final" "$tmp" >&2
    exit 1
  fi
  printf '  (%d s)\n' $((SECONDS - start))
}

if ((!dry)); then
  rm -rf "$tmp"
  mkdir -p "$tmp/p2p" "$tmp/large" "$tmp/dispersive"
  {
    nvidia-smi --query-gpu=index,name,memory.total,driver_version,clocks.max.sm --format=csv
    echo
    nvidia-smi topo -m | sed 's/\x1b\[[0-9;]*m//g'
  } > "$tmp/machine.txt"
fi
echo "# results/$machine: $gpus GPU(s), counts $counts, build $build"

bench=(yeex bench --engine cuda --gpus "$gpus" --precision f32 --verify)
short=(--steps 50 --warmup 10 --repeats 5)
long=(--steps 400 --warmup 50 --repeats 9)
out() { echo --json "$1.json" --markdown "$1.md"; }

((gpu_check)) && run - ../../scripts/gpu-check.sh --build "$bin" --out gpu-check

run p2p/topo yeex-p2p topo --json p2p/topo.json
run p2p/p2p yeex-p2p --size 64M --sweep 4:256M --repeats 7 --json p2p/p2p.json
# The sweep predicts each row's exchange time (bench's pred column).
predict=()
((gpus > 1)) && predict=(--p2p-json p2p/p2p.json)

# shellcheck disable=SC2046 # out's words are the options and their files
{
  run weak_512 "${bench[@]}" "${short[@]}" --scaling weak --size 512 --counts "$counts" --halo-depth 2 "${predict[@]}" $(out weak_512)
  run strong_512 "${bench[@]}" "${short[@]}" --scaling strong --size 512 --counts "$counts" --halo-depth 2 "${predict[@]}" $(out strong_512)
  run strong_256 "${bench[@]}" "${long[@]}" --scaling strong --size 256 --counts "$counts" --halo-depth 2 "${predict[@]}" $(out strong_256)
  run strong_128 "${bench[@]}" "${long[@]}" --scaling strong --size 128 --counts "$counts" --halo-depth 2 "${predict[@]}" $(out strong_128)
  if ((gpus > 1)); then
    for depth in 3 4; do
      run "strong_128_b2r_R$depth" "${bench[@]}" "${long[@]}" --scaling strong --size 128 --counts "$gpus" \
        --exchanges b2r --halo-depth "$depth" $(out "strong_128_b2r_R$depth")
    done
  fi
  run one_gpu_f64_512 yeex bench --engine cuda --gpus 1 --precision f64 --verify "${short[@]}" --size 512 --counts 1 \
    $(out one_gpu_f64_512)
  # What a dispersive region costs: the benchmark box with a two-pole Debye layer over a tenth of
  # it against the plain box, one GPU, float32 and float64.
  for precision in f32 f64; do
    for deck in bench_box bench_dispersive; do
      run "dispersive/${deck}_$precision" yeex bench --engine cuda --gpus 1 --precision "$precision" --verify \
        "${short[@]}" --deck "../../inputs/$deck.toml" --counts 1 $(out "dispersive/${deck}_$precision")
    done
  done
  if ((large)); then
    # The reference codes' 268 M cells (16384^2) as a 3-D box: inputs/bench_box.toml on 256 x 256 x
    # 4096 cells, its size kept.
    ((dry)) || sed -e 's/^cells = \[512, 512, 512\]/cells = [256, 256, 4096]/' \
      -e 's/^cell_size = \[1e-3, 1e-3, 1e-3\]/cell_size = [2e-3, 2e-3, 1.25e-4]/' inputs/bench_box.toml > "$tmp/large/tall.toml"
    ((dry)) || grep -q '^cells = \[256, 256, 4096\]' "$tmp/large/tall.toml" || die "inputs/bench_box.toml: no 'cells = [512, 512, 512]' line to change"
    commands+=("(large/tall.toml: inputs/bench_box.toml with cells = [256, 256, 4096], cell_size = [2e-3, 2e-3, 1.25e-4])")
    run large/strong_640 "${bench[@]}" "${short[@]}" --scaling strong --size 640 --counts "1,$gpus" --halo-depth 2 "${predict[@]}" $(out large/strong_640)
    run large/strong_tall "${bench[@]}" "${short[@]}" --scaling strong --deck large/tall.toml --counts "1,$gpus" --halo-depth 2 "${predict[@]}" $(out large/strong_tall)
  fi
}

# Plots: the efficiency curves of each scaling run, the P2P heat maps and sweeps.
if ((plots || dry)); then
  for name in weak_512 strong_512 strong_256 strong_128; do
    run - python3 ../../scripts/plot_bench.py "$name.json" --out .
  done
  if ((large)); then
    for name in strong_640 strong_tall; do run - python3 ../../scripts/plot_bench.py "large/$name.json" --out large; done
  fi
  run - python3 ../../scripts/plot_p2p.py p2p/p2p.json --out p2p/plots
else
  echo "# no plots: python3 cannot import matplotlib here; draw them later with scripts/plot_bench.py and scripts/plot_p2p.py"
fi

seconds=$((SECONDS - t0))
if ((dry)); then
  echo "# dry run: nothing was run; results/$machine is unchanged"
  exit 0
fi

((large)) || rmdir "$tmp/large"
# README.md: the build, the machine, the commands, the files, the N-GPU table.
{
  echo "# Measurements on $machine"
  echo
  echo "Made by \`scripts/reproduce-results.sh $machine\` on $(date -u +%Y-%m-%d) in $seconds s."
  echo
  echo "- build: \`$(yeex --version)\`, \`$(yeex-p2p --version)\` (checkout $(git describe --always --dirty 2>/dev/null || echo unknown))"
  echo "- GPUs: $gpus of $(nvidia-smi --query-gpu=name --format=csv,noheader | sort | uniq -c | sed 's/^ *//' | paste -sd ';' -), driver $(nvidia-smi --query-gpu=driver_version --format=csv,noheader | head -1); links in \`machine.txt\`"
  echo "- device counts: $counts; float32 unless named; every row checked with \`--verify\` (the \`bits\` column)"
  echo
  echo "## Files"
  echo
  echo "| file | what |"
  echo "|---|---|"
  echo "| \`NAME.json\` | \`yeex bench --json\`: every row, its definitions, the provenance (format \`yeex-bench-2\`) |"
  echo "| \`NAME.md\` | \`yeex bench --markdown\`: one table per scaling and size, a column per GPU count |"
  echo "| \`NAME.txt\` | the table \`yeex bench\` printed (exchange, wait and pred columns) |"
  echo "| \`efficiency_SCALING_SIZE.png\` | \`scripts/plot_bench.py NAME.json\`: efficiency and Gcells/s against GPU count |"
  echo "| \`p2p/p2p.json\`, \`p2p/p2p.txt\` | the \`yeex-p2p\` suite: bandwidth and latency of every GPU pair, the size sweep, NCCL |"
  echo "| \`p2p/topo.json\`, \`p2p/topo.txt\` | \`yeex-p2p topo\`: PCI, NUMA, link types, peer attributes |"
  echo "| \`p2p/plots/*.png\` | \`scripts/plot_p2p.py p2p/p2p.json\` |"
  echo "| \`machine.txt\` | \`nvidia-smi\`: the GPUs and \`topo -m\` |"
  echo "| \`dispersive/\` | one GPU: \`inputs/bench_dispersive.toml\` (a two-pole Debye layer over a tenth of the box) against \`inputs/bench_box.toml\`, f32 and f64 |"
  ((gpu_check)) && echo "| \`gpu-check/\` | \`scripts/gpu-check.sh\` on this build: the gpu tests' log and its bench |"
  ((large)) && echo "| \`large/\` | strong 640³ and 256 × 256 × 4096 (\`tall.toml\`) on 1 and $gpus GPUs, with their plots |"
  echo
  echo "## Commands (run in this folder)"
  echo
  echo '```sh'
  echo "export NCCL_NVLS_ENABLE=0"
  printf '%s\n' "${commands[@]}"
  echo '```'
  echo
  echo "## $gpus GPUs against one"
  echo
  # The N-GPU row of every backend: efficiency against the engine's T1 (own T1 in brackets).
  python3 - "$gpus" "$tmp" <<'PY' || echo "(python3 could not read the JSON: see the .md files)"
import json, pathlib, sys
n, folder = int(sys.argv[1]), pathlib.Path(sys.argv[2])
runs = [("weak_512", "weak 512³/GPU"), ("strong_512", "strong 512³"), ("strong_256", "strong 256³"),
        ("strong_128", "strong 128³"), ("strong_640", "strong 640³"), ("strong_tall", "strong 256×256×4096")]
runs = [(f, t) for f, t in runs if (folder / f"{f}.json").exists() or (folder / "large" / f"{f}.json").exists()]
table = {}
for f, _ in runs:
    path = folder / f"{f}.json" if (folder / f"{f}.json").exists() else folder / "large" / f"{f}.json"
    for r in json.load(open(path))["rows"]:
        if r["exchange"] != "-" and r["devices"] == n and not r["skipped"]:
            own, eff = r["efficiency_own"], f"{100 * r['efficiency']:.1f}"
            cell = f"{eff} %" + (f" ({100 * own:.1f})" if own and f"{100 * own:.1f}" != eff else "")
            if f == "strong_128":
                cell += f", {1e6 * r['seconds_per_step_median']:.1f} µs"
            backend = r["exchange"] + (f", R = {r['halo_depth']}" if r["halo_depth"] > 1 else "")
            table.setdefault(backend, {})[f] = cell
print("| backend | " + " | ".join(t for _, t in runs) + " |")
print("|---" * (len(runs) + 1) + "|")
for exchange, cells in table.items():
    print(f"| {exchange} | " + " | ".join(cells.get(f, "") for f, _ in runs) + " |")
print("\nEfficiency against T1, the engine alone on one GPU in the same invocation (strong T1/(N·TN), weak T1/TN);"
      " in brackets against the backend's own one-GPU row where that differs. docs/benchmarking.md defines each.")
PY
} > "$tmp/README.md"

rm -rf "$final.old"
[[ -d $final ]] && mv "$final" "$final.old"
mv "$tmp" "$final"
rm -rf "$final.old"
echo "# results/$machine written in $seconds s"
