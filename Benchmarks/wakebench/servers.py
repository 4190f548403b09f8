"""Private sound servers for figure 7 (PulseAudio; PipeWire with wireplumber and pipewire-pulse),
and a recorder of what a listener hears at the null sink's monitor."""

import array
import os
import re
import subprocess
import threading
import time

from .common import RATE, env_with
from .processes import reap, spawn


class PulseServer:
    NAME = "PulseAudio"
    """A private PulseAudio with one null sink, `speaker`, as the tests start it (DESIGN.md,
    Tests/WakeTestSupport/PulseAudioServer.swift): its own HOME, XDG_CONFIG_HOME and
    XDG_RUNTIME_DIR (0700), the native socket with anonymous authentication, clients told not to
    autospawn. A null sink is clocked: it takes audio in real time, as a sound card would, so every
    player is paced by the server. ALSA's `default` reaches it through the pulse plugin
    (libasound2-plugins) once PULSE_SERVER and XDG_RUNTIME_DIR point at it."""

    SESSION = ["DBUS_SESSION_BUS_ADDRESS", "DISPLAY", "WAYLAND_DISPLAY", "PULSE_SERVER", "PULSE_RUNTIME_PATH",
               "PULSE_STATE_PATH", "PULSE_COOKIE", "PULSE_SINK", "PULSE_SOURCE", "ALSA_CONFIG_PATH"]

    def __init__(self, work):
        run_dir, home = work / "run", work / "home"
        for d in (run_dir, run_dir / "pulse", home, home / ".config", work / "state", work / "config"):
            d.mkdir(mode=0o700, parents=True, exist_ok=True)
            os.chmod(d, 0o700)
        socket = run_dir / "pulse" / "native"
        conf, client = work / "pulse.pa", work / "client.conf"
        conf.write_text(f"load-module module-native-protocol-unix socket={socket} auth-anonymous=1\n"
                        "load-module module-null-sink sink_name=speaker\nset-default-sink speaker\n")
        client.write_text("autospawn = no\n")
        base = {k: v for k, v in os.environ.items() if k not in self.SESSION}
        self.log = open(work / "pulseaudio.log", "wb")
        self.proc = spawn(["pulseaudio", "-n", "-F", conf, "--daemonize=no", "--exit-idle-time=-1", "--disallow-exit",
                           "--use-pid-file=no", "--realtime=no", "--high-priority=no", "--log-target=stderr"],
                          env={**base, "HOME": str(home), "XDG_CONFIG_HOME": str(home / ".config"),
                               "XDG_RUNTIME_DIR": str(run_dir)}, stderr=self.log)
        # Clients (wake included): this server, and private config, state and runtime directories
        # (wake's control sockets go to XDG_RUNTIME_DIR/wake).
        self.vars = {"PULSE_SERVER": f"unix:{socket}", "XDG_RUNTIME_DIR": str(run_dir), "PULSE_CLIENTCONFIG": str(client),
                     "XDG_STATE_HOME": str(work / "state"), "XDG_CONFIG_HOME": str(work / "config")}
        deadline = time.monotonic() + 30
        while True:
            r = subprocess.run(["pactl", "info"], env=self.env(), stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
            if r.returncode == 0 and "Default Sink: speaker" in r.stdout:
                m = re.search(r"^Server Version: (\S+)", r.stdout, re.M)
                self.version = f"PulseAudio {m.group(1) if m else '?'}"
                break
            if self.proc.poll() is not None or time.monotonic() > deadline:
                raise SystemExit(f"the private PulseAudio did not start; its log: {work / 'pulseaudio.log'}")
            time.sleep(0.05)

    def env(self):
        e = {k: v for k, v in env_with().items() if k not in self.SESSION}
        e.update(self.vars)
        return e

    def stop(self):
        self.proc.terminate()
        reap(self.proc)

    def watched(self):
        """The server's processes, for the quiet window: {name: pid}."""
        return {"pulseaudio": self.proc.pid}


class PipeWireServer:
    """A private PipeWire, as DESIGN.md starts it for the tests: its own HOME, XDG_CONFIG_HOME,
    XDG_STATE_HOME and XDG_RUNTIME_DIR (0700), a session bus of its own (`dbus-daemon --session`:
    wireplumber wants one), then `pipewire`, `wireplumber` and `pipewire-pulse`, half a second
    apart; the null sink `speaker` is loaded through pipewire-pulse (`pactl load-module
    module-null-sink`) and made the default. PipeWire's null sink is clocked by its driver, as
    PulseAudio's is: every player is paced. Native clients (pw-play, mpv --ao=pipewire) reach it
    by XDG_RUNTIME_DIR/pipewire-0, PulseAudio clients and ALSA's pulse plugin by
    XDG_RUNTIME_DIR/pulse/native (pipewire-alsa is not installed: it conflicts with pulseaudio)."""

    NAME = "PipeWire"
    SESSION = PulseServer.SESSION + ["PIPEWIRE_RUNTIME_DIR", "PIPEWIRE_REMOTE"]

    def __init__(self, work):
        run_dir, home, state, config = work / "run", work / "home", work / "state", work / "config"
        for d in (run_dir, home, state, config):
            d.mkdir(mode=0o700, parents=True, exist_ok=True)
            os.chmod(d, 0o700)
        client = work / "client.conf"
        client.write_text("autospawn = no\n")
        bus = f"unix:path={run_dir / 'bus'}"
        base = {k: v for k, v in os.environ.items() if k not in self.SESSION}
        daemon_env = {**base, "HOME": str(home), "XDG_CONFIG_HOME": str(config), "XDG_STATE_HOME": str(state),
                      "XDG_RUNTIME_DIR": str(run_dir), "DBUS_SESSION_BUS_ADDRESS": bus}
        self.logs = []
        self.procs = {}
        for name, cmd in [("dbus-daemon", ["dbus-daemon", "--session", "--nofork", f"--address={bus}"]),
                          ("pipewire", ["pipewire"]), ("wireplumber", ["wireplumber"]),
                          ("pipewire-pulse", ["pipewire-pulse"])]:
            log = open(work / f"{name}.log", "wb")
            self.logs.append(log)
            self.procs[name] = spawn(cmd, env=daemon_env, stdout=log, stderr=log)
            time.sleep(0.5)
        self.proc = self.procs["pipewire"]
        self.vars = {"PULSE_SERVER": f"unix:{run_dir / 'pulse' / 'native'}", "XDG_RUNTIME_DIR": str(run_dir),
                     "PULSE_CLIENTCONFIG": str(client), "XDG_STATE_HOME": str(work / "client-state"),
                     "XDG_CONFIG_HOME": str(work / "client-config")}
        deadline = time.monotonic() + 30
        loaded = False
        while True:
            r = subprocess.run(["pactl", "info"], env=self.env(), stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
            if r.returncode == 0 and "PipeWire" in r.stdout and not loaded:
                subprocess.run(["pactl", "load-module", "module-null-sink", "sink_name=speaker"], env=self.env(),
                               stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
                subprocess.run(["pactl", "set-default-sink", "speaker"], env=self.env(),
                               stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
                loaded = True
            elif r.returncode == 0 and "Default Sink: speaker" in r.stdout:
                m = re.search(r"PipeWire [0-9.]+", r.stdout)  # "Server Name: PulseAudio (on PipeWire 0.3.65)"
                self.version = m.group(0) if m else "PipeWire"
                break
            dead = [n for n, p in self.procs.items() if p.poll() is not None]
            if dead or time.monotonic() > deadline:
                raise SystemExit(f"the private PipeWire did not start ({', '.join(dead) or 'no null sink in 30 s'}); "
                                 f"its logs: {work}/*.log")
            time.sleep(0.1)

    def env(self):
        e = {k: v for k, v in env_with().items() if k not in self.SESSION}
        e.update(self.vars)
        return e

    def stop(self):
        for name in reversed(list(self.procs)):
            self.procs[name].terminate()
            reap(self.procs[name])
        for log in self.logs:
            log.close()

    def watched(self):
        """The server's processes, for the quiet window: {name: pid}."""
        return {n: p.pid for n, p in self.procs.items() if n != "dbus-daemon"}


class MonitorRecorder:
    """What a listener hears: `parec` on a sink's monitor (`speaker`'s unless told; mono S16, 44.1
    kHz, 10 ms fragments), read by a thread that stamps each fragment with CLOCK_REALTIME as it
    arrives. A sample's moment is its fragment's arrival less the samples after it in the fragment;
    a sample is sound when its magnitude is over 64 (as in the tests). The same clock and the same
    delay (the monitor's one fragment) for every contestant."""

    THRESHOLD = 64

    def __init__(self, server, sink="speaker"):
        self.proc = spawn(["parec", "-d", f"{sink}.monitor", "--raw", "--format=s16le", "--channels=1", f"--rate={RATE}",
                           "--latency-msec=10"], env=server.env(), stdout=subprocess.PIPE)
        self.sound = []  # (moment of the first sound sample, of the last), per fragment with sound in it
        self.lock = threading.Lock()
        self.thread = threading.Thread(target=self._read, daemon=True)
        self.thread.start()

    def _read(self):
        fd, rest, t = self.proc.stdout.fileno(), b"", self.THRESHOLD
        while True:
            b = os.read(fd, 65536)
            now = time.time()
            if not b:
                return
            b = rest + b
            n = len(b) // 2
            rest = b[n * 2:]
            a = array.array("h", b[:n * 2])
            if n and (max(a) > t or min(a) < -t):
                first = next(i for i, x in enumerate(a) if x > t or x < -t)
                last = n - 1 - next(i for i, x in enumerate(reversed(a)) if x > t or x < -t)
                with self.lock:
                    self.sound.append((now - (n - first) / RATE, now - (n - 1 - last) / RATE))

    def heard(self, t0, t1=float("inf")):
        """(first, last) moment of sound between t0 and t1, or None."""
        with self.lock:
            hits = [(a, b) for a, b in self.sound if t0 <= a <= t1]
        if not hits:
            return None
        return min(a for a, _ in hits), max(min(b, t1) for _, b in hits)

    def stop(self):
        self.proc.terminate()
        self.thread.join(timeout=5)
        reap(self.proc)
