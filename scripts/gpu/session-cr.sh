#!/usr/bin/env bash
# Twelfth session, call 7 (one GPU): coop's CPML kernel with each face's psi and profile loaded
# after the main update (update_cell_with_cpml's Lean), so fewer values are live at once:
# BUILD_DIR/yeex-lean4 (float: 4 blocks of 256 per SM, 64 registers; double: 3 blocks, 80
# registers, no stack) and yeex-lean5 (float 5 blocks: 48 registers, 8 B stack; double as lean4);
# the build (yeex): float 3 blocks (79), double 2 (116). The CPML deck's bits under coop on 1 and 4
# slabs, f32 and f64; coop at 512^3 with 10-cell CPML, f32 twice and f64 once.
set -uo pipefail
source scripts/gpu/lib.sh "$1"
cpml_deck
coop_bits yeex yeex-lean4 yeex-lean5
pack
coop_cpml_rates yeex yeex-lean4 yeex-lean5
