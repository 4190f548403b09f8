"""Figure 7: the desktop path, through a sound server: first sound and silence at the sink."""

import heapq
import random
import shlex
import signal
import time

from .commands import A_PID, entry
from .common import log
from .processes import reap, spawn


MPV = ["mpv", "--no-config", "--really-quiet", "--no-video"]
# How each peer plays a file once through the sound server, by server. On PipeWire: its own
# player, pw-play, and mpv's own output (`--ao=pipewire`, mpv 0.35's first choice when both
# answer), besides the PulseAudio clients that pipewire-pulse serves.
PLAYERS = {
    "PulseAudio": {
        "aplay -D default": lambda f: ["aplay", "-q", "-D", "default", f],
        "paplay": lambda f: ["paplay", f],
        "mpv --ao=pulse": lambda f: MPV + ["--ao=pulse", f],
        "sox -t pulseaudio": lambda f: ["sox", "-q", f, "-t", "pulseaudio", "default"],
    },
    "PipeWire": {
        "pw-play": lambda f: ["pw-play", f],
        "paplay": lambda f: ["paplay", f],
        "aplay -D default": lambda f: ["aplay", "-q", "-D", "default", f],
        "mpv --ao=pipewire": lambda f: MPV + ["--ao=pipewire", f],
    },
}
DESKTOP_PLAYERS = PLAYERS["PulseAudio"]
# The quiet window's group for each server's ringers (figure 7's rows).
RING_KIND = {"PulseAudio": "desktop", "PipeWire": "desktop-pipewire"}


def wake_alarm(ctx, hhmmss, events):
    """A one-off set for `hhmmss` through the sound server (ALSA's `default`), ringing up to 10 s."""
    return [ctx["wake"], hhmmss, "-D", "default", "-s", ctx["sounds"]["wav5"], "--inhibit", "off", "--mixer", "off", "--events", events,
            "--ring-for", "10s", "-q"]


def wake_ringer(ctx):
    """A one-off ringing through the sound server for the whole quiet window."""
    return [ctx["wake"], "now", "-D", "default", "-s", ctx["sounds"]["wav5"], "--inhibit", "off", "--mixer", "off", "--ring-for", "10m",
            "-q"]


def wake_stop(ctx, pid):
    return [ctx["wake"], "stop", str(pid)]


def wake_commands(ctx):
    soon = time.strftime("%H:%M:%S", time.localtime(time.time() + 10))
    server = "a sound server (a private PulseAudio or PipeWire)"
    return [entry("7", wake_alarm(ctx, soon, "{path:events.jsonl}"), "dry-run", needs=server),
            entry("7", wake_ringer(ctx), "dry-run", needs=server),
            entry("7", wake_stop(ctx, A_PID), "start")]


def fig_desktop(ctx, server, rec, rounds):
    """Figure 7, firing and stop: each contestant set for a whole-second deadline a few seconds
    ahead, as in figure 1, one deadline every 3 s, taking turns; what the sink's monitor
    records gives the first sound after the deadline. The ring is then stopped, 0.8 s after the
    deadline or 0.4 s after the first sound, whichever is later: by SIGTERM (every contestant),
    or by `wake stop PID` (wake's second slot); the last sound recorded gives the silence."""
    wav = ctx["sounds"]["wav5"]
    players = PLAYERS[server.NAME]
    work = ctx["work"] / f"desktop-{server.NAME.lower()}"
    work.mkdir()
    env = server.env()
    sleep_to = ('us=$(( {d}000000 - ${{EPOCHREALTIME//[^0-9]/}} )); printf -v t %d.%06d $((us / 1000000)) '
                '$((us % 1000000)); sleep $t; exec ')
    slots = ["wake", "wake, stopped by `wake stop`"] + list(players)
    spacing = 3  # whole seconds: the deadlines are whole seconds, as `wake HH:MM:SS` takes them
    first = int(time.time()) + 6
    plan = []
    for r in range(rounds):
        for name in slots[r % len(slots):] + slots[:r % len(slots)]:
            plan.append({"d": first + len(plan) * spacing, "name": name})
    log(f"figure 7: the desktop path, {len(plan)} alarms through {server.NAME}, ~{len(plan) * spacing + 6:.0f} s")
    queue = []
    for i, slot in enumerate(plan):
        heapq.heappush(queue, (slot["d"] - 3 - random.uniform(0.1, 0.9), i, "launch"))
        heapq.heappush(queue, (slot["d"] + 0.8, i, "stop"))
    while queue:
        t, i, what = heapq.heappop(queue)
        time.sleep(max(0, t - time.time()))
        slot = plan[i]
        d = slot["d"]
        if what == "launch":
            if slot["name"].startswith("wake"):
                slot["events"] = work / f"events-{i}.jsonl"
                cmd = wake_alarm(ctx, time.strftime("%H:%M:%S", time.localtime(d)), slot["events"])
            else:
                cmd = ["bash", "-c", sleep_to.format(d=d) + shlex.join(str(x) for x in players[slot["name"]](wav))]
            slot["proc"] = spawn(cmd, env=env)
            continue
        heard = rec.heard(d - 0.1, d + spacing - 0.1)
        now = time.time()
        if (heard is None or heard[0] + 0.4 > now) and now < d + spacing - 0.6:
            heapq.heappush(queue, (now + (0.02 if heard is None else heard[0] + 0.4 - now), i, "stop"))
            continue
        slot["stop_at"] = time.time()
        if slot["name"] == "wake, stopped by `wake stop`":
            slot["stopper"] = spawn(wake_stop(ctx, slot["proc"].pid), env=env)
        else:
            slot["proc"].send_signal(signal.SIGTERM)
    time.sleep(1.0)
    out = {"firing": {}, "stop": {}, "failures": [], "count": rounds, "server": server.NAME, "players": list(players)}
    for slot in plan:
        name, d = slot["name"], slot["d"]
        code, _ = reap(slot["proc"])
        if "stopper" in slot:
            scode, _ = reap(slot["stopper"])
            if scode != 0:
                out["failures"].append(f"`wake stop` exited {scode}: {slot['stopper'].stderr_text[:200]}")
        heard = rec.heard(d - 0.1, d + spacing - 0.1)
        if heard is None:
            out["failures"].append(f"{name} at {time.strftime('%H:%M:%S', time.localtime(d))}: no sound at the sink "
                                   f"(exit {code}: {slot['proc'].stderr_text[:200]})")
            continue
        key = "wake" if name.startswith("wake") else name
        out["firing"].setdefault(key, []).append((heard[0] - d) * 1000)
        stop_key = "wake, by `wake stop PID` (command start to silence)" if "stopper" in slot else f"{key}, by SIGTERM"
        out["stop"].setdefault(stop_key, []).append((heard[1] - slot["stop_at"]) * 1000)
    return out


def desktop_ringers(ctx, server):
    """Figure 7, ringing: contestants for the quiet window, each ringing through the server for the
    whole window. wake and mpv loop the 5-second WAV; the others cannot loop a file, so they play
    the 10-minute WAV of the same beeps (a minute of it is a minute of looping)."""
    s = ctx["sounds"]
    env, kind, players = server.vars, RING_KIND[server.NAME], PLAYERS[server.NAME]
    wav5, wav600 = s["wav5"], s["wav600"]
    ringers = [(kind, "wake -D default", wake_ringer(ctx), env)]
    for name, play in players.items():
        # mpv loops the short file itself (the file last, as its usage has it)
        cmd = play(wav5)[:-1] + ["--loop-file=inf", wav5] if name.startswith("mpv") else play(wav600)
        ringers.append((kind, name, cmd, env))
    return ringers
