"""Paths, constants and small helpers: running a command, percentiles, number formatting."""

import os
import re
import shlex
import statistics
import subprocess
import sys
import time
from pathlib import Path


ROOT = Path(__file__).resolve().parent.parent.parent  # Benchmarks/wakebench/common.py
BENCH = ROOT / "Benchmarks"
OUTPUT = ROOT / "BENCHMARKS.md"
SCRATCH = ROOT / ".build-bench"  # a release build of its own, apart from everyone's .build
NOTES = BENCH / "wakebench" / "notes"  # BENCHMARKS.md's fixed prose, one passage a file

# Debian packages this script runs (the Makefile's BENCH_PACKAGES installs the same).
PEER_PACKAGES = {"aplay": "alsa-utils", "sox": "sox", "mpv": "mpv", "hyperfine": "hyperfine", "flac": "flac",
                 "/usr/bin/time": "time", "strace": "strace", "pkg-config": "pkg-config", "pkill": "procps",
                 "pulseaudio": "pulseaudio", "pactl": "pulseaudio-utils", "parec": "pulseaudio-utils",
                 "paplay": "pulseaudio-utils", "pipewire": "pipewire-bin", "pw-play": "pipewire-bin",
                 "wireplumber": "wireplumber", "pipewire-pulse": "pipewire-pulse", "dbus-daemon": "dbus-daemon",
                 # figure 10's peers of a waiting daemon (run only as root, with nothing scheduled)
                 "cron": "cron", "atd": "at"}
# Libraries, by a file each installs (a glob): ALSA's pulse plugin, and sox's PulseAudio output.
PEER_LIBRARIES = {"/usr/lib/*/alsa-lib/libasound_module_pcm_pulse.so": "libasound2-plugins",
                  "/usr/lib/*/sox/libsox_fmt_pulseaudio.so": "libsox-fmt-pulse"}

RATE = 44100  # every test sound: 44.1 kHz, stereo, 16-bit
STARTED = time.monotonic()


def log(msg):
    print(f"[{time.monotonic() - STARTED:6.1f}s] {msg}", file=sys.stderr, flush=True)


def run(cmd, **kw):
    """Runs a command to completion and returns its stdout; fails loudly."""
    r = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, **kw)
    if r.returncode != 0:
        raise SystemExit(f"failed ({r.returncode}): {shlex.join(map(str, cmd))}\n{r.stderr.strip()}")
    return r.stdout


def output_of(cmd):
    """First line of a command's output (stdout or stderr), or '?' if it cannot run."""
    try:
        r = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, timeout=10)
        return (r.stdout.strip().splitlines() or ["?"])[0]
    except (OSError, subprocess.TimeoutExpired):
        return "?"


def note(name, **figures):
    """One passage of BENCHMARKS.md's fixed prose, from notes/NAME.md: its lines joined by one space
    into one paragraph's text, each {field} replaced by this run's figure of that name."""
    text = " ".join((NOTES / f"{name}.md").read_text().splitlines())
    for field, value in figures.items():
        text = text.replace("{" + field + "}", str(value))
    left = re.findall(r"\{[a-z_0-9]+\}", text)
    if left:
        raise KeyError(f"notes/{name}.md: no figure for {', '.join(left)}")
    return text


def percentile(values, p):
    """Linear interpolation between closest ranks (p in 0..100)."""
    v = sorted(values)
    if not v:
        return float("nan")
    k = (len(v) - 1) * p / 100
    lo, hi = int(k), min(int(k) + 1, len(v) - 1)
    return v[lo] + (v[hi] - v[lo]) * (k - lo)


def median(values):
    return statistics.median(values) if values else float("nan")


def env_with(**extra):
    e = dict(os.environ)
    e.pop("DBUS_SYSTEM_BUS_ADDRESS", None)
    e.update({k: str(v) for k, v in extra.items()})
    return e


def fmt(x, digits=2):
    if x is None or x != x:
        return "—"
    if abs(x) >= 100:
        return f"{x:,.0f}"
    return f"{x:.{digits}f}"


def ratio(wake, peer, digits=2):
    """wake ÷ peer, as text."""
    if wake is None or peer is None or wake != wake or peer != peer:
        return "—"
    if peer == 0:
        return "same (0)" if wake == 0 else "∞"
    r = wake / peer
    if r >= 100:
        return f"{r:,.0f}×"
    return f"{r:.{digits}f}×" if r >= 0.1 else f"{r:.2g}×"


def verdict(ok):
    return "**met**" if ok else "**MISSED**"


def mib(kb):
    return kb / 1024


def p3(values, digits=3):
    """p50 / p99 / max as text."""
    return f"{fmt(percentile(values, 50), digits)} / {fmt(percentile(values, 99), digits)} / {fmt(max(values, default=float('nan')), digits)}"
