"""The report only reads (issue 25, item 5): no code under ``src/vdi_report/report`` uses a
function of ``vdi_report.models`` that computes a figure. Each figure is computed once by the
stage that owns it and written through the catalogue; the report reads the table.

The rule, checked on the source with ``ast``: every name the report code takes from
``vdi_report.models`` (``from ..models import iops`` then ``iops.x``, or ``from ..models.boot
import x``), resolved to the object it names, is either not a function (a constant: a label, a
threshold, a vocabulary list; a method call on it such as ``LABELS.get`` is a look-up) or a
function of ``PURE``: a formatter or label maker that computes no figure, each with its reason.
``NOT_YET_MOVED`` lists the computing functions the report still calls, to move to their stage;
the test fails when one of them is no longer used (the list must shrink with the code).
"""

import ast
import importlib
import inspect
from pathlib import Path

import pytest

pytestmark = pytest.mark.unit

REPORT = Path(__file__).resolve().parents[3] / "src" / "vdi_report" / "report"

# Functions of models/ the report may call: each computes no figure.
PURE = {
    # {source_id: "Vendor DOC-NUMBER"}: a document's readable name from sources.csv, no figure
    "vdi_report.models.iops.document_labels": "a document's name from sources.csv",
    "vdi_report.models.iops.validation.document_labels": "a document's name from sources.csv",
    # the words naming a planning row's interval kind ("90 % PI", "range of 2 labs")
    "vdi_report.models.iops.planning.interval_words": "words for an interval kind",
    # the register entry's id in a record's resolution text ("D-ACCS-12: Use ..." -> "D-ACCS-12")
    "vdi_report.models.iops.observations.register_id": "a register id out of a text",
    # the report parameters typed and checked (raises on a bad value): no figure
    "vdi_report.models.scenario.validate": "parameter checking",
    # the architect's profile file read and checked (its figures are the architect's, as given)
    "vdi_report.models.scenario.read_profile": "reads and checks an input file",
    # ctx.plan: the planning rows a sizing reads, selected by the declared SIZING_PROVISIONING (or MCS
    # and Provisioning pooled): a row selection, the same function the scenario stage sizes with, so
    # page 1 and the scenario read one decision; it computes no figure
    "vdi_report.models.era.sizing_rows": "selects the planning rows by the declared provisioning",
}

# Computing functions the report still calls at render time, to move to the stage that owns the
# figure (a processed table the report reads). Each names the figure and its owner.
NOT_YET_MOVED: set[str] = set()  # every computing call has moved to its stage (issue 25 item 5)


def _imported_models_names(tree: ast.AST, path: Path) -> dict[str, str]:
    """{local name: dotted name under vdi_report.models} of every import in the file."""
    package = list(path.relative_to(REPORT.parents[1]).parts[:-1])  # e.g. vdi_report, report, sections
    names = {}
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom):
            base = package[: len(package) - (node.level - 1)] if node.level else []
            full = ".".join(base + ([node.module] if node.module else []))
            for a in node.names:
                target = f"{full}.{a.name}"
                if target.startswith("vdi_report.models."):
                    names[a.asname or a.name] = target
        elif isinstance(node, ast.Import):
            for a in node.names:
                if a.name.startswith("vdi_report.models"):
                    names[a.asname] = a.name if a.asname else None
                    if not a.asname:
                        names["vdi_report"] = "vdi_report"  # import vdi_report.models.x binds vdi_report
    names.pop(None, None)
    return names


def _resolve(dotted: str):
    """The object a dotted name under vdi_report.models names (module attribute chain)."""
    parts = dotted.split(".")
    for i in range(len(parts), 0, -1):
        try:
            obj = importlib.import_module(".".join(parts[:i]))
        except ImportError:
            continue
        for p in parts[i:]:
            obj = getattr(obj, p)
        return obj
    raise ImportError(dotted)


def _uses(path: Path, text: str | None = None) -> list[tuple[int, str]]:
    """(line, dotted name) of every reference to a name taken from vdi_report.models in ``path``
    (or in ``text`` as if it were that file): the longest attribute chain rooted at an imported
    name (``iops.planning.interval_words``)."""
    tree = ast.parse(path.read_text(encoding="utf-8") if text is None else text, str(path))
    names = _imported_models_names(tree, path)
    out = []
    inner = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Attribute) and id(node) not in inner:
            chain, x = [], node
            while isinstance(x, ast.Attribute):
                inner.add(id(x.value))
                chain.append(x.attr)
                x = x.value
            if isinstance(x, ast.Name) and x.id in names:
                inner.add(id(x))
                out.append((node.lineno, ".".join([names[x.id], *reversed(chain)])))
    for node in ast.walk(tree):
        if isinstance(node, ast.Name) and id(node) not in inner and node.id in names:
            out.append((node.lineno, names[node.id]))
    return out


def _function_used(dotted: str) -> str | None:
    """The dotted name of the models function ``dotted`` reaches (its longest prefix that is a
    function), or None when it reaches a constant, a module or a constant's method."""
    if not dotted.startswith("vdi_report.models."):
        return None
    parts = dotted.split(".")
    for i in range(len(parts), 2, -1):
        try:
            obj = _resolve(".".join(parts[:i]))
        except (ImportError, AttributeError):
            continue
        if inspect.ismodule(obj):
            return None
        if inspect.isfunction(obj) or inspect.isclass(obj):
            return ".".join(parts[:i])
        return None  # a constant (dict, tuple, number, str) or its method: a look-up
    return None


def _report_uses(files: dict[Path, str | None] | None = None) -> dict[str, list[str]]:
    """{models function: ["file:line", ...]} over every module of the report (or over ``files``:
    {path: its text})."""
    found: dict[str, list[str]] = {}
    for path, text in (files or dict.fromkeys(sorted(REPORT.rglob("*.py")))).items():
        for line, dotted in _uses(path, text):
            fn = _function_used(dotted)
            if fn:
                found.setdefault(fn, []).append(f"{path.relative_to(REPORT.parents[2])}:{line}")
    return found


def test_the_report_calls_no_computing_function_of_the_models():
    used = _report_uses()
    bad = {f: where for f, where in used.items() if f not in PURE and f not in NOT_YET_MOVED}
    assert not bad, (
        "the report calls model functions that compute (compute the figure in its stage and write it "
        "through the catalogue; or, for a pure formatter or label, add it to PURE with the reason): "
        + "; ".join(f"{f} at {', '.join(w)}" for f, w in sorted(bad.items()))
    )


def test_not_yet_moved_lists_only_what_the_report_still_calls():
    used = _report_uses()
    stale = sorted(NOT_YET_MOVED - set(used))
    assert not stale, f"no longer called by the report, remove from NOT_YET_MOVED: {', '.join(stale)}"


def test_the_rule_sees_a_computing_call():
    """The check is honest: a section calling ``sensitivity.ranking`` (relative import) or passing
    ``boot.demand_curve`` as a value is caught; a constant's look-up is not."""
    probe = REPORT / "sections" / "_probe.py"
    text = (
        "from ...models.boot import STATISTIC_LABELS, demand_curve\n"
        "def f(ctx):\n"
        "    from ...models import sensitivity\n"
        "    STATISTIC_LABELS.get('peak')\n"
        "    ctx.x.map(demand_curve)\n"
        "    return sensitivity.ranking(ctx.sensitivity)\n"
    )
    assert _report_uses({probe: text}) == {
        "vdi_report.models.boot.demand_curve": ["src/vdi_report/report/sections/_probe.py:5"],
        "vdi_report.models.sensitivity.ranking": ["src/vdi_report/report/sections/_probe.py:6"],
    }


@pytest.mark.parametrize("name", sorted(PURE))
def test_every_pure_name_is_a_models_function(name):
    assert inspect.isfunction(_resolve(name))
