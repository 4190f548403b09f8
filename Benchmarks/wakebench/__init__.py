"""wake's benchmark (issue #6): how exactly it fires, how little it costs while it waits, how
lightly it rings, how much memory it takes, how fast it starts and stops, each against what a
Linux user would otherwise use, all in one run on one machine. Writes BENCHMARKS.md.

    make bench                      # installs what is missing, then runs this
    python3 Benchmarks/run.py       # the same, once the packages are there
    python3 Benchmarks/run.py --quick   # fewer repeats and a short window, for editing this file:
                                        # writes $TMPDIR/BENCHMARKS-quick.md, not BENCHMARKS.md

Everything runs headless on ALSA's `null` PCM. Standard library only.

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
