#!/usr/bin/env python3
"""wake's benchmark: `make bench` runs this. The benchmark itself is the package next to it,
Benchmarks/wakebench/ (one module per concern; its __init__ says how each figure is measured).

    python3 Benchmarks/run.py           # every figure, writes BENCHMARKS.md and Benchmarks/plots/
    python3 Benchmarks/run.py --quick   # fewer repeats, writes $TMPDIR/BENCHMARKS-quick.md
"""

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from wakebench.cli import main  # noqa: E402

if __name__ == "__main__":
    main()
