#!/usr/bin/env bash
# The pictures test (CTest `render_pictures`, labels cpu and render): runs the built-in deck for
# 250 steps, renders its Ez snapshot through real ParaView (xvfb-run -a pvbatch
# scripts/render_snapshot.py), so the XDMF/HDF5 files stay readable by ParaView, and plots a probe
# with scripts/plot_probes.py; each PNG must exist, be larger than 10 kB and hold more than 50
# colours, and the middle of the snapshot picture (the field itself, not the colour bar or the
# labels) more than 20: a blank or single-colour field fails.
#
# Usage: render_pictures.sh YEEX_BINARY SOURCE_DIR
set -euo pipefail

YEEX=$1
SOURCE=$2
WORK=$(mktemp -d)
trap 'rm -rf "$WORK"' EXIT

for tool in xvfb-run pvbatch flock; do
  command -v "$tool" >/dev/null || { echo "render_pictures: $tool not found (scripts/setup.sh installs it)" >&2; exit 1; }
done
# The Python with the modules scripts/setup.sh installs (Debian's python3-h5py, python3-matplotlib):
# python3 on PATH when it has them, else the system's (a pyenv or conda python3 first on PATH has not).
python=
for candidate in python3 /usr/bin/python3; do
  if command -v "$candidate" >/dev/null && "$candidate" -c 'import h5py, matplotlib, numpy' 2>/dev/null; then
    python=$candidate
    break
  fi
done
[[ -n $python ]] || {
  echo "render_pictures: no python3 with h5py, matplotlib and numpy (scripts/setup.sh installs them for /usr/bin/python3)" >&2
  exit 1
}

# xvfb-run -a picks the first free display by looking at lock files, which races when several
# start at once (parallel test runs on one machine, a known xvfb-run problem: two servers on one
# display, and pvbatch aborts with "bad X server connection"; seen here under load too). So: one
# render at a time on this machine (flock; -o so that an X server left behind cannot keep the
# lock), a random first display number, a time limit, and a retry only when the X server failed,
# never when pvbatch failed on the files.
render() {
  local attempt
  for attempt in 1 2 3; do
    if flock -o /tmp/yeex-render-pictures.lock timeout 120 \
      xvfb-run -a -n $((100 + RANDOM % 800)) -e "$WORK/xvfb.log" pvbatch "$@" 2> "$WORK/render.err"; then
      cat "$WORK/render.err" >&2
      return 0
    fi
    cat "$WORK/render.err" "$WORK/xvfb.log" >&2 || true
    grep -q -e "Xvfb failed to start" -e "bad X server connection" "$WORK/render.err" || return 1
    echo "render_pictures: the X server failed (attempt $attempt), retrying" >&2
  done
  return 1
}

"$YEEX" run --engine host --steps 250 --quiet --output "$WORK/out"
render "$SOURCE/scripts/render_snapshot.py" "$WORK/out/ez_xy.xdmf" --component Ez --step 250 --out "$WORK/ez_xy.png"
"$python" "$SOURCE/scripts/plot_probes.py" "$WORK/out/probes.h5" --probe rx_air --component Ez --out "$WORK/rx_air.png"

"$python" - "$WORK/ez_xy.png" "$WORK/rx_air.png" <<'PY'
import os
import sys

import matplotlib.image as image
import numpy as np

for path in sys.argv[1:]:
    size = os.path.getsize(path)
    pixels = image.imread(path)
    colours = len(np.unique(pixels.reshape(-1, pixels.shape[-1]), axis=0))
    print("render_pictures: %s: %d bytes, %dx%d, %d colours" % (os.path.basename(path), size, pixels.shape[1],
                                                                 pixels.shape[0], colours))
    if size < 10000 or colours <= 50:
        sys.exit("render_pictures: %s looks blank" % path)
height, width = image.imread(sys.argv[1]).shape[:2]
middle = image.imread(sys.argv[1])[int(0.3 * height):int(0.7 * height), int(0.3 * width):int(0.7 * width)]
field_colours = len(np.unique(middle.reshape(-1, middle.shape[-1]), axis=0))
print("render_pictures: the field in the middle of the snapshot picture has %d colours" % field_colours)
if field_colours <= 20:
    sys.exit("render_pictures: the snapshot's field looks blank")
PY
