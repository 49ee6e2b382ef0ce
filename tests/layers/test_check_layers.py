#!/usr/bin/env python3
"""check_layers.py on a two-layer tree: a downward include passes, an upward one fails naming the
file and line, a link to an undeclared target fails."""
import subprocess
import sys
import tempfile
from pathlib import Path

CHECK = Path(__file__).with_name("check_layers.py")


def tree(root, files):
    for name, text in files.items():
        path = root / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text)


def check(root):
    run = subprocess.run([sys.executable, str(CHECK), str(root)], capture_output=True, text=True)
    return run.returncode, run.stdout


base = {
    "low/CMakeLists.txt": "add_library(yeex_low STATIC low.cpp)\n",
    "low/low.hpp": "#pragma once\n",
    "low/low.cpp": '#include "low/low.hpp"\n',
    "high/CMakeLists.txt": "add_library(yeex_high STATIC high.cpp)\ntarget_link_libraries(yeex_high PUBLIC yeex_low)\n",
    "high/high.hpp": "#pragma once\n",
    "high/high.cpp": '#include "high/high.hpp"\n#include "low/low.hpp"\n',
}
failures = []
with tempfile.TemporaryDirectory() as d:
    root = Path(d)
    tree(root, base)
    rc, out = check(root)
    if rc != 0:
        failures.append(f"a downward include was refused: {out}")
    tree(root, {"low/sub/helper.hpp": '#pragma once\n\n#include "high/high.hpp"\n'})
    rc, out = check(root)
    if rc != 1 or "low/sub/helper.hpp:3: includes high/high.hpp" not in out:
        failures.append(f"an upward include from a subfolder passed (exit {rc}): {out}")
with tempfile.TemporaryDirectory() as d:
    root = Path(d)
    tree(root, dict(base, **{"high/CMakeLists.txt": "add_library(yeex_high STATIC high.cpp)\n"
                             "target_link_libraries(yeex_high PUBLIC yeex_nowhere)\n"}))
    rc, out = check(root)
    if rc != 1 or "yeex_nowhere, declared nowhere" not in out:
        failures.append(f"a link to an undeclared target passed (exit {rc}): {out}")
for f in failures:
    print("FAIL:", f)
sys.exit(1 if failures else 0)
