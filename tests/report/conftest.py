"""Helpers of the report tests: what a build leaves in data/processed and reports/ and a build
started in the background (build-safety and fault tests); the report in a browser (browser tests)."""

import csv
import hashlib
import signal
import subprocess
from pathlib import Path

import pytest

OUTPUTS = ("data/processed", "reports")
# The scenario stage's tables in data/processed depend on the report parameters: once that stage
# has finished, a build stopped later leaves them as a correct new set for the new parameters
# (written atomically, each consistent with its inputs), while reports/ keeps the previous set.
SCENARIO_TABLES = (
    "data/processed/sizing_scenario.csv",
    "data/processed/array_verdicts.csv",
    "data/processed/boot_demand.csv",
)


def snapshot(root: Path) -> dict[str, str]:
    """SHA-256 of every file under data/processed and reports."""
    out = {}
    for rel in OUTPUTS:
        for p in sorted((root / rel).rglob("*")):
            if p.is_file():
                out[str(p.relative_to(root))] = hashlib.sha256(p.read_bytes()).hexdigest()
    return out


@pytest.fixture(name="snapshot")
def _snapshot_fixture():
    """``snapshot(root)`` (a fixture: test modules do not import each other)."""
    return snapshot


def _signals_as_from_a_terminal() -> None:
    """In the child before make starts: SIGINT and SIGHUP at their defaults, as in a build
    started from a terminal. A test run started in the background by a script (``nohup``,
    ``cmd &``) inherits them ignored, and then make would outlive the Ctrl-C a test sends."""
    signal.signal(signal.SIGINT, signal.SIG_DFL)
    signal.signal(signal.SIGHUP, signal.SIG_DFL)


@pytest.fixture
def start_make(make_env):
    """``start_make(root, *args)``: ``make report ARGS`` started in the built copy ``root`` and not
    waited for, in a session of its own (a test may signal or kill its whole process group), its
    output and errors together as text on ``stdout``. Returns the ``subprocess.Popen``."""

    def start(root: Path, *args: str) -> subprocess.Popen:
        return subprocess.Popen(
            ["make", "-o", ".venv/.installed", "report", *args],
            cwd=root,
            env=make_env(root),
            stdout=subprocess.PIPE,
            stderr=subprocess.STDOUT,
            text=True,
            start_new_session=True,
            preexec_fn=_signals_as_from_a_terminal,
        )

    return start


def assert_previous_set_or_new_scenario(root: Path, before: dict[str, str], desktops: str) -> None:
    """Every file under data/processed and reports/ as in ``before`` (a ``snapshot``), except the
    scenario stage's tables, which are either as before or built whole for ``desktops``."""
    after = snapshot(root)
    assert {k: v for k, v in after.items() if k not in SCENARIO_TABLES} == {
        k: v for k, v in before.items() if k not in SCENARIO_TABLES
    }
    if after.get(SCENARIO_TABLES[0]) != before.get(SCENARIO_TABLES[0]):
        with open(root / SCENARIO_TABLES[0], encoding="utf-8", newline="") as fh:
            assert {float(r["desktops"]) for r in csv.DictReader(fh)} == {float(desktops)}
        assert after.get(SCENARIO_TABLES[1]) != before.get(SCENARIO_TABLES[1])


@pytest.fixture
def previous_set_or_new_scenario():
    """``assert_previous_set_or_new_scenario`` (a fixture: test modules do not import each other)."""
    return assert_previous_set_or_new_scenario


# The browser tests: headless Chromium from the system's packages (system.chromium_path), driven by
# Playwright, the network off. Each test module imports playwright with pytest.importorskip first.
REPORT_WINDOW = {"width": 1400, "height": 900}


@pytest.fixture(scope="module")
def browser():
    """Headless Chromium (Playwright on the system's browser), one per test module."""
    from playwright.sync_api import sync_playwright

    from vdi_report.publish import system

    with sync_playwright() as p:
        b = p.chromium.launch(executable_path=system.chromium_path(), args=["--no-sandbox", "--disable-gpu"])
        yield b
        b.close()


@pytest.fixture(scope="module")
def page(browser, report_html):
    """The report loaded offline in a 1400 x 900 window, with console errors and page errors in
    ``page.errors`` and requests to the network in ``page.requests``, once the evidence explorer
    (set up when it comes into view) is there."""
    ctx = browser.new_context(offline=True, viewport=REPORT_WINDOW)
    pg = ctx.new_page()
    pg.errors, pg.requests = [], []
    pg.on("console", lambda m: pg.errors.append(m.text) if m.type == "error" else None)
    pg.on("pageerror", lambda e: pg.errors.append(str(e)))
    pg.on("request", lambda r: pg.requests.append(r.url) if not r.url.startswith(("file:", "data:", "blob:")) else None)
    pg.goto(report_html.resolve().as_uri())
    pg.locator("#evidence-explorer").scroll_into_view_if_needed()  # the explorer is set up when seen
    pg.wait_for_selector("#evidence_wrapper, .dt-container", timeout=60_000)
    yield pg
    ctx.close()
