#!/usr/bin/env python3
"""wake's benchmark (issue #6): how exactly it fires, how little it costs while it waits, how
lightly it rings, how much memory it takes, how fast it starts and stops, each against what a
Linux user would otherwise use, all in one run on one machine. Writes BENCHMARKS.md.

    make bench                      # installs what is missing, then runs this
    python3 Benchmarks/run.py       # the same, once the packages are there
    python3 Benchmarks/run.py --quick   # fewer repeats and a short window, for editing this file:
                                        # writes $TMPDIR/BENCHMARKS-quick.md, not BENCHMARKS.md

Everything runs headless on ALSA's `null` PCM. Standard library only.

How each figure is measured, the same way for every contestant:
- First frame: Benchmarks/alsa_probe.c, an LD_PRELOAD shim, stamps CLOCK_REALTIME when a
  program's first snd_pcm_write* call returns (and when it calls snd_pcm_open), and counts the
  frames every write accepted. It runs under wake, aplay, sox and mpv alike.
- CPU time of a running process: /proc/PID/task/*/schedstat (nanoseconds on a CPU, every thread);
  of a finished one: wait4()'s rusage. Wake-ups: voluntary + involuntary context switches from
  /proc/PID/task/*/status, every thread.
- Peak memory: `/usr/bin/time -f %M` for a program that ends by itself; VmHWM from
  /proc/PID/status just before the signal for one that is stopped (the same number: the
  kernel's high-water mark of resident memory). Not wait4()'s ru_maxrss in this script: a
  child of Python inherits the interpreter's own peak there when it execs.
- Start-up: hyperfine, without a shell (-N).
"""

import argparse
import array
import datetime
import glob
import heapq
import json
import os
import platform
import random
import re
import shlex
import shutil
import signal
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
BENCH = ROOT / "Benchmarks"
OUTPUT = ROOT / "BENCHMARKS.md"
SCRATCH = ROOT / ".build-bench"  # a release build of its own, apart from everyone's .build

# Debian packages this script runs (the Makefile's BENCH_PACKAGES installs the same).
PEER_PACKAGES = {"aplay": "alsa-utils", "sox": "sox", "mpv": "mpv", "hyperfine": "hyperfine", "flac": "flac",
                 "/usr/bin/time": "time", "strace": "strace", "pkg-config": "pkg-config", "pkill": "procps",
                 "pulseaudio": "pulseaudio", "pactl": "pulseaudio-utils", "parec": "pulseaudio-utils",
                 "paplay": "pulseaudio-utils"}
# Libraries, by a file each installs (a glob): ALSA's pulse plugin, and sox's PulseAudio output.
PEER_LIBRARIES = {"/usr/lib/*/alsa-lib/libasound_module_pcm_pulse.so": "libasound2-plugins",
                  "/usr/lib/*/sox/libsox_fmt_pulseaudio.so": "libsox-fmt-pulse"}

RATE = 44100  # every test sound: 44.1 kHz, stereo, 16-bit
STARTED = time.monotonic()


# ---------------------------------------------------------------------------------------------
# Small helpers


def log(msg):
    print(f"[{time.monotonic() - STARTED:6.1f}s] {msg}", file=sys.stderr, flush=True)


def run(cmd, **kw):
    """Runs a command to completion and returns its stdout; fails loudly."""
    r = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, **kw)
    if r.returncode != 0:
        raise SystemExit(f"failed ({r.returncode}): {shlex.join(map(str, cmd))}\n{r.stderr.strip()}")
    return r.stdout


def output_of(cmd):
    """First line of a command's output (stdout or stderr), or '?' if it cannot run."""
    try:
        r = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, timeout=10)
        return (r.stdout.strip().splitlines() or ["?"])[0]
    except (OSError, subprocess.TimeoutExpired):
        return "?"


def percentile(values, p):
    """Linear interpolation between closest ranks (p in 0..100)."""
    v = sorted(values)
    if not v:
        return float("nan")
    k = (len(v) - 1) * p / 100
    lo, hi = int(k), min(int(k) + 1, len(v) - 1)
    return v[lo] + (v[hi] - v[lo]) * (k - lo)


def median(values):
    return statistics.median(values) if values else float("nan")


SPAWNED = []  # every child, so that none outlives an interrupted run (see cleanup)


def spawn(cmd, env=None, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, session=False):
    """Starts a contestant: stdin is /dev/null and stdout is not a terminal, as at night.
    `session`: in a session of its own (its PID is the session's ID)."""
    p = subprocess.Popen([str(c) for c in cmd], stdin=subprocess.DEVNULL, stdout=stdout,
                         stderr=stderr, env=env, start_new_session=session)
    SPAWNED.append(p)
    return p


def cleanup():
    """Kills whatever this run started and is still running (a child of strace included)."""
    for p in SPAWNED:
        if p.returncode is None and p.poll() is None:
            try:
                with open(f"/proc/{p.pid}/task/{p.pid}/children") as f:
                    for pid in f.read().split():
                        os.kill(int(pid), signal.SIGKILL)
            except OSError:
                pass
            p.kill()
            p.wait()


def reap(proc):
    """Waits for a child with wait4(): returns (exit code, rusage). Reads its stderr first.
    A child that Popen reaped already (send_signal() and poll() reap one that has ended) has no
    rusage left: None then."""
    err = proc.stderr.read() if proc.stderr else b""
    proc.stderr_text = err.decode(errors="replace").strip()
    if proc.returncode is not None:
        return proc.returncode, None
    _, status, usage = os.wait4(proc.pid, 0)
    proc.returncode = os.waitstatus_to_exitcode(status)
    return proc.returncode, usage


def cpu_seconds(usage):
    return usage.ru_utime + usage.ru_stime


def read_status(path):
    status = {}
    with open(path) as f:
        for line in f:
            k, _, v = line.partition(":")
            status[k] = v.strip()
    return status


def sample(pid):
    """What a running process has cost so far: CPU ns, context switches (both summed over all its
    threads: /proc/PID/schedstat and /proc/PID/status count the main thread alone, and wake's sound
    is written by a worker thread, mpv's and the pulse plugin's by theirs), peak memory. A thread
    that ends between two samples takes its counts with it: the ringers here keep theirs."""
    cpu_ns = switches = 0
    for tid in os.listdir(f"/proc/{pid}/task"):
        try:
            with open(f"/proc/{pid}/task/{tid}/schedstat") as f:
                cpu = int(f.read().split()[0])
            st = read_status(f"/proc/{pid}/task/{tid}/status")
        except (FileNotFoundError, ProcessLookupError):
            continue  # ended just now
        cpu_ns += cpu
        switches += int(st["voluntary_ctxt_switches"]) + int(st["nonvoluntary_ctxt_switches"])
    status = read_status(f"/proc/{pid}/status")
    return {
        "t": time.monotonic_ns(),
        "cpu_ns": cpu_ns,
        "switches": switches,
        "threads": int(status.get("Threads", "1")),
        "hwm_kb": int(status.get("VmHWM", "0 kB").split()[0]),
    }


def env_with(**extra):
    e = dict(os.environ)
    e.pop("DBUS_SYSTEM_BUS_ADDRESS", None)
    e.update({k: str(v) for k, v in extra.items()})
    return e


def fmt(x, digits=2):
    if x is None or x != x:
        return "—"
    if abs(x) >= 100:
        return f"{x:,.0f}"
    return f"{x:.{digits}f}"


def ratio(wake, peer, digits=2):
    """wake ÷ peer, as text."""
    if wake is None or peer is None or wake != wake or peer != peer:
        return "—"
    if peer == 0:
        return "same (0)" if wake == 0 else "∞"
    r = wake / peer
    if r >= 100:
        return f"{r:,.0f}×"
    return f"{r:.{digits}f}×" if r >= 0.1 else f"{r:.2g}×"


def verdict(ok):
    return "**met**" if ok else "**MISSED**"


# ---------------------------------------------------------------------------------------------
# Setting up: packages, wake, the probe, the sounds


def ensure_packages():
    """Installs the peers from Debian's packages if any is missing (as `make bench` does)."""
    missing = sorted({pkg for tool, pkg in PEER_PACKAGES.items() if not shutil.which(tool)}
                     | {pkg for pattern, pkg in PEER_LIBRARIES.items() if not glob.glob(pattern)})
    if not missing:
        return
    sudo = [] if os.geteuid() == 0 else ["sudo"]
    log(f"installing {' '.join(missing)}")
    run(sudo + ["apt-get", "update", "-qq"])
    run(sudo + ["apt-get", "install", "-y", "-qq"] + missing, env=env_with(DEBIAN_FRONTEND="noninteractive"))


def swift_command():
    swift = os.environ.get("SWIFT") or shutil.which("swift") or "/opt/swift/usr/bin/swift"
    if not Path(swift).exists() and not shutil.which(swift):
        raise SystemExit("the benchmark needs a Swift 6 toolchain on PATH (swift.org/install)")
    return swift


def release_flags():
    """The flags `make release` builds the shipped binary with (the Makefile's RELEASE_FLAGS), so
    the benchmark measures what ships; plain `-c release --product wake` if there are none."""
    try:
        for line in (ROOT / "Makefile").read_text().splitlines():
            m = re.match(r"^RELEASE_FLAGS\s*:?=\s*(.*)$", line)
            if m and "$" not in m.group(1):
                return shlex.split(m.group(1))
    except OSError:
        pass
    return ["-c", "release", "--product", "wake"]


def build_wake():
    """A release build, as `make release` makes it, in its own scratch directory."""
    swift = swift_command()
    flags = release_flags()
    log(f"building wake: swift build {' '.join(flags)} --scratch-path .build-bench")
    # SwiftPM does not relink when only -Xswiftc flags change: start the products afresh then.
    stamp = SCRATCH / "benchmark-build-flags"
    bin_dir = run([swift, "build", *flags, "--scratch-path", str(SCRATCH), "--show-bin-path"], cwd=ROOT).strip()
    if not stamp.exists() or stamp.read_text() != " ".join(flags):
        shutil.rmtree(bin_dir, ignore_errors=True)
    cmd = [swift, "build", *flags, "--scratch-path", str(SCRATCH)]
    r = subprocess.run(cmd, cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    if r.returncode != 0:
        raise SystemExit(f"the release build failed:\n{r.stdout[-4000:]}")
    stamp.write_text(" ".join(flags))
    wake = Path(bin_dir) / "wake"
    if not wake.exists():
        raise SystemExit(f"no wake binary at {wake}")
    return wake


def build_probe(work):
    """Compiles the LD_PRELOAD probe with the system's C compiler, or the toolchain's clang."""
    swift = Path(shutil.which(swift_command()) or swift_command()).resolve()
    for cc in [os.environ.get("CC"), "cc", "gcc", "clang", str(swift.parent / "clang")]:
        if cc and shutil.which(cc):
            out = work / "alsa_probe.so"
            run([cc, "-O2", "-shared", "-fPIC", "-o", str(out), str(BENCH / "alsa_probe.c"), "-ldl"])
            return out
    raise SystemExit("no C compiler (cc, gcc or clang) to build Benchmarks/alsa_probe.c")


def make_sounds(work):
    """The test sounds, made by sox: a 5-second WAV, the same beeps for 10 minutes, and a 10-minute
    FLAC (all 44.1 kHz stereo S16)."""
    log("making test sounds with sox")
    s = {"wav5": work / "alarm-5s.wav", "flac600": work / "noise-10min.flac", "wav600": work / "alarm-10min.wav"}
    fmt_args = ["-r", str(RATE), "-c", "2", "-b", "16"]
    # Two tones an octave and a fifth apart, beeping four times a second: an alarm.
    run(["sox", "-n", *fmt_args, str(s["wav5"]), "synth", "5", "sine", "880", "sine", "1320",
         "tremolo", "4", "100", "vol", "0.5"])
    # The same beeps for ten minutes, for the throughput runs: one long file costs a player nothing
    # per file, where many copies of a short one would charge it a file's set-up every 5 seconds.
    run(["sox", str(s["wav5"]), str(s["wav600"]), "repeat", "119"])
    # Pink noise: about the hardest material for a FLAC decoder (little to predict).
    run(["sox", "-n", *fmt_args, str(s["flac600"]), "synth", "600", "pinknoise", "vol", "0.25"])
    return s


# ---------------------------------------------------------------------------------------------
# The probe's log


def read_probe(path):
    """{pid: {"open": [ns...], "firsts": [ns...], "first": ns, "frames": n, "rate": hz, "woke": [ns...],
    "sf_command": [(cmd, ns)...], "cards": [(start ns, ns)...]}} from alsa_probe's log (see alsa_probe.c)."""
    out = {}
    if not path.exists():
        return out
    for line in path.read_text().splitlines():
        p = line.split()
        if len(p) < 3:
            continue
        rec = out.setdefault(int(p[0]), {"open": [], "firsts": [], "first": None, "frames": 0, "rate": 0,
                                         "woke": [], "sf_command": [], "cards": []})
        if p[1] == "cards":
            rec["cards"].append((int(p[2]), int(p[3])))
        elif p[1] == "woke":
            rec["woke"].append(int(p[2]))
        elif p[1] == "sf_command":
            rec["sf_command"].append((int(p[3], 16), int(p[4])))
        elif p[1] == "open":
            rec["open"].append(int(p[2]))
        elif p[1] == "first":  # one per snd_pcm_open that was written to; "first" is the last open's
            rec["firsts"].append(int(p[2]))
            rec["first"] = int(p[2])
            rec["rate"] = int(p[3])
        elif p[1] == "frames":
            rec["frames"] = int(p[3])
            rec["rate"] = int(p[4]) or rec["rate"]
    return out


# ---------------------------------------------------------------------------------------------
# Figure 1: firing precision


def fig_firing(ctx, count):
    """`count` alarms per contestant, each set a few seconds ahead for a whole second.

    The contestants take turns, one deadline per second, so no two fire together. Each is started
    3.1 to 3.9 s before its deadline (a random moment, as a person would), never within 0.1 s of
    anyone's deadline. The recipes are what a shell user writes: the wait in whole seconds from
    `date +%s`, or the exact remaining time to the microsecond (the best a shell can do).
    """
    wake, wav = ctx["wake"], ctx["sounds"]["wav5"]
    work = ctx["work"] / "firing"
    work.mkdir()
    probe_log = work / "probe.log"
    env = env_with(LD_PRELOAD=ctx["probe"], ALSA_PROBE_LOG=probe_log)
    aplay = f"exec aplay -q -D null {shlex.quote(str(wav))}"
    recipes = {
        "wake": None,
        "sleep N; aplay (N in whole seconds)": 'sleep $(( {d} - $(date +%s) )); ' + aplay,
        # bash's $EPOCHREALTIME and integer arithmetic are built in: nothing runs between reading the
        # clock and starting sleep but sleep's own exec.
        "sleep N; aplay (N to the microsecond)":
            'us=$(( {d}000000 - ${{EPOCHREALTIME//[^0-9]/}} )); printf -v t %d.%06d $((us / 1000000)) $((us % 1000000)); '
            'sleep $t; ' + aplay,
    }
    names = list(recipes)
    first = int(time.time()) + 6
    plan = []  # (deadline, contestant)
    for i in range(count):
        for j, name in enumerate(names[i % 3:] + names[:i % 3]):
            plan.append((first + len(plan), name))
    log(f"figure 1: {len(plan)} alarms, one a second, ~{len(plan) + 8} s")
    procs = []
    for deadline, name in plan:
        launch = deadline - 3 - random.uniform(0.1, 0.9)
        time.sleep(max(0, launch - time.time()))
        if name == "wake":
            events = work / f"events-{deadline}.jsonl"
            hhmmss = time.strftime("%H:%M:%S", time.localtime(deadline))
            cmd = [wake, hhmmss, "-D", "null", "-s", wav, "--inhibit", "off", "--events", events,
                   "--ring-for", "500ms", "-q"]
        else:
            events = None
            cmd = ["bash", "-c", recipes[name].format(d=deadline)]
        procs.append((deadline, name, events, spawn(cmd, env=env)))
    failures = []
    for deadline, name, events, p in procs:
        code, _ = reap(p)
        if code != (4 if name == "wake" else 0):
            failures.append(f"{name} at {deadline}: exit {code}: {p.stderr_text[:200]}")
    probe = read_probe(probe_log)
    results = {n: {"first_ms": [], "open_ms": [], "late_ms": [], "phases": []} for n in names}
    for deadline, name, events, p in procs:
        rec = probe.get(p.pid)
        if not rec or rec["first"] is None:
            failures.append(f"{name} at {deadline}: the probe saw no audio written")
            continue
        d_ns = deadline * 1_000_000_000
        if rec["first"] < d_ns - 100_000_000:
            failures.append(f"{name} at {deadline}: first frame {(d_ns - rec['first']) / 1e6:.0f} ms before the deadline")
            continue
        results[name]["first_ms"].append((rec["first"] - d_ns) / 1e6)
        opens = [t for t in rec["open"] if t <= rec["first"]]
        results[name]["open_ms"].append((opens[-1] - d_ns) / 1e6)
        woke = [t for t in rec["woke"] if d_ns - 100_000_000 <= t <= rec["first"]]
        if woke:  # wake only: the moment its deadline timer's poll() returned
            cards = sum(ns for t, ns in rec["cards"] if woke[-1] <= t <= opens[-1])
            results[name]["phases"].append(((woke[-1] - d_ns) / 1e6, (opens[-1] - woke[-1]) / 1e6,
                                            (rec["first"] - opens[-1]) / 1e6, cards / 1e6))
        if events:
            for line in events.read_text().splitlines():
                e = json.loads(line)
                if e["event"] == "ringing":
                    results[name]["late_ms"].append(e["late_ms"])
    return {"names": names, "results": results, "failures": failures}


# ---------------------------------------------------------------------------------------------
# Figures 2 and 3 (paced): one quiet window in which everybody waits or rings at once


TICKER = """
import time
deadline = time.time() + 3600
while time.time() < deadline:   # the once-a-second check of the iOS alarm tutorials
    time.sleep(1)
print("ring")
"""


class LogindMock:
    """A private system bus with python-dbusmock's logind on it, so wake can hold its inhibitor."""

    CONFIG = """<!DOCTYPE busconfig PUBLIC "-//freedesktop//DTD D-Bus Bus Configuration 1.0//EN"
 "http://www.freedesktop.org/standards/dbus/1.0/busconfig.dtd">
<busconfig><type>system</type><listen>unix:tmpdir=/tmp</listen><auth>EXTERNAL</auth>
<policy context="default"><allow user="*"/><allow own="*"/><allow send_type="method_call"/>
<allow send_type="method_return"/><allow send_type="error"/><allow send_type="signal"/>
<allow receive_type="method_call"/><allow receive_type="method_return"/><allow receive_type="error"/>
<allow receive_type="signal"/></policy></busconfig>
"""

    def __init__(self, work):
        self.procs = []
        self.address = None
        if not (shutil.which("dbus-daemon") and shutil.which("dbus-send")):
            return
        # Debian's python3-dbusmock is installed for Debian's own python3, whatever python3 runs this.
        python = "/usr/bin/python3" if Path("/usr/bin/python3").exists() else "python3"
        if subprocess.run([python, "-c", "import dbusmock"], stderr=subprocess.DEVNULL).returncode != 0:
            return
        conf = work / "system-bus.conf"
        conf.write_text(self.CONFIG)
        address = f"unix:path={work / 'system_bus_socket'}"
        self.procs.append(spawn(["dbus-daemon", f"--config-file={conf}", "--nofork", f"--address={address}"]))
        env = env_with(DBUS_SYSTEM_BUS_ADDRESS=address)
        self.procs.append(spawn([python, "-m", "dbusmock", "--system", "--template", "logind"], env=env))
        for _ in range(100):
            r = subprocess.run(["dbus-send", f"--bus={address}", "--print-reply", "--dest=org.freedesktop.DBus",
                                "/org/freedesktop/DBus", "org.freedesktop.DBus.NameHasOwner",
                                "string:org.freedesktop.login1"], stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
            if "boolean true" in r.stdout:
                self.address = address
                return
            time.sleep(0.1)

    def stop(self):
        for p in reversed(self.procs):
            p.terminate()
            reap(p)


def fig_quiet_window(ctx, seconds, copies, extra=(), watch=None, after=None):
    """Figure 2 (waiting) and the paced half of figure 3 (ringing), side by side in one window,
    with `extra` contestants (the desktop path's ringers and the daemons, figures 7 and 8).

    Every process here sleeps nearly all the time, so they do not disturb one another: each one's
    CPU time and context switches are its own. `copies` of each contestant give a median and a
    worst. Sampled `seconds` apart after a 3-second settling time (and, for a contestant with a
    `ready` check, once it is ready), then stopped with SIGTERM, and reaped with wait4() for the
    peak memory. A contestant's command may be a function of the copy's number, returning the
    command and its environment. `watch`: {name: pid} of processes that are not contestants (the
    sound server) sampled over the same window. `after(procs)` runs once the window is sampled,
    before anything is stopped.
    """
    wake, s = ctx["wake"], ctx["sounds"]
    work = ctx["work"] / "window"
    work.mkdir()
    in_an_hour = time.strftime("%H:%M:%S", time.localtime(time.time() + 3600))
    wake_wait = [wake, in_an_hour, "-D", "null", "--inhibit", "off"]
    mock = LogindMock(work)
    contestants = [
        ("wait", "wake (an hour away)", wake_wait, None),
        ("wait", "sleep 3600", ["sleep", "3600"], None),
        ("wait", "once-a-second loop (python3)", ["python3", "-c", TICKER], None),
    ]
    if mock.address:
        contestants.insert(1, ("wait", "wake, holding a logind inhibitor",
                               [wake, in_an_hour, "-D", "null", "--inhibit", "require"],
                               {"DBUS_SYSTEM_BUS_ADDRESS": mock.address}))
    for key, label in [("wav5", "5 s WAV"), ("flac600", "10 min FLAC")]:
        contestants += [
            ("ring", f"wake, paced on null ({label})",
             [wake, "now", "-D", "null", "-s", s[key], "--inhibit", "off", "--ring-for", "10m", "-q"], None),
            ("ring", f"mpv --ao=null, paced by mpv ({label})",
             ["mpv", "--no-config", "--really-quiet", "--no-video", "--ao=null", "--loop-file=inf", s[key]], None),
        ]
    contestants = [c if len(c) == 5 else (*c, None) for c in contestants + list(extra)]
    log(f"figures 2, 3, 7 and 8: {len(contestants)} contestants x {copies}, waiting and ringing for {seconds} s")
    procs = []
    for kind, label, cmd, extra_env, ready in contestants:
        for i in range(copies):
            out = open(work / f"stdout-{len(procs)}.txt", "wb")  # a file: not a terminal
            c, e = cmd(i) if callable(cmd) else (cmd, extra_env)
            procs.append({"kind": kind, "label": label, "copy": i, "ready": ready,
                          "proc": spawn(c, env=env_with(**(e or {})), stdout=out)})
    # One more waiting wake, under strace and left out of the table: if wake wakes up, it says why.
    trace = work / "waiting-wake.strace"
    traced = spawn(["strace", "-ttt", "-e", "trace=poll,read,timerfd_create,timerfd_settime,signalfd4", "-o", trace] + wake_wait)
    time.sleep(3)
    for p in procs:
        deadline = time.monotonic() + 30
        while p["ready"] and not p["ready"](p["copy"]) and time.monotonic() < deadline:
            time.sleep(0.05)
    watched0 = {name: sample(pid) for name, pid in (watch or {}).items()}
    for p in procs:
        p["t0"] = sample(p["proc"].pid)
    wall0 = time.time()
    steps = watch_clock(seconds)
    wall1 = time.time()
    ended = []
    for p in procs:
        if p["proc"].poll() is not None:  # ended during the window: its counters are gone
            ended.append(p)
            p["t1"] = p["t0"]
            continue
        p["t1"] = sample(p["proc"].pid)
    watched = {name: (watched0[name], sample(pid)) for name, pid in (watch or {}).items()}
    after_result = after(procs) if after else None
    stop_under_strace(traced)
    if ctx.get("smaps_of_waiting_wake") is None:
        ctx["smaps_of_waiting_wake"] = smaps_summary(procs[0]["proc"].pid)
    for p in procs:
        p["proc"].send_signal(signal.SIGTERM)
    failures = []
    for p in ended:
        failures.append(f"{p['label']} (copy {p['copy']}) ended during the window, exit {p['proc'].returncode}: "
                        f"{(p['proc'].stderr.read() if p['proc'].stderr else b'').decode(errors='replace').strip()[:300]}")
        p["proc"].stderr = None
    procs = [p for p in procs if p not in ended]
    for p in procs:
        code, usage = reap(p["proc"])
        # VmHWM just before the signal, not wait4's ru_maxrss: a child of this (vforking) Python
        # inherits the interpreter's peak in ru_maxrss when it execs.
        p["code"], p["maxrss_kb"] = code, p["t1"]["hwm_kb"]
        if p["label"].startswith("wake") and code not in (0, 143) and p["kind"] in ("wait", "ring"):
            failures.append(f"{p['label']}: exit {code}: {p['proc'].stderr_text[:200]}")
    mock.stop()
    rows = {}
    for p in procs:
        minutes = (p["t1"]["t"] - p["t0"]["t"]) / 60e9
        r = rows.setdefault((p["kind"], p["label"]), {"wakeups_per_min": [], "cpu_ms_per_min": [], "maxrss_kb": []})
        r["wakeups_per_min"].append((p["t1"]["switches"] - p["t0"]["switches"]) / minutes)
        r["cpu_ms_per_min"].append((p["t1"]["cpu_ns"] - p["t0"]["cpu_ns"]) / 1e6 / minutes)
        r["maxrss_kb"].append(p["maxrss_kb"])
    return {"rows": rows, "failures": failures, "seconds": seconds, "copies": copies,
            "inhibitor": mock.address is not None, "clock_steps": steps,
            "why_awake": explain_wakeups(trace, wall0, wall1), "after": after_result,
            "watched": {name: {"cpu_ms_per_min": (b["cpu_ns"] - a["cpu_ns"]) / 1e6 / ((b["t"] - a["t"]) / 60e9),
                               "wakeups_per_min": (b["switches"] - a["switches"]) / ((b["t"] - a["t"]) / 60e9)}
                        for name, (a, b) in watched.items()},
            "exits": {(p["kind"], p["label"]): p["code"] for p in procs}}


def stop_under_strace(strace):
    """SIGTERM to the program strace runs (strace itself would only detach and leave it running),
    then wait for strace to finish."""
    try:
        with open(f"/proc/{strace.pid}/task/{strace.pid}/children") as f:
            for pid in f.read().split():
                os.kill(int(pid), signal.SIGTERM)
    except OSError:
        strace.send_signal(signal.SIGTERM)
    reap(strace)


def watch_clock(seconds):
    """Sleeps `seconds`, watching for steps of the wall clock (CLOCK_REALTIME against
    CLOCK_MONOTONIC moving by over 1 ms), which wake up every timer armed on the wall clock."""
    steps = []
    end = time.monotonic() + seconds
    offset = time.time() - time.monotonic()
    while time.monotonic() < end:
        time.sleep(min(0.1, max(0, end - time.monotonic())))
        now = time.time() - time.monotonic()
        if abs(now - offset) > 0.001:
            steps.append(now - offset)
        offset = now
    return steps


def explain_wakeups(trace, wall0, wall1):
    """From the traced waiting wake: each return of poll() inside the window, by what was ready."""
    names, returns, cancelled = {}, {}, 0
    try:
        lines = trace.read_text().splitlines()
    except OSError:
        return None
    for line in lines:
        m = re.match(r"^(\d+\.\d+) (\w+)\((.*)\) += (-?\d+)", line)
        if not m:
            continue
        t, call, args, result = float(m.group(1)), m.group(2), m.group(3), int(m.group(4))
        if call == "timerfd_create":
            names[result] = f"the {args.split(',')[0]} timer"
        elif call == "signalfd4":
            names[result] = "the signal descriptor"
        elif wall0 <= t <= wall1 and call == "poll":
            for fd in re.findall(r"\{fd=(\d+), revents=", line.rsplit(") = ", 1)[-1]):
                what = names.get(int(fd), f"descriptor {fd}")
                returns[what] = returns.get(what, 0) + 1
        elif wall0 <= t <= wall1 and call == "read" and "ECANCELED" in line:
            cancelled += 1
    return {"returns": returns, "cancelled": cancelled}


def smaps_summary(pid):
    """Where a process's resident memory is: the biggest mappings by Rss, in kB."""
    sizes = {}
    current = None
    try:
        with open(f"/proc/{pid}/smaps") as f:
            for line in f:
                if re.match(r"^[0-9a-f]+-[0-9a-f]+ ", line):
                    parts = line.split()
                    current = os.path.basename(parts[5]) if len(parts) > 5 else "[anonymous]"
                elif line.startswith("Rss:") and current is not None:
                    sizes[current] = sizes.get(current, 0) + int(line.split()[1])
    except OSError:
        return None
    return sorted(sizes.items(), key=lambda kv: -kv[1])


# ---------------------------------------------------------------------------------------------
# Figure 3 (unpaced): decode-and-write throughput, and the peers' peak memory


def play_commands(ctx):
    """How each contestant plays a file on null `n` times over (or, for wake, for a while)."""
    wake, s = ctx["wake"], ctx["sounds"]

    def wake_cmd(f, seconds):
        return [wake, "now", "-D", "null", "-s", f, "--unpaced", "--inhibit", "off", "-q", "--ring-for", f"{int(seconds * 1000)}ms"]

    def mpv(f, n):
        return ["mpv", "--no-config", "--really-quiet", "--no-video", "--ao=alsa", "--audio-device=alsa/null",
                f"--loop-file={n - 1}" if n > 1 else "--loop-file=no", f]

    wav, flac = s["wav600"], s["flac600"]
    # (file label, contestant, command for a short run, command for a long one)
    return [
        ("WAV", "wake", wake_cmd(wav, 0.2), wake_cmd(wav, 1.5)),
        ("WAV", "aplay -D null", ["aplay", "-q", "-D", "null", wav], ["aplay", "-q", "-D", "null"] + [wav] * 20),
        ("WAV", "sox FILE -t alsa null", ["sox", "-q", wav, "-t", "alsa", "null"], ["sox", "-q"] + [wav] * 4 + ["-t", "alsa", "null"]),
        ("WAV", "mpv --ao=alsa (null)", mpv(wav, 1), mpv(wav, 3)),
        ("FLAC", "wake", wake_cmd(flac, 0.2), wake_cmd(flac, 1.5)),
        ("FLAC", "sox FILE -t alsa null", ["sox", "-q", flac, "-t", "alsa", "null"], ["sox", "-q", flac, flac, flac, "-t", "alsa", "null"]),
        ("FLAC", "mpv --ao=alsa (null)", mpv(flac, 1), mpv(flac, 3)),
    ]


def fig_throughput(ctx, repeats):
    """Audio seconds written per CPU second, start-up excluded.

    Each contestant plays a short run and a long run (more copies of the file, or for wake a
    longer --ring-for); the throughput is the difference in audio written (counted by the probe)
    over the difference in CPU time, so every program's start-up, and wake's arm-time decode of
    the whole file, cancel out.
    """
    work = ctx["work"] / "throughput"
    work.mkdir()
    out = {}
    log(f"figure 3: unpaced throughput, {repeats} repeats")
    for label, name, short, long in play_commands(ctx):
        runs = {"short": [], "long": []}
        for i in range(repeats):
            for size, cmd in (("short", short), ("long", long)):
                probe_log = work / f"probe-{len(out)}-{size}-{i}.log"
                p = spawn(cmd, env=env_with(LD_PRELOAD=ctx["probe"], ALSA_PROBE_LOG=probe_log))
                code, usage = reap(p)
                if code not in (0, 4):
                    raise SystemExit(f"{name} failed ({code}): {p.stderr_text[:300]}")
                rec = read_probe(probe_log).get(p.pid, {"frames": 0, "rate": RATE})
                runs[size].append((rec["frames"] / (rec["rate"] or RATE), cpu_seconds(usage)))
        base_audio = median([a for a, _ in runs["short"]])
        base_cpu = median([c for _, c in runs["short"]])
        thr = [(a - base_audio) / (c - base_cpu) for a, c in runs["long"] if c > base_cpu]
        out[(label, name)] = {"throughput": thr, "long_audio_s": median([a for a, _ in runs["long"]]),
                              "long_cpu_s": median([c for _, c in runs["long"]])}
    return out


def peak_kb(cmd):
    """Peak resident memory of a command that ends by itself, in kB, from /usr/bin/time."""
    out = tempfile.NamedTemporaryFile(prefix="time-", suffix=".txt", delete=False)
    out.close()
    p = spawn(["/usr/bin/time", "-f", "%M", "-o", out.name] + [str(c) for c in cmd])
    reap(p)
    lines = Path(out.name).read_text().split()
    os.unlink(out.name)
    return int(lines[-1])


def fig_memory_peers(ctx, repeats):
    """Peak resident memory of each peer playing each file once, and of `wake --version`."""
    s = ctx["sounds"]
    mpv = ["mpv", "--no-config", "--really-quiet", "--no-video", "--ao=alsa", "--audio-device=alsa/null"]
    cmds = {
        ("WAV", "aplay"): ["aplay", "-q", "-D", "null", s["wav5"]],
        ("WAV", "sox"): ["sox", "-q", s["wav5"], "-t", "alsa", "null"],
        ("WAV", "mpv"): mpv + [s["wav5"]],
        ("FLAC", "sox"): ["sox", "-q", s["flac600"], "-t", "alsa", "null"],
        ("FLAC", "mpv"): mpv + [s["flac600"]],
        ("version", "wake --version"): [ctx["wake"], "--version"],
        ("version", "aplay --version"): ["aplay", "--version"],
    }
    log(f"figure 4: peak memory of the peers, {repeats} repeats")
    return {key: [peak_kb(cmd) for _ in range(repeats)] for key, cmd in cmds.items()}


def syscalls_per_audio_second(ctx):
    """For the WAV throughput finding: system calls per second of audio, wake against aplay,
    counted by `strace -c` (which slows both down, so only the counts are used), start-up taken
    out as for the throughput: the extra calls of a long run over a short one, per extra second."""
    work = ctx["work"] / "syscalls"
    work.mkdir()
    wake, wav = ctx["wake"], ctx["sounds"]["wav600"]
    ring = lambda t: [wake, "now", "-D", "null", "-s", wav, "--unpaced", "--inhibit", "off", "-q", "--ring-for", t]
    cases = {"wake": (ring("200ms"), ring("1500ms")),
             "aplay": (["aplay", "-q", "-D", "null", wav], ["aplay", "-q", "-D", "null"] + [wav] * 5)}

    def count(name, size, cmd):
        probe_log, counts = work / f"probe-{name}-{size}.log", work / f"strace-{name}-{size}.txt"
        reap(spawn(["strace", "-f", "-c", "-o", counts] + cmd, env=env_with(LD_PRELOAD=ctx["probe"], ALSA_PROBE_LOG=probe_log)))
        audio = sum(r["frames"] / (r["rate"] or RATE) for r in read_probe(probe_log).values())
        calls = {}
        for line in counts.read_text().splitlines():
            f = line.split()
            if len(f) >= 5 and f[0][0].isdigit() and f[-1] != "total":
                calls[f[-1]] = int(f[3])
        return audio, calls

    out = {}
    for name, (short, long) in cases.items():
        (a0, c0), (a1, c1) = count(name, "short", short), count(name, "long", long)
        extra = a1 - a0
        out[name] = {"per_audio_s": {k: (c1.get(k, 0) - c0.get(k, 0)) / extra for k in set(c0) | set(c1)}
                     if extra > 0 else {}}
    return out


# ---------------------------------------------------------------------------------------------
# Figure 5: start-up


def fig_startup(ctx, runs):
    """Whole-process wall time with hyperfine (no shell, warm caches)."""
    wake, s = ctx["wake"], ctx["sounds"]
    q = lambda *a: shlex.join(str(x) for x in a)
    xdg = ctx["work"] / "startup-xdg"
    private = {"XDG_CONFIG_HOME": xdg / "config", "XDG_STATE_HOME": xdg / "state", "XDG_RUNTIME_DIR": xdg / "run"}
    for d in private.values():
        d.mkdir(mode=0o700, parents=True)
    cases = [
        ("wake --version", q(wake, "--version"), runs * 2),
        ("aplay --version", q("aplay", "--version"), runs * 2),
        # No alarm anywhere: the files read and the control directory scanned, nothing to ask.
        ("wake list", q(wake, "list"), runs * 2, private),
        # What linking with `-z now` (the Debian package's hardening) costs: every symbol bound before
        # main rather than at its first call. LD_BIND_NOW=1 makes the dynamic linker do just that.
        ("wake --version, all symbols bound at start (LD_BIND_NOW=1, as `-z now`)", q(wake, "--version"), runs * 2,
         {"LD_BIND_NOW": "1"}),
        ("wake list, all symbols bound at start (LD_BIND_NOW=1)", q(wake, "list"), runs * 2, {"LD_BIND_NOW": "1", **private}),
        ("wake 07:00 --dry-run (default sound)", q(wake, "07:00", "--dry-run", "-D", "null"), runs),
        ("aplay -D null, 5 s WAV", q("aplay", "-q", "-D", "null", s["wav5"]), runs),
        ("wake 07:00 --dry-run -s 10-min FLAC", q(wake, "07:00", "--dry-run", "-D", "null", "-s", s["flac600"]), max(5, runs // 3)),
        ("flac -t, 10-min FLAC (decode, check)", q("flac", "-s", "-t", s["flac600"]), max(5, runs // 3)),
    ]
    log(f"figure 5: start-up, hyperfine, {len(cases)} commands")
    out = {}
    for name, command, n, *extra in cases:
        js = ctx["work"] / f"hyperfine-{len(out)}.json"
        run(["hyperfine", "-N", "--warmup", "3", "--runs", str(n), "--export-json", str(js), command],
            env=env_with(**(extra[0] if extra else {})))
        result = json.loads(js.read_text())["results"][0]
        out[name] = [t * 1000 for t in result["times"]]
        out.setdefault("cpu", {})[name] = (result["user"] * 1000, result["system"] * 1000)
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
    for name, cmd in [("default sound", [wake, "07:00", "--dry-run", "-D", "null"]),
                      ("10-min FLAC", [wake, "07:00", "--dry-run", "-D", "null", "-s", s["flac600"]])]:
        probe_log = ctx["work"] / f"probe-dry-run-{len(out['sf_command'])}.log"
        reap(spawn(cmd, env=env_with(LD_PRELOAD=ctx["probe"], ALSA_PROBE_LOG=probe_log)))
        calls = [c for r in read_probe(probe_log).values() for c in r["sf_command"]]
        out["sf_command"][name] = sum(ns for cmd_, ns in calls if cmd_ == 0x1014) / 1e6
    return out


# ---------------------------------------------------------------------------------------------
# Figure 6: stop latency


def fig_stop(ctx, repeats):
    """SIGTERM to exit (as seen by wait4 in this process) while ringing."""
    wake, wav = ctx["wake"], ctx["sounds"]["wav5"]
    work = ctx["work"] / "stop"
    work.mkdir()
    log(f"figure 6: stop latency, {repeats} repeats")

    def measure(cmd, ready):
        p = spawn(cmd)
        ready(p)
        t0 = time.perf_counter_ns()
        p.send_signal(signal.SIGTERM)
        os.wait4(p.pid, 0)
        t1 = time.perf_counter_ns()
        p.returncode = 0
        return (t1 - t0) / 1e6

    def wake_ready(events):
        def ready(p):
            deadline = time.monotonic() + 10
            while time.monotonic() < deadline:
                if events.exists() and '"ringing"' in events.read_text():
                    break
                time.sleep(0.01)
            time.sleep(0.3)  # well into the ring
        return ready

    out = {"wake (paced on null)": [], "mpv --ao=null (paced)": [], "sleep 3600 (a process that only exits)": []}
    for i in range(repeats):
        ev = work / f"events-{i}.jsonl"
        out["wake (paced on null)"].append(measure(
            [wake, "now", "-D", "null", "-s", wav, "--inhibit", "off", "--events", ev, "--ring-for", "1m", "-q"],
            wake_ready(ev)))
        out["mpv --ao=null (paced)"].append(measure(
            ["mpv", "--no-config", "--really-quiet", "--no-video", "--ao=null", "--loop-file=inf", wav],
            lambda p: time.sleep(0.8)))
        out["sleep 3600 (a process that only exits)"].append(measure(["sleep", "3600"], lambda p: time.sleep(0.05)))
    return out


# ---------------------------------------------------------------------------------------------
# Figure 7: the desktop path, through a private PulseAudio


class PulseServer:
    """A private PulseAudio with one null sink, `speaker`, as the tests start it (DESIGN.md,
    Tests/WakeTests/Support/PulseAudioServer.swift): its own HOME, XDG_CONFIG_HOME and
    XDG_RUNTIME_DIR (0700), the native socket with anonymous authentication, clients told not to
    autospawn. A null sink is clocked: it takes audio in real time, as a sound card would, so every
    player is paced by the server. ALSA's `default` reaches it through the pulse plugin
    (libasound2-plugins) once PULSE_SERVER and XDG_RUNTIME_DIR point at it."""

    SESSION = ["DBUS_SESSION_BUS_ADDRESS", "DISPLAY", "WAYLAND_DISPLAY", "PULSE_SERVER", "PULSE_RUNTIME_PATH",
               "PULSE_STATE_PATH", "PULSE_COOKIE", "PULSE_SINK", "PULSE_SOURCE", "ALSA_CONFIG_PATH"]

    def __init__(self, work):
        run_dir, home = work / "run", work / "home"
        for d in (run_dir, run_dir / "pulse", home, home / ".config", work / "state", work / "config"):
            d.mkdir(mode=0o700, parents=True, exist_ok=True)
            os.chmod(d, 0o700)
        socket = run_dir / "pulse" / "native"
        conf, client = work / "pulse.pa", work / "client.conf"
        conf.write_text(f"load-module module-native-protocol-unix socket={socket} auth-anonymous=1\n"
                        "load-module module-null-sink sink_name=speaker\nset-default-sink speaker\n")
        client.write_text("autospawn = no\n")
        base = {k: v for k, v in os.environ.items() if k not in self.SESSION}
        self.log = open(work / "pulseaudio.log", "wb")
        self.proc = spawn(["pulseaudio", "-n", "-F", conf, "--daemonize=no", "--exit-idle-time=-1", "--disallow-exit",
                           "--use-pid-file=no", "--realtime=no", "--high-priority=no", "--log-target=stderr"],
                          env={**base, "HOME": str(home), "XDG_CONFIG_HOME": str(home / ".config"),
                               "XDG_RUNTIME_DIR": str(run_dir)}, stderr=self.log)
        # Clients (wake included): this server, and private config, state and runtime directories
        # (wake's control sockets go to XDG_RUNTIME_DIR/wake).
        self.vars = {"PULSE_SERVER": f"unix:{socket}", "XDG_RUNTIME_DIR": str(run_dir), "PULSE_CLIENTCONFIG": str(client),
                     "XDG_STATE_HOME": str(work / "state"), "XDG_CONFIG_HOME": str(work / "config")}
        deadline = time.monotonic() + 30
        while True:
            r = subprocess.run(["pactl", "info"], env=self.env(), stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
            if r.returncode == 0 and "Default Sink: speaker" in r.stdout:
                break
            if self.proc.poll() is not None or time.monotonic() > deadline:
                raise SystemExit(f"the private PulseAudio did not start; its log: {work / 'pulseaudio.log'}")
            time.sleep(0.05)

    def env(self):
        e = {k: v for k, v in env_with().items() if k not in self.SESSION}
        e.update(self.vars)
        return e

    def stop(self):
        self.proc.terminate()
        reap(self.proc)


class MonitorRecorder:
    """What a listener hears: `parec` on the sink's monitor (mono S16, 44.1 kHz, 10 ms fragments),
    read by a thread that stamps each fragment with CLOCK_REALTIME as it arrives. A sample's moment
    is its fragment's arrival less the samples after it in the fragment; a sample is sound when its
    magnitude is over 64 (as in the tests). The same clock and the same delay (the monitor's one
    fragment) for every contestant."""

    THRESHOLD = 64

    def __init__(self, server):
        self.proc = spawn(["parec", "-d", "speaker.monitor", "--raw", "--format=s16le", "--channels=1", f"--rate={RATE}",
                           "--latency-msec=10"], env=server.env(), stdout=subprocess.PIPE)
        self.sound = []  # (moment of the first sound sample, of the last), per fragment with sound in it
        self.lock = threading.Lock()
        self.thread = threading.Thread(target=self._read, daemon=True)
        self.thread.start()

    def _read(self):
        fd, rest, t = self.proc.stdout.fileno(), b"", self.THRESHOLD
        while True:
            b = os.read(fd, 65536)
            now = time.time()
            if not b:
                return
            b = rest + b
            n = len(b) // 2
            rest = b[n * 2:]
            a = array.array("h", b[:n * 2])
            if n and (max(a) > t or min(a) < -t):
                first = next(i for i, x in enumerate(a) if x > t or x < -t)
                last = n - 1 - next(i for i, x in enumerate(reversed(a)) if x > t or x < -t)
                with self.lock:
                    self.sound.append((now - (n - first) / RATE, now - (n - 1 - last) / RATE))

    def heard(self, t0, t1=float("inf")):
        """(first, last) moment of sound between t0 and t1, or None."""
        with self.lock:
            hits = [(a, b) for a, b in self.sound if t0 <= a <= t1]
        if not hits:
            return None
        return min(a for a, _ in hits), max(min(b, t1) for _, b in hits)

    def stop(self):
        self.proc.terminate()
        self.thread.join(timeout=5)
        reap(self.proc)


DESKTOP_PLAYERS = {  # how each peer plays a file once through the sound server
    "aplay -D default": lambda f: ["aplay", "-q", "-D", "default", f],
    "paplay": lambda f: ["paplay", f],
    "mpv --ao=pulse": lambda f: ["mpv", "--no-config", "--really-quiet", "--no-video", "--ao=pulse", f],
    "sox -t pulseaudio": lambda f: ["sox", "-q", f, "-t", "pulseaudio", "default"],
}


def fig_desktop(ctx, pulse, rec, rounds):
    """Figure 7, firing and stop: each contestant set for a whole-second deadline a few seconds
    ahead, as in figure 1, one deadline every 3 s, taking turns; what the sink's monitor
    records gives the first sound after the deadline. The ring is then stopped, 0.8 s after the
    deadline or 0.4 s after the first sound, whichever is later: by SIGTERM (every contestant),
    or by `wake stop PID` (wake's second slot); the last sound recorded gives the silence."""
    wake, wav = ctx["wake"], ctx["sounds"]["wav5"]
    work = ctx["work"] / "desktop"
    work.mkdir()
    env = pulse.env()
    sleep_to = ('us=$(( {d}000000 - ${{EPOCHREALTIME//[^0-9]/}} )); printf -v t %d.%06d $((us / 1000000)) '
                '$((us % 1000000)); sleep $t; exec ')
    slots = ["wake", "wake, stopped by `wake stop`"] + list(DESKTOP_PLAYERS)
    spacing = 3  # whole seconds: the deadlines are whole seconds, as `wake HH:MM:SS` takes them
    first = int(time.time()) + 6
    plan = []
    for r in range(rounds):
        for name in slots[r % len(slots):] + slots[:r % len(slots)]:
            plan.append({"d": first + len(plan) * spacing, "name": name})
    log(f"figure 7: the desktop path, {len(plan)} alarms through PulseAudio, ~{len(plan) * spacing + 6:.0f} s")
    queue = []
    for i, slot in enumerate(plan):
        heapq.heappush(queue, (slot["d"] - 3 - random.uniform(0.1, 0.9), i, "launch"))
        heapq.heappush(queue, (slot["d"] + 0.8, i, "stop"))
    while queue:
        t, i, what = heapq.heappop(queue)
        time.sleep(max(0, t - time.time()))
        slot = plan[i]
        d = slot["d"]
        if what == "launch":
            if slot["name"].startswith("wake"):
                slot["events"] = work / f"events-{i}.jsonl"
                cmd = [wake, time.strftime("%H:%M:%S", time.localtime(d)), "-D", "default", "-s", wav, "--inhibit", "off",
                       "--mixer", "off", "--events", slot["events"], "--ring-for", "10s", "-q"]
            else:
                cmd = ["bash", "-c", sleep_to.format(d=d) + shlex.join(str(x) for x in DESKTOP_PLAYERS[slot["name"]](wav))]
            slot["proc"] = spawn(cmd, env=env)
            continue
        heard = rec.heard(d - 0.1, d + spacing - 0.1)
        now = time.time()
        if (heard is None or heard[0] + 0.4 > now) and now < d + spacing - 0.6:
            heapq.heappush(queue, (now + (0.02 if heard is None else heard[0] + 0.4 - now), i, "stop"))
            continue
        slot["stop_at"] = time.time()
        if slot["name"] == "wake, stopped by `wake stop`":
            slot["stopper"] = spawn([wake, "stop", str(slot["proc"].pid)], env=env)
        else:
            slot["proc"].send_signal(signal.SIGTERM)
    time.sleep(1.0)
    out = {"firing": {}, "stop": {}, "failures": [], "count": rounds}
    for slot in plan:
        name, d = slot["name"], slot["d"]
        code, _ = reap(slot["proc"])
        if "stopper" in slot:
            scode, _ = reap(slot["stopper"])
            if scode != 0:
                out["failures"].append(f"`wake stop` exited {scode}: {slot['stopper'].stderr_text[:200]}")
        heard = rec.heard(d - 0.1, d + spacing - 0.1)
        if heard is None:
            out["failures"].append(f"{name} at {time.strftime('%H:%M:%S', time.localtime(d))}: no sound at the sink "
                                   f"(exit {code}: {slot['proc'].stderr_text[:200]})")
            continue
        key = "wake" if name.startswith("wake") else name
        out["firing"].setdefault(key, []).append((heard[0] - d) * 1000)
        stop_key = "wake, by `wake stop PID` (command start to silence)" if "stopper" in slot else f"{key}, by SIGTERM"
        out["stop"].setdefault(stop_key, []).append((heard[1] - slot["stop_at"]) * 1000)
    return out


def desktop_ringers(ctx, pulse):
    """Figure 7, ringing: contestants for the quiet window, each ringing through the server for the
    whole window. wake and mpv loop the 5-second WAV; aplay, paplay and sox cannot loop a file, so
    they play the 10-minute WAV of the same beeps (a minute of it is a minute of looping)."""
    wake, s = ctx["wake"], ctx["sounds"]
    env = pulse.vars
    wav5, wav600 = s["wav5"], s["wav600"]
    return [
        ("desktop", "wake -D default", [wake, "now", "-D", "default", "-s", wav5, "--inhibit", "off", "--mixer", "off",
                                        "--ring-for", "10m", "-q"], env),
        ("desktop", "aplay -D default", DESKTOP_PLAYERS["aplay -D default"](wav600), env),
        ("desktop", "paplay", DESKTOP_PLAYERS["paplay"](wav600), env),
        ("desktop", "mpv --ao=pulse", ["mpv", "--no-config", "--really-quiet", "--no-video", "--ao=pulse",
                                       "--loop-file=inf", wav5], env),
        ("desktop", "sox -t pulseaudio", DESKTOP_PLAYERS["sox -t pulseaudio"](wav600), env),
    ]


# ---------------------------------------------------------------------------------------------
# Figure 8: the daemon with 1, 20 and 200 standing alarms

DAEMON_SIZES = (1, 20, 200)
DAY_NAMES = ["mon", "tue", "wed", "thu", "fri", "sat", "sun"]


def far_day():
    """The weekday three days from today: every standing alarm's nearest occurrence is days away."""
    return DAY_NAMES[(datetime.date.today().weekday() + 3) % 7]


def write_alarms(path, count, sound):
    """alarms.toml with `count` alarms, in the format `wake add` writes (README, Files): on the
    day three days away, a few minutes apart; every other one with its own sound file (the
    5-second WAV), the rest with the built-in sound; on `null`, mixer guard off."""
    day = far_day()
    created = datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%dT%H:%M:%SZ")
    lines = ["# wake: standing alarms (written by Benchmarks/run.py in wake add's format)", ""]
    for k in range(count):
        minutes = (k * 7) % 1440
        lines += [f"[alarms.a{k:03d}]", f'time = "{minutes // 60:02d}:{minutes % 60:02d}:00"', f'days = ["{day}"]']
        if k % 2:
            lines.append(f'sound = "{sound}"')
        lines += ['device = "null"', 'mixer = "off"', f'created = "{created}"', ""]
    path.parent.mkdir(mode=0o700, parents=True, exist_ok=True)
    path.write_text("\n".join(lines))
    os.chmod(path, 0o600)


def armed_count(events):
    try:
        return events.read_text().count('"event":"armed"')
    except OSError:
        return 0


def daemon_contestants(ctx):
    """The daemons for the quiet window: one per size and copy, each in private XDG directories
    (one daemon per user: its lock is in XDG_STATE_HOME), `--inhibit off`, an event log."""
    work = ctx["work"] / "daemons"
    work.mkdir()
    ctx["daemons"] = {}

    def factory(n):
        def make(i):
            d = work / f"{n}-{i}"
            env = {"XDG_CONFIG_HOME": d / "config", "XDG_STATE_HOME": d / "state", "XDG_RUNTIME_DIR": d / "run"}
            for v in env.values():
                v.mkdir(mode=0o700, parents=True, exist_ok=True)
            write_alarms(d / "config" / "wake" / "alarms.toml", n, ctx["sounds"]["wav5"])
            events = d / "events.jsonl"
            ctx["daemons"][(n, i)] = {"env": env, "events": events}
            return [ctx["wake"], "daemon", "--inhibit", "off", "--events", events, "-q"], env
        return make

    def ready(n):
        return lambda i: (n, i) in ctx["daemons"] and armed_count(ctx["daemons"][(n, i)]["events"]) >= n

    return [("daemon", f"wake daemon, {n} standing alarm{'s' if n > 1 else ''}", factory(n), None, ready(n))
            for n in DAEMON_SIZES]


class EventTail:
    """Follows an event log as it grows, polled every 0.5 ms."""

    def __init__(self, path):
        self.path, self.offset, self.partial = path, 0, ""
        self.skip()

    def skip(self):
        try:
            self.offset = self.path.stat().st_size
        except OSError:
            self.offset = 0
        self.partial = ""

    def wait(self, match, timeout=10.0):
        """time.monotonic() when a line containing every string of `match` appeared, or None."""
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            try:
                with open(self.path) as f:
                    f.seek(self.offset)
                    data = f.read()
            except OSError:
                data = ""
            seen = time.monotonic()
            if data:
                self.offset += len(data.encode())
                lines = (self.partial + data).split("\n")
                self.partial = lines.pop()
                if any(all(m in line for m in match) for line in lines):
                    return seen
            time.sleep(0.0005)
        return None


def daemon_add_to_armed(ctx, count):
    """Figure 8, the time from `wake add` to the daemon having the alarm armed: the command's start
    to the daemon's `armed` event for it in its event log (and to the command's exit), against the
    daemons with 1 and with 200 alarms (copy 0) still running after the window."""
    wake = ctx["wake"]
    out = {}
    day = far_day()
    for n in (DAEMON_SIZES[0], DAEMON_SIZES[-1]):
        d = ctx["daemons"][(n, 0)]
        tail = EventTail(d["events"])
        armed, exited = [], []
        for k in range(count):
            name = f"bench-add-{k}"
            tail.skip()
            t0 = time.monotonic()
            p = spawn([wake, "add", f"23:{k % 60:02d}", "--days", day, "--name", name, "-D", "null", "--mixer", "off", "-q"],
                      env=env_with(**d["env"]))
            seen = tail.wait(['"event":"armed"', f'"alarm":"{name}"'])
            code, _ = reap(p)
            if code != 0 or seen is None:
                out.setdefault("failures", []).append(f"wake add against {n} alarms: exit {code}, armed {'seen' if seen else 'not seen'}: "
                                                      f"{p.stderr_text[:200]}")
                continue
            armed.append((seen - t0) * 1000)
        # The command alone, on its own: start to exit (the same command, another name).
        for k in range(count):
            t0 = time.monotonic()
            p = spawn([wake, "add", f"22:{k % 60:02d}", "--days", day, "--name", f"bench-exit-{k}", "-D", "null", "--mixer", "off",
                       "-q"], env=env_with(**d["env"]))
            code, _ = reap(p)
            exited.append((time.monotonic() - t0) * 1000)
        out[n] = {"armed_ms": armed, "exit_ms": exited}
    return out


# ---------------------------------------------------------------------------------------------
# Figure 9: control round trips


def fig_control(ctx, cycles):
    """`wake list`, `wake snooze`, `wake stop` against `pkill -USR1`, on one alarm ringing on `null`
    (--snooze 1s, so that it rings again a second after each snooze), in private XDG directories.
    Each cycle: `wake snooze PID` (start to its `snoozed` event), `pkill -USR1 -s SID wake` (the
    same: the alarm runs in a session of its own, so that no other wake on the machine is
    signalled), `wake list` while it rings (start to exit), `wake stop PID` (start to `stopped`)."""
    wake, wav = ctx["wake"], ctx["sounds"]["wav5"]
    work = ctx["work"] / "control"
    env = {"XDG_CONFIG_HOME": work / "config", "XDG_STATE_HOME": work / "state", "XDG_RUNTIME_DIR": work / "run"}
    for v in env.values():
        v.mkdir(mode=0o700, parents=True, exist_ok=True)
    env = env_with(**env)
    log(f"figure 9: control round trips, {cycles} cycles")
    out = {k: [] for k in ["wake snooze PID", "pkill -USR1 -s SID wake", "wake list", "wake stop PID"]}
    failures = []

    def timed(cmd, tail, match):
        t0 = time.monotonic()
        p = spawn(cmd, env=env)
        seen = tail.wait(match) if match else None
        code, _ = reap(p)
        end = seen if match else time.monotonic()
        if code != 0 or end is None:
            failures.append(f"{shlex.join(str(c) for c in cmd[1:])}: exit {code}, event {'seen' if end else 'not seen'}: {p.stderr_text[:200]}")
            return None
        return (end - t0) * 1000

    for i in range(cycles):
        events = work / f"events-{i}.jsonl"
        alarm = spawn([wake, "now", "-D", "null", "-s", wav, "--inhibit", "off", "--mixer", "off", "--events", events,
                       "--snooze", "1s", "--ring-for", "10m", "-q"], env=env, session=True)
        tail = EventTail(events)
        # (label, command, the event that ends it, whether to wait for the alarm to ring again first)
        steps = [("wake snooze PID", [wake, "snooze", str(alarm.pid)], ['"event":"snoozed"'], True),
                 ("pkill -USR1 -s SID wake", ["pkill", "-USR1", "-s", str(alarm.pid), "-x", "wake"], ['"event":"snoozed"'], True),
                 ("wake list", [wake, "list"], None, True),
                 ("wake stop PID", [wake, "stop", str(alarm.pid)], ['"event":"stopped"'], False)]
        for label, cmd, match, ring_again in steps:
            if ring_again and tail.wait(['"event":"ringing"']) is None:
                failures.append(f"{label}: the alarm did not ring (again)")
                break
            time.sleep(0.1)
            ms = timed(cmd, tail, match)
            if ms is not None:
                out[label].append(ms)
        try:  # `wake stop` ended it
            alarm.wait(timeout=5)
        except subprocess.TimeoutExpired:
            failures.append("the alarm did not exit after `wake stop`")
            alarm.kill()
            alarm.wait()
    out["failures"] = failures
    out["processes"] = sum(1 for d in os.listdir("/proc") if d.isdigit())
    return out


# ---------------------------------------------------------------------------------------------
# The machine


def machine(wake):
    cpu = "?"
    try:
        for line in open("/proc/cpuinfo"):
            if line.startswith("model name"):
                cpu = line.split(":", 1)[1].strip()
                break
    except OSError:
        pass
    return {
        "date": datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%d %H:%M UTC"),
        "cores": os.cpu_count(),
        "cpu": cpu,
        "kernel": platform.release(),
        "os": output_of(["sh", "-c", ". /etc/os-release && echo \"$PRETTY_NAME\""]),
        "alsa": output_of(["pkg-config", "--modversion", "alsa"]),
        "sndfile": output_of(["pkg-config", "--modversion", "sndfile"]),
        "wake": output_of([str(wake), "--version"]) + " (" + output_of(["git", "-C", str(ROOT), "describe", "--always", "--dirty"]) + ")",
        "build": "swift build " + " ".join(release_flags()),
        "swift": output_of([swift_command(), "--version"]),
        "aplay": output_of(["aplay", "--version"]),
        "sox": output_of(["sox", "--version"]).replace("sox:", "").strip(),
        "mpv": " ".join(output_of(["mpv", "--version"]).split()[:2]),
        "hyperfine": output_of(["hyperfine", "--version"]),
        "load": loadavg(),
    }


def loadavg():
    """The 1, 5 and 15-minute load averages: anything else busy on the machine shows here."""
    try:
        return " ".join(open("/proc/loadavg").read().split()[:3])
    except OSError:
        return "?"


# ---------------------------------------------------------------------------------------------
# BENCHMARKS.md: one section per figure, each a table, the target's verdict, how it was
# measured, and what was found. The findings are worded here but their numbers are this run's.


class Report:
    def __init__(self):
        self.lines = []
        self.targets = []  # (figure, target, wake's value, met)
        self.headline = []

    def add(self, *lines):
        self.lines.extend(lines)

    def para(self, *sentences):
        self.lines.extend([" ".join(s for s in sentences if s), ""])

    def table(self, header, rows):
        self.add("| " + " | ".join(header) + " |", "|" + "|".join("---" for _ in header) + "|")
        for r in rows:
            self.add("| " + " | ".join(str(c) for c in r) + " |")
        self.add("")

    def failures(self, items):
        """One `- failure:` line each, then a blank line, when there are any."""
        if items:
            self.add(*(f"- failure: {f}" for f in items), "")

    def target(self, figure, text, value, met):
        self.targets.append((figure, text, value, met))
        return verdict(met)


def mib(kb):
    return kb / 1024


def p3(values, digits=3):
    """p50 / p99 / max as text."""
    return f"{fmt(percentile(values, 50), digits)} / {fmt(percentile(values, 99), digits)} / {fmt(max(values, default=float('nan')), digits)}"


def report_firing(R, fire):
    res, names = fire["results"], fire["names"]
    whole, exact = names[1], names[2]
    st = {n: (percentile(r["first_ms"], 50), percentile(r["first_ms"], 99), max(r["first_ms"], default=float("nan")))
          for n, r in res.items()}
    R.add("## 1. Firing precision", "")
    R.para("Delay from the deadline to the first audio frame accepted by ALSA, ms (`null` PCM, "
           f"{len(res['wake']['first_ms'])} alarms each, one a second, the contestants taking turns).")
    rows = [[n, fmt(st[n][0], 3), fmt(st[n][1], 3), fmt(st[n][2], 3), len(res[n]["first_ms"]),
             "—" if n == "wake" else ratio(st["wake"][1], st[n][1])] for n in names]
    late = res["wake"]["late_ms"]
    rows.insert(1, ["wake's own `late_ms` event field (first frame written, µs resolution)", fmt(percentile(late, 50), 3),
                    fmt(percentile(late, 99), 3), fmt(max(late, default=float("nan")), 3), len(late), ""])
    R.table(["contestant", "p50 ms", "p99 ms", "max ms", "alarms", "wake ÷ this (p99)"], rows)
    worse = [n for n in names[1:] if any(st["wake"][i] > st[n][i] for i in range(3))]
    t1 = R.target("1", "firing p99 within 2 ms of the deadline", f"{fmt(st['wake'][1], 3)} ms", st["wake"][1] <= 2.0)
    t1b = R.target("1", "firing no worse than `sleep N; aplay` at p50, p99 and max",
                   "worse than " + ", ".join(worse) if worse else "better at p50, p99 and max", not worse)
    R.para(f"Targets: p99 within 2 ms of the deadline: {t1}. No worse than `sleep N; aplay` anywhere: {t1b}.")
    R.para("How: each alarm is started 3.1–3.9 s before a whole-second deadline D (a random moment, as a "
           "person would). wake gets `HH:MM:SS` (`wake HH:MM:SS -D null -s alarm-5s.wav --ring-for 500ms "
           "--inhibit off`). The recipes are `sleep $(( D - $(date +%s) )); exec aplay -D null alarm-5s.wav` "
           "(what one writes: whole seconds) and `sleep` given the exact remaining time, to the microsecond, from "
           "bash's `$EPOCHREALTIME` (the best a shell can do: nothing but `sleep`'s own start runs between "
           "reading the clock and sleeping). The moment of the first frame is stamped for all of them the same way "
           "by [alsa_probe.c](Benchmarks/alsa_probe.c), an LD_PRELOAD shim around `snd_pcm_write*` "
           "(CLOCK_REALTIME, ns). wake's own `late_ms` is measured inside wake, after `snd_pcm_writei` "
           "returns; the probe measures every contestant the same way, so the table ranks them by the probe.")
    ph = res["wake"]["phases"]
    if ph:
        woke, prep, opening, cards = ([p[i] for p in ph] for i in range(4))
        R.add("Where wake's delay goes, alarm by alarm (the probe also stamps the return of the `poll()` that "
              "waited for the deadline, and times the walk over the sound cards with `snd_card_next`), ms, "
              "p50 / p99 / max:", "")
        R.table(["phase", "p50 / p99 / max ms"], [
            ["deadline → wake's poll() returns (the kernel wakes the process: timer expiry and scheduling)", p3(woke)],
            ["poll() returns → `snd_pcm_open` (wake's own work: the engine's step, setting up the ring)", p3(prep)],
            ["… of which walking the sound cards (`PCM.cardNumbers()`, `snd_card_next` over every index)", p3(cards)],
            ["`snd_pcm_open` → first frame written (open and configure the PCM, fill, write)", p3(opening)],
        ])
        own = [a + b for _, a, b, _ in ph]
        opens = {n: percentile(r["open_ms"], 50) for n, r in res.items()}
        kernel_dominates = percentile(woke, 99) > percentile(own, 99)
        walked = percentile(cards, 50) > 0.02
        R.para("Finding:" if st["wake"][1] > 2.0 else "Reading it:",
               f"the kernel's wake-up (deadline → `poll()` returns) is {fmt(percentile(woke, 50), 3)} ms median, "
               f"{fmt(percentile(woke, 99), 3)} ms at p99 and {fmt(max(woke), 3)} ms at worst: every program "
               "that sleeps to a deadline pays it (`sleep` too, inside both recipes), and on a virtual machine "
               "an idle vCPU must first be woken by the host.",
               "It is the larger and the erratic part here." if kernel_dominates else "",
               f"wake's own part, from its wake-up to the first frame, is {fmt(percentile(own, 50), 3)} ms median "
               f"and {fmt(max(own), 3)} ms at worst.",
               (f"Its largest piece is the walk over the sound cards ({fmt(percentile(cards, 50), 3)} ms median): "
                "the fallback chain (`plughw:N` for each card) is built at ring time, and `snd_card_next` tries "
                "every index up to 31, opening `/dev/snd/controlCN` and `/dev/aloadCN` for each (64 failed "
                "`open` calls on a machine without cards). The chain is needed only if the requested device "
                "fails: built when the alarm is armed, or lazily, it would be off the path from deadline to sound."
                if walked else
                "No walk over the sound cards happens between the wake-up and the open any more (the fallback "
                "chain is found only when needed): the rest is the engine's step, the ring's set-up, and ALSA's "
                "own open, configure and write."),
               "For the recipes the delay is the start of a whole process after `sleep` returns: `snd_pcm_open` "
               f"is called {fmt(opens[exact], 2)} ms after the deadline (median, `sleep` to the microsecond), against "
               f"{fmt(opens['wake'], 2)} ms for wake.")
    R.failures(fire["failures"])
    R.headline.append(
        f"Firing: p99 {fmt(st['wake'][1], 2)} ms from the deadline to the first frame, against "
        f"{fmt(st[exact][1], 2)} ms for `sleep` (to the microsecond) then `aplay` ({ratio(st['wake'][1], st[exact][1])}) "
        f"and {fmt(st[whole][1], 0)} ms for `sleep` in whole seconds ({ratio(st['wake'][1], st[whole][1], 3)}).")
    return st


def report_waiting(R, window):
    rows_by = window["rows"]
    waits = [k[1] for k in rows_by if k[0] == "wait"]
    wk = rows_by[("wait", "wake (an hour away)")]
    R.add("## 2. Cost of waiting", "")
    R.para(f"{window['copies']} copies of each contestant waited side by side through the same {window['seconds']} s, "
           "stdout a file (not a terminal), stdin `/dev/null`. Wake-ups are context switches (voluntary + "
           "involuntary, `/proc/PID/task/*/status`), CPU is the scheduler's count (`/proc/PID/task/*/schedstat`), "
           "both summed over every thread of the process (this benchmark read the main thread's alone until issue "
           "18: wake's sound is written by a worker thread), "
           "sampled 3 s after start and again at the end of the window.")
    rows = []
    for label in waits:
        r = rows_by[("wait", label)]
        rows.append([label, fmt(median(r["wakeups_per_min"]), 1), fmt(max(r["wakeups_per_min"]), 1),
                     fmt(median(r["cpu_ms_per_min"]), 3), fmt(max(r["cpu_ms_per_min"]), 3),
                     "—" if label.startswith("wake") else
                     f"{ratio(median(wk['wakeups_per_min']), median(r['wakeups_per_min']))} / "
                     f"{ratio(median(wk['cpu_ms_per_min']), median(r['cpu_ms_per_min']))}"])
    R.table(["contestant", "wake-ups/min (median)", "(worst)", "CPU ms/min (median)", "(worst)",
             "wake ÷ this (wake-ups / CPU)"], rows)
    worst = max(wk["wakeups_per_min"])
    t2 = R.target("2", "zero wake-ups per minute while waiting without a terminal (as `sleep`)",
                  f"{fmt(worst, 1)} per minute", worst == 0)
    R.para(f"Target: zero wake-ups a minute, as `sleep`: {t2}.",
           "wake arms one `timerfd` for the deadline and blocks in one `poll()` with no timeout; nothing "
           "else is armed unless a countdown is drawn on a terminal.")
    why, steps = window.get("why_awake"), window.get("clock_steps") or []
    if why is not None:
        n = sum(why["returns"].values())
        detail = ", ".join(f"{v} for {k}" for k, v in sorted(why["returns"].items(), key=lambda kv: -kv[1]))
        R.para("Finding:" if worst > 0 else "Checked:",
               f"a further waiting wake, traced with `strace` through the same window (not in the table), "
               f"returned from `poll()` {n} time{'s' if n != 1 else ''}" + (f": {detail}" if n else "") + "."
               + (f" {why['cancelled']} of its timer reads failed with ECANCELED, which is how a "
                  "`TFD_TIMER_CANCEL_ON_SET` timer reports that the wall clock was set: wake then re-reads the "
                  "clock and re-arms, as it must to ring at the right wall-clock time after NTP or a manual "
                  "change." if why["cancelled"] else ""),
               f"The benchmark saw the wall clock step {len(steps)} time{'s' if len(steps) != 1 else ''} during the "
               "window" + (f" (by {', '.join(fmt(x * 1000, 1) + ' ms' for x in steps[:5])}"
                           + (", …" if len(steps) > 5 else "") + "): something on the machine was setting the "
                           "clock, and every wall-clock timer in the system is woken by that, `sleep` aside "
                           "(it sleeps on the monotonic clock)." if steps else "."))
    inh = rows_by.get(("wait", "wake, holding a logind inhibitor"))
    if inh:
        R.para("The inhibitor row is wake as it waits by default (`--inhibit auto`), holding a logind "
               "\"sleep:idle\" lock over a private system bus with python-dbusmock's logind on it (the bus "
               "connection is one more descriptor in the same `poll()`):",
               f"{fmt(median(inh['wakeups_per_min']), 1)} wake-ups a minute.")
    R.failures(window.get("failures", []))
    loop = rows_by.get(("wait", "once-a-second loop (python3)"))
    sl = rows_by.get(("wait", "sleep 3600"))
    R.headline.append(
        f"Waiting: {fmt(median(wk['wakeups_per_min']), 1)} wake-ups and {fmt(median(wk['cpu_ms_per_min']), 3)} ms of CPU "
        f"a minute, {'as' if median(wk['wakeups_per_min']) <= median(sl['wakeups_per_min']) else 'against'} `sleep 3600`'s "
        f"{fmt(median(sl['wakeups_per_min']), 1)}; a once-a-second loop: {fmt(median(loop['wakeups_per_min']), 0)} "
        f"wake-ups and {fmt(median(loop['cpu_ms_per_min']), 1)} ms.")


def report_ringing(R, window, thr, sysc):
    rows_by = window["rows"]
    R.add("## 3. Cost of ringing", "")
    R.para("**Paced**: CPU seconds per minute of ringing, in the window of figure 2 "
           f"({window['copies']} copies each, sampled over the same {window['seconds']} s after 3 s of "
           "settling, so start-up is left out). wake paces its writes to `null` in real time, as a sound "
           "card would pace them. `aplay`, `sox` and `mpv --ao=alsa` cannot be paced on `null` (it has no "
           "clock: they play a 10-minute file in well under a second), so their rows are the CPU they spend "
           "per minute of audio unpaced (60 ÷ their throughput, below): decode-and-write alone, a lower bound "
           "of their cost on a real card, which would add its own wake-ups. `mpv --ao=null` is mpv pacing "
           "itself, the nearest paced peer.")
    rows, worst_core, wake_paced = [], 0.0, {}
    for key, label in [("WAV", "5 s WAV"), ("FLAC", "10 min FLAC")]:
        wk = rows_by[("ring", f"wake, paced on null ({label})")]
        mp = rows_by[("ring", f"mpv --ao=null, paced by mpv ({label})")]
        wcpu = [c / 1000 for c in wk["cpu_ms_per_min"]]
        wake_paced[key] = (median(wcpu), median(wk["wakeups_per_min"]))
        worst_core = max(worst_core, max(wcpu) / 60 * 100)
        rows.append([key, "wake, paced", fmt(median(wcpu), 4), fmt(max(wcpu), 4), fmt(max(wcpu) / 60 * 100, 3),
                     fmt(median(wk["wakeups_per_min"]), 0), "—"])
        mcpu = [c / 1000 for c in mp["cpu_ms_per_min"]]
        rows.append([key, "mpv --ao=null, paced", fmt(median(mcpu), 4), fmt(max(mcpu), 4), fmt(max(mcpu) / 60 * 100, 3),
                     fmt(median(mp["wakeups_per_min"]), 0), ratio(median(wcpu), median(mcpu))])
        for (file_label, name), t in thr.items():
            if file_label == key and name != "wake" and t["throughput"]:
                per_min = [60 / x for x in t["throughput"]]
                rows.append([key, f"{name} (unpaced: decode-and-write only)", fmt(median(per_min), 4), fmt(max(per_min), 4),
                             fmt(max(per_min) / 60 * 100, 3), "", ratio(median(wcpu), median(per_min))])
    R.table(["file", "contestant", "CPU s/min (median)", "(worst)", "% of a core (worst)", "wake-ups/min", "wake ÷ this"], rows)
    t3 = R.target("3", "ringing under 1 % of one core", f"{fmt(worst_core, 3)} % at worst", worst_core < 1)
    cpu_w, wu_w = wake_paced["WAV"]
    R.para(f"Target: under 1 % of one core: {t3}.",
           f"Paced ringing costs wake about {fmt(cpu_w / wu_w * 1e6, 0)} µs per wake-up, "
           f"{fmt(wu_w, 0)} wake-ups a minute"
           + (": the output worker wakes for each 20 ms write (3,000 a minute), the loop once a second for "
              "its stall watchdog." if abs(wu_w - 3060) < 150 else ".")
           + (" Decoding is a small part of it" if wake_paced["FLAC"][0] < 1.5 * cpu_w else
              " Decoding is most of the difference between the files, FLAC of noise being the hardest to decode")
           + f" (the 10-minute FLAC costs {fmt(wake_paced['FLAC'][0], 4)} s a minute against {fmt(cpu_w, 4)} s for the "
           "WAV). Against the "
           "unpaced rows the ratio compares wake's whole paced cost with the others' bare decode-and-write, "
           "so it overstates wake's cost; against mpv pacing itself it is like for like. (Runs before issue 18 "
           "read the main thread alone, which only runs the watchdog while the worker writes: they reported 60 "
           "wake-ups and about 5 ms a minute.)")

    R.para("**Unpaced throughput** of the decode-and-write path: audio seconds written per CPU second (wake's "
           "hidden `--unpaced`; the others on `null` as they are), on the 10-minute FLAC and on a 10-minute WAV "
           "of the same beeps as the 5-second one (one long file, so that no player is charged a file's set-up "
           "every 5 seconds). Start-up is taken out: each contestant makes a short and a long run (the file "
           "once and several times, or for wake a longer `--ring-for`, looping the file); the throughput is "
           "the extra audio over the extra CPU time. Audio is counted by the probe (frames "
           "ALSA accepted, padding included), CPU by wait4(). Repeats give the median and the worst.")
    rows = []
    med = {k: median(v["throughput"]) for k, v in thr.items()}
    for (label, name), t in thr.items():
        rows.append([label, name, fmt(med[(label, name)], 0), fmt(min(t["throughput"], default=float("nan")), 0),
                     fmt(t["long_audio_s"], 0), fmt(t["long_cpu_s"], 3),
                     "—" if name == "wake" else ratio(med[(label, "wake")], med[(label, name)])])
    R.table(["file", "contestant", "audio s per CPU s (median)", "(worst)", "audio s, long run", "CPU s, long run", "wake ÷ this"], rows)
    aplay, sox = ("WAV", "aplay -D null"), ("FLAC", "sox FILE -t alsa null")
    wav_ok, flac_ok = med[("WAV", "wake")] >= med[aplay], med[("FLAC", "wake")] >= med[sox]
    t3b = R.target("3", "decode-and-write throughput at least aplay's on WAV", f"{ratio(med[('WAV', 'wake')], med[aplay])} aplay's", wav_ok)
    t3c = R.target("3", "decode-and-write throughput at least sox's on FLAC", f"{ratio(med[('FLAC', 'wake')], med[sox])} sox's", flac_ok)
    R.para(f"Targets: at least aplay's on WAV: {t3b}; at least sox's on FLAC: {t3c}.")
    if sysc.get("wake", {}).get("per_audio_s") and sysc.get("aplay", {}).get("per_audio_s"):
        w, a = sysc["wake"]["per_audio_s"], sysc["aplay"]["per_audio_s"]
        tot_w, tot_a = sum(max(0, v) for v in w.values()), sum(max(0, v) for v in a.values())
        bytes_per_audio_s = RATE * 4  # the WAV: stereo, 16-bit
        kib = lambda reads: bytes_per_audio_s / reads / 1024 if reads else float("nan")
        counts = (f"`strace -c` counts {fmt(tot_w, 1)} system calls per second of audio for wake against "
                  f"{fmt(tot_a, 1)} for aplay (start-up taken out, as above): `read` {fmt(w.get('read', 0), 1)} (one per "
                  f"{fmt(kib(w.get('read', 0)), 0)} KiB of the file) against {fmt(a.get('read', 0), 1)} (one per "
                  f"{fmt(kib(a.get('read', 0)), 0)} KiB), `poll` {fmt(w.get('poll', 0), 1)} against "
                  f"{fmt(a.get('poll', 0), 1)}.")
        r = med[("WAV", "wake")] / med[aplay]
        tie = (" The WAV result is a tie rather than a win or a loss: the two medians are within the spread "
               "between runs (see the worst column), both being bound by copying the file out of the page cache."
               if 0.9 <= r <= 1.1 else "")
        if wav_ok:
            R.para("On WAV,", counts, "On `null` writing costs nothing, so this path is reading the file." + tie)
        else:
            R.para("Finding:", counts,
                   "On `null` writing costs nothing, so the path is reading the file, and it comes down to how "
                   "many system calls each second of audio takes: wake's reads are smaller than aplay's (one "
                   "per `Ringer.chunkFrames` chunk, through libsndfile) and it goes back to `poll()` every few "
                   "chunks to keep its event loop responsive, where aplay blocks in `snd_pcm_writei`. A "
                   "profile taken when this benchmark was first written, with 4096-frame chunks (`perf record "
                   "-g` of a 2-second unpaced ring), agreed: about 70 % of wake's time was in the kernel, mostly "
                   "the `read` path, then `poll`. Bigger chunks close the gap. It matters little at 07:00: a "
                   "minute of paced ringing costs the wake-ups above, not the decoding." + tie)
    R.headline.append(
        f"Ringing: {fmt(worst_core, 3)} % of a core, paced ({ratio(wake_paced['WAV'][0], median([c / 1000 for c in rows_by[('ring', 'mpv --ao=null, paced by mpv (5 s WAV)')]['cpu_ms_per_min']]))} "
        f"of mpv's CPU pacing itself); unpaced throughput {ratio(med[('WAV', 'wake')], med[aplay])} aplay's on WAV "
        f"and {ratio(med[('FLAC', 'wake')], med[sox])} sox's on FLAC.")
    return med


def report_memory(R, ctx, window, mem):
    rows_by = window["rows"]
    waits = [k[1] for k in rows_by if k[0] == "wait"]
    wk_wait = rows_by[("wait", "wake (an hour away)")]
    R.add("## 4. Memory", "")
    R.para("Peak resident memory, MiB: the kernel's high-water mark, VmHWM, which is what "
           "`/usr/bin/time -f %M` reports. wake's figures come from the processes of figures 2 and 3 (read "
           "just before they were stopped: an hour's wait; ringing for a minute, after decoding the whole file "
           "when the alarm was set); the peers play each file once on `null` under `/usr/bin/time`.")
    rows, wake_peaks = [], []

    def row(case, name, kbs, wake_kbs):
        rows.append([case, name, fmt(mib(median(kbs)), 1), fmt(mib(max(kbs)), 1),
                     "—" if wake_kbs is None else ratio(median(wake_kbs), median(kbs))])

    for label in waits:
        kbs = rows_by[("wait", label)]["maxrss_kb"]
        if label.startswith("wake"):
            wake_peaks.append(max(kbs))
        row("waiting", label, kbs, None if label.startswith("wake") else wk_wait["maxrss_kb"])
    ring = {}
    for key, label, peers in [("WAV", "5 s WAV", ["aplay", "sox", "mpv"]), ("FLAC", "10 min FLAC", ["sox", "mpv"])]:
        wk = rows_by[("ring", f"wake, paced on null ({label})")]["maxrss_kb"]
        ring[key] = wk
        wake_peaks.append(max(wk))
        row(f"ringing the {label}", "wake", wk, None)
        for p in peers:
            row(f"ringing the {label}", p, mem[(key, p)], wk)
    row("`--version` (start-up alone)", "wake --version", mem[("version", "wake --version")], None)
    row("`--version` (start-up alone)", "aplay --version", mem[("version", "aplay --version")], mem[("version", "wake --version")])
    R.table(["case", "contestant", "peak MiB (median)", "(worst)", "wake ÷ this"], rows)
    top = max(wake_peaks)
    t4 = R.target("4", "peak memory under 16 MiB whatever the file's length", f"{fmt(mib(top), 1)} MiB at worst", mib(top) < 16)
    R.para(f"Target: under 16 MiB whatever the file: {t4}.")
    base = median(mem[("version", "wake --version")])
    grow = median(ring["FLAC"]) - median(ring["WAV"])
    sm = ctx.get("smaps_of_waiting_wake")
    where = ""
    if sm:
        total = sum(kb for _, kb in sm)
        where = (f"Where a waiting wake's {fmt(total / 1024, 1)} MiB are (`/proc/PID/smaps`, resident by mapping): "
                 + ", ".join(f"{name} {fmt(kb / 1024, 1)}" for name, kb in sm[:9]) + " MiB.")
    if ctx["static_runtime"]:
        runtime = ("This binary links the Swift runtime statically (the Makefile's `RELEASE_FLAGS`), so only the "
                   "parts of it wake uses are loaded; what is left is wake with that runtime, libc, and the C "
                   "libraries with their own dependencies (libsndfile's codecs, libsystemd's compression and "
                   "crypto libraries).")
    else:
        runtime = ("Most of it is the Swift runtime's shared libraries, mapped and touched at start-up: "
                   "libswiftCore, libFoundationEssentials (linked only because swift-argument-parser imports it, "
                   "in `Sources/ArgumentParser/Utilities/Foundation.swift`), libstdc++, _StringProcessing and "
                   "RegexParser. An experiment when this benchmark was first written (Swift 6.3.1, same machine): "
                   "the same build with `-Xswiftc -static-stdlib` peaked at 11.8 MiB for `--version` and 13.1 MiB "
                   "ringing the 10-minute FLAC (against 15.1 and 16.2 MiB with the shared runtime).")
    R.para("Finding:" if mib(top) >= 16 else "Reading it:",
           f"wake's memory is almost all fixed cost: `wake --version`, which does nothing, already peaks at "
           f"{fmt(mib(base), 1)} MiB; ringing the 10-minute FLAC takes {fmt(grow / 1024, 2)} MiB more than the "
           "5-second WAV (the file is streamed in fixed chunks, so its length does not count).", where, runtime)
    R.headline.append(
        f"Memory: {fmt(mib(top), 1)} MiB at most, whatever the file; aplay {fmt(mib(median(mem[('WAV', 'aplay')])), 1)}, "
        f"sox {fmt(mib(median(mem[('FLAC', 'sox')])), 1)}, mpv {fmt(mib(median(mem[('FLAC', 'mpv')])), 1)} MiB "
        f"({ratio(median(ring['FLAC']), median(mem[('FLAC', 'mpv')]))} of mpv's on the 10-minute FLAC).")


def report_startup(R, startup, static):
    R.add("## 5. Start-up", "")
    R.para("Whole-process wall time, `hyperfine -N --warmup 3` (no shell, warm caches), ms. The dry run resolves "
           "the time, opens and decodes the whole sound file, and opens and closes the device (`-D null`). The "
           "peers beside the dry runs do the nearest thing: aplay opens `null` and plays the 5-second WAV; "
           "`flac -t` decodes and checks the whole 10-minute FLAC.")
    pairs = [("wake --version", "aplay --version"),
             ("wake list", "aplay --version"),
             ("wake --version, all symbols bound at start (LD_BIND_NOW=1, as `-z now`)", "wake --version"),
             ("wake list, all symbols bound at start (LD_BIND_NOW=1)", "wake list"),
             ("wake 07:00 --dry-run (default sound)", "aplay --version"),
             ("wake 07:00 --dry-run (default sound)", "aplay -D null, 5 s WAV"),
             ("wake 07:00 --dry-run -s 10-min FLAC", "flac -t, 10-min FLAC (decode, check)")]
    rows, order = [], []
    for a, b in pairs:
        order += [n for n in (a, b) if n not in order]
    for n in order:
        against = "; ".join(f"{ratio(median(startup[n]), median(startup[b]))} `{b}`" for a, b in pairs if a == n)
        rows.append([f"`{n}`", fmt(median(startup[n]), 2), fmt(max(startup[n]), 2), len(startup[n]), against or "—"])
    R.table(["command", "median ms", "worst ms", "runs", "wake ÷ that"], rows)
    apl = median(startup["aplay --version"])
    v = median(startup["wake --version"]) / apl
    lst = median(startup["wake list"]) / apl
    dry = median(startup["wake 07:00 --dry-run (default sound)"])
    t5 = R.target("5", "`wake --version` within 3× of `aplay --version`", f"{v:.1f}×", v <= 3)
    t5l = R.target("5", "`wake list` within 3× of `aplay --version`", f"{lst:.1f}×", lst <= 3)
    t5d = R.target("5", "a dry run within 3× of `aplay --version`", f"{dry / apl:.1f}×", dry / apl <= 3)
    t5b = R.target("5", "dry run of the default sound within 50 ms", f"{fmt(dry, 1)} ms", dry <= 50)
    bind = median(startup["wake --version, all symbols bound at start (LD_BIND_NOW=1, as `-z now`)"]) - median(startup["wake --version"])
    R.para(f"Targets: `--version` within 3× of aplay's: {t5}; `wake list` within 3×: {t5l}; a dry run within 3×: {t5d} "
           f"(it opens and decodes the whole default sound and opens the device: aplay playing a file is the "
           f"nearer peer); a dry run of the default sound within 50 ms: {t5b}.",
           f"Binding every symbol at start, as a `-z now` link (Debian's hardening) would, costs "
           f"{fmt(bind, 2)} ms on `--version` in this run (`LD_BIND_NOW=1`, which makes the dynamic linker do "
           "exactly that).")
    ld = startup.get("loading")
    if ld:
        w, a = ld["wake"], ld["aplay"]
        cpu = startup.get("cpu", {})
        wc, ac = cpu.get("wake --version"), cpu.get("aplay --version")
        R.para("Finding:" if v > 3 else "Why wake starts slower:",
               f"wake loads {w['objects']} shared objects to print its version and takes {w['faults']} page "
               f"faults; aplay loads {a['objects']} and takes {a['faults']} (`ldd`, `/usr/bin/time -f %R`)."
               + (f" wake's start is {fmt(wc[0], 2)} ms of user and {fmt(wc[1], 2)} ms of system CPU, aplay's "
                  f"{fmt(ac[0], 2)} and {fmt(ac[1], 2)} (hyperfine's means)." if wc and ac else ""),
               f"The dynamic linker applies {w['relocations']:,} relocations for wake and {a['relocations']:,} "
               "for aplay (`LD_DEBUG=statistics`).",
               f"wake's libraries: {', '.join(w['names'])}: libsndfile brings every codec it can read and "
               "libsystemd its compression and crypto libraries, and each is mapped, relocated and faulted in "
               "before `main`.",
               ("A profile taken when this benchmark was written (`perf record -g` over 100 runs of "
                "`wake --version`, Swift runtime static, 4.4 ms a run) put 50 % of the time in the kernel (exec, "
                "`mmap`, page faults), 28 % in the dynamic linker (mostly symbol lookups), 17 % in the Swift "
                "runtime's start-up (6 points of it in `swift_conformsToProtocol`, scanning conformance records) "
                "and next to nothing in wake's own code. With the runtime shared it had been 6.6 ms: 48 % kernel, "
                "32 % dynamic linker, 13 % runtime." if static else
                "A profile taken when this benchmark was written (`perf record -g` over 100 runs of "
                "`wake --version`, Swift runtime shared, 6.6 ms a run) put 48 % of the time in the kernel (exec, "
                "`mmap`, page faults), 32 % in the dynamic linker and 13 % in the Swift runtime; linking the "
                "runtime statically (`-Xswiftc -static-stdlib`) took it to 4.4 ms."))
    R.para("What start-up was cut, and what each step bought (issue 18; measured while developing, on this "
           "machine shared with other builds: medians of three hyperfine rounds of 200 runs each, the old and new "
           "binaries side by side, so compare within a line rather than with the table above):",
           "(1) `wake --version` is answered before anything else, with one write(2). It had gone through "
           "swift-argument-parser, whose parse reflects over every option (Mirror, Decodable) and sets off the "
           "Swift runtime's first protocol-conformance lookup, which scans every conformance record in the "
           "static binary: `perf record` over 200 runs put a third of wake's user time in that scan alone. "
           "11.8 → 7.1 ms.",
           "(2) `wake list`, `wake stop|snooze [ID]` and `wake cancel ID` with plain words skip the parser too (it "
           "would return just those words; anything with a dash still goes through it, with its help and "
           "errors): `wake list` 10.8 → 8.7 ms, `wake stop` with nothing ringing 10.7 → 8.2 ms.",
           "(3) `-z pack-relative-relocs` (RELR; it needs lld or GNU ld 2.40, since gold, swiftc's default, does "
           "not know it) packs the static runtime's 51,650 relative relocations into a 4 KB table and takes 1 MB "
           "off the binary, but bought nothing: 7.1 ms either way. Applying relative relocations is cheap, and "
           "the pages they write are touched anyway. Not adopted. `-z now`, which the Debian package will be "
           "linked with, binds every symbol of the 22 objects before `main`: `LD_BIND_NOW=1` (the same work) "
           "took `--version` from 8.1 to 8.8 ms (five rounds, both through `env`; 0.6 ms more user time), "
           "about a tenth more; the rows above measure it again in this run.",
           "What is left is loading the C libraries, measured with a trivial static-stdlib Swift program linked "
           "against each set: alone 2.9 ms (aplay: 1.9 ms); with libasound 2.9; with libasound and libsndfile "
           "(libFLAC, libvorbis, libvorbisenc, libopus, libogg, libmpg123, libmp3lame) 4.4; with libasound and "
           "libsystemd (libcap, libgcrypt, libgpg-error, liblzma, libzstd, liblz4) 4.75; with all three, as "
           "wake, 6.0 ms; `wake --version` itself 7.3 ms (a 31 MB binary against 8 MB: more to map and fault "
           "in). **Next step**: `dlopen` libsystemd only when a bus is needed (the inhibitor, notifications) and "
           "libsndfile only when a sound file is opened; not done here, as the inhibitor and notification code "
           "is being changed elsewhere. Either alone takes off about 1.2–1.5 ms, which leaves `--version` near "
           "3× aplay's; both together, about 3 ms, would bring it to about 4.3 ms, 2.3× aplay's, and `wake "
           "list` with it.")
    sc = startup.get("sf_command", {})
    flac = median(startup["wake 07:00 --dry-run -s 10-min FLAC"])
    flac_t = median(startup["flac -t, 10-min FLAC (decode, check)"])
    if sc and sc.get("10-min FLAC", 0) > 5:
        R.para("Finding (no target, but it doubles the cost of arming with a long file):",
               f"of the 10-minute FLAC's dry run ({fmt(flac, 0)} ms), {fmt(sc['10-min FLAC'], 0)} ms are "
               "one libsndfile call, `sf_command(SFC_SET_SCALE_FLOAT_INT_READ)` in `SoundFile.init` (timed by the "
               "probe). libsndfile answers it, for any file, by computing the file's peak "
               "(`psf_calc_signal_max`): a whole extra decode, as doubles, before wake's own check decodes the "
               "file again. It is meant for float sources only.")
    else:
        R.para(f"Arming with the 10-minute FLAC decodes it once from end to end, as the check that a file will "
               f"play: {fmt(flac, 0)} ms against {fmt(flac_t, 0)} ms for `flac -t`, which does the same and no "
               "more. (The probe times libsndfile's `sf_command` calls too: none took over 5 ms. "
               "`SFC_SET_SCALE_FLOAT_INT_READ`, asked of every file when this benchmark was first written, "
               "decoded the whole file a second time to find its peak.)")
    R.headline.append(
        f"Start-up: `wake --version` {fmt(median(startup['wake --version']), 1)} ms ({v:.1f}× `aplay --version`), "
        f"`wake list` {fmt(median(startup['wake list']), 1)} ms ({lst:.1f}×); a dry run with the default sound "
        f"{fmt(dry, 1)} ms.")


def report_stop(R, stop):
    R.add("## 6. Stop latency", "")
    R.para("From `kill(pid, SIGTERM)` to `wait4()` returning in the benchmark, while ringing (wake 0.3 s after "
           "its `ringing` event; mpv 0.8 s after it started), ms. `sleep 3600` is the floor: a process that "
           "only has to exit. aplay and sox are not here: on `null` they finish the whole file before a signal "
           "can reach them.")
    wk = stop["wake (paced on null)"]
    rows = [[n, fmt(median(v), 2), fmt(max(v), 2), len(v), "—" if n.startswith("wake") else ratio(median(wk), median(v))]
            for n, v in stop.items()]
    R.table(["contestant", "median ms", "worst ms", "runs", "wake ÷ this"], rows)
    t6 = R.target("6", "stop within 30 ms of SIGTERM", f"{fmt(max(wk), 2)} ms at worst", max(wk) <= 30)
    R.para(f"Target: within 30 ms (worst run): {t6}.",
           "On `null` the stop is a 10 ms fade-out written at once, a drop and a close. On a real card "
           "`Ringer.fadeOut` first takes back what is queued, then waits for what remains (the part the card "
           "would not give back, then the fade) for at most 20 ms before the drop, so a stop there takes at "
           "most about 20 ms more than this (not measurable here).")
    R.headline.append(f"Stop: {fmt(median(wk), 1)} ms from SIGTERM to exit (worst {fmt(max(wk), 1)} ms).")


def report_desktop(R, desktop, window):
    R.add("## 7. The desktop path: through PulseAudio", "")
    R.para("A private PulseAudio server with one null sink (clocked: it takes audio in real time, as a sound card "
           "would, so every player here is paced by the server, and ALSA's `default` reaches it through the pulse "
           "plugin), started as the tests start it. What a listener would hear is recorded from the sink's monitor "
           "with `parec` (mono, 44.1 kHz, 10 ms fragments) by this script, which stamps each fragment on arrival "
           "(CLOCK_REALTIME); a sample is sound when its magnitude is over 64. Every contestant is measured through "
           "the same recording: wake (`-D default --mixer off`), `aplay -D default` (the same ALSA path), "
           "`paplay` (a native PulseAudio client), `mpv --ao=pulse` and `sox -t pulseaudio`.")
    f = desktop["firing"]
    names = ["wake"] + [n for n in DESKTOP_PLAYERS if n in f]
    wk = f.get("wake", [])
    R.para(f"**Firing**: from the deadline to the first sound at the sink, ms ({desktop['count']} round"
           f"{'s' if desktop['count'] != 1 else ''}, one alarm "
           "every 3 s, the contestants taking turns, each started 3.1–3.9 s before a whole-second deadline as in "
           "figure 1; the peers are the best shell recipe of figure 1, `sleep` to the microsecond then `exec` the "
           "player). The resolution is one fragment of the monitor, about 10 ms, either way and the same for every "
           "player: the null sink renders a fragment at a time, and a fragment can only be placed by its arrival; "
           "a figure a few milliseconds below zero is within it.")
    # A difference, not a ratio: at the sink a delay can be a little below zero (the resolution).
    R.table(["contestant", "median ms", "worst ms", "alarms", "wake − this (median), ms"],
            [[n, fmt(median(f[n]), 1), fmt(max(f[n]), 1), len(f[n]), "—" if n == "wake" else
              (lambda d: f"{d:+.1f}" if abs(d) < 100 else f"{d:+,.0f}")(median(wk) - median(f[n]))]
             for n in names if f.get(n)])
    rows_by = window["rows"]
    ring = [(label, r) for (kind, label), r in rows_by.items() if kind == "desktop"]
    R.para(f"**Ringing**: CPU and wake-ups per minute over the window of figure 2 ({window['copies']} copies of each, "
           f"the same {window['seconds']} s, after 3 s of settling), all ringing into the one server at once; peak "
           "memory is VmHWM at the end of the window. wake and mpv loop the 5-second WAV; aplay, paplay and sox "
           "cannot loop a file, so they play the 10-minute WAV of the same beeps. The server's own cost is not in "
           "any contestant's row; it is given below the table for all the streams together.")
    # Should every copy of wake have ended during the window (a failure, listed under figure 2), an
    # empty row keeps the report going and the targets say so.
    wake_ring = rows_by.get(("desktop", "wake -D default")) or {"cpu_ms_per_min": [float("nan")],
                                                               "wakeups_per_min": [float("nan")], "maxrss_kb": [float("nan")]}
    rows = []
    for label, r in ring:
        cpu = r["cpu_ms_per_min"]
        rows.append([label, fmt(median(cpu), 1), fmt(max(cpu), 1), fmt(max(cpu) / 600, 3),
                     fmt(median(r["wakeups_per_min"]), 0), fmt(max(r["wakeups_per_min"]), 0),
                     fmt(mib(median(r["maxrss_kb"])), 1), fmt(mib(max(r["maxrss_kb"])), 1),
                     "—" if label.startswith("wake") else
                     f"{ratio(median(wake_ring['cpu_ms_per_min']), median(cpu))} / "
                     f"{ratio(median(wake_ring['wakeups_per_min']), median(r['wakeups_per_min']))} / "
                     f"{ratio(median(wake_ring['maxrss_kb']), median(r['maxrss_kb']))}"])
    R.table(["contestant", "CPU ms/min (median)", "(worst)", "% of a core (worst)", "wake-ups/min (median)", "(worst)",
             "peak MiB (median)", "(worst)", "wake ÷ this (CPU / wake-ups / memory)"], rows)
    server = window.get("watched", {}).get("pulseaudio")
    if server:
        R.para(f"The PulseAudio server itself, mixing all {len(ring) * window['copies']} streams: "
               f"{fmt(server['cpu_ms_per_min'], 0)} ms of CPU and {fmt(server['wakeups_per_min'], 0)} wake-ups a minute.")
    worst_core = max(wake_ring["cpu_ms_per_min"]) / 600
    worst_mem = mib(max(wake_ring["maxrss_kb"]))
    t7a = R.target("7", "ringing through PulseAudio under 1 % of one core", f"{fmt(worst_core, 3)} % at worst", worst_core < 1)
    t7b = R.target("7", "peak memory under 16 MiB ringing through PulseAudio", f"{fmt(worst_mem, 1)} MiB at worst", worst_mem < 16)
    st = desktop["stop"]
    R.para(f"Targets (those of figures 3 and 4, on this path): under 1 % of one core: {t7a}; peak memory under 16 MiB: {t7b}.")
    ap = rows_by.get(("desktop", "aplay -D default"))
    if ap and median(wake_ring["cpu_ms_per_min"]) > median(ap["cpu_ms_per_min"]):
        R.para("Finding:",
               f"on this path wake spends {ratio(median(wake_ring['cpu_ms_per_min']), median(ap['cpu_ms_per_min']))} "
               f"the CPU of aplay on the same ALSA device, and wakes {ratio(median(wake_ring['wakeups_per_min']), median(ap['wakeups_per_min']))} "
               "as often. The likely cause is the buffer: wake opens the device with `snd_pcm_set_params` for "
               "100 ms of latency (`PCM.swift`), which ALSA splits into periods of about a quarter of that, so its "
               "worker, and the pulse plugin's thread with it, is woken for every 25 ms or so of audio; aplay asks "
               "for a 500 ms buffer and 125 ms periods. A longer buffer on a server-backed device (`default`, "
               "`pulse`, `pipewire`: the server keeps its own, and a stop drops what is queued anyway) would be the "
               "next step; not changed here.")
    if mib(max(wake_ring["maxrss_kb"])) >= 16:
        R.para("Finding:", f"ringing through the server wake peaks at {fmt(worst_mem, 1)} MiB: the pulse plugin loads "
               "libpulse and libpulsecommon and starts a thread of its own, on top of the fixed cost of figure 4.")
    R.para("**Stop**: from the stop to the last sound at the sink, ms, in the same rounds as the firing: each ring "
           "is stopped 0.8 s after its deadline or 0.4 s after its first sound, whichever is later; by SIGTERM "
           "(every contestant), or by running `wake stop PID` (wake's second slot in each round; the time runs from "
           "the command's start). A negative time means the last sound reached the sink before the stop: what "
           "the player had queued in the server was dropped, not played out (the resolution is the same 10 ms "
           "fragment as for the firing).")
    order = sorted(st, key=lambda k: (not k.startswith("wake"), k))
    R.table(["contestant, how", "median ms", "worst ms", "runs"], [[k, fmt(median(st[k]), 1), fmt(max(st[k]), 1), len(st[k])] for k in order])
    term = st.get("wake, by SIGTERM", [])
    ctl = st.get("wake, by `wake stop PID` (command start to silence)", [])
    if term:
        t7c = R.target("7", "silence at the sink within 30 ms of SIGTERM", f"{fmt(max(term), 1)} ms at worst", max(term) <= 30)
        R.para(f"Target (figure 6's, at the sink): silence within 30 ms of SIGTERM: {t7c}.",
               "wake fades out over 10 ms and drops what is queued; sox plays out what it has buffered; the others "
               "are torn down by the signal and the server drops their stream.")
    R.failures(desktop["failures"])
    R.headline.append(
        f"Desktop path (PulseAudio): first sound at the sink {fmt(median(wk), 1)} ms after the deadline (worst "
        f"{fmt(max(wk), 1)}), paplay {fmt(median(f.get('paplay', [])), 1)}, aplay {fmt(median(f.get('aplay -D default', [])), 1)} ms; "
        f"ringing {fmt(median(wake_ring['cpu_ms_per_min']), 1)} ms of CPU and {fmt(median(wake_ring['wakeups_per_min']), 0)} "
        f"wake-ups a minute, {fmt(worst_mem, 1)} MiB; silence {fmt(median(term), 1)} ms after SIGTERM"
        + (f", {fmt(median(ctl), 1)} ms after `wake stop` starts." if ctl else "."))


def report_daemon(R, window, add):
    rows_by = window["rows"]
    R.add("## 8. The daemon: 1, 20 and 200 standing alarms", "")
    R.para(f"`wake daemon --inhibit off` with 1, 20 and 200 standing alarms (alarms.toml written in `wake add`'s "
           "format: every alarm on the weekday three days away, so the nearest is days off; every other one with "
           "its own sound file, the 5-second WAV, the rest the built-in sound; device `null`), each in private XDG "
           f"directories, {window['copies']} copies of each, waiting through the window of figure 2 (sampled once each "
           "has logged an `armed` event for every alarm). Wake-ups are context switches, CPU the scheduler's count, "
           "peak memory VmHWM, as in figures 2 and 4.")
    rows, worst_w, mem200 = [], 0.0, None
    sl = rows_by.get(("wait", "sleep 3600"))
    for n in DAEMON_SIZES:
        r = rows_by.get(("daemon", f"wake daemon, {n} standing alarm{'s' if n > 1 else ''}"))
        if not r:
            continue
        worst_w = max(worst_w, max(r["wakeups_per_min"]))
        if n == DAEMON_SIZES[-1]:
            mem200 = mib(max(r["maxrss_kb"]))
        rows.append([n, fmt(median(r["wakeups_per_min"]), 1), fmt(max(r["wakeups_per_min"]), 1),
                     fmt(median(r["cpu_ms_per_min"]), 3), fmt(max(r["cpu_ms_per_min"]), 3),
                     fmt(mib(median(r["maxrss_kb"])), 1), fmt(mib(max(r["maxrss_kb"])), 1)])
    if sl:
        rows.append(["`sleep 3600`, for scale", fmt(median(sl["wakeups_per_min"]), 1), fmt(max(sl["wakeups_per_min"]), 1),
                     fmt(median(sl["cpu_ms_per_min"]), 3), fmt(max(sl["cpu_ms_per_min"]), 3),
                     fmt(mib(median(sl["maxrss_kb"])), 1), fmt(mib(max(sl["maxrss_kb"])), 1)])
    R.table(["standing alarms", "wake-ups/min (median)", "(worst)", "CPU ms/min (median)", "(worst)", "peak MiB (median)", "(worst)"], rows)
    t8a = R.target("8", "the daemon waiting: zero wake-ups per minute (as `sleep`)", f"{fmt(worst_w, 1)} per minute at worst", worst_w == 0)
    t8b = R.target("8", "the daemon's peak memory under 16 MiB with 200 alarms",
                   f"{fmt(mem200, 1)} MiB at worst" if mem200 is not None else "not measured", mem200 is not None and mem200 < 16)
    R.para(f"Targets: zero wake-ups a minute while waiting: {t8a}; under 16 MiB with 200 alarms: {t8b}.")
    if add:
        R.para("**From `wake add` to armed**: from the start of `wake add HH:MM --days DAY --name NAME -D null` to the "
               "daemon's `armed` event for that alarm in its event log (the log polled every 0.5 ms), against the "
               "daemons above (copy 0) after the window; and the same command alone, from its start to its exit. "
               "The daemon hears of the change from inotify on its directories, re-reads the files and arms "
               "what changed.")
        rows = []
        for n, v in add.items():
            if n == "failures" or not v["armed_ms"]:
                continue
            rows.append([n, fmt(median(v["armed_ms"]), 1), fmt(max(v["armed_ms"]), 1),
                         fmt(median(v["exit_ms"]), 1), fmt(max(v["exit_ms"]), 1), len(v["armed_ms"])])
        R.table(["standing alarms", "add → armed, median ms", "(worst)", "`wake add` start → exit, median ms", "(worst)", "adds"], rows)
        R.failures(add.get("failures", []))
        small, large = (add.get(n, {}).get("armed_ms") for n in (DAEMON_SIZES[0], DAEMON_SIZES[-1]))
        if small and large and median(large) > 3 * median(small):
            R.para("Finding (no target was set, but it grows with the alarms):",
                   f"with {DAEMON_SIZES[-1]} alarms an add takes {fmt(median(large), 0)} ms to be armed, against "
                   f"{fmt(median(small), 0)} ms with {DAEMON_SIZES[0]}, while the command itself takes the same time. "
                   "On every change the daemon re-reads both files and checks every alarm's stored options again "
                   "(`DaemonController.reload`, `RingSettings(stored:)`), whichever alarm changed, and that check "
                   "runs swift-argument-parser over the options (`RingOptionGroup.parse`), the same parse that "
                   "dominated start-up (figure 5): a millisecond or two per alarm. `wake list` does the same for "
                   "each alarm. Next step: keep each alarm's checked settings while its stored options and the "
                   "config file's entries are unchanged, or check stored options without the parser.")
    big = rows_by.get(("daemon", f"wake daemon, {DAEMON_SIZES[-1]} standing alarms"))
    armed = add.get(DAEMON_SIZES[-1], {}).get("armed_ms") if add else None
    R.headline.append(
        f"Daemon: {fmt(median(big['wakeups_per_min']), 1) if big else '—'} wake-ups a minute waiting with {DAEMON_SIZES[-1]} "
        f"alarms, {fmt(mem200, 1)} MiB; `wake add` to armed {fmt(median(armed), 1) if armed else '—'} ms.")


def report_control(R, control):
    R.add("## 9. Control round trips", "")
    R.para("One alarm ringing on `null` (`--snooze 1s`, so that it rings again a second after each snooze), in "
           "private XDG directories, its control socket in `$XDG_RUNTIME_DIR/wake/`. Each cycle times, 0.1 s into a "
           "ring: `wake snooze PID` from its start to the alarm's `snoozed` event in its event log (polled every "
           "0.5 ms); the baseline, `pkill -USR1 -s SID -x wake`, the same way (SIGUSR1 snoozes; the alarm runs in a "
           "session of its own so that no other wake on the machine is signalled, and pkill still reads every "
           "process in /proc); `wake list` from start to exit; `wake stop PID` from start to `stopped`.")
    base = control.get("pkill -USR1 -s SID wake", [])
    rows = []
    for k in ["wake snooze PID", "wake stop PID", "wake list", "pkill -USR1 -s SID wake"]:
        v = control.get(k, [])
        if v:
            rows.append([f"`{k}`", fmt(median(v), 2), fmt(max(v), 2), len(v),
                         "—" if k.startswith("pkill") else ratio(median(v), median(base))])
    R.table(["command", "median ms", "worst ms", "runs", "÷ pkill (median)"], rows)
    faster = [k for k in ("wake snooze PID", "wake stop PID") if control.get(k) and base and median(control[k]) < median(base)]
    R.para("A control command is a whole `wake` start (see figure 5: loading its shared objects is most of it), a "
           "connect, one request line and one answer, and the alarm's own turn of its loop; `pkill` starts a "
           "small C program that reads `/proc/PID/stat` of every process on the machine "
           f"({control.get('processes', '?')} at the end of this figure) before it signals, and a signal needs no answer.",
           ("Here wake's round trips are the shorter: pkill's walk over /proc costs more than wake's start and its "
            "socket." if faster else "Here pkill is the shorter."),
           "No target was set for these.")
    R.failures(control.get("failures", []))
    sn, st = control.get("wake snooze PID", []), control.get("wake stop PID", [])
    R.headline.append(f"Control: `wake snooze` {fmt(median(sn), 1)} ms and `wake stop` {fmt(median(st), 1)} ms from the "
                      f"command's start to the alarm's event, against {fmt(median(base), 1)} ms for `pkill -USR1`.")


def write_report(ctx, m, fire, window, thr, sysc, mem, startup, stop, desktop, control, elapsed, output):
    body = Report()
    report_firing(body, fire)
    report_waiting(body, window)
    report_ringing(body, window, thr, sysc)
    report_memory(body, ctx, window, mem)
    report_startup(body, startup, ctx["static_runtime"])
    report_stop(body, stop)
    report_desktop(body, desktop, window)
    report_daemon(body, window, window.get("after"))
    report_control(body, control)

    R = Report()
    R.add("# wake: benchmarks", "")
    R.para(f"Made by `make bench` ([Benchmarks/run.py](Benchmarks/run.py)) on {m['date']} in "
           f"{int(elapsed // 60)} min {int(elapsed % 60)} s; run it again rather than edit this file. Every "
           "figure comes from this one run on this one machine, every contestant measured the same way, headless: "
           "figures 1 to 6, 8 and 9 on ALSA's `null` PCM (no sound card), figure 7 through a private PulseAudio "
           "server with a null sink, the desktop's path. \"wake ÷ this\" is wake's median over the other's: below 1× "
           "wake takes less time, CPU or memory, except for throughput, where above 1× is better.")
    R.add("## Machine", "")
    R.table(["", ""], [
        ["date", m["date"]], ["cores", f"{m['cores']} × {m['cpu']}"], ["kernel", m["kernel"]], ["system", m["os"]],
        ["alsa-lib", m["alsa"]], ["libsndfile", m["sndfile"]], ["wake", m["wake"]], ["built with", f"`{m['build']}`"], ["Swift", m["swift"]],
        ["peers", f"{m['aplay']}; sox {m['sox']}; {m['mpv']}; {m['hyperfine']}"],
        ["load average (1, 5, 15 min)", f"{m['load']} at the start, {loadavg()} at the end"],
    ])
    R.para("Test sounds, made by sox at the start of the run: a 5-second WAV (two tones beeping, 44.1 kHz stereo "
           "16-bit, 0.9 MB), the same beeps for 10 minutes (for the throughput runs, 106 MB) and a 10-minute FLAC "
           f"of pink noise (44.1 kHz stereo 16-bit, {ctx['sounds']['flac600'].stat().st_size / 1e6:.0f} MB; noise "
           "is the hardest material for a FLAC decoder).")
    R.add("## Targets at a glance", "", "| figure | target | wake | |", "|---|---|---|---|")
    R.add(*[f"| {f} | {t} | {v} | {verdict(ok)} |" for f, t, v, ok in body.targets])
    R.add("", "## Headline", "")
    R.add(*[f"- {h}" for h in body.headline])
    R.add("")
    R.add(*body.lines)
    output.write_text("\n".join(R.lines).rstrip() + "\n")
    return body.targets


# ---------------------------------------------------------------------------------------------


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--quick", action="store_true",
                    help="fewer repeats and a 10 s window, written to $TMPDIR/BENCHMARKS-quick.md (for editing this script)")
    quick = ap.parse_args().quick
    output = Path(tempfile.gettempdir()) / "BENCHMARKS-quick.md" if quick else OUTPUT

    signal.signal(signal.SIGTERM, lambda *_: sys.exit(143))  # so that cleanup runs
    ensure_packages()
    wake = build_wake()
    work = Path(tempfile.mkdtemp(prefix="wake-bench-"))
    try:
        ctx = {"wake": wake, "work": work, "probe": build_probe(work), "sounds": make_sounds(work),
               "static_runtime": "libswiftCore" not in run(["ldd", str(wake)])}
        m = machine(wake)
        fire = fig_firing(ctx, 4 if quick else 16)
        pulse = PulseServer(work / "pulse")
        recorder = MonitorRecorder(pulse)
        desktop = fig_desktop(ctx, pulse, recorder, 1 if quick else 4)
        recorder.stop()
        window = fig_quiet_window(ctx, 10 if quick else 60, 2 if quick else 3,
                                  extra=desktop_ringers(ctx, pulse) + daemon_contestants(ctx),
                                  watch={"pulseaudio": pulse.proc.pid},
                                  after=lambda procs: daemon_add_to_armed(ctx, 3 if quick else 10))
        pulse.stop()
        thr = fig_throughput(ctx, 2 if quick else 5)
        sysc = syscalls_per_audio_second(ctx)
        mem = fig_memory_peers(ctx, 2 if quick else 3)
        startup = fig_startup(ctx, 10 if quick else 30)
        stop = fig_stop(ctx, 4 if quick else 15)
        control = fig_control(ctx, 2 if quick else 6)
        elapsed = time.monotonic() - STARTED
        targets = write_report(ctx, m, fire, window, thr, sysc, mem, startup, stop, desktop, control, elapsed, output)
    finally:
        cleanup()
        shutil.rmtree(work, ignore_errors=True)
    log(f"wrote {output} in {elapsed:.0f} s")
    for f, t, v, ok in targets:
        print(f"  {'met   ' if ok else 'MISSED'}  {f}. {t}: {v}")


if __name__ == "__main__":
    main()
