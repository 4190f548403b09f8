"""The command line: runs every figure in turn and writes BENCHMARKS.md."""

import argparse
import json
import shutil
import signal
import sys
import tempfile
import time
from pathlib import Path

from . import __doc__ as PACKAGE_DOC
from .common import OUTPUT, STARTED, env_with, log, median, run
from .control import fig_control
from .bus import fig_bus
from .commands import listing
from .issue51 import fig_issue51
from .daemon import daemon_add_to_armed, daemon_contestants, daemon_descriptors
from .desktop import desktop_ringers, fig_desktop
from .firing import fig_firing, fig_firing_cold
from .hooks import fig_hooks, report_hooks
from .machine import machine
from .memory import fig_memory_peers
from .prepare import build_probe, build_wake, ensure_packages, make_sounds
from .plots import make as make_plots
from .processes import cleanup, reap, sample, spawn
from .report import Report, goal_verdict, targets_table, write_report
from .sections51 import goals_of_startup, report_issue51
from .sections52 import report_sinks
from .ringpath import fig_throughput, syscalls_per_audio_second
from .servers import MonitorRecorder, PipeWireServer, PulseServer
from .sinks import fig_sinks
from .speech import fig_speech, speech_table
from .startup import fig_doctor, fig_startup
from .stop import fig_stop
from .window import fig_quiet_window, reset_peak


def main():
    ap = argparse.ArgumentParser(description=PACKAGE_DOC.split("\n\n")[0])
    ap.add_argument("--quick", action="store_true",
                    help="fewer repeats and a 10 s window, written to $TMPDIR/BENCHMARKS-quick.md (for editing this script)")
    ap.add_argument("--list-wake-commands", action="store_true",
                    help="print every command line the benchmark gives wake, as JSON (placeholders for its files: see "
                         "wakebench/commands.py), for BenchmarkCommandLineTests; builds and runs nothing")
    ap.add_argument("--figure", choices=["bus", "descriptors", "desktop", "doctor", "firing", "hooks", "sinks", "speech", "startup"]
                    + list(ISSUE51_PARTS),
                    help="run one figure alone and print it, without rewriting BENCHMARKS.md (bus: the daemon's memory and "
                         "wake-ups with 200 alarms and its D-Bus API, and wake next --follow idle; descriptors: the "
                         "daemon's open descriptors with 1, 200 and 2,000 standing alarms; desktop: figures 7 and "
                         "7b in short, two rounds of firing and stops and a 20 s ringing window on each server; firing: figure 1 "
                         "in short, 8 alarms warm and 8 cold; hooks: figure 12 (issue 53), the first frame with ten hooks on ringing against "
                         "none and a daemon's memory with hooks against none; sinks: figure 11 (issue 52), on each server with two sinks: --sink all's "
                         "first sound against one sink's, the gap when the ringing sink is unloaded, the memory held ringing on "
                         "two against one; speech: what --say on costs, a one-off's dry run and "
                         "a daemon arming 50 alarms, each with and without it; startup: figure 5 alone, with issue 51's "
                         "start-up targets; "
                         "figure 10 (issue 51), alone: daemon-memory (the daemon's resident memory with 20, 200 and 2,000 "
                         "alarms, after reloads, on a bus, beside cron and atd), spoken (400 spoken alarms against 400, and a "
                         "spoken alarm's first frame against an unspoken one), "
                         "list (wake list by the alarms), etc-wakeups (a waiting daemon while /etc is written), or issue51 "
                         "(all four); with --quick, fewer reloads and runs and a 10 s /etc window)")
    ap.add_argument("--wake", type=Path, help="measure this wake binary instead of building one (with --figure)")
    args = ap.parse_args()
    quick = args.quick
    if args.list_wake_commands:
        print(json.dumps(listing(), indent=1))
        return
    if args.figure:
        return one_figure(args.figure, args.wake, quick)
    output = Path(tempfile.gettempdir()) / "BENCHMARKS-quick.md" if quick else OUTPUT

    signal.signal(signal.SIGTERM, lambda *_: sys.exit(143))  # so that cleanup runs
    ensure_packages()
    wake = build_wake()
    work = Path(tempfile.mkdtemp(prefix="wake-bench-"))
    try:
        ctx = {"wake": wake, "work": work, "probe": build_probe(work), "sounds": make_sounds(work),
               "static_runtime": "libswiftCore" not in run(["ldd", str(wake)])}
        m = machine(wake)
        fire = fig_firing(ctx, 4 if quick else 16)
        fire["cold"] = fig_firing_cold(ctx, 4 if quick else 16)
        # Figure 7 on each server in turn (one timed at a time; PulseAudio stays up, idle, while
        # PipeWire is timed), then both servers' contestants ring side by side in the quiet window.
        servers, desktops = [], []
        for server_class in (PulseServer, PipeWireServer):
            server = server_class(work / server_class.NAME.lower())
            servers.append(server)
            recorder = MonitorRecorder(server)
            desktops.append(fig_desktop(ctx, server, recorder, 1 if quick else 4))
            desktops[-1]["version"] = getattr(server, "version", server.NAME)
            recorder.stop()
        window = fig_quiet_window(ctx, 10 if quick else 60, 2 if quick else 3,
                                  extra=[r for s in servers for r in desktop_ringers(ctx, s)] + daemon_contestants(ctx),
                                  watch={n: pid for s in servers for n, pid in s.watched().items()},
                                  after=lambda procs: daemon_add_to_armed(ctx, 3 if quick else 10))
        for server in servers:
            server.stop()
        sinks = fig_sinks(ctx, quick)
        hooks = fig_hooks(ctx, quick)
        window["descriptors"] = daemon_descriptors(ctx)
        thr = fig_throughput(ctx, 2 if quick else 5)
        sysc = syscalls_per_audio_second(ctx)
        mem = fig_memory_peers(ctx, 2 if quick else 3)
        startup = fig_startup(ctx, 10 if quick else 30)
        stop = fig_stop(ctx, 4 if quick else 15)
        control = fig_control(ctx, 2 if quick else 6)
        i51 = fig_issue51(ctx, quick)
        elapsed = time.monotonic() - STARTED
        plot_dir = output.parent / ("BENCHMARKS-quick-plots" if quick else "Benchmarks/plots")
        plots = make_plots(fire, desktops, startup, plot_dir, output.parent)
        targets, goals, goals51 = write_report(ctx, m, fire, window, thr, sysc, mem, startup, stop, desktops, control, elapsed,
                                               output, plots, i51=i51, listed=len(listing()), sinks=sinks,
                                               hooks=hooks)
    finally:
        cleanup()
        shutil.rmtree(work, ignore_errors=True)
    log(f"wrote {output} in {elapsed:.0f} s")
    print_goals51(goals51)
    print("issue 28's targets:")
    for t, f, v, ok in goals:
        print(f"  {'n/a   ' if ok is None else 'met   ' if ok else 'MISSED'}  {f}. {t}: {v}")
    print("earlier targets (issue 6):")
    for f, t, v, ok in targets:
        print(f"  {'met   ' if ok else 'MISSED'}  {f}. {t}: {v}")


# --figure NAME for figure 10's parts: which parts of fig_issue51 each runs.
ISSUE51_PARTS = {"daemon-memory": ["memory"], "spoken": ["spoken"], "list": ["list"], "etc-wakeups": ["etc"],
                 "issue51": None}


def print_goals51(goals51):
    print("targets from issue 51 on:")
    for issue, number, text, fig, value, met in goals51:
        print(f"  {goal_verdict(met).replace('*', ''):16} {issue}.{number} {text}: {value} (figure {fig})")


def print_section(number, wake, fill):
    """A figure's section as BENCHMARKS.md would show it (`fill` writes it into a Report), with the
    machine it ran on, then its rows of the table of targets."""
    m = machine(wake)
    R = Report()
    fill(R)
    print(f"Figure {number} ({m['date']}; {m['cores']} cores, {m['cpu']}, Linux {m['kernel']}; {m['wake']}; load {m['load']}):\n")
    T = Report()
    targets_table(T, R.goals51)
    print("\n".join(R.lines + T.lines))
    print_goals51(R.goals51)


def one_figure(figure, wake, quick=False):
    """`--figure NAME`: one figure on its own, printed as the table BENCHMARKS.md would show."""
    wake = wake.resolve() if wake else build_wake()
    work = Path(tempfile.mkdtemp(prefix="wake-bench-"))
    try:
        short = figure in ISSUE51_PARTS or figure in ("sinks", "hooks")
        ctx = {"wake": wake, "work": work, "sounds": make_sounds(work, long=not short)}
        if figure in ISSUE51_PARTS:
            i51 = fig_issue51(ctx, quick, ISSUE51_PARTS[figure])
            print_section("10", wake, lambda R: report_issue51(R, i51))
        elif figure == "startup":
            ctx["probe"] = build_probe(work)
            startup = fig_startup(ctx, 5 if quick else 30)
            m = machine(wake)
            apl = median(startup["aplay --version"])
            print(f"Start-up ({m['date']}; {m['cores']} cores, {m['cpu']}, Linux {m['kernel']}; {m['wake']}; load {m['load']}), "
                  "hyperfine, ms:")
            for name, t in startup.items():
                if isinstance(t, list):
                    print(f"  {name}: median {median(t):.2f}, worst {max(t):.2f}, {len(t)} runs, {median(t) / apl:.2f}× aplay --version")
            R = Report()
            goals_of_startup(R, startup)
            print_goals51(R.goals51)
        elif figure == "hooks":
            ctx["probe"] = build_probe(work)
            h = fig_hooks(ctx, quick)
            print_section("12", wake, lambda R: report_hooks(R, h))
        elif figure == "sinks":
            sinks = fig_sinks(ctx, quick)
            print_section("11", wake, lambda R: report_sinks(R, sinks))
        elif figure == "descriptors":
            fds = daemon_descriptors(ctx)
            m = machine(wake)
            print(f"The daemon's descriptors ({m['date']}; {m['cores']} cores, {m['cpu']}, Linux {m['kernel']}; "
                  f"{m['wake']}; load {m['load']}):")
            print("| standing alarms | open descriptors | of which | start → all armed, s |")
            print("|---|---|---|---|")
            for n, v in fds.items():
                if n != "failures":
                    kinds = ", ".join(f"{k} {c}" for k, c in sorted(v["kinds"].items()))
                    print(f"| {n:,} | {v['fds']} | {kinds} | {v['armed_s']:.2f} |")
            for f in fds.get("failures", []):
                print("failure:", f)
        elif figure == "desktop":
            desktop_in_short(ctx)
        elif figure == "bus":
            out, failures = fig_bus(ctx)
            m = machine(wake)
            print(f"The D-Bus API and the status-bar feed, idle ({m['date']}; {m['cores']} cores, {m['cpu']}, "
                  f"Linux {m['kernel']}; {m['wake']}; load {m['load']}):")
            print("| process | peak memory, MiB | resident now, MiB | wake-ups in the window |")
            print("|---|---|---|---|")
            for label, v in out.items():
                print(f"| {label} | {v['hwm_mib']:.1f} | {v['rss_mib']:.1f} | {v['wakeups']} in {v['seconds']:.0f} s |")
            for f in failures:
                print("failure:", f)
        elif figure == "doctor":
            times = fig_doctor(ctx, 20)
            m = machine(wake)
            print(f"wake doctor ({m['date']}; {m['cores']} cores, {m['cpu']}, Linux {m['kernel']}; {m['wake']}; load {m['load']}), "
                  "hyperfine, ms:")
            for name, t in times.items():
                print(f"  {name}: median {sorted(t)[len(t) // 2]:.1f}, worst {max(t):.1f}, {len(t)} runs")
        elif figure == "speech":
            out, alarms, failures = fig_speech(ctx)
            m = machine(wake)
            print(f"--say on ({m['date']}; {m['cores']} cores, {m['cpu']}, Linux {m['kernel']}; {m['wake']}; load {m['load']}):")
            print("\n".join(speech_table(out, alarms)))
            for f in failures:
                print("failure:", f)
        elif figure == "firing":
            ctx["probe"] = build_probe(work)
            warm, cold = fig_firing(ctx, 8), fig_firing_cold(ctx, 8)
            m = machine(wake)
            print(f"Firing in short ({m['date']}; {m['wake']}; load {m['load']}), ms from the deadline to the first frame:")
            for name, r in warm["results"].items():
                print(f"  {name}: " + ", ".join(f"{v:.3f}" for v in sorted(r["first_ms"])))
            if cold:
                print("  wake, cold: " + ", ".join(f"{v:.3f}" for v in sorted(cold["first_ms"])))
            for f in warm["failures"] + (cold["failures"] if cold else []):
                print("failure:", f)
    finally:
        cleanup()
        shutil.rmtree(work, ignore_errors=True)


def desktop_in_short(ctx, seconds=20):
    """`--figure desktop`: figure 7 and 7b in short, for measuring one change to the ring path:
    two rounds of firing and stops, then wake and the peers ringing side by side for `seconds`."""
    m = machine(ctx["wake"])
    print(f"The desktop path in short ({m['date']}; {m['cores']} cores, {m['cpu']}, Linux {m['kernel']}; "
          f"{m['wake']}; load {m['load']}):")
    for server_class in (PulseServer, PipeWireServer):
        server = server_class(ctx["work"] / server_class.NAME.lower())
        try:
            recorder = MonitorRecorder(server)
            out = fig_desktop(ctx, server, recorder, 2)
            recorder.stop()
            ringers = desktop_ringers(ctx, server)
            procs = [(label, spawn(cmd, env=env_with(**env))) for _, label, cmd, env in ringers]
            time.sleep(3)
            first = {label: sample(p.pid) for label, p in procs}
            # From here VmHWM is the peak while ringing (issue 51's held memory), as in the quiet window.
            reset = {label: reset_peak(p.pid) for label, p in procs}
            time.sleep(seconds)
            last = {label: sample(p.pid) for label, p in procs}
            for _, p in procs:
                p.send_signal(signal.SIGTERM)
                reap(p)
        finally:
            server.stop()
        print(f"\n{server.NAME}:")
        for key in ("firing", "stop"):
            for name, ms in out[key].items():
                print(f"  {key:6} {name}: " + ", ".join(f"{v:.1f}" for v in sorted(ms)) + " ms")
        for f in out["failures"]:
            print("  failure:", f)
        for label, a in first.items():
            b, minutes = last[label], (last[label]["t"] - a["t"]) / 60e9
            held = f"held ringing {b['hwm_kb'] / 1024:.1f} MiB, " if reset[label] else ""
            print(f"  ringing {label}: {(b['cpu_ns'] - a['cpu_ns']) / 1e6 / minutes:,.0f} ms CPU and "
                  f"{(b['switches'] - a['switches']) / minutes:,.0f} wake-ups a minute, {held}"
                  f"peak {max(a['hwm_kb'], b['hwm_kb']) / 1024:.1f} MiB over the whole run")
        if reset.get("wake -D default") and reset.get("aplay -D default"):
            w, ap = last["wake -D default"]["hwm_kb"], last["aplay -D default"]["hwm_kb"]
            print(f"  issue 51, target 4: held memory ringing through {server.NAME} at most aplay's: {w / 1024:.1f} against "
                  f"{ap / 1024:.1f} MiB: {'met' if w <= ap else 'MISSED'}")
