#!/usr/bin/env bash
# Thirteenth session, calls 23, 26 and 28 (one GPU): the final build (sources sharing a node in rounds;
# call 26: b47cec3, with the double kernel calling inject_sources; call 28: 5c994b6, without):
# final_checks (gpu-check.sh, validate on one GPU and with coop, cpml-check.sh's benchmark), then the
# twin-source deck of session-dm.sh on the host engine, the cuda engine and coop on 1 and 4 slabs,
# each run's probes.h5 kept for reading back on the CPU machine.
set -uo pipefail
source scripts/gpu/lib.sh "$1"
final_checks
python3 - "$out/twin.toml" <<'PY'
import sys
s = open("inputs/dipole_box.toml").read()
i, j = s.index("[[source]]"), s.index("[[probe]]")
twin = s[i:j].replace('name = "tx"', 'name = "tx2"')
open(sys.argv[1], "w").write(s[:j].replace("steps = 400", "steps = 150") + twin + s[j:])
PY
for spec in "host --engine host" "cuda --engine cuda" "coop_1 --engine cuda --exchange coop" \
  "coop_4slabs --engine cuda --gpus 1 --subdomains 4 --exchange coop" "overlap_4slabs --engine cuda --gpus 1 --subdomains 4 --exchange overlap"; do
  read -r label args <<< "$spec"
  # shellcheck disable=SC2086 # $args carries the options
  "$b/yeex" run "$out/twin.toml" --quiet --output "$out/o" $args > "$out/twin_$label.log" 2>&1
  cp "$out/o/probes.h5" "$out/probes_$label.h5"
  rm -rf "$out/o"
done
pack
grep -E "PASS|FAIL|passed|checksum|^strong" "$out/gpu-check/gpu-check.log" | head -40
grep -hE "problem\(s\)" "$out"/validate*.txt "$out"/validate/*.log 2>/dev/null | head
grep -E "PASS|FAIL|%" "$out/cpml/cpml-check.log" | tail -3
ls "$out"/probes_*.h5
