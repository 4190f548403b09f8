#!/usr/bin/env python3
"""A client of wake-alarm-timer for the tests, run as an ordinary user (setpriv).

    alarm_timer_client.py HELPER arm CLOCK MS     R or B; a timer armed MS from now (relative)
    alarm_timer_client.py HELPER raw HEX          any request bytes, in hex ("" for none)
    alarm_timer_client.py HELPER rearm MADE CLOCK SECONDS
                                                  a disarmed timer on MADE (R or B), then given
                                                  back to be armed with a request for CLOCK at
                                                  SECONDS from now (absolute on CLOCK's base clock)

Spawns HELPER with one end of a SOCK_SEQPACKET socketpair as its standard input and an empty
environment, sends the request, shuts down the writing side, and prints one JSON line: the
answer, whether a descriptor came, its clock (from /proc/self/fdinfo), the helper's exit status
and stderr, and this process's uid. With arm: whether the timer fired, whether this process
could re-arm it itself (the kernel says EPERM without CAP_WAKE_ALARM), and whether the helper
re-armed it when given it back (and it fired again).
"""
import ctypes
import json
import os
import select
import socket
import struct
import subprocess
import sys
import time


class Timespec(ctypes.Structure):
    _fields_ = [("tv_sec", ctypes.c_long), ("tv_nsec", ctypes.c_long)]


class Itimerspec(ctypes.Structure):
    _fields_ = [("it_interval", Timespec), ("it_value", Timespec)]


def request(clock, ms):
    return struct.pack("=cB6xqq", clock.encode(), 0, ms // 1000, (ms % 1000) * 1_000_000)


def absolute(clock, seconds):
    now = time.clock_gettime(time.CLOCK_REALTIME if clock == "R" else time.CLOCK_BOOTTIME)
    return struct.pack("=cB6xqq", clock.encode(), 1, int(now) + seconds, 0)


def ask(helper, message, fd=None):
    """One round trip: (result dict, received descriptor or None)."""
    ours, theirs = socket.socketpair(socket.AF_UNIX, socket.SOCK_SEQPACKET)
    child = subprocess.Popen([helper], stdin=theirs, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
                             env={}, close_fds=True)
    theirs.close()
    result, received = {}, None
    try:
        if message or fd is not None:
            ancillary = [(socket.SOL_SOCKET, socket.SCM_RIGHTS, struct.pack("i", fd))] if fd is not None else []
            ours.sendmsg([message], ancillary)
        ours.shutdown(socket.SHUT_WR)
        answer, ancillary, _, _ = ours.recvmsg(16, socket.CMSG_SPACE(4 * 4))
        result["answer"] = list(answer)
        fds = []
        for level, kind, data in ancillary:
            if level == socket.SOL_SOCKET and kind == socket.SCM_RIGHTS:
                fds += [int.from_bytes(data[i:i + 4], sys.byteorder) for i in range(0, len(data) - len(data) % 4, 4)]
        result["descriptors"] = len(fds)
        received = fds[0] if fds else None
        if received is not None:
            with open(f"/proc/self/fdinfo/{received}") as f:
                for line in f:
                    if line.startswith("clockid:"):
                        result["clockid"] = int(line.split()[1])
    except OSError as e:
        result["error"] = f"{type(e).__name__}: {e}"
    _, stderr = child.communicate(timeout=10)
    result["exit"] = child.returncode
    result["stderr"] = stderr.decode(errors="replace")
    return result, received


def fired(fd, ms):
    readable, _, _ = select.select([fd], [], [], ms / 1000 + 5)
    return bool(readable) and int.from_bytes(os.read(fd, 8), sys.byteorder) >= 1


def main():
    helper, mode = sys.argv[1], sys.argv[2]
    if mode == "raw":
        result, fd = ask(helper, bytes.fromhex(sys.argv[3]))
    elif mode == "rearm":
        made, clock, seconds = sys.argv[3], sys.argv[4], int(sys.argv[5])
        result, fd = ask(helper, request(made, 0))
        if fd is not None:
            result["rearm"], _ = ask(helper, absolute(clock, seconds), fd)
    else:
        clock, ms = sys.argv[3], int(sys.argv[4])
        result, fd = ask(helper, request(clock, ms))
        if fd is not None:
            start = time.monotonic()
            result["fired"] = fired(fd, ms)
            result["fired_after_ms"] = round((time.monotonic() - start) * 1000)
            libc = ctypes.CDLL(None, use_errno=True)
            spec = Itimerspec(Timespec(0, 0), Timespec(0, ms * 1_000_000))
            result["own_arm_errno"] = 0 if libc.timerfd_settime(fd, 0, ctypes.byref(spec), None) == 0 else ctypes.get_errno()
            again, extra = ask(helper, request(clock, ms), fd)
            result["rearm"] = again
            result["rearm_fired"] = extra is None and fired(fd, ms)
    result["uid"] = os.getuid()
    print(json.dumps(result))


main()
