"""``vdi-report``: the project's command line (installed by ``pip install -e .``).

Subcommands (each a thin front to a module that also runs as ``python -m``):

* ``vdi-report report [VAR=VALUE ...] [--this-python]``: build the report with ``make report`` in
  the project directory (parameters as in the README, e.g. ``DESKTOPS=3000``); ``--this-python``:
  with the interpreter running ``vdi-report`` (``VDI_PYTHON``), not the project's own .venv;
* ``vdi-report lab [--this-python]``: JupyterLab on the exploration notebook (``make lab``);
* ``vdi-report validate``: check every raw input (``vdi_report.raw.validate``);
* ``vdi-report check-params VAR=VALUE ...``: check report parameters (``stages.check_parameters``);
* ``vdi-report size [VAR=VALUE ...] [--format text|csv|json]``: print the sizing scenario, one row
  per phase, computed by the report's own code (``report.context.Context.sizing``: the same rows as
  ``reports/sizing_scenario.csv``); it reads data/processed (``make data`` builds it);
* ``vdi-report stages``: print the build's Make rules (``vdi_report.stages``);
* ``vdi-report --version``.

Importing this module imports nothing beyond the standard library, so ``--help`` is instant.
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys

from . import __version__

COMMANDS = {
    "report": "build the PDF and HTML report (make report) with report parameters VAR=VALUE "
    "(--this-python: with this interpreter, not the project's .venv)",
    "lab": "open JupyterLab on the exploration notebook (make lab; --this-python: this interpreter)",
    "validate": "check every raw input (data/raw) and say what to fix",
    "check-params": "check report parameters VAR=VALUE (DESKTOPS=3000 REPORT_DATE=2026-11-25 ...)",
    "size": "print the sizing scenario of VAR=VALUE parameters (--format text|csv|json), as the report sizes it",
    "stages": "print the build's stages as Make rules",
}


def _parser() -> argparse.ArgumentParser:
    ap = argparse.ArgumentParser(
        prog="vdi-report",
        description="Open, reproducible cross-vendor comparison of VDI storage reference architectures.",
        epilog="Report parameters: " + ", ".join(_param_names()) + " (README: 'Two commands').",
    )
    ap.add_argument("--version", action="version", version=f"vdi-report {__version__}")
    sub = ap.add_subparsers(dest="command", metavar="COMMAND")
    for name, helptext in COMMANDS.items():
        sub.add_parser(name, help=helptext, add_help=False)
    return ap


def _param_names() -> list[str]:
    try:
        from .stages import PARAMETERS
    except Exception:  # outside a checkout (no data/raw to read the vocabulary from)
        return ["see the README"]
    return [p.var for p in PARAMETERS]


def size(argv: list[str]) -> int:
    """``vdi-report size [VAR=VALUE ...] [--format text|csv|json]``: the report's sizing scenario
    for these report parameters (the others at their defaults), printed as a table (text), as the
    bytes of ``reports/sizing_scenario.csv`` (csv) or as JSON records. Exit 2 with every problem
    of the parameters (``stages.check_parameters``), 1 when data/processed lacks the model stage's
    inputs (with the make target to run)."""
    ap = argparse.ArgumentParser(prog="vdi-report size", description=size.__doc__)
    ap.add_argument("assignments", nargs="*", metavar="VAR=VALUE", help="e.g. DESKTOPS=3000 ERA=modern")
    ap.add_argument("--format", choices=("text", "csv", "json"), default="text")
    a = ap.parse_args(argv)
    from . import stages

    bad = [x for x in a.assignments if "=" not in x]
    if bad:
        ap.error(f"parameters are VAR=VALUE, not {' '.join(bad)}")
    values = dict(x.split("=", 1) for x in a.assignments)
    problems = stages.check_parameters(values)
    if problems:
        for msg in problems:
            print(f"invalid report parameter {msg}", file=sys.stderr)
        return 2
    params = {}
    for p in stages.PARAMETERS:
        v = values.get(p.var, p.default)
        params[p.name] = os.path.abspath(v) if p.path and v else v
    from .models import scenario_stage

    try:  # computed for these parameters by the scenario stage's own code (nothing written)
        table = scenario_stage.sizing_of(params)
    except FileNotFoundError as exc:
        print(f"vdi-report size: {exc}", file=sys.stderr)
        return 1
    except ValueError as exc:  # e.g. a profile file that cannot be read
        print(f"vdi-report size: {exc}", file=sys.stderr)
        return 2
    if a.format == "csv":
        from .files import FLOAT_FORMAT

        table.to_csv(sys.stdout, index=False, float_format=FLOAT_FORMAT, lineterminator="\n")
    elif a.format == "json":
        sys.stdout.write(table.to_json(orient="records", indent=2) + "\n")
    else:
        from .report import model_tables

        sys.stdout.write(model_tables.sizing_table(table).to_string(index=False) + "\n")
    return 0


def main(argv: list[str] | None = None) -> int:
    """Run one subcommand; returns its exit status (2 for invalid input, with the reason)."""
    argv = list(sys.argv[1:] if argv is None else argv)
    ap = _parser()
    if not argv or argv[0] in ("-h", "--help", "--version"):
        ap.parse_args(argv or ["--help"])
        return 0
    cmd, rest = argv[0], argv[1:]
    if cmd not in COMMANDS:
        ap.error(f"unknown command {cmd!r}; choose one of {', '.join(COMMANDS)}")
    if cmd in ("report", "lab"):
        from .config import PROJ_ROOT

        # --this-python: make uses the interpreter running this command (where `pip install -e
        # '.[lab]'` put the project) instead of creating .venv (VDI_PYTHON, Makefile)
        this = "--this-python" in rest
        rest = [a for a in rest if a != "--this-python"]
        bad = [a for a in rest if "=" not in a and not a.startswith("-")]
        if bad:
            ap.error(f"{cmd} takes VAR=VALUE parameters, not {' '.join(bad)}")
        extra = [f"VDI_PYTHON={sys.executable}"] if this else []
        return subprocess.call([os.environ.get("MAKE", "make"), "-C", str(PROJ_ROOT), cmd, *rest, *extra])
    if cmd == "validate":
        from .raw import validate

        return validate.main(rest)
    if cmd == "check-params":
        from . import stages

        return stages.main(["--check-params", *rest])
    if cmd == "size":
        return size(rest)
    from . import stages

    return stages.main(rest)


if __name__ == "__main__":
    raise SystemExit(main())
