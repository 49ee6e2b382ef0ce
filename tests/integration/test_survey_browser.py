#!/usr/bin/env python3
"""report.html of a host-engine `yeex survey` opened in headless Chromium (Debian's `chromium`,
scripts/setup.sh browser): fails on a console error or an image that does not load, and keeps a
screenshot (SHOT) and a PDF print beside it. A copy of the page with one image broken must fail the
same check, so the check itself is tested. Exits 77 (ctest: skipped) when chromium is absent.

    test_survey_browser.py YEEX SHOT.png
"""
import pathlib
import re
import shutil
import subprocess
import sys
import tempfile

YEEX, SHOT = sys.argv[1], pathlib.Path(sys.argv[2])
BROWSER = next((b for b in ("chromium", "chromium-browser", "google-chrome") if shutil.which(b)), None)
if not BROWSER:
    print("skipped: no chromium on PATH (scripts/setup.sh browser installs Debian's)")
    sys.exit(77)

# Appended to a copy of the page: after load, the title says how many images failed to decode.
PROBE = """<script>
window.addEventListener('load', () => {
  const bad = [...document.images].filter(i => !i.complete || i.naturalWidth === 0).length;
  document.title = 'images:' + document.images.length + ':broken:' + bad;
});
</script>"""


def browse(page, tmp, *extra):
    profile = tempfile.mkdtemp(dir=tmp)
    return subprocess.run([BROWSER, "--headless", "--no-sandbox", "--disable-gpu", "--no-first-run",
                           f"--user-data-dir={profile}", "--enable-logging=stderr", "--v=0",
                           "--virtual-time-budget=5000", *extra, page.as_uri()],
                          capture_output=True, text=True, timeout=120)


def check_page(html, tmp, name):
    """(images, broken, console errors) of `html` opened in the browser."""
    page = pathlib.Path(tmp) / name
    page.write_text(html.replace("</body>", PROBE + "</body>"))
    r = browse(page, tmp, "--dump-dom")
    title = re.search(r"<title>images:(\d+):broken:(\d+)</title>", r.stdout)
    console = [line for line in r.stderr.splitlines() if "CONSOLE" in line and ("Error" in line or "error" in line)]
    if not title:
        return None, None, console + ["the page's load handler did not run: " + r.stderr[-500:]]
    return int(title.group(1)), int(title.group(2)), console


failures = []
with tempfile.TemporaryDirectory() as tmp:
    out = pathlib.Path(tmp) / "survey"
    r = subprocess.run([YEEX, "survey", "--engine", "host", "--subdomains", "2", "--budget", "30s", "--output",
                        str(out)], capture_output=True, text=True)
    if r.returncode != 0:
        print("survey failed:", r.stderr)
        sys.exit(1)
    html = (out / "report.html").read_text()
    images, broken, console = check_page(html, tmp, "report.html")
    print(f"report.html: {images} image(s), {broken} broken, {len(console)} console error(s)")
    if not images or broken or console:
        failures.append(f"report.html: images {images}, broken {broken}, console {console}")
    # The negative control: one image's data cut short must be seen as broken.
    cut = re.sub(r'(src="data:image/png;base64,)[^"]{64}', r"\1AAAA", html, count=1)
    _, broken_cut, _ = check_page(cut, tmp, "broken.html")
    if not broken_cut:
        failures.append("a broken image was not detected: the check cannot fail")
    SHOT.parent.mkdir(parents=True, exist_ok=True)
    r = browse(out / "report.html", tmp, f"--screenshot={SHOT}", "--window-size=1366,2400")
    if not SHOT.is_file() or SHOT.stat().st_size < 10000:
        failures.append(f"no screenshot at {SHOT}: {r.stderr[-300:]}")
    pdf = SHOT.with_suffix(".pdf")
    r = browse(out / "report.html", tmp, f"--print-to-pdf={pdf}", "--no-pdf-header-footer")
    if not pdf.is_file() or pdf.read_bytes()[:4] != b"%PDF":
        failures.append(f"report.html did not print to PDF: {r.stderr[-300:]}")

for f in failures:
    print("FAIL:", f)
print(f"survey report in {BROWSER}: {len(failures)} failure(s); screenshot {SHOT}")
sys.exit(1 if failures else 0)
