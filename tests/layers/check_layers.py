#!/usr/bin/env python3
"""The build's layers hold: every source includes headers of its own folder and of the folders
whose libraries its library links (directly or through them), nothing else.

Each folder with a CMakeLists.txt that declares a library or an executable is one layer (its
subfolders without a CMakeLists.txt belong to it: kernels/cuda is kernels). What a layer may
include is read from the build itself, from the yeex_* targets in its target_link_libraries, so
that the CMake files are the one statement of the layering (src/CMakeLists.txt draws it).

    check_layers.py SOURCE_DIR     exit 1 and one line per upward or sideways include
"""
import re
import sys
from pathlib import Path

SOURCES = {".cpp", ".hpp", ".cu", ".cuh", ".h"}
SKIP = {"build", "tests", ".git", "results", "docs", "scripts", "inputs", "cmake"}


def cmake_layers(root):
    """folder -> (targets it declares, yeex_* targets they link)."""
    layers = {}
    for cmake in sorted(root.rglob("CMakeLists.txt")):
        rel = cmake.parent.relative_to(root)
        if rel == Path(".") or rel.parts[0] in SKIP:
            continue
        text = re.sub(r"#[^\n]*", "", cmake.read_text())
        targets = set(re.findall(r"add_(?:library|executable)\(\s*([\w-]+)", text))
        if not targets:
            continue
        links = set()
        for target, args in re.findall(r"target_link_libraries\(\s*([\w-]+)([^)]*)\)", text):
            if target in targets:
                links |= set(re.findall(r"\b(yeex_[a-z0-9_]+)\b", args))
        layers[rel.as_posix()] = (targets, links - targets)
    return layers


def main():
    root = Path(sys.argv[1] if len(sys.argv) > 1 else ".").resolve()
    layers = cmake_layers(root)
    owner = {t: folder for folder, (targets, _) in layers.items() for t in targets}
    direct = {}
    for folder, (_, links) in layers.items():
        unknown = [l for l in links if l not in owner and l != "yeex_toml"]
        if unknown:
            print(f"{folder}/CMakeLists.txt: links {', '.join(sorted(unknown))}, declared nowhere")
            return 1
        direct[folder] = {owner[l] for l in links if l in owner}

    def below(folder, seen=None):
        seen = set() if seen is None else seen
        for d in direct[folder]:
            if d not in seen:
                seen.add(d)
                below(d, seen)
        return seen

    def layer_of(path):  # the deepest layer folder holding path
        best = None
        for folder in layers:
            if path == folder or path.startswith(folder + "/"):
                if best is None or len(folder) > len(best):
                    best = folder
        return best

    problems = 0
    for folder in layers:
        allowed = below(folder) | {folder}
        if folder in below(folder):
            print(f"{folder}: its library links itself back through {sorted(direct[folder])}: a cycle")
            problems += 1
        for source in sorted((root / folder).rglob("*")):
            if source.suffix not in SOURCES or layer_of(source.parent.relative_to(root).as_posix()) != folder:
                continue
            for number, line in enumerate(source.read_text(errors="replace").splitlines(), 1):
                m = re.match(r'\s*#\s*include\s+"([^"]+)"', line)
                if not m:
                    continue
                target = layer_of(str(Path(m.group(1)).parent.as_posix()))
                if target is not None and target not in allowed:
                    rel = source.relative_to(root)
                    print(f"{rel}:{number}: includes {m.group(1)}, but {folder}'s library does not link "
                          f"{target}'s ({folder} builds on: {', '.join(sorted(allowed - {folder})) or 'nothing'})")
                    problems += 1
    if problems:
        print(f"{problems} include(s) across the layers (tests/layers/check_layers.py)")
        return 1
    print(f"layers: {len(layers)} folders, every include within what its library links")
    return 0


if __name__ == "__main__":
    sys.exit(main())
