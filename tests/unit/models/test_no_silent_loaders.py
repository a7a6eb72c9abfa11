"""A step reads only what it declares (issue 27, item 5): model functions take sources.csv and the
test set-up as arguments; only the stage entry points read them (``ALLOWED``)."""

import ast
from pathlib import Path

import pandas as pd
import pytest

import vdi_report.models
from vdi_report.models import boot, era, iops, scenario, semantics, sensitivity, verdicts
from vdi_report.raw import sources, test_setup

MODELS_DIR = Path(vdi_report.models.__file__).parent
LOADERS = ("load_sources", "load_test_setup", "setup_wide")  # the raw readers of sources.csv and test_setup.csv

# (module under models/, enclosing function, loader) -> why it may read the raw file itself
ALLOWED = {
    ("scenario_stage.py", "run", "load_sources"): "the scenario stage's entry point (cli/make): loads once, passes on",
    ("sensitivity.py", "sensitivity", "load_sources"): "the sensitivity stage's entry point: one read for the grid",
    ("cost.py", "check_cost_file", "load_sources"): "COST_FILE parameter check, run alone by make (check(path))",
    ("era.py", "_setup", "setup_wide"): "test_setup.csv, cached per file version; threading it through era deferred",
    ("boot.py", "boot_storms", "setup_wide"): "test_setup.csv provisioning, cached per file version; deferred",
}


def loader_calls(text: str, module: str) -> set[tuple[str, str, str]]:
    """(module, enclosing function or ``<module>``, loader) of every call of a ``LOADERS`` name in
    the source ``text``, by syntax tree (a docstring naming a loader is no call)."""
    found = set()

    def visit(node, where):
        for child in ast.iter_child_nodes(node):
            if isinstance(child, ast.Call):
                f = child.func
                name = f.attr if isinstance(f, ast.Attribute) else f.id if isinstance(f, ast.Name) else ""
                if name in LOADERS:
                    found.add((module, where, name))
            visit(child, child.name if isinstance(child, (ast.FunctionDef, ast.AsyncFunctionDef)) else where)

    visit(ast.parse(text), "<module>")
    return found


def test_model_modules_load_raw_inputs_only_in_the_allowed_entry_points():
    found = set()
    for path in sorted(MODELS_DIR.rglob("*.py")):
        found |= loader_calls(path.read_text(encoding="utf-8"), path.relative_to(MODELS_DIR).as_posix())
    unexpected = sorted(found - set(ALLOWED))
    assert not unexpected, (
        "model functions that read a raw input themselves (take it as an argument, or allow-list "
        f"a stage entry point with its reason): {unexpected}"
    )
    stale = sorted(set(ALLOWED) - found)
    assert not stale, f"allow-list entries with no such call left (remove them): {stale}"
    assert all(reason.strip() for reason in ALLOWED.values())


def test_the_scan_finds_a_planted_loader_in_a_nested_function():
    text = "from x import sources\ndef outer():\n    def inner():\n        return sources.load_sources()\n"
    assert loader_calls(text, "m.py") == {("m.py", "inner", "load_sources")}
    assert loader_calls('"""load_sources() in prose"""\nload_test_setup()\n', "m.py") == {
        ("m.py", "<module>", "load_test_setup")
    }


@pytest.mark.parametrize(
    "call, name",
    [
        (lambda: semantics.observation_semantics(pd.DataFrame(), None), "semantics.observation_semantics"),
        (lambda: iops.candidate_records(pd.DataFrame(), None), "iops.candidate_records"),
        (lambda: iops.observation_context(pd.DataFrame(), pd.DataFrame(), None), "iops.observation_context"),
        (lambda: boot.boot_storms(pd.DataFrame(), None), "boot.boot_storms"),
        (lambda: scenario.io_characteristics(pd.DataFrame(), pd.DataFrame(), None), "scenario.io_characteristics"),
        (lambda: era.login_windows(pd.DataFrame(), None), "semantics.observation_semantics"),
        (lambda: era.external_evidence(pd.DataFrame(), pd.DataFrame(), None), "era.external_evidence"),
        (lambda: sensitivity.planning_under(pd.DataFrame()), "sensitivity.planning_under"),
        (lambda: sensitivity.model_tables(pd.DataFrame()), "sensitivity.model_tables"),
    ],
)
def test_a_model_function_without_sources_df_says_what_to_pass(call, name):
    with pytest.raises(TypeError, match=rf"{name}: pass sources_df=vdi_report\.raw\.sources\.load_sources\(\)"):
        call()


@pytest.mark.parametrize(
    "call, name",
    [
        (lambda: verdicts.arrays(pd.DataFrame(), pd.DataFrame()), "verdicts.arrays"),
        (lambda: verdicts.memory_lines(pd.DataFrame(), pd.DataFrame(), None), "verdicts.memory_lines"),
        (lambda: verdicts.capacity(pd.DataFrame(), pd.DataFrame(), None), "verdicts.capacity"),
    ],
)
def test_a_verdict_without_the_test_setup_says_what_to_pass(call, name):
    with pytest.raises(TypeError, match=rf"{name}: pass setup_wide=vdi_report\.raw\.test_setup\.setup_wide\(\)"):
        call()


def test_required_returns_the_table_it_is_given():
    s = pd.DataFrame({"source_id": ["a"]})
    assert sources.required(s, "x") is s and test_setup.required(s, "x") is s
