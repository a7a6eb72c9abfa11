"""Environment files agree, and notebooks are stored as reviewable diffs (no outputs, paired)."""

import re

import jupytext
import nbformat
import pytest
import yaml

from vdi_report import config


def _norm(name: str) -> str:
    return re.sub(r"[-_.]+", "-", name.lower())


def _lock_entries(path) -> dict[str, tuple[str, list[str]]]:
    """requirements-lock.txt as {name: (version, [sha256, ...])}."""
    entries, current = {}, None
    for line in path.read_text().splitlines():
        if m := re.match(r"^([A-Za-z0-9_.\-]+)==([^\s;\\]+)", line):
            current = _norm(m.group(1))
            entries[current] = (m.group(2), [])
        elif (h := re.search(r"--hash=sha256:([0-9a-f]{64})", line)) and current:
            entries[current][1].append(h.group(1))
    return entries


def _pyproject():
    import tomllib

    return tomllib.loads((config.PROJ_ROOT / "pyproject.toml").read_text())


def test_lock_pins_every_dependency_of_pyproject_with_hashes():
    """One source of pins: pyproject.toml's dependencies (and dev extra) resolved into the lock
    (make lock), every package pinned exactly and with at least one hash (pip checks them)."""
    from packaging.requirements import Requirement

    project = _pyproject()["project"]
    lock = _lock_entries(config.PROJ_ROOT / "requirements-lock.txt")
    assert len(lock) > 50
    for spec in [*project["dependencies"], *project["optional-dependencies"]["dev"]]:
        req = Requirement(spec)
        assert _norm(req.name) in lock, f"{req.name} is not in requirements-lock.txt: run make lock"
        assert req.specifier.contains(lock[_norm(req.name)][0]), f"{req.name}: lock outside {spec}: run make lock"
    assert all(hashes for _, hashes in lock.values()), "a package without a hash: run make lock"


def test_lab_lock_adds_jupyterlab_with_the_same_pins_and_the_build_has_none_of_it():
    """JupyterLab is the lab extra, locked in requirements-lab-lock.txt (make lock, under the build
    lock as constraints: every shared package has the same version and hashes) and installed only
    in .venv-lab: the build's lock has neither JupyterLab nor jsonschema's IRI grammar
    (rfc3987-syntax, seconds to import), and neither is importable in this environment."""
    import importlib.util

    from packaging.requirements import Requirement

    build = _lock_entries(config.PROJ_ROOT / "requirements-lock.txt")
    lab = _lock_entries(config.PROJ_ROOT / "requirements-lab-lock.txt")
    assert "make lock" in (config.PROJ_ROOT / "requirements-lab-lock.txt").read_text()
    lab_extra = _pyproject()["project"]["optional-dependencies"]["lab"]
    assert [Requirement(r).name for r in lab_extra] == ["jupyterlab"]
    for spec in [*_pyproject()["project"]["dependencies"], *lab_extra]:
        req = Requirement(spec)
        assert _norm(req.name) in lab, f"{req.name} is not in requirements-lab-lock.txt: run make lock"
        assert req.specifier.contains(lab[_norm(req.name)][0]), f"{req.name}: lab lock outside {spec}: run make lock"
    differ = {n: (build[n][0], lab[n][0]) for n in set(build) & set(lab) if build[n] != lab[n]}
    assert differ == {}, f"the two locks pin these differently: {differ}; run make lock"
    assert all(hashes for _, hashes in lab.values())
    for name in ("jupyterlab", "jupyter-server", "jupyter-events", "rfc3987-syntax"):
        assert name not in build and name in lab, name
    for module in ("jupyterlab", "rfc3987_syntax"):
        assert importlib.util.find_spec(module) is None, f"{module} in the build environment: run make venv"


def test_importing_the_package_imports_and_stubs_nothing_else():
    """No stand-in modules in sys.modules: importing vdi_report adds only vdi_report's own modules,
    and jsonschema (nbformat, papermill, altair) then imports its real format checkers."""
    import subprocess
    import sys

    code = (
        "import sys; before = set(sys.modules); import vdi_report; "
        "print(sorted(m for m in set(sys.modules) - before if m.split('.')[0] != 'vdi_report')); "
        "import jsonschema, nbformat; print(sys.modules.get('rfc3987_syntax'))"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert out.splitlines() == ["[]", "None"]


def test_environment_yml_installs_the_lock():
    """Conda gets Python and pip, and pip installs exactly requirements-lock.txt (no second list of pins)."""
    env = yaml.safe_load((config.PROJ_ROOT / "environment.yml").read_text())
    deps = env["dependencies"]
    assert "python=3.11" in deps
    pip = next(d["pip"] for d in deps if isinstance(d, dict))
    assert pip == ["-r requirements-lock.txt"]
    assert not [d for d in deps if isinstance(d, str) and "=" in d and not d.startswith("python=")]


def test_version_is_the_same_in_package_citation_and_changelog():
    import vdi_report

    cff = yaml.safe_load((config.PROJ_ROOT / "CITATION.cff").read_text())
    assert cff["version"] == vdi_report.__version__
    changelog = (config.PROJ_ROOT / "CHANGELOG.md").read_text()
    top = re.search(r"^## \[(\d+\.\d+\.\d+)\] - (\d{4}-\d{2}-\d{2})", changelog, re.MULTILINE)
    assert top and top.group(1) == vdi_report.__version__ and top.group(2) == str(cff["date-released"])
    assert _pyproject()["project"]["scripts"]["vdi-report"] == "vdi_report.cli:main"
    assert (config.PROJ_ROOT / "LICENSE").is_file() and (config.PROJ_ROOT / "DATA-LICENSE.md").is_file()


def test_zenodo_metadata_says_what_citation_cff_says():
    """.zenodo.json (the archive's metadata) names the same title, version, date, licence and
    keywords as CITATION.cff."""
    import json

    cff = yaml.safe_load((config.PROJ_ROOT / "CITATION.cff").read_text())
    zen = json.loads((config.PROJ_ROOT / ".zenodo.json").read_text(encoding="utf-8"))
    assert zen["title"] == cff["title"] and zen["version"] == cff["version"]
    assert zen["publication_date"] == str(cff["date-released"]) and zen["license"] == cff["license"]
    assert zen["keywords"] == cff["keywords"]
    assert [c["name"] for c in zen["creators"]] == [a["name"] for a in cff["authors"]]


def test_vdi_report_command_help_and_version():
    import subprocess
    import sys

    import vdi_report

    def run(*a):
        return subprocess.run([sys.executable, "-m", "vdi_report.cli", *a], capture_output=True, text=True)

    help_ = run("--help")
    assert help_.returncode == 0 and "validate" in help_.stdout and "DESKTOPS" in help_.stdout
    assert run("--version").stdout.strip() == f"vdi-report {vdi_report.__version__}"
    bad = run("check-params", "REPORT_DATE=2026-13-45")
    assert bad.returncode == 2 and "REPORT_DATE=2026-13-45" in bad.stderr and "Traceback" not in bad.stderr


NOTEBOOKS = sorted(config.NOTEBOOKS_DIR.glob("*.py"))


def test_every_notebook_is_a_stage_and_every_stage_notebook_exists():
    from vdi_report import stages

    declared = {s.notebook for s in stages.STAGES if s.notebook}
    assert {p.stem for p in NOTEBOOKS} == declared


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


def test_the_make_environment_holds_compiled_bytecode():
    """`make venv` installs with --compile-bytecode: uv writes no .pyc by default and a process
    run with PYTHONDONTWRITEBYTECODE=1 never writes one, so every Python step of the build would
    compile pandas, scipy, altair and statsmodels from source again (11 s of imports instead of
    3 s on the 2-core machine)."""
    import importlib.util
    import sys
    from pathlib import Path

    venv = (config.PROJ_ROOT / ".venv").resolve()
    if Path(sys.prefix).resolve() != venv:
        pytest.skip("the tests run in an environment `make` did not create (VDI_PYTHON or conda)")
    import pandas
    import scipy.stats
    import statsmodels.api

    for mod in (pandas, scipy.stats, statsmodels.api):
        cached = Path(importlib.util.cache_from_source(mod.__file__))
        assert cached.exists(), f"{mod.__name__}: no compiled bytecode at {cached} (install with --compile-bytecode)"
