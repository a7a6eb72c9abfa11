"""Shared fixtures and the three test layers.

The folder sets a test's layer (pytest marker), so no test lists it:

- ``tests/unit/`` (mirrors ``src/vdi_report``): needs no build (code on small inputs, data/raw,
  repository files, throw-away copies of the project);
- ``tests/data/``: reads data/processed (``make data`` and the model stages; fixtures
  ``results``, ``tests_table``, ``processed``, ``findings``, ``seed_boot``);
- ``tests/report/``: reads the rendered report (``make report``; fixtures ``report_pdf``,
  ``report_html``, ``pdf_text``).

A test in a lower layer that asks for a fixture of a higher one is a collection error. Run one
layer with ``pytest -m unit`` (``make test-unit``, ``make test-data``, ``make test-report``).
"""

import json
import os
import re
import shutil
import subprocess
from pathlib import Path

import pandas as pd
import pytest

from vdi_report import catalogue, config
from vdi_report.raw import sources

DATA_FIXTURES = {"results", "tests_table", "processed", "findings", "seed_boot"}
REPORT_FIXTURES = {
    "report_pdf",
    "report_html",
    "reader",
    "pages",
    "pdf_text",
    "built",
}  # built: a copy of the built project


LAYERS = ("unit", "data", "report")
TESTS_DIR = Path(__file__).parent


def pytest_collection_modifyitems(config, items):
    for item in items:
        folder = Path(str(item.fspath)).relative_to(TESTS_DIR).parts[0]
        if folder not in LAYERS:
            raise pytest.UsageError(f"{item.nodeid}: a test lives in tests/unit, tests/data or tests/report")
        used = set(getattr(item, "fixturenames", ()))
        above = (
            (DATA_FIXTURES | REPORT_FIXTURES) if folder == "unit" else REPORT_FIXTURES if folder == "data" else set()
        )
        if used & above:
            raise pytest.UsageError(
                f"{item.nodeid} is in tests/{folder} but uses {', '.join(sorted(used & above))}: "
                "move it to the layer that builds what it reads"
            )
        item.add_marker(getattr(pytest.mark, folder))


def _need(path, target):
    if not path.exists():
        pytest.fail(f"{path} is missing: run `make {target}` (make test builds it first)")
    return path


@pytest.fixture(scope="session")
def processed():
    """``catalogue.read``, failing with the make target to run when a table is missing."""

    def read(name, **keys):
        _need(catalogue.path(name, **keys), "data")
        return catalogue.read(name, **keys)

    return read


@pytest.fixture(scope="session")
def results(processed) -> pd.DataFrame:
    return processed("results")


@pytest.fixture(scope="session")
def tests_table(processed) -> pd.DataFrame:
    return processed("tests")


@pytest.fixture(scope="session")
def seed_boot(processed) -> tuple[pd.DataFrame, pd.DataFrame]:
    """``(model, storms)``: the seed era's boot rows of the planning table (iops_per_desktop_model) and
    the boot storms (boot_storms), as the boot chart and ``boot.fitted_storms`` take them."""
    pred = processed("iops_per_desktop_model")
    storms = processed("boot_storms")
    storms = storms.assign(**{c: pd.to_numeric(storms[c]) for c in ("boot_rate_per_min", "peak_iops", "average_iops")})
    return pred[(pred["phase"] == "boot") & (pred["era"] == "seed")], storms


@pytest.fixture(scope="session")
def sources_df() -> pd.DataFrame:
    return sources.load_sources()


# --- chart specs --------------------------------------------------------------------------------------


def _vega_nodes(spec):
    """Every object (dict) of a Vega-Lite spec (``chart.to_dict()``), in document order: an object
    before the objects inside it, a list's items in turn."""
    if isinstance(spec, dict):
        yield spec
        for v in spec.values():
            yield from _vega_nodes(v)
    elif isinstance(spec, list):
        for v in spec:
            yield from _vega_nodes(v)


@pytest.fixture(scope="session")
def vega_nodes():
    """``vega_nodes(spec)``: every object of a Vega-Lite spec (the one chart-spec walker, ``_vega_nodes``)."""
    return _vega_nodes


# --- the JavaScript twins (static/*.js), run by node ---------------------------------------------------

STATIC_DIR = config.PROJ_ROOT / "src" / "vdi_report" / "static"

# Loads a twin (its CommonJS export), reads {fn, inputs, calls} from stdin and prints, as JSON, the
# function's result for each call; the sizing inputs go once and are every call's second argument.
TWIN_RUNNER = """
const twin = require(process.argv[1]);
const d = JSON.parse(require('fs').readFileSync(0, 'utf8'));
console.log(JSON.stringify(d.calls.map(a => twin[d.fn](a[0], d.inputs, ...a.slice(1)))));
"""


def _run_twin(script: str, function: str, calls: list[list], inputs: dict) -> list:
    """``function`` of the JavaScript twin ``static/<script>`` once per call, in one node process:
    ``function(call[0], inputs, *call[1:])`` (the twins take the sizing inputs, sizing_inputs.json, as
    their second argument). Returns each call's result as JSON reads it back (NaN as None); skips the
    test where node is not installed; fails it with node's message when the script throws."""
    if shutil.which("node") is None:
        pytest.skip(f"node not installed: the JavaScript twin {script} cannot be run here")
    proc = subprocess.run(
        ["node", "-e", TWIN_RUNNER, str(STATIC_DIR / script)],
        input=json.dumps({"fn": function, "inputs": inputs, "calls": calls}, allow_nan=False),
        capture_output=True,
        text=True,
        check=False,
    )
    assert proc.returncode == 0, f"node {script} {function}: {proc.stderr[-3000:]}"
    return json.loads(proc.stdout)


@pytest.fixture(scope="session")
def javascript_twin():
    """``javascript_twin(script, function, calls, inputs)``: a JavaScript twin's function run by node
    once per call (see ``_run_twin``; any layer)."""
    return _run_twin


@pytest.fixture(scope="session")
def source_texts() -> dict:
    """The folders of the source texts (``config.TEXT_DIRS``: seeds and external); a test that reads
    them (``@pytest.mark.usefixtures("source_texts")``) is skipped where one is missing, naming it
    and the variable that moves it (provenance is verified where ../shared holds the texts)."""
    missing = {kind: path for kind, path in config.TEXT_DIRS.items() if not path.is_dir()}
    if missing:
        pytest.skip(
            "source texts not found at "
            + ", ".join(f"{path} (set VDI_{kind.upper()}_DIR)" for kind, path in missing.items())
        )
    return dict(config.TEXT_DIRS)


# Issue 16's "Done when": make report ERA=modern DESKTOPS=3000 CONCURRENCY=0.8 LOGIN_WINDOW=30 BOOT_WINDOW=30,
# the other report parameters at their defaults.
DONE_WHEN = {
    "desktops": 3000,
    "concurrency": 0.8,
    "headroom": 0.2,
    "boot_window_min": 30,
    "raid": "none",
    "failover": "none",
    "era": "modern",
    "login_window_min": 30,
}


@pytest.fixture
def done_when() -> dict:
    """The "Done when" sizing scenario as ``scenario.validate`` and ``scenario.size`` take it (a
    fresh dict for each test: any layer)."""
    return dict(DONE_WHEN)


# Report parameters for a ``report.context.Context`` in the tests (the others at their defaults).
CONTEXT_PARAMS = {
    "desktops": 2000,
    "concurrency": 1.0,
    "headroom": 0.2,
    "boot_window_min": 30,
    "raid": "none",
    "failover": "none",
    "report_date": "2026-01-01",
    "cost_file": "",
}


@pytest.fixture
def context_params() -> dict:
    """Report parameters for ``report.context.Context(params)`` (a fresh dict for each test: any layer)."""
    return dict(CONTEXT_PARAMS)


@pytest.fixture(scope="session")
def report_pdf():
    return _need(config.REPORTS_DIR / "vdi_storage_comparison.pdf", "report")


@pytest.fixture(scope="session")
def report_html():
    return _need(config.REPORTS_DIR / "vdi_storage_comparison.html", "report")


@pytest.fixture(scope="session")
def reader(report_pdf):
    """The built PDF (pypdf reader)."""
    from pypdf import PdfReader

    return PdfReader(report_pdf)


@pytest.fixture(scope="session")
def pages(reader) -> list[str]:
    """Text of each PDF page, whitespace runs collapsed to one space."""
    return [re.sub(r"\s+", " ", p.extract_text()) for p in reader.pages]


@pytest.fixture(scope="session")
def pdf_text(pages) -> str:
    """The whole PDF's text, whitespace runs collapsed to one space (the one PDF-text helper)."""
    return re.sub(r"\s+", " ", " ".join(pages))


# --- a throw-away copy of the project ---------------------------------------------------------------

# What builds: the code, the notebooks, the templates, the Makefile and the lock. A copy adds the data it
# needs (``data/raw``; a built copy: ``data``, ``reports``, ``build``) and shares the project's .venv.
PROJECT_CODE = ("Makefile", "pyproject.toml", "requirements-lock.txt", "src", "notebooks", "templates")
NOT_COPIED = shutil.ignore_patterns("__pycache__", "*.egg-info", "executing", "failed")  # build/executing, build/failed


def _copy_project(dest: Path, *parts: str) -> Path:
    """Copy ``PROJECT_CODE`` and ``parts`` (paths relative to the project) to ``dest`` with their
    times (a built copy stays up to date), link the project's .venv, return ``dest``. Fails the
    test naming the make target when a part is missing."""
    root = config.PROJ_ROOT
    for rel in (*PROJECT_CODE, *parts):
        if not (root / rel).exists():
            pytest.fail(f"{root / rel} is missing: run `make report` (make test builds it first)")
    dest.mkdir(parents=True, exist_ok=True)
    for rel in (*PROJECT_CODE, *parts):
        src = root / rel
        if src.is_dir():
            shutil.copytree(src, dest / rel, symlinks=True, ignore=NOT_COPIED)
        else:
            (dest / rel).parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(src, dest / rel)
    (dest / ".venv").symlink_to((root / ".venv").resolve())
    return dest


MAKE_IN_COPY = ("make", "-o", ".venv/.installed")  # the copy shares the project's installed .venv


def _make_env(root: Path) -> dict:
    """The environment of a build in the copy ``root``: its own code on PYTHONPATH, outside this
    build's lock and job server (VDI_BUILD_LOCK, VDI_GOALS, MAKEFLAGS, MAKELEVEL, MFLAGS dropped)
    and without the report parameters `make test` exports (a copy builds with the defaults unless
    the test says otherwise)."""
    from vdi_report import stages

    dropped = {"VDI_BUILD_LOCK", "VDI_GOALS", "MAKEFLAGS", "MAKELEVEL", "MFLAGS", "BUILD_LOCK_WAIT", "JOBS"}
    dropped |= {p.var for p in stages.PARAMETERS}
    env = {k: v for k, v in os.environ.items() if k not in dropped}
    return {**env, "PYTHONPATH": str(root / "src")}


def _make_in(root: Path, *args: str, check: bool = True) -> subprocess.CompletedProcess:
    """``make ARGS`` in the copy ``root`` (``MAKE_IN_COPY``, ``_make_env``), output captured. ``check``:
    fail the test with the end of make's output unless it succeeds."""
    proc = subprocess.run(
        [*MAKE_IN_COPY, *args], cwd=root, env=_make_env(root), capture_output=True, text=True, check=False
    )
    if check:
        assert proc.returncode == 0, proc.stdout[-3000:] + proc.stderr[-3000:]
    return proc


@pytest.fixture(scope="session")
def copy_project():
    """``copy_project(dest, *parts)``: a throw-away copy of the project at ``dest`` (see ``_copy_project``).
    A unit test copies ``data/raw`` at most; a built copy (``data``, ``reports``, ``build``) belongs to the
    layer that built them."""
    return _copy_project


@pytest.fixture(scope="session")
def make_in():
    """``make_in(root, *args, check=True)``: run make in a copy of the project (see ``_make_in``)."""
    return _make_in


@pytest.fixture(scope="session")
def make_env():
    """``make_env(root)``: the environment for a make started by the test itself in a copy (``_make_env``)."""
    return _make_env
