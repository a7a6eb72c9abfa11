"""Time the build (``make bench``): a benchmark that prints figures, not a test that asserts them.

Runs, in the project directory, with the environment ready:

1. a clean ``make report`` (``make clean`` first), timing each stage from the ``==>`` line
   the Makefile prints when the stage starts until the next one (``BENCH_CLEAN_RUNS``, default 1);
2. a no-op ``make report`` (median of ``BENCH_RUNS``, default 5);
3. ``make report`` with one report parameter changed (``DESKTOPS``; median of 3 runs, the last
   one back to the default so the tree is left as a plain ``make report`` builds it);
4. ``make report`` after touching a module only the report reads (``tables.py``).

Prints one line per stage and per scenario with wall-clock seconds and, for the scenarios with
a budget (issue 9: no-op <= 1 s, one parameter <= 10 s, clean <= 40 s), the budget. Also
prints the machine's CPU count and load, since other processes on a shared machine slow every
figure. Uses only the standard library: run it with any Python 3.11.
"""

from __future__ import annotations

import os
import re
import statistics
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
STEP = re.compile(r"==> (.*?)\x1b\[0m")
BUDGETS = {"clean make report": 40.0, "no-op make report": 1.0, "one report parameter changed": 10.0}


def _make(*args: str) -> tuple[float, list[tuple[str, float]], str]:
    """Run make; return (seconds, [(stage label, seconds)], output). Raises CalledProcessError."""
    cmd = [os.environ.get("MAKE", "make"), "-o", ".venv/.installed", *args]
    start = time.monotonic()
    proc = subprocess.Popen(cmd, cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    marks, out = [], []
    for line in proc.stdout:
        out.append(line)
        m = STEP.search(line)
        if m:
            marks.append((m.group(1), time.monotonic()))
    rc = proc.wait()
    end = time.monotonic()
    if rc:
        sys.stderr.write("".join(out[-40:]))
        raise subprocess.CalledProcessError(rc, cmd)
    stages = [(label, (marks[i + 1][1] if i + 1 < len(marks) else end) - t) for i, (label, t) in enumerate(marks)]
    return end - start, stages, "".join(out)


def _line(name: str, seconds: list[float]) -> str:
    med = statistics.median(seconds)
    budget = BUDGETS.get(name)
    verdict = "" if budget is None else f"  budget {budget:g} s: {'met' if med <= budget else 'NOT met'}"
    runs = "" if len(seconds) == 1 else f"  (median of {len(seconds)}: {', '.join(f'{s:.2f}' for s in seconds)})"
    return f"  {name:<34} {med:8.2f} s{verdict}{runs}"


def main() -> int:
    clean_runs = int(os.environ.get("BENCH_CLEAN_RUNS", "1"))
    runs = int(os.environ.get("BENCH_RUNS", "5"))
    print(f"make bench: {os.cpu_count()} CPUs, load average {os.getloadavg()[0]:.2f} at start", flush=True)

    clean, stage_times = [], {}
    for _ in range(clean_runs):
        _make("clean")
        total, stages, _ = _make("report")
        clean.append(total)
        for label, s in stages:
            stage_times.setdefault(label, []).append(s)
    print("\nclean make report, by stage (wall clock from each stage's start to the next):")
    for label, s in stage_times.items():
        print(f"    {label:<62} {statistics.median(s):7.2f} s")

    noop = [_make("report")[0] for _ in range(runs)]
    param = [_make("report", f"DESKTOPS={d}")[0] for d in (2100, 2200)]
    param.append(_make("report")[0])  # back to the default: also a change of one parameter
    (ROOT / "src" / "vdi_report" / "tables.py").touch()
    touched, touched_stages, _ = _make("report")

    print("\nscenarios:")
    print(_line("clean make report", clean))
    print(_line("no-op make report", noop))
    print(_line("one report parameter changed", param))
    print(_line("tables.py touched (report only)", [touched]) + "  stages: "
          + ", ".join(label for label, _ in touched_stages))
    print(f"\nload average {os.getloadavg()[0]:.2f} at the end")
    return 0


if __name__ == "__main__":
    sys.exit(main())
