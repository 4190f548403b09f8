"""Figure 12 (issue 53): what hooks cost the alarm.

- The first frame with ten hooks on `ringing` against none: one-off alarms a few seconds ahead
  on ALSA's null PCM, with and without ten `--hook ringing=/bin/sleep ...` (ten processes started
  at the ring), in turn one deadline a second, each one's first frame from the probe and its
  `late_ms` from its event log. Hooks start on their own thread when the ring's event is said:
  this shows the ring does not wait for them.
- A waiting daemon's memory with hooks configured against none: 20 standing alarms, settled
  resident memory once armed, with ten `hook` entries in config.toml and ten programs in
  hooks.d (which run once at the start, on the coalesced `armed`) against neither.
"""

import json
import os
import random
import time

from .commands import entry
from .common import env_with, log, median
from .daemon import armed_count, daemon_cmd
from .firing import wake_alarm
from .issue51 import _home, settled_rss
from .probe import read_probe
from .processes import reap, spawn

HOOKS = 10
DAEMON_ALARMS = 20


def hook_args(n=HOOKS):
    # Distinct texts: one hook's runs wait for each other, different hooks run side by side.
    return [a for i in range(n) for a in ("--hook", f"ringing=/bin/sleep 0.{i + 1}")]


def firing_cmd(ctx, hhmmss, events, hooks):
    return wake_alarm(ctx, hhmmss, events) + (hook_args() if hooks else [])


def wake_commands(ctx):
    soon = time.strftime("%H:%M:%S", time.localtime(time.time() + 10))
    return [entry("12", firing_cmd(ctx, soon, "{path:events.jsonl}", True), "dry-run")]


def fig_hooks_firing(ctx, count):
    work = ctx["work"] / "hooks-firing"
    (work / "config").mkdir(parents=True)
    probe_log = work / "probe.log"
    env = env_with(LD_PRELOAD=ctx["probe"], ALSA_PROBE_LOG=probe_log, XDG_CONFIG_HOME=work / "config")
    first = int(time.time()) + 6
    plan = [(first + i, i % 2 == 1) for i in range(2 * count)]
    log(f"figure 12: {len(plan)} alarms, one a second, half with {HOOKS} hooks on ringing, ~{len(plan) + 8} s")
    procs = []
    for deadline, hooks in plan:
        time.sleep(max(0, deadline - 3 - random.uniform(0.1, 0.9) - time.time()))
        events = work / f"events-{deadline}.jsonl"
        procs.append((deadline, hooks, events, spawn(firing_cmd(ctx, time.strftime("%H:%M:%S", time.localtime(deadline)),
                                                                 events, hooks), env=env)))
    failures = []
    out = {h: {"first_ms": [], "late_ms": []} for h in (False, True)}
    for deadline, hooks, events, p in procs:
        code, _ = reap(p)
        if code != 4:
            failures.append(f"{'hooks' if hooks else 'none'} at {deadline}: exit {code}: {p.stderr_text[:200]}")
    probe = read_probe(probe_log)
    for deadline, hooks, events, p in procs:
        rec = probe.get(p.pid)
        if not rec or rec["first"] is None:
            failures.append(f"{'hooks' if hooks else 'none'} at {deadline}: the probe saw no audio written")
            continue
        out[hooks]["first_ms"].append((rec["first"] - deadline * 1_000_000_000) / 1e6)
        lines = events.read_text().splitlines() if events.exists() else []
        for e in map(json.loads, lines):
            if e["event"] == "ringing":
                out[hooks]["late_ms"].append(e["late_ms"])
        if hooks and sum('"event":"hook_failed"' in line for line in lines):
            failures.append(f"hooks at {deadline}: a hook failed")
    return {"none": out[False], "hooks": out[True], "failures": failures}


def write_hooks(d):
    config = d / "config" / "wake"
    entries = ", ".join(f'"ringing=/bin/sleep 0.{i + 1}"' for i in range(HOOKS))
    (config / "config.toml").write_text(f"hook = [{entries}]\n")
    folder = config / "hooks.d"
    folder.mkdir(mode=0o700)
    for i in range(HOOKS):
        f = folder / f"{i:02d}-bench"
        f.write_text('#!/bin/sh\n[ "$1" = ringing ] || exit 0\nexit 0\n')
        os.chmod(f, 0o755)


def daemon_rss(ctx, name, hooks):
    d, env = _home(ctx, name, DAEMON_ALARMS)
    if hooks:
        write_hooks(d)
    events = d / "events.jsonl"
    e = env_with(**env)
    e.pop("DBUS_SESSION_BUS_ADDRESS", None)
    p = spawn(daemon_cmd(ctx, events), env=e)
    try:
        t0 = time.monotonic()
        while armed_count(events) < DAEMON_ALARMS and time.monotonic() - t0 < 60 and p.poll() is None:
            time.sleep(0.01)
        if armed_count(events) < DAEMON_ALARMS:
            return None, f"{name}: {armed_count(events)} of {DAEMON_ALARMS} armed, exit {p.poll()}"
        time.sleep(1)  # the hooks of the start's `armed` run and end
        return settled_rss(p.pid), None
    finally:
        if p.poll() is None:
            p.terminate()
        reap(p)


def fig_hooks_memory(ctx, rounds):
    log(f"figure 12: {rounds} daemons of {DAEMON_ALARMS} alarms with and without hooks")
    out, failures = {"none": [], "hooks": []}, []
    for r in range(rounds):
        for label in ("none", "hooks"):
            kb, why = daemon_rss(ctx, f"hooks-{label}-{r}", label == "hooks")
            if kb is None:
                failures.append(why)
            else:
                out[label].append(kb)
    return out, failures


def fig_hooks(ctx, quick):
    firing = fig_hooks_firing(ctx, 4 if quick else 12)
    memory, failures = fig_hooks_memory(ctx, 2 if quick else 3)
    return {"firing": firing, "memory": memory, "failures": firing["failures"] + failures}


def report_hooks(R, h):
    """Section 12 and issue 53's rows of the table of targets."""
    from .common import fmt, mib
    R.add("## 12. Hooks (issue 53)", "")
    if not h:
        return
    f, m = h["firing"], h["memory"]
    R.para(f"One-off alarms on `null`, one deadline a second, in turn with {HOOKS} `--hook ringing=/bin/sleep 0.N` and "
           "without; the first frame from the probe (ms after the deadline) and the ring's `late_ms`. Then daemons of "
           f"{DAEMON_ALARMS} standing alarms, settled resident memory once armed, with {HOOKS} `hook` entries in config.toml "
           f"and {HOOKS} programs in hooks.d, against neither.")

    def ms(v):
        return f"{fmt(median(v), 3)} / {fmt(max(v), 3)}" if v else "—"
    R.table(["alarm", "first frame, median / worst ms", "`late_ms`, median / worst", "alarms"],
            [[label, ms(f[key]["first_ms"]), ms(f[key]["late_ms"]), len(f[key]["first_ms"])]
             for label, key in (("no hooks", "none"), (f"{HOOKS} hooks on ringing", "hooks"))])
    R.table(["daemon, 20 alarms", "settled RSS, MiB (median)", "rounds"],
            [[label, fmt(mib(median(m[key])), 2) if m[key] else "—", len(m[key])]
             for label, key in (("no hooks", "none"), (f"{HOOKS} config hooks + {HOOKS} in hooks.d", "hooks"))])
    R.failures(h["failures"])
    a, b = f["hooks"]["first_ms"], f["none"]["first_ms"]
    text = f"the first frame with {HOOKS} hooks on `ringing` within 1 ms of none's"
    if a and b:
        d = median(a) - median(b)
        R.goal_of("53", "B1", text, f"{fmt(median(a), 3)} against {fmt(median(b), 3)} ms ({d:+.3f}), medians", d <= 1.0,
                  figure="12")
    else:
        R.goal_of("53", "B1", text, "not measured", None, figure="12")
    text = "a waiting daemon's memory with hooks configured at most 0.5 MiB above none"
    if m["hooks"] and m["none"]:
        d = mib(median(m["hooks"]) - median(m["none"]))
        R.goal_of("53", "B2", text, f"{fmt(mib(median(m['hooks'])), 2)} against {fmt(mib(median(m['none'])), 2)} MiB "
                  f"({d:+.2f})", d <= 0.5, figure="12")
    else:
        R.goal_of("53", "B2", text, "not measured", None, figure="12")
