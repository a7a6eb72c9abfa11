"""The README's generated blocks (``vdi_report.readme``): each equals its generator's output, and
a stale or missing block is caught."""

import pytest

from vdi_report import readme

pytestmark = pytest.mark.unit


def test_every_generated_block_of_the_readme_is_current():
    text = readme.README.read_text(encoding="utf-8")
    assert readme.stale(text) == [], "run make readme"
    assert readme.rendered(text) == text


def test_a_stale_block_is_found_and_rewritten():
    text = readme.README.read_text(encoding="utf-8")
    name = next(iter(readme.BLOCKS))
    old = readme.block(text, name)
    edited = text.replace(old, old + "| `EXTRA` | (hand-typed) | not declared |\n", 1)
    assert readme.stale(edited) == [name]
    assert readme.rendered(edited) == text


def test_missing_markers_name_the_markers():
    with pytest.raises(ValueError, match="<!-- parameters:begin --> ... <!-- parameters:end -->"):
        readme.block("no markers here", "parameters")
