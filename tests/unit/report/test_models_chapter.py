"""The Models chapter stays split: one function per subsection, none over 60 lines (issue 27)."""

import ast
from pathlib import Path

import pytest

import vdi_report.report.sections.models as models_section

pytestmark = pytest.mark.unit

MAX_LINES = 60  # issue 27: "the Models chapter has no function over 60 lines"


def function_lengths(source: str) -> dict[str, int]:
    """Every function (nested ones too) of ``source`` with its length in lines, decorators
    included, keyed ``name:line``."""
    lengths = {}
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
            first = min([node.lineno, *(d.lineno for d in node.decorator_list)])
            lengths[f"{node.name}:{node.lineno}"] = node.end_lineno - first + 1
    return lengths


def test_no_function_of_the_models_chapter_is_over_sixty_lines():
    lengths = function_lengths(Path(models_section.__file__).read_text(encoding="utf-8"))
    assert lengths, "no function found: the parse is not reading the chapter"
    too_long = {name: n for name, n in lengths.items() if n > MAX_LINES}
    assert not too_long, f"functions over {MAX_LINES} lines in report/sections/models.py: {too_long}"


def test_the_length_check_catches_a_long_function():
    body = "\n".join(f"    x{i} = {i}" for i in range(MAX_LINES))
    lengths = function_lengths(f"@staticmethod\ndef long():\n{body}\n\n\ndef short():\n    pass\n")
    assert lengths == {"long:2": MAX_LINES + 2, f"short:{MAX_LINES + 5}": 2}
