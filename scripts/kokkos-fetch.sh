#!/usr/bin/env bash
# Fetches Kokkos (its OpenMP backend) from Debian unstable's binary packages into a folder, for
# the kokkos engine (`cmake --preset kokkos`). No Kokkos with CUDA is packaged; these packages need
# glibc >= 2.38 and libstdc++ >= 13 to link and run (Debian 13, Ubuntu 24.04 and later): on an
# older system, Debian 12 included, the engine compiles but yeex does not link.
#
#   scripts/kokkos-fetch.sh [PREFIX]      (default build/kokkos/prefix)
#
# Two defects of Debian's libkokkos-dev (5.2.2-2) are mended in the copy: its CMake targets name
# the headers by absolute path (/usr/include/kokkos), and they list two static archives that the
# packages do not ship (kokkosalgorithms, kokkossimd; in Kokkos's own build they hold no code the
# engine uses): the targets are pointed at the copy, and the archives are written empty.
set -euo pipefail
cd "$(dirname "$0")/.."
prefix=${1:-build/kokkos/prefix}
mirror=${DEBIAN_MIRROR:-http://deb.debian.org/debian}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

curl -fsSL "$mirror/dists/unstable/main/binary-amd64/Packages.xz" | xz -d >"$work/Packages"
files=$(awk '/^Package: /{p=$2} /^Filename: /{if (p ~ /^libkokkos([0-9.]+|-dev)$/) print $2}' "$work/Packages")
[[ -n $files ]] || { echo "kokkos-fetch: no libkokkos packages in $mirror unstable" >&2; exit 1; }
rm -rf "$prefix"
mkdir -p "$prefix"
for f in $files; do
  echo "kokkos-fetch: $mirror/$f"
  curl -fsSL -o "$work/$(basename "$f")" "$mirror/$f"
  dpkg-deb -x "$work/$(basename "$f")" "$prefix"
done

config=$(dirname "$(find "$prefix" -name KokkosConfig.cmake | head -1)")
sed -i 's|"/usr/include/kokkos"|"${_IMPORT_PREFIX}/include/kokkos"|g' "$config"/KokkosTargets.cmake
for archive in $(grep -ho '_IMPORT_PREFIX}/[^"]*\.a' "$config"/KokkosTargets-*.cmake | sed 's|_IMPORT_PREFIX}/||' | sort -u); do
  [[ -e $prefix/usr/$archive ]] || { ar rc "$prefix/usr/$archive"; echo "kokkos-fetch: wrote an empty $archive"; }
done
echo "kokkos-fetch: Kokkos_ROOT=$config"
