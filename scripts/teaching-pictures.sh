#!/usr/bin/env bash
# The timeline pictures of docs/teaching.md, regenerated.
#
#   scripts/teaching-pictures.sh [YEEX]          # default YEEX: build/cuda/yeex
#   scripts/teaching-pictures.sh --host [YEEX]   # the host-engine pictures only (default build/host/yeex)
#
# GPU pictures (2 GPUs): for every backend of the ladder (host-staged, p2p, overlap, nccl, b2r,
# graph, coop) at 128^3 and 512^3 cells, `yeex run --trace` of the benchmark box (inputs/bench_box.toml,
# stretched onto the grid) on GPUs 0 and 1, steps 10-13, drawn by scripts/plot_timeline.py into
# docs/img/gpu_<backend>_<cells>.png; p2p against overlap on one time scale into
# docs/img/gpu_p2p_vs_overlap_<cells>.png; and `yeex bench --counts 1,2` at each size into
# docs/img/teaching_bench_<cells>.md (the efficiency column of the page). A backend that cannot
# run here (no NCCL in the build, no peer access) is skipped with its reason.
# Host pictures: the host engine on 3 slabs of 32^3 cells, host-staged and b2r (R = 2), into
# docs/img/host_<backend>.png.
# Needs matplotlib (scripts/setup.sh installs Debian's python3-matplotlib).
set -euo pipefail

root=$(cd "$(dirname "$0")/.." && pwd)
host_only=0
if [[ "${1:-}" == "--host" ]]; then
  host_only=1
  shift
fi
if [[ "${1:-}" == "-h" || "${1:-}" == "--help" ]]; then
  sed -n '2,17p' "$0"
  exit 0
fi
if ((host_only)); then yeex=${1:-$root/build/host/yeex}; else yeex=${1:-$root/build/cuda/yeex}; fi
python=/usr/bin/python3
[[ -x $python ]] || python=python3
img=$root/docs/img
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
mkdir -p "$img"

# The benchmark box on N^3 cells: the same box (0.512 m), cells of 512/N mm.
deck() {
  local n=$1 cell
  cell=$(awk -v n="$n" 'BEGIN { printf "%.9g", 0.512 / n }')
  sed -e "s/^cells = .*/cells = [$n, $n, $n]/" -e "s/^cell_size = .*/cell_size = [$cell, $cell, $cell]/" \
    "$root/inputs/bench_box.toml" >"$work/box_$n.toml"
  echo "$work/box_$n.toml"
}

# trace NAME DECK ARGS...: yeex run --trace into $work/NAME.json; prints the trace line.
trace() {
  local name=$1 deck=$2
  shift 2
  "$yeex" run "$deck" --steps 20 --quiet --output "$work/out_$name" --trace "$work/$name.json" "$@" 2>&1 |
    grep -E '^yeex: (trace:|--exchange)' || true
  [[ -f "$work/$name.json" ]]
}

if ((host_only)); then
  box=$(deck 32)
  trace host_host-staged "$box" --engine host --subdomains 3 --exchange host-staged
  "$python" "$root/scripts/plot_timeline.py" "$work/host_host-staged.json" -o "$img/host_host-staged.png"
  trace host_b2r "$box" --engine host --subdomains 3 --exchange b2r --halo-depth 2
  "$python" "$root/scripts/plot_timeline.py" "$work/host_b2r.json" -o "$img/host_b2r.png"
  "$python" "$root/scripts/plot_timeline.py" "$work/host_host-staged.json" --compare "$work/host_b2r.json" \
    -o "$img/host_host-staged_vs_b2r.png"
  exit 0
fi

for n in 128 512; do
  box=$(deck "$n")
  for backend in host-staged p2p overlap nccl b2r graph coop; do
    depth=1
    [[ $backend == b2r ]] && depth=2
    if trace "gpu_${backend}_$n" "$box" --engine cuda --gpus 2 --exchange "$backend" --halo-depth "$depth"; then
      "$python" "$root/scripts/plot_timeline.py" "$work/gpu_${backend}_$n.json" -o "$img/gpu_${backend}_$n.png"
    else
      echo "teaching-pictures: $backend at $n^3 skipped"
    fi
  done
  if [[ -f "$work/gpu_p2p_$n.json" && -f "$work/gpu_overlap_$n.json" ]]; then
    "$python" "$root/scripts/plot_timeline.py" "$work/gpu_p2p_$n.json" --compare "$work/gpu_overlap_$n.json" \
      -o "$img/gpu_p2p_vs_overlap_$n.png"
  fi
  "$yeex" bench --engine cuda --size "$n" --counts 1,2 --steps 100 --warmup 20 --repeats 5 \
    --exchanges host-staged,p2p,overlap,nccl,b2r,graph,coop --markdown "$img/teaching_bench_$n.md" >/dev/null
done
