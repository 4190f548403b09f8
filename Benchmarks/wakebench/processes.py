"""Contestants as child processes: starting them as at night, reaping them with wait4(), and
sampling a running one's CPU, context switches and peak memory from /proc (every thread)."""

import os
import signal
import subprocess
import time


SPAWNED = []  # every child, so that none outlives an interrupted run (see cleanup)


def spawn(cmd, env=None, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, session=False):
    """Starts a contestant: stdin is /dev/null and stdout is not a terminal, as at night.
    `session`: in a session of its own (its PID is the session's ID)."""
    p = subprocess.Popen([str(c) for c in cmd], stdin=subprocess.DEVNULL, stdout=stdout,
                         stderr=stderr, env=env, start_new_session=session)
    SPAWNED.append(p)
    return p


def signal_children(pid, sig):
    """Sends `sig` to the children of `pid` (what strace or /usr/bin/time runs)."""
    try:
        with open(f"/proc/{pid}/task/{pid}/children") as f:
            for child in f.read().split():
                os.kill(int(child), sig)
    except OSError:
        pass


def cleanup():
    """Kills whatever this run started and is still running (a child of strace included)."""
    for p in SPAWNED:
        if p.returncode is None and p.poll() is None:
            signal_children(p.pid, signal.SIGKILL)
            p.kill()
            p.wait()


def reap(proc):
    """Waits for a child with wait4(): returns (exit code, rusage). Reads its stderr first.
    A child that Popen reaped already (send_signal() and poll() reap one that has ended) has no
    rusage left: None then."""
    err = proc.stderr.read() if proc.stderr else b""
    proc.stderr_text = err.decode(errors="replace").strip()
    if proc.returncode is not None:
        return proc.returncode, None
    _, status, usage = os.wait4(proc.pid, 0)
    proc.returncode = os.waitstatus_to_exitcode(status)
    return proc.returncode, usage


def cpu_seconds(usage):
    return usage.ru_utime + usage.ru_stime


def read_status(path):
    status = {}
    with open(path) as f:
        for line in f:
            k, _, v = line.partition(":")
            status[k] = v.strip()
    return status


def sample(pid):
    """What a running process has cost so far: CPU ns, context switches (both summed over all its
    threads: /proc/PID/schedstat and /proc/PID/status count the main thread alone, and wake's sound
    is written by a worker thread, mpv's and the pulse plugin's by theirs), peak memory. A thread
    that ends between two samples takes its counts with it: the ringers here keep theirs."""
    cpu_ns = switches = 0
    for tid in os.listdir(f"/proc/{pid}/task"):
        try:
            with open(f"/proc/{pid}/task/{tid}/schedstat") as f:
                cpu = int(f.read().split()[0])
            st = read_status(f"/proc/{pid}/task/{tid}/status")
        except (FileNotFoundError, ProcessLookupError):
            continue  # ended just now
        cpu_ns += cpu
        switches += int(st["voluntary_ctxt_switches"]) + int(st["nonvoluntary_ctxt_switches"])
    status = read_status(f"/proc/{pid}/status")
    return {
        "t": time.monotonic_ns(),
        "cpu_ns": cpu_ns,
        "switches": switches,
        "threads": int(status.get("Threads", "1")),
        "hwm_kb": int(status.get("VmHWM", "0 kB").split()[0]),
    }
