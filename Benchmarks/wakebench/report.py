"""BENCHMARKS.md: the report around the figures' sections (machine, targets, headline)."""

import re

from .common import NOTES, verdict
from .machine import loadavg
from .missed import missed_notes
from .sections import (report_control, report_daemon, report_desktop, report_firing, report_memory, report_ringing,
                       report_startup, report_stop, report_waiting)
from .sections51 import report_issue51
from .sections52 import report_sinks


class Report:
    def __init__(self):
        self.lines = []
        self.targets = []  # (figure, target, wake's value, met)
        self.goals = []  # issue 28's targets: (target, figure, wake's value, met or None if not measured)
        self.headline = []
        # The table of targets from issue 51 on: (issue, target's number, target, figure, value, met);
        # met is True, False, None (not measured) or "said" (a figure asked for, with no target).
        self.goals51 = []

    def add(self, *lines):
        self.lines.extend(lines)

    def para(self, *sentences):
        self.lines.extend([" ".join(s for s in sentences if s), ""])

    def table(self, header, rows):
        self.add("| " + " | ".join(header) + " |", "|" + "|".join("---" for _ in header) + "|")
        for r in rows:
            self.add("| " + " | ".join(str(c) for c in r) + " |")
        self.add("")

    def failures(self, items):
        """One `- failure:` line each, then a blank line, when there are any."""
        if items:
            self.add(*(f"- failure: {f}" for f in items), "")

    def goal(self, figure, text, value, met):
        """One of issue 28's targets: met is None when this run could not measure it."""
        self.goals.append((text, figure, value, met))
        return "not measured" if met is None else verdict(met)

    def goal51(self, number, text, value, met, figure="10"):
        self.goal_of("51", number, text, value, met, figure)

    def goal_of(self, issue, number, text, value, met, figure):
        """A row of the table of targets from issue 51 on, for any issue."""
        self.goals51.append((issue, number, text, figure, value, met))

    def target(self, figure, text, value, met):
        self.targets.append((figure, text, value, met))
        return verdict(met)


def goal_verdict(met):
    return "not measured" if met is None else "said (no target)" if met == "said" else verdict(met)


def targets_table(R, goals51):
    """The table of targets from issue 51 on (later issues add their rows to the same table)."""
    R.table(["issue", "#", "target", "figure", "measured", ""],
            [[issue, number, text, f"[{fig}](#{anchor(fig)})" if fig in SECTIONS else fig, value, goal_verdict(met)]
             for issue, number, text, fig, value, met in sorted(goals51, key=lambda g: (int(g[0]), g[1]))])


def write_report(ctx, m, fire, window, thr, sysc, mem, startup, stop, desktops, control, elapsed, output, plots, i51=None,
                 listed=None, sinks=None, hooks=None):
    """`desktops`: figure 7's results, one per sound server; `plots`: {name: path relative to the
    report} of the SVGs plots.py made (empty if matplotlib is missing); `sinks`: figure 11's, one
    per sound server."""
    body = Report()
    report_firing(body, fire, plots.get("firing"))
    report_waiting(body, window)
    report_ringing(body, window, thr, sysc)
    report_memory(body, ctx, window, mem)
    report_startup(body, startup, ctx["static_runtime"])
    report_stop(body, stop)
    for desktop in desktops:
        report_desktop(body, desktop, window, plots.get(f"desktop-{desktop['server'].lower()}"))
    report_daemon(body, window, window.get("after"))
    report_control(body, control)
    if i51 is not None:
        report_issue51(body, i51, startup, window, listed)
    if sinks is not None:
        report_sinks(body, sinks)
    if hooks is not None:
        from .hooks import report_hooks
        report_hooks(body, hooks)

    R = Report()
    R.add("# wake: benchmarks", "")
    R.para(f"Made by `make bench` ([Benchmarks/run.py](Benchmarks/run.py)) on {m['date']} in "
           f"{int(elapsed // 60)} min {int(elapsed % 60)} s; run it again rather than edit this file. Every "
           "figure comes from this one run on this one machine, every contestant measured the same way, headless: "
           "figures 1 to 6 and 8 to 10 on ALSA's `null` PCM (no sound card), figure 7 through a private PulseAudio "
           "server with a null sink, the desktop's path, 7b through a private PipeWire (with wireplumber and "
           "pipewire-pulse), and 11 through both, each with a second null sink. "
           "\"wake ÷ this\" is wake's median over the other's: below 1× "
           "wake takes less time, CPU or memory, except for throughput, where above 1× is better. The last "
           "section is not from this run: what ARCHITECTURE.md's decisions were measured with on the way, each "
           "figure with its date.")
    where = f"{m['date']}, {m['cores']} × {m['cpu']}, {m['os']}, kernel {m['kernel']}, {m['wake']}"
    R.add("## Targets (issue 51 on)", "")
    R.para(f"Measured on {where}. Each issue from 51 on adds its rows to this table; \"not measured\": this run could "
           "not measure it (a figure that needs root, or a part left out).")
    targets_table(R, body.goals51)
    R.add("## Issue 28's targets", "")
    R.para(f"Measured on {where} (the machine is described below). \"not measured\": this benchmark does not "
           "measure it yet.")
    R.table(["target", "figure", "measured", ""],
            [[t, f"[{f}](#{anchor(f)})", v, "not measured" if ok is None else verdict(ok)] for t, f, v, ok in body.goals])
    R.add(*missed_notes(body.goals))
    if plots.get("startup"):
        R.add(f"![Start-up against `aplay --version`]({plots['startup']})", "")
    R.add("## Machine", "")
    R.table(["", ""], [
        ["date", m["date"]], ["cores", f"{m['cores']} × {m['cpu']}"], ["kernel", m["kernel"]], ["system", m["os"]],
        ["alsa-lib", m["alsa"]], ["libsndfile", m["sndfile"]], ["wake", m["wake"]], ["built with", f"`{m['build']}`"], ["Swift", m["swift"]],
        ["peers", f"{m['aplay']}; sox {m['sox']}; {m['mpv']}; {m['hyperfine']}"],
        ["sound servers", "; ".join(f"{d['server']}: {d.get('version', '?')}" for d in desktops)],
        ["load average (1, 5, 15 min)", f"{m['load']} at the start, {loadavg()} at the end"],
    ])
    R.para("Test sounds, made by sox at the start of the run: a 5-second WAV (two tones beeping, 44.1 kHz stereo "
           "16-bit, 0.9 MB), the same beeps for 10 minutes (for the throughput runs, 106 MB) and a 10-minute FLAC "
           f"of pink noise (44.1 kHz stereo 16-bit, {ctx['sounds']['flac600'].stat().st_size / 1e6:.0f} MB; noise "
           "is the hardest material for a FLAC decoder).")
    R.add("## Earlier targets (issue 6) at a glance", "", "| figure | target | wake | |", "|---|---|---|---|")
    R.add(*[f"| {f} | {t} | {v} | {verdict(ok)} |" for f, t, v, ok in body.targets])
    R.add("", "## Headline", "")
    R.add(*[f"- {h}" for h in body.headline])
    R.add("")
    R.add(*body.lines)
    # Last, what ARCHITECTURE.md's decisions were measured with on the way: fixed text, written as
    # it is (not measured by this run).
    if R.lines[-1]:
        R.add("")
    R.add(*(NOTES / "history-of-the-decisions.md").read_text().splitlines())
    output.write_text("\n".join(R.lines).rstrip() + "\n")
    return body.targets, body.goals, body.goals51


# Each figure's section heading, for the targets' links (GitHub's anchors: lower case, spaces to
# dashes, punctuation dropped).
SECTIONS = {"1": "1. Firing precision", "5": "5. Start-up", "7": "7. The desktop path: through PulseAudio",
            "7b": "7b. The desktop path: through PipeWire", "8": "8. The daemon: 1, 20 and 200 standing alarms",
            "10": "10. The waiting daemon against cron, by its alarms (issue 51)",
            "11": "11. Where it rings: two sinks (issue 52)", "12": "12. Hooks (issue 53)"}


def anchor(figure):
    title = SECTIONS.get(figure, "")
    return re.sub(r"[^a-z0-9 _-]", "", title.lower()).replace(" ", "-")
