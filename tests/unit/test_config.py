"""The vocabulary as the only list (issue 27): the phase, worker-class, era and clone-type lists are
derived from ``data/raw/vocabulary.csv`` in ``config`` and declared nowhere else in ``src/``; the
JavaScript twins read theirs from ``sizing_inputs.json``."""

import re
from pathlib import Path

import pytest

from vdi_report import config
from vdi_report.raw import validate

pytestmark = pytest.mark.unit

SRC = Path(config.__file__).resolve().parent
# Every list config derives from the vocabulary, and the names the modules used to declare themselves.
LIST_NAMES = (
    "PHASES",
    "SCENARIO_PHASES",
    "USER_PHASES",
    "SCENARIO_USER_PHASES",
    "CONTEXT_PHASES",
    "NON_TEST_PHASES",
    "LOGIN_PHASES",
    "DAY_PHASES",
    "COUNT_PHASES",
    "PHASE_ORDER",
    "WORKER_CLASSES",
    "LOGIN_VSI_CLASSES",
    "ERAS",
    "CLONE_TYPES",
    "SCENARIO_CLONE_TYPES",
    "BOUND_SIGNS",
)


def _declarations(text: str) -> list[str]:
    """The upper-case names a Python text assigns at the start of a line (tuple assignments too)."""
    out = []
    for m in re.finditer(r"^\s*((?:[A-Z_][A-Z0-9_]*\s*,\s*)*[A-Z_][A-Z0-9_]*)\s*(?::[^=\n]*)?=(?!=)", text, re.M):
        out += [n.strip() for n in m.group(1).split(",")]
    return out


def test_declarations_finds_a_redeclared_list():
    # the scan itself: a model module that re-adds a list is caught, a comparison is not
    text = 'PHASES = ("boot", "login", "steady_state")\nX, ERAS = 1, 2\n    USER_PHASES: tuple = ()\nif a == b:\n'
    assert _declarations(text) == ["PHASES", "X", "ERAS", "USER_PHASES"]


def test_each_vocabulary_list_is_declared_once_in_config():
    where = {}
    for path in sorted(SRC.rglob("*.py")):
        for name in _declarations(path.read_text(encoding="utf-8")):
            if name in LIST_NAMES:
                where.setdefault(name, []).append(str(path.relative_to(SRC)))
    twice = {n: w for n, w in where.items() if w != ["config.py"]}
    assert not twice, f"declare these lists only in config.py (derived from vocabulary.csv): {twice}"


def test_javascript_twins_declare_no_vocabulary_list():
    for path in sorted((SRC / "static").glob("*.js")):
        text = path.read_text(encoding="utf-8")
        found = re.findall(r"\bvar\s+(PHASES|USER_PHASES|WORKER_CLASSES|ERAS|CLONE_TYPES)\s*=\s*\[", text)
        assert not found, f"{path.name}: {found} typed as literals; read them from inputs.lists (sizing_inputs.json)"


def test_lists_follow_the_vocabulary():
    assert config.SCENARIO_PHASES == ("boot", "login", "steady_state")
    assert config.USER_PHASES == ("login", "login_and_steady_state", "steady_state")
    assert config.SCENARIO_USER_PHASES == ("login", "steady_state")
    assert config.CONTEXT_PHASES == ("overall", "testbed", "capacity", "cost", "sizing")
    assert config.DAY_PHASES == ("boot", "login", "login_and_steady_state", "steady_state", "overall")
    assert config.COUNT_PHASES == ("login", "login_and_steady_state", "steady_state", "overall")
    assert config.LOGIN_VSI_CLASSES == ("task", "office", "knowledge", "power")
    assert config.ERAS == ("seed", "modern")
    assert set(config.SCENARIO_CLONE_TYPES) == {"full", "linked"}
    assert "full_run" in config.PHASE_ORDER and "overall" not in config.PHASE_ORDER


def test_every_phase_has_a_declared_kind():
    for v in config.PHASES:
        assert config.kinds("phase", v), f"phase {v!r} has no kind in vocabulary.csv"
        assert config.kinds("phase", v) <= set(config.PHASE_KINDS)


def test_a_kind_the_field_does_not_declare_is_named(tmp_path):
    text = (config.RAW_DIR / "vocabulary.csv").read_text(encoding="utf-8").splitlines()
    i = next(n for n, line in enumerate(text) if line.startswith("phase,boot,"))
    text[i] = text[i].removesuffix(",scenario") + ",scenario storm"
    (tmp_path / "vocabulary.csv").write_text("\n".join(text) + "\n", encoding="utf-8")
    problems = validate.check_vocabulary(tmp_path)
    assert problems == [
        f"{tmp_path / 'vocabulary.csv'}: line {i + 1}: column 'kind' = 'storm': not a kind of field 'phase'; "
        f"expected {', '.join(config.PHASE_KINDS)}"
    ]


def test_no_module_types_a_vocabulary_list_as_a_literal():
    # the lists' values typed out in order are a second declaration under another name
    lists = (config.SCENARIO_PHASES, config.SCENARIO_USER_PHASES, config.ERAS, config.LOGIN_VSI_CLASSES)
    patterns = [
        re.compile(r"[(\[]\s*" + r"\s*,\s*".join(f"[\"']{v}[\"']" for v in values) + r"\s*,?\s*[)\]]")
        for values in lists
    ]
    found = []
    for path in sorted([*SRC.rglob("*.py"), *(SRC / "static").glob("*.js")]):
        text = path.read_text(encoding="utf-8")
        found += [f"{path.relative_to(SRC)}: {m.group(0)}" for p in patterns for m in p.finditer(text)]
    assert not found, f"typed vocabulary lists (use config's): {found}"
