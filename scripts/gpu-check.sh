#!/usr/bin/env bash
# GPU check of a build on a machine with NVIDIA GPUs: the gpu-labelled tests, the engines, the
# default deck on one GPU and on 4 slabs of it, a short benchmark, every backend's fields, and
# compute-sanitizer (memcheck, racecheck, synccheck) over a short run of every backend.
#
#   scripts/gpu-check.sh [--build DIR] [--out DIR] [--sizes 128,256,512] [--no-sanitizer]
#
#   --build DIR   the build (default build/cuda-native, the `cuda-native` preset: code for this
#                 machine's GPUs; built here if it has no yeex)
#   --out DIR     where gpu-check.log (everything printed), the default deck's output and the
#                 bench JSON and markdown go (default build/gpu-check; its earlier files are replaced)
#   --sizes LIST  the cube edges of the float32 benchmark (default 128,256,512)
#   --no-sanitizer  skip the compute-sanitizer runs (about 3 minutes on 2 GPUs)
#
# Fails (exit 1) when a gpu test fails, the default deck on 4 slabs under coop or overlap gives
# another checksum than on one, bench --verify finds a backend whose fields differ, or
# compute-sanitizer reports an error other than the benign ones listed at benign_api_errors below;
# exit 2 on bad options. About 7 minutes on 2 x H200.
set -euo pipefail
here=$PWD
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)

usage() { sed -n '2,/^set -euo/p' "$0" | sed '$d' | sed 's/^# \{0,1\}//'; }
die() { printf 'gpu-check: %s\n' "$*" >&2; exit 2; }
absolute() { [[ $1 == /* ]] && echo "$1" || echo "$here/$1"; }

build=$root/build/cuda-native out=$root/build/gpu-check sizes=128,256,512 sanitizer=1
while (($#)); do
  case $1 in
    --build) (($# > 1)) || die "--build needs a folder"; build=$(absolute "$2"); shift 2 ;;
    --out) (($# > 1)) || die "--out needs a folder"; out=$(absolute "$2"); shift 2 ;;
    --sizes) (($# > 1)) || die "--sizes needs a list, e.g. 128,256,512"; sizes=$2; shift 2 ;;
    --no-sanitizer) sanitizer=0; shift ;;
    -h | --help) usage; exit 0 ;;
    *) die "unknown argument '$1' (see --help)" ;;
  esac
done
[[ $sizes =~ ^[0-9]+([, ][0-9]+)*$ ]] || die "--sizes '$sizes': cube edges separated by commas, e.g. 128,256,512"
read -ra size_list <<< "${sizes//,/ }"

cd "$root"
mkdir -p "$out"
# Fresh output: yeex run refuses a folder that holds another run's files.
rm -rf "$out/dipole_box" "$out"/slabs1 "$out"/slabs4_* "$out"/bench_f32.* "$out"/bench_f64.*
exec > >(tee "$out/gpu-check.log") 2>&1
export NCCL_NVLS_ENABLE=0  # no NVLink multicast: the halos are point to point

section() { printf "\n## %s (%s s)\n" "$*" "$SECONDS"; }

section "machine ($(date -u +%Y-%m-%dT%H:%M:%SZ))"
echo "command: $0 --build $build --out $out --sizes $sizes"
echo "git: $(git describe --always --dirty 2>/dev/null || echo unknown)"
nvidia-smi --query-gpu=index,name,memory.total,driver_version,clocks.max.sm --format=csv
nvidia-smi topo -m || true

if [[ ! -x $build/yeex ]]; then
  [[ $build == "$root/build/cuda-native" ]] || die "no yeex in $build"
  section "build ($build)"
  cmake --preset cuda-native -G Ninja && cmake --build "$build" -j"$(nproc)"
fi

section "gpu tests"
status=0
for test in "$build"/tests/gpu/test_*; do
  [[ -x $test && $test != *.cmake ]] || continue
  "$test" --gtest_color=no || status=1
done

section "engines"
"$build/yeex" engines

section "default deck on the cuda engine"
"$build/yeex" run inputs/dipole_box.toml --engine cuda --force --output "$out/dipole_box"

section "default deck on 4 slabs of GPU 0 (coop, then overlap): the one-GPU checksum"
one=$("$build/yeex" run inputs/dipole_box.toml --engine cuda --gpus 1 --quiet --json --force --output "$out/slabs1" | grep -A6 '"checksum"')
for exchange in coop overlap; do
  four=$("$build/yeex" run inputs/dipole_box.toml --engine cuda --gpus 1 --subdomains 4 --exchange "$exchange" --quiet --json \
    --force --output "$out/slabs4_$exchange" | grep -A6 '"checksum"')
  if [[ $four == "$one" ]]; then echo "$exchange on 4 slabs: the same checksum"; else echo "$exchange on 4 slabs: DIFFERENT checksum"; status=1; fi
done
rm -rf "$out"/slabs1 "$out"/slabs4_*

section "benchmark: cuda engine, float32"
"$build/yeex" bench --engine cuda --size "${size_list[@]}" --steps 100 --warmup 20 --repeats 5 --json "$out/bench_f32.json" \
  --markdown "$out/bench_f32.md"

section "every backend's fields after the warm-up: bench --verify, strong and weak 128^3, 1 and all GPUs"
"$build/yeex" bench --engine cuda --size 128 --scaling both --steps 20 --warmup 10 --repeats 3 --verify || status=1

section "benchmark: cuda engine, float64"
"$build/yeex" bench --engine cuda --precision f64 --size 512 --steps 50 --warmup 10 --repeats 5 --json "$out/bench_f64.json"

# compute-sanitizer over a short run of the CPML deck (sources, probes, CPML sweeps) under every
# backend. What it may report without failing the check (each counted and printed):
#   - cudaErrorPeerAccessAlreadyEnabled: yeex enables peer access once per GPU pair and treats
#     "already enabled" (another part of the process enabled it first) as success;
#   - API errors raised inside libnccl (its first frame past libcuda): NCCL asks for the attributes
#     of kernels built for architectures the GPU is not;
#   - racecheck hazards inside NCCL's own kernels (ncclDevKernel_*), whose warps synchronise
#     through flags in memory that racecheck does not model.
# The sanitizer does not run two kernels at once, so a backend whose kernels wait for a running
# kernel of another slab cannot pass its first exchange under it: graph runs on one slab (its
# pushing sweeps and replayed graphs, not the counters between GPUs), b2r with its events
# transport, and coop on two slabs of one GPU (one cooperative kernel holds both). racecheck does
# not finish a p2p run (its peer copies between the slabs stall under it): p2p's kernels are
# host-staged's, which racecheck does check. A run that does not finish in 120 s fails.
benign_api_errors='cudaErrorPeerAccessAlreadyEnabled'
sanitizer_findings() {  # LOG: prints "<not benign> <benign>"
  awk -v benign_api="$benign_api_errors" '
    function benign(head, frame) {
      if (head ~ ("^Program hit (" benign_api ")")) return 1
      if (head ~ /^Program hit/ && frame ~ /libnccl\.so/) return 1
      if (head ~ /Race reported .* at ncclDevKernel/) return 1
      return 0
    }
    function flush() { if (head != "") { if (benign(head, frame)) ok++; else bad++ }; head = "" }
    /^========= [^ ]/ {
      line = substr($0, 11)
      if (line ~ /^(COMPUTE-SANITIZER|ERROR SUMMARY|RACECHECK SUMMARY|Target application returned)/) next
      flush(); head = line; frame = ""; next
    }
    /^=========  +Host Frame:/ { if (frame == "" && $0 !~ /libcuda\.so/) frame = $0; next }
    /^========= *$/ { flush() }
    END { flush(); print bad + 0, ok + 0 }' "$1"
}
sanitize_backend() {  # TOOL EXCHANGE: 0 when the run reports nothing but the benign findings
  local tool=$1 exchange=$2 log=$out/sanitizer/$1_$2.log split=() findings
  if ((gpus > 1)); then split=(--gpus "$gpus"); else split=(--gpus 1 --subdomains 2); fi
  case $exchange in
    graph) split=(--gpus 1 --subdomains 1 --halo-depth 2) ;;
    coop) split=(--gpus 1 --subdomains 2) ;;
    b2r) split+=(--halo-depth 2 --b2r-transport events) ;;
  esac
  timeout 120 "$sanitizer_bin" --tool "$tool" --print-limit 100000 "$build/yeex" run inputs/dipole_free_space.toml \
    --engine cuda "${split[@]}" --exchange "$exchange" --steps 8 --quiet --force --output "$out/sanitizer/run" \
    > "$log" 2>&1
  local rc=$?
  read -r -a findings < <(sanitizer_findings "$log")
  if ((rc != 0)) || ! grep -q 'SUMMARY:' "$log" || ((findings[0] > 0)); then
    echo "$tool $exchange (${split[*]}): FAIL (exit $rc, ${findings[0]} finding(s), ${findings[1]} benign; $log)"
    grep '^========= [^ ]' "$log" | head -20
    return 1
  fi
  echo "$tool $exchange (${split[*]}): clean (${findings[1]} benign)"
}
if ((sanitizer)); then
  section "compute-sanitizer: memcheck, racecheck, synccheck over 8 steps of every backend"
  sanitizer_bin=$(command -v compute-sanitizer || echo /usr/local/cuda/bin/compute-sanitizer)
  if [[ ! -x $sanitizer_bin ]]; then
    echo "compute-sanitizer not found (PATH, /usr/local/cuda/bin): FAIL (--no-sanitizer skips this part)"
    status=1
  else
    gpus=$(nvidia-smi -L | grep -c '^GPU')
    mkdir -p "$out/sanitizer"
    if ((gpus > 1)); then listed=(--gpus "$gpus"); else listed=(--gpus 1 --subdomains 2); fi
    # Those that run at halo depth 1, and b2r (it needs R > 1).
    mapfile -t backends < <({ "$build/yeex" exchanges --engine cuda "${listed[@]}"
      "$build/yeex" exchanges --engine cuda "${listed[@]}" --halo-depth 2 | grep '^b2r '; } 2>/dev/null |
      awk '$2 == "yes" {print $1}')
    echo "backends that run here on $gpus GPU(s): ${backends[*]}"
    for tool in memcheck racecheck synccheck; do
      for exchange in "${backends[@]}"; do
        [[ $tool == racecheck && $exchange == p2p ]] && { echo "racecheck p2p: not run (see above)"; continue; }
        sanitize_backend "$tool" "$exchange" || status=1
      done
    done
    rm -rf "$out/sanitizer/run"
  fi
fi

section "result"
if [[ $status -eq 0 ]]; then echo "gpu tests: PASS"; else echo "gpu tests: FAIL"; fi
exit $status
