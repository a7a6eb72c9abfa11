"""Analysis choices: every judgement call of the models, declared once in
``data/raw/analysis_choices.csv``, and a reviewer's own options (``make report CHOICES=file``).

The declared list (columns ``CHOICE_COLUMNS``): ``choice_id``, ``label``, ``options`` (separated
by ``|``), ``default`` (one of the options), ``stage`` (the build stage that applies it, so a
changed choice re-runs only that stage and what follows), ``joint`` (``yes``: its alternatives
are all defensible together with the other joint choices, so the specification curve of
``sensitivity.csv`` spans them) and ``reason`` (why the default, citing record or register ids).

A reviewer's file has two columns, ``choice_id`` and ``option``; choices it does not list keep
their default. ``resolve`` validates it against the declared list and raises ``ChoiceError``
naming the file, the CSV line, the column and the value, with the allowed values.

The code reads a choice only through a ``Choices`` mapping (``choices["total_source"]``): no
judgement is decided in an ``if`` that the list does not name.

CLI (the Makefile runs it only when the choices file or its content changes):
``python -m vdi_report.choices [FILE] --stamps DIR`` validates FILE (empty: the defaults) and
writes ``DIR/choices.<stage>.stamp`` for each stage, rewriting a stamp only when the options of
the choices reaching that stage change; exit status 2 with the error on bad input.
"""

from __future__ import annotations

import csv
import io
import sys
from collections.abc import Mapping
from pathlib import Path

from .. import config

CHOICES_FILE = config.RAW_DIR / "analysis_choices.csv"
CHOICE_COLUMNS = ["choice_id", "label", "options", "default", "stage", "joint", "reason"]
REVIEWER_COLUMNS = ["choice_id", "option"]
STAGES_APPLYING = ("iops_model",)  # stages that read choices (stages.py passes them the file)
DEFAULT_KEY = "default"


class ChoiceError(ValueError):
    """An invalid declared list or reviewer's file; the message names file, line, column, value."""


def _read(path: Path, columns: list[str], what: str) -> list[dict]:
    path = Path(path)
    if not path.is_file():
        raise ChoiceError(f"{path}: {what} not found")
    try:
        text = path.read_bytes().decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        raise ChoiceError(f"{path}: bytes are not UTF-8 ({exc.reason} at byte {exc.start})") from None
    rows = list(csv.DictReader(io.StringIO(text)))
    header = next(csv.reader(io.StringIO(text)), [])
    missing = [c for c in columns if c not in header]
    if missing:
        raise ChoiceError(f"{path}: line 1: missing column(s) {', '.join(missing)} (expected {', '.join(columns)})")
    extra = [c for c in header if c not in columns]
    if extra:
        raise ChoiceError(f"{path}: line 1: unknown column(s) {', '.join(extra)} (expected {', '.join(columns)})")
    return [{k: (v or "").strip() for k, v in r.items()} for r in rows]


class Declared:
    """The declared choices: ``ids`` (in file order), ``options[id]`` (list), ``default[id]``,
    ``label[id]``, ``stage[id]``, ``joint[id]`` (bool), ``reason[id]``; ``rows`` as read."""

    def __init__(self, rows: list[dict], path: Path):
        self.path, self.rows = path, rows
        self.ids = [r["choice_id"] for r in rows]
        self.options = {r["choice_id"]: r["options"].split("|") for r in rows}
        self.default = {r["choice_id"]: r["default"] for r in rows}
        self.label = {r["choice_id"]: r["label"] for r in rows}
        self.stage = {r["choice_id"]: r["stage"] for r in rows}
        self.joint = {r["choice_id"]: r["joint"] == "yes" for r in rows}
        self.reason = {r["choice_id"]: r["reason"] for r in rows}

    def defaults(self) -> Choices:
        return Choices(dict(self.default), self)


def declared(path: Path | str | None = None) -> Declared:
    """The declared list, validated: unique snake_case ids, at least two distinct options each,
    the default among them, a known stage, joint yes/no, a reason. Raises ChoiceError listing
    every problem (file, line, column, value)."""
    path = Path(path or CHOICES_FILE)
    rows = _read(path, CHOICE_COLUMNS, "analysis choices file")
    problems, seen = [], set()
    for i, r in enumerate(rows, start=2):
        cid = r["choice_id"]
        if not cid.replace("_", "").isalnum() or not cid.islower():
            problems.append(f"line {i}: column 'choice_id' = {cid!r}: lower-case letters, digits and _ only")
        if cid in seen:
            problems.append(f"line {i}: column 'choice_id' = {cid!r}: declared twice")
        seen.add(cid)
        opts = r["options"].split("|")
        if len(opts) < 2 or len(set(opts)) != len(opts) or any(not o for o in opts):
            problems.append(
                f"line {i}: column 'options' = {r['options']!r}: at least two distinct options separated by |"
            )
        if r["default"] not in opts:
            problems.append(f"line {i}: column 'default' = {r['default']!r}: not one of {', '.join(opts)}")
        if r["stage"] not in STAGES_APPLYING:
            problems.append(f"line {i}: column 'stage' = {r['stage']!r}: not one of {', '.join(STAGES_APPLYING)}")
        if r["joint"] not in ("yes", "no"):
            problems.append(f"line {i}: column 'joint' = {r['joint']!r}: yes or no")
        if len(r["reason"]) < 20:
            problems.append(
                f"line {i}: column 'reason' = {r['reason']!r}: say why the default (cite record or register ids)"
            )
    if problems:
        raise ChoiceError(f"{len(problems)} problem(s) in {path}:\n  " + "\n  ".join(f"{path}: {p}" for p in problems))
    return Declared(rows, path)


class Choices(Mapping):
    """The options in force: ``choices[id]`` -> option; ``declared``: the list they belong to.
    Read-only. ``differing()`` lists the choices whose option is not the default."""

    def __init__(self, chosen: dict[str, str], decl: Declared):
        self._c, self.declared = dict(chosen), decl

    def __getitem__(self, k: str) -> str:
        if k not in self._c:
            raise KeyError(f"no analysis choice {k!r}; data/raw/analysis_choices.csv declares: {', '.join(self._c)}")
        return self._c[k]

    def __iter__(self):
        return iter(self._c)

    def __len__(self):
        return len(self._c)

    def with_options(self, **opts: str) -> Choices:
        """A copy with some options changed (validated like a reviewer's file)."""
        for k, v in opts.items():
            if k not in self._c:
                raise ChoiceError(f"unknown choice {k!r}; declared: {', '.join(self._c)}")
            if v not in self.declared.options[k]:
                raise ChoiceError(f"choice {k!r}: option {v!r} is not one of {', '.join(self.declared.options[k])}")
        return Choices({**self._c, **opts}, self.declared)

    def differing(self) -> list[tuple[str, str, str]]:
        """``[(choice_id, default, option)]`` of the choices not at their default, declared order."""
        d = self.declared.default
        return [(k, d[k], v) for k, v in self._c.items() if v != d[k]]

    def set_aside(self, k: str) -> tuple[str, ...]:
        """The declared options of choice ``k`` other than the one in force, in declared order:
        what a model leaves out (``login_variant``: NetApp's login test not used)."""
        return tuple(o for o in self.declared.options[k] if o != self[k])

    def key(self, ids=None) -> str:
        """``id=option;id=option`` of the non-default choices among ``ids`` (all by default), in
        declared order; ``default`` when none differs. The key of a specification in
        sensitivity.csv."""
        ids = set(self._c if ids is None else ids)
        parts = [f"{k}={v}" for k, _, v in self.differing() if k in ids]
        return ";".join(parts) or DEFAULT_KEY

    def for_stage(self, stage: str) -> str:
        """The options of the choices a stage applies, one ``id=option`` per line (a stamp)."""
        return "".join(f"{k}={v}\n" for k, v in self._c.items() if self.declared.stage[k] == stage)


def design_case_set_aside(k: str) -> tuple[str, ...]:
    """The options of choice ``k`` other than its declared default (``Choices.set_aside`` of the
    defaults): for the stages that do not take a reviewer's choices (the scenario's demonstrated
    loads and I/O characteristics, density), which keep the design case the file declares (e.g.
    ``login_variant``: the Monday login; the Tuesday test is set aside)."""
    return resolve().set_aside(k)


def resolve(reviewer_file: Path | str | None = None, decl: Declared | None = None) -> Choices:
    """The options in force: the defaults, overridden by ``reviewer_file`` (columns
    ``choice_id, option``; empty or None: the defaults). Raises ChoiceError naming the file, the
    CSV line, the column and the value for a missing file, a wrong header, an unknown choice, an
    option the choice does not declare, or a choice listed twice."""
    decl = decl or declared()
    chosen = dict(decl.default)
    if reviewer_file in (None, ""):
        return Choices(chosen, decl)
    path = Path(reviewer_file)
    rows = _read(path, REVIEWER_COLUMNS, "choices file (CHOICES=...)")
    problems, seen = [], {}
    for i, r in enumerate(rows, start=2):
        cid, opt = r["choice_id"], r["option"]
        if cid not in decl.options:
            problems.append(
                f"{path}: line {i}: column 'choice_id' = {cid!r}: unknown choice; declared "
                f"in {decl.path.name}: {', '.join(decl.ids)}"
            )
            continue
        if cid in seen:
            problems.append(f"{path}: line {i}: column 'choice_id' = {cid!r}: listed twice (first on line {seen[cid]})")
            continue
        seen[cid] = i
        if opt not in decl.options[cid]:
            problems.append(
                f"{path}: line {i}: column 'option' = {opt!r}: not an option of {cid}; "
                f"use one of {', '.join(decl.options[cid])}"
            )
            continue
        chosen[cid] = opt
    if problems:
        raise ChoiceError(f"{len(problems)} problem(s) in {path}:\n  " + "\n  ".join(problems))
    return Choices(chosen, decl)


def write_stamps(choices: Choices, out_dir: Path) -> list[Path]:
    """Write ``out_dir/choices.<stage>.stamp`` for each stage of ``STAGES_APPLYING`` whose
    content (``Choices.for_stage``) changed; unchanged stamps keep their time, so Make re-runs
    only the stages a changed choice reaches. Returns the stamps written."""
    out_dir = Path(out_dir)
    out_dir.mkdir(parents=True, exist_ok=True)
    written = []
    for stage in STAGES_APPLYING:
        p = out_dir / f"choices.{stage}.stamp"
        text = choices.for_stage(stage)
        if not p.exists() or p.read_text(encoding="utf-8") != text:
            tmp = p.with_suffix(".tmp")
            tmp.write_text(text, encoding="utf-8")
            tmp.replace(p)
            written.append(p)
    return written


def main(argv: list[str] | None = None) -> int:  # pragma: no cover - exercised through make
    import argparse

    ap = argparse.ArgumentParser(description="validate a reviewer's analysis choices; write per-stage stamps")
    ap.add_argument("file", nargs="?", default="", help="CSV with columns choice_id, option (empty: the defaults)")
    ap.add_argument("--stamps", default="", help="directory for choices.<stage>.stamp files")
    a = ap.parse_args(argv)
    try:
        ch = resolve(a.file or None)
    except ChoiceError as exc:
        print(f"CHOICES: {exc}", file=sys.stderr)
        return 2
    if a.stamps:
        write_stamps(ch, Path(a.stamps))
    diff = ch.differing()
    print(
        "analysis choices: " + ("defaults" if not diff else "; ".join(f"{k} = {v} (default {d})" for k, d, v in diff))
    )
    return 0


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
