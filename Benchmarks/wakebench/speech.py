"""`--figure speech` (issue 42's cost of `--say on`): espeak-ng is loaded with dlopen on first
use and the clip is made when the alarm is set, never at ring time. Two measures, each with and
without `--say on`, each process reaped with wait4() for its CPU time and peak memory:

- a one-off's dry run (`wake 07:00 --dry-run --say on`): the first clip in a process, which pays
  for loading the library and its voice data;
- a daemon that arms `alarms` standing alarms and is then stopped: the first clip, and one more
  for each further alarm (the daemon makes each occurrence's clip as it arms it)."""

import os
import signal
import statistics
import tempfile
import time
from pathlib import Path

from .commands import entry
from .common import env_with, log
from .daemon import armed_count, daemon_cmd, write_alarms
from .processes import reap, signal_children, spawn


def _private_env(d):
    env = {"XDG_CONFIG_HOME": d / "config", "XDG_STATE_HOME": d / "state", "XDG_RUNTIME_DIR": d / "run"}
    for v in env.values():
        v.mkdir(mode=0o700, parents=True, exist_ok=True)
    return env_with(**env, TZ="UTC")


def _measure(cmd, env, until=None, limit=60.0):
    """CPU ms and peak MiB of one run of `cmd`; with `until`, the process is stopped (SIGTERM)
    once `until()` holds. Run under /usr/bin/time, whose %M is the peak of `cmd` alone: a child
    forked from this Python would count Python's pages before its exec. The CPU is wait4()'s of
    time and what it reaped (time's own share, about a millisecond, is alike with and without)."""
    out = tempfile.NamedTemporaryFile(prefix="time-", suffix=".txt", delete=False)
    out.close()
    p = spawn(["/usr/bin/time", "-f", "%M", "-o", out.name] + [str(c) for c in cmd], env=env)
    if until:
        deadline = time.monotonic() + limit
        while not until() and time.monotonic() < deadline and p.poll() is None:
            time.sleep(0.02)
        signal_children(p.pid, signal.SIGTERM)  # wake, not time: time would leave it running
    code, usage = reap(p)
    try:
        peak_kb = int(Path(out.name).read_text().split()[-1])
    finally:
        os.unlink(out.name)
    if usage is None or code != 0:
        raise RuntimeError(f"{' '.join(map(str, cmd))}: exit {code}: {p.stderr_text}")
    return (usage.ru_utime + usage.ru_stime) * 1000, peak_kb / 1024


def dry_run_cmd(ctx, say):
    return [ctx["wake"], "07:00", "--dry-run", "-D", "null", "--mixer", "off", "--say", say, "--message", "Stand-up"]


def wake_commands(ctx):
    return ([entry("speech", dry_run_cmd(ctx, say), "run") for say in ("off", "on")]
            + [entry("speech", daemon_cmd(ctx, "{path:events.jsonl}", notify="off"), "start", alarms=50, say=say)
               for say in (False, True)])


def fig_speech(ctx, runs=15, alarms=50):
    """Returns {"dry run" | "daemon": {"off" | "on": [(cpu_ms, peak_mib), ...]}}, alarms, failures."""
    work = ctx["work"] / "speech"
    work.mkdir()
    out, failures = {"dry run": {"off": [], "on": []}, "daemon": {"off": [], "on": []}}, []
    env = _private_env(work / "oneoff")
    # Alternated, so a change in the machine's load falls on both alike.
    for k in range(runs):
        for say in ("off", "on"):
            try:
                out["dry run"][say].append(_measure(dry_run_cmd(ctx, say), env))
            except RuntimeError as e:
                failures.append(str(e))
    log(f"speech figure: daemons arming {alarms} alarms")
    for k in range(max(3, runs // 3)):
        for say in ("off", "on"):
            d = work / f"daemon-{say}-{k}"
            env = _private_env(d)
            alarms_file = d / "config" / "wake" / "alarms.toml"
            write_alarms(alarms_file, alarms, ctx["sounds"]["wav5"], say=say == "on")
            events = d / "events.jsonl"
            try:
                out["daemon"][say].append(_measure(daemon_cmd(ctx, events, notify="off"), env,
                                                   until=lambda: armed_count(events) >= alarms))
            except RuntimeError as e:
                failures.append(str(e))
            if armed_count(events) < alarms:
                failures.append(f"daemon, say {say}: {armed_count(events)} of {alarms} armed")
    return out, alarms, failures


def speech_table(out, alarms):
    """The figure's lines: medians of each measure, and what `--say on` adds."""
    def med(rows, i):
        return statistics.median(r[i] for r in rows) if rows else float("nan")

    lines = ["| measure | say | CPU, ms (median) | peak memory, MiB (median) | runs |", "|---|---|---|---|---|"]
    for measure, by_say in out.items():
        label = "a one-off's dry run" if measure == "dry run" else f"a daemon arming {alarms} alarms"
        for say, rows in by_say.items():
            lines.append(f"| {label} | {say} | {med(rows, 0):.1f} | {med(rows, 1):.1f} | {len(rows)} |")
    first = med(out["dry run"]["on"], 0) - med(out["dry run"]["off"], 0)
    daemon = med(out["daemon"]["on"], 0) - med(out["daemon"]["off"], 0)
    later = (daemon - first) / (alarms - 1) if alarms > 1 else float("nan")
    lines.append("")
    lines.append(f"The first clip in a process: {first:.1f} ms CPU, "
                 f"{med(out['dry run']['on'], 1) - med(out['dry run']['off'], 1):+.1f} MiB at the dry run's peak; "
                 f"the daemon's {alarms} clips: {daemon:.1f} ms, about {later:.2f} ms for each after the first, "
                 f"{med(out['daemon']['on'], 1) - med(out['daemon']['off'], 1):+.1f} MiB at its peak.")
    return lines
