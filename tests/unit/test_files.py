"""Publishing the report set all at once (files.publish): reports/ holds the previous set or the
new one with its stamp, never a mix, also when the publication is interrupted (issue 20)."""

import os
from pathlib import Path

import pytest

from vdi_report import files

NAMES = ["notebooks/10_report.ipynb", "array_verdicts.csv", "report.html", "report.pdf"]


def _write(root: Path, names, tag: str) -> None:
    for n in names:
        (root / n).parent.mkdir(parents=True, exist_ok=True)
        (root / n).write_text(f"{tag} {n}\n", encoding="utf-8")


@pytest.fixture
def project(tmp_path) -> tuple[Path, Path]:
    """reports/ with an old set (and a data stage's notebook), build/publish with a new set."""
    dest, staged = tmp_path / "reports", tmp_path / "build" / "publish"
    _write(dest, [*NAMES, "notebooks/02_combine.ipynb"], "old")
    (dest / files.PUBLISHED_STAMP).write_text("desktops=2000\n", encoding="utf-8")
    _write(staged, NAMES, "new")
    return dest, staged


def _state(dest: Path) -> dict[str, str]:
    return {str(p.relative_to(dest)): p.read_text() for p in sorted(dest.rglob("*")) if p.is_file()}


def _is_one_set(dest: Path) -> str:
    """'old' or 'new' when every report file and the stamp belong to one set; fails on a mix."""
    state = _state(dest)
    tags = {state[n].split()[0] for n in NAMES}
    assert len(tags) == 1, f"a mixed report: {state}"
    stamp = state[files.PUBLISHED_STAMP].strip()
    assert stamp == {"old": "desktops=2000", "new": "desktops=3500"}[tags.pop()] or pytest.fail(stamp)
    return "new" if stamp == "desktops=3500" else "old"


def test_publish_replaces_the_set_and_keeps_the_other_files(project):
    dest, staged = project
    for i, n in enumerate(NAMES):
        os.utime(staged / n, ns=(10**18 + i, 10**18 + i))
    made = [(staged / n).stat().st_mtime_ns for n in NAMES]
    files.publish(staged, NAMES, dest, "desktops=3500\n")
    assert _is_one_set(dest) == "new"
    assert (dest / "notebooks/02_combine.ipynb").read_text() == "old notebooks/02_combine.ipynb\n"
    # Make sees the published files (one time, the publication's) as up to date; the staged files
    # keep their own times (when each step made them: make bench reads them)
    times = {(dest / n).stat().st_mtime_ns for n in [*NAMES, files.PUBLISHED_STAMP]}
    staged_times = [(staged / n).stat().st_mtime_ns for n in NAMES]
    assert len(times) == 1 and times.pop() >= max(staged_times) and staged_times == made
    assert not (dest.parent / "build" / "reports.next").exists()
    assert not (dest.parent / "build" / "reports.old").exists()


def test_publish_into_a_missing_folder(tmp_path):
    staged = tmp_path / "build" / "publish"
    _write(staged, NAMES, "new")
    files.publish(staged, NAMES, tmp_path / "reports", "desktops=3500")
    assert _is_one_set(tmp_path / "reports") == "new"


def test_a_missing_staged_file_publishes_nothing(project):
    dest, staged = project
    (staged / "report.pdf").unlink()  # e.g. the PDF step failed or was killed
    before = _state(dest)
    with pytest.raises(FileNotFoundError, match="report.pdf"):
        files.publish(staged, NAMES, dest, "desktops=3500")
    assert _state(dest) == before


class Killed(BaseException):
    """Stands for SIGKILL: nothing after it runs (no except/finally clean-up in publish)."""


def test_killed_before_the_swap_leaves_the_old_set(project, monkeypatch):
    dest, staged = project

    def die(a, b):
        raise Killed

    monkeypatch.setattr(files, "_exchange", die)
    with pytest.raises(Killed):
        files.publish(staged, NAMES, dest, "desktops=3500")
    assert _is_one_set(dest) == "old"
    monkeypatch.undo()
    files.publish(staged, NAMES, dest, "desktops=3500")  # the next build cleans up and publishes
    assert _is_one_set(dest) == "new"


def test_killed_between_the_two_renames_is_undone(project, monkeypatch):
    """Where the swap is not one system call (two renames), a crash between them leaves reports/
    missing for a moment; the next run puts the old set back, then publishes the new one."""
    dest, staged = project
    monkeypatch.setattr(files, "_exchange", lambda a, b: False)
    real = os.replace
    calls = []

    def replace(a, b):
        calls.append((Path(a).name, Path(b).name))
        if calls[-1] == ("reports.next", "reports"):
            raise Killed
        return real(a, b)

    monkeypatch.setattr(files.os, "replace", replace)
    with pytest.raises(Killed):
        files.publish(staged, NAMES, dest, "desktops=3500")
    assert not dest.exists()
    monkeypatch.setattr(files.os, "replace", real)
    files.recover_publication(dest)
    assert _is_one_set(dest) == "old"
    files.publish(staged, NAMES, dest, "desktops=3500")
    assert _is_one_set(dest) == "new"


def test_the_swap_is_one_system_call_here(project):
    """On Linux (this machine, CI) the two folders are exchanged by renameat2: no moment without
    reports/. Skipped where the system lacks it (the two-rename path above is then used)."""
    dest, staged = project
    other = dest.parent / "other"
    other.mkdir()
    (other / "x").write_text("x")
    if not files._exchange(other, dest):
        pytest.skip("renameat2(RENAME_EXCHANGE) not available")
    assert (dest / "x").is_file() and (other / "array_verdicts.csv").is_file()


def test_an_unchanged_output_keeps_its_file_and_time(tmp_path):
    """Writing the same bytes again leaves the file (inode and modification time) as it was, so
    Make re-runs no later stage; other bytes replace it; a CSV and a JSON document alike."""
    import pandas as pd

    path = tmp_path / "t.csv"
    df = pd.DataFrame({"a": [1.5, 2.0], "b": ["x", "y"]})
    files.write_csv(df, path)
    os.utime(path, ns=(1_000_000_000, 1_000_000_000))
    before = os.stat(path)
    files.write_csv(df.copy(), path)
    after = os.stat(path)
    assert (after.st_ino, after.st_mtime_ns) == (before.st_ino, before.st_mtime_ns)
    files.write_csv(df.assign(a=[1.5, 2.5]), path)
    assert os.stat(path).st_mtime_ns != before.st_mtime_ns and "2.5" in path.read_text()
    doc = tmp_path / "d.json"
    files.write_json({"k": 1}, doc)
    os.utime(doc, ns=(1_000_000_000, 1_000_000_000))
    files.write_json({"k": 1}, doc)
    assert os.stat(doc).st_mtime_ns == 1_000_000_000
    files.write_json({"k": 2}, doc)
    assert doc.read_text() == '{\n  "k": 2\n}\n'
    assert not list(tmp_path.glob(".*.tmp"))  # no temporary file left behind


def test_digest_changes_with_a_file_its_name_or_the_set(tmp_path, monkeypatch):
    """files.digest keys the build caches: the same files give the same digest, in any order; a
    byte, a name or one file more or less changes it."""
    monkeypatch.setattr(files.config, "PROJ_ROOT", tmp_path)
    a, b = tmp_path / "a.csv", tmp_path / "b.csv"
    a.write_text("x\n")
    b.write_text("y\n")
    base = files.digest([a, b])
    assert files.digest([b, a]) == base
    b.write_text("z\n")
    assert files.digest([a, b]) != base
    b.write_text("y\n")
    assert files.digest([a, b]) == base
    c = tmp_path / "c.csv"
    b.rename(c)
    assert files.digest([a, c]) != base
    assert files.digest([a]) != files.digest([a, c])


def test_a_step_ends_with_its_status_and_its_output_flushed(tmp_path):
    """``files.end_process`` ends a ``python -m`` step at once (no interpreter teardown) with the
    step's exit status, its printed lines and the files it wrote complete; an exception still
    ends the process with its traceback."""
    import subprocess
    import sys

    from vdi_report import config

    code = (
        "import sys\nfrom pathlib import Path\nfrom vdi_report import files\n"
        f"files.write_bytes(b'x' * 100000, Path({str(tmp_path / 'out.bin')!r}))\n"
        "print('to stdout', end='')\nprint('to stderr', end='', file=sys.stderr)\nfiles.end_process(3)\n"
        "print('never')\n"
    )
    env = {**os.environ, "PYTHONPATH": str(config.PROJ_ROOT / "src")}
    p = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=env, timeout=60)
    assert (p.returncode, p.stdout, p.stderr) == (3, "to stdout", "to stderr")
    assert (tmp_path / "out.bin").read_bytes() == b"x" * 100000
    p = subprocess.run(
        [sys.executable, "-c", "from vdi_report import files\nfiles.end_process(None)"], env=env, timeout=60
    )
    assert p.returncode == 0
    p = subprocess.run(
        [sys.executable, "-c", "from vdi_report import files\nfiles.end_process(1 / 0)"],
        capture_output=True,
        text=True,
        env=env,
        timeout=60,
    )
    assert p.returncode == 1 and "ZeroDivisionError" in p.stderr
    steps = ("datapackage", "raw.validate", "models.scenario_stage", "execute", "stages", "files", "publish.bundle")
    for module in (f"vdi_report.{s}" for s in steps):
        main = (config.PROJ_ROOT / "src" / Path(*module.split("."))).with_suffix(".py").read_text(encoding="utf-8")
        assert "end_process(main(" in main.split('if __name__ == "__main__"')[-1], module
