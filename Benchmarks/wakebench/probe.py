"""The log of Benchmarks/alsa_probe.c (an LD_PRELOAD shim around snd_pcm_*), read back."""




def read_probe(path):
    """{pid: {"open": [ns...], "firsts": [ns...], "first": ns, "frames": n, "rate": hz, "woke": [ns...],
    "sf_command": [(cmd, ns)...]}} from alsa_probe's log (see alsa_probe.c)."""
    out = {}
    if not path.exists():
        return out
    for line in path.read_text().splitlines():
        p = line.split()
        if len(p) < 3:
            continue
        rec = out.setdefault(int(p[0]), {"open": [], "firsts": [], "first": None, "frames": 0, "rate": 0,
                                         "woke": [], "sf_command": []})
        if p[1] == "woke":
            rec["woke"].append(int(p[2]))
        elif p[1] == "sf_command":
            rec["sf_command"].append((int(p[3], 16), int(p[4])))
        elif p[1] == "open":
            rec["open"].append(int(p[2]))
        elif p[1] == "first":  # one per snd_pcm_open that was written to; "first" is the last open's
            rec["firsts"].append(int(p[2]))
            rec["first"] = int(p[2])
            rec["rate"] = int(p[3])
        elif p[1] == "frames":
            rec["frames"] = int(p[3])
            rec["rate"] = int(p[4]) or rec["rate"]
    return out
