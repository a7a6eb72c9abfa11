"""Time the build (``make bench``): a benchmark that prints figures, not a test that asserts them.

Runs in a scratch copy of the project that `make bench` makes (and marks with VDI_BENCH_SCRATCH=1;
your own outputs are never touched), with the environment ready, and, when ``BENCH_BASELINE``
names a commit (default: the previous release's, ``BASELINE`` in the Makefile), in a scratch
copy of that commit too (``VDI_BENCH_BASELINE``): each scenario runs in the two copies in turn,
so both see the same machine load, and each line gives the baseline's median beside it:

1. a clean ``make report`` (``make clean`` first; ``BENCH_CLEAN_RUNS``, default 1), with each
   notebook stage's own time (papermill's start and end times in the executed notebook, valid
   under ``make -j``) and the render's (from the report notebook's end to the HTML file and to the PDF);
2. a no-op ``make report`` (median of ``BENCH_RUNS``, default 5);
3. ``make report`` with one report parameter changed (``DESKTOPS``; median of 3 runs, the last
   one back to the default so the tree is left as a plain ``make report`` builds it);
4. ``make report`` with one analysis choice changed (``CHOICES``: a file choosing Tuesday's
   login test; median of 2 runs, the second back to the defaults);
5. ``make report`` after touching a record file without changing it (``touch``; median of 3);
6. ``make report`` after touching a module only the report reads (``tables.py``);
7. the built HTML in headless Chromium (``vdi_report.bench_page``: page ready, explorer set-up
   and calculator milliseconds per keystroke, each tree's report as the scenarios left it).

Prints one line per stage and per scenario with wall-clock seconds, the CPU seconds (user +
system) of all processes make started, and, for the scenarios with a budget (issue 27), the
budget. Also prints the machine's CPU count and load: other processes on a shared machine slow
the wall clock, much less the CPU seconds.
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
# issue 27's budgets (wall-clock medians on a 2-core machine)
BUDGETS = {
    "clean make report": 40.0,
    "no-op make report": 0.1,
    "one report parameter changed": 8.0,
    "one analysis choice changed": 15.0,
    "record file touched, unchanged": 5.0,
}
# The analysis choice the choice scenario changes (data/raw/analysis_choices.csv: a non-default option).
CHOICE = ("login_variant", "tuesday")

Run = tuple[float, float, float]  # wall seconds, CPU seconds, the 1-minute load average at the end


def _cpu() -> float:
    r = resource.getrusage(resource.RUSAGE_CHILDREN)
    return r.ru_utime + r.ru_stime


def _make(tree: Path, *args: str) -> Run:
    """Run make in ``tree`` (its own code on PYTHONPATH; output hidden unless it fails); return
    (wall seconds, CPU seconds, the machine's 1-minute load average when it ended)."""
    cmd = [os.environ.get("MAKE", "make"), "-o", ".venv/.installed", *args]
    env = {**os.environ, "PYTHONPATH": str(tree / "src")}
    cpu0, start = _cpu(), time.monotonic()
    proc = subprocess.run(
        cmd, cwd=tree, env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, check=False
    )
    wall, cpu = time.monotonic() - start, _cpu() - cpu0
    if proc.returncode:
        sys.stderr.write(proc.stdout[-4000:])
        raise subprocess.CalledProcessError(proc.returncode, cmd)
    return wall, cpu, os.getloadavg()[0]


def _stage_times(tree: Path) -> dict[str, float]:
    """Seconds of each notebook stage (papermill's times in reports/notebooks/*.ipynb) and of
    the render (report notebook's end to the staged HTML's and PDF's modification times)."""
    out, report_end = {}, None
    for nb in sorted((tree / "reports" / "notebooks").glob("*.ipynb")):
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
        f = tree / "build" / "publish" / f"vdi_storage_comparison.{fmt}"
        if report_end and f.exists():
            out[f"render {fmt.upper()} (report end to file)"] = f.stat().st_mtime - report_end
    return out


def _median(runs: list[Run]) -> tuple[float, float]:
    return statistics.median(w for w, _, _ in runs), statistics.median(c for _, c, _ in runs)


def _line(name: str, runs: list[Run], baseline: list[Run] | None = None) -> str:
    walls = [w for w, _, _ in runs]
    med, cpu = _median(runs)
    loads = [x for _, _, x in runs]
    load = f"load {min(loads):.1f}" + ("" if len(loads) == 1 else f"-{max(loads):.1f}")
    budget = BUDGETS.get(name)
    verdict = "" if budget is None else f"  budget {budget:g} s: {'met' if med <= budget else 'NOT met'}"
    each = "" if len(walls) == 1 else f"  (median of {len(walls)}: {', '.join(f'{w:.2f}' for w in walls)})"
    base = ""
    if baseline:
        bmed, bcpu = _median(baseline)
        base = f"  | baseline {bmed:8.2f} s wall {bcpu:8.2f} s CPU"
    return f"  {name:<34} {med:8.2f} s wall {cpu:8.2f} s CPU  {load}{verdict}{base}{each}"


def _scenarios(trees: dict[str, Path], clean_runs: int, n: int) -> tuple[dict, dict]:
    """Run every scenario in each tree in turn; ({scenario: {tree: runs}}, {tree: stage times})."""
    runs: dict[str, dict[str, list[Run]]] = {}
    stage_times: dict[str, dict[str, list[float]]] = {t: {} for t in trees}

    def note(name: str, label: str, run: Run) -> None:
        runs.setdefault(name, {}).setdefault(label, []).append(run)
        # progress as it comes (the whole bench takes minutes; the table is printed at the end)
        print(f"  ... {name} ({label}): {run[0]:.2f} s wall, {run[1]:.2f} s CPU", flush=True)

    def each(name: str, *args: str, before=None) -> None:
        for label, tree in trees.items():
            if before:
                before(tree)
            note(name, label, _make(tree, *args))

    for _ in range(clean_runs):
        for label, tree in trees.items():
            _make(tree, "clean")
            note("clean make report", label, _make(tree, "report"))
            for stage, s in _stage_times(tree).items():
                stage_times[label].setdefault(stage, []).append(s)
    for _ in range(n):
        each("no-op make report", "report")
    for d in (2100, 2200):
        each("one report parameter changed", "report", f"DESKTOPS={d}")
    each("one report parameter changed", "report")  # back to the default: also a change of one parameter
    for tree in trees.values():
        (tree / "build").mkdir(exist_ok=True)
        (tree / "build" / "bench-choices.csv").write_text("choice_id,option\n" + ",".join(CHOICE) + "\n")
    each("one analysis choice changed", "report", "CHOICES=build/bench-choices.csv")
    each("one analysis choice changed", "report")
    record = sorted((ROOT / "data" / "raw" / "records").glob("*.csv"))[0].name
    for _ in range(3):
        each("record file touched, unchanged", "report", before=lambda t: (t / "data/raw/records" / record).touch())
    each("tables.py touched (report only)", "report", before=lambda t: (t / "src/vdi_report/report/tables.py").touch())
    return runs, stage_times


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
    trees = {"this tree": ROOT}
    if os.environ.get("VDI_BENCH_BASELINE"):
        trees["baseline"] = Path(os.environ["VDI_BENCH_BASELINE"])
    print(f"make bench: {os.cpu_count()} CPUs, load average {os.getloadavg()[0]:.2f} at start", flush=True)
    if "baseline" in trees:
        print(f"A/B: each scenario runs here and in the baseline ({os.environ.get('BENCH_BASELINE', '')}) in turn")
    runs, stage_times = _scenarios(trees, clean_runs, n)

    print("\nclean make report, each stage's own wall-clock time (stages may overlap under make -j):")
    labels = list(stage_times["this tree"]) + [
        s for s in stage_times.get("baseline", {}) if s not in stage_times["this tree"]
    ]
    for label in labels:
        here = stage_times["this tree"].get(label)
        there = stage_times.get("baseline", {}).get(label)
        cells = [f"{statistics.median(here):7.2f} s" if here else "      -  "]
        if "baseline" in trees:
            cells.append(f"baseline {statistics.median(there):7.2f} s" if there else "baseline       -  ")
        print(f"    {label:<40} " + "  ".join(cells))

    print("\nscenarios (this tree" + (", then the baseline" if "baseline" in trees else "") + "):")
    for name, per_tree in runs.items():
        print(_line(name, per_tree["this tree"], per_tree.get("baseline")))
    print("\nthe HTML report in headless Chromium at 1366 x 768 (vdi_report.bench_page):", flush=True)
    html = "reports/vdi_storage_comparison.html"
    subprocess.run(
        [sys.executable, "-m", "vdi_report.bench_page", *(f"{k}={v / html}" for k, v in trees.items())], check=True
    )
    print(f"\nload average {os.getloadavg()[0]:.2f} at the end")
    return 0


if __name__ == "__main__":
    sys.exit(main())
