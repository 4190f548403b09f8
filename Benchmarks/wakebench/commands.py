"""Every command line the benchmark gives wake, for `run.py --list-wake-commands` (issue 51,
target 0): Tests/WakeCommandLineTests/BenchmarkCommandLineTests.swift runs each one in process, so
a change to an option's rules breaks `make test`, not a `make bench` run ten minutes in.

Each figure builds its wake command lines in one function of its module, which both its run and
its `wake_commands(ctx)` call (no second copy); `listing()` calls every figure's with a context of
placeholders. An entry:

    {"figure": "3", "argv": ["wake", "now", ...], "check": "dry-run" | "run" | "start",
     "alarms": 20, "alarms_toml": "...",          # the two only where standing alarms matter
     "needs": "a sound server"}                   # only where the figure provides a peer first

- check `dry-run`: run with `--dry-run` appended (a one-off); `run`: run as it is, in a private
  world (`wake list`, `wake add`, `wake --version`, a command that is a dry run already); `start`: a
  command that runs until stopped (`wake daemon`, `wake next --follow`, `wake stop PID`, `wake
  doctor`), checked up to its start: its command line and config file read, nothing refused.
- Placeholders, inside any word: `{sound:NAME}` a short sound file named NAME (WAV or FLAC by its
  extension), `{path:NAME}` a path in a private directory (need not exist). argv[0] is `wake`.
- `needs`: a peer the figure starts before it runs the command (a private sound server, logind's
  mock on a private system bus), which the check has not: there the dry run may also answer 69
  (EX_UNAVAILABLE, the peer missing), which wake says only once every option has been accepted.
- `alarms_toml`: the alarms.toml the command runs against, in the format the figure writes, with
  `alarms` alarms (at most LISTED_ALARMS: the format is the same at every count, the listing short).
  A spoken alarm file is listed apart, since its key (`say`) is one more to be refused.
"""

SOUNDS = {"wav5": "{sound:alarm-5s.wav}", "wav600": "{sound:alarm-10min.wav}", "flac600": "{sound:noise-10min.flac}"}
LISTED_ALARMS = 20
CHECKS = ("dry-run", "run", "start")
A_PID = "4242"  # `wake stop PID` and `wake snooze PID` are checked up to their start: any number


def entry(figure, argv, check, alarms=0, say=False, needs=None):
    """One listed command line; `alarms`: the standing alarms it runs with (figure's count)."""
    assert check in CHECKS, check
    e = {"figure": figure, "argv": ["wake"] + [str(a) for a in argv[1:]], "check": check}
    if needs:
        e["needs"] = needs
    if alarms:
        from .daemon import alarms_text
        n = min(alarms, LISTED_ALARMS)
        e.update(alarms=n, alarms_toml=alarms_text(n, SOUNDS["wav5"], say=say))
    return e


def placeholder_context():
    return {"wake": "wake", "sounds": dict(SOUNDS), "listing": True}


def listing():
    """Every figure's command lines, with placeholders (no wake binary, no files made)."""
    from . import bus, control, daemon, desktop, firing, hooks, issue51, memory, ringpath, sinks, speech, startup, stop, window
    ctx = placeholder_context()
    out = []
    for module in (firing, window, ringpath, memory, startup, stop, desktop, daemon, control, bus, speech, issue51, sinks, hooks):
        out += module.wake_commands(ctx)
    # One entry per distinct command line and check (figures share some: `wake list`).
    seen, unique = set(), []
    for e in out:
        key = (tuple(e["argv"]), e["check"], e.get("alarms_toml"))
        if key not in seen:
            seen.add(key)
            unique.append(e)
    return unique
