#!/usr/bin/env bash
# Seventeenth session, call 3 (one GPU): the final build. Ctrl-C on the cuda engine: a run of the
# default deck on 4 slabs of the GPU under each backend that runs there (and one slab) gets SIGINT
# (then SIGTERM) after 3 s: exit 130 (143), the step named, nothing left in the output folder;
# then final_checks (gpu-check.sh with every gpu test, validate on one GPU and with coop,
# cpml-check.sh's benchmark).
set -uo pipefail
source scripts/gpu/lib.sh "$1"
interrupt() {  # NAME SIGNAL ARGS...: run the default deck with ARGS, send SIGNAL after 3 s
  local name=$1 signal=$2
  shift 2
  mkdir -p "$out/kept_$name"
  "$b/yeex" run --engine cuda --steps 10000000 --output "$out/kept_$name" "$@" > "$out/int_$name.txt" 2>&1 &
  local p=$!
  sleep 3
  kill "-$signal" $p
  wait $p
  echo "int_$name exit $? files left: $(ls -A "$out/kept_$name" | wc -l)" >> "$out/summary.txt"
}
interrupt one INT --gpus 1
for x in host-staged p2p overlap coop; do interrupt "$x" INT --gpus 1 --subdomains 4 --exchange "$x"; done
interrupt b2r TERM --gpus 1 --subdomains 4 --exchange b2r --halo-depth 2
pack
final_checks
final_report
grep "^int_" "$out/summary.txt"
cat "$out"/int_*.txt
grep -v "exit 0" "$out/summary.txt"
