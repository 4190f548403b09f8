"""BENCHMARKS.md's sections, one per figure: a table, the target's verdict, how it was measured,
and what was found. The fixed prose (how a figure is measured, what was found, what each step
bought) is text in notes/, one passage a file, which common.note reads with this run's figures put
in; what depends on this run's results (a verdict, a sentence said only when a target is missed)
is worded here."""

from .common import RATE, fmt, median, mib, note, p3, percentile, ratio
from .daemon import DAEMON_SIZES, DESCRIPTOR_SIZES
from .desktop import RING_KIND


def report_firing(R, fire, plot=None):
    res, names = fire["results"], fire["names"]
    whole, exact = names[1], names[2]
    st = {n: (percentile(r["first_ms"], 50), percentile(r["first_ms"], 99), max(r["first_ms"], default=float("nan")))
          for n, r in res.items()}
    R.add("## 1. Firing precision", "")
    R.para("Delay from the deadline to the first audio frame accepted by ALSA, ms (`null` PCM, "
           f"{len(res['wake']['first_ms'])} alarms each, one a second, the contestants taking turns).")
    rows = [[n, fmt(st[n][0], 3), fmt(st[n][1], 3), fmt(st[n][2], 3), len(res[n]["first_ms"]),
             "—" if n == "wake" else ratio(st["wake"][1], st[n][1])] for n in names]
    late = res["wake"]["late_ms"]
    rows.insert(1, ["wake's own `late_ms` event field (first frame written, µs resolution)", fmt(percentile(late, 50), 3),
                    fmt(percentile(late, 99), 3), fmt(max(late, default=float("nan")), 3), len(late), ""])
    R.table(["contestant", "p50 ms", "p99 ms", "max ms", "alarms", "wake ÷ this (p99)"], rows)
    worse = [n for n in names[1:] if any(st["wake"][i] > st[n][i] for i in range(3))]
    t1 = R.target("1", "firing p99 within 2 ms of the deadline", f"{fmt(st['wake'][1], 3)} ms", st["wake"][1] <= 2.0)
    t1b = R.target("1", "firing no worse than `sleep N; aplay` at p50, p99 and max",
                   "worse than " + ", ".join(worse) if worse else "better at p50, p99 and max", not worse)
    R.goal("1", "firing within 2 ms of the deadline at p99 (warm page cache)", f"{fmt(st['wake'][1], 3)} ms",
           st["wake"][1] <= 2.0)
    cold = fire.get("cold")
    if cold and cold["first_ms"]:
        c = cold["first_ms"]
        R.goal("1", "… also when the page cache was dropped during the wait, at p99", f"{fmt(percentile(c, 99), 3)} ms",
               percentile(c, 99) <= 2.0)
    else:
        R.goal("1", "… also when the page cache was dropped during the wait, at p99",
               "not measured (the benchmark was not run as root)", None)
    R.para(f"Targets: p99 within 2 ms of the deadline: {t1}. No worse than `sleep N; aplay` anywhere: {t1b}.")
    if cold and cold["first_ms"]:
        c = cold["first_ms"]
        R.para(note("1-cold", alarms=len(c), p50=fmt(percentile(c, 50), 3), p99=fmt(percentile(c, 99), 3),
                    max=fmt(max(c), 3)))
        R.failures(cold["failures"])
    if plot:
        R.add(f"![Firing delay of every alarm, by contestant]({plot})", "")
    R.para(note("1-how"))
    ph = res["wake"]["phases"]
    if ph:
        woke, own, opened = ([p[i] for p in ph] for i in range(3))
        R.add("Where wake's delay goes, alarm by alarm (the probe also stamps the return of the `poll()` that "
              "waited for the deadline, and `snd_pcm_open`), ms, p50 / p99 / max:", "")
        R.table(["phase", "p50 / p99 / max ms"], [
            ["deadline → wake's poll() returns (the kernel wakes the process: timer expiry and scheduling)", p3(woke)],
            ["poll() returns → first frame written (the engine's step, the go to the pre-rolled device, the write)", p3(own)],
            ["`snd_pcm_open`, from the deadline (negative: before it, by the pre-roll)", p3(opened)],
        ])
        opens = {n: percentile(r["open_ms"], 50) for n, r in res.items()}
        kernel_dominates = percentile(woke, 99) > percentile(own, 99)
        prerolled = percentile(opened, 50) < 0
        R.para("Finding:" if st["wake"][1] > 2.0 else "Reading it:",
               f"the kernel's wake-up (deadline → `poll()` returns) is {fmt(percentile(woke, 50), 3)} ms median, "
               f"{fmt(percentile(woke, 99), 3)} ms at p99 and {fmt(max(woke), 3)} ms at worst: every program "
               "that sleeps to a deadline pays it (`sleep` too, inside both recipes), and on a virtual machine "
               "an idle vCPU must first be woken by the host.",
               "It is the larger and the erratic part here." if kernel_dominates else "",
               f"wake's own part, from its wake-up to the first frame, is {fmt(percentile(own, 50), 3)} ms median "
               f"and {fmt(max(own), 3)} ms at worst.",
               ("The device was opened and configured, and the first audio decoded, "
                f"{fmt(-percentile(opened, 50), 0)} ms before the deadline (the pre-roll): at the deadline the "
                "output thread is only told to go and writes." if prerolled else
                "The device is opened at the deadline (no pre-roll): ALSA's open and configure are on the path."),
               "For the recipes the delay is the start of a whole process after `sleep` returns: `snd_pcm_open` "
               f"is called {fmt(opens[exact], 2)} ms after the deadline (median, `sleep` to the microsecond), against "
               f"{fmt(opens['wake'], 2)} ms for wake.")
    R.failures(fire["failures"])
    R.headline.append(
        f"Firing: p99 {fmt(st['wake'][1], 2)} ms from the deadline to the first frame, against "
        f"{fmt(st[exact][1], 2)} ms for `sleep` (to the microsecond) then `aplay` ({ratio(st['wake'][1], st[exact][1])}) "
        f"and {fmt(st[whole][1], 0)} ms for `sleep` in whole seconds ({ratio(st['wake'][1], st[whole][1], 3)}).")
    return st


def report_waiting(R, window):
    rows_by = window["rows"]
    waits = [k[1] for k in rows_by if k[0] == "wait"]
    wk = rows_by[("wait", "wake (an hour away)")]
    R.add("## 2. Cost of waiting", "")
    R.para(note("2-window", copies=window["copies"], seconds=window["seconds"]))
    rows = []
    for label in waits:
        r = rows_by[("wait", label)]
        rows.append([label, fmt(median(r["wakeups_per_min"]), 1), fmt(max(r["wakeups_per_min"]), 1),
                     fmt(median(r["cpu_ms_per_min"]), 3), fmt(max(r["cpu_ms_per_min"]), 3),
                     "—" if label.startswith("wake") else
                     f"{ratio(median(wk['wakeups_per_min']), median(r['wakeups_per_min']))} / "
                     f"{ratio(median(wk['cpu_ms_per_min']), median(r['cpu_ms_per_min']))}"])
    R.table(["contestant", "wake-ups/min (median)", "(worst)", "CPU ms/min (median)", "(worst)",
             "wake ÷ this (wake-ups / CPU)"], rows)
    worst = max(wk["wakeups_per_min"])
    t2 = R.target("2", "zero wake-ups per minute while waiting without a terminal (as `sleep`)",
                  f"{fmt(worst, 1)} per minute", worst == 0)
    R.para(f"Target: zero wake-ups a minute, as `sleep`: {t2}.",
           "wake arms one `timerfd` for the deadline and blocks in one `poll()` with no timeout; nothing "
           "else is armed unless a countdown is drawn on a terminal.")
    why, steps = window.get("why_awake"), window.get("clock_steps") or []
    if why is not None:
        n = sum(why["returns"].values())
        detail = ", ".join(f"{v} for {k}" for k, v in sorted(why["returns"].items(), key=lambda kv: -kv[1]))
        R.para("Finding:" if worst > 0 else "Checked:",
               f"a further waiting wake, traced with `strace` through the same window (not in the table), "
               f"returned from `poll()` {n} time{'s' if n != 1 else ''}" + (f": {detail}" if n else "") + "."
               + (f" {why['cancelled']} of its timer reads failed with ECANCELED, which is how a "
                  "`TFD_TIMER_CANCEL_ON_SET` timer reports that the wall clock was set: wake then re-reads the "
                  "clock and re-arms, as it must to ring at the right wall-clock time after NTP or a manual "
                  "change." if why["cancelled"] else ""),
               f"The benchmark saw the wall clock step {len(steps)} time{'s' if len(steps) != 1 else ''} during the "
               "window" + (f" (by {', '.join(fmt(x * 1000, 1) + ' ms' for x in steps[:5])}"
                           + (", …" if len(steps) > 5 else "") + "): something on the machine was setting the "
                           "clock, and every wall-clock timer in the system is woken by that, `sleep` aside "
                           "(it sleeps on the monotonic clock)." if steps else "."))
    inh = rows_by.get(("wait", "wake, holding a logind inhibitor"))
    if inh:
        R.para("The inhibitor row is wake as it waits by default (`--inhibit auto`), holding a logind "
               "\"sleep:idle\" lock over a private system bus with python-dbusmock's logind on it (the bus "
               "connection is one more descriptor in the same `poll()`):",
               f"{fmt(median(inh['wakeups_per_min']), 1)} wake-ups a minute.")
    R.failures(window.get("failures", []))
    loop = rows_by.get(("wait", "once-a-second loop (python3)"))
    sl = rows_by.get(("wait", "sleep 3600"))
    R.headline.append(
        f"Waiting: {fmt(median(wk['wakeups_per_min']), 1)} wake-ups and {fmt(median(wk['cpu_ms_per_min']), 3)} ms of CPU "
        f"a minute, {'as' if median(wk['wakeups_per_min']) <= median(sl['wakeups_per_min']) else 'against'} `sleep 3600`'s "
        f"{fmt(median(sl['wakeups_per_min']), 1)}; a once-a-second loop: {fmt(median(loop['wakeups_per_min']), 0)} "
        f"wake-ups and {fmt(median(loop['cpu_ms_per_min']), 1)} ms.")


def report_ringing(R, window, thr, sysc):
    rows_by = window["rows"]
    R.add("## 3. Cost of ringing", "")
    R.para(note("3-paced", copies=window["copies"], seconds=window["seconds"]))
    rows, worst_core, wake_paced = [], 0.0, {}
    for key, label in [("WAV", "5 s WAV"), ("FLAC", "10 min FLAC")]:
        wk = rows_by[("ring", f"wake, paced on null ({label})")]
        mp = rows_by[("ring", f"mpv --ao=null, paced by mpv ({label})")]
        wcpu = [c / 1000 for c in wk["cpu_ms_per_min"]]
        wake_paced[key] = (median(wcpu), median(wk["wakeups_per_min"]))
        worst_core = max(worst_core, max(wcpu) / 60 * 100)
        rows.append([key, "wake, paced", fmt(median(wcpu), 4), fmt(max(wcpu), 4), fmt(max(wcpu) / 60 * 100, 3),
                     fmt(median(wk["wakeups_per_min"]), 0), "—"])
        mcpu = [c / 1000 for c in mp["cpu_ms_per_min"]]
        rows.append([key, "mpv --ao=null, paced", fmt(median(mcpu), 4), fmt(max(mcpu), 4), fmt(max(mcpu) / 60 * 100, 3),
                     fmt(median(mp["wakeups_per_min"]), 0), ratio(median(wcpu), median(mcpu))])
        for (file_label, name), t in thr.items():
            if file_label == key and name != "wake" and t["throughput"]:
                per_min = [60 / x for x in t["throughput"]]
                rows.append([key, f"{name} (unpaced: decode-and-write only)", fmt(median(per_min), 4), fmt(max(per_min), 4),
                             fmt(max(per_min) / 60 * 100, 3), "", ratio(median(wcpu), median(per_min))])
    R.table(["file", "contestant", "CPU s/min (median)", "(worst)", "% of a core (worst)", "wake-ups/min", "wake ÷ this"], rows)
    t3 = R.target("3", "ringing under 1 % of one core", f"{fmt(worst_core, 3)} % at worst", worst_core < 1)
    cpu_w, wu_w = wake_paced["WAV"]
    R.para(f"Target: under 1 % of one core: {t3}.",
           f"Paced ringing costs wake about {fmt(cpu_w / wu_w * 1e6, 0)} µs per wake-up, "
           f"{fmt(wu_w, 0)} wake-ups a minute"
           + (": the output worker wakes for each 20 ms write (3,000 a minute), the loop once per stall limit "
              "(3 s) for its watchdog." if abs(wu_w - 3020) < 150 else ".")
           + (" Decoding is a small part of it" if wake_paced["FLAC"][0] < 1.5 * cpu_w else
              " Decoding is most of the difference between the files, FLAC of noise being the hardest to decode")
           + f" (the 10-minute FLAC costs {fmt(wake_paced['FLAC'][0], 4)} s a minute against {fmt(cpu_w, 4)} s for the "
           "WAV). Against the "
           "unpaced rows the ratio compares wake's whole paced cost with the others' bare decode-and-write, "
           "so it overstates wake's cost; against mpv pacing itself it is like for like. (Runs before issue 18 "
           "read the main thread alone, which only runs the watchdog while the worker writes: they reported 60 "
           "wake-ups and about 5 ms a minute.)")

    R.para(note("3-unpaced"))
    rows = []
    med = {k: median(v["throughput"]) for k, v in thr.items()}
    for (label, name), t in thr.items():
        rows.append([label, name, fmt(med[(label, name)], 0), fmt(min(t["throughput"], default=float("nan")), 0),
                     fmt(t["long_audio_s"], 0), fmt(t["long_cpu_s"], 3),
                     "—" if name == "wake" else ratio(med[(label, "wake")], med[(label, name)])])
    R.table(["file", "contestant", "audio s per CPU s (median)", "(worst)", "audio s, long run", "CPU s, long run", "wake ÷ this"], rows)
    aplay, sox = ("WAV", "aplay -D null"), ("FLAC", "sox FILE -t alsa null")
    wav_ok, flac_ok = med[("WAV", "wake")] >= med[aplay], med[("FLAC", "wake")] >= med[sox]
    t3b = R.target("3", "decode-and-write throughput at least aplay's on WAV", f"{ratio(med[('WAV', 'wake')], med[aplay])} aplay's", wav_ok)
    t3c = R.target("3", "decode-and-write throughput at least sox's on FLAC", f"{ratio(med[('FLAC', 'wake')], med[sox])} sox's", flac_ok)
    R.para(f"Targets: at least aplay's on WAV: {t3b}; at least sox's on FLAC: {t3c}.")
    if sysc.get("wake", {}).get("per_audio_s") and sysc.get("aplay", {}).get("per_audio_s"):
        w, a = sysc["wake"]["per_audio_s"], sysc["aplay"]["per_audio_s"]
        tot_w, tot_a = sum(max(0, v) for v in w.values()), sum(max(0, v) for v in a.values())
        bytes_per_audio_s = RATE * 4  # the WAV: stereo, 16-bit
        kib = lambda reads: bytes_per_audio_s / reads / 1024 if reads else float("nan")
        counts = (f"`strace -c` counts {fmt(tot_w, 1)} system calls per second of audio for wake against "
                  f"{fmt(tot_a, 1)} for aplay (start-up taken out, as above): `read` {fmt(w.get('read', 0), 1)} (one per "
                  f"{fmt(kib(w.get('read', 0)), 0)} KiB of the file) against {fmt(a.get('read', 0), 1)} (one per "
                  f"{fmt(kib(a.get('read', 0)), 0)} KiB), `poll` {fmt(w.get('poll', 0), 1)} against "
                  f"{fmt(a.get('poll', 0), 1)}.")
        r = med[("WAV", "wake")] / med[aplay]
        tie = (" The WAV result is a tie rather than a win or a loss: the two medians are within the spread "
               "between runs (see the worst column), both being bound by copying the file out of the page cache."
               if 0.9 <= r <= 1.1 else "")
        if wav_ok:
            R.para("On WAV,", counts, "On `null` writing costs nothing, so this path is reading the file." + tie)
        else:
            R.para("Finding:", counts,
                   note("3-unpaced-finding") + tie)
    R.headline.append(
        f"Ringing: {fmt(worst_core, 3)} % of a core, paced ({ratio(wake_paced['WAV'][0], median([c / 1000 for c in rows_by[('ring', 'mpv --ao=null, paced by mpv (5 s WAV)')]['cpu_ms_per_min']]))} "
        f"of mpv's CPU pacing itself); unpaced throughput {ratio(med[('WAV', 'wake')], med[aplay])} aplay's on WAV "
        f"and {ratio(med[('FLAC', 'wake')], med[sox])} sox's on FLAC.")
    return med


def report_memory(R, ctx, window, mem):
    rows_by = window["rows"]
    waits = [k[1] for k in rows_by if k[0] == "wait"]
    wk_wait = rows_by[("wait", "wake (an hour away)")]
    R.add("## 4. Memory", "")
    R.para(note("4-memory"))
    rows, wake_peaks = [], []

    def row(case, name, kbs, wake_kbs):
        rows.append([case, name, fmt(mib(median(kbs)), 1), fmt(mib(max(kbs)), 1),
                     "—" if wake_kbs is None else ratio(median(wake_kbs), median(kbs))])

    for label in waits:
        kbs = rows_by[("wait", label)]["maxrss_kb"]
        if label.startswith("wake"):
            wake_peaks.append(max(kbs))
        row("waiting", label, kbs, None if label.startswith("wake") else wk_wait["maxrss_kb"])
    ring = {}
    for key, label, peers in [("WAV", "5 s WAV", ["aplay", "sox", "mpv"]), ("FLAC", "10 min FLAC", ["sox", "mpv"])]:
        wk = rows_by[("ring", f"wake, paced on null ({label})")]["maxrss_kb"]
        ring[key] = wk
        wake_peaks.append(max(wk))
        row(f"ringing the {label}", "wake", wk, None)
        for p in peers:
            row(f"ringing the {label}", p, mem[(key, p)], wk)
    row("`--version` (start-up alone)", "wake --version", mem[("version", "wake --version")], None)
    row("`--version` (start-up alone)", "aplay --version", mem[("version", "aplay --version")], mem[("version", "wake --version")])
    now, prerolled = ("built-in", "wake now"), ("built-in", "wake +3s (after its pre-roll)")
    if now in mem and prerolled in mem:
        row("the built-in sound for 2 s on `null`", "wake now", mem[now], None)
        row("the built-in sound for 2 s on `null`", "wake +3s (after its pre-roll)", mem[prerolled], None)
    R.table(["case", "contestant", "peak MiB (median)", "(worst)", "wake ÷ this"], rows)
    top = max(wake_peaks)
    t4 = R.target("4", "peak memory under 16 MiB whatever the file's length", f"{fmt(mib(top), 1)} MiB at worst", mib(top) < 16)
    R.para(f"Target: under 16 MiB whatever the file: {t4}.")
    base = median(mem[("version", "wake --version")])
    grow = median(ring["FLAC"]) - median(ring["WAV"])
    sm = ctx.get("smaps_of_waiting_wake")
    where = ""
    if sm:
        total = sum(kb for _, kb in sm)
        where = (f"Where a waiting wake's {fmt(total / 1024, 1)} MiB are (`/proc/PID/smaps`, resident by mapping): "
                 + ", ".join(f"{name} {fmt(kb / 1024, 1)}" for name, kb in sm[:9]) + " MiB.")
    if ctx["static_runtime"]:
        runtime = note("4-static-runtime")
    else:
        runtime = note("4-shared-runtime")
    R.para("Finding:" if mib(top) >= 16 else "Reading it:",
           f"wake's memory is almost all fixed cost: `wake --version`, which does nothing, already peaks at "
           f"{fmt(mib(base), 1)} MiB; ringing the 10-minute FLAC takes {fmt(grow / 1024, 2)} MiB more than the "
           "5-second WAV (the file is streamed in fixed chunks, so its length does not count).", where, runtime,
           note("4-preroll", prerolled=fmt(mib(median(mem[prerolled])), 1), now=fmt(mib(median(mem[now])), 1))
           if now in mem and prerolled in mem else "")
    R.headline.append(
        f"Memory: {fmt(mib(top), 1)} MiB at most, whatever the file; aplay {fmt(mib(median(mem[('WAV', 'aplay')])), 1)}, "
        f"sox {fmt(mib(median(mem[('FLAC', 'sox')])), 1)}, mpv {fmt(mib(median(mem[('FLAC', 'mpv')])), 1)} MiB "
        f"({ratio(median(ring['FLAC']), median(mem[('FLAC', 'mpv')]))} of mpv's on the 10-minute FLAC).")


def report_startup(R, startup, static):
    R.add("## 5. Start-up", "")
    R.para(note("5-startup"))
    pairs = [("wake --version", "aplay --version"),
             ("wake list", "aplay --version"),
             ("wake list, 20 standing alarms", "aplay --version"),
             ("wake next, 20 standing alarms", "aplay --version"),
             ("wake next, 20 standing alarms", "wake list, 20 standing alarms"),
             ("wake doctor, 20 standing alarms", "wake list, 20 standing alarms"),
             ("wake stop, nothing running", "aplay --version"),
             ("wake --version, all symbols bound at start (LD_BIND_NOW=1, as `-z now`)", "wake --version"),
             ("wake list, all symbols bound at start (LD_BIND_NOW=1)", "wake list"),
             ("wake 07:00 --dry-run (default sound)", "aplay --version"),
             ("wake 07:00 --dry-run (default sound)", "aplay -D null, 5 s WAV"),
             ("wake 07:00 --dry-run -s 10-min FLAC", "flac -t, 10-min FLAC (decode, check)")]
    rows, order = [], []
    for a, b in pairs:
        order += [n for n in (a, b) if n not in order]
    for n in order:
        against = "; ".join(f"{ratio(median(startup[n]), median(startup[b]))} `{b}`" for a, b in pairs if a == n)
        rows.append([f"`{n}`", fmt(median(startup[n]), 2), fmt(max(startup[n]), 2), len(startup[n]), against or "—"])
    R.table(["command", "median ms", "worst ms", "runs", "wake ÷ that"], rows)
    apl = median(startup["aplay --version"])
    v = median(startup["wake --version"]) / apl
    lst = median(startup["wake list"]) / apl
    dry = median(startup["wake 07:00 --dry-run (default sound)"])
    t5 = R.target("5", "`wake --version` within 3× of `aplay --version`", f"{v:.1f}×", v <= 3)
    t5l = R.target("5", "`wake list` within 3× of `aplay --version`", f"{lst:.1f}×", lst <= 3)
    t5d = R.target("5", "a dry run within 3× of `aplay --version`", f"{dry / apl:.1f}×", dry / apl <= 3)
    t5b = R.target("5", "dry run of the default sound within 50 ms", f"{fmt(dry, 1)} ms", dry <= 50)
    if "wake doctor, 20 standing alarms" in startup:
        doc = median(startup["wake doctor, 20 standing alarms"])
        R.target("5", "`wake doctor` with 20 alarms under 1 s (issue 39)", f"{fmt(doc, 1)} ms", doc < 1000)
        R.para(note("5-doctor"))
    for name in ["wake --version", "wake list", "wake list, 20 standing alarms", "wake stop, nothing running"]:
        if name in startup:
            x = median(startup[name]) / apl
            R.goal("5", f"`{name}` at most 2× `aplay --version`", f"{x:.1f}× ({fmt(median(startup[name]), 1)} ms)", x <= 2)
    R.goal("5", "a dry run of the default sound at most 4× `aplay --version`", f"{dry / apl:.1f}× ({fmt(dry, 1)} ms)",
           dry / apl <= 4)
    bind = median(startup["wake --version, all symbols bound at start (LD_BIND_NOW=1, as `-z now`)"]) - median(startup["wake --version"])
    R.para(f"Targets: `--version` within 3× of aplay's: {t5}; `wake list` within 3×: {t5l}; a dry run within 3×: {t5d} "
           f"(it checks the sound and opens the device: aplay playing a file is the "
           f"nearer peer); a dry run of the default sound within 50 ms: {t5b}.",
           f"Binding every symbol at start, as a `-z now` link (Debian's hardening) would, costs "
           f"{fmt(bind, 2)} ms on `--version` in this run (`LD_BIND_NOW=1`, which makes the dynamic linker do "
           "exactly that).")
    ld = startup.get("loading")
    if ld:
        w, a = ld["wake"], ld["aplay"]
        cpu = startup.get("cpu", {})
        wc, ac = cpu.get("wake --version"), cpu.get("aplay --version")
        R.para("Finding:" if v > 3 else "Why wake starts slower:",
               f"wake loads {w['objects']} shared objects to print its version and takes {w['faults']} page "
               f"faults; aplay loads {a['objects']} and takes {a['faults']} (`ldd`, `/usr/bin/time -f %R`)."
               + (f" wake's start is {fmt(wc[0], 2)} ms of user and {fmt(wc[1], 2)} ms of system CPU, aplay's "
                  f"{fmt(ac[0], 2)} and {fmt(ac[1], 2)} (hyperfine's means)." if wc and ac else ""),
               f"The dynamic linker applies {w['relocations']:,} relocations for wake and {a['relocations']:,} "
               "for aplay (`LD_DEBUG=statistics`).",
               f"wake's libraries: {', '.join(w['names'])}: libsndfile brings every codec it can read and "
               "libsystemd its compression and crypto libraries, and each is mapped, relocated and faulted in "
               "before `main`.",
               note("5-profile-static") if static else note("5-profile-shared"))
    R.para(note("5-history"))
    sc = startup.get("sf_command", {})
    flac = median(startup["wake 07:00 --dry-run -s 10-min FLAC"])
    flac_t = median(startup["flac -t, 10-min FLAC (decode, check)"])
    if sc and sc.get("10-min FLAC", 0) > 5:
        R.para("Finding (no target, but it doubles the cost of arming with a long file):",
               note("5-sf-command", flac=fmt(flac, 0), sf_command=fmt(sc["10-min FLAC"], 0)))
    else:
        R.para(note("5-flac", flac=fmt(flac, 0), flac_t=fmt(flac_t, 0)))
    R.headline.append(
        f"Start-up: `wake --version` {fmt(median(startup['wake --version']), 1)} ms ({v:.1f}× `aplay --version`), "
        f"`wake list` {fmt(median(startup['wake list']), 1)} ms ({lst:.1f}×); a dry run with the default sound "
        f"{fmt(dry, 1)} ms.")


def report_stop(R, stop):
    R.add("## 6. Stop latency", "")
    R.para(note("6-stop"))
    wk = stop["wake (paced on null)"]
    rows = [[n, fmt(median(v), 2), fmt(max(v), 2), len(v), "—" if n.startswith("wake") else ratio(median(wk), median(v))]
            for n, v in stop.items()]
    R.table(["contestant", "median ms", "worst ms", "runs", "wake ÷ this"], rows)
    t6 = R.target("6", "stop within 30 ms of SIGTERM", f"{fmt(max(wk), 2)} ms at worst", max(wk) <= 30)
    R.para(f"Target: within 30 ms (worst run): {t6}.",
           note("6-card"))
    R.headline.append(f"Stop: {fmt(median(wk), 1)} ms from SIGTERM to exit (worst {fmt(max(wk), 1)} ms).")


def report_desktop(R, desktop, window, plot=None):
    server = desktop["server"]
    players = desktop["players"]
    kind = RING_KIND[server]
    pw = server == "PipeWire"
    R.add(f"## 7{'b' if pw else ''}. The desktop path: through {server}", "")
    if pw:
        R.para(note("7b-pipewire", version=desktop.get("version", "PipeWire")))
    else:
        R.para(note("7-pulseaudio"))
    f = desktop["firing"]
    names = ["wake"] + [n for n in players if n in f]
    wk = f.get("wake", [])
    R.para(note("7-firing", rounds=desktop["count"], s="s" if desktop["count"] != 1 else ""))
    # A difference, not a ratio: at the sink a delay can be a little below zero (the resolution).
    R.table(["contestant", "median ms", "worst ms", "alarms", "wake − this (median), ms"],
            [[n, fmt(median(f[n]), 1), fmt(max(f[n]), 1), len(f[n]), "—" if n == "wake" else
              (lambda d: f"{d:+.1f}" if abs(d) < 100 else f"{d:+,.0f}")(median(wk) - median(f[n]))]
             for n in names if f.get(n)])
    rows_by = window["rows"]
    ring = [(label, r) for (k, label), r in rows_by.items() if k == kind]
    R.para(note("7-ringing", copies=window["copies"], seconds=window["seconds"]))
    # Should every copy of wake have ended during the window (a failure, listed under figure 2), an
    # empty row keeps the report going and the targets say so.
    wake_ring = rows_by.get((kind, "wake -D default")) or {"cpu_ms_per_min": [float("nan")],
                                                               "wakeups_per_min": [float("nan")], "maxrss_kb": [float("nan")],
                                                               "window_hwm_kb": [float("nan")]}
    rows = []
    for label, r in ring:
        cpu = r["cpu_ms_per_min"]
        rows.append([label, fmt(median(cpu), 1), fmt(max(cpu), 1), fmt(max(cpu) / 600, 3),
                     fmt(median(r["wakeups_per_min"]), 0), fmt(max(r["wakeups_per_min"]), 0),
                     fmt(mib(median(r["window_hwm_kb"])), 1), fmt(mib(max(r["window_hwm_kb"])), 1),
                     fmt(mib(max(r["maxrss_kb"])), 1),
                     "—" if label.startswith("wake") else
                     f"{ratio(median(wake_ring['cpu_ms_per_min']), median(cpu))} / "
                     f"{ratio(median(wake_ring['wakeups_per_min']), median(r['wakeups_per_min']))} / "
                     f"{ratio(median(wake_ring['window_hwm_kb']), median(r['window_hwm_kb']))}"])
    R.table(["contestant", "CPU ms/min (median)", "(worst)", "% of a core (worst)", "wake-ups/min (median)", "(worst)",
             "peak MiB ringing (median)", "(worst)", "peak MiB, whole run (worst)",
             "wake ÷ this (CPU / wake-ups / memory ringing)"], rows)
    watched = window.get("watched", {})
    daemons = ["pipewire", "wireplumber", "pipewire-pulse"] if pw else ["pulseaudio"]
    if all(n in watched for n in daemons):
        R.para(f"The {server} server itself ({', '.join(f'`{n}`' for n in daemons)}), mixing all "
               f"{len(ring) * window['copies']} streams: "
               + "; ".join(f"`{n}` {fmt(watched[n]['cpu_ms_per_min'], 0)} ms of CPU and "
                           f"{fmt(watched[n]['wakeups_per_min'], 0)} wake-ups" for n in daemons) + " a minute.")
    worst_core = max(wake_ring["cpu_ms_per_min"]) / 600
    worst_mem = mib(max(wake_ring["maxrss_kb"]))  # the whole run's
    worst_ring_mem = mib(max(wake_ring["window_hwm_kb"]))
    fig = "7b" if pw else "7"
    t7a = R.target(fig, f"ringing through {server} under 1 % of one core", f"{fmt(worst_core, 3)} % at worst", worst_core < 1)
    t7b = R.target(fig, f"peak memory under 16 MiB ringing through {server}", f"{fmt(worst_mem, 1)} MiB at worst", worst_mem < 16)
    st = desktop["stop"]
    R.para(f"Targets (those of figures 3 and 4, on this path): under 1 % of one core: {t7a}; peak memory under 16 MiB: {t7b}.")
    ap = rows_by.get((kind, "aplay -D default"))
    R.goal(fig, f"peak memory ringing through {server} at most 12 MiB",
           f"{fmt(worst_ring_mem, 1)} MiB at worst while ringing ({fmt(worst_mem, 1)} over the whole run, "
           "its start and checks included)", None if worst_ring_mem != worst_ring_mem else worst_ring_mem <= 12)
    if ap:
        for key, what in [("cpu_ms_per_min", "CPU"), ("wakeups_per_min", "wake-ups")]:
            w, a = median(wake_ring[key]), median(ap[key])
            R.goal(fig, f"ringing through {server}: {what} per minute no more than `aplay -D default`'s",
                   f"{fmt(w, 0)} against {fmt(a, 0)} ({ratio(w, a)})", w <= a)
    if ap and median(wake_ring["cpu_ms_per_min"]) > median(ap["cpu_ms_per_min"]):
        R.para("Finding:",
               note("7-cpu-finding", cpu=ratio(median(wake_ring["cpu_ms_per_min"]), median(ap["cpu_ms_per_min"])),
                    wakeups=ratio(median(wake_ring["wakeups_per_min"]), median(ap["wakeups_per_min"]))))
    sm = window.get("ringing_smaps", {}).get(kind)
    if sm and sm["by_mapping"]:
        status = sm["status"]
        kb = lambda k: int(status.get(k, "0 kB").split()[0])
        R.para("Finding:", note("7-memory-finding", ringing=fmt(worst_ring_mem, 1), whole_run=fmt(worst_mem, 1),
                                file=fmt(kb("RssFile") / 1024, 1), anon=fmt(kb("RssAnon") / 1024, 1),
                                threads=status.get("Threads", "?"),
                                mappings=", ".join(f"{name} {fmt(k / 1024, 1)}" for name, k in sm["by_mapping"][:10])))
    R.para(note("7-stop"))
    order = sorted(st, key=lambda k: (not k.startswith("wake"), k))
    R.table(["contestant, how", "median ms", "worst ms", "runs"], [[k, fmt(median(st[k]), 1), fmt(max(st[k]), 1), len(st[k])] for k in order])
    term = st.get("wake, by SIGTERM", [])
    ctl = st.get("wake, by `wake stop PID` (command start to silence)", [])
    if term:
        t7c = R.target(fig, f"silence at the sink ({server}) within 30 ms of SIGTERM", f"{fmt(max(term), 1)} ms at worst", max(term) <= 30)
        R.para(f"Target (figure 6's, at the sink): silence within 30 ms of SIGTERM: {t7c}.",
               "wake drops what is queued (on a server's plugin the drop corks and flushes the server's stream; "
               "on a card it would take back what is queued and fade out over 10 ms); "
               + ("" if pw else "sox plays out what it has buffered; ")
               + "the others are torn down by the signal and the server drops their stream.")
    for runs, how in [(term, "SIGTERM"), (ctl, "`wake stop`")]:
        p99 = percentile(runs, 99)
        R.goal(fig, f"silence at the sink ({server}) within 20 ms of {how} at p99",
               f"{fmt(p99, 1)} ms ({len(runs)} stops)" if runs else "no stop measured",
               (p99 <= 20) if runs else None)
    if plot:
        R.add(f"![{server}: first and last sound at the sink, every alarm]({plot})", "")
    R.failures(desktop["failures"])
    R.headline.append(
        f"Desktop path ({server}): first sound at the sink {fmt(median(wk), 1)} ms after the deadline (worst "
        f"{fmt(max(wk), 1)}), paplay {fmt(median(f.get('paplay', [])), 1)}, aplay {fmt(median(f.get('aplay -D default', [])), 1)} ms; "
        f"ringing {fmt(median(wake_ring['cpu_ms_per_min']), 1)} ms of CPU and {fmt(median(wake_ring['wakeups_per_min']), 0)} "
        f"wake-ups a minute, {fmt(worst_ring_mem, 1)} MiB ({fmt(worst_mem, 1)} over the whole run); silence {fmt(median(term), 1)} ms after SIGTERM"
        + (f", {fmt(median(ctl), 1)} ms after `wake stop` starts." if ctl else "."))


def report_daemon(R, window, add):
    rows_by = window["rows"]
    R.add("## 8. The daemon: 1, 20 and 200 standing alarms", "")
    R.para(note("8-daemon", copies=window["copies"]))
    rows, worst_w, mem200 = [], 0.0, None
    sl = rows_by.get(("wait", "sleep 3600"))
    for n in DAEMON_SIZES:
        r = rows_by.get(("daemon", f"wake daemon, {n} standing alarm{'s' if n > 1 else ''}"))
        if not r:
            continue
        worst_w = max(worst_w, max(r["wakeups_per_min"]))
        if n == DAEMON_SIZES[-1]:
            mem200 = mib(max(r["maxrss_kb"]))
        rows.append([n, fmt(median(r["wakeups_per_min"]), 1), fmt(max(r["wakeups_per_min"]), 1),
                     fmt(median(r["cpu_ms_per_min"]), 3), fmt(max(r["cpu_ms_per_min"]), 3),
                     fmt(mib(median(r["maxrss_kb"])), 1), fmt(mib(max(r["maxrss_kb"])), 1)])
    if sl:
        rows.append(["`sleep 3600`, for scale", fmt(median(sl["wakeups_per_min"]), 1), fmt(max(sl["wakeups_per_min"]), 1),
                     fmt(median(sl["cpu_ms_per_min"]), 3), fmt(max(sl["cpu_ms_per_min"]), 3),
                     fmt(mib(median(sl["maxrss_kb"])), 1), fmt(mib(max(sl["maxrss_kb"])), 1)])
    R.table(["standing alarms", "wake-ups/min (median)", "(worst)", "CPU ms/min (median)", "(worst)", "peak MiB (median)", "(worst)"], rows)
    t8a = R.target("8", "the daemon waiting: zero wake-ups per minute (as `sleep`)", f"{fmt(worst_w, 1)} per minute at worst", worst_w == 0)
    t8b = R.target("8", "the daemon's peak memory under 16 MiB with 200 alarms",
                   f"{fmt(mem200, 1)} MiB at worst" if mem200 is not None else "not measured", mem200 is not None and mem200 < 16)
    R.goal("8", "the daemon with 200 standing alarms at most 12 MiB",
           f"{fmt(mem200, 1)} MiB at worst" if mem200 is not None else "not measured",
           None if mem200 is None else mem200 <= 12)
    R.para(f"Targets: zero wake-ups a minute while waiting: {t8a}; under 16 MiB with 200 alarms: {t8b}.")
    R.para(note("8-memory"))
    if mem200 is not None and mem200 > 12:
        R.para(note("8-memory-finding"))
    if add:
        R.para(note("8-add"))
        rows = []
        for n, v in add.items():
            if n == "failures" or not v["armed_ms"]:
                continue
            rows.append([n, fmt(median(v["armed_ms"]), 1), fmt(max(v["armed_ms"]), 1),
                         fmt(median(v["exit_ms"]), 1), fmt(max(v["exit_ms"]), 1), len(v["armed_ms"])])
        R.table(["standing alarms", "add → armed, median ms", "(worst)", "`wake add` start → exit, median ms", "(worst)", "adds"], rows)
        R.failures(add.get("failures", []))
        small, large = (add.get(n, {}).get("armed_ms") for n in (DAEMON_SIZES[0], DAEMON_SIZES[-1]))
        if small and large and median(large) > 3 * median(small):
            R.para("Finding (no target was set, but it grows with the alarms):",
                   note("8-add-finding", large=DAEMON_SIZES[-1], large_ms=fmt(median(large), 0),
                        small=DAEMON_SIZES[0], small_ms=fmt(median(small), 0)))
    fds = window.get("descriptors")
    if fds:
        R.para(note("8-descriptors"))
        rows = []
        for n in DESCRIPTOR_SIZES:
            v = fds.get(n)
            if v:
                rows.append([f"{n:,}", v["fds"], ", ".join(f"{k} {c}" for k, c in sorted(v["kinds"].items())), fmt(v["armed_s"], 2)])
        R.table(["standing alarms", "open descriptors", "of which", "start → all armed, s"], rows)
        R.failures(fds.get("failures", []))
        counts = [fds[n]["fds"] for n in DESCRIPTOR_SIZES if n in fds]
        R.goal("8", "the daemon's descriptors do not grow with its alarms (1, 200, 2,000)",
               " / ".join(str(c) for c in counts) if counts else "not measured",
               None if len(counts) < len(DESCRIPTOR_SIZES) else max(counts) - min(counts) <= 1)
    big = rows_by.get(("daemon", f"wake daemon, {DAEMON_SIZES[-1]} standing alarms"))
    armed = add.get(DAEMON_SIZES[-1], {}).get("armed_ms") if add else None
    R.headline.append(
        f"Daemon: {fmt(median(big['wakeups_per_min']), 1) if big else '—'} wake-ups a minute waiting with {DAEMON_SIZES[-1]} "
        f"alarms, {fmt(mem200, 1)} MiB; `wake add` to armed {fmt(median(armed), 1) if armed else '—'} ms.")


def report_control(R, control):
    R.add("## 9. Control round trips", "")
    R.para(note("9-control"))
    base = control.get("pkill -USR1 -s SID wake", [])
    rows = []
    for k in ["wake snooze PID", "wake stop PID", "wake list", "pkill -USR1 -s SID wake"]:
        v = control.get(k, [])
        if v:
            rows.append([f"`{k}`", fmt(median(v), 2), fmt(max(v), 2), len(v),
                         "—" if k.startswith("pkill") else ratio(median(v), median(base))])
    R.table(["command", "median ms", "worst ms", "runs", "÷ pkill (median)"], rows)
    faster = [k for k in ("wake snooze PID", "wake stop PID") if control.get(k) and base and median(control[k]) < median(base)]
    R.para(note("9-reading", processes=control.get("processes", "?")),
           ("Here wake's round trips are the shorter: pkill's walk over /proc costs more than wake's start and its "
            "socket." if faster else "Here pkill is the shorter."),
           "No target was set for these.")
    R.failures(control.get("failures", []))
    sn, st = control.get("wake snooze PID", []), control.get("wake stop PID", [])
    R.headline.append(f"Control: `wake snooze` {fmt(median(sn), 1)} ms and `wake stop` {fmt(median(st), 1)} ms from the "
                      f"command's start to the alarm's event, against {fmt(median(base), 1)} ms for `pkill -USR1`.")
