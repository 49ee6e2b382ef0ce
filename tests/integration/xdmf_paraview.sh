#!/usr/bin/env bash
# The ParaView test (CTest xdmf_paraview): runs the built-in deck (250 steps) and
# tests/data/snapshot_views.toml, then opens every snapshot's XDMF with ParaView's own reader
# (pvbatch check_xdmf_paraview.py): the times, components, bounds and value ranges must be those
# of the HDF5 beside it. Nothing is rendered, so no X display is needed.
#
# Usage: xdmf_paraview.sh YEEX_BINARY SOURCE_DIR
set -euo pipefail

YEEX=$1
SOURCE=$2
WORK=$(mktemp -d)
trap 'rm -rf "$WORK"' EXIT
command -v pvbatch >/dev/null || { echo "xdmf_paraview: pvbatch not found (scripts/setup.sh installs paraview)" >&2; exit 1; }

"$YEEX" run --engine host --steps 250 --quiet --output "$WORK/box"
"$YEEX" run "$SOURCE/tests/data/snapshot_views.toml" --engine host --quiet --output "$WORK/views"
timeout 240 pvbatch "$SOURCE/tests/integration/check_xdmf_paraview.py" "$WORK"/box/*.xdmf "$WORK"/views/*.xdmf
