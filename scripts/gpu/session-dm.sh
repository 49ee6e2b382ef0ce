#!/usr/bin/env bash
# Thirteenth session, call 18 (one GPU): two sources on one node. yeex-prev (b452096, the same source code as 5210725) injects a
# thread per source, so the two race on the node; the build chains them (link_shared_nodes). The
# gpu tests (a twin-source case in each); then inputs/dipole_box.toml with a second, identical
# dipole on the same node, 150 steps, on the host engine, and on the cuda engine with both builds
# (and coop, 1 and 4 slabs, with both): each run's probes.h5, read back on the CPU machine.
set -uo pipefail
source scripts/gpu/lib.sh "$1"
for t in test_cuda_engine test_multi_gpu; do run "$t" 300 "$b/tests/gpu/$t" --gtest_color=no --gtest_brief=1; done
pack
python3 - "$out/twin.toml" <<'PY'
import sys
s = open("inputs/dipole_box.toml").read()
i, j = s.index("[[source]]"), s.index("[[probe]]")
twin = s[i:j].replace('name = "tx"', 'name = "tx2"')
open(sys.argv[1], "w").write(s[:j].replace("steps = 400", "steps = 150") + twin + s[j:])
PY
twin() {  # LABEL BINARY ARGS...
  local label=$1 bin=$2
  shift 2
  "$b/$bin" run "$out/twin.toml" --quiet --output "$out/o" "$@" > "$out/twin_$label.log" 2>&1
  cp "$out/o/probes.h5" "$out/probes_$label.h5"  # read back here with h5dump (none on the GPU machine)
  rm -rf "$out/o"
}
twin host yeex --engine host
twin cuda yeex --engine cuda
twin cuda_prev yeex-prev --engine cuda
twin coop_1 yeex --engine cuda --exchange coop
twin coop_4slabs yeex --engine cuda --gpus 1 --subdomains 4 --exchange coop
twin coop_4slabs_prev yeex-prev --engine cuda --gpus 1 --subdomains 4 --exchange coop
echo "done ($((SECONDS - t0)) s)" >> "$out/summary.txt"; pack
grep -h "PASSED\|FAILED" "$out"/test_*.txt
ls -la "$out"/probes_*.h5
