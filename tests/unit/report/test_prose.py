"""Report prose carries numbers only through placeholders filled from data.

Every template a report section passes to ``say``/``block`` and every caption it passes to
``table``/``figure`` is read from the section's source (AST): a digit there is a number typed
by hand, and fails the test with the file and line.
"""

import ast
import re
from pathlib import Path

import pytest

from vdi_report.report import sections as sections_pkg
from vdi_report.report import show

SECTIONS_DIR = Path(sections_pkg.__file__).parent

PROSE_CALLS = {"say": 0, "block": 0, "table": 1, "figure": 1, "html_only": 1, "fill": 0}

DIGIT = re.compile(r"\d")

# Not numbers: code spans (file and notebook names such as `04_iops_model`) and the name SHA-256.
NOT_A_NUMBER = re.compile(r"`[^`]*`|SHA-256")


def _constant_text(node: ast.AST) -> list[tuple[str, int]]:
    """String pieces of a template argument: a constant, the constant parts of an f-string, or
    the parts of an implicit concatenation."""
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        return [(node.value, node.lineno)]
    if isinstance(node, ast.JoinedStr):
        return [(v.value, node.lineno) for v in node.values if isinstance(v, ast.Constant)]
    if isinstance(node, ast.BinOp):
        return _constant_text(node.left) + _constant_text(node.right)
    return []


def prose_with_digits(path: Path) -> list[str]:
    """``file:line: text`` for every prose template or caption in ``path`` containing a digit."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    bad = []
    for node in ast.walk(tree):
        if not isinstance(node, ast.Call):
            continue
        name = node.func.id if isinstance(node.func, ast.Name) else getattr(node.func, "attr", None)
        if name not in PROSE_CALLS or len(node.args) <= PROSE_CALLS[name]:
            continue
        for text, line in _constant_text(node.args[PROSE_CALLS[name]]):
            if DIGIT.search(NOT_A_NUMBER.sub("", text)):
                bad.append(f"{path.name}:{line}: {text.strip()[:80]!r}")
    return bad


SECTION_FILES = sorted(p for p in SECTIONS_DIR.glob("*.py") if p.name != "__init__.py")


def test_every_chapter_has_a_section_module():
    names = {p.stem for p in SECTION_FILES}
    from vdi_report.report.sections import SECTION_ORDER

    assert set(SECTION_ORDER) <= names


@pytest.mark.parametrize("path", SECTION_FILES, ids=lambda p: p.name)
def test_section_prose_has_no_typed_number(path):
    assert prose_with_digits(path) == []


def test_the_check_catches_a_typed_number(tmp_path):
    f = tmp_path / "bad_section.py"
    f.write_text(
        'say("The array carried 1,500 desktops (`04_iops_model`, SHA-256).")\n'
        'table(df, "Table 3. Results", "k")\n'
        'say("{n} desktops", n=x)\n',
        encoding="utf-8",
    )
    bad = prose_with_digits(f)
    assert len(bad) == 2 and "bad_section.py:1" in bad[0] and "bad_section.py:2" in bad[1]


def test_fill_requires_every_placeholder_and_uses_every_value():
    assert show.fill("{n} desktops", n="1,500") == "1,500 desktops"
    with pytest.raises(KeyError, match="n"):
        show.fill("{n} desktops")
    with pytest.raises(ValueError, match="unused"):
        show.fill("desktops", unused=3)
