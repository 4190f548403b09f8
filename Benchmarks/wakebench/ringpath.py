"""Figure 3 (unpaced): decode-and-write throughput on `null`, and system calls per second of audio."""



from .commands import entry
from .common import RATE, env_with, log, median
from .probe import read_probe
from .processes import cpu_seconds, reap, spawn

# wake's short and long runs, whole seconds: --ring-for refuses less than a second (issue 51 found
# 200 ms refused). The throughput is the difference between the two, so only that must be long.
SHORT_RING_S, LONG_RING_S = 1, 3


def wake_unpaced(ctx, sound, seconds):
    """wake writing `sound` on null as fast as it can for `seconds`."""
    return [ctx["wake"], "now", "-D", "null", "-s", sound, "--unpaced", "--inhibit", "off", "-q", "--ring-for", f"{seconds}s"]


def wake_commands(ctx):
    return [entry("3", wake_unpaced(ctx, ctx["sounds"][k], t), "dry-run") for k in ("wav600", "flac600")
            for t in (SHORT_RING_S, LONG_RING_S)]


def play_commands(ctx):
    """How each contestant plays a file on null `n` times over (or, for wake, for a while)."""
    s = ctx["sounds"]

    def wake_cmd(f, seconds):
        return wake_unpaced(ctx, f, seconds)

    def mpv(f, n):
        return ["mpv", "--no-config", "--really-quiet", "--no-video", "--ao=alsa", "--audio-device=alsa/null",
                f"--loop-file={n - 1}" if n > 1 else "--loop-file=no", f]

    wav, flac = s["wav600"], s["flac600"]
    # (file label, contestant, command for a short run, command for a long one)
    return [
        ("WAV", "wake", wake_cmd(wav, SHORT_RING_S), wake_cmd(wav, LONG_RING_S)),
        ("WAV", "aplay -D null", ["aplay", "-q", "-D", "null", wav], ["aplay", "-q", "-D", "null"] + [wav] * 20),
        ("WAV", "sox FILE -t alsa null", ["sox", "-q", wav, "-t", "alsa", "null"], ["sox", "-q"] + [wav] * 4 + ["-t", "alsa", "null"]),
        ("WAV", "mpv --ao=alsa (null)", mpv(wav, 1), mpv(wav, 3)),
        ("FLAC", "wake", wake_cmd(flac, SHORT_RING_S), wake_cmd(flac, LONG_RING_S)),
        ("FLAC", "sox FILE -t alsa null", ["sox", "-q", flac, "-t", "alsa", "null"], ["sox", "-q", flac, flac, flac, "-t", "alsa", "null"]),
        ("FLAC", "mpv --ao=alsa (null)", mpv(flac, 1), mpv(flac, 3)),
    ]


def fig_throughput(ctx, repeats):
    """Audio seconds written per CPU second, start-up excluded.

    Each contestant plays a short run and a long run (more copies of the file, or for wake a
    longer --ring-for); the throughput is the difference in audio written (counted by the probe)
    over the difference in CPU time, so every program's start-up, and wake's arm-time decode of
    the whole file, cancel out.
    """
    work = ctx["work"] / "throughput"
    work.mkdir()
    out = {}
    log(f"figure 3: unpaced throughput, {repeats} repeats")
    for label, name, short, long in play_commands(ctx):
        runs = {"short": [], "long": []}
        for i in range(repeats):
            for size, cmd in (("short", short), ("long", long)):
                probe_log = work / f"probe-{len(out)}-{size}-{i}.log"
                p = spawn(cmd, env=env_with(LD_PRELOAD=ctx["probe"], ALSA_PROBE_LOG=probe_log))
                code, usage = reap(p)
                if code not in (0, 4):
                    raise SystemExit(f"{name} failed ({code}): {p.stderr_text[:300]}")
                rec = read_probe(probe_log).get(p.pid, {"frames": 0, "rate": RATE})
                runs[size].append((rec["frames"] / (rec["rate"] or RATE), cpu_seconds(usage)))
        base_audio = median([a for a, _ in runs["short"]])
        base_cpu = median([c for _, c in runs["short"]])
        thr = [(a - base_audio) / (c - base_cpu) for a, c in runs["long"] if c > base_cpu]
        out[(label, name)] = {"throughput": thr, "long_audio_s": median([a for a, _ in runs["long"]]),
                              "long_cpu_s": median([c for _, c in runs["long"]])}
    return out


def syscalls_per_audio_second(ctx):
    """For the WAV throughput finding: system calls per second of audio, wake against aplay,
    counted by `strace -c` (which slows both down, so only the counts are used), start-up taken
    out as for the throughput: the extra calls of a long run over a short one, per extra second."""
    work = ctx["work"] / "syscalls"
    work.mkdir()
    wav = ctx["sounds"]["wav600"]
    cases = {"wake": (wake_unpaced(ctx, wav, SHORT_RING_S), wake_unpaced(ctx, wav, LONG_RING_S)),
             "aplay": (["aplay", "-q", "-D", "null", wav], ["aplay", "-q", "-D", "null"] + [wav] * 5)}

    def count(name, size, cmd):
        probe_log, counts = work / f"probe-{name}-{size}.log", work / f"strace-{name}-{size}.txt"
        reap(spawn(["strace", "-f", "-c", "-o", counts] + cmd, env=env_with(LD_PRELOAD=ctx["probe"], ALSA_PROBE_LOG=probe_log)))
        audio = sum(r["frames"] / (r["rate"] or RATE) for r in read_probe(probe_log).values())
        calls = {}
        for line in counts.read_text().splitlines():
            f = line.split()
            if len(f) >= 5 and f[0][0].isdigit() and f[-1] != "total":
                calls[f[-1]] = int(f[3])
        return audio, calls

    out = {}
    for name, (short, long) in cases.items():
        (a0, c0), (a1, c1) = count(name, "short", short), count(name, "long", long)
        extra = a1 - a0
        out[name] = {"per_audio_s": {k: (c1.get(k, 0) - c0.get(k, 0)) / extra for k in set(c0) | set(c1)}
                     if extra > 0 else {}}
    return out
