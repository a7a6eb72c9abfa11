"""``sources.load_sources``: the project's ``sources.csv`` whose content the build's validation
stage passed is read without pandera, as the same frame; any other content is validated."""

import shutil
import subprocess
import sys

import pandas as pd
import pytest

from vdi_report import config
from vdi_report.raw import sources


@pytest.fixture
def raw(tmp_path, monkeypatch):
    """A copy of ``sources.csv`` as the project's raw folder, a stamp beside it, no memo."""
    folder = tmp_path / "raw"
    folder.mkdir()
    shutil.copy(config.RAW_DIR / "sources.csv", folder / "sources.csv")
    monkeypatch.setattr(sources.config, "RAW_DIR", folder)
    monkeypatch.setattr(sources, "VALIDATED_STAMP", tmp_path / "validated.stamp")
    monkeypatch.setattr(sources, "_SOURCES_CACHE", {})
    return folder


def _stamp(folder):
    sources.VALIDATED_STAMP.write_text(
        "raw inputs valid\n" + sources.validated_line((folder / "sources.csv").read_bytes()) + "\n", encoding="utf-8"
    )


def test_content_the_stage_passed_is_read_unvalidated_as_the_same_frame(raw, monkeypatch):
    validated = sources.load_sources(raw)  # no stamp yet: validated
    _stamp(raw)
    sources._SOURCES_CACHE.clear()
    monkeypatch.setattr(sources, "validate", lambda *a: pytest.fail("validated again"))
    pd.testing.assert_frame_equal(sources.load_sources(raw), validated, check_exact=True)


def test_changed_content_or_a_changed_schema_is_validated_again(raw):
    _stamp(raw)
    text = (raw / "sources.csv").read_text(encoding="utf-8").splitlines()
    header = text[0].split(",")
    row = text[1].split(",")
    row[header.index("color")] = "red"
    (raw / "sources.csv").write_text("\n".join([text[0], ",".join(row), *text[2:]]) + "\n", encoding="utf-8")
    with pytest.raises(sources.RawDataError, match="color"):
        sources.load_sources(raw)
    _stamp(raw)  # the stamp of the bad content, made by another schema: validated all the same
    line = sources.VALIDATED_STAMP.read_text(encoding="utf-8").replace(" schema ", " schema 0")
    sources.VALIDATED_STAMP.write_text(line, encoding="utf-8")
    sources._SOURCES_CACHE.clear()
    with pytest.raises(sources.RawDataError, match="color"):
        sources.load_sources(raw)


def test_the_validation_stage_writes_the_line_and_importing_the_module_imports_no_pandera(tmp_path):
    stamp = tmp_path / "validated.stamp"
    ok = subprocess.run(
        [sys.executable, "-m", "vdi_report.raw.validate", "--stamp", str(stamp)], capture_output=True, text=True
    )
    assert ok.returncode == 0, ok.stderr
    assert sources.validated_line((config.RAW_DIR / "sources.csv").read_bytes()) in stamp.read_text().splitlines()
    code = "import sys; from vdi_report.raw import sources, test_setup; print('pandera' in sys.modules)"
    assert subprocess.run([sys.executable, "-c", code], capture_output=True, text=True).stdout.strip() == "False"
