"""Figure 10's section (issue 51: the waiting daemon against cron, by its alarms) and issue 51's
rows of the table of targets, some of them from figures 5, 7 and 7b."""

from .common import fmt, median, mib, note, ratio
from .issue51 import RELOADS, SIZES, SPOKEN, find

ISSUE = "51"
# What the issue measured for cron and atd, quoted when this run cannot run them.
QUOTED_PEERS = {"cron": 2.7, "atd": 2.3}


def peer_text(i51):
    peers, why = i51.get("peers") or {}, i51.get("peers_why") or {}
    parts = []
    for name in ("cron", "atd"):
        kb = peers.get(name)
        parts.append(f"`{name} -f` {fmt(mib(kb), 1)} MiB" if kb else
                     f"{name} {QUOTED_PEERS[name]} MiB (the issue's figure, not measured here: {why.get(name, 'not run')})")
    return ", ".join(parts)


def report_issue51(R, i51, startup=None, window=None, listed=None):
    """Section 10 and issue 51's targets (R.goal51). `startup`: figure 5's results, `window`: the
    quiet window's (figures 7 and 7b ringing), either None when this run did not measure them;
    `listed`: how many command lines `--list-wake-commands` gives."""
    R.add("## 10. The waiting daemon against cron, by its alarms (issue 51)", "")
    big_reloads = next((d.get("reloads", 0) for d in i51.get("daemons", []) if d["alarms"] == SIZES[-1] and not d["bus"]), RELOADS)
    R.para(note("10-how", small=" and ".join(f"{n:,}" for n in SIZES[:-1]), large=f"{SIZES[-1]:,}", reloads=big_reloads,
                spoken=SPOKEN))
    if listed is not None:
        R.goal51("0", "`make bench` runs whole; every command line it gives wake is checked by `make test`",
                 f"{listed} command lines (`run.py --list-wake-commands`, BenchmarkCommandLineTests)", True, figure="—")
    cron = (i51.get("peers") or {}).get("cron") or QUOTED_PEERS["cron"] * 1024
    rows = []
    for d in i51.get("daemons", []):
        if "rss_start_kb" not in d:
            continue
        what = (f"{d['alarms']:,} alarms" + (", API on a session bus" if d["bus"] else "")
                + (", spoken (`say = \"on\"`)" if d["say"] else ""))
        after = d.get("rss_reload_kb")
        rows.append([what, fmt(d["armed_s"], 2), fmt(mib(d["rss_start_kb"]), 1), fmt(mib(after), 1) if after else "—",
                     f"{fmt(mib(d['rss_last_kb']), 1)} after {d['reloads']}" if d.get("reloads", 0) > 1 else "—",
                     fmt(mib(d["hwm_kb"]), 1), ratio(d["rss_start_kb"], cron)])
    R.table(["wake daemon", "start → all armed, s", "resident MiB, armed", "after a reload", "after the last reload",
             "peak MiB", "÷ cron (armed)"], rows)
    R.para(f"Beside it: {peer_text(i51)} (resident once started, root, Debian's packages, nothing scheduled).")
    where = []
    for d in i51.get("daemons", []):
        if d.get("smaps") and not d["bus"] and (d["alarms"] == SIZES[-1] or d["say"]):
            where.append(f"with {d['alarms']:,} {'spoken ' if d['say'] else ''}alarms"
                         + (f", after {d['reloads']} reloads" if d.get("reloads") else "")
                         + f", {fmt(mib(d['anon_kb']), 1)} MiB anonymous and {fmt(mib(d['file_kb']), 1)} MiB of files: "
                         + ", ".join(f"{name} {fmt(mib(kb), 1)}" for name, kb in d["smaps"]) + " MiB")
    if where:
        R.para("Where the daemon's resident memory is at the end (`/proc/PID/smaps`, by mapping): " + "; ".join(where) + ".")
    R.para(note("10-memory-finding"))
    for n, limit in ((20, 6.0), (2000, 8.0)):
        for bus in (False, True):
            d = find(i51, n, bus=bus)
            label = f"a waiting daemon with {n:,} alarms" + (", its D-Bus API on a real bus" if bus else "")
            if not d:
                R.goal51("2", f"{label}: at most {limit} MiB resident, after its start and after a reload", "not measured", None)
                continue
            worst = max(d["rss_start_kb"], d.get("rss_reload_kb") or d["rss_start_kb"])
            R.goal51("2", f"{label}: at most {limit} MiB resident, after its start and after a reload",
                     f"{fmt(mib(d['rss_start_kb']), 1)} / {fmt(mib(d.get('rss_reload_kb')), 1)} MiB "
                     f"({ratio(worst, cron)} cron)", mib(worst) <= limit)
    big = find(i51, SIZES[-1])
    if big and big.get("reloads", 0) >= 1:
        grow = mib(big["rss_last_kb"] - big["rss_start_kb"])
        R.goal51("2", f"{big['reloads']} reloads of {SIZES[-1]:,} alarms end within 0.5 MiB of the start",
                 f"{fmt(mib(big['rss_start_kb']), 1)} → {fmt(mib(big['rss_last_kb']), 1)} MiB ({grow:+.1f})",
                 abs(grow) <= 0.5 and big["reloads"] >= RELOADS)
    else:
        R.goal51("2", f"{RELOADS} reloads of {SIZES[-1]:,} alarms end within 0.5 MiB of the start", "not measured", None)
    plain, spoken = find(i51, SPOKEN), find(i51, SPOKEN, say=True)
    if plain and spoken:
        diff = mib(spoken["rss_start_kb"] - plain["rss_start_kb"])
        R.goal51("1", f"{SPOKEN} spoken alarms within 2 MiB of {SPOKEN} unspoken",
                 f"{fmt(mib(spoken['rss_start_kb']), 1)} against {fmt(mib(plain['rss_start_kb']), 1)} MiB ({diff:+.1f})",
                 diff <= 2.0)
    else:
        R.goal51("1", f"{SPOKEN} spoken alarms within 2 MiB of {SPOKEN} unspoken", "not measured", None)
    sf = i51.get("spoken_firing")
    if sf and sf["on"]:
        R.para(note("10-spoken-firing", on=", ".join(fmt(x, 3) for x in sorted(sf["on"])),
                    off=", ".join(fmt(x, 3) for x in sorted(sf["off"])) or "—",
                    cold=", ".join(fmt(x, 3) for x in sorted(sf.get("cold", []))) or "not measured (root only)"))
        R.goal51("1", "a spoken alarm's first frame on time: within 2 ms of the deadline (figure 1's target), the clip made before it",
                 f"{fmt(max(sf['on']), 3)} ms at worst ({len(sf['on'])} alarms; unspoken "
                 f"{fmt(max(sf['off'], default=float('nan')), 3)})", max(sf["on"]) <= 2.0)
    else:
        R.goal51("1", "a spoken alarm's first frame on time: within 2 ms of the deadline (figure 1's target), the clip made before it",
                 "not measured", None)
    cold = (sf or {}).get("cold")
    R.goal51("2", "a standing alarm's first frame with the page cache dropped a second before: within 2 ms (figure 1's cold target)",
             f"{fmt(max(cold), 3)} ms at worst ({len(cold)} alarms)" if cold else "not measured", max(cold) <= 2.0 if cold else None)

    # What grows with the alarms.
    lists = i51.get("list_ms") or {}
    daemons = {n: find(i51, n) for n in SIZES}
    rows = []
    for n in SIZES:
        d = daemons[n]
        rows.append([f"{n:,}", fmt(median(lists[n]), 1) if n in lists else "—",
                     fmt(median(d["add_ms"]), 1) if d and d["add_ms"] else "—",
                     fmt(median(d["reload_ms"]), 1) if d and d["reload_ms"] else "—",
                     fmt(d["armed_s"] * 1000, 0) if d else "—"])
    R.para(note("10-growth"))
    R.table(["standing alarms", "`wake list`, median ms", "`wake add` → armed, median ms", "the daemon's reload, median ms",
             "the daemon's start → all armed, ms"], rows)
    for n_key, label, limit, values in (("list", "`wake list`", 40, lists),
                                        ("add", "`wake add` to armed", 50,
                                         {n: d["add_ms"] for n, d in daemons.items() if d and d["add_ms"]})):
        top = values.get(SIZES[-1])
        growth = " / ".join(fmt(median(values[n]), 1) for n in SIZES if n in values)
        R.goal51("3", f"{label} with {SIZES[-1]:,} alarms at most {limit} ms (20 / 200 / 2,000)",
                 f"{growth} ms" if values else "not measured", None if not top else median(top) <= limit)
    reloads = {n: d["reload_ms"] for n, d in daemons.items() if d and d["reload_ms"]}
    R.goal51("3", "the daemon's reload of 20 / 200 / 2,000 alarms, said (no target)",
             " / ".join(fmt(median(reloads[n]), 1) for n in SIZES if n in reloads) + " ms" if reloads else "not measured",
             "said" if reloads else None)

    etc = i51.get("etc")
    if etc:
        R.para(note("10-etc", seconds=fmt(etc["seconds"], 0), writes=etc["writes"], wakeups=etc["wakeups"]))
    R.goal51("5", "a waiting daemon makes no wake-up while a file in /etc is written every second (60 s)",
             f"{etc['wakeups']} in {fmt(etc['seconds'], 0)} s ({etc['writes']} writes)" if etc else
             "not measured (needs root)" if "etc" in i51 else "not measured", None if not etc else etc["wakeups"] == 0)
    R.failures(i51.get("failures", []))

    goals_of_startup(R, startup)
    goals_of_ringing(R, window)


def goals_of_startup(R, startup):
    """Target 4's start-up rows, from figure 5 (None: not measured)."""
    if startup and "aplay --version" in startup:
        apl = median(startup["aplay --version"])
        for name in ("wake --version", "wake list, 20 standing alarms", "wake stop, nothing running"):
            if name in startup:
                x = median(startup[name]) / apl
                R.goal51("4", f"`{name}` within 2× `aplay --version`", f"{x:.2f}× ({fmt(median(startup[name]), 2)} ms)", x <= 2,
                         figure="5")
    else:
        R.goal51("4", "`wake --version`, `wake list` (20 alarms), `wake stop` within 2× `aplay --version`", "not measured", None,
                 figure="5")
    # Issue 55: a translation loaded costs at most a tenth of a start.
    for plain, german in (("wake --version", "wake --version, LANGUAGE=de"),
                          ("wake list, 20 standing alarms", "wake list, 20 standing alarms, LANGUAGE=de")):
        if startup and plain in startup and german in startup:
            x = median(startup[german]) / median(startup[plain])
            R.goal_of("55", "B", f"`{german}` within 10 % of the C locale's", f"{x:.2f}× ({fmt(median(startup[german]), 2)} against "
                      f"{fmt(median(startup[plain]), 2)} ms)", x <= 1.10, figure="5")


def goals_of_ringing(R, window):
    """Target 4's memory rows, from the quiet window's ringers of figures 7 and 7b (None: not measured)."""
    rows_by = (window or {}).get("rows", {})
    for kind, server, fig in (("desktop", "PulseAudio", "7"), ("desktop-pipewire", "PipeWire", "7b")):
        w, a = rows_by.get((kind, "wake -D default")), rows_by.get((kind, "aplay -D default"))
        if w and a:
            wm, am = median(w["window_hwm_kb"]), median(a["window_hwm_kb"])
            R.goal51("4", f"held memory ringing through {server} at most aplay's",
                     f"{fmt(mib(wm), 1)} against {fmt(mib(am), 1)} MiB ({ratio(wm, am)})", wm <= am, figure=fig)
        else:
            R.goal51("4", f"held memory ringing through {server} at most aplay's", "not measured", None, figure=fig)

