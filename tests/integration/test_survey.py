#!/usr/bin/env python3
"""`yeex survey` end to end on the host engine: the structure of survey.json, report.md's sections,
report.html's embedded images, `--from` rendering the same report.md again, `--what-if` on a seed
matrix, and bad options refused with exit 2 and nothing written.

    test_survey.py YEEX SOURCE_DIR
"""
import json
import pathlib
import subprocess
import sys
import tempfile
import time

YEEX, SOURCE = sys.argv[1], pathlib.Path(sys.argv[2])
WHAT_IF = SOURCE / "tests" / "data" / "p2p" / "p2p_bandwidth_latency_2x_rtx2080_nvlink.txt"
failures = []


def check(condition, what):
    if not condition:
        failures.append(what)
        print("FAIL:", what)


def run(*args):
    return subprocess.run([YEEX, "survey", *args], capture_output=True, text=True)


with tempfile.TemporaryDirectory() as tmp:
    out = pathlib.Path(tmp) / "survey"
    start = time.monotonic()
    r = run("--engine", "host", "--subdomains", "4", "--budget", "1m", "--output", str(out), "--what-if", str(WHAT_IF))
    took = time.monotonic() - start
    check(r.returncode == 0, f"survey exit {r.returncode}: {r.stderr}")
    check(took < 60, f"the 1-minute host survey took {took:.0f} s")
    check("[" in r.stdout and "ms/step" in r.stdout, "no progress line")
    s = json.loads((out / "survey.json").read_text())
    for key in ("format", "command", "provenance", "engine", "precision", "budget_seconds", "elapsed_seconds",
                "topology", "placement", "pinning", "p2p", "phases", "model_check", "what_if", "definitions",
                "copy_bandwidth_gb_per_s"):
        check(key in s, f"survey.json has no '{key}'")
    check(s["format"] == "yeex-survey-1", "format")
    check("git_commit" in s["provenance"], "provenance without the commit")
    ran = [p for p in s["phases"] if p["status"] == "ran"]
    check(len(ran) >= 1, "no phase ran")
    rows = [row for p in ran for row in p["rows"] if not row["skipped"]]
    check({row["scaling"] for row in rows} == {"strong", "weak"}, "strong and weak rows")
    check(max(row["devices"] for row in rows) == 4, "rows up to 4 slabs")
    check(len({row["exchange"] for row in rows} - {"-"}) >= 1, "a backend row")
    preds = s["what_if"]["predictions"]
    check(any(p["efficiency"] is not None for p in preds), "what-if predicted nothing")
    check(s["what_if"]["assumptions"] and s["what_if"]["model"], "what-if states its model")

    md = (out / "report.md").read_text()
    for section in ("## Machine", "## Best backend", "## Scaling efficiency", "## Efficiency by link class",
                    "## Exchange time against the wire", "## P2P heat maps", "## One-GPU speed",
                    "## Placement and pinning", "## What-if", "## Phases", "## Definitions"):
        check(section in md, f"report.md has no '{section}'")
    html = (out / "report.html").read_text()
    pngs = sorted(p.name for p in out.glob("*.png"))
    check(len(pngs) >= 3, f"only {pngs} plotted")
    check(html.count('src="data:image/png;base64,') == md.count("]("), "an image of report.md is not embedded")
    check("src=\"" not in html.replace('src="data:', ""), "report.html refers to a file")
    for png in pngs:
        check((out / png).read_bytes()[:8] == b"\x89PNG\r\n\x1a\n", f"{png} is not a PNG")

    # --from renders the same report.md from survey.json alone.
    r = run("--from", str(out))
    check(r.returncode == 0, f"--from exit {r.returncode}: {r.stderr}")
    check((out / "report.md").read_text() == md, "--from rendered another report.md")
    check(not list(pathlib.Path(tmp).glob(".survey.yeex-staging*")), "a staging folder was left")

    # Bad options: exit 2, nothing written.
    for args, words in [
        (["--engine", "host", "--budget", "soon", "--output", f"{tmp}/bad1"], "--budget"),
        (["--engine", "host", "--output", f"{tmp}/bad2", "--what-if", str(SOURCE / "README.md")], "--what-if"),
        (["--engine", "host", "--output", str(out)], "holds files"),
        (["--engine", "host", "--no-pin", "--output", f"{tmp}/bad3"], "--no-pin"),
        (["--from", f"{tmp}/none"], "--from"),
        (["--engine", "host"], "--output"),
    ]:
        r = run(*args)
        check(r.returncode == 2, f"{args}: exit {r.returncode}, not 2")
        check(words in r.stderr, f"{args}: the message does not name {words}: {r.stderr.strip()}")
    check(not any(pathlib.Path(tmp, n).exists() for n in ("bad1", "bad2", "bad3", "none")), "bad input wrote a folder")

print("survey: %d failure(s)" % len(failures))
sys.exit(1 if failures else 0)
