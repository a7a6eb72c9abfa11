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


def test_the_layout_names_only_paths_that_exist():
    missing = [path for _, _, paths in readme.LAYOUT for path in paths if not (readme.config.PROJ_ROOT / path).exists()]
    assert missing == [], f"README layout (readme.LAYOUT) names paths that do not exist: {missing}"


def test_every_module_and_package_of_the_source_has_its_layout_line():
    src = readme.config.PROJ_ROOT / "src" / "vdi_report"
    named = {path for _, _, paths in readme.LAYOUT for path in paths}
    shown = {
        f"src/vdi_report/{p.name}"
        for p in src.iterdir()
        if not p.name.startswith(("_", "."))
        and (p.suffix in (".py", ".csv") or (p.is_dir() and p.name != "__pycache__"))
    }
    static = {f"src/vdi_report/static/{p.name}" for p in (src / "static").glob("*.js")}
    unnamed = sorted(p for p in (shown - {"src/vdi_report/static"}) | static if p not in named)
    assert unnamed == [], f"add a line to readme.LAYOUT for {unnamed}, then make readme"
