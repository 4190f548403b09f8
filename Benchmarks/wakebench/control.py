"""Figure 9: control round trips (`wake snooze`, `wake stop`) against a signal."""

import os
import shlex
import subprocess
import time

from .commands import A_PID, entry
from .common import env_with, log
from .daemon import EventTail
from .processes import reap, spawn


def wake_alarm(ctx, events):
    """The alarm the round trips control: ringing on null, ringing again a second after each snooze."""
    return [ctx["wake"], "now", "-D", "null", "-s", ctx["sounds"]["wav5"], "--inhibit", "off", "--mixer", "off", "--events", events,
            "--snooze", "1s", "--ring-for", "10m", "-q"]


def control_steps(ctx, pid):
    """(label, command, the event that ends it, whether to wait for the alarm to ring again first)"""
    wake = ctx["wake"]
    return [("wake snooze PID", [wake, "snooze", str(pid)], ['"event":"snoozed"'], True),
            ("pkill -USR1 -s SID wake", ["pkill", "-USR1", "-s", str(pid), "-x", "wake"], ['"event":"snoozed"'], True),
            ("wake list", [wake, "list"], None, True),
            ("wake stop PID", [wake, "stop", str(pid)], ['"event":"stopped"'], False)]


def wake_commands(ctx):
    steps = [entry("9", cmd, "run" if label == "wake list" else "start") for label, cmd, _, _ in control_steps(ctx, A_PID)
             if label.startswith("wake")]
    return [entry("9", wake_alarm(ctx, "{path:events.jsonl}"), "dry-run")] + steps


def fig_control(ctx, cycles):
    """`wake list`, `wake snooze`, `wake stop` against `pkill -USR1`, on one alarm ringing on `null`
    (--snooze 1s, so that it rings again a second after each snooze), in private XDG directories.
    Each cycle: `wake snooze PID` (start to its `snoozed` event), `pkill -USR1 -s SID wake` (the
    same: the alarm runs in a session of its own, so that no other wake on the machine is
    signalled), `wake list` while it rings (start to exit), `wake stop PID` (start to `stopped`)."""
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
        alarm = spawn(wake_alarm(ctx, events), env=env, session=True)
        tail = EventTail(events)
        for label, cmd, match, ring_again in control_steps(ctx, alarm.pid):
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
