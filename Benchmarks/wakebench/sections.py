"""BENCHMARKS.md's sections, one per figure: a table, the target's verdict, how it was measured,
and what was found. The findings are worded here but their numbers are this run's."""



from .common import RATE, fmt, median, mib, p3, percentile, ratio
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
        R.para(f"**Cold**: {len(c)} more alarms of wake alone, one every 2 s, each with the page cache dropped "
               "(`sync; echo 3 > /proc/sys/vm/drop_caches`, as root) 1 s before its deadline, so that whatever wake "
               "touches on its way to the first frame that is not already in its memory (pages of its binary not yet "
               "faulted in, libasound's plugins and configuration, the sound file's pages) comes from the disk again: "
               f"p50 {fmt(percentile(c, 50), 3)} ms, p99 {fmt(percentile(c, 99), 3)} ms, max {fmt(max(c), 3)} ms from "
               "the deadline to the first frame (the same probe). The drop comes at the moment of wake's pre-roll "
               "(the device opened, the first audio decoded and the ring's code read into the page cache 1 s before the "
               "deadline, `Defaults.preroll`), "
               "just before or just after it: before, the pre-roll reads back what the ring needs; after, what the "
               "pre-roll and the arm-time checks ran is still mapped, and a mapped page is not dropped.")
        R.failures(cold["failures"])
    if plot:
        R.add(f"![Firing delay of every alarm, by contestant]({plot})", "")
    R.para("How: each alarm is started 3.1–3.9 s before a whole-second deadline D (a random moment, as a "
           "person would). wake gets `HH:MM:SS` (`wake HH:MM:SS -D null -s alarm-5s.wav --ring-for 1s "
           "--inhibit off`). The recipes are `sleep $(( D - $(date +%s) )); exec aplay -D null alarm-5s.wav` "
           "(what one writes: whole seconds) and `sleep` given the exact remaining time, to the microsecond, from "
           "bash's `$EPOCHREALTIME` (the best a shell can do: nothing but `sleep`'s own start runs between "
           "reading the clock and sleeping). The moment of the first frame is stamped for all of them the same way "
           "by [alsa_probe.c](Benchmarks/alsa_probe.c), an LD_PRELOAD shim around `snd_pcm_write*` "
           "(CLOCK_REALTIME, ns). wake's own `late_ms` is measured inside wake, after `snd_pcm_writei` "
           "returns; the probe measures every contestant the same way, so the table ranks them by the probe.")
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
    R.para(f"{window['copies']} copies of each contestant waited side by side through the same {window['seconds']} s, "
           "stdout a file (not a terminal), stdin `/dev/null`. Wake-ups are context switches (voluntary + "
           "involuntary, `/proc/PID/task/*/status`), CPU is the scheduler's count (`/proc/PID/task/*/schedstat`), "
           "both summed over every thread of the process (this benchmark read the main thread's alone until issue "
           "18: wake's sound is written by a worker thread), "
           "sampled 3 s after start and again at the end of the window.")
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
    R.para("**Paced**: CPU seconds per minute of ringing, in the window of figure 2 "
           f"({window['copies']} copies each, sampled over the same {window['seconds']} s after 3 s of "
           "settling, so start-up is left out). wake paces its writes to `null` in real time, as a sound "
           "card would pace them. `aplay`, `sox` and `mpv --ao=alsa` cannot be paced on `null` (it has no "
           "clock: they play a 10-minute file in well under a second), so their rows are the CPU they spend "
           "per minute of audio unpaced (60 ÷ their throughput, below): decode-and-write alone, a lower bound "
           "of their cost on a real card, which would add its own wake-ups. `mpv --ao=null` is mpv pacing "
           "itself, the nearest paced peer.")
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

    R.para("**Unpaced throughput** of the decode-and-write path: audio seconds written per CPU second (wake's "
           "hidden `--unpaced`; the others on `null` as they are), on the 10-minute FLAC and on a 10-minute WAV "
           "of the same beeps as the 5-second one (one long file, so that no player is charged a file's set-up "
           "every 5 seconds). Start-up is taken out: each contestant makes a short and a long run (the file "
           "once and several times, or for wake a longer `--ring-for`, looping the file); the throughput is "
           "the extra audio over the extra CPU time. Audio is counted by the probe (frames "
           "ALSA accepted, padding included), CPU by wait4(). Repeats give the median and the worst.")
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
                   "On `null` writing costs nothing, so the path is reading the file, and it comes down to how "
                   "many system calls each second of audio takes: wake's reads are smaller than aplay's (one "
                   "per `Ringer.chunkFrames` chunk, through libsndfile) and it goes back to `poll()` every few "
                   "chunks to keep its event loop responsive, where aplay blocks in `snd_pcm_writei`. A "
                   "profile taken when this benchmark was first written, with 4096-frame chunks (`perf record "
                   "-g` of a 2-second unpaced ring), agreed: about 70 % of wake's time was in the kernel, mostly "
                   "the `read` path, then `poll`. Bigger chunks close the gap. It matters little at 07:00: a "
                   "minute of paced ringing costs the wake-ups above, not the decoding." + tie)
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
    R.para("Peak resident memory, MiB: the kernel's high-water mark, VmHWM, which is what "
           "`/usr/bin/time -f %M` reports. wake's figures come from the processes of figures 2 and 3 (read "
           "just before they were stopped: an hour's wait; ringing for a minute, after decoding the whole file "
           "when the alarm was set); the peers play each file once on `null` under `/usr/bin/time`.")
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
        runtime = ("This binary links the Swift runtime statically (the Makefile's `RELEASE_FLAGS`), so only the "
                   "parts of it wake uses are loaded; what is left is wake with that runtime, libc, and the C "
                   "libraries with their own dependencies (libsndfile's codecs, libsystemd's compression and "
                   "crypto libraries).")
    else:
        runtime = ("Most of it is the Swift runtime's shared libraries, mapped and touched at start-up: "
                   "libswiftCore, libFoundationEssentials (linked only because swift-argument-parser imports it, "
                   "in `Sources/ArgumentParser/Utilities/Foundation.swift`), libstdc++, _StringProcessing and "
                   "RegexParser. An experiment when this benchmark was first written (Swift 6.3.1, same machine): "
                   "the same build with `-Xswiftc -static-stdlib` peaked at 11.8 MiB for `--version` and 13.1 MiB "
                   "ringing the 10-minute FLAC (against 15.1 and 16.2 MiB with the shared runtime).")
    R.para("Finding:" if mib(top) >= 16 else "Reading it:",
           f"wake's memory is almost all fixed cost: `wake --version`, which does nothing, already peaks at "
           f"{fmt(mib(base), 1)} MiB; ringing the 10-minute FLAC takes {fmt(grow / 1024, 2)} MiB more than the "
           "5-second WAV (the file is streamed in fixed chunks, so its length does not count).", where, runtime,
           (f"A real alarm rings after its pre-roll, which opens the device and reads the whole laid-out code "
            f"range into the page cache a second early (figure 1): {fmt(mib(median(mem[prerolled])), 1)} MiB "
            f"against {fmt(mib(median(mem[now])), 1)} for `wake now`, which has none. Until 2026-11-27 the "
            f"pre-roll mapped that range into wake (`MADV_POPULATE_READ`), 13.6 against 12.6 MiB in the run of "
            f"2026-11-26; it now only reads it ahead (`MADV_WILLNEED`), and what the pre-roll runs stays mapped "
            f"anyway (a ring on `null`: 14.2–14.6 → 12.7–13.1 MB, the first frame as early, also with the cache "
            f"dropped after the pre-roll). Tried and dropped (2026-11-26): the order file listing first what "
            f"rings ran once their pre-roll had begun, and the pre-roll mapping only that part. The part "
            f"came to 3.3 of the 4.4 MB (the standard library keeps 1.6 MB of its text in one section, which "
            f"moves whole), and in eight runs each a pre-rolled ring's peak went 14.5 → 14.4 MB while "
            f"`wake now`'s rose 13.3 → 13.5: less locality for what runs before the pre-roll.")
           if now in mem and prerolled in mem else "")
    R.headline.append(
        f"Memory: {fmt(mib(top), 1)} MiB at most, whatever the file; aplay {fmt(mib(median(mem[('WAV', 'aplay')])), 1)}, "
        f"sox {fmt(mib(median(mem[('FLAC', 'sox')])), 1)}, mpv {fmt(mib(median(mem[('FLAC', 'mpv')])), 1)} MiB "
        f"({ratio(median(ring['FLAC']), median(mem[('FLAC', 'mpv')]))} of mpv's on the 10-minute FLAC).")


def report_startup(R, startup, static):
    R.add("## 5. Start-up", "")
    R.para("Whole-process wall time, `hyperfine -N --warmup 3` (no shell, warm caches), ms. The dry run resolves "
           "the time, opens and decodes the whole sound file (the built-in sound: measures its samples, which "
           "need no decoding), and opens and closes the device (`-D null`). The "
           "peers beside the dry runs do the nearest thing: aplay opens `null` and plays the 5-second WAV; "
           "`flac -t` decodes and checks the whole 10-minute FLAC.")
    pairs = [("wake --version", "aplay --version"),
             ("wake list", "aplay --version"),
             ("wake list, 20 standing alarms", "aplay --version"),
             ("wake next, 20 standing alarms", "aplay --version"),
             ("wake next, 20 standing alarms", "wake list, 20 standing alarms"),
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
               ("A profile taken when this benchmark was written (`perf record -g` over 100 runs of "
                "`wake --version`, Swift runtime static, 4.4 ms a run) put 50 % of the time in the kernel (exec, "
                "`mmap`, page faults), 28 % in the dynamic linker (mostly symbol lookups), 17 % in the Swift "
                "runtime's start-up (6 points of it in `swift_conformsToProtocol`, scanning conformance records) "
                "and next to nothing in wake's own code. With the runtime shared it had been 6.6 ms: 48 % kernel, "
                "32 % dynamic linker, 13 % runtime." if static else
                "A profile taken when this benchmark was written (`perf record -g` over 100 runs of "
                "`wake --version`, Swift runtime shared, 6.6 ms a run) put 48 % of the time in the kernel (exec, "
                "`mmap`, page faults), 32 % in the dynamic linker and 13 % in the Swift runtime; linking the "
                "runtime statically (`-Xswiftc -static-stdlib`) took it to 4.4 ms."))
    R.para("What start-up was cut, and what each step bought (issue 18; measured while developing, on this "
           "machine shared with other builds: medians of three hyperfine rounds of 200 runs each, the old and new "
           "binaries side by side, so compare within a line rather than with the table above):",
           "(1) `wake --version` is answered before anything else, with one write(2). It had gone through "
           "swift-argument-parser, whose parse reflects over every option (Mirror, Decodable) and sets off the "
           "Swift runtime's first protocol-conformance lookup, which scans every conformance record in the "
           "static binary: `perf record` over 200 runs put a third of wake's user time in that scan alone. "
           "11.8 → 7.1 ms.",
           "(2) `wake list`, `wake stop|snooze [ID]` and `wake cancel ID` with plain words skip the parser too (it "
           "would return just those words; anything with a dash still goes through it, with its help and "
           "errors): `wake list` 10.8 → 8.7 ms, `wake stop` with nothing ringing 10.7 → 8.2 ms.",
           "(3) `-z pack-relative-relocs` (RELR; it needs lld or GNU ld 2.40, since gold, swiftc's default, does "
           "not know it) packs the static runtime's 51,650 relative relocations into a 4 KB table and takes 1 MB "
           "off the binary, but bought nothing: 7.1 ms either way. Applying relative relocations is cheap, and "
           "the pages they write are touched anyway. Not adopted. `-z now`, which the Debian package will be "
           "linked with, binds every symbol of the 22 objects before `main`: `LD_BIND_NOW=1` (the same work) "
           "took `--version` from 8.1 to 8.8 ms (five rounds, both through `env`; 0.6 ms more user time), "
           "about a tenth more; the rows above measure it again in this run.",
           "What is left is loading the C libraries, measured with a trivial static-stdlib Swift program linked "
           "against each set: alone 2.9 ms (aplay: 1.9 ms); with libasound 2.9; with libasound and libsndfile "
           "(libFLAC, libvorbis, libvorbisenc, libopus, libogg, libmpg123, libmp3lame) 4.4; with libasound and "
           "libsystemd (libcap, libgcrypt, libgpg-error, liblzma, libzstd, liblz4) 4.75; with all three, as "
           "wake, 6.0 ms; `wake --version` itself 7.3 ms (a 31 MB binary against 8 MB: more to map and fault "
           "in). (4) libsndfile and libsystemd are loaded with `dlopen` on first use (a sound opened, a bus "
           "talked to; issue 28), so the commands that do neither load none of the thirteen libraries they "
           "bring: `--version` 7.0 → 4.1 ms, `wake list` 7.4 → 5.8 ms, `wake stop` 8.2 → 5.6 ms, `aplay "
           "--version` 1.5 ms in the same run (one hyperfine round of 300 runs, 2026-11-26, the 2-core VM); a "
           "dry run, which opens the sound, is unchanged. (5) `wake list` lost a Set of an enum and a split and "
           "join of the zone's name, each a generic type the runtime instantiated at run time (the Set also a "
           "scan of every conformance record for its Hashable): user time 2.60 → 2.36 ms over 1,500 runs side "
           "by side. (6) libasound too is loaded with `dlopen` when a device, a mixer or ALSA's configuration "
           "is first opened, so `--version`, `list`, `next` and `stop` no longer map it: 20 page faults and 841 "
           "symbol relocations fewer; three hyperfine rounds of 300 side by side (2026-11-26, `aplay --version` "
           "1.2–1.4 ms): `--version` 3.1–3.5 → 3.2–3.6 ms (no change beyond the noise), `wake list` 4.1–6.4 → "
           "3.8–4.1 ms, `wake stop` 3.4–4.7 → 2.9–4.0 ms. "
           "(7) The link itself (2026-11-26, later the same day): a profile of `wake --version` (`perf record`, "
           "400 runs) put 31 % of it in the dynamic linker, binding the shared libstdc++'s symbols under `-z now`, "
           "which the Swift runtime's `-lstdc++` had brought. The release link now takes GCC's static libstdc++ "
           "and libgcc (a linker script, `packaging/link/libstdc++.so`, found first on the search path): symbol "
           "relocations 2,163 → 472, page faults 309 → 265, `--version` 4.7 → 2.8 ms (one hyperfine round of "
           "500, `aplay --version` 1.8 ms), `wake list` 1.7 MB less at its peak. With libstdc++ gone, step (3)'s "
           "packed relocations do pay, now linked by lld: 3.0, 2.9, 2.7 → 2.6, 2.5, 2.3 ms in three rounds of "
           "300 side by side, all of it system time; they need glibc 2.36, which the package's libc6 dependency "
           "now says. (8) `wake list` with 20 alarms: the tolerant reader split a healthy file into lines and "
           "joined them again before its first parse, `/proc/self/status` was split by Character (grapheme "
           "breaking over every byte; a tenth of the command), every cell went through the escaper, the table "
           "took a write(2) per row and the RTC look ran twice: 7.2 → 5.4 ms over three changes, each measured "
           "side by side. (9) The functions that everyday commands, a ring and the daemon run are laid out "
           "together at the start of the text (lld's `--symbol-ordering-file`, from callgrind runs: "
           "`scripts/make-symbol-order`): the kernel maps code in 64 KB windows around each page touched, and "
           "in archive order those functions were spread over the whole text. `wake list` (20 alarms) 5.4, 5.8 "
           "→ 5.0, 4.8 ms in two rounds of 300, peak 9.4 → 6.7 MB; `--version` peak 5.3 → 4.2 MB. What stays "
           "scattered is the standard library's 1.6 MB of text that its archive keeps in one section. Laid out "
           "together, the code a ring first runs at its deadline no longer shared windows with code run earlier, "
           "and with the page cache dropped the first frame came 2–10 ms late (figure 1, cold); the pre-roll now "
           "maps the listed range a second early (`Sources/WakeSystem/HotText.swift`; since 2026-11-27 it reads "
           "it into the page cache instead, a megabyte less resident), 0.4–1.1 ms again. "
           "(10) swiftc gives a section of its own only to a public function, so each module's closures, thunks "
           "and specialisations shared one section, which the order could only move whole: the listed 1 MB of "
           "functions lay spread over 5.2 MB. wake's modules and packages are now compiled with "
           "`-function-sections` (the range 4.2 MB; the runtime's archives keep their large sections): `wake "
           "list` (20 alarms) peak 6.8 → 6.4 MB (medians of 8), its time unchanged (300 runs side by side). "
           "Each function on its own, one the order does not list lies alone outside the range the pre-roll "
           "maps: the order's rings had all waited on the boot clock (`+2s`), so the wall clock's timer "
           "closure that `wake 07:00` fires through was missing, and cold firing came 3–4 ms late until the "
           "order was written from rings on both clocks (0.35–0.62 ms in two short rounds). "
           "(11) A concrete generic type (a `[String: String]`, a `Set<String>`) was asked for by a mangled name "
           "that the runtime decodes, checking the type's generic requirements, and the first check of each "
           "conformance scans all 4,100 conformance records of the static binary (a quarter of them "
           "FoundationEssentials'). Compiled with `-disable-concrete-type-metadata-mangled-name-accessors`, the "
           "code calls the type's metadata accessor with the witness tables itself: under callgrind `wake list` "
           "(20 alarms) 6.33 → 5.69 M instructions, `next` 5.45 → 4.82 M, a dry run 44.2 → 40.6 M; wall time "
           "moved within the machine's noise (most of a start is the kernel's exec and page faults), and the "
           "peak is unchanged once the symbol order lists the new accessors. (12) The built-in sound is now "
           "the samples of `Resources/alarm.wav` in the binary, played in place (`SoundFile(samples:)`), where it "
           "was the FLAC's bytes decoded through libsndfile: a dry run of the default sound no longer decodes "
           "the loop, 40.6 → 25.6 M instructions; with (11), 20.5 → 17.2 ms (medians of 200 alternated runs); a "
           "ring with it on `null` peaks at 13.2 MB, not 13.9. Of the 25.6 M left, ALSA's `snd_pcm_open` of "
           "`null` is 9.4 M (its configuration runs the pulse plugin's hook, which loads libpulse, libX11, "
           "libxcb, libsystemd and a dozen more: aplay pays it too, `aplay -D null` below takes about 5× its "
           "`--version`) and swift-argument-parser's parse of the one-off command 9.1 M. "
           "(13) `wake list` with 20 alarms, under callgrind again: 5.70 M instructions, of which the stored "
           "durations' parse 1.07 M (grapheme breaking in the span grammar, now read as ASCII bytes: 0.57 M), "
           "the TOML strings 0.37 M (a scalar appended at a time, now a run transcoded at once: 0.14 M), the "
           "days' and rows' `joined(separator:)` 0.36 M (the standard library's unspecialised path, now plain "
           "appends) and the `/proc/self/status` fields 0.27 M (a String pair for each of its 55 lines, now "
           "only the one asked for): 4.65 M, the output byte for byte the same. The release link then drops "
           "`--export-dynamic`, which the swift driver gives an executable: the 5,460 public symbols of wake's "
           "modules filled a dynamic symbol table nothing looks up and the runtime's one `dladdr` at start "
           "walks whole (`--version` 1.07 → 0.93 M, `list` 4.64 → 4.51 M, 470 KB off the binary). "
           "Side by side (400 alternated runs, the binaries before and after (13)): `wake list` with 20 alarms 4.9 → 4.0 ms; a dry run 16.4 → 15.2 ms (fewer symbols in the global scope that ALSA's plugins are bound against). "
           "What is left: `--version`, `list` and `stop` are within 2× now; `list` with 20 alarms came out at "
           "1.9×, 2.6×, 2.9× and 3.1× in four runs on 2026-11-26 (3.3–5.3 ms; `list` with none 2.2–3.5 ms, so "
           "the machine moved too), 2.3× (4.3 ms) in the run after (11) and (12), and 2.6× (4.1 ms; `aplay --version` 1.6 ms) in the run after (13): missed, by up to half again. Its own work is parsing the 20 alarms "
           "and computing each one's next occurrence, and about a fifth of its user time is the Swift runtime "
           "instantiating generic types' metadata on first use. Before this round, measured on 2026-11-26 "
           "(hyperfine, 300 runs side by side), a static Swift program that prints one line took 1.45–1.55× "
           "`aplay --version`, and importing FoundationEssentials made it 1.8× (3.1 ms; 4.8 → 6.3 MB peak); wake"
           " brings FoundationEssentials only through swift-argument-parser 1.8 (its one `internal import`, for "
           "JSONEncoder and LocalizedError), so a command-line parser without Foundation (and completion scripts"
           " written by hand) is still what would take the most off every command, and off the memory of every "
           "ring, and a third of a dry run. A dry run within 4× cannot be had while it opens the device, which "
           "is its point: on this machine's ALSA configuration aplay itself, opening `null` to play the "
           "5-second WAV, takes about 5× its `--version`.")
    sc = startup.get("sf_command", {})
    flac = median(startup["wake 07:00 --dry-run -s 10-min FLAC"])
    flac_t = median(startup["flac -t, 10-min FLAC (decode, check)"])
    if sc and sc.get("10-min FLAC", 0) > 5:
        R.para("Finding (no target, but it doubles the cost of arming with a long file):",
               f"of the 10-minute FLAC's dry run ({fmt(flac, 0)} ms), {fmt(sc['10-min FLAC'], 0)} ms are "
               "one libsndfile call, `sf_command(SFC_SET_SCALE_FLOAT_INT_READ)` in `SoundFile.init` (timed by the "
               "probe). libsndfile answers it, for any file, by computing the file's peak "
               "(`psf_calc_signal_max`): a whole extra decode, as doubles, before wake's own check decodes the "
               "file again. It is meant for float sources only.")
    else:
        R.para(f"Arming with the 10-minute FLAC decodes it once from end to end, as the check that a file will "
               f"play: {fmt(flac, 0)} ms against {fmt(flac_t, 0)} ms for `flac -t`, which does the same and no "
               "more. (The probe times libsndfile's `sf_command` calls too: none took over 5 ms. "
               "`SFC_SET_SCALE_FLOAT_INT_READ`, asked of every file when this benchmark was first written, "
               "decoded the whole file a second time to find its peak.)")
    R.headline.append(
        f"Start-up: `wake --version` {fmt(median(startup['wake --version']), 1)} ms ({v:.1f}× `aplay --version`), "
        f"`wake list` {fmt(median(startup['wake list']), 1)} ms ({lst:.1f}×); a dry run with the default sound "
        f"{fmt(dry, 1)} ms.")


def report_stop(R, stop):
    R.add("## 6. Stop latency", "")
    R.para("From `kill(pid, SIGTERM)` to `wait4()` returning in the benchmark, while ringing (wake 0.3 s after "
           "its `ringing` event; mpv 0.8 s after it started), ms. `sleep 3600` is the floor: a process that "
           "only has to exit. aplay and sox are not here: on `null` they finish the whole file before a signal "
           "can reach them.")
    wk = stop["wake (paced on null)"]
    rows = [[n, fmt(median(v), 2), fmt(max(v), 2), len(v), "—" if n.startswith("wake") else ratio(median(wk), median(v))]
            for n, v in stop.items()]
    R.table(["contestant", "median ms", "worst ms", "runs", "wake ÷ this"], rows)
    t6 = R.target("6", "stop within 30 ms of SIGTERM", f"{fmt(max(wk), 2)} ms at worst", max(wk) <= 30)
    R.para(f"Target: within 30 ms (worst run): {t6}.",
           "On `null` the stop is a 10 ms fade-out written at once, a drop and a close. On a real card "
           "`Ringer.fadeOut` first takes back what is queued, then waits for what remains (the part the card "
           "would not give back, then the fade) for at most 20 ms before the drop, so a stop there takes at "
           "most about 20 ms more than this (not measurable here).")
    R.headline.append(f"Stop: {fmt(median(wk), 1)} ms from SIGTERM to exit (worst {fmt(max(wk), 1)} ms).")


def report_desktop(R, desktop, window, plot=None):
    server = desktop["server"]
    players = desktop["players"]
    kind = RING_KIND[server]
    pw = server == "PipeWire"
    R.add(f"## 7{'b' if pw else ''}. The desktop path: through {server}", "")
    if pw:
        R.para(f"Figure 7 again, on PipeWire ({desktop.get('version', 'PipeWire')}): `pipewire`, `wireplumber` and "
               "`pipewire-pulse`, headless, started as the tests start them (DESIGN.md: private HOME, XDG "
               "directories and session bus), and a null sink `speaker` loaded through pipewire-pulse with `pactl "
               "load-module module-null-sink`. It is recorded and measured exactly as on PulseAudio, from the "
               "sink's monitor with `parec`. The contestants: wake (`-D default --mixer off`: ALSA's `default`, "
               "which reaches the server through ALSA's pulse plugin and pipewire-pulse, as `aplay -D default` "
               "does), `pw-play` (PipeWire's own player), `paplay` and "
               "`aplay -D default` (through pipewire-pulse, as a desktop without pipewire-alsa does) and "
               "`mpv --ao=pipewire` (mpv's first choice when PipeWire answers).")
    else:
        R.para("A private PulseAudio server with one null sink (clocked: it takes audio in real time, as a sound card "
           "would, so every player here is paced by the server, and ALSA's `default` reaches it through the pulse "
           "plugin), started as the tests start it. What a listener would hear is recorded from the sink's monitor "
           "with `parec` (mono, 44.1 kHz, 10 ms fragments) by this script, which stamps each fragment on arrival "
           "(CLOCK_REALTIME); a sample is sound when its magnitude is over 64. Every contestant is measured through "
           "the same recording: wake (`-D default --mixer off`), `aplay -D default` (the same ALSA path), "
           "`paplay` (a native PulseAudio client), `mpv --ao=pulse` and `sox -t pulseaudio`.")
    f = desktop["firing"]
    names = ["wake"] + [n for n in players if n in f]
    wk = f.get("wake", [])
    R.para(f"**Firing**: from the deadline to the first sound at the sink, ms ({desktop['count']} round"
           f"{'s' if desktop['count'] != 1 else ''}, one alarm "
           "every 3 s, the contestants taking turns, each started 3.1–3.9 s before a whole-second deadline as in "
           "figure 1; the peers are the best shell recipe of figure 1, `sleep` to the microsecond then `exec` the "
           "player). The resolution is one fragment of the monitor, about 10 ms, either way and the same for every "
           "player: the null sink renders a fragment at a time, and a fragment can only be placed by its arrival; "
           "a figure a few milliseconds below zero is within it.")
    # A difference, not a ratio: at the sink a delay can be a little below zero (the resolution).
    R.table(["contestant", "median ms", "worst ms", "alarms", "wake − this (median), ms"],
            [[n, fmt(median(f[n]), 1), fmt(max(f[n]), 1), len(f[n]), "—" if n == "wake" else
              (lambda d: f"{d:+.1f}" if abs(d) < 100 else f"{d:+,.0f}")(median(wk) - median(f[n]))]
             for n in names if f.get(n)])
    rows_by = window["rows"]
    ring = [(label, r) for (k, label), r in rows_by.items() if k == kind]
    R.para(f"**Ringing**: CPU and wake-ups per minute over the window of figure 2 ({window['copies']} copies of each, "
           f"the same {window['seconds']} s, after 3 s of settling), all ringing into the one server at once; peak "
           "memory while ringing is VmHWM at the end of the window, set back to the present resident size at its "
           "start (`/proc/PID/clear_refs`, for every contestant alike), and over the whole run the larger of "
           "VmHWM at the start and at the end. wake and mpv loop the 5-second WAV; the others "
           "cannot loop a file, so they play the 10-minute WAV of the same beeps. The server's own cost is not in "
           "any contestant's row; it is given below the table for all the streams together.")
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
               f"on this path wake spends {ratio(median(wake_ring['cpu_ms_per_min']), median(ap['cpu_ms_per_min']))} "
               f"the CPU of aplay on the same ALSA device, and wakes {ratio(median(wake_ring['wakeups_per_min']), median(ap['wakeups_per_min']))} "
               "as often. The buffer is no longer the cause: on a sound server's plugin wake asks for aplay's "
               "500 ms (`Defaults.serverLatency`; it was 100 ms, at 3.7× aplay's CPU and 3.4× its wake-ups on "
               "PulseAudio, 5.6× and 5.3× on PipeWire), its worker sleeps in `poll()` on the plugin's descriptors "
               "and an eventfd for a stop, and a stop drops at once (the plugin's drop corks and flushes the "
               "stream). Measured by thread on 2026-11-26 (`/proc/PID/task/*/schedstat`, 15 s of a ringing wake "
               "and of aplay, one after the other): on PulseAudio wake's main thread 7 ms a minute, its output "
               "worker 97, the pulse plugin's thread 57; aplay's writing thread 42, its plugin thread 60. The "
               "worker allocated three or four arrays at every wake-up to poll (the plugin's descriptors, the "
               "stop's eventfd, a copy for the plugin's revents), and its poll timed out after a period (125 ms) "
               "between the plugin's signals; one buffer kept across waits, and a 1 s timeout (the eventfd brings "
               "every request at once), took the worker to 53 ms and 1,164 switches a minute on PulseAudio "
               "(aplay's writer 53 and 868 in that pair of runs) and from 107 to 49 ms, 1,828 to 1,088 switches, "
               "on PipeWire (aplay's 40 and 1,360). Counted by strace over 10 s, wake and aplay make the same "
               "system calls (262 and 250 polls, 264 writes each); what is left is user-space work per wake-up "
               "(the Swift runtime's exclusivity checks, the mailbox's locks, reading through libsndfile, a copy "
               "aplay does not make) and a window of a minute on a shared machine. Two more, measured by thread on "
               "PipeWire (2026-11-26, 30 s windows): the loop's stall watchdog ticked every second on a healthy "
               "device, about 130 µs of cold work each time; it now looks when the stall limit would run out with "
               "no more progress, 60 → 20 wake-ups and 7.7 → 3.0 ms a minute. And after a write the plugin took "
               "only in part (its buffer full) the worker wrote once more to be told there was no room, a call "
               "that takes the client's lock and asks its stream; it now waits at once (libpulse's calls, counted "
               "by its getpid over 10 s: 873 → 760, aplay's 714). Side by side with aplay after both, wake's "
               "threads came out at 119–127 ms a minute against aplay's 125 in two 30 s windows: what this row "
               "shows is within the window's noise. On PipeWire the two swap places from run to run: after the "
               "run of 2026-11-26 19:40 (1.09× and 1.04×, against 1.00× and 0.89× at 15:59), figure 7 alone, the "
               "binaries of both runs one after the other, gave 119 ms against aplay's 104 and 2,804 wake-ups "
               "against 2,792 for the earlier binary, 137 against 121 and 2,910 against 2,895 for this one: the "
               "same ratios, so the difference between the runs is the machine's.")
    sm = window.get("ringing_smaps", {}).get(kind)
    if sm and sm["by_mapping"]:
        status = sm["status"]
        kb = lambda k: int(status.get(k, "0 kB").split()[0])
        R.para("Finding:", f"ringing through the server wake peaks at {fmt(worst_ring_mem, 1)} MiB, and at "
               f"{fmt(worst_mem, 1)} MiB over the whole run. Where a ringing wake's memory is at the end of the window "
               f"(`/proc/PID/status` and `smaps` of one ringer): {fmt(kb('RssFile') / 1024, 1)} MiB are pages of "
               f"files mapped and shared with the page cache, {fmt(kb('RssAnon') / 1024, 1)} MiB are wake's own "
               f"(heap, {status.get('Threads', '?')} threads' stacks, buffers); by mapping: "
               + ", ".join(f"{name} {fmt(k / 1024, 1)}" for name, k in sm["by_mapping"][:10]) + " MiB. "
               "Once its ring is audible, wake gives back the code that parsed the command line, checked the "
               "sound and the device and started the ring (`Sources/WakeSystem/ResidentCode.swift`: "
               "`MADV_DONTNEED` on its read-only file mappings, whose pages stay in the page cache), and the ring "
               "maps back only what it runs: a ring on `null`, 14.2–14.8 MB resident before, 5.4–5.5 after "
               "(2026-11-27). Not before the night's wait, which would leave a waiting wake 5 MB: the code the "
               "deadline runs must stay mapped through it, in case the page cache is dropped in the last second "
               "(with such a release, the first frame came 2–9 ms late with the cache dropped 0.4 s before the "
               "deadline, against 0.3–1.3 ms). The whole run's peak comes as the ring starts, with the parser's, "
               "the checks' and the ring's code mapped at once. The largest part is wake's own binary: the static "
               "Swift runtime and standard library with GCC's libstdc++, FoundationEssentials (brought by "
               "swift-argument-parser, its only user), and wake, of which the kernel maps 64 KB around every page "
               "a run touches (fault-around). Its everyday functions are laid out together "
               "(`packaging/link/symbol-order.txt`: a ring on `null` 15.7 → 15.0 MB with the pre-roll mapping the "
               "ring's code, `wake list` 9.4 → 6.7 MB; with a section per function, figure 5's step 10, a ring "
               "through PulseAudio 14.1 → 13.9 MB), but the standard library's archive keeps 1.6 MB of its text in "
               "one section no ordering can split, and its data pages are written by relocation. Then libc, "
               "libasound, and what the pulse plugin loads (libpulse, libpulsecommon, libdbus, libsystemd, X11's "
               "client libraries), which aplay loads too. What it would take to lower the whole run's peak: "
               "measured on 2026-11-26 with a static Swift program that prints one line, the runtime alone peaks "
               "at 4.8 MB and with FoundationEssentials at 6.3 MB (aplay --version: 2.5 MB); so a parser without "
               "Foundation in place of swift-argument-parser (and its completion scripts), which was not done here.")
    R.para("**Stop**: from the stop to the last sound at the sink, ms, in the same rounds as the firing: each ring "
           "is stopped 0.8 s after its deadline or 0.4 s after its first sound, whichever is later; by SIGTERM "
           "(every contestant), or by running `wake stop PID` (wake's second slot in each round; the time runs from "
           "the command's start). A negative time means the last sound reached the sink before the stop: what "
           "the player had queued in the server was dropped, not played out (the resolution is the same 10 ms "
           "fragment as for the firing).")
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
    R.para(f"`wake daemon --inhibit off` with 1, 20 and 200 standing alarms (alarms.toml written in `wake add`'s "
           "format: every alarm on the weekday three days away, so the nearest is days off; every other one with "
           "its own sound file, the 5-second WAV, the rest the built-in sound; device `null`), each in private XDG "
           f"directories, {window['copies']} copies of each, waiting through the window of figure 2 (sampled once each "
           "has logged an `armed` event for every alarm). Wake-ups are context switches, CPU the scheduler's count, "
           "peak memory VmHWM, as in figures 2 and 4.")
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
    R.para("What the daemon's memory holds here, headless (no session bus): wake's binary, libc and libsndfile "
           "with its codecs (it checks the alarms' sounds when it starts). With no `DBUS_SESSION_BUS_ADDRESS` "
           "and no `$XDG_RUNTIME_DIR/bus` it knows there is no desktop to notify without loading libsystemd "
           "(2026-11-26: 12.8 → 11.4 MB with 200 alarms, measured side by side); on a desktop the session bus "
           "brings libsystemd and its compression and crypto libraries, about 1.2 MB more.")
    if mem200 is not None and mem200 > 12:
        R.para("Finding: the daemon's memory is the fixed cost of figure 4 (a waiting wake, one alarm, peaks at "
               "about the same), not its alarms: 200 of them add under 1 MiB. It is wake's binary (the static "
               "Swift runtime with GCC's libstdc++, FoundationEssentials through swift-argument-parser, and "
               "wake), libc, "
               "libsndfile and its codecs (the daemon checks the alarms' sounds when it starts) and libsystemd "
               "(it talks to the session bus; libasound only once a ring opens a device), most of it file pages "
               "shared with the page cache; see figure 7 for what it would take.")
    if add:
        R.para("**From `wake add` to armed**: from the start of `wake add HH:MM --days DAY --name NAME -D null` to the "
               "daemon's `armed` event for that alarm in its event log (the log polled every 0.5 ms), against the "
               "daemons above (copy 0) after the window; and the same command alone, from its start to its exit. "
               "The daemon hears of the change from inotify on its directories, re-reads the files and arms "
               "what changed.")
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
                   f"with {DAEMON_SIZES[-1]} alarms an add takes {fmt(median(large), 0)} ms to be armed, against "
                   f"{fmt(median(small), 0)} ms with {DAEMON_SIZES[0]}, while the command itself takes the same time. "
                   "On every change the daemon re-reads both files and checks every alarm's stored options again "
                   "(`DaemonController.reload`, `RingSettings(stored:)`), whichever alarm changed, and that check "
                   "runs swift-argument-parser over the options (`RingOptionGroup.parse`), the same parse that "
                   "dominated start-up (figure 5): a millisecond or two per alarm. `wake list` does the same for "
                   "each alarm. Next step: keep each alarm's checked settings while its stored options and the "
                   "config file's entries are unchanged, or check stored options without the parser.")
    fds = window.get("descriptors")
    if fds:
        R.para("**Descriptors**: the daemon alone with 1, 200 and 2,000 standing alarms (the same alarms.toml), its "
               "entries in `/proc/PID/fd` counted once it has logged an `armed` event for every alarm, and the time "
               "from its start to that. They do not grow with the alarms: one deadline timer per clock for the "
               "earliest occurrence, not three per alarm (issue 25; a systemd user service's soft limit is 1,024). "
               "One more with 200 and 2,000 alarms than with one: the sound file that every other alarm shares, "
               "held open once (a descriptor per distinct sound file, closed when no alarm uses it).")
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
    R.para("One alarm ringing on `null` (`--snooze 1s`, so that it rings again a second after each snooze), in "
           "private XDG directories, its control socket in `$XDG_RUNTIME_DIR/wake/`. Each cycle times, 0.1 s into a "
           "ring: `wake snooze PID` from its start to the alarm's `snoozed` event in its event log (polled every "
           "0.5 ms); the baseline, `pkill -USR1 -s SID -x wake`, the same way (SIGUSR1 snoozes; the alarm runs in a "
           "session of its own so that no other wake on the machine is signalled, and pkill still reads every "
           "process in /proc); `wake list` from start to exit; `wake stop PID` from start to `stopped`.")
    base = control.get("pkill -USR1 -s SID wake", [])
    rows = []
    for k in ["wake snooze PID", "wake stop PID", "wake list", "pkill -USR1 -s SID wake"]:
        v = control.get(k, [])
        if v:
            rows.append([f"`{k}`", fmt(median(v), 2), fmt(max(v), 2), len(v),
                         "—" if k.startswith("pkill") else ratio(median(v), median(base))])
    R.table(["command", "median ms", "worst ms", "runs", "÷ pkill (median)"], rows)
    faster = [k for k in ("wake snooze PID", "wake stop PID") if control.get(k) and base and median(control[k]) < median(base)]
    R.para("A control command is a whole `wake` start (see figure 5: loading its shared objects is most of it), a "
           "connect, one request line and one answer, and the alarm's own turn of its loop; `pkill` starts a "
           "small C program that reads `/proc/PID/stat` of every process on the machine "
           f"({control.get('processes', '?')} at the end of this figure) before it signals, and a signal needs no answer.",
           ("Here wake's round trips are the shorter: pkill's walk over /proc costs more than wake's start and its "
            "socket." if faster else "Here pkill is the shorter."),
           "No target was set for these.")
    R.failures(control.get("failures", []))
    sn, st = control.get("wake snooze PID", []), control.get("wake stop PID", [])
    R.headline.append(f"Control: `wake snooze` {fmt(median(sn), 1)} ms and `wake stop` {fmt(median(st), 1)} ms from the "
                      f"command's start to the alarm's event, against {fmt(median(base), 1)} ms for `pkill -USR1`.")
