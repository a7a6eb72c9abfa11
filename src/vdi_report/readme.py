"""The README's generated blocks, each between ``<!-- NAME:begin -->`` and ``<!-- NAME:end -->``:
``parameters`` (the report parameters, ``stages.parameters_markdown``), ``layout`` (the project's
folders, ``layout_block`` of ``LAYOUT``: a test checks every path it names exists and every module
and package of ``src/vdi_report`` has its line) and ``catalogue`` (the data contract,
``catalogue.contract_markdown``). ``python -m vdi_report.readme`` (``make
readme``) rewrites them in place (atomically, only when they change); ``--check`` lists the stale
ones (exit 1). The tests compare each block with its generator.
"""

from __future__ import annotations

import sys
import textwrap
from collections.abc import Callable

from . import config

README = config.PROJ_ROOT / "README.md"


# The layout: (as shown, indented by depth; what it holds; the paths, relative to the project, that
# the line stands for: each must exist, and together they name every module and package of
# src/vdi_report).
LAYOUT: tuple[tuple[str, str, tuple[str, ...]], ...] = (
    (
        "data/raw/",
        "hand-digitized, committed, never written by code (codebook: data/raw/README.md)",
        ("data/raw", "data/raw/README.md"),
    ),
    ("  sources.csv", "the documents, with the SHA-256 of each text used", ("data/raw/sources.csv",)),
    (
        "  records/<source>.csv",
        "one row per reported number: locator, line, verbatim quote, value as printed",
        ("data/raw/records",),
    ),
    (
        "  metrics.csv, vocabulary.csv",
        "metric and field vocabularies",
        ("data/raw/metrics.csv", "data/raw/vocabulary.csv"),
    ),
    (
        "  discrepancies.csv",
        "audit register: contradictions, arithmetic, unsupported claims; resolutions",
        ("data/raw/discrepancies.csv",),
    ),
    (
        "  claims.csv",
        "the vendors' headline claims with evidence for/against and a verdict",
        ("data/raw/claims.csv",),
    ),
    (
        "  analysis_choices.csv",
        "every analysis choice a reviewer may flip, its options and default (CHOICES)",
        ("data/raw/analysis_choices.csv",),
    ),
    (
        "  cost_assumptions.csv",
        "every price the cost model uses (all assumed, each with its rationale)",
        ("data/raw/cost_assumptions.csv",),
    ),
    (
        "data/processed/",
        "generated (not committed); every table declared in src/vdi_report/catalogue.py",
        ("src/vdi_report/catalogue.py",),
    ),
    (
        "notebooks/",
        "one narrative notebook per stage (percent-format .py paired with .ipynb, no outputs)",
        ("notebooks",),
    ),
    ("src/vdi_report/", "", ("src/vdi_report",)),
    (
        "  config.py, files.py",
        "paths and vocabularies; atomic, deterministic file output",
        ("src/vdi_report/config.py", "src/vdi_report/files.py"),
    ),
    (
        "  catalogue.py",
        "every processed table: path, columns, writing stage; read()/write(); datapackage.py describes them "
        "(data/processed/datapackage.json)",
        ("src/vdi_report/catalogue.py", "src/vdi_report/datapackage.py"),
    ),
    (
        "  catalogue_columns.csv",
        "unit and meaning of every column of those tables (the data contract below)",
        ("src/vdi_report/catalogue_columns.csv",),
    ),
    (
        "  parameters.py",
        "the report parameters, declared once (type, range, default, meaning): Make variables, checks, "
        "the calculator's fields and the README table follow",
        ("src/vdi_report/parameters.py",),
    ),
    (
        "  stages.py",
        "the build's stages -> Make rules (build/stages.mk); execute.py (papermill, all or nothing), "
        "bench.py and bench_page.py (`make bench`: the build, then the HTML in Chromium)",
        (
            "src/vdi_report/stages.py",
            "src/vdi_report/execute.py",
            "src/vdi_report/bench.py",
            "src/vdi_report/bench_page.py",
        ),
    ),
    ("  cli.py", "the `vdi-report` command", ("src/vdi_report/cli.py",)),
    (
        "  readme.py",
        "the README's generated blocks (parameters, this layout, the data contract; `make readme`)",
        ("src/vdi_report/readme.py",),
    ),
    (
        "  raw/",
        "reading and validating data/raw: sources (pandera schemas), provenance (quotes against the texts), "
        "units (pint), registers (discrepancies, claims), validate (one check of every raw input: the "
        "build's first stage)",
        ("src/vdi_report/raw",),
    ),
    (
        "  transform/",
        "normalize: units, bounds as intervals, per-desktop figures, comparability, the combined results, "
        "tests and test-bed tables",
        ("src/vdi_report/transform",),
    ),
    (
        "  audit/",
        "consistency rules (one module per rule in audit/rules/, discovered), run",
        ("src/vdi_report/audit", "src/vdi_report/audit/rules"),
    ),
    (
        "  models/",
        "computation only (no charts, no prose, no data/raw): iops/ (observations, fit, validation, "
        "planning), boot, semantics, density, cost, scenario",
        ("src/vdi_report/models", "src/vdi_report/models/iops"),
    ),
    (
        "  report/",
        "presentation: formatting, tables (+ model_tables, audit_tables), charts, show (prose, tables, "
        "figures), context (processed tables), calculator, explorer, page_head (the head's chart and explorer "
        "scripts), colophon, sections/ (one module per chapter, discovered), chapter_cache (the chapters that "
        "use few parameters, kept between runs)",
        ("src/vdi_report/report", "src/vdi_report/report/sections"),
    ),
    (
        "  publish/",
        "render (HTML and PDF), pdf (Chromium's print, its contents numbered, tags finished for PDF/UA-1), "
        "bundle (the HTML's Vega bundle, made by a stage of its own), system (finds Chromium)",
        (
            "src/vdi_report/publish",
            "src/vdi_report/publish/render.py",
            "src/vdi_report/publish/pdf.py",
            "src/vdi_report/publish/bundle.py",
            "src/vdi_report/publish/system.py",
        ),
    ),
    (
        "  static/",
        "the page scripts: sizing.js and verdicts.js (the JavaScript twins of models/scenario.size and "
        "models/verdicts), calculator.js and verdict_calculator.js (the calculator's forms and tables), "
        "table_rows.js (writes their tables, only the changed cells), charts_start.js (draws a chart near "
        "the view or when the page is idle), explorer_start.js and explorer_details.js (the evidence explorer), "
        "contents_pages.js (writes the PDF contents' page numbers before each print)",
        (
            "src/vdi_report/static/sizing.js",
            "src/vdi_report/static/verdicts.js",
            "src/vdi_report/static/calculator.js",
            "src/vdi_report/static/verdict_calculator.js",
            "src/vdi_report/static/table_rows.js",
            "src/vdi_report/static/charts_start.js",
            "src/vdi_report/static/explorer_start.js",
            "src/vdi_report/static/explorer_details.js",
            "src/vdi_report/static/contents_pages.js",
        ),
    ),
    (
        "templates/vdi_report/",
        "nbconvert template and CSS for the report",
        ("templates/vdi_report",),
    ),
    (
        "reports/",
        "generated: the PDF, the HTML and the executed notebooks for review",
        (),
    ),
    (
        "tests/unit|data|report/",
        "pytest, by layer (unit mirrors src/vdi_report)",
        ("tests/unit", "tests/data", "tests/report"),
    ),
)
LAYOUT_COLUMN = 27  # where the descriptions start
LAYOUT_WIDTH = 114  # the longest line


def layout_block() -> str:
    """The README's layout block (a fenced block of ``LAYOUT``: each path, then what it holds,
    wrapped at ``LAYOUT_WIDTH`` with continuation lines at ``LAYOUT_COLUMN``)."""
    lines = ["```"]
    for shown, what, _ in LAYOUT:
        wrapped = textwrap.wrap(what, LAYOUT_WIDTH - LAYOUT_COLUMN, break_on_hyphens=False) or [""]
        head = shown.ljust(LAYOUT_COLUMN - 1) + " " if len(shown) < LAYOUT_COLUMN else shown + "   "
        lines.append((head + wrapped[0]).rstrip())
        lines += [" " * LAYOUT_COLUMN + w for w in wrapped[1:]]
    return "\n".join(lines) + "\n```\n"


def _parameters() -> str:
    from . import stages

    return stages.parameters_markdown()


def _catalogue() -> str:
    from . import catalogue

    return catalogue.contract_markdown() + "\n"


BLOCKS: dict[str, Callable[[], str]] = {"parameters": _parameters, "layout": layout_block, "catalogue": _catalogue}


def block(text: str, name: str) -> str:
    """The text between ``<!-- name:begin -->\\n`` and ``<!-- name:end -->`` of ``text``; raises
    ValueError naming the markers when they are missing."""
    begin, end = f"<!-- {name}:begin -->\n", f"<!-- {name}:end -->"
    if begin not in text or end not in text.split(begin, 1)[1]:
        raise ValueError(f"README.md lacks the markers {begin.strip()} ... {end}")
    return text.split(begin, 1)[1].split(end, 1)[0]


def rendered(text: str) -> str:
    """``text`` (the README) with every block of ``BLOCKS`` replaced by its generator's output."""
    for name, make in BLOCKS.items():
        old = block(text, name)
        begin = f"<!-- {name}:begin -->\n"
        head, tail = text.split(begin + old, 1)
        text = head + begin + make() + tail
    return text


def stale(text: str) -> list[str]:
    """The names of the blocks of ``text`` that differ from their generator's output."""
    return [name for name, make in BLOCKS.items() if block(text, name) != make()]


def main(argv: list[str]) -> int:
    """``python -m vdi_report.readme [--check]``: rewrite the README's generated blocks, or list
    the stale ones (exit 1)."""
    text = README.read_text(encoding="utf-8")
    if argv[:1] == ["--check"]:
        bad = stale(text)
        for name in bad:
            print(f"README.md block {name!r} is stale: run make readme", file=sys.stderr)
        return 1 if bad else 0
    from .files import write_bytes

    write_bytes(rendered(text).encode("utf-8"), README)
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
