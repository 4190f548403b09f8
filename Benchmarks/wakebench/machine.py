"""The machine the run was made on, for the report."""

import datetime
import os
import platform

from .common import ROOT, output_of
from .prepare import release_flags, swift_command


def machine(wake):
    cpu = "?"
    try:
        for line in open("/proc/cpuinfo"):
            if line.startswith("model name"):
                cpu = line.split(":", 1)[1].strip()
                break
    except OSError:
        pass
    return {
        "date": datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%d %H:%M UTC"),
        "cores": os.cpu_count(),
        "cpu": cpu,
        "kernel": platform.release(),
        "os": output_of(["sh", "-c", ". /etc/os-release && echo \"$PRETTY_NAME\""]),
        "alsa": output_of(["pkg-config", "--modversion", "alsa"]),
        "sndfile": output_of(["pkg-config", "--modversion", "sndfile"]),
        "wake": output_of([str(wake), "--version"]) + " (" + output_of(["git", "-C", str(ROOT), "describe", "--always", "--dirty"]) + ")",
        "build": "swift build " + " ".join(release_flags()),
        "swift": output_of([swift_command(), "--version"]),
        "aplay": output_of(["aplay", "--version"]),
        "sox": output_of(["sox", "--version"]).replace("sox:", "").strip(),
        "mpv": " ".join(output_of(["mpv", "--version"]).split()[:2]),
        "hyperfine": output_of(["hyperfine", "--version"]),
        "load": loadavg(),
    }


def loadavg():
    """The 1, 5 and 15-minute load averages: anything else busy on the machine shows here."""
    try:
        return " ".join(open("/proc/loadavg").read().split()[:3])
    except OSError:
        return "?"
