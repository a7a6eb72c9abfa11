"""data/processed/datapackage.json (issue 28): a Frictionless Data Package generated from the
catalogue, describing every processed file with its types, units, meanings and primary key, and
valid by `frictionless validate` (the reader's own tool)."""

import json
import subprocess
import sys

from vdi_report import catalogue, config, datapackage


def test_the_descriptor_is_the_catalogue_of_what_is_there(processed):
    processed("results")
    path = config.PROCESSED_DIR / "datapackage.json"
    assert path.is_file(), "make data writes data/processed/datapackage.json"
    doc = json.loads(path.read_text(encoding="utf-8"))
    assert doc == datapackage.descriptor(), "stale: rebuild it with make data"
    files = {p.relative_to(config.PROCESSED_DIR).as_posix() for p in config.PROCESSED_DIR.rglob("*") if p.is_file()}
    assert {r["path"] for r in doc["resources"]} == files - {"datapackage.json"}
    res = {r["name"]: r for r in doc["resources"]}
    fields = {f["name"]: f for f in res["iops_per_desktop_model"]["schema"]["fields"]}
    assert res["iops_per_desktop_model"]["schema"]["primaryKey"] == list(catalogue.table("iops_per_desktop_model").key)
    assert fields["estimate"]["type"] == "number" and fields["estimate"]["unit"] and fields["estimate"]["description"]


def test_frictionless_validates_the_package(processed):
    processed("results")
    proc = subprocess.run(
        [sys.executable, "-m", "frictionless", "validate", "--json", "datapackage.json"],
        cwd=config.PROCESSED_DIR,
        capture_output=True,
        text=True,
        check=False,
    )
    report = json.loads(proc.stdout)
    errors = [(t["name"], e["message"]) for t in report["tasks"] for e in t["errors"]]
    assert proc.returncode == 0 and report["valid"], errors[:20]
    assert len(report["tasks"]) == len(json.loads((config.PROCESSED_DIR / "datapackage.json").read_text())["resources"])
