"""Figures 2, 3 (paced), 7 (ringing) and 8 (waiting): one quiet window in which every contestant
waits or rings at once, sampled from /proc at its start and end."""

import os
import re
import shutil
import signal
import subprocess
import time
from pathlib import Path

from .commands import entry
from .common import env_with, log
from .memory import smaps_summary
from .processes import read_status, reap, sample, spawn


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


def wake_wait(ctx, when, inhibit="off"):
    """A one-off waiting on null for `when` (an hour away), with or without logind's inhibitor."""
    return [ctx["wake"], when, "-D", "null", "--inhibit", inhibit]


def wake_paced(ctx, sound):
    """A one-off ringing `sound` on null, paced as on a card, for the whole window."""
    return [ctx["wake"], "now", "-D", "null", "-s", sound, "--inhibit", "off", "--ring-for", "10m", "-q"]


def wake_commands(ctx):
    in_an_hour = time.strftime("%H:%M:%S", time.localtime(time.time() + 3600))
    return ([entry("2", wake_wait(ctx, in_an_hour, "off"), "dry-run"),
             entry("2", wake_wait(ctx, in_an_hour, "require"), "dry-run", needs="logind (python-dbusmock's, on a private system bus)")]
            + [entry("3", wake_paced(ctx, ctx["sounds"][k]), "dry-run") for k in ("wav5", "flac600")])


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
    s = ctx["sounds"]
    work = ctx["work"] / "window"
    work.mkdir()
    in_an_hour = time.strftime("%H:%M:%S", time.localtime(time.time() + 3600))
    waiting = wake_wait(ctx, in_an_hour)
    mock = LogindMock(work)
    contestants = [
        ("wait", "wake (an hour away)", waiting, None),
        ("wait", "sleep 3600", ["sleep", "3600"], None),
        ("wait", "once-a-second loop (python3)", ["python3", "-c", TICKER], None),
    ]
    if mock.address:
        contestants.insert(1, ("wait", "wake, holding a logind inhibitor",
                               wake_wait(ctx, in_an_hour, "require"),
                               {"DBUS_SYSTEM_BUS_ADDRESS": mock.address}))
    for key, label in [("wav5", "5 s WAV"), ("flac600", "10 min FLAC")]:
        contestants += [
            ("ring", f"wake, paced on null ({label})",
             wake_paced(ctx, s[key]), None),
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
    traced = spawn(["strace", "-ttt", "-e", "trace=poll,read,timerfd_create,timerfd_settime,signalfd4", "-o", trace] + waiting)
    time.sleep(3)
    for p in procs:
        deadline = time.monotonic() + 30
        while p["ready"] and not p["ready"](p["copy"]) and time.monotonic() < deadline:
            time.sleep(0.05)
    watched0 = {name: sample(pid) for name, pid in (watch or {}).items()}
    for p in procs:
        p["t0"] = sample(p["proc"].pid)
        # From here VmHWM is the peak within the window (while ringing, for a ringer); the peak of
        # the whole run is the larger of the two readings.
        p["hwm_reset"] = reset_peak(p["proc"].pid)
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
    # Where a ringing wake's memory is, on each sound server (figure 7's memory target).
    ringing_smaps = {}
    for p in procs:
        if p["label"] == "wake -D default" and p["copy"] == 0 and p["proc"].poll() is None:
            ringing_smaps[p["kind"]] = {"by_mapping": smaps_summary(p["proc"].pid),
                                        "status": read_status(f"/proc/{p['proc'].pid}/status")}
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
        p["code"], p["maxrss_kb"] = code, max(p["t0"]["hwm_kb"], p["t1"]["hwm_kb"])
        p["window_hwm_kb"] = p["t1"]["hwm_kb"] if p["hwm_reset"] else p["maxrss_kb"]
        if p["label"].startswith("wake") and code not in (0, 143) and p["kind"] in ("wait", "ring"):
            failures.append(f"{p['label']}: exit {code}: {p['proc'].stderr_text[:200]}")
    mock.stop()
    rows = {}
    for p in procs:
        minutes = (p["t1"]["t"] - p["t0"]["t"]) / 60e9
        r = rows.setdefault((p["kind"], p["label"]), {"wakeups_per_min": [], "cpu_ms_per_min": [], "maxrss_kb": [],
                                                      "window_hwm_kb": []})
        r["window_hwm_kb"].append(p["window_hwm_kb"])
        r["wakeups_per_min"].append((p["t1"]["switches"] - p["t0"]["switches"]) / minutes)
        r["cpu_ms_per_min"].append((p["t1"]["cpu_ns"] - p["t0"]["cpu_ns"]) / 1e6 / minutes)
        r["maxrss_kb"].append(p["maxrss_kb"])
    return {"rows": rows, "failures": failures, "seconds": seconds, "copies": copies,
            "inhibitor": mock.address is not None, "clock_steps": steps,
            "why_awake": explain_wakeups(trace, wall0, wall1), "after": after_result,
            "watched": {name: {"cpu_ms_per_min": (b["cpu_ns"] - a["cpu_ns"]) / 1e6 / ((b["t"] - a["t"]) / 60e9),
                               "wakeups_per_min": (b["switches"] - a["switches"]) / ((b["t"] - a["t"]) / 60e9)}
                        for name, (a, b) in watched.items()},
            "exits": {(p["kind"], p["label"]): p["code"] for p in procs}, "ringing_smaps": ringing_smaps}


def reset_peak(pid):
    """Sets the process's VmHWM back to its present VmRSS (`/proc/PID/clear_refs`, 5: Linux 4.0,
    the process's owner or root). False when it could not be done: then the window's peak is the
    whole run's."""
    try:
        with open(f"/proc/{pid}/clear_refs", "w") as f:
            f.write("5")
        return True
    except OSError:
        return False


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
