#!/usr/bin/env bash
# Runs a Python script with the interpreter that has the pictures' modules (h5py, matplotlib,
# numpy; scripts/setup.sh installs Debian's for /usr/bin/python3): python3 on PATH when it has
# them, else the system's (a pyenv or conda python3 first on PATH often has not).
#
# Usage: pictures_python.sh SCRIPT.py [ARGUMENTS...]
set -euo pipefail

for candidate in python3 /usr/bin/python3; do
  if command -v "$candidate" >/dev/null && "$candidate" -c 'import h5py, matplotlib, numpy' 2>/dev/null; then
    exec "$candidate" "$@"
  fi
done
echo "pictures_python: no python3 with h5py, matplotlib and numpy (scripts/setup.sh installs them for /usr/bin/python3)" >&2
exit 1
