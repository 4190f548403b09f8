"""Figure 5: start-up, whole-process wall time with hyperfine, and what loading costs."""

import json
import os
import re
import shlex
import shutil
import subprocess
import tempfile
from pathlib import Path

from .commands import entry
from .common import ROOT, env_with, log, run
from .daemon import write_alarms
from .probe import read_probe
from .processes import reap, spawn


def private_home(ctx, name, alarms=0):
    """A private XDG home for the benchmark's commands, with `alarms` standing alarms in it."""
    root = ctx["work"] / name
    env = {"XDG_CONFIG_HOME": root / "config", "XDG_STATE_HOME": root / "state", "XDG_RUNTIME_DIR": root / "run"}
    for d in env.values():
        d.mkdir(mode=0o700, parents=True, exist_ok=True)
    if alarms:
        write_alarms(root / "config" / "wake" / "alarms.toml", alarms, ctx["sounds"]["wav5"])
    return env


def hyperfine(ctx, command, runs, env=None):
    """Wall times in ms of `command` (no shell, warm caches; -i: a non-zero exit is by design)."""
    js = ctx["work"] / f"hyperfine-{abs(hash(command))}.json"
    run(["hyperfine", "-N", "-i", "--warmup", "3", "--runs", str(runs), "--export-json", str(js), command], env=env_with(**(env or {})))
    result = json.loads(js.read_text())["results"][0]
    return [t * 1000 for t in result["times"]], (result["user"] * 1000, result["system"] * 1000)


def doctor_cases(ctx):
    """`--figure doctor`'s commands: (name, argv), each with 20 standing alarms."""
    return [("wake doctor, 20 standing alarms", [ctx["wake"], "doctor"]), ("wake list, 20 standing alarms", [ctx["wake"], "list"])]


def fig_doctor(ctx, runs):
    """`--figure doctor`: `wake doctor` with 20 standing alarms (issue 39: under a second), beside
    `wake list` with the same alarms."""
    home = private_home(ctx, "doctor-xdg-20", alarms=20)
    return {name: hyperfine(ctx, shlex.join(str(x) for x in argv), runs, home)[0] for name, argv in doctor_cases(ctx)}


def startup_cases(ctx, runs, private=None, private20=None):
    """Figure 5's commands: (name, argv, runs, environment or None, standing alarms, how the listing
    checks it)."""
    wake, s = ctx["wake"], ctx["sounds"]
    return [
        ("wake --version", [wake, "--version"], runs * 2, None, 0, "run"),
        ("aplay --version", ["aplay", "--version"], runs * 2, None, 0, None),
        # No alarm anywhere: the files read and the control directory scanned, nothing to ask.
        ("wake list", [wake, "list"], runs * 2, private, 0, "run"),
        ("wake list, 20 standing alarms", [wake, "list"], runs * 2, private20, 20, "run"),
        # What a status bar runs every few seconds (issue 26): as quick as `wake list`, past the parser.
        ("wake next, 20 standing alarms", [wake, "next"], runs * 2, private20, 20, "run"),
        # Every check before a night (issue 39: under a second with 20 alarms): each file decoded and
        # each device opened once; no daemon, bus or server here, so those checks answer at once.
        ("wake doctor, 20 standing alarms", [wake, "doctor"], runs, private20, 20, "start"),
        # Nothing ringing: it looks for a ringing wake and says there is none.
        ("wake stop, nothing running", [wake, "stop"], runs * 2, private, 0, "start"),
        # What linking with `-z now` (the Debian package's hardening) costs: every symbol bound before
        # main rather than at its first call. LD_BIND_NOW=1 makes the dynamic linker do just that.
        ("wake --version, all symbols bound at start (LD_BIND_NOW=1, as `-z now`)", [wake, "--version"], runs * 2,
         {"LD_BIND_NOW": "1"}, 0, None),
        ("wake list, all symbols bound at start (LD_BIND_NOW=1)", [wake, "list"], runs * 2, {"LD_BIND_NOW": "1", **(private or {})},
         0, None),
        # Issue 55: a translation loaded (German), against the C locale's rows above: within 10 %.
        ("wake --version, LANGUAGE=de", [wake, "--version"], runs * 2, german(), 0, None),
        ("wake list, 20 standing alarms, LANGUAGE=de", [wake, "list"], runs * 2, {**german(), **(private20 or {})}, 0, None),
        ("wake 07:00 --dry-run (default sound)", dry_run(ctx), runs, None, 0, "run"),
        ("aplay -D null, 5 s WAV", ["aplay", "-q", "-D", "null", s["wav5"]], runs, None, 0, None),
        ("wake 07:00 --dry-run -s 10-min FLAC", dry_run(ctx, s["flac600"]), max(5, runs // 3), None, 0, "run"),
        ("flac -t, 10-min FLAC (decode, check)", ["flac", "-s", "-t", s["flac600"]], max(5, runs // 3), None, 0, None),
    ]


def german():
    """The environment that reads wake's German catalogue from the build tree (`make translations`)."""
    return {"LANG": "C.UTF-8", "LANGUAGE": "de", "WAKE_LOCALEDIR": ROOT / ".build-locale"}


def dry_run(ctx, sound=None):
    return [ctx["wake"], "07:00", "--dry-run", "-D", "null", *(["-s", sound] if sound else [])]


def wake_commands(ctx):
    return ([entry("5", argv, check, alarms=alarms) for _, argv, _, _, alarms, check in startup_cases(ctx, 1) if check]
            + [entry("doctor", argv, "start" if "doctor" in argv else "run", alarms=20) for _, argv in doctor_cases(ctx)])


def fig_startup(ctx, runs):
    """Whole-process wall time with hyperfine (no shell, warm caches)."""
    wake, s = ctx["wake"], ctx["sounds"]
    q = lambda *a: shlex.join(str(x) for x in a)
    private = private_home(ctx, "startup-xdg")
    # 20 standing alarms, as `wake add` writes them (what a status bar's `wake list` reads).
    private20 = private_home(ctx, "startup-xdg-20", alarms=20)
    cases = [(name, q(*argv), n, env) for name, argv, n, env, _, _ in startup_cases(ctx, runs, private, private20)]
    log(f"figure 5: start-up, hyperfine, {len(cases)} commands")
    out = {}
    for name, command, n, env in cases:
        out[name], cpu = hyperfine(ctx, command, n, env)
        out.setdefault("cpu", {})[name] = cpu
    # The findings: what a start costs wake and aplay (shared objects, page faults), and how much of a
    # dry run is libsndfile's SFC_SET_SCALE_FLOAT_INT_READ, timed by the probe.
    out["loading"] = {}
    for name, binary in [("wake", wake), ("aplay", shutil.which("aplay"))]:
        libs = [l.split()[0] for l in run(["ldd", binary]).splitlines() if "=>" in l or l.strip().startswith("/")]
        faults = tempfile.NamedTemporaryFile(prefix="time-", delete=False)
        faults.close()
        reap(spawn(["/usr/bin/time", "-f", "%R", "-o", faults.name, binary, "--version"]))
        stats = subprocess.run([binary, "--version"], env=env_with(LD_DEBUG="statistics"), stdout=subprocess.DEVNULL,
                               stderr=subprocess.PIPE, text=True).stderr
        relocs = [int(x) for x in re.findall(r"^\s*\d+:\s+number of (?:relative )?relocations: (\d+)", stats, re.M)[:2]]
        out["loading"][name] = {"objects": len(libs), "faults": int(Path(faults.name).read_text().split()[-1]),
                                "relocations": sum(relocs),
                                "names": [re.sub(r"\.so[.\d]*$", "", os.path.basename(l)) for l in libs
                                          if "vdso" not in l and "ld-linux" not in l]}
        os.unlink(faults.name)
    out["sf_command"] = {}
    for name, cmd in [("default sound", dry_run(ctx)), ("10-min FLAC", dry_run(ctx, s["flac600"]))]:
        probe_log = ctx["work"] / f"probe-dry-run-{len(out['sf_command'])}.log"
        reap(spawn(cmd, env=env_with(LD_PRELOAD=ctx["probe"], ALSA_PROBE_LOG=probe_log)))
        calls = [c for r in read_probe(probe_log).values() for c in r["sf_command"]]
        out["sf_command"][name] = sum(ns for cmd_, ns in calls if cmd_ == 0x1014) / 1e6
    return out
