"""The cases of the bad-input campaign (run_cases.py), by group. A case is a dict:

    name      unique, CamelCase
    deck      text (or bytes) written to DECK, or absent
    args      yeex's arguments; DECK, OUT (the output folder), DIR (the case's folder) and SRC
              (the source tree) are replaced
    exit      the expected exit code
    message   a regular expression the output (stdout and stderr) must match: the cause, named
    setup     functions of the run's context, run before it (an earlier run in OUT, modes...)
    wrap      a shell prefix (ulimit, trap); stdout: where stdout goes; as_nobody: run as nobody
    signal    sent once the run's staging folder exists
    after     "killed" (SIGKILL: the staging folder stays, and a run of `rerun` must remove it),
              "rerun" (a staging folder may stay: a run of `rerun` must succeed and leave none) or
              "complete" (the run completed, a later step failed)
    mpi       run under mpiexec with 2 ranks
    skip      a function giving why the case cannot run here, or ""
"""
import os
import shutil
import subprocess

GOOD = """[grid]
cells = [10, 10, 10]
cell_size = [1e-3, 1e-3, 1e-3]
[time]
steps = 5
"""

FULL = """title = "campaign"
[grid]
cells = [12, 12, 12]
cell_size = [1e-3, 1e-3, 1e-3]
[time]
steps = 6
courant = 0.9
[boundary]
all = "pec"
[[material]]
name = "glass"
eps_r = 4.0
sigma = 0.0
mu_r = 1.0
[[geometry]]
shape = "box"
material = "glass"
lower = [0.002, 0.002, 0.002]
upper = [0.005, 0.005, 0.005]
[[source]]
type = "hertzian_dipole"
name = "tx"
polarisation = "z"
position = [0.006, 0.006, 0.006]
waveform = "ricker"
amplitude = 1.0
frequency = 1e10
[[probe]]
name = "rx"
position = [0.008, 0.006, 0.006]
components = ["Ez", "Hy"]
[[snapshot]]
name = "ez"
components = ["Ez"]
every = 3
plane = { axis = "z", position = 0.006 }
"""

RUN = ["run", "DECK", "--engine", "host", "--quiet", "--output", "OUT"]
LONG = GOOD.replace("steps = 5", "steps = 100000000")


def edited(old, new, deck=FULL):
    assert old in deck, old
    return deck.replace(old, new, 1)


def deck_case(name, deck, message, exit_code=2, args=None):
    return {"name": name, "deck": deck, "args": args or RUN, "exit": exit_code, "message": message}


def not_root_or_no_setpriv():
    if os.geteuid() != 0:
        return ""  # permissions hold for this user as they are
    return "" if shutil.which("setpriv") else "root without setpriv: permissions do not stop root"


def earlier_run(ctx):
    """A complete earlier run in OUT, for cases that must leave it as it was."""
    with open(ctx.deck) as f:
        deck = f.read()
    good = os.path.join(ctx.work, "earlier.toml")
    with open(good, "w") as f:
        f.write(FULL)
    r = subprocess.run([ctx.args.yeex, "run", good, "--engine", "host", "--quiet", "--output", ctx.out],
                       stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
    assert r.returncode == 0, r.stdout.decode()
    with open(ctx.deck, "w") as f:
        f.write(deck)


def for_nobody(ctx):
    """nobody may read the deck (and the folders above the case's folder are open to all)."""
    os.chmod(ctx.deck, 0o644) if os.path.exists(ctx.deck) else None


def decks():
    c = []
    # Malformed TOML.
    for name, text in [
        ("UnclosedTable", "[grid\ncells = [1, 2, 3]\n"),
        ("MissingValue", "[grid]\ncells =\n"),
        ("DuplicateKey", GOOD + "[time]\nsteps = 6\n"),
        ("DuplicateKeyInTable", GOOD.replace("steps = 5", "steps = 5\nsteps = 6")),
        ("UnterminatedString", 'title = "campaign\n' + GOOD),
        ("BadEscape", 'title = "a\\qb"\n' + GOOD),
        ("BadNumber", GOOD.replace("steps = 5", "steps = 5e")),
        ("UnclosedArray", GOOD.replace("cells = [10, 10, 10]", "cells = [10, 10, 10")),
        ("BareWord", GOOD.replace("steps = 5", "steps = five")),
        ("KeyWithoutEquals", GOOD + "courant 0.9\n"),
        ("TableArrayClash", GOOD + "[[grid]]\ncells = [1, 1, 1]\n"),
        ("InlineTableTrailingComma", FULL.replace('plane = { axis = "z", position = 0.006 }',
                                                  'plane = { axis = "z", position = 0.006, }')),
        ("LeadingZeroInteger", GOOD.replace("steps = 5", "steps = 05")),
    ]:
        c.append(deck_case("Toml" + name, text, r"error in deck.*(TOML|syntax|parse|expected|duplicate|redefin)"))
    c.append(deck_case("EmptyFile", "", r"error in deck.*grid"))
    c.append(deck_case("OnlyWhitespace", "  \n\t\n", r"error in deck.*grid"))
    c.append(deck_case("OnlyComments", "# nothing here\n", r"error in deck.*grid"))
    c.append(deck_case("BinaryGarbage", bytes(range(256)) * 8, r"error in deck"))
    c.append(deck_case("NulBytes", b"[grid]\x00\x00cells = [1,1,1]\n", r"error in deck"))
    c.append(deck_case("Utf16Deck", GOOD.encode("utf-16"), r"error in deck"))
    c.append(deck_case("InvalidUtf8InString", b'title = "\xff\xfe"\n' + GOOD.encode(), r"error in deck"))
    c.append(deck_case("ElfBinaryAsDeck", open("/bin/true", "rb").read()[:4096], r"error in deck"))
    c.append({"name": "MissingDeck", "args": ["run", "DIR/none.toml", "--output", "OUT"], "exit": 2,
              "message": r"none\.toml"})
    c.append({"name": "DeckIsAFolder", "args": ["run", "DIR", "--output", "OUT"], "exit": 2,
              "message": r"(folder|directory|not a file|File does not exist)"})
    c.append({"name": "DeckIsDevNull", "args": ["run", "/dev/null", "--output", "OUT"], "exit": 2,
              "message": r"(error in deck|not a (regular )?file|grid)"})
    c.append({"name": "UnreadableDeck", "deck": GOOD, "setup": [lambda ctx: os.chmod(ctx.deck, 0)],
              "as_nobody": os.geteuid() == 0, "skip": not_root_or_no_setpriv,
              "args": RUN, "exit": 2, "message": r"(Permission denied|cannot (be )?read)"})
    # Wrong types.
    for name, old, new, key in [
        ("CellsString", "cells = [12, 12, 12]", 'cells = "12"', "grid.cells"),
        ("CellsTwo", "cells = [12, 12, 12]", "cells = [12, 12]", "grid.cells"),
        ("CellsFour", "cells = [12, 12, 12]", "cells = [12, 12, 12, 12]", "grid.cells"),
        ("CellsFraction", "cells = [12, 12, 12]", "cells = [12.5, 12, 12]", "grid.cells"),
        ("CellsBool", "cells = [12, 12, 12]", "cells = [true, 12, 12]", "grid.cells"),
        ("CellSizeString", "cell_size = [1e-3, 1e-3, 1e-3]", 'cell_size = "1mm"', "grid.cell_size"),
        ("CellSizeNested", "cell_size = [1e-3, 1e-3, 1e-3]", "cell_size = [[1e-3], 1e-3, 1e-3]", "grid.cell_size"),
        ("StepsFraction", "steps = 6", "steps = 6.5", "time.steps"),
        ("StepsString", "steps = 6", 'steps = "6"', "time.steps"),
        ("CourantString", "courant = 0.9", 'courant = "0.9"', "time.courant"),
        ("TitleNumber", 'title = "campaign"', "title = 3", "title"),
        ("BoundaryNumber", 'all = "pec"', "all = 5", "boundary.all"),
        ("BoundaryUnknown", 'all = "pec"', 'all = "mirror"', "boundary.all"),
        ("EpsString", "eps_r = 4.0", 'eps_r = "4"', "eps_r"),
        ("MaterialNameNumber", 'name = "glass"', "name = 7", "name"),
        ("ShapeUnknown", 'shape = "box"', 'shape = "torus"', "shape"),
        ("GeometryMaterialUnknown", 'material = "glass"', 'material = "unobtainium"', "unobtainium"),
        ("SourceTypeUnknown", 'type = "hertzian_dipole"', 'type = "laser"', "type"),
        ("PolarisationUnknown", 'polarisation = "z"', 'polarisation = "w"', "polarisation"),
        ("WaveformUnknown", 'waveform = "ricker"', 'waveform = "square"', "waveform"),
        ("PositionTwo", "position = [0.006, 0.006, 0.006]", "position = [0.006, 0.006]", "position"),
        ("ProbeComponentsString", 'components = ["Ez", "Hy"]', 'components = "Ez"', "components"),
        ("ProbeComponentUnknown", 'components = ["Ez", "Hy"]', 'components = ["Qz"]', "components"),
        ("ProbeComponentsEmpty", 'components = ["Ez", "Hy"]', "components = []", "components"),
        ("SnapshotEveryString", "every = 3", 'every = "3"', "every"),
        ("SnapshotPlaneAxis", 'plane = { axis = "z"', 'plane = { axis = "q"', "axis"),
        ("SnapshotPlaneNotTable", 'plane = { axis = "z", position = 0.006 }', 'plane = "z"', "plane"),
        ("GridNotTable", "[grid]\ncells = [12, 12, 12]\ncell_size = [1e-3, 1e-3, 1e-3]\n",
         'grid = "big"\n', "grid"),
        ("ProbeNotArrayOfTables", '[[probe]]\nname = "rx"', '[probe]\nname = "rx"', "probe"),
    ]:
        c.append(deck_case("Type" + name, edited(old, new), r"error in deck.*" + key))
    # Unknown keys.
    for name, old, new, key in [
        ("TopLevel", 'title = "campaign"', 'title = "campaign"\ncolour = "red"', "colour"),
        ("InGrid", "cells = [12, 12, 12]", "cells = [12, 12, 12]\ncels = 3", "cels"),
        ("InTime", "courant = 0.9", "courant = 0.9\ndt = 1e-12", "dt"),
        ("InBoundary", 'all = "pec"', 'all = "pec"\nnorth = "pec"', "north"),
        ("InMaterial", "mu_r = 1.0", "mu_r = 1.0\nloss = 0.1", "loss"),
        ("InGeometry", 'shape = "box"', 'shape = "box"\ncolour = 1', "colour"),
        ("InSource", "amplitude = 1.0", "amplitude = 1.0\nphase = 0", "phase"),
        ("InProbe", 'name = "rx"', 'name = "rx"\nevery = 2', "every"),
        ("InSnapshot", "every = 3", "every = 3\nformat = \"vtk\"", "format"),
        ("MisspeltTable", "[boundary]", "[boundaries]", "boundaries"),
    ]:
        c.append(deck_case("Unknown" + name, edited(old, new), r"error in deck.*" + key))
    # Out of range.
    for name, old, new, key in [
        ("CellsZero", "cells = [12, 12, 12]", "cells = [0, 12, 12]", "grid.cells"),
        ("CellsNegative", "cells = [12, 12, 12]", "cells = [12, -12, 12]", "grid.cells"),
        ("CellsOverflow", "cells = [12, 12, 12]", "cells = [9223372036854775807, 2, 2]", "grid.cells"),
        ("CellsProductOverflow", "cells = [12, 12, 12]", "cells = [3000000, 3000000, 3000000]", "grid.cells"),
        ("CellSizeZero", "cell_size = [1e-3, 1e-3, 1e-3]", "cell_size = [0.0, 1e-3, 1e-3]", "grid.cell_size"),
        ("CellSizeNegative", "cell_size = [1e-3, 1e-3, 1e-3]", "cell_size = [1e-3, -1e-3, 1e-3]", "grid.cell_size"),
        ("CellSizeTiny", "cell_size = [1e-3, 1e-3, 1e-3]", "cell_size = [1e-300, 1e-3, 1e-3]", "grid.cell_size|time"),
        ("StepsZero", "steps = 6", "steps = 0", "time.steps"),
        ("StepsNegative", "steps = 6", "steps = -6", "time.steps"),
        ("StepsHuge", "steps = 6", "steps = 1000000000000", "time.steps"),
        ("StepsAndDuration", "steps = 6", "steps = 6\nduration = 1e-9", "duration"),
        ("DurationNegative", "steps = 6", "duration = -1e-9", "time.duration"),
        ("DurationZero", "steps = 6", "duration = 0.0", "time.duration"),
        ("DurationHuge", "steps = 6", "duration = 1e10", "time.duration|steps"),
        ("CourantZero", "courant = 0.9", "courant = 0.0", "time.courant"),
        ("CourantNegative", "courant = 0.9", "courant = -0.5", "time.courant"),
        ("CourantUnstable", "courant = 0.9", "courant = 1.01", "time.courant"),
        ("CourantFar", "courant = 0.9", "courant = 100.0", "time.courant"),
        ("EpsZero", "eps_r = 4.0", "eps_r = 0.0", "eps_r"),
        ("EpsNegative", "eps_r = 4.0", "eps_r = -4.0", "eps_r"),
        ("SigmaNegative", "sigma = 0.0", "sigma = -1.0", "sigma"),
        ("MuZero", "mu_r = 1.0", "mu_r = 0.0", "mu_r"),
        ("FrequencyZero", "frequency = 1e10", "frequency = 0.0", "frequency"),
        ("FrequencyNegative", "frequency = 1e10", "frequency = -1e10", "frequency"),
        ("FrequencyUnresolved", "frequency = 1e10", "frequency = 1e13", "frequency|resol|cells per"),
        ("SourceOutside", "position = [0.006, 0.006, 0.006]", "position = [0.5, 0.006, 0.006]", "position"),
        ("SourceNegative", "position = [0.006, 0.006, 0.006]", "position = [-0.001, 0.006, 0.006]", "position"),
        ("ProbeOutside", "position = [0.008, 0.006, 0.006]", "position = [0.008, 0.006, 0.5]", "position"),
        ("BoxInverted", "lower = [0.002, 0.002, 0.002]", "lower = [0.009, 0.002, 0.002]", "lower|upper"),
        ("BoxOutside", "upper = [0.005, 0.005, 0.005]", "upper = [0.005, 0.005, 5.0]", "upper"),
        ("SnapshotEveryZero", "every = 3", "every = 0", "every"),
        ("SnapshotEveryNegative", "every = 3", "every = -3", "every"),
        ("SnapshotPlaneOutside", "position = 0.006 }", "position = 0.5 }", "position"),
        ("CpmlThickerThanGrid", 'all = "pec"', 'all = "cpml"\n[boundary.cpml]\ncells = 8', "cpml"),
        ("CpmlCellsZero", 'all = "pec"', 'all = "cpml"\n[boundary.cpml]\ncells = 0', "cpml"),
        ("HugeGrid", "cells = [12, 12, 12]", "cells = [100000, 100000, 100000]", "grid.cells|GiB"),
        ("GridBeyondMemory", "cells = [12, 12, 12]", "cells = [6000, 6000, 6000]", "GiB|grid.cells"),
    ]:
        c.append(deck_case("Range" + name, edited(old, new), r"(error in deck.*)?(" + key + ")"))
    # Not finite.
    for key, old in [("grid.cell_size", "cell_size = [1e-3, 1e-3, 1e-3]"), ("time.courant", "courant = 0.9"),
                     ("eps_r", "eps_r = 4.0"), ("sigma", "sigma = 0.0"), ("mu_r", "mu_r = 1.0"),
                     ("frequency", "frequency = 1e10"), ("amplitude", "amplitude = 1.0"),
                     ("position", "position = [0.006, 0.006, 0.006]"), ("lower", "lower = [0.002, 0.002, 0.002]")]:
        for value in ("nan", "inf", "-inf"):
            name, _, rest = old.partition(" = ")
            new = name + " = " + (rest.replace(rest.strip("[]").split(",")[0], value, 1) if rest.startswith("[")
                                  else value)
            label = key.split(".")[-1].title().replace("_", "") + {"nan": "Nan", "inf": "Inf", "-inf": "MinusInf"}[value]
            c.append(deck_case("NotFinite" + label, edited(old, new), r"error in deck.*" + key))
    c.append(deck_case("DurationNan", edited("steps = 6", "duration = nan"), r"error in deck.*time.duration"))
    # Names.
    two_probes = FULL + '[[probe]]\nname = "rx"\nposition = [0.004, 0.006, 0.006]\n'
    c.append(deck_case("DuplicateProbeName", two_probes, r"error in deck.*(probe.*name|rx)"))
    c.append(deck_case("DuplicateMaterial", edited("[[geometry]]", '[[material]]\nname = "glass"\neps_r = 2.0\n[[geometry]]'),
                       r"error in deck.*(material|glass)"))
    c.append(deck_case("ProbeNameWithSlash", edited('name = "rx"', 'name = "a/b"'), r"error in deck.*name"))
    c.append(deck_case("ProbeNameEmpty", edited('name = "rx"', 'name = ""'), r"error in deck.*name"))
    c.append(deck_case("SnapshotNameWithSlash", edited('name = "ez"', 'name = "../ez"'), r"error in deck.*name"))
    c.append(deck_case("SnapshotNamedProbes", edited('name = "ez"', 'name = "probes"'), r"error in deck.*name"))
    c.append(deck_case("SnapshotNameEmpty", edited('name = "ez"', 'name = ""'), r"error in deck.*name"))
    c.append(deck_case("TwoSnapshotsOneName", FULL + '[[snapshot]]\nname = "ez"\ncomponents = ["Hx"]\nevery = 2\n',
                       r"error in deck.*(snapshot.*name|ez)"))
    c.append(deck_case("OutputDirectoryEmpty", FULL + '[output]\ndirectory = ""\n', r"error in deck.*output.directory",
                       args=["run", "DECK", "--engine", "host", "--quiet"]))
    c.append(deck_case("SourceInPec", edited('material = "glass"', 'material = "pec"').replace(
        "position = [0.006, 0.006, 0.006]", "position = [0.003, 0.003, 0.003]"), r"PEC"))
    # Dispersive materials: each pole's keys and ranges, the time step's resolution, a source inside.
    debye = 'poles = [{ type = "debye", delta_eps = 3.0, tau = 1e-11 }]'
    for name, poles, message in [
        ("PoleTypeUnknown", 'poles = [{ type = "cole", delta_eps = 3.0, tau = 1e-11 }]', r"material\[0\].poles\[0\].type"),
        ("PoleMissingTau", 'poles = [{ type = "debye", delta_eps = 3.0 }]', r"poles\[0\].tau.*missing"),
        ("PoleKeyOfAnotherKind", 'poles = [{ type = "debye", delta_eps = 3.0, tau = 1e-11, gamma = 1e9 }]', r"gamma"),
        ("PoleNegativeDelta", 'poles = [{ type = "debye", delta_eps = -3.0, tau = 1e-11 }]', r"delta_eps"),
        ("PoleTauUnresolved", 'poles = [{ type = "debye", delta_eps = 3.0, tau = 1e-13 }]',
         r"poles\[0\].*tau = 1e-13 s is shorter than the time step resolves"),
        ("PoleDrudeDampingUnresolved", 'poles = [{ type = "drude", omega = 1e12, gamma = 1e13 }]', r"gamma = 1e\+13"),
        ("PoleLorentzResonanceUnresolved", 'poles = [{ type = "lorentz", delta_eps = 1.0, omega = 1e13, gamma = 0 }]',
         r"resonance"),
        ("PolesEmpty", "poles = []", r"poles.*empty"),
        ("PolesFive", "poles = [" + ", ".join(['{ type = "debye", delta_eps = 1.0, tau = 1e-11 }'] * 5) + "]",
         r"poles.*limit of 4"),
        ("PolesNotArray", 'poles = "debye"', r"poles"),
        ("PeplinskiWithEps", 'peplinski = { sand = 0.5, clay = 0.5, bulk_density = 2.0, sand_density = 2.66, water = 0.1 }',
         r"peplinski soil sets eps_r"),
        ("PoleSourceInside", debye, r"dispersive material \"glass\""),
    ]:
        deck = edited("mu_r = 1.0", "mu_r = 1.0\n" + poles)
        if name == "PoleSourceInside":
            deck = deck.replace("position = [0.006, 0.006, 0.006]", "position = [0.003, 0.003, 0.003]")
        c.append(deck_case(name, deck, r"error in deck.*" + message if name != "PoleSourceInside" else message))
    soil = '[[material]]\nname = "soil"\npeplinski = { sand = 0.7, clay = 0.5, bulk_density = 2.0, sand_density = 2.66, water = 0.1 }\n'
    c.append(deck_case("PeplinskiFractionsAboveOne", edited("[[geometry]]", soil + "[[geometry]]"), r"sand \+ clay"))
    c.append(deck_case("PeplinskiDenseBulk", edited("[[geometry]]", soil.replace("0.7", "0.5").replace(
        "bulk_density = 2.0", "bulk_density = 2.7") + "[[geometry]]"), r"bulk_density"))
    # Plane waves: E along the direction, a box on the grid's face, a box surface through the glass.
    wave = ('[[plane_wave]]\ndirection = [1.0, 0.0, 0.0]\npolarisation = [0.0, 0.0, 1.0]\nwaveform = "ricker"\n'
            'frequency = 20e9\nlower = [0.006, 0.006, 0.006]\nupper = [0.010, 0.010, 0.010]\n')
    for name, old, new, message in [
        ("PlaneWavePolarisationAlongDirection", "polarisation = [0.0, 0.0, 1.0]", "polarisation = [1.0, 1.0, 0.0]",
         r"plane_wave\[0\]\.polarisation.*perpendicular"),
        ("PlaneWaveBoxOnGridFace", "lower = [0.006, 0.006, 0.006]", "lower = [0.0, 0.006, 0.006]",
         r"plane_wave\[0\]\.lower.*strictly inside"),
        ("PlaneWaveBoxThroughObject", "lower = [0.006, 0.006, 0.006]", "lower = [0.004, 0.004, 0.004]",
         r"plane_wave\[0\].*one material"),
    ]:
        c.append(deck_case(name, FULL + wave.replace(old, new), r"error in deck.*" + message))
    return c


def cli():
    c = []
    bad = {
        "--engine": ["warp", "", "HOST"],
        "--exchange": ["carrier-pigeon", ""],
        "--gpus": ["0", "-1", "abc", "1.5"],
        "--devices": ["a", "1,,2", "-1", ",", ""],
        "--subdomains": ["0", "-2", "abc", "99999999999"],
        "--halo-depth": ["0", "65", "x"],
        "--precision": ["f16", "", "double"],
        "--steps": ["0", "-5", "abc", "1e3", "1500000000", ""],
        "--output": [""],
        "--check-every": ["0", "-1", "many"],
        "--arena-unit": ["3M", ""],
        "--coop-form": ["folded"],
        "--graph-steps": ["0", "abc", "2000000"],
        "--b2r-transport": ["pigeons"],
    }
    for option, values in bad.items():
        for i, value in enumerate(values):
            label = option.strip("-").title().replace("-", "") + str(i)
            c.append({"name": "Run" + label, "deck": GOOD,
                      "args": ["run", "DECK", "--engine", "host", "--output", "OUT", option, value]
                      if option != "--engine" else ["run", "DECK", "--output", "OUT", option, value],
                      "exit": 2, "message": option + r"|" + (r"'.*' is not|must|empty" if value else "empty")})
    for name, args, message in [
        ("UnknownOption", ["run", "DECK", "--frob"], r"--frob"),
        ("UnknownCommand", ["runn"], r"unknown command 'runn'"),
        ("NoCommand", [], r"(command|subcommand)"),
        ("OptionMissingValue", ["run", "DECK", "--output", "OUT", "--steps"], r"--steps"),
        ("TwoDecks", ["run", "DECK", "DECK", "--output", "OUT"], r"(DECK|argument|extra)"),
        ("GpusAndDevices", ["run", "DECK", "--output", "OUT", "--gpus", "1", "--devices", "0"], r"--gpus|--devices"),
        ("GpusOnHostEngine", ["run", "DECK", "--engine", "host", "--gpus", "2", "--output", "OUT"], r"--gpus"),
        ("NoPeerOnHost", ["run", "DECK", "--engine", "host", "--no-peer", "--output", "OUT"], r"--no-peer"),
        ("GpuBackendOnHost", ["run", "DECK", "--engine", "host", "--subdomains", "2", "--exchange", "p2p",
                              "--output", "OUT"], r"cuda engine"),
        ("MoreSlabsThanPlanes", ["run", "DECK", "--engine", "host", "--subdomains", "20", "--output", "OUT"],
         r"cannot be split"),
        ("HaloDeeperThanSlab", ["run", "DECK", "--engine", "host", "--subdomains", "4", "--exchange", "b2r",
                                "--halo-depth", "3", "--output", "OUT"], r"halo depth"),
        ("B2rWithoutDepth", ["run", "DECK", "--engine", "host", "--subdomains", "2", "--exchange", "b2r",
                             "--output", "OUT"], r"--halo-depth"),
        ("OversubscribeWithoutMpirun", ["run", "DECK", "--engine", "host", "--oversubscribe-gpus", "--output", "OUT"],
         r"--oversubscribe-gpus"),
        ("ForceWithAValue", ["run", "DECK", "--force=maybe", "--output", "OUT"], r"--force"),
        ("BenchSizeTooSmall", ["bench", "--engine", "host", "--size", "7"], r"--size"),
        ("BenchRepeatsZero", ["bench", "--engine", "host", "--repeats", "0"], r"--repeats"),
        ("BenchCountsZero", ["bench", "--engine", "host", "--counts", "0"], r"--counts"),
        ("BenchCountsEmptyElement", ["bench", "--engine", "host", "--counts", "1,,2"], r"--counts"),
        ("BenchScaling", ["bench", "--engine", "host", "--scaling", "sideways"], r"--scaling"),
        ("BenchUnknownExchange", ["bench", "--engine", "host", "--size", "8", "--exchanges", "bogus"], r"bogus"),
        ("BenchMissingDeck", ["bench", "--engine", "host", "--deck", "DIR/none.toml"], r"none\.toml"),
        ("BenchJsonIntoAFolder", ["bench", "--engine", "host", "--size", "8", "--json", "DIR"], r"--json"),
        ("BenchJsonEmpty", ["bench", "--engine", "host", "--json", ""], r"--json"),
        ("BenchCpmlWithDeck", ["bench", "--engine", "host", "--deck", "DECK", "--cpml", "4"], r"--cpml|--deck"),
        ("BenchWarmupNegative", ["bench", "--engine", "host", "--warmup", "-1"], r"--warmup"),
        ("ValidateOnlyUnknown", ["validate", "--engine", "host", "--only", "bogus"], r"bogus"),
        ("ValidatePrecision", ["validate", "--engine", "host", "--precision", "f16"], r"--precision"),
        ("ValidateJsonIntoAFolder", ["validate", "--engine", "host", "--quick", "--json", "DIR"], r"--json"),
        ("ExchangesBadEngine", ["exchanges", "--engine", "warp"], r"--engine"),
    ]:
        c.append({"name": name, "deck": GOOD, "args": args, "exit": 2, "message": message})
    return c


def filesystem():
    c = []
    c.append({"name": "OutputUnderAFile", "deck": GOOD, "args": RUN[:-1] + ["DECK/out"], "exit": 2,
              "message": r"not a folder"})
    c.append({"name": "OutputIsAFile", "deck": GOOD, "args": RUN[:-1] + ["DECK"], "exit": 2,
              "message": r"exists and is not a folder"})
    c.append({"name": "OutputDanglingLink", "deck": GOOD, "args": RUN,
              "setup": [lambda ctx: os.symlink(os.path.join(ctx.work, "nowhere"), ctx.out)], "exit": 2,
              "message": r"which does not exist"})
    c.append({"name": "OutputInProc", "deck": GOOD, "args": RUN[:-1] + ["/proc/yeex-out"], "exit": 2,
              "message": r"not writable"})
    c.append({"name": "OutputNameTooLong", "deck": GOOD, "args": RUN[:-1] + ["OUT/" + "x" * 300], "exit": 2,
              "message": r"bytes long"})
    c.append({"name": "OutputNameTooLongForStaging", "deck": GOOD, "args": RUN[:-1] + ["OUT/" + "x" * 250],
              "exit": 2, "message": r"staging folder"})
    c.append({"name": "EarlierRunWithoutForce", "deck": GOOD, "args": RUN, "setup": [earlier_run], "exit": 2,
              "message": r"holds the files of an earlier run.*--force"})
    c.append({"name": "ForeignFilesWithoutForce", "deck": GOOD, "args": RUN,
              "setup": [lambda ctx: (os.mkdir(ctx.out), open(os.path.join(ctx.out, "notes.txt"), "w").write("x"))],
              "exit": 2, "message": r"files yeex did not write \(notes.txt\)"})
    c.append({"name": "RunJsonIsAFolder", "deck": GOOD, "args": RUN,
              "setup": [lambda ctx: os.makedirs(os.path.join(ctx.out, "run.json"))], "exit": 2,
              "message": r"is a folder, where the run writes the file run.json"})
    # Permissions: root passes them, so these run as nobody.
    nobody = {"as_nobody": os.geteuid() == 0, "skip": not_root_or_no_setpriv}

    def read_only_parent(ctx):
        os.mkdir(os.path.join(ctx.work, "ro"))
        os.chmod(os.path.join(ctx.work, "ro"), 0o555)

    c.append(dict(nobody, name="ReadOnlyParent", deck=GOOD, args=RUN[:-1] + ["DIR/ro/out"], exit=2,
                  setup=[for_nobody, read_only_parent], message=r"not writable.*Permission denied"))

    def earlier_run_read_only_parent(ctx):
        earlier_run(ctx)
        subprocess.run(["chmod", "-R", "a+rwX", ctx.out])
        os.chmod(ctx.work, 0o555)

    c.append(dict(nobody, name="ForceInReadOnlyParent", deck=GOOD, args=RUN + ["--force"], exit=2,
                  setup=[for_nobody, earlier_run_read_only_parent], message=r"parent.*not writable"))

    def earlier_run_read_only(ctx):
        earlier_run(ctx)
        os.chmod(ctx.out, 0o555)

    c.append(dict(nobody, name="ForceIntoReadOnlyFolder", deck=GOOD, args=RUN + ["--force"], exit=2,
                  setup=[for_nobody, earlier_run_read_only], message=r"not writable.*Permission denied"))
    # A full disk: writes fail with EFBIG past the file size limit (SIGXFSZ ignored).
    for blocks in (1, 2, 4):
        c.append({"name": "FileSizeLimit%dKiB" % blocks, "deck": FULL, "args": RUN,
                  "wrap": "ulimit -f %d; trap '' XFSZ" % blocks, "exit": 1,
                  "message": r"run failed: .*(File too large|HDF5)"})
        c.append({"name": "FileSizeLimit%dKiBOverEarlierRun" % blocks, "deck": FULL, "args": RUN + ["--force"],
                  "setup": [earlier_run], "wrap": "ulimit -f %d; trap '' XFSZ" % blocks, "exit": 1,
                  "message": r"run failed: .*(File too large|HDF5)"})
    c.append({"name": "FileSizeLimitBigProbeFile", "deck": FULL.replace("steps = 6", "steps = 3000").replace(
        "every = 3", "every = 3000"), "args": RUN, "wrap": "ulimit -f 40; trap '' XFSZ", "exit": 1,
        "message": r"run failed: .*probes.h5.*File too large"})
    c.append({"name": "JsonToFullStdout", "deck": FULL, "args": RUN[:-3] + ["--json", "--output", "OUT"],
              "stdout": "/dev/full", "exit": 1, "message": r"standard output.*No space left on device"})
    c.append({"name": "JsonToFullStdoutOverEarlierRun", "deck": FULL, "setup": [earlier_run],
              "args": ["run", "DECK", "--engine", "host", "--json", "--force", "--output", "OUT"],
              "stdout": "/dev/full", "exit": 1, "message": r"standard output.*No space left on device"})
    c.append({"name": "SummaryToFullStdout", "deck": FULL, "args": ["run", "DECK", "--engine", "host", "--output",
                                                                    "OUT"],
              "stdout": "/dev/full", "exit": 1, "message": r"standard output.*No space left on device",
              "after": "complete"})
    c.append({"name": "DryRunToFullStdout", "deck": FULL, "args": ["run", "DECK", "--engine", "host", "--dry-run",
                                                                   "--output", "OUT"],
              "stdout": "/dev/full", "exit": 1, "message": r"standard output"})
    c.append({"name": "HelpToFullStdout", "args": ["--help"], "stdout": "/dev/full", "exit": 1,
              "message": r"standard output"})
    c.append({"name": "BenchJsonUnderFullLimit", "args": ["bench", "--engine", "host", "--size", "8", "--steps", "1",
                                                         "--warmup", "0", "--repeats", "1", "--json", "DIR/b.json"],
              "wrap": "ulimit -f 0; trap '' XFSZ", "exit": 1, "message": r"b\.json.*(File too large)"})
    c.append({"name": "BlowUp", "deck": open(os.path.join(os.path.dirname(__file__), "..", "..", "data",
                                                         "blow_up.toml")).read(),
              "args": RUN, "exit": 1, "message": r"blew up"})
    c.append({"name": "BlowUpOverEarlierRun", "deck": open(os.path.join(os.path.dirname(__file__), "..", "..",
                                                                       "data", "blow_up.toml")).read(),
              "setup": [earlier_run], "args": RUN + ["--force"], "exit": 1, "message": r"blew up"})
    return c


def signals():
    return [
        {"name": "SigintDuringRun", "deck": LONG, "args": RUN, "signal": "SIGINT", "exit": 130,
         "message": r"interrupted \(SIGINT\) after step"},
        {"name": "SigtermDuringRun", "deck": LONG, "args": RUN, "signal": "SIGTERM", "exit": 143,
         "message": r"interrupted \(SIGTERM\) after step"},
        {"name": "SigtermOverEarlierRun", "deck": LONG, "setup": [earlier_run], "args": RUN + ["--force"],
         "signal": "SIGTERM", "exit": 143, "message": r"interrupted \(SIGTERM\)"},
        {"name": "SigintInNewParents", "deck": LONG, "args": RUN[:-1] + ["DIR/a/b/out"], "signal": "SIGINT",
         "exit": 130, "message": r"interrupted", "setup": [lambda ctx: None]},
        {"name": "SigkillThenRerun", "deck": LONG, "args": RUN, "signal": "SIGKILL", "exit": -9,
         "message": r"", "after": "killed",
         "rerun": ["run", "DECK", "--engine", "host", "--steps", "2", "--output", "OUT"]},
    ]


def mpi():
    base = ["run", "DECK", "--engine", "host", "--quiet", "--output", "OUT"]
    return [dict(c, mpi=True) for c in [
        {"name": "MpiMalformedDeck", "deck": "[grid\n", "args": base, "exit": 2, "message": r"error in deck"},
        {"name": "MpiUnknownKey", "deck": GOOD + "colour = 1\n", "args": base, "exit": 2, "message": r"colour"},
        {"name": "MpiStepsZero", "deck": GOOD, "args": base + ["--steps", "0"], "exit": 2, "message": r"--steps"},
        {"name": "MpiUnknownExchange", "deck": GOOD, "args": base + ["--exchange", "x"], "exit": 2,
         "message": r"--exchange"},
        {"name": "MpiOutputUnderAFile", "deck": GOOD, "args": base[:-1] + ["DECK/out"], "exit": 2,
         "message": r"not a folder"},
        {"name": "MpiMissingDeck", "args": ["run", "DIR/none.toml", "--engine", "host", "--output", "OUT"], "exit": 2,
         "message": r"none\.toml"},
        {"name": "MpiEarlierRunWithoutForce", "deck": GOOD, "setup": [earlier_run], "args": base, "exit": 2,
         "message": r"earlier run"},
        # The rank that finds the blow-up calls MPI_Abort, which may end rank 0 before it removes
        # its staging folder: the next run into the folder must remove it.
        {"name": "MpiBlowUp", "deck": open(os.path.join(os.path.dirname(__file__), "..", "..", "data",
                                                       "blow_up.toml")).read(), "args": base, "exit": 1,
         "message": r"blew up", "after": "rerun",
         "rerun": ["run", "SRC/inputs/dipole_box.toml", "--engine", "host", "--steps", "2", "--quiet", "--output",
                   "OUT"]},
    ]]


GROUPS = {"decks": decks, "cli": cli, "filesystem": filesystem, "signals": signals, "mpi": mpi}
