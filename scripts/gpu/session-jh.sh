#!/usr/bin/env bash
# Twenty-ninth session, call 6 (4 x H200): issue 3's table with the session's final code, the core
# (issue3_core: weak 512^3 a GPU, strong 512^3, 256^3, 128^3, b2r at R = 3 and 4), then the tall
# deck's strong rows again for overlap, host-staged and graph (a second invocation for call 4's).
#   BUILD_DIR=build/slim scripts/gpu/session-jh.sh OUT_DIR
set -uo pipefail
cd "$(dirname "$0")/../.."
source scripts/gpu/lib.sh "$1"
machine_info
issue3_core
tall_deck
run strong_tall_again 150 "${bench[@]}" --deck "$out/tall.toml" --scaling strong --counts 1,4 \
  --exchanges overlap,host-staged,graph --json "$out/strong_tall_again.json"
finish
