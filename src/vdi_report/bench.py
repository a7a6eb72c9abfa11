"""Time the build (``make bench``): a benchmark that prints figures, not a test that asserts them.

Runs in a scratch copy of the project that `make bench` makes (and marks with VDI_BENCH_SCRATCH=1;
your own outputs are never touched), with the environment ready:

1. a clean ``make report`` (``make clean`` first; ``BENCH_CLEAN_RUNS``, default 1), with each
   notebook stage's own time (papermill's start and end times in the executed notebook, valid
   under ``make -j``) and the render's (from the report notebook's end to the HTML file and to the PDF);
2. a no-op ``make report`` (median of ``BENCH_RUNS``, default 5);
3. ``make report`` with one report parameter changed (``DESKTOPS``; median of 3 runs, the last
   one back to the default so the tree is left as a plain ``make report`` builds it);
4. ``make report`` after touching a module only the report reads (``tables.py``).

Prints one line per stage and per scenario with wall-clock seconds, the CPU seconds (user +
system) of all processes make started, and, for the scenarios with a budget (issue 9: no-op
<= 1 s, clean <= 40 s; one parameter <= 15 s since issue 20's one-pass tagged PDF), the budget.
Also prints the machine's CPU count and load: other processes on a shared machine slow the wall
clock, much less the CPU seconds.
Uses only the standard library.
"""

from __future__ import annotations

import datetime
import json
import os
import resource
import statistics
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
# issue 9's budgets; issue 20 (item 6, the tagged PDF laid out in one pass) allows 15 s per parameter change
BUDGETS = {"clean make report": 40.0, "no-op make report": 1.0, "one report parameter changed": 15.0}


def _cpu() -> float:
    r = resource.getrusage(resource.RUSAGE_CHILDREN)
    return r.ru_utime + r.ru_stime


def _make(*args: str) -> tuple[float, float, float]:
    """Run make (output hidden unless it fails); return (wall seconds, CPU seconds, the
    machine's 1-minute load average when it ended)."""
    cmd = [os.environ.get("MAKE", "make"), "-o", ".venv/.installed", *args]
    cpu0, start = _cpu(), time.monotonic()
    proc = subprocess.run(cmd, cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, check=False)
    wall, cpu = time.monotonic() - start, _cpu() - cpu0
    if proc.returncode:
        sys.stderr.write(proc.stdout[-4000:])
        raise subprocess.CalledProcessError(proc.returncode, cmd)
    return wall, cpu, os.getloadavg()[0]


def _stage_times() -> dict[str, float]:
    """Seconds of each notebook stage (papermill's times in reports/notebooks/*.ipynb) and of
    the render (report notebook's end to the staged HTML's and PDF's modification times)."""
    out, report_end = {}, None
    for nb in sorted((ROOT / "reports" / "notebooks").glob("*.ipynb")):
        meta = json.loads(nb.read_text(encoding="utf-8"))["metadata"].get("papermill", {})
        start, end = meta.get("start_time"), meta.get("end_time")
        if start and end:
            t0, t1 = datetime.datetime.fromisoformat(start), datetime.datetime.fromisoformat(end)
            out[nb.stem] = (t1 - t0).total_seconds()
            if nb.stem.startswith("10_"):
                report_end = t1.timestamp()
    # The HTML and PDF are separate steps that make -j runs side by side: each one's end (the
    # staged file's time; the published copies all carry the publication's).
    for fmt in ("html", "pdf"):
        f = ROOT / "build" / "publish" / f"vdi_storage_comparison.{fmt}"
        if report_end and f.exists():
            out[f"render {fmt.upper()} (report end to file)"] = f.stat().st_mtime - report_end
    return out


def _line(name: str, runs: list[tuple[float, float, float]]) -> str:
    walls = [w for w, _, _ in runs]
    med, cpu = statistics.median(walls), statistics.median(c for _, c, _ in runs)
    loads = [x for _, _, x in runs]
    load = f"load {min(loads):.1f}" + ("" if len(loads) == 1 else f"-{max(loads):.1f}")
    budget = BUDGETS.get(name)
    verdict = "" if budget is None else f"  budget {budget:g} s: {'met' if med <= budget else 'NOT met'}"
    each = "" if len(walls) == 1 else f"  (median of {len(walls)}: {', '.join(f'{w:.2f}' for w in walls)})"
    return f"  {name:<34} {med:8.2f} s wall {cpu:8.2f} s CPU  {load}{verdict}{each}"


def main() -> int:
    if not os.environ.get("VDI_BENCH_SCRATCH"):
        print(
            "make bench builds a scratch copy of the project (it runs make clean there): use `make bench`, "
            "not python -m vdi_report.bench in your tree.",
            file=sys.stderr,
        )
        return 2
    clean_runs = int(os.environ.get("BENCH_CLEAN_RUNS", "1"))
    n = int(os.environ.get("BENCH_RUNS", "5"))
    print(f"make bench: {os.cpu_count()} CPUs, load average {os.getloadavg()[0]:.2f} at start", flush=True)

    clean, stage_times = [], {}
    for _ in range(clean_runs):
        _make("clean")
        clean.append(_make("report"))
        for label, s in _stage_times().items():
            stage_times.setdefault(label, []).append(s)
    print("\nclean make report, each stage's own wall-clock time (stages may overlap under make -j):")
    for label, s in stage_times.items():
        print(f"    {label:<40} {statistics.median(s):7.2f} s  (load {clean[-1][2]:.1f} at the end of the build)")

    noop = [_make("report") for _ in range(n)]
    param = [_make("report", f"DESKTOPS={d}") for d in (2100, 2200)]
    param.append(_make("report"))  # back to the default: also a change of one parameter
    param_stages = _stage_times()
    (ROOT / "src" / "vdi_report" / "report" / "tables.py").touch()
    touched = [_make("report")]

    print("\nscenarios:")
    print(_line("clean make report", clean))
    print(_line("no-op make report", noop))
    print(_line("one report parameter changed", param))
    print(
        "    last run: "
        + ", ".join(f"{k} {v:.2f} s" for k, v in param_stages.items() if k.startswith(("10_", "render")))
    )
    print(_line("tables.py touched (report only)", touched))
    print(f"\nload average {os.getloadavg()[0]:.2f} at the end")
    return 0


if __name__ == "__main__":
    sys.exit(main())
