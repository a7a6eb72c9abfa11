"""The stage list: consistent with the catalogue, precise code dependencies, safe parallel rules."""

import os
import re
import subprocess
from pathlib import Path

import pytest

from vdi_report import catalogue, config, stages


def _deps(name):
    return {p.relative_to(config.PROJ_ROOT).as_posix() for p in stages.code_dependencies(stages.stage(name))}


def test_stages_and_catalogue_agree():
    """Each table read is written by an earlier stage, each table by one stage (the catalogue's),
    and every catalogued table is read by some stage (a table nobody reads is not written)."""
    assert stages.problems() == []


def test_no_two_stages_write_the_same_file():
    outs = [o for s in stages.STAGES for o in [stages.table_files(t) for t in s.writes] + list(s.outputs)]
    assert len(outs) == len(set(outs))


def test_code_dependencies_follow_imports_transitively():
    combine = _deps("combine")
    assert "notebooks/02_combine.py" in combine
    assert {"src/vdi_report/transform/normalize.py", "src/vdi_report/catalogue.py"} <= combine
    # normalize imports units (pint) through sources: found although the notebook never names it
    assert "src/vdi_report/raw/units.py" in _deps("normalize")


def test_a_report_only_module_reruns_only_the_report():
    report_only = _deps("report") - set().union(*(_deps(s.name) for s in stages.STAGES if s.name != "report"))
    assert {"src/vdi_report/report/formatting.py", "src/vdi_report/report/show.py"} <= report_only
    for s in stages.STAGES:
        if s.name != "report" and s.module != "vdi_report.publish.render":
            assert "src/vdi_report/report/show.py" not in _deps(s.name), s.name
            assert "src/vdi_report/publish/render.py" not in _deps(s.name), s.name


def test_the_report_does_not_depend_on_the_benchmark_or_the_cli():
    """stages.py imports its parameters' check functions by name: only those modules count."""
    deps = _deps("report")
    assert "src/vdi_report/bench.py" not in deps and "src/vdi_report/cli.py" not in deps
    assert "src/vdi_report/models/cost.py" in deps  # COST_FILE's check


def test_generated_rules_run_each_stage_once_and_pass_every_parameter():
    rules = stages.make_rules()
    for s in stages.STAGES:
        if s.exists:  # one recipe run per stage (make -j); its outputs follow its done-stamp
            assert f"{stages.done_stamp(s)}: $(STAGE_{s.name.upper()}_IN)" in rules
            assert f"$(STAGE_{s.name.upper()}_OUT): {stages.done_stamp(s)} ;" in rules
    line = re.search(r"^PARAMS_LINE_SH = (.*)$", rules, re.MULTILINE).group(1)
    for p in stages.PARAMETERS:  # read by the recipe's shell from the environment
        assert f"{p.name}=$${p.var}" in line, p.var
        if p.path:  # a file enters by its path and its content's hash
            assert f'{p.name}_sha256=$(call sha256_of,"$${p.var}")' in line
    report_in = re.search(r"^STAGE_REPORT_IN := (.*)$", rules, re.MULTILINE).group(1)
    assert "$(PARAMS_STAMP)" in report_in
    for p in stages.PARAMETERS:
        assert f"-p {p.name} " in rules


def test_every_table_a_stage_reads_is_a_build_target():
    rules = stages.make_rules()
    targets = re.search(r"^DATA_TABLES := (.*)$", rules, re.MULTILINE).group(1).split()
    for s in stages.STAGES:
        for t in s.reads:
            assert f"$(STAGE_{stages.writer(t).name.upper()}_OUT)" in targets


def test_make_help_lists_the_main_targets():
    out = subprocess.run(
        ["make", "-s", "help"], cwd=config.PROJ_ROOT, capture_output=True, text=True, check=True
    ).stdout
    for target in ("report", "test", "data", "lab", "clean", "bench", "check-params"):
        assert re.search(rf"make {target}\s", out), target


def test_cost_file_content_enters_the_parameter_stamp(tmp_path, copy_project, make_in):
    """Two cost files with the same name and different content give different stamps."""
    root = copy_project(tmp_path / "p", "data/raw")
    stamps = []
    for price in ("100", "200"):
        cost = tmp_path / price / "cost_assumptions.csv"
        cost.parent.mkdir()
        cost.write_text(f"x,{price}\n")
        make_in(root, "build/cost.stamp", f"COST_FILE={cost}")
        stamps.append((root / "build/cost.stamp").read_text().strip())
    assert stamps[0] != stamps[1] and all(len(s) == 64 for s in stamps)


@pytest.mark.parametrize("name", list(catalogue.TABLES))
def test_every_table_has_a_writer(name):
    assert stages.writer(name).name == catalogue.table(name).stage


def test_modules_imported_at_run_time_count_as_dependencies(tmp_path, monkeypatch):
    """A package that discovers its modules (importlib/pkgutil) depends on all of them."""
    pkg = tmp_path / "src" / "vdi_report" / "plugins"
    pkg.mkdir(parents=True)
    (tmp_path / "src" / "vdi_report" / "__init__.py").write_text("")
    (pkg / "__init__.py").write_text(
        "import importlib, pkgutil\n"
        "for m in pkgutil.iter_modules(__path__):\n"
        "    importlib.import_module(f'{__name__}.{m.name}')\n"
    )
    (pkg / "alpha.py").write_text("x = 1\n")
    (tmp_path / "nb.py").write_text("from vdi_report import plugins\n")
    monkeypatch.setattr(stages, "SRC_DIR", tmp_path / "src")
    found = stages._imports(tmp_path / "nb.py", None)
    assert "vdi_report.plugins" in found
    assert "vdi_report.plugins.alpha" in stages._imports(pkg / "__init__.py", "vdi_report.plugins")


def _notebook_parameters(path) -> dict:
    """{name: default} of the notebook's parameters cell (the assignments after its tag line)."""
    import ast

    text = path.read_text(encoding="utf-8")
    cell = text.split('# %% tags=["parameters"]', 1)[1].split("# %%", 1)[0]
    return {n.targets[0].id: ast.literal_eval(n.value) for n in ast.parse(cell).body if isinstance(n, ast.Assign)}


def _notebook_parameter_values(path) -> dict:
    """The globals the notebook's parameters cell leaves (it runs as written, without papermill)."""
    text = path.read_text(encoding="utf-8")
    cell = text.split('# %% tags=["parameters"]', 1)[1].split("# %%", 1)[0]
    scope: dict = {}
    exec(compile(cell, str(path), "exec"), scope)
    return {k: v for k, v in scope.items() if not k.startswith("__") and k != "parameters"}


def test_each_parameter_is_declared_once_and_everything_else_follows():
    """PARAMETERS is the one declaration: the report notebook's parameters cell types none of them
    but sets exactly those names (with the same defaults, file parameters empty), the README's
    table and `make help`'s list are generated from it."""
    declared = {p.name: p for p in stages.PARAMETERS}
    assert _notebook_parameters(config.NOTEBOOKS_DIR / "10_report.py") == {}, "the cell types no parameter"
    cell = _notebook_parameter_values(config.NOTEBOOKS_DIR / "10_report.py")
    assert set(cell) == set(declared)
    for name, value in cell.items():
        p = declared[name]
        assert str(value) == ("" if p.path else p.default), name
    readme = (config.PROJ_ROOT / "README.md").read_text(encoding="utf-8")
    block = readme.split("<!-- parameters:begin -->\n", 1)[1].split("<!-- parameters:end -->", 1)[0]
    assert block == stages.parameters_markdown(), "README parameters: run make readme"
    makefile = (config.PROJ_ROOT / "Makefile").read_text(encoding="utf-8")
    assert not any(f"{p.var} " in makefile for p in stages.PARAMETERS if p.var not in ("COST_FILE", "CHOICES"))
    out = subprocess.run(["make", "-s", "help"], cwd=config.PROJ_ROOT, capture_output=True, text=True, check=True)
    listed = re.findall(r"^  ([A-Z][A-Z_]+)  ", out.stdout.split("Report parameters", 1)[1], re.MULTILINE)
    assert listed == [p.var for p in stages.PARAMETERS]
    example = re.search(r"e\.g\. make report (.*)", out.stdout).group(1)
    assert {a.split("=")[0] for a in example.split()} <= {p.var for p in stages.PARAMETERS}


def _make_n(*args: str, user: str | None = None, cwd=config.PROJ_ROOT, env=None) -> str:
    cmd = ["make", "-n", "-o", ".venv/.installed", *args]
    if user:
        cmd = ["setpriv", f"--reuid={user}", f"--regid={user}", "--clear-groups", *cmd]
    return subprocess.run(cmd, cwd=cwd, capture_output=True, text=True, check=True, env=env).stdout


def test_an_empty_report_date_is_the_day_of_the_build_in_the_stamp():
    """REPORT_DATE empty (or left out) means the day the build runs: that date is what the report
    notebook gets, what is checked and what the stamp records (not an empty value)."""
    import datetime

    # REPORT_DATE left out of the environment too: `make test` exports the date its own run began
    # with, which a test running after midnight must not read as "the day of the build"
    env = {k: v for k, v in os.environ.items() if k != "REPORT_DATE"}
    days = {datetime.date.today().isoformat()}
    for args in ([], ["REPORT_DATE="], ["REPORT_DATE= "]):
        out = _make_n("-p", "stages", *args, env=env)
        days.add(datetime.date.today().isoformat())  # midnight may fall in between
        # the effective value, exported to the recipes (the stamp line and the notebook read $REPORT_DATE)
        stamped = re.search(r"^REPORT_DATE := (.*)$", out, re.MULTILINE).group(1)
        assert stamped in days, (args, stamped)
    given = _make_n("-p", "stages", "REPORT_DATE=2026-01-31")
    assert re.search(r"^REPORT_DATE := 2026-01-31$", given, re.MULTILINE)
    assert "report_date=$$REPORT_DATE " in stages.make_rules()


def test_every_stamp_and_generated_file_is_written_atomically():
    """A recipe that writes a file under build/ (stamps, stages.mk) or its target ($@) writes a
    temporary file and renames it: a killed or concurrent write never leaves half a file."""
    text = (config.PROJ_ROOT / "Makefile").read_text(encoding="utf-8")
    text += stages.make_rules()
    bad = []
    for line in text.replace("\\\n", " ").splitlines():
        if not line.startswith("\t") and " = " not in line:
            continue
        for m in re.finditer(r"(?<![0-9&>])>>?\s*(\"?[^\s;|&)]+)", line):
            target = m.group(1).strip('"')
            if target.startswith(("/dev/", "&")) or ".tmp" in target:
                continue
            if target.startswith(("build/", "$@", "$(STAMP)", "$(PARAMS_STAMP)", "$(STAGES_MK)")):
                bad.append(line.strip())
    assert bad == [], "write these through a temporary file and mv (write_atomic):\n" + "\n".join(bad)


def test_make_lab_runs_jupyterlab_from_its_own_environment_allowing_root_only_as_root():
    """`make lab` uses .venv-lab (the lab extra), never the build's .venv; JupyterLab refuses to run
    as root without --allow-root, and a user must not get it."""
    import os

    as_me = _make_n("lab")
    assert ".venv-lab/bin/jupyter lab" in as_me and ".venv/bin/jupyter" not in as_me
    assert ("--allow-root" in as_me) == (os.getuid() == 0)
    if os.getuid() == 0:  # as an ordinary user too (setpriv, util-linux)
        import shutil

        if not shutil.which("setpriv"):
            pytest.skip("setpriv not installed: cannot run make as another user")
        import tempfile

        # the project may sit where another user cannot read (a 0700 temporary clone): the
        # Makefile alone, in a folder anyone can read, is enough for `make -n lab`
        with tempfile.TemporaryDirectory(dir="/tmp") as d:
            os.chmod(d, 0o755)
            shutil.copy(config.PROJ_ROOT / "Makefile", d)
            os.chmod(Path(d) / "Makefile", 0o644)
            as_user = _make_n("lab", user="65534", cwd=d)
        assert ".venv-lab/bin/jupyter lab" in as_user and "--allow-root" not in as_user


@pytest.mark.parametrize(
    ("var", "value"),
    [("CONCURRENCY", "1.5"), ("HEADROOM", "1"), ("DESKTOPS", "0"), ("BOOT_WINDOW", "-3"), ("LOGIN_WINDOW", "x")],
)
def test_a_bad_scenario_parameter_is_named_as_itself(var, value):
    """The message names the parameter that is wrong, not another whose name it mentions in passing
    (CONCURRENCY's message speaks of "desktops active at once")."""
    problems = stages.check_parameters({var: value})
    assert len(problems) == 1 and problems[0].startswith(f"{var}={value}: "), problems


def test_touched_but_unchanged_inputs_and_outputs_rerun_nothing(tmp_path):
    """The generated rules' two devices, run by make in a toy project: a raw file touched but
    unchanged re-runs no stage (its content stamp keeps its time), and a stage whose output kept
    its bytes (files.write_* leave such a file alone) re-runs no later stage."""
    import os
    import time

    rules = stages.make_rules()
    content_rule = re.search(r"^build/content/%: %\n\t.*$", rules, re.MULTILINE).group(0)
    # stage a copies the raw file's first line (unchanged bytes: not rewritten); b counts its runs
    toy = f"""SHELL := /bin/bash
.PHONY: FORCE
{content_rule}
A_OUT := a.txt
$(A_OUT): build/stamps/a.done ;
build/stamps/a.done: build/content/raw.csv $(if $(filter-out $(wildcard $(A_OUT)),$(A_OUT)),FORCE)
\t@echo a >> runs; head -1 raw.csv | cmp -s - a.txt || head -1 raw.csv > a.txt
\t@mkdir -p build/stamps && : > $@.tmp.$$$$ && mv -f $@.tmp.$$$$ $@
b.txt: a.txt
\t@echo b >> runs; cp a.txt b.txt
"""
    (tmp_path / "Makefile").write_text(toy)
    raw = tmp_path / "raw.csv"
    raw.write_text("x,1\ny,2\n")

    def make() -> list[str]:
        (tmp_path / "runs").write_text("")
        subprocess.run(["make", "-s", "b.txt"], cwd=tmp_path, check=True, capture_output=True)
        return (tmp_path / "runs").read_text().split()

    def later(path) -> None:  # a time past every file's (file systems keep coarse times)
        t = time.time() + 2
        os.utime(path, (t, t))

    assert make() == ["a", "b"]
    assert make() == []  # no-op
    later(raw)
    assert make() == []  # touched, same bytes: nothing re-runs
    raw.write_text("x,1\ny,3\n")
    later(raw)
    assert make() == ["a"]  # changed, but the line stage a keeps did not: b does not re-run
    raw.write_text("x,5\ny,3\n")
    later(raw)
    assert make() == ["a", "b"]
    (tmp_path / "a.txt").unlink()
    assert make() == ["a", "b"]  # a missing output re-runs its stage


def test_the_report_recipe_runs_the_scenario_and_data_package_while_its_kernel_starts():
    """The report's rule runs its ``while_starting`` stages itself (piped into execute --wait-go),
    so it takes their inputs, not their outputs (which it makes); a later stage reaches those
    outputs through the report's done-stamp (publish), never by starting their own rule beside
    the report's recipe; their own rules stay for ``make data``."""
    rules = stages.make_rules()
    report = stages.stage("report")
    assert report.while_starting == ("scenario", "datapackage")
    report_in = re.search(r"^STAGE_REPORT_IN := (.*)$", rules, re.MULTILINE).group(1).split()
    scenario_in = re.search(r"^STAGE_SCENARIO_IN := (.*)$", rules, re.MULTILINE).group(1).split()
    made = {"data/processed/sizing_scenario.csv", "data/processed/datapackage.json", "$(STAGED)/sizing_scenario.csv"}
    assert not made & set(report_in)
    assert set(scenario_in) - {"data/processed/sizing_scenario.csv"} <= set(report_in)  # e.g. iops_per_desktop_model
    recipe = next(line for line in rules.splitlines() if stages.WAIT_GO in line)
    first, run = recipe.split(" | ", 1)
    assert "set -o pipefail" in first and first.index("scenario_stage") < first.index("vdi_report.datapackage")
    assert first.rstrip().endswith("echo go; }") and run.startswith("VDI_STAGE=report ")
    for sub in ("scenario", "datapackage"):  # each one's done-stamp made once it succeeded
        assert f"mv -f build/stamps/{sub}.done.tmp.$$$$ build/stamps/{sub}.done" in first
        assert f"build/stamps/{sub}.done: $(STAGE_{sub.upper()}_IN)" in rules  # its own rule (make data)
    publish_in = re.search(r"^STAGE_PUBLISH_IN := (.*)$", rules, re.MULTILINE).group(1).split()
    assert "build/stamps/report.done" in publish_in and "$(STAGED)/sizing_scenario.csv" not in publish_in
