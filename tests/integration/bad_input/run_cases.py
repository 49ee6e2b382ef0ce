"""The bad-input campaign: runs the yeex binary on every case of cases.py and checks, for each,
that yeex

- exits with the expected code: 2 for bad input, 1 for a fault during the run, 128 + the signal
  for a stopped run (never killed by a signal of its own, such as SIGSEGV or SIGABRT);
- says why: its output matches the case's regular expression;
- does not crash: no 'terminate called', no sanitizer report, no HDF5 error stack;
- leaves nothing half-written: the output folder absent, or an earlier run's folder exactly as it
  was, and no staging folder (.NAME.yeex-staging-PID) or .partial-PID file anywhere under the
  case's folder.

    python3 run_cases.py --yeex build/host/yeex --group decks [--mpiexec mpiexec --np-flag -n]

Groups: decks, cli, filesystem, signals, mpi. Exits 1 naming every case that failed.
"""
import argparse
import hashlib
import os
import re
import shutil
import signal
import subprocess
import sys
import tempfile
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import cases as case_table  # noqa: E402

CRASH = re.compile(r"terminate called|Segmentation fault|core dumped|AddressSanitizer|LeakSanitizer|"
                   r"UndefinedBehaviorSanitizer|runtime error:|HDF5-DIAG|Aborted|stack smashing")
TIMEOUT_S = 120


def snapshot(folder):
    """Every path under `folder` with its kind, mode and content hash: what 'unchanged' means."""
    if not os.path.lexists(folder):
        return None
    state = {}
    for root, dirs, files in os.walk(folder):
        for name in sorted(dirs + files):
            path = os.path.join(root, name)
            st = os.lstat(path)
            digest = ""
            if os.path.isfile(path) and not os.path.islink(path):
                with open(path, "rb") as f:
                    digest = hashlib.sha256(f.read()).hexdigest()
            state[os.path.relpath(path, folder)] = (st.st_mode, digest)
    return state


def leftovers(folder):
    found = []
    for root, dirs, files in os.walk(folder):
        for name in dirs + files:
            if ".yeex-staging-" in name or ".yeex-old-" in name or re.search(r"\.partial-\d+$", name):
                found.append(os.path.relpath(os.path.join(root, name), folder))
    return found


class Context:
    """What a case's command may name: DECK, OUT, DIR, YEEX, and how to run yeex."""

    def __init__(self, args, work):
        self.args = args
        self.work = work
        self.deck = os.path.join(work, "deck.toml")
        self.out = os.path.join(work, "out")

    def expand(self, text):
        for key, value in (("DECK", self.deck), ("OUT", self.out), ("DIR", self.work), ("SRC", self.args.source)):
            text = text.replace(key, value)
        return text

    def command(self, case, arguments):
        yeex = self.args.yeex
        if case.get("mpi"):
            prefix = [self.args.mpiexec, self.args.np_flag, "2"] + open_mpi_flags(self.args.mpiexec)
        else:
            prefix = []
        line = prefix + [yeex] + arguments
        wrap = case.get("wrap")  # a shell prefix: ulimit, redirections, another user
        if wrap or case.get("stdout"):
            quoted = " ".join(shlex_quote(a) for a in line)
            script = (wrap + "; " if wrap else "") + "exec " + quoted + (" > " + case["stdout"] if case.get("stdout") else "")
            line = ["bash", "-c", script]
        if case.get("as_nobody"):
            line = ["setpriv", "--reuid=65534", "--regid=65534", "--clear-groups"] + line
        return line


def open_mpi_flags(mpiexec):
    """Open MPI's ranks oversubscribe this machine's cores unbound; other MPIs need nothing."""
    version = subprocess.run([mpiexec, "--version"], stdout=subprocess.PIPE, stderr=subprocess.STDOUT).stdout.decode()
    return ["--oversubscribe", "--bind-to", "none"] if ("Open MPI" in version or "OpenRTE" in version) else []


def shlex_quote(text):
    import shlex
    return shlex.quote(text)


def environment():
    env = dict(os.environ)
    env.update({"OMPI_ALLOW_RUN_AS_ROOT": "1", "OMPI_ALLOW_RUN_AS_ROOT_CONFIRM": "1", "OMP_NUM_THREADS": "1"})
    env.setdefault("OMPI_MCA_btl_vader_single_copy_mechanism", "none")
    return env


def run(ctx, case, arguments):
    """Runs yeex; a case with `signal` gets it once the run's staging folder exists."""
    line = ctx.command(case, arguments)
    if not case.get("signal"):
        p = subprocess.run(line, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, timeout=TIMEOUT_S,
                           env=environment(), cwd=ctx.work)
        return p.returncode, p.stdout.decode(errors="replace")
    p = subprocess.Popen(line, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, env=environment(), cwd=ctx.work)
    deadline = time.time() + 30
    while time.time() < deadline and p.poll() is None:
        if any(".yeex-staging-" in n for _, dirs, _ in os.walk(ctx.work) for n in dirs):
            break
        time.sleep(0.05)
    time.sleep(case.get("signal_after", 0.5))
    p.send_signal(getattr(signal, case["signal"]))
    output, _ = p.communicate(timeout=TIMEOUT_S)
    return p.returncode, output.decode(errors="replace")


def check(ctx, case):
    """Runs one case in its own folder; returns the list of its problems."""
    problems = []
    deck = case.get("deck")
    if isinstance(deck, bytes):
        with open(ctx.deck, "wb") as f:
            f.write(deck)
    elif deck is not None:
        with open(ctx.deck, "w") as f:
            f.write(deck)
    for step in case.get("setup", []):
        step(ctx)
    before = snapshot(ctx.out)
    entries = set(os.listdir(ctx.work))
    code, output = run(ctx, case, [ctx.expand(a) for a in case["args"]])
    expected = case["exit"]
    if code < 0 and code != expected:
        problems.append("killed by signal %d" % -code)
    elif code != expected:
        problems.append("exit code %d, expected %d" % (code, expected))
    if not re.search(case["message"], output, re.S):
        problems.append("output does not match /%s/" % case["message"])
    if CRASH.search(output):
        problems.append("output shows a crash or a library's own error report")
    if case.get("after") == "killed":  # SIGKILL: the staging folder stays, a rerun removes it
        if not any(".yeex-staging-" in n for n in os.listdir(os.path.dirname(ctx.out))):
            problems.append("SIGKILL left no staging folder (was it ever made?)")
        code2, output2 = run(ctx, dict(case, signal=None), [ctx.expand(a) for a in case["rerun"]])
        if code2 != 0 or not re.search(r"removed '.*\.yeex-staging-\d+' \(left by process \d+\)", output2):
            problems.append("the rerun (exit %d) did not remove the stale staging folder:\n%s" % (code2, output2))
        output += "\n--- rerun ---\n" + output2
    elif case.get("after") == "rerun":
        code2, output2 = run(ctx, dict(case, signal=None), [ctx.expand(a) for a in case["rerun"]])
        if code2 != 0:
            problems.append("the rerun failed (exit %d):\n%s" % (code2, output2))
        output += "\n--- rerun ---\n" + output2
    elif case.get("after") == "complete":  # the run itself succeeded; only a later step failed
        if not os.path.exists(os.path.join(ctx.out, "run.json")):
            problems.append("the completed run's folder is missing")
    else:
        after = snapshot(ctx.out)
        if after != before:
            problems.append("the output folder changed: %s" % ("created" if before is None else "modified"))
        made = set(os.listdir(ctx.work)) - entries - {os.path.basename(ctx.out)}
        if made:
            problems.append("written beside it: %s" % ", ".join(sorted(made)))
    left = leftovers(ctx.work)
    if left:
        problems.append("left behind: %s" % ", ".join(left))
    return problems, output


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--yeex", required=True)
    parser.add_argument("--group", required=True, choices=sorted(case_table.GROUPS))
    parser.add_argument("--source", default=os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", ".."))
    parser.add_argument("--mpiexec", default="mpiexec")
    parser.add_argument("--np-flag", default="-np")
    parser.add_argument("--only", help="a regular expression: run the cases whose name matches")
    parser.add_argument("--verbose", action="store_true", help="print every case's output")
    args = parser.parse_args()
    args.yeex = os.path.abspath(args.yeex)
    args.source = os.path.abspath(args.source)
    cases = case_table.GROUPS[args.group]()
    names = [c["name"] for c in cases]
    assert len(names) == len(set(names)), "case names must be unique"
    failed, skipped = [], []
    for case in cases:
        if args.only and not re.search(args.only, case["name"]):
            continue
        why_not = case.get("skip") and case["skip"]()
        if why_not:
            skipped.append("%s (%s)" % (case["name"], why_not))
            continue
        work = tempfile.mkdtemp(prefix="yeex-bad-input-")
        os.chmod(work, 0o777)  # cases run as nobody must enter it
        try:
            problems, output = check(Context(args, work), case)
        finally:
            subprocess.run(["chmod", "-R", "u+rwX", work])
            shutil.rmtree(work, ignore_errors=True)
        status = "FAIL" if problems else "ok"
        print("%-4s %s" % (status, case["name"]))
        if problems or args.verbose:
            for problem in problems:
                print("     - " + problem)
            print("     | " + output.strip().replace("\n", "\n     | "))
        if problems:
            failed.append(case["name"])
    for s in skipped:
        print("skip %s" % s)
    print("%s: %d cases, %d failed, %d skipped" % (args.group, len(cases), len(failed), len(skipped)))
    if failed:
        print("failed: " + ", ".join(failed))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
