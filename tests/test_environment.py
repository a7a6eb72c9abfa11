"""Environment files agree, and notebooks are stored as reviewable diffs (no outputs, paired)."""

import re

import jupytext
import nbformat
import pytest
import yaml

from vdi_report import config


def _pip_pins(path):
    pins = {}
    for line in path.read_text().splitlines():
        line = line.split("#")[0].strip()
        if line:
            name, version = line.split("==")
            pins[re.sub(r"[-_.]+", "-", name.lower())] = version
    return pins


def test_environment_yml_matches_requirements():
    env = yaml.safe_load((config.PROJ_ROOT / "environment.yml").read_text())
    conda = {}
    for dep in env["dependencies"]:
        if isinstance(dep, str) and "=" in dep and not dep.startswith("python="):
            name, version = dep.split("=", 1)
            conda[name.lower()] = version
    assert conda == _pip_pins(config.PROJ_ROOT / "requirements.txt")


def test_lock_file_pins_the_direct_dependencies_at_the_same_versions():
    direct = _pip_pins(config.PROJ_ROOT / "requirements.txt")
    lock = _pip_pins(config.PROJ_ROOT / "requirements-lock.txt")
    assert {k: lock.get(k) for k in direct} == direct


NOTEBOOKS = sorted(config.NOTEBOOKS_DIR.glob("*.py"))


def test_there_are_notebooks():
    assert len(NOTEBOOKS) >= 3


@pytest.mark.parametrize("py", NOTEBOOKS, ids=lambda p: p.name)
def test_notebook_paired_and_stripped(py):
    ipynb = py.with_suffix(".ipynb")
    assert ipynb.exists(), f"{ipynb.name} missing: run make sync-notebooks"
    nb = nbformat.read(ipynb, as_version=4)
    assert all(not c.get("outputs") for c in nb.cells if c.cell_type == "code"), f"{ipynb.name} has outputs"
    text = jupytext.read(py)
    assert [c.source for c in nb.cells] == [c.source for c in text.cells], (
        f"{ipynb.name} and {py.name} differ: run make sync-notebooks"
    )
    params = [c for c in text.cells if "parameters" in c.metadata.get("tags", [])]
    assert len(params) <= 1
