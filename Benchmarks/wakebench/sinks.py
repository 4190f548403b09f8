"""Figure 11 (issue 52, item 3): where it rings, on a server with two sinks, PulseAudio and PipeWire.

Each server gets a second null sink, `headphones` (`pactl load-module module-null-sink`), beside
its default `speaker`, and a MonitorRecorder on each sink's monitor.
- First sound: one-offs set for whole-second deadlines, one every 5 s, `--sink speaker` and
  `--sink all` taking turns, each started 3.5 s ahead and stopped by SIGTERM once heard: from the
  deadline to the first sound on the speaker (one sink), and on each sink with `--sink all` (the
  later of the two is when both are heard); beside it the alarm's own `late_ms` (its event log:
  the deadline to the first frame written, which figure 1 checks against the probe).
- The gap: `--sink headphones` ringing (heard on the headphones), then the headphones' module
  unloaded (`pactl unload-module`, a USB card pulled out): from the command's start to the first
  sound on the speaker. Then the sink loaded again: from that command's start to the first sound on
  the headphones (an upper bound: their recorder can only start once the sink exists).
- Held memory: `--sink all` and `--sink speaker` ringing side by side, VmHWM reset
  (/proc/PID/clear_refs) 3 s after both are heard and read a window later, as in the quiet window.
"""

import json
import signal
import subprocess
import time

from .commands import entry
from .common import log, median
from .processes import reap, sample, spawn
from .servers import MonitorRecorder, PipeWireServer, PulseServer
from .window import reset_peak

SECOND = "headphones"  # the sink added beside the servers' `speaker`
SPACING = 5  # s between deadlines: each alarm is started 3.5 s ahead, once the one before is stopped


def sink_alarm(ctx, when, sink, events, ring_for="10s"):
    """A one-off at `when` (HH:MM:SS or `now`) on `sink` (a name or `all`), the 5-second WAV, as figure 7's."""
    return [ctx["wake"], when, "--sink", sink, "-s", ctx["sounds"]["wav5"], "--inhibit", "off", "--mixer", "off",
            "--events", events, "--ring-for", ring_for, "-q"]


def wake_commands(ctx):
    soon = time.strftime("%H:%M:%S", time.localtime(time.time() + 10))
    server = "a sound server (a private PulseAudio or PipeWire) with the sinks speaker and headphones"
    events = "{path:events.jsonl}"
    return ([entry("11", sink_alarm(ctx, soon, s, events), "dry-run", needs=server) for s in ("speaker", "all")]
            + [entry("11", sink_alarm(ctx, "now", s, events, ring_for), "dry-run", needs=server)
               for s, ring_for in ((SECOND, "1m"), ("all", "2m"), ("speaker", "2m"))])


def pactl(server, *args):
    return subprocess.run(["pactl", *args], env=server.env(), stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                          timeout=20)


def load_second(server):
    """Loads the `headphones` null sink; returns once its monitor is listed (True) or after 10 s (False)."""
    pactl(server, "load-module", "module-null-sink", f"sink_name={SECOND}")
    deadline = time.monotonic() + 10
    while time.monotonic() < deadline:
        if f"{SECOND}.monitor" in pactl(server, "list", "short", "sources").stdout:
            return True
        time.sleep(0.05)
    return False


def second_module(server):
    for line in pactl(server, "list", "short", "modules").stdout.splitlines():
        if f"sink_name={SECOND}" in line:
            return line.split("\t")[0]
    return None


def wait_heard(rec, t0, timeout):
    deadline = time.time() + timeout
    while time.time() < deadline:
        h = rec.heard(t0)
        if h:
            return h
        time.sleep(0.01)
    return None


def events_of(path, kind):
    try:
        return [e for e in map(json.loads, path.read_text().splitlines()) if e.get("event") == kind]
    except (OSError, ValueError):
        return []


def first_sound(ctx, server, recs, work, rounds, out):
    """`--sink speaker` and `--sink all` in turn, `rounds` each: ms from the deadline to the first sound."""
    slots = ["speaker", "all"]
    plan = []
    first = int(time.time()) + 5
    for r in range(rounds):
        for sink in slots[r % 2:] + slots[:r % 2]:
            plan.append({"d": first + len(plan) * SPACING, "sink": sink})
    for i, slot in enumerate(plan):
        d = slot["d"]
        time.sleep(max(0, d - 3.5 - time.time()))
        slot["events"] = work / f"first-{i}.jsonl"
        p = spawn(sink_alarm(ctx, time.strftime("%H:%M:%S", time.localtime(d)), slot["sink"], slot["events"]),
                  env=server.env())
        # Stopped once heard on every sink it rings on: 0.4 s after, 0.8 to 1.5 s after the deadline.
        time.sleep(max(0, d + 0.8 - time.time()))
        want = ["speaker", SECOND] if slot["sink"] == "all" else ["speaker"]
        heard = {s: wait_heard(recs[s], d - 0.1, max(0.0, d + 1.1 - time.time())) for s in want}
        time.sleep(max(0, min(d + 1.5, max((h[0] for h in heard.values() if h), default=0) + 0.4) - time.time()))
        p.send_signal(signal.SIGTERM)
        code, _ = reap(p)
        missing = [s for s, h in heard.items() if h is None]
        if missing or code not in (0, 4):
            out["failures"].append(f"--sink {slot['sink']} at {time.strftime('%H:%M:%S', time.localtime(d))}: "
                                   f"{'no sound on ' + ', '.join(missing) if missing else 'heard'}, exit {code}: "
                                   f"{p.stderr_text[:200]}")
            continue
        key = "all" if slot["sink"] == "all" else "one"
        out["first_ms"][key].append({s: (h[0] - d) * 1000 for s, h in heard.items()})
        late = [e.get("late_ms") for e in events_of(slot["events"], "ringing")]
        if late and late[0] is not None:
            out["late_ms"][key].append(float(late[0]))
    left = pactl(server, "list", "short", "sinks").stdout
    if "wake_all" in left:
        out["failures"].append(f"{server.NAME}: the combined sink wake_all is still loaded after --sink all was stopped")


def sink_gone(ctx, server, speaker, work, rounds, out):
    """`--sink headphones` ringing, the headphones unloaded then loaded again, `rounds` times."""
    for i in range(rounds):
        events = work / f"gone-{i}.jsonl"
        rec = MonitorRecorder(server, SECOND)
        t_start = time.time()
        p = spawn(sink_alarm(ctx, "now", SECOND, events, "1m"), env=server.env())
        try:
            if not wait_heard(rec, t_start, 15):
                out["failures"].append(f"sink gone, round {i + 1}: never heard on {SECOND} (exit {p.poll()})")
                continue
            time.sleep(1.0)
            module = second_module(server)
            if module is None:
                out["failures"].append(f"sink gone, round {i + 1}: no module for {SECOND}")
                continue
            t0 = time.time()
            pactl(server, "unload-module", module)
            on_speaker = wait_heard(speaker, t0, 10)
            rec.stop()
            if on_speaker is None:
                out["failures"].append(f"sink gone, round {i + 1}: no sound on the speaker within 10 s of the unload")
            else:
                out["gone_ms"].append((on_speaker[0] - t0) * 1000)
            time.sleep(1.0)
            t1 = time.time()
            loaded = load_second(server)
            rec = MonitorRecorder(server, SECOND)
            back = wait_heard(rec, t1, 10) if loaded else None
            if back is None:
                out["failures"].append(f"sink gone, round {i + 1}: not heard on {SECOND} within 10 s of its return")
            else:
                out["back_ms"].append((back[0] - t1) * 1000)
            # Said: gone, then back (the event follows the new stream's first sound by a little).
            deadline = time.monotonic() + 5
            while len(moved := events_of(events, "sink_moved")) < 2 and time.monotonic() < deadline:
                time.sleep(0.05)
            if len(moved) < 2:
                out["failures"].append(f"sink gone, round {i + 1}: {len(moved)} sink_moved events, not 2")
        finally:
            p.send_signal(signal.SIGTERM)
            reap(p)
            rec.stop()
            if second_module(server) is None:
                load_second(server)
        time.sleep(1.0)


def held_memory(ctx, server, recs, work, rounds, seconds, out):
    """`--sink all` and `--sink speaker` ringing side by side: VmHWM over a window, kB."""
    for i in range(rounds):
        t0 = time.time()
        procs = {s: spawn(sink_alarm(ctx, "now", s, work / f"held-{s}-{i}.jsonl", "2m"), env=server.env())
                 for s in ("all", "speaker")}
        try:
            if not (wait_heard(recs[SECOND], t0, 15) and wait_heard(recs["speaker"], t0, 15)):
                out["failures"].append(f"held memory, round {i + 1}: not heard on both sinks")
                continue
            time.sleep(3)
            reset = {s: reset_peak(p.pid) for s, p in procs.items()}
            time.sleep(seconds)
            for s, p in procs.items():
                if p.poll() is not None:
                    out["failures"].append(f"held memory, round {i + 1}: --sink {s} ended (exit {p.returncode})")
                    break
            else:
                key = {"all": "all", "speaker": "one"}
                for s, p in procs.items():
                    out["held_kb"][key[s]].append(sample(p.pid)["hwm_kb"])
                out["reset"] = out.get("reset", True) and all(reset.values())
        finally:
            for p in procs.values():
                p.send_signal(signal.SIGTERM)
                reap(p)
        time.sleep(1.0)
    out["window_s"] = seconds


def fig_sinks_on(ctx, server, quick):
    work = ctx["work"] / f"sinks-{server.NAME.lower()}"
    work.mkdir(parents=True, exist_ok=True)
    out = {"server": server.NAME, "version": getattr(server, "version", server.NAME), "failures": [],
           "first_ms": {"one": [], "all": []}, "late_ms": {"one": [], "all": []}, "gone_ms": [], "back_ms": [],
           "held_kb": {"one": [], "all": []}}
    out.update(rounds=2 if quick else 4, held_rounds=1 if quick else 3, gone_rounds=2 if quick else 3)
    if not load_second(server):
        out["failures"].append(f"{server.NAME}: the second null sink {SECOND} did not appear")
        return out
    recs = {"speaker": MonitorRecorder(server), SECOND: MonitorRecorder(server, SECOND)}
    try:
        log(f"figure 11: {server.NAME}, two sinks: {2 * out['rounds']} alarms, --sink speaker and --sink all in turn, "
            f"~{10 * out['rounds'] + 5} s")
        first_sound(ctx, server, recs, work, out["rounds"], out)
        log(f"figure 11: {server.NAME}, held memory ringing on one sink and on both")
        held_memory(ctx, server, recs, work, out["held_rounds"], 5 if quick else 15, out)
        recs.pop(SECOND).stop()  # its sink goes away now
        log(f"figure 11: {server.NAME}, the ringing sink unloaded and loaded again")
        sink_gone(ctx, server, recs["speaker"], work, out["gone_rounds"], out)
    finally:
        for rec in recs.values():
            rec.stop()
    return out


def fig_sinks(ctx, quick=False):
    """Figure 11 on a private PulseAudio, then on a private PipeWire: [result per server]."""
    results = []
    for server_class in (PulseServer, PipeWireServer):
        server = server_class(ctx["work"] / f"sinks-{server_class.NAME.lower()}-server")
        try:
            results.append(fig_sinks_on(ctx, server, quick))
        finally:
            server.stop()
    return results


def both_ms(first):
    """The moment both sinks are heard: the later of the two, per alarm."""
    return [max(f.values()) for f in first]


def median_of(first, sink=None):
    return median([f[sink] for f in first] if sink else both_ms(first))
