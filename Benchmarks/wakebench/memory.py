"""Figure 4: the peers' peak memory, and where a process's resident memory goes (smaps)."""

import os
import re
import tempfile
from pathlib import Path

from .commands import entry
from .common import log
from .processes import reap, spawn


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


def peak_kb(cmd):
    """Peak resident memory of a command that ends by itself, in kB, from /usr/bin/time."""
    out = tempfile.NamedTemporaryFile(prefix="time-", suffix=".txt", delete=False)
    out.close()
    p = spawn(["/usr/bin/time", "-f", "%M", "-o", out.name] + [str(c) for c in cmd])
    reap(p)
    lines = Path(out.name).read_text().split()
    os.unlink(out.name)
    return int(lines[-1])


def one_off(ctx, when):
    """The built-in sound for 2 s on null, rung at `when` (`now`, or `+3s`: after its pre-roll)."""
    return [ctx["wake"], when, "-D", "null", "--ring-for", "2s", "--inhibit", "off", "--notify", "off", "--mixer", "off", "-q"]


def wake_commands(ctx):
    return [entry("4", one_off(ctx, w), "dry-run") for w in ("now", "+3s")] + [entry("4", [ctx["wake"], "--version"], "run")]


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
        # A one-off of the built-in sound, rung at once and, as every real alarm is, after its
        # pre-roll (a second before the deadline it prepares the device and reads the ring's code ahead).
        ("built-in", "wake now"): one_off(ctx, "now"),
        ("built-in", "wake +3s (after its pre-roll)"): one_off(ctx, "+3s"),
    }
    log(f"figure 4: peak memory of the peers, {repeats} repeats")
    return {key: [peak_kb(cmd) for _ in range(repeats)] for key, cmd in cmds.items()}
