"""Figure 8: the daemon with 1, 20 and 200 standing alarms, its descriptors with 1, 200 and 2,000,
and `wake add` to armed."""

import datetime
import os
import time

from .commands import entry
from .common import env_with
from .processes import reap, spawn


DAEMON_SIZES = (1, 20, 200)
DESCRIPTOR_SIZES = (1, 200, 2000)
DAY_NAMES = ["mon", "tue", "wed", "thu", "fri", "sat", "sun"]


def far_day():
    """The weekday three days from today: every standing alarm's nearest occurrence is days away."""
    return DAY_NAMES[(datetime.date.today().weekday() + 3) % 7]


def alarms_text(count, sound, say=False, days=None):
    """alarms.toml with `count` alarms, in the format `wake add` writes (README, Files): on the
    day three days away (or `days`, a list of day names), a few minutes apart; every other one
    with its own sound file (the 5-second WAV), the rest with the built-in sound; on `null`, mixer
    guard off; `say`: each one spoken (`say = "on"`, as `wake add --say on` writes it)."""
    days = days or [far_day()]
    created = datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%dT%H:%M:%SZ")
    lines = ["# wake: standing alarms (written by Benchmarks/run.py in wake add's format)", ""]
    for k in range(count):
        minutes = (k * 7) % 1440
        lines += [f"[alarms.a{k:03d}]", f'time = "{minutes // 60:02d}:{minutes % 60:02d}:00"',
                  "days = [" + ", ".join(f'"{d}"' for d in days) + "]"]
        if k % 2:
            lines.append(f'sound = "{sound}"')
        lines += ['device = "null"', 'mixer = "off"']
        if say:
            lines.append('say = "on"')
        lines += [f'created = "{created}"', ""]
    return "\n".join(lines)


def write_alarms(path, count, sound, say=False, days=None):
    path.parent.mkdir(mode=0o700, parents=True, exist_ok=True)
    path.write_text(alarms_text(count, sound, say=say, days=days))
    os.chmod(path, 0o600)


def daemon_cmd(ctx, events, notify=None):
    """`wake daemon` as every figure starts it: no inhibitor, an event log, quiet."""
    return [ctx["wake"], "daemon", "--inhibit", "off", *(["--notify", notify] if notify else []), "--events", events, "-q"]


def add_cmd(ctx, hhmm, day, name):
    """`wake add` of one more alarm, as figures 8 and 10 add one to a running daemon (`--force`: the
    alarms written before it may ring at the same time, which `wake add` otherwise refuses)."""
    return [ctx["wake"], "add", hhmm, "--days", day, "--name", name, "-D", "null", "--mixer", "off", "--force", "-q"]


def wake_commands(ctx):
    events = "{path:events.jsonl}"
    return ([entry("8", daemon_cmd(ctx, events), "start", alarms=n) for n in DAEMON_SIZES]
            + [entry("8", add_cmd(ctx, "23:05", far_day(), "bench-add-5"), "run", alarms=n) for n in DAEMON_SIZES]
            + [entry("8", daemon_cmd(ctx, events, notify="off"), "start", alarms=n) for n in DESCRIPTOR_SIZES])


def armed_count(events):
    try:
        return events.read_text().count('"event":"armed"')
    except OSError:
        return 0


def daemon_contestants(ctx):
    """The daemons for the quiet window: one per size and copy, each in private XDG directories
    (one daemon per user: its lock is in XDG_STATE_HOME), `--inhibit off`, an event log."""
    work = ctx["work"] / "daemons"
    work.mkdir()
    ctx["daemons"] = {}

    def factory(n):
        def make(i):
            d = work / f"{n}-{i}"
            env = {"XDG_CONFIG_HOME": d / "config", "XDG_STATE_HOME": d / "state", "XDG_RUNTIME_DIR": d / "run"}
            for v in env.values():
                v.mkdir(mode=0o700, parents=True, exist_ok=True)
            write_alarms(d / "config" / "wake" / "alarms.toml", n, ctx["sounds"]["wav5"])
            events = d / "events.jsonl"
            ctx["daemons"][(n, i)] = {"env": env, "events": events}
            return daemon_cmd(ctx, events), env
        return make

    def ready(n):
        return lambda i: (n, i) in ctx["daemons"] and armed_count(ctx["daemons"][(n, i)]["events"]) >= n

    return [("daemon", f"wake daemon, {n} standing alarm{'s' if n > 1 else ''}", factory(n), None, ready(n))
            for n in DAEMON_SIZES]


class EventTail:
    """Follows an event log as it grows, polled every 0.5 ms."""

    def __init__(self, path):
        self.path, self.offset, self.partial = path, 0, ""
        self.skip()

    def skip(self):
        try:
            self.offset = self.path.stat().st_size
        except OSError:
            self.offset = 0
        self.partial = ""

    def wait(self, match, timeout=10.0):
        """time.monotonic() when a line containing every string of `match` appeared, or None."""
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            try:
                with open(self.path) as f:
                    f.seek(self.offset)
                    data = f.read()
            except OSError:
                data = ""
            seen = time.monotonic()
            if data:
                self.offset += len(data.encode())
                lines = (self.partial + data).split("\n")
                self.partial = lines.pop()
                if any(all(m in line for m in match) for line in lines):
                    return seen
            time.sleep(0.0005)
        return None


def daemon_add_to_armed(ctx, count):
    """Figure 8, the time from `wake add` to the daemon having the alarm armed: the command's start
    to the daemon's `armed` event for it in its event log (and to the command's exit), against the
    daemons with 1 and with 200 alarms (copy 0) still running after the window."""
    out = {}
    day = far_day()
    for n in (DAEMON_SIZES[0], DAEMON_SIZES[-1]):
        d = ctx["daemons"][(n, 0)]
        tail = EventTail(d["events"])
        armed, exited = [], []
        for k in range(count):
            name = f"bench-add-{k}"
            tail.skip()
            t0 = time.monotonic()
            p = spawn(add_cmd(ctx, f"23:{k % 60:02d}", day, name), env=env_with(**d["env"]))
            seen = tail.wait(['"event":"armed"', f'"alarm":"{name}"'])
            code, _ = reap(p)
            if code != 0 or seen is None:
                out.setdefault("failures", []).append(f"wake add against {n} alarms: exit {code}, armed {'seen' if seen else 'not seen'}: "
                                                      f"{p.stderr_text[:200]}")
                continue
            armed.append((seen - t0) * 1000)
        # The command alone, on its own: start to exit (the same command, another name).
        for k in range(count):
            t0 = time.monotonic()
            p = spawn(add_cmd(ctx, f"22:{k % 60:02d}", day, f"bench-exit-{k}"), env=env_with(**d["env"]))
            code, _ = reap(p)
            exited.append((time.monotonic() - t0) * 1000)
        out[n] = {"armed_ms": armed, "exit_ms": exited}
    return out


def daemon_descriptors(ctx, timeout=120.0):
    """Issue 25: the daemon's open descriptors (entries of /proc/PID/fd) once it has armed every
    alarm, with 1, 200 and 2,000 standing alarms, each daemon alone in private XDG directories;
    and the time from its start to the last `armed` event. The descriptors must not grow with
    the alarms (one timer per clock, not three per alarm)."""
    out = {}
    work = ctx["work"] / "daemon-descriptors"
    work.mkdir()
    for n in DESCRIPTOR_SIZES:
        d = work / str(n)
        env = {"XDG_CONFIG_HOME": d / "config", "XDG_STATE_HOME": d / "state", "XDG_RUNTIME_DIR": d / "run"}
        for v in env.values():
            v.mkdir(mode=0o700, parents=True, exist_ok=True)
        write_alarms(d / "config" / "wake" / "alarms.toml", n, ctx["sounds"]["wav5"])
        events = d / "events.jsonl"
        t0 = time.monotonic()
        p = spawn(daemon_cmd(ctx, events, notify="off"), env=env_with(**env))
        while armed_count(events) < n and time.monotonic() - t0 < timeout and p.poll() is None:
            time.sleep(0.01)
        armed_s = time.monotonic() - t0

        def open_fds():
            try:
                return sorted(os.readlink(f"/proc/{p.pid}/fd/{f}") for f in os.listdir(f"/proc/{p.pid}/fd"))
            except OSError:
                return None
        # The armed events come before the daemon has opened its control socket and its watches:
        # counted once the list has stayed the same for half a second (at most 10 s).
        fds, settled, deadline = open_fds(), time.monotonic(), time.monotonic() + 10
        while fds is not None and time.monotonic() - settled < 0.5 and time.monotonic() < deadline:
            time.sleep(0.05)
            now = open_fds()
            if now != fds:
                fds, settled = now, time.monotonic()
        done = armed_count(events) >= n
        p.terminate()
        code, _ = reap(p)
        if not done or fds is None:
            out.setdefault("failures", []).append(f"daemon with {n} alarms: armed {armed_count(events)} of {n} in {armed_s:.1f} s, "
                                                  f"exit {code}: {p.stderr_text[:200]}")
            continue
        kinds = {}
        for f in fds:
            # "/path", "pipe:[N]", "socket:[N]", "anon_inode:[timerfd]", "anon_inode:inotify"
            kind = "file" if f.startswith("/") else f.split(":")[-1].strip("[]") if f.startswith("anon_inode:") else f.split(":")[0]
            kinds[kind] = kinds.get(kind, 0) + 1
        out[n] = {"fds": len(fds), "kinds": kinds, "list": fds, "armed_s": armed_s}
    return out
