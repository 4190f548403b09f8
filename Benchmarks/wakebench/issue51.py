"""Figure 10 (issue 51): the waiting daemon against cron and atd, by its alarms.

- Resident memory (VmRSS, settled) of `wake daemon` with 20, 200 and 2,000 weekday alarms, once
  every alarm is armed (its `armed` events) and after reloads: each reload a `wake add` of one more
  alarm, done once the daemon's `armed` event for it is in its event log; 20 reloads of the 2,000.
  The same daemon with its D-Bus API on a private session bus (20 and 2,000); 400 spoken alarms
  (`say = "on"`) against 400 unspoken; `cron -f` and `atd -f` beside them (root only).
- What grows with the alarms: `wake list` (hyperfine), `wake add` to armed (the command's start to
  the daemon's `armed` event for the new alarm), and the daemon's reload (the command's exit, by
  which it has written alarms.toml, to that event: the daemon's reading, planning and arming).
- A waiting daemon's wake-ups (context switches, every thread) over a window in which a script
  writes a file in /etc every second (root only).
- A spoken alarm's first frame: standing alarms a few seconds ahead, spoken and unspoken in turn,
  each one's lateness from the daemon's `ringing` event (the clip must be made before the deadline).

The alarms are on the weekdays other than today and tomorrow, so none comes near (no notice, no
pre-roll, no ring) while it is measured."""

import datetime
import json
import os
import shlex
import shutil
import signal
import subprocess
import tempfile
import time

from .bus import SESSION_BUS, wait_for
from .commands import entry
from .common import env_with, log
from .memory import smaps_summary
from .daemon import DAY_NAMES, EventTail, add_cmd, armed_count, daemon_cmd, far_day, write_alarms
from .processes import reap, read_status, sample, spawn
from .startup import hyperfine

SIZES = (20, 200, 2000)
BUS_SIZES = (20, 2000)
RELOADS = 20  # of the 2,000; the smaller daemons reload a few times, for the times
SPOKEN = 400


def weekdays_away():
    """Monday to Friday but today and tomorrow: weekday alarms, none due within a day."""
    today = datetime.date.today().weekday()
    return [DAY_NAMES[d] for d in range(5) if d not in (today, (today + 1) % 7)]


def _home(ctx, name, alarms, say=False):
    d = ctx["work"] / "issue51" / name
    env = {"XDG_CONFIG_HOME": d / "config", "XDG_STATE_HOME": d / "state", "XDG_RUNTIME_DIR": d / "run"}
    for v in env.values():
        v.mkdir(mode=0o700, parents=True, exist_ok=True)
    write_alarms(d / "config" / "wake" / "alarms.toml", alarms, ctx["sounds"]["wav5"], say=say, days=weekdays_away())
    return d, env


def spoken_add_cmd(ctx, hhmmss, day, name, say):
    """A standing alarm a few seconds ahead, spoken or not, ringing a second: the spoken firing."""
    return [ctx["wake"], "add", hhmmss, "--days", day, "--name", name, "-D", "null", "--mixer", "off", "--say", say, "--ring-for", "1s",
            "--force", "-q"]


def wake_commands(ctx):
    events = "{path:events.jsonl}"
    day = far_day()
    return ([entry("10", spoken_add_cmd(ctx, "07:00:30", day, "firing-on-0", say), "run") for say in ("on", "off")]
            + [entry("10", daemon_cmd(ctx, events, notify="off"), "start")]
            + [entry("10", daemon_cmd(ctx, events), "start", alarms=n) for n in SIZES]
            + [entry("10", add_cmd(ctx, "23:00", day, "bench-reload-0"), "run", alarms=n) for n in SIZES]
            + [entry("10", [ctx["wake"], "list"], "run", alarms=n) for n in SIZES]
            + [entry("10", daemon_cmd(ctx, events), "start", alarms=SPOKEN, say=True)])


def rss_kb(pid):
    try:
        return int(read_status(f"/proc/{pid}/status").get("VmRSS", "0 kB").split()[0])
    except OSError:
        return None


def settled_rss(pid, quiet=2.0, limit=8.0):
    """VmRSS once it has not changed for `quiet` seconds (at most `limit`): the daemon's pages
    after its start or a reload, not a reading in the middle of one. Longer than the quiet second
    after which a daemon that has armed gives back what arming ran (`CodeReleasePolicy`): a
    shorter settling read the daemon in the middle of its reload's pages."""
    last, since, deadline = rss_kb(pid), time.monotonic(), time.monotonic() + limit
    while time.monotonic() < deadline and time.monotonic() - since < quiet:
        time.sleep(0.05)
        now = rss_kb(pid)
        if now != last:
            last, since = now, time.monotonic()
    return last


def run_daemon(ctx, name, alarms, reloads=1, bus=None, say=False, timeout=180.0):
    """One daemon: its settled RSS once every alarm is armed, after its first reload and after its
    last; each reload's add → armed and exit → armed, ms."""
    d, env = _home(ctx, name, alarms, say)
    events = d / "events.jsonl"
    e = env_with(**env, **({"DBUS_SESSION_BUS_ADDRESS": bus} if bus else {}))
    if not bus:
        e.pop("DBUS_SESSION_BUS_ADDRESS", None)
    t0 = time.monotonic()
    p = spawn(daemon_cmd(ctx, events), env=e)
    out = {"alarms": alarms, "bus": bool(bus), "say": say, "add_ms": [], "reload_ms": [], "failures": []}
    try:
        while armed_count(events) < alarms and time.monotonic() - t0 < timeout and p.poll() is None:
            time.sleep(0.01)
        out["armed_s"] = time.monotonic() - t0
        if armed_count(events) < alarms:
            out["failures"].append(f"{name}: {armed_count(events)} of {alarms} armed in {out['armed_s']:.0f} s, "
                                   f"exit {p.poll()}")
            return out
        if bus and not wait_for(lambda: "true" in subprocess.run(
                ["busctl", f"--address={bus}", "call", "org.freedesktop.DBus", "/org/freedesktop/DBus", "org.freedesktop.DBus",
                 "NameHasOwner", "s", "io.github.wakeclock.Wake1"], stdout=subprocess.PIPE, stderr=subprocess.DEVNULL,
                text=True).stdout, 20):
            out["failures"].append(f"{name}: the D-Bus API never appeared on the bus")
        out["rss_start_kb"] = settled_rss(p.pid)
        tail = EventTail(events)
        day = far_day()
        for r in range(reloads):
            alarm = f"bench-reload-{r}"
            tail.skip()
            a0 = time.monotonic()
            add = spawn(add_cmd(ctx, f"23:{r % 60:02d}", day, alarm), env=e)
            code, _ = reap(add)
            exited = time.monotonic()
            seen = tail.wait(['"event":"armed"', f'"alarm":"{alarm}"'], timeout=30)
            if code != 0 or seen is None:
                out["failures"].append(f"{name}: wake add {alarm}: exit {code}, armed {'seen' if seen else 'not seen'}: "
                                       f"{add.stderr_text[:200]}")
                break
            out["add_ms"].append((seen - a0) * 1000)
            out["reload_ms"].append(max(0.0, seen - exited) * 1000)
            if r == 0:
                out["rss_reload_kb"] = settled_rss(p.pid)
        out["rss_last_kb"] = settled_rss(p.pid)
        out["hwm_kb"] = sample(p.pid)["hwm_kb"]
        # Where it is, for the findings: anonymous against file pages, and the biggest mappings.
        status = read_status(f"/proc/{p.pid}/status")
        out["anon_kb"], out["file_kb"] = (int(status.get(k, "0 kB").split()[0]) for k in ("RssAnon", "RssFile"))
        out["smaps"] = (smaps_summary(p.pid) or [])[:8]
        out["reloads"] = len(out["add_ms"])
    finally:
        if p.poll() is None:
            p.send_signal(signal.SIGTERM)
        code, _ = reap(p)
        if code not in (0, 143, -15):
            out["failures"].append(f"{name}: exit {code}: {p.stderr_text[:200]}")
    return out


def peers_rss():
    """`cron -f` and `atd -f`, as root, each once started: {name: kB} or {name: None} with why."""
    out, why = {}, {}
    for name, cmd in (("cron", ["cron", "-f"]), ("atd", ["atd", "-f"])):
        if os.geteuid() != 0 or not shutil.which(cmd[0]):
            out[name] = None
            why[name] = "not run (needs root and Debian's " + ("cron" if name == "cron" else "at") + " package)"
            continue
        p = spawn(cmd)
        time.sleep(2)
        out[name] = rss_kb(p.pid) if p.poll() is None else None
        if out[name] is None:
            why[name] = f"exited at once ({p.poll()}): another one running?"
        p.send_signal(signal.SIGTERM)
        reap(p)
    return out, why


def etc_wakeups(ctx, seconds):
    """A daemon with 20 alarms, waiting, while a file in /etc is written every second: its
    context switches (every thread) over `seconds`. None when not root."""
    if os.geteuid() != 0:
        return None
    d, env = _home(ctx, "etc-writes", 20)
    events = d / "events.jsonl"
    e = env_with(**env)
    e.pop("DBUS_SESSION_BUS_ADDRESS", None)
    p = spawn(daemon_cmd(ctx, events), env=e)
    fd, path = tempfile.mkstemp(prefix="wake-bench-", dir="/etc")
    os.close(fd)
    try:
        wait_for(lambda: armed_count(events) >= 20, 60)
        time.sleep(3)  # past its start
        a = sample(p.pid)
        end, writes = time.monotonic() + seconds, 0
        while time.monotonic() < end:
            with open(path, "w") as f:
                f.write(f"{time.time()}\n")
            writes += 1
            time.sleep(max(0, min(1.0, end - time.monotonic())))
        b = sample(p.pid)
        return {"wakeups": b["switches"] - a["switches"], "seconds": (b["t"] - a["t"]) / 1e9, "writes": writes}
    finally:
        os.unlink(path)
        p.send_signal(signal.SIGTERM)
        reap(p)


def spoken_firing(ctx, rounds=2, spacing=4):
    """Target 1's "first frame still on time": one daemon, alarms a few seconds ahead taking
    turns spoken and unspoken (`wake add --say on|off`), each ringing a second; each ring's lateness
    from the daemon's own `ringing` event (late_ms: deadline to the first frame written, which
    figure 1 checks against the probe). The clip is made when the occurrence comes near, so a
    late clip shows here. As root, a third kind, unspoken with the page cache dropped a second
    before the deadline (target 2: what the waiting daemon gives back must be back in time).
    {"on": [ms], "off": [ms], "cold": [ms], "failures": [...]}"""
    d, env = _home(ctx, "spoken-firing", 0)
    e = env_with(**env)
    e.pop("DBUS_SESSION_BUS_ADDRESS", None)
    out = {"on": [], "off": [], "cold": [], "failures": []}
    kinds = ("on", "off", "cold") if os.geteuid() == 0 else ("on", "off")
    first = int(time.time()) + 12
    plan = []
    for k in range(len(kinds) * rounds):
        deadline, kind = first + spacing * k, kinds[k % len(kinds)]
        say = "on" if kind == "on" else "off"
        at = time.localtime(deadline)
        name = f"firing-{kind}-{k}"
        add = spawn(spoken_add_cmd(ctx, time.strftime("%H:%M:%S", at), DAY_NAMES[at.tm_wday], name, say), env=e)
        code, _ = reap(add)
        if code != 0:
            out["failures"].append(f"spoken firing: wake add {name}: exit {code}: {add.stderr_text[:200]}")
            continue
        plan.append((deadline, name, kind))
    events = d / "events.jsonl"
    p = spawn(daemon_cmd(ctx, events, notify="off"), env=e)
    try:
        for deadline, _, kind in plan:
            if kind == "cold":
                time.sleep(max(0, deadline - 1 - time.time()))
                os.sync()
                with open("/proc/sys/vm/drop_caches", "w") as f:
                    f.write("3\n")
        time.sleep(max(0, first + spacing * len(kinds) * rounds + 2 - time.time()))
    finally:
        p.send_signal(signal.SIGTERM)
        reap(p)
    rang = {}
    try:
        for line in events.read_text().splitlines():
            ev = json.loads(line)
            if ev.get("event") == "ringing":
                rang[ev.get("alarm")] = ev.get("late_ms")
    except (OSError, ValueError) as err:
        out["failures"].append(f"spoken firing: the event log: {err}")
    for deadline, name, kind in plan:
        if rang.get(name) is None:
            out["failures"].append(f"spoken firing: {name} did not ring (exit {p.returncode}: {p.stderr_text[:200]})")
        else:
            out[kind].append(rang[name])
    return out


def fig_issue51(ctx, quick=False, only=None):
    """Every part of the figure (or those in `only`): {"daemons": [...], "peers", "list_ms", "etc", "failures"}."""
    want = lambda part: only is None or part in only
    out = {"daemons": [], "failures": [], "quick": quick}
    if want("memory"):
        most = 5 if quick else RELOADS
        log(f"figure 10: the daemon with {', '.join(f'{n:,}' for n in SIZES)} alarms, {most} reloads of the largest")
        for n in SIZES:
            out["daemons"].append(run_daemon(ctx, f"daemon-{n}", n, reloads=most if n == SIZES[-1] else 5))
        out["peers"], out["peers_why"] = peers_rss()
        work = ctx["work"] / "issue51" / "bus"
        work.mkdir(parents=True, exist_ok=True)
        conf = work / "session.conf"
        conf.write_text(SESSION_BUS)
        address = f"unix:path={work / 'bus'}"
        bus = spawn(["dbus-daemon", f"--config-file={conf}", "--nofork", f"--address={address}"])
        try:
            wait_for(lambda: (work / "bus").exists(), 10)
            for n in BUS_SIZES:
                out["daemons"].append(run_daemon(ctx, f"daemon-bus-{n}", n, bus=address))
        finally:
            bus.send_signal(signal.SIGTERM)
            reap(bus)
    if want("spoken"):
        log(f"figure 10: {SPOKEN} spoken alarms against {SPOKEN} unspoken")
        for say in (False, True):
            out["daemons"].append(run_daemon(ctx, f"daemon-{SPOKEN}-{'say' if say else 'plain'}", SPOKEN, reloads=0, say=say))
        out["spoken_firing"] = spoken_firing(ctx, 1 if quick else 2, spacing=3)
        out["failures"] += out["spoken_firing"]["failures"]
    if want("list"):
        log("figure 10: wake list by the alarms")
        out["list_ms"] = {}
        for n in SIZES:
            _, env = _home(ctx, f"list-{n}", n)
            out["list_ms"][n] = hyperfine(ctx, shlex.join([str(ctx["wake"]), "list"]), 5 if quick else 20, env)[0]
    if want("etc"):
        seconds = 10 if quick else 60
        log(f"figure 10: a waiting daemon, a file in /etc written every second for {seconds} s")
        out["etc"] = etc_wakeups(ctx, seconds)
    for d in out["daemons"]:
        out["failures"] += d["failures"]
    return out


def find(out, alarms, bus=False, say=False):
    return next((d for d in out.get("daemons", []) if d["alarms"] == alarms and d["bus"] == bus and d["say"] == say
                 and "rss_start_kb" in d), None)
