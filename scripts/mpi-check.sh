#!/usr/bin/env bash
# MPI mode on one node with several GPUs (about 5 minutes on 4 GPUs):
#   1. checksums: `mpirun -np N yeex run` on the cuda engine with the nccl and mpi transports, halo
#      depth 1 and 2, f32 and f64, against threads mode (p2p, nccl on N GPUs) and one GPU: all
#      must be equal; and 2N ranks on N GPUs must be refused (exit 2);
#   2. bench under mpirun: weak 512^3 per GPU and strong 256^3, nccl and mpi; then the threads-mode
#      bench of the same sizes (nccl, p2p, overlap, coop), side by side in summary.md.
#
#   scripts/mpi-check.sh [--build DIR] [--out DIR] [--ranks N] [--no-bench]
#
#   --build DIR   a build with CUDA, NCCL and MPI (the `cuda` preset where an MPI library is
#                 installed; default build/cuda)
#   --out DIR     mpi-check.log, runs/*/run.json, bench_*.json, summary.md (default
#                 build/mpi-check; its earlier runs are replaced)
#   --ranks N     MPI ranks, one GPU each (default 4)
#   --no-bench    the checksums only
#
# Exit 1 when a checksum differs or a command fails, 2 on bad options.
set -uo pipefail
here=$PWD
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
usage() { sed -n '2,/^set -uo/p' "$0" | sed '$d' | sed 's/^# \{0,1\}//'; }
die() { printf 'mpi-check: %s\n' "$*" >&2; exit 2; }
absolute() { [[ $1 == /* ]] && echo "$1" || echo "$here/$1"; }
build=$root/build/cuda out=$root/build/mpi-check ranks=4 bench_too=1
while (($#)); do
  case $1 in
    --build) (($# > 1)) || die "--build needs a folder"; build=$(absolute "$2"); shift 2 ;;
    --out) (($# > 1)) || die "--out needs a folder"; out=$(absolute "$2"); shift 2 ;;
    --ranks) [[ ${2:-} =~ ^[1-9][0-9]*$ ]] || die "--ranks needs a whole number of at least 1"; ranks=$2; shift 2 ;;
    --no-bench) bench_too=0; shift ;;
    -h | --help) usage; exit 0 ;;
    *) die "unknown argument '$1' (see --help)" ;;
  esac
done
cd "$root" || exit 1
rm -rf "$out/runs"  # fresh run folders: yeex run refuses one that holds another run's files
mkdir -p "$out/runs"
exec > >(tee "$out/mpi-check.log") 2>&1

export NCCL_NVLS_ENABLE=0                                          # no NVLink multicast here
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1   # the GPU machine runs as root
yeex=$build/yeex
mpirun=(mpirun -np "$ranks" --bind-to none -x NCCL_NVLS_ENABLE -x NCCL_DEBUG)
export NCCL_DEBUG=${NCCL_DEBUG:-WARN}
status=0

section() { printf '\n## %s\n' "$*"; }
fail() { echo "FAIL: $*"; status=1; }
# Runs a command, printing it first and its wall time after; a failure marks the check failed.
step() {
  echo "+ $*"
  local t0=$SECONDS
  "$@" || fail "exit $? from: $*"
  echo "  ($((SECONDS - t0)) s)"
}

section "machine ($(date -u +%Y-%m-%dT%H:%M:%SZ))"
echo "command: $0 --build $build --out $out --ranks $ranks$( ((bench_too)) || echo " --no-bench")"
echo "git: $(git describe --always --dirty 2>/dev/null || echo unknown)"
nvidia-smi --query-gpu=index,name,pci.bus_id,memory.total,driver_version --format=csv || true
nvidia-smi topo -m || true
mpirun --version | head -1
[[ -x $yeex ]] || { echo "no $yeex: build the cuda preset first (cmake --preset cuda && cmake --build build/cuda)"; exit 1; }
ldd "$yeex" | grep -E "libmpi|libnccl" || true
ldd "$yeex" | grep -q "libmpi" || { echo "$yeex has no MPI mode: configure with an MPI library installed"; exit 1; }

section "exchange backends: threads mode, then MPI mode ($ranks ranks)"
step "$yeex" exchanges --engine cuda --gpus "$ranks"
step "${mpirun[@]}" "$yeex" exchanges --engine cuda

section "checksums: MPI mode against threads mode and one GPU"
deck=$out/mpi_check.toml
cat > "$deck" <<'TOML'
# mpi-check: a dipole in a PEC box with a dielectric block, 160 x 128 x 256 cells (64 z-planes per
# rank on 4 GPUs), probes in the first and last slab, an x-z plane snapshot across every slab.
title = "mpi-check: dipole, dielectric block, probes in different slabs"
[grid]
cells = [160, 128, 256]
cell_size = [1e-3, 1e-3, 1e-3]
[time]
steps = 300
[[material]]
name = "block"
eps_r = 4.0
sigma = 0.005
[[geometry]]
material = "block"
lower = [0.04, 0.03, 0.15]
upper = [0.12, 0.10, 0.22]
[[source]]
name = "tx"
polarisation = "z"
position = [0.08, 0.064, 0.1]
waveform = "ricker"
frequency = 1.5e10
[[probe]]
name = "low"
position = [0.08, 0.064, 0.03]
components = ["Ez", "Hy"]
[[probe]]
name = "high"
position = [0.08, 0.064, 0.23]
components = ["Ez"]
[[snapshot]]
name = "ez_xz"
components = ["Ez"]
every = 100
plane = {axis = "y", position = 0.064}
TOML
runs=()
run_case() {  # NAME, then the command
  local name=$1
  shift
  step "$@" --quiet --output "$out/runs/$name"
  runs+=("$name")
}
for precision in f32 f64; do
  run_case "${precision}_threads_1gpu" "$yeex" run "$deck" --engine cuda --gpus 1 --precision "$precision"
  run_case "${precision}_threads_p2p" "$yeex" run "$deck" --engine cuda --gpus "$ranks" --exchange p2p --precision "$precision"
  [[ $precision == f32 ]] && run_case "f32_threads_nccl" "$yeex" run "$deck" --engine cuda --gpus "$ranks" --exchange nccl
  for exchange in nccl mpi; do
    for depth in 1 2; do
      [[ $precision == f64 && $depth == 1 ]] && continue
      run_case "${precision}_mpi_${exchange}_R${depth}" "${mpirun[@]}" "$yeex" run "$deck" --engine cuda \
        --exchange "$exchange" --halo-depth "$depth" --precision "$precision"
    done
  done
done
python3 - "$out/runs" "${runs[@]}" <<'PY' || status=1
import json, sys, os
folder, names = sys.argv[1], sys.argv[2:]
reference, bad = {}, 0
print(f"{'run':28} {'mode':8} {'exchange':9} {'R':>2} {'ranks/GPUs':>10}  {'checksum':16}  vs 1 GPU   halos")
for name in names:
    path = os.path.join(folder, name, "run.json")
    if not os.path.exists(path):
        print(f"{name:28} missing run.json"); bad += 1; continue
    j = json.load(open(path))
    precision, run = name.split("_")[0], j["run"]
    fields = j["checksum"]["fields"]
    reference.setdefault(precision, fields)  # the 1-GPU run of each precision comes first
    same = fields == reference[precision]
    bad += not same
    halos = j.get("mpi", {}).get("halo_path", "")
    print(f"{name:28} {run.get('mode','threads'):8} {run['exchange']:9} {run['halo_depth']:>2} {run['subdomains']:>10}  "
          f"{fields:16}  {'same' if same else 'DIFFERENT':9} {halos}")
print("checksums:", "all equal" if bad == 0 else f"{bad} run(s) differ or failed")
sys.exit(1 if bad else 0)
PY
for name in f32_mpi_nccl_R1 f32_mpi_mpi_R1; do
  python3 -c "import json,sys; [print(r['rank'], r['host'], r['gpu']['index'], r['gpu'].get('name'), r['gpu']['pci_bus_id']) for r in json.load(open(sys.argv[1]))['mpi']['by_rank']]" \
    "$out/runs/$name/run.json" 2>/dev/null | sed "s/^/  $name rank /" || true
done

section "refusal: $((2 * ranks)) ranks on $ranks GPUs must stop with exit code 2 (two ranks per GPU)"
echo "+ mpirun -np $((2 * ranks)) --oversubscribe $yeex run DECK --engine cuda"
mpirun -np $((2 * ranks)) --oversubscribe --bind-to none "$yeex" run "$deck" --engine cuda --quiet --output "$out/runs/refused"
code=$?
if [[ $code -eq 2 && ! -e $out/runs/refused/run.json ]]; then echo "refused as it should (exit 2)"; else fail "exit $code, expected 2"; fi

if ((bench_too)); then
  weak=512
  strong=256
  bench=(bench --engine cuda --steps 50 --warmup 10 --repeats 5)
  section "bench under mpirun -np $ranks: nccl and mpi, weak ${weak}^3 per GPU"
  step "${mpirun[@]}" "$yeex" "${bench[@]}" --scaling weak --size "$weak" --exchanges nccl,mpi --json "$out/bench_mpi_weak_$weak.json"
  section "bench under mpirun -np $ranks: nccl and mpi, strong ${strong}^3"
  step "${mpirun[@]}" "$yeex" "${bench[@]}" --scaling strong --size "$strong" --exchanges nccl,mpi --json "$out/bench_mpi_strong_$strong.json"
  threads=nccl,p2p,overlap,coop
  section "bench in threads mode (one process, $ranks GPUs): $threads, weak ${weak}^3 per GPU"
  step "$yeex" "${bench[@]}" --gpus "$ranks" --scaling weak --size "$weak" --exchanges "$threads" --json "$out/bench_threads_weak_$weak.json"
  section "bench in threads mode: $threads, strong ${strong}^3"
  step "$yeex" "${bench[@]}" --gpus "$ranks" --scaling strong --size "$strong" --exchanges "$threads" --json "$out/bench_threads_strong_$strong.json"

  section "summary: threads mode and MPI mode side by side ($out/summary.md)"
  python3 - "$out" "$weak" "$strong" <<'PY' | tee "$out/summary.md" || status=1
import json, sys, os
out, weak, strong = sys.argv[1:4]
print("| scaling | size | mode | exchange | N | ms/step | Gcells/s | efficiency |")
print("|---|---|---|---|---|---|---|---|")
for scaling, size in (("weak", weak), ("strong", strong)):
    for mode in ("threads", "mpi"):
        path = os.path.join(out, f"bench_{mode}_{scaling}_{size}.json")
        if not os.path.exists(path):
            print(f"| {scaling} | {size} | {mode} | (no {os.path.basename(path)}) | | | | |"); continue
        for r in json.load(open(path))["rows"]:
            if r["skipped"]:
                print(f"| {scaling} | {size} | {mode} | {r['exchange']} | {r['devices']} | skipped: {r['skipped']} | | |"); continue
            print(f"| {scaling} | {size} | {mode} | {r['exchange']} | {r['devices']} | {1e3*r['seconds_per_step_median']:.3f} "
                  f"| {r['gcells_per_s']:.1f} | {100*r['efficiency']:.1f}% |")
print("\nefficiency: strong T1/(N TN), weak T1/TN; T1 = one GPU measured in the same invocation (MPI mode: rank 0 alone)")
PY
fi

section "result"
if [[ $status -eq 0 ]]; then echo "mpi check: PASS"; else echo "mpi check: FAIL"; fi
exit $status
