"""Figure 11's section (issue 52, item 3: where it rings, two sinks) and its rows of the table of targets."""

from .common import fmt, median, mib, note
from .sinks import SECOND, both_ms

ISSUE = "52"
FIGURE = "11"


def ms(values):
    """median / worst, ms, as text."""
    return f"{fmt(median(values), 1)} / {fmt(max(values), 1)}" if values else "—"


def report_sinks(R, results):
    """Section 11 and issue 52's sink rows (R.goal_of): `results`, fig_sinks's, one per server."""
    R.add("## 11. Where it rings: two sinks (issue 52)", "")
    if not results:
        return
    r0 = results[0]
    R.para(note("11-how", rounds=r0["rounds"], gone_rounds=r0["gone_rounds"], window=r0.get("window_s", "—"),
                held_rounds=r0["held_rounds"], s="s" if r0["held_rounds"] != 1 else ""))
    rows = []
    for r in results:
        one, every = r["first_ms"]["one"], r["first_ms"]["all"]
        rows.append([r["version"], "`--sink speaker`", ms([f["speaker"] for f in one]), "—", ms([f["speaker"] for f in one]),
                     fmt(median(r["late_ms"]["one"]), 3), len(one)])
        rows.append([r["version"], "`--sink all`", ms([f["speaker"] for f in every]), ms([f[SECOND] for f in every]),
                     ms(both_ms(every)), fmt(median(r["late_ms"]["all"]), 3), len(every)])
    R.table(["server", "alarm", "heard on the speaker, median / worst ms", f"on the {SECOND}", "both heard",
             "first frame written (`late_ms`), median ms", "alarms"], rows)
    R.table(["server", f"{SECOND} unloaded → sound on the speaker, median / worst ms",
             f"loaded again → sound on the {SECOND}, median / worst ms", "rounds"],
            [[r["version"], ms(r["gone_ms"]), ms(r["back_ms"]), len(r["gone_ms"])] for r in results])
    R.table(["server", "held MiB ringing, `--sink speaker` (median / worst)", "`--sink all` (median / worst)",
             "all − one (medians), MiB"],
            [[r["version"], held(r["held_kb"]["one"]), held(r["held_kb"]["all"]),
              f"{mib(median(r['held_kb']['all']) - median(r['held_kb']['one'])):+.2f}"
              if r["held_kb"]["one"] and r["held_kb"]["all"] else "—"] for r in results])
    if not all(r.get("reset", True) for r in results):
        R.para("VmHWM could not be reset (`/proc/PID/clear_refs`): the held figures are each process's peak over its whole run.")
    for r in results:
        R.failures([f"{r['server']}: {f}" for f in r["failures"]])
    goals_of_sinks(R, results)


def held(kb):
    return f"{fmt(mib(median(kb)), 1)} / {fmt(mib(max(kb)), 1)}" if kb else "—"


def goals_of_sinks(R, results):
    for r in results:
        server = r["server"]
        one, every = [f["speaker"] for f in r["first_ms"]["one"]], both_ms(r["first_ms"]["all"])
        # The first frame written (late_ms, to the microsecond) against the target; the sound at the
        # sinks beside it, within the monitor's resolution (10 ms) of one sink's.
        text = f"the first frame with `--sink all` on two sinks within 2 ms of one sink's, through {server}"
        late = r["late_ms"]
        if one and every and late["one"] and late["all"]:
            written, heard = median(late["all"]) - median(late["one"]), median(every) - median(one)
            R.goal_of(ISSUE, "3", text, f"written {fmt(median(late['all']), 3)} against {fmt(median(late['one']), 3)} ms "
                      f"({written:+.3f}); heard on both sinks {fmt(median(every), 1)} against {fmt(median(one), 1)} "
                      f"({heard:+.1f}, within the monitor's 10 ms); medians", written <= 2.0 and heard <= 10.0, figure=FIGURE)
        else:
            R.goal_of(ISSUE, "3", text, "not measured", None, figure=FIGURE)
        gone = r["gone_ms"]
        R.goal_of(ISSUE, "3", f"the gap when the ringing sink vanishes (unload → sound on the other), through {server}, "
                  "said (the tests allow 2 s)",
                  f"{fmt(median(gone), 1)} ms median, {fmt(max(gone), 1)} worst ({len(gone)} rounds)" if gone else "not measured",
                  "said" if gone else None, figure=FIGURE)
        a, o = r["held_kb"]["all"], r["held_kb"]["one"]
        text = f"held memory ringing on two sinks (`--sink all`) at most 1 MiB above one (`--sink speaker`), through {server}"
        if a and o:
            diff = mib(median(a) - median(o))
            R.goal_of(ISSUE, "3", text, f"{fmt(mib(median(a)), 1)} against {fmt(mib(median(o)), 1)} MiB ({diff:+.2f})",
                      diff <= 1.0, figure=FIGURE)
        else:
            R.goal_of(ISSUE, "3", text, "not measured", None, figure=FIGURE)
