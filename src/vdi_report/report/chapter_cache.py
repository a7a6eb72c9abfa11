"""A chapter's outputs kept between report runs, for the chapters that do not depend on the
sizing scenario: a one-parameter rebuild (``make report DESKTOPS=...``) replays the Evidence,
Method, Sensitivity and Audit chapters instead of drawing them again (about 3 s of the report
notebook's 7 s on 2 cores, issue 27), and the parts of Models and the Appendix that no scenario
parameter reaches (0.5 s more: the chapters cell went from 2.7 s to 1.8 s, measured).

A chapter module states the report parameters its text, tables and charts use as ``PARAMETERS``
(names of ``parameters.PARAMETERS``, e.g. ``("era", "choices_file")``); a chapter without it
depends on every parameter and is always drawn. A chapter whose parameter-dependent pages sit
among others lists its parts in reading order as ``PARTS`` instead, and marks those kept with
``@kept(...)`` (the parameters they use): Models draws only the boot-demand chart and the
scenario on every run, the Appendix only the colophon. A kept chapter or part must not read the
tables the scenario stage makes from the parameters (``SCENARIO_TABLES``), and
``tests/report/test_chapter_cache.py`` checks both: each one, drawn with every other parameter
changed and those tables unreadable, gives the same outputs.

Its outputs are kept under ``build/chapters/`` by a key (``key``) of:
- the chapter's module name (a part's: ``chapter.part``);
- the package's code (every file of ``src/vdi_report``);
- every input file of the report that the parameters do not make: all of ``data/raw`` and every
  file of ``data/processed`` except the scenario stage's tables and ``datapackage.json`` (a table
  an analysis choice or the cost file changes, e.g. the IOPS model's, changes the key);
- the values of the parameters it states, with the content of a file parameter's file.
The same key gives the same outputs (the build is deterministic), so a replayed chapter is the
chapter drawn again, byte for byte (``tests/report/test_chapter_cache.py``).
"""

from __future__ import annotations

import hashlib
import json
from pathlib import Path

from .. import catalogue, config, files, parameters

CACHE_DIR = config.PROJ_ROOT / "build" / "chapters"
KEEP = 4  # kept per chapter: the latest keys (e.g. both eras of the sensitivity chapter)
# the tables the scenario stage makes from the report parameters (stages.py: stage "scenario"),
# and the descriptor that lists their hashes: never part of a cached chapter's key
SCENARIO_TABLES = tuple(n for n, t in catalogue.TABLES.items() if t.stage == "scenario")
PARAMETER_MADE = frozenset(
    [catalogue.TABLES[n].file().resolve() for n in SCENARIO_TABLES if "{" not in catalogue.TABLES[n].path]
    + [(config.PROCESSED_DIR / "datapackage.json").resolve()]
)
FILE_PARAMETERS = frozenset(p.name for p in parameters.PARAMETERS if p.path)


def kept(*names: str):
    """Mark a chapter's part (a function of ``ctx``, listed in the chapter's ``PARTS``) as kept
    between runs: it uses the report parameters ``names`` (``parameters.PARAMETERS``) and none of
    the scenario stage's tables, as a chapter's ``PARAMETERS`` says (``sections.parts``)."""

    def mark(part):
        part.PARAMETERS = tuple(names)
        return part

    return mark


def inputs_digest() -> str:
    """SHA-256 of the code (``src/vdi_report``) and of every report input the parameters do not
    make (``data/raw``, ``data/processed`` less ``PARAMETER_MADE``): the part of ``key`` shared by
    every chapter, computed once per run (about 0.02 s)."""
    package = config.PROJ_ROOT / "src" / "vdi_report"
    code = [f for f in package.rglob("*") if f.is_file() and "__pycache__" not in f.parts]
    data = [
        f
        for d in (config.RAW_DIR, config.PROCESSED_DIR)
        for f in d.rglob("*")
        if f.is_file() and f.resolve() not in PARAMETER_MADE
    ]
    return files.digest(code + data)


def parameter_value(name: str, params: dict) -> str:
    """The value of report parameter ``name`` in ``params`` as the key holds it: its text, and for
    a file parameter also the SHA-256 of the file's content (empty when no file is named)."""
    value = params.get(name, "")
    if name in FILE_PARAMETERS and value:
        f = Path(value) if Path(value).is_absolute() else config.PROJ_ROOT / value
        return f"{value}\0{hashlib.sha256(f.read_bytes()).hexdigest()}"
    return repr(value)


def key(chapter: str, stated: tuple[str, ...], params: dict, digest: str) -> str:
    """The cache key of chapter module ``chapter`` drawn with ``params`` (the report parameters,
    typed), of which it uses ``stated``; ``digest``: ``inputs_digest()``. Raises KeyError for a
    stated name that is not a report parameter."""
    known = {p.name for p in parameters.PARAMETERS}
    unknown = [n for n in stated if n not in known]
    if unknown:
        raise KeyError(f"{chapter}: PARAMETERS names {unknown}, which are not report parameters ({sorted(known)})")
    parts = [chapter, digest, *(f"{n}={parameter_value(n, params)}" for n in sorted(stated))]
    return hashlib.sha256("\0".join(parts).encode()).hexdigest()


def read(chapter: str, k: str, cache_dir: Path = CACHE_DIR) -> list[dict] | None:
    """The outputs kept for ``chapter`` under key ``k`` (a list of ``{"data": {mime: text},
    "metadata": {...}}``), or None when there are none (or the file is unreadable)."""
    try:
        kept = json.loads((cache_dir / f"{chapter}-{k[:24]}.json").read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None
    return kept["outputs"] if isinstance(kept, dict) and kept.get("key") == k else None


def write(chapter: str, k: str, outputs: list[dict], cache_dir: Path = CACHE_DIR) -> None:
    """Keep ``outputs`` for ``chapter`` under key ``k`` (atomically); only the ``KEEP`` latest
    keys of a chapter are kept."""
    files.write_json({"key": k, "outputs": outputs}, cache_dir / f"{chapter}-{k[:24]}.json")
    old = sorted(cache_dir.glob(f"{chapter}-*.json"), key=lambda p: p.stat().st_mtime_ns, reverse=True)
    for stale in old[KEEP:]:
        stale.unlink(missing_ok=True)
