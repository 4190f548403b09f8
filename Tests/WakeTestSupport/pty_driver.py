#!/usr/bin/python3
"""Runs wake on a pseudo-terminal and drives it with keys and signals, for WakeTests.

usage: pty_driver.py --events FILE [--timeout S] [--step STEP]... -- WAKE [ARGS...]

Steps run in order:
  wait:EVENT[:N]          wait until the N-th (default 1st) line with "event":"EVENT" is in FILE
  key:TEXT                type TEXT on the terminal
  solve                   read the last "challenge" event's "question" (A + B, --challenge math)
                          from FILE and type its sum and Enter
  ctrl:LETTER             type Ctrl-LETTER (ctrl:Z is Ctrl-Z, ctrl:C is Ctrl-C)
  signal:NAME             send the signal (TERM, INT, HUP, USR1, CONT, PIPE, ...) to wake
  storm:NAME:COUNT:SECS   send COUNT such signals spread over SECS seconds
  state:S                 wait until /proc/PID/stat shows process state S (T: stopped)
  cbreak                  wait until the terminal is in cbreak mode (ICANON and ECHO off: wake owns it)
  mode                    record whether the terminal is in cbreak mode now
  snapshot:LABEL          record the termios settings (the same as before wake started?) and process state
  sleep:SECS              wait, reading the terminal
  winsize:COLS            set the terminal's width (the kernel sends SIGWINCH to the foreground job);
                          leading ones set the width the command starts with

wake's stdin, stdout and stderr are the pty's slave side, which is also its controlling
terminal; it starts with every signal at its default disposition and none blocked. The termios
settings are read before wake starts and after it exits (tcgetattr on the slave); the driver
prints one JSON object:
  {"exit": code|null, "signal": n|null, "timed_out": bool, "restored": bool,
   "cbreak_during": bool|null, "snapshots": {LABEL: {"equals_before": bool, "cbreak": bool, "state": str|null}},
   "bells": n, "sent": n, "before": [...], "after": [...], "output": "...", "error": str|null}
where "bells" counts the BEL characters wake wrote to the terminal and "sent" the signals sent to it.
"""
import argparse
import json
import os
import select
import signal
import sys
import termios
import time
import fcntl
import struct


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--events", required=True)
    ap.add_argument("--timeout", type=float, default=20.0)
    ap.add_argument("--step", action="append", default=[])
    ap.add_argument("command", nargs=argparse.REMAINDER)
    a = ap.parse_args()
    cmd = a.command[1:] if a.command and a.command[0] == "--" else a.command
    if not cmd:
        ap.error("no command")

    deadline = time.monotonic() + a.timeout
    master, slave = os.openpty()
    before = termios.tcgetattr(slave)
    # Leading winsize steps are the terminal's size when the command starts: set before the
    # fork, or the command may draw its first line for the pty's default width first.
    while a.step and a.step[0].startswith("winsize:"):
        fcntl.ioctl(master, termios.TIOCSWINSZ, struct.pack("HHHH", 24, int(a.step.pop(0).partition(":")[2]), 0, 0))

    pid = os.fork()
    if pid == 0:
        try:
            os.setsid()
            fcntl.ioctl(slave, termios.TIOCSCTTY, 0)
            for fd in (0, 1, 2):
                os.dup2(slave, fd)
            os.close(master)
            if slave > 2:
                os.close(slave)
            for s in range(1, signal.NSIG):
                try:
                    signal.signal(s, signal.SIG_DFL)
                except (OSError, ValueError, RuntimeError):
                    pass
            signal.pthread_sigmask(signal.SIG_SETMASK, [])
            os.execv(cmd[0], cmd)
        except BaseException as e:  # noqa: BLE001
            os.write(2, ("exec failed: %r\n" % (e,)).encode())
        finally:
            os._exit(127)

    output = bytearray()
    status = None
    error = None
    cbreak_during = None
    snapshots = {}
    sent = 0

    def drain(wait=0.0):
        r, _, _ = select.select([master], [], [], wait)
        if r:
            try:
                data = os.read(master, 65536)
                output.extend(data)
            except OSError:
                pass

    def reap():
        nonlocal status
        if status is None:
            p, st = os.waitpid(pid, os.WNOHANG)
            if p == pid:
                status = st
        return status is not None

    def proc_state():
        try:
            with open("/proc/%d/stat" % pid) as f:
                s = f.read()
            return s[s.rindex(")") + 2]
        except (OSError, ValueError, IndexError):
            return None

    def count_events(name):
        try:
            with open(a.events, "rb") as f:
                text = f.read().decode("utf-8", "replace")
        except FileNotFoundError:
            return 0
        n = 0
        for line in text.splitlines():
            try:
                if json.loads(line).get("event") == name:
                    n += 1
            except ValueError:
                pass
        return n

    def last_question():
        try:
            with open(a.events, "rb") as f:
                text = f.read().decode("utf-8", "replace")
        except FileNotFoundError:
            return None
        question = None
        for line in text.splitlines():
            try:
                e = json.loads(line)
            except ValueError:
                continue
            if e.get("event") == "challenge":
                question = e.get("question")
        return question

    def cbreak(t):
        return (t[3] & termios.ICANON) == 0 and (t[3] & termios.ECHO) == 0

    def until(cond, what):
        while not cond():
            if reap():
                raise RuntimeError("wake exited before " + what)
            if time.monotonic() > deadline:
                raise RuntimeError("timed out waiting for " + what)
            drain(0.01)

    def send(name):
        nonlocal sent
        os.kill(pid, getattr(signal, "SIG" + name))
        sent += 1

    try:
        for step in a.step:
            kind, _, arg = step.partition(":")
            if kind == "wait":
                name, _, nth = arg.partition(":")
                nth = int(nth or "1")
                until(lambda: count_events(name) >= nth, "event %s #%d" % (name, nth))
            elif kind == "key":
                os.write(master, arg.encode())
            elif kind == "solve":
                question = last_question()
                if question is None:
                    raise RuntimeError("no challenge event to solve")
                x, _, y = question.partition(" + ")
                os.write(master, ("%d\r" % (int(x) + int(y))).encode())
            elif kind == "ctrl":
                os.write(master, bytes([ord(arg.upper()) & 0x1F]))
            elif kind == "signal":
                send(arg)
            elif kind == "storm":
                name, count, secs = arg.split(":")
                count = int(count)
                gap = float(secs) / count
                start = time.monotonic()
                for i in range(count):
                    send(name)
                    pause = start + (i + 1) * gap - time.monotonic()
                    if pause > 0:
                        time.sleep(pause)
                    if i % 50 == 0:
                        drain(0.0)
            elif kind == "state":
                until(lambda: proc_state() == arg, "process state " + arg)
            elif kind == "cbreak":
                until(lambda: cbreak(termios.tcgetattr(slave)), "cbreak mode")
            elif kind == "mode":
                cbreak_during = cbreak(termios.tcgetattr(slave))
            elif kind == "snapshot":
                t = termios.tcgetattr(slave)
                snapshots[arg] = {"equals_before": t == before, "cbreak": cbreak(t), "state": proc_state()}
            elif kind == "winsize":
                fcntl.ioctl(master, termios.TIOCSWINSZ, struct.pack("HHHH", 24, int(arg), 0, 0))
            elif kind == "sleep":
                end = time.monotonic() + float(arg)
                while time.monotonic() < end:
                    drain(0.01)
            else:
                raise RuntimeError("unknown step %r" % step)
        while not reap():
            if time.monotonic() > deadline:
                raise RuntimeError("timed out waiting for wake to exit")
            drain(0.02)
    except (RuntimeError, ProcessLookupError) as e:
        error = str(e)

    timed_out = False
    if status is None:
        timed_out = True
        os.kill(pid, signal.SIGKILL)
        os.kill(pid, signal.SIGCONT)  # a stopped process dies only once continued
        _, status = os.waitpid(pid, 0)
    for _ in range(3):
        drain(0.0)

    after = termios.tcgetattr(slave)
    result = {
        "exit": os.WEXITSTATUS(status) if os.WIFEXITED(status) else None,
        "signal": os.WTERMSIG(status) if os.WIFSIGNALED(status) else None,
        "timed_out": timed_out,
        "restored": before == after,
        "cbreak_during": cbreak_during,
        "snapshots": snapshots,
        "bells": output.count(b"\x07"),
        "sent": sent,
        "before": [x if not isinstance(x, list) else [c if isinstance(c, int) else c[0] for c in x] for x in before],
        "after": [x if not isinstance(x, list) else [c if isinstance(c, int) else c[0] for c in x] for x in after],
        "output": output.decode("utf-8", "replace"),
        "error": error,
    }
    sys.stdout.write(json.dumps(result) + "\n")


if __name__ == "__main__":
    main()
