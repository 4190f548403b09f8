"""wake's benchmark (issues #6 and #28): how exactly it fires, how little it costs while it waits,
how lightly it rings, how much memory it takes, how fast it starts and stops, each against what a
Linux user would otherwise use, all in one run on one machine. Writes BENCHMARKS.md and its plots
(Benchmarks/plots/*.svg).

    make bench                      # installs what is missing, then runs this
    python3 Benchmarks/run.py       # the same, once the packages are there
    python3 Benchmarks/run.py --quick   # fewer repeats and a short window, for editing the package:
                                        # writes $TMPDIR/BENCHMARKS-quick.md, not BENCHMARKS.md

Everything runs headless: on ALSA's `null` PCM, and for the desktop path through a private
PulseAudio and a private PipeWire, each with a null sink. Standard library only, but for the plots
(matplotlib, in a child interpreter: see plots.py). Run as root, it also times firing with the page
cache dropped during the wait.

The modules, one per concern: common (paths, helpers), processes (children, /proc samples),
prepare (packages, build, probe, sounds), probe (alsa_probe.c's log), servers (PulseAudio,
PipeWire, the monitor recorder), and one per figure: firing (1), window (2, 3 paced, 7 and 8
ringing and waiting side by side), ringpath (3 unpaced), memory (4), startup (5), stop (6),
desktop (7), daemon (8), control (9), issue51 (10: the waiting daemon against cron, by its alarms),
sinks (11: issue 52's two sinks, `--sink all` and a sink that vanishes); report, sections,
sections51 and sections52 write BENCHMARKS.md, with its fixed prose (how each figure is
measured, the findings, their history) read from notes/, plots its SVGs, cli runs it all. Each
figure builds the wake command lines it runs in one function, which its wake_commands() lists too:
commands gathers them for `run.py --list-wake-commands`, which `make test` runs every one of
(Tests/WakeCommandLineTests/BenchmarkCommandLineTests.swift), so no option's rule breaks the bench
unseen.

How each figure is measured, the same way for every contestant:
- First frame: Benchmarks/alsa_probe.c, an LD_PRELOAD shim, stamps CLOCK_REALTIME when a
  program's first snd_pcm_write* call returns (and when it calls snd_pcm_open), and counts the
  frames every write accepted. It runs under wake, aplay, sox and mpv alike.
- CPU time of a running process: /proc/PID/task/*/schedstat (nanoseconds on a CPU, every thread);
  of a finished one: wait4()'s rusage. Wake-ups: voluntary + involuntary context switches from
  /proc/PID/task/*/status, every thread.
- Peak memory: `/usr/bin/time -f %M` for a program that ends by itself; VmHWM from
  /proc/PID/status just before the signal for one that is stopped (the same number: the
  kernel's high-water mark of resident memory). Not wait4()'s ru_maxrss in this script: a
  child of Python inherits the interpreter's own peak there when it execs.
- Start-up: hyperfine, without a shell (-N).
"""
