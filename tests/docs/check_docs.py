#!/usr/bin/env python3
"""Checks that the documentation stays true to the tree it ships with.

- every relative link in README.md, CHANGELOG.md, docs/ and results/ names a file that exists;
  a `#Lnn` anchor names a line the file has, and a `.md#anchor` a heading or an explicit anchor
  of that page;
- a code reference written as [file:N](path#LN) (`symbol`) points at a line that holds `symbol`,
  so that a step loop moved by an edit is caught here, not by a reader;
- every `docs/<page>.md#anchor` named in a source comment exists;
- README.md stays a front page (at most 250 lines);
- no work-log words (session, call N) in the README, the docs or the sources' comments.

Usage: check_docs.py SOURCE_DIR [--fix]. Prints each problem; exits 1 if there is any. --fix first
moves each code reference to the line of its symbol nearest to where it pointed (after an edit
shifted the code), then checks.
"""
import pathlib
import re
import sys

LINK = re.compile(r"\[([^\]]*)\]\(([^)\s]+)\)")
CODE_REF = re.compile(r"\[([\w./-]+):(\d+)\]\(([^)#\s]+)#L(\d+)\)\s*\(`([^`]+)`\)")
DOC_ANCHOR_IN_CODE = re.compile(r"docs/([\w-]+\.md)#([\w-]+)")
WORK_LOG = re.compile(r"\bsessions?\b|\bcall [0-9]+\b|results/20[0-9][0-9]-", re.IGNORECASE)
SOURCE_SUFFIXES = {".cpp", ".hpp", ".cu", ".cuh", ".h", ".cmake", ".py", ".sh"}
SOURCE_DIRS = ["src", "kernels", "io", "decomposition", "tests", "scripts"]


def slug(heading: str) -> str:
    """GitHub's anchor for a heading: lower case, punctuation dropped, spaces to hyphens."""
    text = re.sub(r"`", "", heading.strip().lower())
    text = re.sub(r"[^\w\- ]", "", text)
    return text.replace(" ", "-")


def anchors(page: pathlib.Path) -> set:
    found = set()
    seen = {}
    for line in page.read_text(encoding="utf-8").splitlines():
        m = re.match(r"^#+\s+(.*)$", line)
        if m:
            base = slug(m.group(1))
            n = seen.get(base, 0)
            seen[base] = n + 1
            found.add(base if n == 0 else f"{base}-{n}")
        for explicit in re.findall(r'<a (?:id|name)="([^"]+)"', line):
            found.add(explicit)
    return found


def check_markdown(root: pathlib.Path, page: pathlib.Path, problems: list) -> None:
    text = page.read_text(encoding="utf-8")
    rel = page.relative_to(root)
    for m in CODE_REF.finditer(text):
        label_path, label_line, target, target_line, symbol = m.groups()
        path = (page.parent / target).resolve()
        if label_line != target_line:
            problems.append(f"{rel}: {m.group(0)}: the label's line and the link's differ")
            continue
        if not path.is_file():
            problems.append(f"{rel}: {target}: no such file")
            continue
        lines = path.read_text(encoding="utf-8", errors="replace").splitlines()
        n = int(target_line)
        if n > len(lines) or symbol not in lines[n - 1]:
            where = [i + 1 for i, l in enumerate(lines) if symbol in l]
            problems.append(f"{rel}: {label_path}:{n} does not hold `{symbol}` (it is on line(s) {where[:5]})")
    for m in LINK.finditer(text):
        target = m.group(2)
        if re.match(r"^[a-z]+:", target) or target.startswith("#"):
            continue
        file_part, _, anchor = target.partition("#")
        path = (page.parent / file_part).resolve()
        if not path.exists():
            problems.append(f"{rel}: link to {target}: no such file or folder")
            continue
        if anchor.startswith("L") and anchor[1:].isdigit():
            if path.is_file() and int(anchor[1:]) > len(path.read_text(errors="replace").splitlines()):
                problems.append(f"{rel}: link to {target}: the file has fewer lines")
        elif anchor and path.suffix == ".md" and anchor not in anchors(path):
            problems.append(f"{rel}: link to {target}: no heading or anchor '{anchor}' there")


def fix_code_refs(page: pathlib.Path) -> None:
    """Points each [file:N](path#LN) (`symbol`) at the line of `symbol` nearest to N."""
    text = page.read_text(encoding="utf-8")

    def moved(m):
        label_path, label_line, target, target_line, symbol = m.groups()
        path = (page.parent / target).resolve()
        if not path.is_file():
            return m.group(0)
        lines = path.read_text(encoding="utf-8", errors="replace").splitlines()
        where = [i + 1 for i, line in enumerate(lines) if symbol in line]
        if not where:
            return m.group(0)
        n = min(where, key=lambda w: abs(w - int(target_line)))
        return f"[{label_path}:{n}]({target}#L{n}) (`{symbol}`)"

    page.write_text(CODE_REF.sub(moved, text), encoding="utf-8")


def main() -> int:
    root = pathlib.Path(sys.argv[1]).resolve()
    if "--fix" in sys.argv[2:]:
        for page in sorted((root / "docs").glob("*.md")):
            fix_code_refs(page)
    problems = []
    pages = [root / "README.md", root / "CHANGELOG.md"]
    pages += sorted((root / "docs").glob("*.md")) + sorted((root / "results").rglob("*.md"))
    for page in pages:
        if page.is_file():
            check_markdown(root, page, problems)

    readme_lines = len((root / "README.md").read_text(encoding="utf-8").splitlines())
    if readme_lines > 250:
        problems.append(f"README.md: {readme_lines} lines; the front page keeps to 250")

    for page in [root / "README.md", *sorted((root / "docs").glob("*.md"))]:
        for i, line in enumerate(page.read_text(encoding="utf-8").splitlines(), 1):
            if WORK_LOG.search(line):
                problems.append(f"{page.relative_to(root)}:{i}: work-log word: {line.strip()[:100]}")

    this_file = pathlib.Path(__file__).resolve()
    for folder in SOURCE_DIRS:
        for path in sorted((root / folder).rglob("*")):
            if path.suffix not in SOURCE_SUFFIXES or not path.is_file() or path.resolve() == this_file:
                continue
            text = path.read_text(encoding="utf-8", errors="replace")
            for i, line in enumerate(text.splitlines(), 1):
                for page, anchor in DOC_ANCHOR_IN_CODE.findall(line):
                    target = root / "docs" / page
                    if not target.is_file() or anchor not in anchors(target):
                        problems.append(f"{path.relative_to(root)}:{i}: docs/{page}#{anchor} does not exist")
                comment = re.search(r"(//|#)(.*)$", line)
                if comment and WORK_LOG.search(comment.group(2)):
                    problems.append(f"{path.relative_to(root)}:{i}: work-log word in a comment: {line.strip()[:100]}")

    for p in problems:
        print(p)
    print(f"{len(problems)} problem(s) in the documentation (moved code references: check_docs.py SOURCE_DIR --fix)"
          if problems else "documentation: every link and reference holds")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
