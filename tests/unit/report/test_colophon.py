"""The colophon's commit is the last commit that changed the report's inputs: a commit that edits
only documentation no stage reads (the columns' units and meanings) leaves it, and so the
report's bytes, unchanged."""

import subprocess

from vdi_report import config
from vdi_report.report import colophon


def _git(root, *args):
    return subprocess.run(["git", "-C", str(root), *args], capture_output=True, text=True, check=True).stdout.strip()


def test_a_column_docs_commit_is_not_a_report_input(tmp_path, monkeypatch):
    _git(tmp_path, "init", "-q")
    _git(tmp_path, "config", "user.email", "t@example.org")
    _git(tmp_path, "config", "user.name", "t")
    pkg = tmp_path / "src" / "vdi_report"
    pkg.mkdir(parents=True)
    (pkg / "catalogue.py").write_text("X = 1\n")
    (pkg / "catalogue_columns.csv").write_text("table,column,unit,meaning\n")
    _git(tmp_path, "add", "-A")
    _git(tmp_path, "commit", "-qm", "code")
    code = _git(tmp_path, "rev-parse", "HEAD")
    monkeypatch.setattr(config, "PROJ_ROOT", tmp_path)
    assert colophon.git_commit() == code

    (pkg / "catalogue_columns.csv").write_text("table,column,unit,meaning\n*,x,,an x\n")
    assert colophon.git_commit() == code  # an uncommitted docs edit is no local change of the inputs
    _git(tmp_path, "commit", "-qam", "docs")
    assert colophon.git_commit() == code

    (pkg / "catalogue.py").write_text("X = 2\n")
    assert colophon.git_commit() == code + " + local changes"
    _git(tmp_path, "commit", "-qam", "code again")
    assert colophon.git_commit() == _git(tmp_path, "rev-parse", "HEAD")
