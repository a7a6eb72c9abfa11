"""Faults lose nothing (issue 28): a failing stage, a signal to make or to its whole process
group, a read-only folder, a full disk and a path full of shell characters each leave
data/processed and reports/ byte-identical (or a correct new set), with a plain message, and no
build process outlives make.

Each case runs in a copy of the built project (outputs up to date, .venv shared); the stage is
made to re-run by touching its notebook in the copy."""

import csv
import os
import shutil
import signal
import subprocess
import time
from pathlib import Path

import pytest


@pytest.fixture
def built(tmp_path, copy_project) -> Path:
    return copy_project(tmp_path / "p", "data", "reports", "build")


def _processes_in(root: Path) -> list[str]:
    """Processes whose working folder is in ``root`` (make, its shells, Python, the kernels)."""
    found = []
    for proc in Path("/proc").iterdir():
        if not proc.name.isdigit():
            continue
        try:
            cwd = os.readlink(proc / "cwd")
            cmd = (proc / "cmdline").read_bytes().replace(b"\0", b" ").decode(errors="replace")
        except OSError:
            continue
        if cwd == str(root) or cwd.startswith(str(root) + "/"):
            found.append(f"{proc.name}: {cmd[:200]}")
    return found


def _start_model_stage(built: Path, start_make) -> subprocess.Popen:
    """``make report`` in the copy with the model stage's notebook ending in a long wait after it
    has written its tables; returns once the notebook is in that wait (it writes a marker file
    first: papermill writes the executed notebook only at the end, so no file of the run shows
    how far it got). Touching the notebook was not enough: with compiled bytecode the stage ends
    within the seconds the test waited, so the signal found make done (exit 0)."""
    nb = built / "notebooks/04_iops_model.py"
    marker = built / "build" / "model-stage-waiting"
    marker.unlink(missing_ok=True)
    wait = f"\n# %%\nimport pathlib\nimport time\n\npathlib.Path({str(marker)!r}).touch()\ntime.sleep(120)\n"
    nb.write_text(nb.read_text(encoding="utf-8") + wait, encoding="utf-8")
    proc = start_make(built)
    deadline = time.monotonic() + 240
    while time.monotonic() < deadline and proc.poll() is None and not marker.exists():
        time.sleep(0.1)
    assert proc.poll() is None and marker.exists(), proc.communicate()[0][-3000:]
    time.sleep(0.5)  # the kernel is in its wait, the stage's tables written
    return proc


def _inject_failure(built: Path) -> None:
    """The model notebook fails after writing its tables (a stage that fails late)."""
    nb = built / "notebooks/04_iops_model.py"
    nb.write_text(nb.read_text(encoding="utf-8") + '\n# %%\nraise RuntimeError("injected failure")\n', encoding="utf-8")


def test_a_failing_stage_leaves_every_table_as_it_was(built, make_in, snapshot):
    """The model stage writes its tables, then fails: make stops with the error, the stage's
    tables (iops_model_exclusions.csv, iops_model_observations.csv, ...) are put back byte for
    byte, and nothing else changed; the next good build is correct."""
    before = snapshot(built)
    _inject_failure(built)
    proc = make_in(built, "report", check=False)
    out = proc.stdout + proc.stderr
    assert proc.returncode != 0
    assert "04_iops_model failed: RuntimeError: injected failure" in out, out[-3000:]
    assert "the stage's tables were left as they were" in out
    assert snapshot(built) == before
    assert not (built / "build/rollback/04_iops_model").exists()


@pytest.mark.slow
@pytest.mark.parametrize(
    ("sig", "to_group"),
    [(signal.SIGTERM, False), (signal.SIGTERM, True), (signal.SIGINT, True), (signal.SIGHUP, True)],
    ids=["TERM-to-make", "TERM-to-group", "INT-to-group", "HUP-to-group"],
)
def test_a_signal_while_a_stage_runs_loses_nothing(built, start_make, snapshot, sig, to_group):
    """A signal to make alone (a CI cancel) or to its whole group (Ctrl-C, a closed terminal)
    while the model stage writes: make ends, no process of the build (stage, kernel) is left,
    and data/processed and reports/ are byte-identical."""
    before = snapshot(built)
    proc = _start_model_stage(built, start_make)
    if to_group:
        os.killpg(proc.pid, sig)
    else:
        os.kill(proc.pid, sig)
    out = proc.communicate(timeout=120)[0]
    assert proc.returncode != 0
    time.sleep(1.5)  # a kernel's parent poller would take a second: nothing may be left even so
    assert _processes_in(built) == [], out[-2000:]
    assert snapshot(built) == before, out[-2000:]


def _can_mount() -> bool:
    probe = Path("/tmp") / f"vdi-mount-probe-{os.getpid()}"
    probe.mkdir(exist_ok=True)
    try:
        cmd = ["mount", "-t", "tmpfs", "-o", "size=64k", "tmpfs", str(probe)]
        ok = subprocess.run(cmd, capture_output=True, check=False).returncode == 0
        if ok:
            subprocess.run(["umount", str(probe)], check=False)
        return ok
    except OSError:
        return False
    finally:
        probe.rmdir()


CAN_MOUNT = os.geteuid() == 0 and shutil.which("mount") is not None and _can_mount()


@pytest.fixture
def mounted():
    """``mounted(path, options)``: a tmpfs over ``path`` for the test (unmounted afterwards)."""
    done = []

    def mount(path: Path, options: str) -> None:
        path.mkdir(parents=True, exist_ok=True)
        subprocess.run(["mount", "-t", "tmpfs", "-o", options, "tmpfs", str(path)], check=True)
        done.append(path)

    yield mount
    for p in reversed(done):
        subprocess.run(["umount", "-l", str(p)], check=False)


def _read_only(path: Path, mounted) -> None:
    """``path`` becomes read-only: for a user by its mode; as root (who ignores modes) by a
    read-only tmpfs holding the same files."""
    if os.geteuid() != 0:
        path.chmod(0o555)
        return
    if not CAN_MOUNT:
        pytest.skip("running as root without permission to mount: cannot make a folder read-only")
    keep = path.with_name(path.name + ".keep")
    shutil.copytree(path, keep, symlinks=True)
    mounted(path, "size=64m")
    shutil.copytree(keep, path, symlinks=True, dirs_exist_ok=True, copy_function=shutil.copy2)
    shutil.rmtree(keep)
    for p in [path, *path.rglob("*")]:
        st = p.lstat()
        os.utime(p, ns=(st.st_atime_ns, st.st_mtime_ns), follow_symlinks=False)
    subprocess.run(["mount", "-o", "remount,ro", str(path)], check=True)


def test_a_read_only_reports_folder_is_named_with_the_permission(built, make_in, mounted, snapshot):
    before = snapshot(built)
    _read_only(built / "reports", mounted)
    proc = make_in(built, "report", "DESKTOPS=2600", check=False)
    out = proc.stdout + proc.stderr
    assert proc.returncode != 0
    assert "cannot write into reports/" in out and ("read-only" in out or "permission" in out), out[-3000:]
    assert "Traceback" not in out
    assert snapshot(built) == before


def test_a_read_only_processed_folder_is_named_before_the_stage_runs(built, make_in, mounted, snapshot):
    before = snapshot(built)
    _read_only(built / "data/processed", mounted)
    os.utime(built / "notebooks/04_iops_model.py")
    proc = make_in(built, "report", check=False)
    out = proc.stdout + proc.stderr
    assert proc.returncode != 0
    assert "cannot write into data/processed/" in out and ("read-only" in out or "permission" in out), out[-3000:]
    assert "Traceback" not in out
    assert snapshot(built) == before


@pytest.mark.skipif(not CAN_MOUNT, reason="needs root with permission to mount a small tmpfs (a full disk)")
def test_a_full_disk_while_publishing_keeps_the_previous_report(
    built, make_in, mounted, previous_set_or_new_scenario, snapshot
):
    """build/ on a file system with no room for the new report: the render or the publication
    fails with a plain message, reports/ is byte-identical and data/processed too, but for the
    scenario stage's tables, which may be the new parameters' (conftest)."""
    before = snapshot(built)
    staged = built / "build/publish"
    keep = built / "build/publish.keep"
    shutil.copytree(staged, keep)
    small = shutil.ignore_patterns("*.pdf", "*.html")
    # room for the previous set without its HTML and PDF (the executed notebook alone is about
    # 2 MB) and 512 KiB more: not for a new executed notebook, HTML or PDF
    kept = sum(p.stat().st_size for p in keep.rglob("*") if p.is_file() and p.suffix not in (".pdf", ".html"))
    mounted(staged, f"size={kept // 1024 + 512}k")
    shutil.copytree(keep, staged, dirs_exist_ok=True, copy_function=shutil.copy2, ignore=small)
    proc = make_in(built, "report", "DESKTOPS=2600", check=False)
    out = proc.stdout + proc.stderr
    assert proc.returncode != 0
    assert "no space left" in out.lower(), out[-3000:]
    assert "Traceback" not in out, out[-3000:]
    previous_set_or_new_scenario(built, before, "2600")


@pytest.mark.slow
def test_file_parameters_in_a_folder_with_spaces_and_shell_characters(built, tmp_path, make_in):
    """COST_FILE, PROFILE_FILE and CHOICES in a folder named with a space, quotes, `$( )`,
    backticks and `;`: the build runs, nothing they hold is executed, and the stamp and the
    report record the paths as given."""
    # a command in the name would run in the copy (make's folder) or the test's: RAN would appear
    odd = tmp_path / "my files \"q\" 'x' $(touch RAN) `touch RAN`; touch RAN"
    odd.mkdir()
    cost = odd / "costs $(x).csv"
    shutil.copy(built / "data/raw/cost_assumptions.csv", cost)
    profile = odd / "profile; x.csv"
    shutil.copy(built / "data/raw/profile_example.csv", profile)
    choices = odd / "choices `x`.csv"
    with open(choices, "w", newline="", encoding="utf-8") as fh:
        csv.writer(fh, lineterminator="\n").writerows([["choice_id", "option"], ["login_variant", "monday"]])
    make_in(built, "report", f"COST_FILE={cost}", f"PROFILE_FILE={profile}", f"CHOICES={choices}")
    assert not (built / "RAN").exists() and not (tmp_path / "RAN").exists() and not (odd / "RAN").exists()
    stamp = (built / "reports/params.stamp").read_text(encoding="utf-8")
    assert f"profile_file={profile}" in stamp and f"cost_file={cost}" in stamp and f"choices_file={choices}" in stamp
    with open(built / "reports/sizing_scenario.csv", encoding="utf-8", newline="") as fh:
        assert {r["figures"] for r in csv.DictReader(fh)} == {f"profile {profile.name}"}
