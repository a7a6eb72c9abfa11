"""make bench prints each run as it comes (the table only at the end), and judges the budgets."""

from vdi_report import bench


def test_each_run_is_printed_as_it_completes(monkeypatch, capsys, tmp_path):
    made = []

    def fake_make(tree, *args):
        made.append(args)
        return (1.5, 1.25, 0.5)

    monkeypatch.setattr(bench, "_make", fake_make)
    monkeypatch.setattr(bench, "_stage_times", lambda tree: {"report notebook": 1.0})
    for rel in ("data/raw/records", "src/vdi_report/report"):  # the files the scenarios touch
        (tmp_path / rel).mkdir(parents=True)
    for f in sorted((bench.ROOT / "data/raw/records").glob("*.csv"))[:1]:
        (tmp_path / "data/raw/records" / f.name).write_text("")
    runs, _ = bench._scenarios({"this tree": tmp_path}, clean_runs=1, n=2)
    out = capsys.readouterr().out.splitlines()
    progress = [line for line in out if line.startswith("  ... ")]
    assert len(progress) == sum(len(v["this tree"]) for v in runs.values())
    assert progress[0] == "  ... clean make report (this tree): 1.50 s wall, 1.25 s CPU"
    assert ("report", "DESKTOPS=2100") in made


def test_a_budget_line_says_met_or_not():
    assert "budget 8 s: NOT met" in bench._line("one report parameter changed", [(9.0, 1.0, 0.1)])
    assert "budget 8 s: met" in bench._line("one report parameter changed", [(7.0, 1.0, 0.1)])
