"""Plots for BENCHMARKS.md, as SVG (text: they are committed with the report): the firing delay of
every alarm by contestant (figure 1), the first and last sound at the sink on each sound server
(figure 7), and start-up against `aplay --version` (figure 5). Every point is one measurement of
this run; the tables keep the numbers.

Drawn with matplotlib (Debian's python3-matplotlib) in a child interpreter: the one running the
benchmark if it has matplotlib, else /usr/bin/python3 (a pyenv or venv python3 on PATH need not
see Debian's packages). This file is that child's script too:
    python3 plots.py DATA.json OUTDIR
"""

import json
import os
import subprocess
import sys
import tempfile
from pathlib import Path

HERE = Path(__file__).resolve()


def make(fire, desktops, startup, outdir, relative_to):
    """Draws every plot into `outdir`; returns {name: path relative to `relative_to`}, empty (and
    says why on stderr) when no interpreter here has matplotlib."""
    data = {
        "firing": {n: fire["results"][n]["first_ms"] for n in fire["names"]},
        "firing_cold": (fire.get("cold") or {}).get("first_ms", []),
        "desktops": [{"server": d["server"], "firing": d["firing"], "stop": d["stop"]} for d in desktops],
        "startup": {n: v for n, v in startup.items() if isinstance(v, list)},
    }
    for py in dict.fromkeys([sys.executable, "/usr/bin/python3"]):
        if py and Path(py).exists() and subprocess.run([py, "-c", "import matplotlib"], stdout=subprocess.DEVNULL,
                                                       stderr=subprocess.DEVNULL).returncode == 0:
            break
    else:
        print("no plots: no python3 here has matplotlib (apt install python3-matplotlib)", file=sys.stderr)
        return {}
    outdir.mkdir(parents=True, exist_ok=True)
    with tempfile.NamedTemporaryFile("w", suffix=".json", delete=False) as f:
        json.dump(data, f)
    try:
        r = subprocess.run([py, str(HERE), f.name, str(outdir)], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    finally:
        os.unlink(f.name)
    if r.returncode != 0:
        print(f"no plots: the plotting script failed: {r.stderr.strip()[-800:]}", file=sys.stderr)
        return {}
    return {name: os.path.relpath(outdir / f"{name}.svg", relative_to) for name in r.stdout.split()}


# ---------------------------------------------------------------------------------------------
# The child: drawing


def draw(data, outdir):
    import matplotlib
    matplotlib.use("svg")
    import matplotlib.pyplot as plt

    plt.rcParams.update({"svg.hashsalt": "wake-bench", "svg.fonttype": "none", "font.size": 9,
                         "axes.spines.top": False, "axes.spines.right": False})
    made = []

    def save(fig, name):
        fig.tight_layout()
        fig.savefig(outdir / f"{name}.svg", metadata={"Date": None})
        plt.close(fig)
        made.append(name)

    def strip(ax, series, xlabel, log=False):
        """One row per contestant, a dot per measurement (jittered a little vertically), the median
        a bar; the first row (wake) on top."""
        names = list(series)
        for row, name in enumerate(names):
            y = len(names) - 1 - row
            values = sorted(series[name])
            if not values:
                continue
            jitter = [y + ((i * 0.618) % 1 - 0.5) * 0.3 for i in range(len(values))]
            color = "C3" if name.startswith("wake") else "C0"
            ax.scatter(values, jitter, s=12, color=color, alpha=0.7, linewidths=0)
            med = values[len(values) // 2] if len(values) % 2 else sum(values[len(values) // 2 - 1:len(values) // 2 + 1]) / 2
            ax.plot([med, med], [y - 0.3, y + 0.3], color="black", linewidth=1.2)
        ax.set_yticks(range(len(names)))
        ax.set_yticklabels(list(reversed(names)))
        ax.set_xlabel(xlabel)
        if log:
            ax.set_xscale("log")
        ax.grid(axis="x", alpha=0.3)

    def target(ax, x, label):
        """A target as a dotted line, labelled just above the plot."""
        ax.axvline(x, color="C3", linestyle=":", linewidth=1)
        ax.text(x, 1.0, label, color="C3", ha="left", va="bottom", fontsize=8, transform=ax.get_xaxis_transform())

    firing = dict(data["firing"])
    if data.get("firing_cold"):  # second row, under wake's
        names = list(firing)
        firing = {names[0]: firing[names[0]], "wake, page cache dropped 1 s before": data["firing_cold"],
                  **{n: firing[n] for n in names[1:]}}
    if firing:
        fig, ax = plt.subplots(figsize=(7, 0.55 * len(firing) + 1.1))
        strip(ax, firing, "ms from the deadline to the first frame ALSA accepts (log scale)", log=True)
        target(ax, 2, "target: 2 ms")
        ax.set_title("Figure 1: firing precision on ALSA's null PCM (a dot per alarm, bar: median)", pad=16)
        save(fig, "firing")

    for d in data["desktops"]:
        first = {n: d["firing"][n] for n in d["firing"]}
        stop = {n: d["stop"][n] for n in sorted(d["stop"], key=lambda k: (not k.startswith("wake"), k))}
        if not first:
            continue
        fig, (a1, a2) = plt.subplots(1, 2, figsize=(10, 0.5 * max(len(first), len(stop)) + 1.3))
        strip(a1, first, "ms from the deadline to the first sound (linear to 100, then log)")
        a1.set_xscale("symlog", linthresh=100)
        strip(a2, stop, "ms from the stop to the last sound")
        target(a2, 20, "target: 20 ms")
        for ax in (a1, a2):
            ax.axvline(0, color="grey", linewidth=0.8)
        fig.suptitle(f"Figure 7{'b' if d['server'] == 'PipeWire' else ''}: the desktop path through {d['server']}, "
                     "at the null sink's monitor (resolution ~10 ms; a dot per alarm, bar: median)")
        save(fig, f"desktop-{d['server'].lower()}")

    st = data["startup"]
    base = st.get("aplay --version")
    if base:
        names = [n for n in ["aplay --version", "wake --version", "wake list", "wake list, 20 standing alarms",
                             "wake stop, nothing running", "wake 07:00 --dry-run (default sound)"] if n in st]
        fig, ax = plt.subplots(figsize=(7, 0.45 * len(names) + 1.1))
        strip(ax, {n: st[n] for n in names}, "whole-process wall time, ms (hyperfine -N)")
        b = sorted(base)[len(base) // 2]
        target(ax, 2 * b, "2×")
        target(ax, 4 * b, "4× aplay --version")
        ax.set_title("Figure 5: start-up (a dot per run, bar: median)", pad=16)
        save(fig, "startup")
    return made


if __name__ == "__main__":
    print("\n".join(draw(json.loads(Path(sys.argv[1]).read_text()), Path(sys.argv[2]))))
