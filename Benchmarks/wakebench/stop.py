"""Figure 6: from SIGTERM to exit while ringing."""

import os
import signal
import time

from .commands import entry
from .common import log
from .processes import spawn


def wake_ringing(ctx, events):
    """A one-off ringing the 5-second WAV on null for a minute, with an event log."""
    return [ctx["wake"], "now", "-D", "null", "-s", ctx["sounds"]["wav5"], "--inhibit", "off", "--events", events, "--ring-for", "1m",
            "-q"]


def wake_commands(ctx):
    return [entry("6", wake_ringing(ctx, "{path:events.jsonl}"), "dry-run")]


def fig_stop(ctx, repeats):
    """SIGTERM to exit (as seen by wait4 in this process) while ringing."""
    wav = ctx["sounds"]["wav5"]
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
            wake_ringing(ctx, ev),
            wake_ready(ev)))
        out["mpv --ao=null (paced)"].append(measure(
            ["mpv", "--no-config", "--really-quiet", "--no-video", "--ao=null", "--loop-file=inf", wav],
            lambda p: time.sleep(0.8)))
        out["sleep 3600 (a process that only exits)"].append(measure(["sleep", "3600"], lambda p: time.sleep(0.05)))
    return out
