#!/usr/bin/env bash
# Twelfth session, call 8 (one GPU): coop's CPML kernel, Lean (session-cr.sh), capped further:
# BUILD_DIR/yeex-lean5 (float 5 blocks of 256 per SM, 48 registers, 8 B stack; double 3, 80,
# none), yeex-lean6 (float 6: 40, 40 B; double 3) and yeex-lean8 (float 8: 32, 72 B; double 4: 64,
# 48 B). The same runs as session-cr.sh.
set -uo pipefail
source scripts/gpu/lib.sh "$1"
cpml_deck
coop_bits yeex-lean5 yeex-lean6 yeex-lean8
pack
coop_cpml_rates yeex-lean5 yeex-lean6 yeex-lean8
