"""Every declared analysis choice builds the whole report (issue 26): `make report CHOICES=file`
in a copy of the built project, with one non-default option of every choice of
data/raw/analysis_choices.csv (new choices are covered as they are declared).

A full report takes minutes, so the options share runs: an option under which the model stage
has nothing to fit (``front_end_vantage = array_only`` leaves one document: it once stopped the
stage) runs alone; the others run together. Each run must succeed, write every table of the
model stage with its declared header, and list its options in the report's colophon."""

import csv

import pytest

from vdi_report import catalogue
from vdi_report.models import sensitivity
from vdi_report.raw import choices as analysis

DECL = analysis.declared()
FLIPS = {cid: next(o for o in DECL.options[cid] if o != DECL.default[cid]) for cid in DECL.ids}


def _runs(results, sources_df) -> list[dict[str, str]]:
    """The options grouped into runs: an option that leaves no model to fit alone, the rest together."""
    alone, together = [], {}
    memo: dict = {}
    for cid, opt in FLIPS.items():
        run = sensitivity.planning_under(
            results, DECL.defaults().with_options(**{cid: opt}), memo=memo, sources_df=sources_df
        )
        if run.model is None:
            alone.append({cid: opt})
        else:
            together[cid] = opt
    return alone + ([together] if together else [])


@pytest.mark.slow
def test_make_report_runs_every_choice(tmp_path, copy_project, make_in, sources_df):
    from vdi_report import config

    results = catalogue.read("results")
    runs = _runs(results, sources_df)
    assert {k for r in runs for k in r} == set(DECL.ids)
    root = copy_project(tmp_path / "project", "data", "reports", "build")
    for n, opts in enumerate(runs):
        f = root / f"choices_{n}.csv"
        f.write_text("choice_id,option\n" + "".join(f"{k},{v}\n" for k, v in opts.items()), encoding="utf-8")
        proc = make_in(root, "report", f"CHOICES={f}", check=False)
        assert proc.returncode == 0, (opts, proc.stdout[-3000:] + proc.stderr[-3000:])
        for name in sensitivity.MODEL_TABLES:
            rel = catalogue.path(name).relative_to(config.PROJ_ROOT)
            with open(root / rel, encoding="utf-8", newline="") as fh:
                header = next(csv.reader(fh))
            assert header == catalogue.table(name).column_names, (opts, name)
        html = (root / "reports/vdi_storage_comparison.html").read_text(encoding="utf-8")
        for k, v in opts.items():
            assert f"{k}={v}" in html, (opts, k)
