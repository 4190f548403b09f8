"""Setting up: the peers' Debian packages, the release build of wake, the LD_PRELOAD probe, the
test sounds."""

import glob
import os
import re
import shlex
import shutil
import subprocess
from pathlib import Path

from .common import BENCH, PEER_LIBRARIES, PEER_PACKAGES, RATE, ROOT, SCRATCH, env_with, log, run


def ensure_packages():
    """Installs the peers from Debian's packages if any is missing (as `make bench` does)."""
    missing = sorted({pkg for tool, pkg in PEER_PACKAGES.items() if not shutil.which(tool)}
                     | {pkg for pattern, pkg in PEER_LIBRARIES.items() if not glob.glob(pattern)})
    if not missing:
        return
    sudo = [] if os.geteuid() == 0 else ["sudo"]
    log(f"installing {' '.join(missing)}")
    run(sudo + ["apt-get", "update", "-qq"])
    run(sudo + ["apt-get", "install", "-y", "-qq"] + missing, env=env_with(DEBIAN_FRONTEND="noninteractive"))


def swift_command():
    swift = os.environ.get("SWIFT") or shutil.which("swift") or "/opt/swift/usr/bin/swift"
    if not Path(swift).exists() and not shutil.which(swift):
        raise SystemExit("the benchmark needs a Swift 6 toolchain on PATH (swift.org/install)")
    return swift


def release_flags():
    """The flags `make release` builds the shipped binary with (the Makefile's RELEASE_FLAGS), so
    the benchmark measures what ships; plain `-c release --product wake` if there are none.
    The Makefile's own scratch path is left out: the benchmark builds in one of its own."""
    try:
        text = (ROOT / "Makefile").read_text().replace("\\\n", " ")  # continuation lines joined
        for line in text.splitlines():
            m = re.match(r"^RELEASE_FLAGS\s*:?=\s*(.*)$", line)
            if not m:
                continue
            flags = shlex.split(m.group(1))
            while "--scratch-path" in flags:
                i = flags.index("--scratch-path")
                del flags[i:i + 2]
            if not any("$" in f for f in flags):
                return flags
    except OSError:
        pass
    return ["-c", "release", "--product", "wake"]


def build_wake():
    """A release build, as `make release` makes it, in its own scratch directory."""
    swift = swift_command()
    flags = release_flags()
    log(f"building wake: swift build {' '.join(flags)} --scratch-path .build-bench")
    # SwiftPM does not relink when only -Xswiftc flags change: start the products afresh then.
    stamp = SCRATCH / "benchmark-build-flags"
    bin_dir = run([swift, "build", *flags, "--scratch-path", str(SCRATCH), "--show-bin-path"], cwd=ROOT).strip()
    if not stamp.exists() or stamp.read_text() != " ".join(flags):
        shutil.rmtree(bin_dir, ignore_errors=True)
    cmd = [swift, "build", *flags, "--scratch-path", str(SCRATCH)]
    r = subprocess.run(cmd, cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    if r.returncode != 0:
        raise SystemExit(f"the release build failed:\n{r.stdout[-4000:]}")
    stamp.write_text(" ".join(flags))
    # The translations the start-up rows under LANGUAGE=de read (WAKE_LOCALEDIR), as `make release` compiles them.
    t = subprocess.run(["make", "--no-print-directory", "translations"], cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    if t.returncode != 0:
        raise SystemExit(f"make translations failed:\n{t.stdout[-2000:]}")
    wake = Path(bin_dir) / "wake"
    if not wake.exists():
        raise SystemExit(f"no wake binary at {wake}")
    return wake


def build_probe(work):
    """Compiles the LD_PRELOAD probe with the system's C compiler, or the toolchain's clang."""
    swift = Path(shutil.which(swift_command()) or swift_command()).resolve()
    for cc in [os.environ.get("CC"), "cc", "gcc", "clang", str(swift.parent / "clang")]:
        if cc and shutil.which(cc):
            out = work / "alsa_probe.so"
            run([cc, "-O2", "-shared", "-fPIC", "-o", str(out), str(BENCH / "alsa_probe.c"), "-ldl"])
            return out
    raise SystemExit("no C compiler (cc, gcc or clang) to build Benchmarks/alsa_probe.c")


def make_sounds(work, long=True):
    """The test sounds, made by sox: a 5-second WAV, the same beeps for 10 minutes, and a 10-minute
    FLAC (all 44.1 kHz stereo S16); with `long` False the 5-second WAV alone (a minute less of sox
    for a figure that rings nothing longer)."""
    log("making test sounds with sox")
    s = {"wav5": work / "alarm-5s.wav", "flac600": work / "noise-10min.flac", "wav600": work / "alarm-10min.wav"}
    fmt_args = ["-r", str(RATE), "-c", "2", "-b", "16"]
    # Two tones an octave and a fifth apart, beeping four times a second: an alarm.
    run(["sox", "-n", *fmt_args, str(s["wav5"]), "synth", "5", "sine", "880", "sine", "1320",
         "tremolo", "4", "100", "vol", "0.5"])
    if not long:
        return {"wav5": s["wav5"]}
    # The same beeps for ten minutes, for the throughput runs: one long file costs a player nothing
    # per file, where many copies of a short one would charge it a file's set-up every 5 seconds.
    run(["sox", str(s["wav5"]), str(s["wav600"]), "repeat", "119"])
    # Pink noise: about the hardest material for a FLAC decoder (little to predict).
    run(["sox", "-n", *fmt_args, str(s["flac600"]), "synth", "600", "pinknoise", "vol", "0.25"])
    return s
