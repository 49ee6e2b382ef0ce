#!/usr/bin/env bash
# `yeex validate` at full size on GPUs: one GPU, then split over 4 (or as many as there are, at
# least 2) with the p2p and coop backends. For the device tool: carry build/cuda (built with the
# `cuda` preset) and run
#
#   scripts/gpu/validate-check.sh            # writes to $OUT (or results/validate-DATE without it)
#
# Each invocation's table goes to stdout and to NAME.log, its JSON (with provenance) to NAME.json,
# a summary to summary.txt. Exit 0 when every invocation passed, 1 otherwise. About 1-2 minutes of
# GPU time (the CPU-side spectral analysis included). YEEX overrides the binary.
set -uo pipefail
cd "$(dirname "$0")/../.."
yeex=${YEEX:-build/cuda/yeex}
out=${OUT:-results/validate-$(date -u +%Y%m%d)}
mkdir -p "$out"
export NCCL_NVLS_ENABLE=0  # NVLink multicast off (KINDS.md)

[[ -x $yeex ]] || { echo "validate-check: $yeex not found: build the cuda preset (and carry build/cuda)" >&2; exit 1; }
{
  echo "date: $(date -u +%Y-%m-%dT%H:%M:%SZ)"
  echo "git: $(git describe --always --dirty 2>/dev/null || echo unknown)"
  "$yeex" --version
  nvidia-smi --query-gpu=index,name,memory.total,driver_version --format=csv 2>&1
} | tee "$out/machine.txt"
gpus=$(nvidia-smi -L 2>/dev/null | grep -c '^GPU' || true)

status=0
: > "$out/summary.txt"
run() {
  local name=$1
  shift
  echo
  echo "## $name: yeex validate $*"
  local t0=$SECONDS
  timeout 300 "$yeex" validate "$@" --json "$out/$name.json" 2>&1 | tee "$out/$name.log"
  local rc=${PIPESTATUS[0]}
  printf '%-16s exit %d  %4d s  yeex validate %s\n' "$name" "$rc" $((SECONDS - t0)) "$*" | tee -a "$out/summary.txt"
  ((rc == 0)) || status=1
}

run cuda-1gpu --engine cuda --gpus 1
run cuda-1gpu-f64 --engine cuda --gpus 1 --precision f64 --only cavity,propagation,dipole
split=$((gpus >= 4 ? 4 : gpus))
if ((split >= 2)); then
  run "p2p-${split}gpu" --engine cuda --gpus "$split" --exchange p2p
  run "coop-${split}gpu" --engine cuda --gpus "$split" --exchange coop
else
  echo "only $gpus GPU(s): the multi-GPU runs are skipped" | tee -a "$out/summary.txt"
fi
echo
cat "$out/summary.txt"
exit $status
