#!/usr/bin/env bash
# Formats the C++ and CUDA sources with clang-format and the repository's .clang-format.
#
#   scripts/format.sh           rewrite every tracked source file in place
#   scripts/format.sh --check   change nothing; list the files that differ and exit 1 if any (CI)
#
# Needs clang-format (Debian: apt-get install clang-format); the check installs it where it can.
set -euo pipefail
cd "$(dirname "$0")/.."

check=0
case "${1:-}" in
  --check) check=1 ;;
  "") ;;
  *) echo "usage: scripts/format.sh [--check]" >&2; exit 2 ;;
esac

if ! command -v clang-format >/dev/null 2>&1; then
  if ((check)) && [[ $(id -u) == 0 ]] && command -v apt-get >/dev/null 2>&1; then
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends clang-format >/dev/null
  else
    echo "scripts/format.sh: clang-format is not installed (apt-get install clang-format)" >&2
    exit 2
  fi
fi

mapfile -t files < <(git ls-files '*.cpp' '*.hpp' '*.cu' '*.cuh' '*.h')
if ((check)); then
  differ=()
  for f in "${files[@]}"; do
    clang-format --style=file "$f" | cmp -s - "$f" || differ+=("$f")
  done
  if ((${#differ[@]})); then
    printf 'not formatted (run scripts/format.sh): %s\n' "${differ[@]}"
    exit 1
  fi
  echo "format: ${#files[@]} files as .clang-format wants them ($(clang-format --version))"
else
  clang-format --style=file -i "${files[@]}"
fi
