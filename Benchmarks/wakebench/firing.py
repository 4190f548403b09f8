"""Figure 1: firing precision, from the deadline to the first frame ALSA accepts."""

import heapq
import json
import os
import random
import shlex
import time

from .commands import entry
from .common import env_with, log
from .probe import read_probe
from .processes import reap, spawn


def wake_alarm(ctx, hhmmss, events=None):
    """wake set for `hhmmss` on null, ringing the 5-second WAV for a second (the shortest
    --ring-for), with an event log or none (the cold alarms)."""
    return [ctx["wake"], hhmmss, "-D", "null", "-s", ctx["sounds"]["wav5"], "--inhibit", "off",
            *(["--events", events] if events else []), "--ring-for", "1s", "-q"]


def wake_commands(ctx):
    soon = time.strftime("%H:%M:%S", time.localtime(time.time() + 10))
    return [entry("1", wake_alarm(ctx, soon, "{path:events.jsonl}"), "dry-run"), entry("1", wake_alarm(ctx, soon), "dry-run")]


def fig_firing(ctx, count):
    """`count` alarms per contestant, each set a few seconds ahead for a whole second.

    The contestants take turns, one deadline per second, so no two fire together. Each is started
    3.1 to 3.9 s before its deadline (a random moment, as a person would), never within 0.1 s of
    anyone's deadline. The recipes are what a shell user writes: the wait in whole seconds from
    `date +%s`, or the exact remaining time to the microsecond (the best a shell can do).
    """
    wav = ctx["sounds"]["wav5"]
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
            cmd = wake_alarm(ctx, hhmmss, events)
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
            # (deadline → wake-up, wake-up → first frame, the open against the deadline: before
            # it when the pre-roll opened the device)
            results[name]["phases"].append(((woke[-1] - d_ns) / 1e6, (rec["first"] - woke[-1]) / 1e6,
                                            (opens[-1] - d_ns) / 1e6))
        if events:
            for line in events.read_text().splitlines():
                e = json.loads(line)
                if e["event"] == "ringing":
                    results[name]["late_ms"].append(e["late_ms"])
    return {"names": names, "results": results, "failures": failures}


def fig_firing_cold(ctx, count):
    """Figure 1, cold: `count` wake alarms alone, one every 2 s, each with the page cache dropped
    (`echo 3 > /proc/sys/vm/drop_caches`, root only) 1 s before its deadline, so that what wake
    touches on its way to the first frame (its own binary's pages, libasound's plugins and
    configuration, the sound file) must come from the disk again. None when not root."""
    if os.geteuid() != 0:
        return None
    work = ctx["work"] / "firing-cold"
    work.mkdir()
    probe_log = work / "probe.log"
    env = env_with(LD_PRELOAD=ctx["probe"], ALSA_PROBE_LOG=probe_log)
    first = int(time.time()) + 6
    plan = [first + 2 * i for i in range(count)]
    log(f"figure 1, cold: {count} alarms, the page cache dropped 1 s before each, ~{2 * count + 8} s")
    queue = []
    for i, d in enumerate(plan):
        heapq.heappush(queue, (d - 3 - random.uniform(0.1, 0.9), i, "launch"))
        heapq.heappush(queue, (d - 1, i, "drop"))
    procs = {}
    while queue:
        t, i, what = heapq.heappop(queue)
        time.sleep(max(0, t - time.time()))
        if what == "launch":
            cmd = wake_alarm(ctx, time.strftime("%H:%M:%S", time.localtime(plan[i])))
            procs[i] = spawn(cmd, env=env)
        else:
            os.sync()
            with open("/proc/sys/vm/drop_caches", "w") as f:
                f.write("3\n")
    failures, first_ms = [], []
    for i, p in procs.items():
        code, _ = reap(p)
        if code != 4:
            failures.append(f"wake (cold) at {plan[i]}: exit {code}: {p.stderr_text[:200]}")
    probe = read_probe(probe_log)
    for i, p in procs.items():
        rec = probe.get(p.pid)
        if not rec or rec["first"] is None:
            failures.append(f"wake (cold) at {plan[i]}: the probe saw no audio written")
            continue
        first_ms.append((rec["first"] - plan[i] * 1_000_000_000) / 1e6)
    return {"first_ms": first_ms, "failures": failures}
