"""`--figure bus` (issue 41's costs): the daemon waiting for 200 standing alarms with its D-Bus API
on a private session bus, beside the same daemon with no session bus at all (no API: what it cost
before), and `wake next --follow` idle; each one's peak memory and its wake-ups (context switches
over every thread) in a quiet window."""

import signal
import subprocess
import time

from .commands import entry
from .common import env_with, log
from .daemon import armed_count, daemon_cmd, write_alarms
from .processes import reap, sample, spawn

SESSION_BUS = """<!DOCTYPE busconfig PUBLIC "-//freedesktop//DTD D-Bus Bus Configuration 1.0//EN"
 "http://www.freedesktop.org/standards/dbus/1.0/busconfig.dtd">
<busconfig><type>session</type><listen>unix:tmpdir=/tmp</listen><auth>EXTERNAL</auth>
<policy context="default"><allow send_destination="*" eavesdrop="true"/><allow eavesdrop="true"/><allow own="*"/></policy>
</busconfig>
"""

BUS_NAME = "io.github.wakeclock.Wake1"


def follow_cmd(ctx):
    return [ctx["wake"], "next", "--follow", "--format", "waybar"]


def wake_commands(ctx):
    return [entry("bus", daemon_cmd(ctx, "{path:events.jsonl}"), "start", alarms=200), entry("bus", follow_cmd(ctx), "start")]


def wait_for(predicate, limit=60.0):
    deadline = time.monotonic() + limit
    while time.monotonic() < deadline:
        if predicate():
            return True
        time.sleep(0.1)
    return False


def fig_bus(ctx, seconds=30, alarms=200):
    """Returns {label: {"hwm_mib", "rss_mib", "wakeups", "seconds"}} and failures."""
    work = ctx["work"] / "bus"
    work.mkdir()
    conf = work / "session.conf"
    conf.write_text(SESSION_BUS)
    address = f"unix:path={work / 'bus'}"
    procs, out, failures = [], {}, []
    bus = spawn(["dbus-daemon", f"--config-file={conf}", "--nofork", f"--address={address}"])
    try:
        wait_for(lambda: (work / "bus").exists(), 10)
        contestants = []
        for label, with_bus in ((f"wake daemon, {alarms} alarms, API on the session bus", True),
                                (f"wake daemon, {alarms} alarms, no session bus", False)):
            d = work / ("api" if with_bus else "nobus")
            env = {"XDG_CONFIG_HOME": d / "config", "XDG_STATE_HOME": d / "state", "XDG_RUNTIME_DIR": d / "run"}
            for v in env.values():
                v.mkdir(mode=0o700, parents=True, exist_ok=True)
            write_alarms(d / "config" / "wake" / "alarms.toml", alarms, ctx["sounds"]["wav5"])
            events = d / "events.jsonl"
            e = env_with(**env, DBUS_SESSION_BUS_ADDRESS=address) if with_bus else env_with(**env)
            if not with_bus:
                e.pop("DBUS_SESSION_BUS_ADDRESS", None)
            p = spawn(daemon_cmd(ctx, events), env=e)
            procs.append(p)
            if not wait_for(lambda: armed_count(events) >= alarms):
                failures.append(f"{label}: not all armed")
            if with_bus:
                owned = wait_for(lambda: "true" in subprocess.run(
                    ["busctl", f"--address={address}", "call", "org.freedesktop.DBus", "/org/freedesktop/DBus",
                     "org.freedesktop.DBus", "NameHasOwner", "s", BUS_NAME], stdout=subprocess.PIPE,
                    stderr=subprocess.DEVNULL, text=True).stdout, 20)
                if not owned:
                    failures.append(f"{label}: {BUS_NAME} never appeared")
                follow_env = e
            contestants.append((label, p))
        follow = spawn(follow_cmd(ctx), env=follow_env, stdout=subprocess.PIPE)
        procs.append(follow)
        contestants.append(("wake next --follow --format waybar", follow))
        time.sleep(3)  # past the start
        first = {label: sample(p.pid) for label, p in contestants}
        log(f"bus figure: a {seconds} s quiet window")
        time.sleep(seconds)
        for label, p in contestants:
            b, a = sample(p.pid), first[label]
            with open(f"/proc/{p.pid}/status") as f:
                rss = next((int(line.split()[1]) for line in f if line.startswith("VmRSS:")), 0)
            out[label] = {"hwm_mib": b["hwm_kb"] / 1024, "rss_mib": rss / 1024, "wakeups": b["switches"] - a["switches"],
                          "seconds": (b["t"] - a["t"]) / 1e9}
    finally:
        for p in procs:
            if p.poll() is None:
                p.send_signal(signal.SIGTERM)
            try:
                reap(p)
            except ChildProcessError:
                pass
        bus.send_signal(signal.SIGTERM)
        reap(bus)
    return out, failures
