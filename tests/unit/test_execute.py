"""execute.py: a notebook stage is all or nothing (its tables put back when it fails or is
stopped), its kernel talks over IPC (no TCP port, no transport warning), its file parameters
arrive as arguments and are made absolute (issue 28)."""

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from vdi_report import config, execute


@pytest.fixture
def fake_processed(tmp_path, monkeypatch) -> Path:
    """A stand-in data/fake_processed holding two tables of the model stage and two normalized sources."""
    d = tmp_path / "fake_processed"
    (d / "normalized").mkdir(parents=True)
    for rel, text in {
        "iops_model_observations.csv": "a\n1\n",
        "iops_model_exclusions.csv": "b\n2\n",
        "normalized/one.csv": "c\n3\n",
        "results.csv": "other stage\n",
    }.items():
        (d / rel).write_text(text)
        os.utime(d / rel, ns=(10**18, 10**18))
    monkeypatch.setattr(config, "PROCESSED_DIR", d)
    return d


def _state(d: Path) -> dict:
    return {str(p.relative_to(d)): (p.read_bytes(), p.stat().st_mtime_ns) for p in sorted(d.rglob("*")) if p.is_file()}


@pytest.mark.parametrize("notebook", ["04_iops_model", "01_normalize_source"])
def test_a_failed_stage_puts_its_tables_back_byte_for_byte(fake_processed, tmp_path, notebook):
    before = _state(fake_processed)
    rollback = tmp_path / "rollback"
    execute.keep_aside(notebook, rollback)
    # the stage rewrites its tables (atomically: a new file renamed over the old) and adds one
    for rel in ("iops_model_exclusions.csv", "normalized/one.csv"):
        tmp = fake_processed / (rel + ".tmp")
        tmp.write_text("half-made\n")
        os.replace(tmp, fake_processed / rel)
    (fake_processed / "normalized/two.csv").write_text("new source\n")
    (fake_processed / "iops_model_cv.csv").write_text("new table\n")
    assert execute.put_back(rollback) > 0
    after = _state(fake_processed)
    # its own tables back as they were, files it created gone; another stage's table untouched
    mine = execute._table_patterns(notebook)
    assert after == {
        **{k: v for k, v in before.items()},
        **{k: after[k] for k in after if not any(Path(k).match(p) for p in mine)},
    }
    for k in before:
        if any(Path(k).match(p) for p in mine):
            assert after[k] == before[k], k
    assert not rollback.exists()


def test_a_successful_stage_keeps_its_new_tables_and_no_rollback(fake_processed, tmp_path):
    rollback = tmp_path / "rollback"
    execute.keep_aside("04_iops_model", rollback)
    (fake_processed / "iops_model_exclusions.csv").write_text("new\n")
    import shutil

    shutil.rmtree(rollback)  # what main does on success
    assert execute.put_back(rollback) == 0
    assert (fake_processed / "iops_model_exclusions.csv").read_text() == "new\n"


def test_file_parameters_become_absolute_and_keep_every_character(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    odd = 'my "costs" $(x) `y`; z.csv'
    argv = ["in.ipynb", "out.ipynb", "-p", "cost_file", odd, "-p", "choices_file", "", "-p", "desktops", "3000"]
    out = execute._absolute_file_parameters(argv)
    assert out[4] == str(tmp_path / odd)
    assert out[7] == "" and out[10] == "3000"


def _notebook(path: Path, code: str) -> None:
    nb = {
        "cells": [
            {"id": "probe", "cell_type": "code", "metadata": {}, "source": code, "outputs": [], "execution_count": None}
        ],
        "metadata": {"kernelspec": {"name": "vdi-report", "display_name": "vdi-report", "language": "python"}},
        "nbformat": 4,
        "nbformat_minor": 5,
    }
    path.write_text(json.dumps(nb))


def _run_execute(tmp_path: Path, code: str, **kw) -> subprocess.Popen:
    """``python -m vdi_report.execute`` on a one-cell notebook, with a throw-away project root."""
    _notebook(tmp_path / "probe.ipynb", code)
    env = {**os.environ, "PYTHONPATH": str(config.PROJ_ROOT / "src")}
    return subprocess.Popen(
        [sys.executable, "-m", "vdi_report.execute", "-k", "vdi-report", "--log-level", "WARNING", "--no-progress-bar"]
        + [str(tmp_path / "probe.ipynb"), str(tmp_path / "out" / "probe.ipynb")],
        cwd=tmp_path,
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        **kw,
    )


def test_the_kernel_runs_over_ipc_without_a_transport_warning(tmp_path):
    code = "import json, sys; from ipykernel.kernelapp import IPKernelApp; print(IPKernelApp.instance().transport)"
    proc = _run_execute(tmp_path, code)
    out, err = proc.communicate(timeout=180)
    assert proc.returncode == 0, err[-2000:]
    nb = json.loads((tmp_path / "out" / "probe.ipynb").read_text())
    assert "".join(nb["cells"][0]["outputs"][0]["text"]).strip() == "ipc"
    assert "TCP" not in err and "KeyboardInterrupt" not in err, err
    assert "probe done in" in out


def test_sigterm_stops_the_stage_and_its_kernel(tmp_path):
    """SIGTERM while a cell runs: the run ends with 128 + 15 and a plain message, the output
    notebook is not written, and the kernel process is gone."""
    code = "import os, time; open('kernel.pid', 'w').write(str(os.getpid())); time.sleep(120)"
    proc = _run_execute(tmp_path, code, start_new_session=True)
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline and not (tmp_path / "kernel.pid").exists():
        time.sleep(0.2)
    time.sleep(0.5)
    kernel = int((tmp_path / "kernel.pid").read_text())
    proc.send_signal(signal.SIGTERM)
    out, err = proc.communicate(timeout=60)
    assert proc.returncode == 128 + signal.SIGTERM, err[-2000:]
    assert "stopped (SIGTERM)" in err and "Traceback" not in err, err
    assert not (tmp_path / "out" / "probe.ipynb").exists()
    for _ in range(50):
        if not Path(f"/proc/{kernel}").exists():
            break
        time.sleep(0.1)
    assert not Path(f"/proc/{kernel}").exists(), "the kernel outlived its stage"


def test_papermill_warns_only_of_parameters_the_project_does_not_declare():
    """The report notebook's defaults come from parameters.PARAMETERS (no name typed in its
    parameters cell), so papermill would call every declared parameter unknown: those warnings
    are dropped, an undeclared name still warns."""
    import logging

    from vdi_report import parameters

    f = execute._DeclaredParameters()

    def rec(msg):
        return logging.LogRecord("papermill", logging.WARNING, __file__, 1, msg, None, None)

    for p in parameters.PARAMETERS:
        assert not f.filter(rec(f"Passed unknown parameter: {p.name}"))
    assert f.filter(rec("Passed unknown parameter: desktopz"))
    assert f.filter(rec("Input Notebook: notebooks/10_report.ipynb"))


def _execute_script(tmp_path: Path, name: str, text: str) -> dict:
    """``python -m vdi_report.execute`` on the percent script ``text`` saved as ``<name>.py`` (as
    the build runs a stage); the executed notebook (JSON). Fails the test when execute fails."""
    script = tmp_path / f"{name}.py"
    script.write_text(text)
    out = tmp_path / "out" / f"{name}.ipynb"
    proc = subprocess.run(
        [sys.executable, "-m", "vdi_report.execute", "-k", "vdi-report", "--log-level", "WARNING", "--no-progress-bar"]
        + [str(script), str(out)],
        cwd=tmp_path,
        env={**os.environ, "PYTHONPATH": str(config.PROJ_ROOT / "src")},
        capture_output=True,
        text=True,
        timeout=180,
    )
    assert proc.returncode == 0, proc.stderr[-2000:]
    return json.loads(out.read_text())


def test_a_percent_script_is_converted_and_run_and_its_copy_removed(tmp_path):
    """The build passes notebooks/*.py: execute converts the script (jupytext) in its own process,
    runs it like a notebook, and leaves no converted copy behind."""
    nb = _execute_script(tmp_path, "probe_script", "# %% [markdown]\n# A probe.\n\n# %%\nprint(6 * 7)\n")
    assert [c["cell_type"] for c in nb["cells"]] == ["markdown", "code"]
    assert "".join(nb["cells"][1]["outputs"][0]["text"]).strip() == "42"
    assert not list((config.PROJ_ROOT / "build" / "executing").glob("input-probe_script.*"))


def test_a_missing_script_is_refused_by_name(tmp_path):
    with pytest.raises(FileNotFoundError, match="nope.py"):
        execute.as_notebook(tmp_path / "nope.py", tmp_path)
    nb = tmp_path / "given.ipynb"
    assert execute.as_notebook(nb, tmp_path) == nb  # a notebook is used as it is


def test_preload_modules_lists_the_notebooks_imports(tmp_path):
    script = tmp_path / "s.py"
    script.write_text(
        "# %%\nimport json\nfrom vdi_report.report import sections, context\n\n# %%\n%time x = 1\n\n"
        "# %%\nimport os.path as p\nfrom . import nothing\n"
    )
    assert execute.preload_modules(script) == [
        "json",
        "vdi_report.report",
        "vdi_report.report.sections",
        "vdi_report.report.context",
        "os.path",
    ]
    nb = tmp_path / "n.ipynb"
    _notebook(nb, "import csv")
    assert execute.preload_modules(nb) == ["csv"]
    assert execute.preload_modules(tmp_path / "missing.py") == []


def test_the_kernel_starts_with_the_notebooks_modules_loaded_and_no_name_left(tmp_path):
    """execute starts the kernel before importing papermill, and the kernel imports the
    notebook's modules as it starts (execute.PRELOAD): the first cell already finds a module the
    notebook imports only later, and the preload leaves no name in the notebook's namespace."""
    nb = _execute_script(
        tmp_path,
        "probe_preload",
        "# %%\nimport sys\nprint('vdi_report.catalogue' in sys.modules, sorted(n for n in dir() if 'vdi' in n))\n\n"
        "# %%\nfrom vdi_report import catalogue\n",
    )
    assert "".join(nb["cells"][0]["outputs"][0]["text"]).strip() == "True []"
    assert nb["cells"][0]["execution_count"] == 1  # the preload is not a counted execution


def test_the_render_option_is_taken_out_of_papermills_arguments(tmp_path):
    args = ["-k", "vdi-report", "in.py", "out.ipynb", "-p", "desktops", "2000"]
    assert execute._render_option(["--render", "b/report", *args]) == (args, Path("b/report"))
    assert execute._render_option([*args, "--render=b/report"]) == (args, Path("b/report"))
    assert execute._render_option(args) == (args, None)
    for bad in (["--render"], ["--render", "-k"]):
        with pytest.raises(SystemExit, match="--render OUT_BASE"):
            execute._render_option([*args[:2], *bad])


def _run_render(tmp_path: Path, html: str, probe: str = "") -> subprocess.CompletedProcess:
    """``execute --render tmp/out/probe`` on a one-cell notebook that runs ``probe``, then shows ``html``."""
    code = f"{probe}\nfrom IPython.display import HTML, Markdown, display\ndisplay(Markdown('# Small'), HTML({html!r}))"
    _notebook(tmp_path / "probe.ipynb", code)
    return subprocess.run(
        [sys.executable, "-m", "vdi_report.execute", "--render", str(tmp_path / "out" / "probe"), "-k", "vdi-report"]
        + ["--log-level", "WARNING", "--no-progress-bar"]
        + [str(tmp_path / "probe.ipynb"), str(tmp_path / "out" / "probe.ipynb")],
        cwd=tmp_path,
        env={**os.environ, "PYTHONPATH": str(config.PROJ_ROOT / "src")},
        capture_output=True,
        text=True,
        timeout=240,
    )


def test_render_writes_the_html_and_the_pdf_of_the_executed_notebook(tmp_path):
    """``--render OUT_BASE``: the notebook runs, then OUT_BASE.html and OUT_BASE.pdf are made from
    it in the same process (the report stage); all three files are there. The kernel started the
    chart converter as it started (``execute.RENDER_FIRST``): the notebook finds it ready."""
    probe = "from vdi_report.report import svg_convert\nprint('converters started:', len(svg_convert._STARTED))"
    proc = _run_render(tmp_path, "<p>Rendered here.</p>", probe)
    assert proc.returncode == 0, proc.stderr[-2000:]
    out = tmp_path / "out"
    assert (out / "probe.ipynb").exists()
    assert "Rendered here." in (out / "probe.html").read_text(encoding="utf-8")
    assert (out / "probe.pdf").read_bytes().startswith(b"%PDF-")
    assert "wrote " in proc.stdout and "probe.pdf" in proc.stdout
    outputs = json.loads((out / "probe.ipynb").read_text())["cells"][0]["outputs"]
    assert "converters started: 1" in "".join("".join(o.get("text", "")) for o in outputs)


def test_a_notebook_that_cannot_be_rendered_leaves_its_output_as_it_was(tmp_path):
    """A render that fails (here a reference to a table no one shows) fails the stage with the
    reason, and writes neither the notebook nor the HTML nor the PDF."""
    out = tmp_path / "out"
    out.mkdir()
    (out / "probe.ipynb").write_text("previous")
    proc = _run_render(tmp_path, '<a class="vdi-ref" data-key="no_such_table">?</a>')
    assert proc.returncode == 1
    assert "no_such_table" in proc.stderr and "not rendered" in proc.stderr and "Traceback" not in proc.stderr
    assert (out / "probe.ipynb").read_text() == "previous"
    assert not (out / "probe.html").exists() and not (out / "probe.pdf").exists()


def test_a_failed_cell_keeps_the_notebook_with_its_error(tmp_path):
    """Papermill writes the scratch notebook only at the end (``PAPERMILL_OPTIONS``), yet a cell
    that fails still leaves the notebook, with the error in that cell, in build/failed/; the
    output notebook is not written."""
    assert "--no-request-save-on-cell-execute" in execute.PAPERMILL_OPTIONS
    kept = config.PROJ_ROOT / "build" / "failed" / "probe.ipynb"
    kept.unlink(missing_ok=True)
    proc = _run_execute(tmp_path, "print('before'); raise ValueError('probe failure')")
    out, err = proc.communicate(timeout=180)
    try:
        assert proc.returncode == 1, err[-2000:]
        assert "ValueError: probe failure" in err and "build/failed/probe.ipynb" in err
        assert not (tmp_path / "out" / "probe.ipynb").exists()
        code = [c for c in json.loads(kept.read_text())["cells"] if c["cell_type"] == "code"]
        outputs = code[0]["outputs"]
        assert any(o.get("ename") == "ValueError" for o in outputs)
        assert any("before" in "".join(o.get("text", "")) for o in outputs)
    finally:
        kept.unlink(missing_ok=True)


def test_chromium_opens_once_the_kernel_is_ready_and_its_error_reaches_the_render(monkeypatch):
    """The report stage opens Chromium (``_PrinterOpening``) from nbclient's hook when the kernel
    is ready, in a thread: started twice it opens once; ``printer()`` waits for it and raises its
    error (no Chromium: RenderError); ``close()`` is safe whether it opened, failed or never started."""
    opened = []

    class FakePrinter:
        closed = False

        def close(self):
            self.closed = True

    monkeypatch.setattr(execute, "_open_printer", lambda: opened.append(1) or FakePrinter())
    opening = execute._PrinterOpening()
    opening.start(notebook=None)  # as nbclient's on_notebook_start calls it
    opening.start(notebook=None)
    printer = opening.printer()
    opening.close()
    assert opened == [1] and printer.closed

    def no_chromium():
        raise execute.RenderError("no Chromium")

    monkeypatch.setattr(execute, "_open_printer", no_chromium)
    failing = execute._PrinterOpening()
    with pytest.raises(execute.RenderError, match="no Chromium"):
        failing.printer()
    failing.close()
    execute._PrinterOpening().close()


def _run_waiting(tmp_path: Path, stdin: str) -> subprocess.CompletedProcess:
    """``execute --wait-go`` on a one-cell notebook that leaves a marker file, given ``stdin``."""
    marker = tmp_path / "ran"
    _notebook(tmp_path / "probe.ipynb", f"open({str(marker)!r}, 'w').close()")
    return subprocess.run(
        [sys.executable, "-m", "vdi_report.execute", "-k", "vdi-report", "--log-level", "WARNING"]
        + ["--no-progress-bar", "--wait-go", str(tmp_path / "probe.ipynb"), str(tmp_path / "out" / "probe.ipynb")],
        cwd=tmp_path,
        env={**os.environ, "PYTHONPATH": str(config.PROJ_ROOT / "src")},
        input=stdin,
        capture_output=True,
        text=True,
        timeout=180,
    )


def test_wait_go_runs_the_notebook_only_after_go(tmp_path):
    """The report's recipe pipes its first steps (scenario, data package) into execute --wait-go:
    "go" once they succeeded runs the notebook; the end of the input (a step failed) runs nothing,
    exit status 1, with the reason, and no output notebook."""
    failed = _run_waiting(tmp_path, "")
    assert failed.returncode == 1, failed.stderr[-2000:]
    assert "probe not run: the steps before it failed" in failed.stderr
    assert not (tmp_path / "ran").exists() and not (tmp_path / "out" / "probe.ipynb").exists()
    done = _run_waiting(tmp_path, "go\n")
    assert done.returncode == 0, done.stderr[-2000:]
    assert (tmp_path / "ran").exists() and (tmp_path / "out" / "probe.ipynb").exists()


def test_wait_go_refuses_anything_but_go():
    import io

    execute.wait_go(io.StringIO("go\n"))
    with pytest.raises(execute.NotStarted, match="the steps before it failed"):
        execute.wait_go(io.StringIO(""))
    with pytest.raises(execute.NotStarted, match="'stop"):
        execute.wait_go(io.StringIO("stop\n"))
    assert execute._wait_go(["a", "--wait-go", "b"]) == (["a", "b"], True)
    assert execute._wait_go(["a"]) == (["a"], False)
