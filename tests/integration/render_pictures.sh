#!/usr/bin/env bash
# The pictures test (CTest render_pictures): runs the built-in deck (inputs/dipole_box.toml) for
# 250 steps and tests/data/snapshot_views.toml (a volume and a plane normal to y, CPML, one
# object of each shape), checks the snapshot files' attributes against run.json
# (check_snapshot_files.py), renders planes of both with scripts/render_snapshot.py (a plane
# snapshot, a volume cut along x with --log, one along y with --range) and plots a probe with
# scripts/plot_probes.py. Each PNG must exist, be larger than 10 kB and hold more than 50
# colours, and the middle of each snapshot picture (the field, not the colour bar or the labels)
# more than 20: a blank or single-colour field fails. A step that is not in the file must be
# refused with exit status 2 and no PNG.
#
# Usage: render_pictures.sh YEEX_BINARY SOURCE_DIR
set -euo pipefail

YEEX=$1
SOURCE=$2
WORK=$(mktemp -d)
trap 'rm -rf "$WORK"' EXIT
python() { "$SOURCE/tests/integration/pictures_python.sh" "$@"; }
render() { python "$SOURCE/scripts/render_snapshot.py" "$@"; }

"$YEEX" run --engine host --steps 250 --quiet --output "$WORK/box"
"$YEEX" run "$SOURCE/tests/data/snapshot_views.toml" --engine host --quiet --output "$WORK/views"
python "$SOURCE/tests/integration/check_snapshot_files.py" "$WORK/box" "$WORK/views"

render "$WORK/box/ez_xy.h5" --component Ez --step 250 --out "$WORK/box_ez.png"
render "$WORK/views/ez_xz.xdmf" --component Hx --out "$WORK/views_hx_xz.png"
render "$WORK/views/volume.h5" --component Ez --axis x --position 0.024 --log --out "$WORK/views_ez_yz.png"
render "$WORK/views/volume.h5" --component Hy --step 40 --axis y --range 0.5 --out "$WORK/views_hy_xz.png"
python "$SOURCE/scripts/plot_probes.py" "$WORK/box/probes.h5" --probe rx_air --component Ez --out "$WORK/rx_air.png"

status=0
render "$WORK/views/volume.h5" --step 7 --out "$WORK/missing.png" 2> "$WORK/refused.txt" || status=$?
cat "$WORK/refused.txt"
if [[ $status -ne 2 || -e "$WORK/missing.png" ]] || ! grep -q "step 7 not in" "$WORK/refused.txt"; then
  echo "render_pictures: a missing step gave exit status $status (expected 2, no PNG)" >&2
  exit 1
fi

python - "$WORK"/box_ez.png "$WORK"/views_*.png -- "$WORK/rx_air.png" <<'PY'
import os
import sys

import matplotlib.image as image
import numpy as np

arguments = sys.argv[1:]
snapshots = arguments[:arguments.index("--")]
for path in snapshots + arguments[arguments.index("--") + 1:]:
    size = os.path.getsize(path)
    pixels = image.imread(path)
    colours = len(np.unique(pixels.reshape(-1, pixels.shape[-1]), axis=0))
    print("render_pictures: %s: %d bytes, %dx%d, %d colours" % (os.path.basename(path), size, pixels.shape[1],
                                                                 pixels.shape[0], colours))
    if size < 10000 or colours <= 50:
        sys.exit("render_pictures: %s looks blank" % path)
    if path in snapshots:
        height, width = pixels.shape[:2]
        middle = pixels[int(0.3 * height):int(0.7 * height), int(0.3 * width):int(0.6 * width)]
        field_colours = len(np.unique(middle.reshape(-1, middle.shape[-1]), axis=0))
        print("render_pictures: the field in the middle of %s has %d colours" % (os.path.basename(path), field_colours))
        if field_colours <= 20:
            sys.exit("render_pictures: the field of %s looks blank" % path)
PY
