"""For each of issue 28's targets a run can miss: what was tried and what it would take, in a few
sentences, so the report says it beside the table (the figures' sections have the details).
What was measured while developing is dated; this run's own figure is the table's."""

# (words in the target's text, what was tried, what it would take)
NOTES = [
    ("20 standing alarms",
     "Tried, each measured (figure 5, finding 13): plain words skip swift-argument-parser; alarms.toml is read "
     "as bytes; one field of /proc/self/status; a specialised join; no exported dynamic symbols: 5.70 → 4.51 M "
     "instructions, 4.9 → 4.0 ms side by side. What is left is spread out (callgrind, 2026-11-27): the dynamic "
     "linker 0.8 M, reading alarms.toml 1.1 M, the rows 1.0 M (0.6 M of it each alarm's stored options checked "
     "again as the command line checks them), the wake-the-system probe 0.3 M, the table's text the rest.",
     "not recomputing what did not change: a cache of the table that alarms.toml's and the history's "
     "modification times and the minute invalidate, or the running daemon answering over its socket."),
    ("dry run",
     "Figure 5 also sets it beside aplay playing the 5-second WAV on `null`, its nearer peer. Of its 25 M "
     "instructions "
     "(callgrind, 2026-11-26), ALSA's `snd_pcm_open` of `null` takes 9.4 M (Debian's ALSA configuration runs the "
     "pulse plugin's hook, which loads libpulse, X11's client libraries and more; aplay pays it too) and "
     "swift-argument-parser's parse 9.1 M (5.5 M of them the Swift runtime scanning the binary's 4,100 "
     "protocol-conformance records for the types its reflection asks about).",
     "a command-line parser without reflection in place of swift-argument-parser, with its help, errors and "
     "completion scripts written by hand (a patched copy cannot be vendored here); the ALSA part is the system's "
     "configuration, not wake's."),
    ("peak memory ringing",
     "Of it, 11–12 MiB are file pages shared with the page cache, wake's own binary 5.6–5.9 MiB (the static "
     "Swift runtime and standard library, FoundationEssentials, wake). Tried: functions laid out in the order a "
     "ring uses them, a section per function (a ring on `null` 15.7 → 15.0 MB; through PulseAudio 14.1 → "
     "13.9 MB), the pre-roll reading the ring's code ahead instead of mapping it (2026-11-27: a ring on `null` "
     "1.0–1.5 MB lower).",
     "dropping FoundationEssentials, linked only for swift-argument-parser (a one-line static Swift program "
     "peaks at 4.8 MB without it and 6.3 MB with it, 2026-11-26): the same parser replacement."),
    ("through PipeWire: CPU",
     "wake asks for aplay's 500 ms buffer, makes the same system calls (strace), sleeps in poll() until the plugin "
     "or a stop wakes it, looks for a stall only when one could be due, and waits at once when the buffer is "
     "full. Measured by thread, wake and aplay swap places from run to run (1.00× and 0.89× in a run of "
     "2026-11-26): what is left is user-space work per wake-up and a minute's window on a shared machine.",
     "a lighter write path (decoding straight into the plugin's buffer, without wake's copy) and a longer "
     "window, to tell it from the noise."),
    ("through PipeWire: wake-ups",
     "As for the CPU, above: the same polls and writes as aplay's, counted by strace.",
     "as for the CPU."),
]


def missed_notes(goals):
    """Lines for the report: one bullet per missed target (met is False), or none."""
    lines = []
    for text, figure, value, met in goals:
        if met is not False:
            continue
        note = next((n for n in NOTES if n[0] in text), None)
        tried, would = (note[1], note[2]) if note else (f"See figure {figure}.", "See figure " + figure + ".")
        lines.append(f"- {text}: {value}. {tried} What it would take: {would}")
    if lines:
        return ["### Missed: what was tried, what it would take", ""] + lines + [""]
    return []
