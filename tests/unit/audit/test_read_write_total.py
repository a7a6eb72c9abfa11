"""Rule ``read_write_total``: reads plus writes against the stated total (averages, peaks, and the
series of one chart only)."""

import math


def test_read_write_total(rec, run):
    bad = [rec("write_iops", "3,200", 3200), rec("read_iops", "377", 377), rec("iops", "3,900", 3900)]
    f = run(bad, "read_write_total")
    assert len(f) == 1 and math.isclose(f.at[0, "recomputed"], 3577)
    good = [
        rec("write_iops", "3.2K", 3200),
        rec("read_iops", "377", 377),
        rec("iops", "3.6K", 3600),
        # peaks need not coincide: 4K <= 3.4K + 1.5K and >= 3.4K
        rec("write_iops", "3.4K", 3400, statistic="peak"),
        rec("read_iops", "1.5K", 1500, statistic="peak"),
        rec("iops", "4K", 4000, statistic="peak"),
    ]
    assert run(good, "read_write_total").empty
    bad_peak = [
        rec("write_iops", "3.4K", 3400, statistic="peak"),
        rec("read_iops", "1.5K", 1500, statistic="peak"),
        rec("iops", "6K", 6000, statistic="peak"),
    ]
    assert len(run(bad_peak, "read_write_total")) == 1


def test_read_write_total_combines_chart_legends_only_within_one_chart(rec, run):
    """Two charts of one test may span different windows (D-RA2022E-01): their series are summed
    per chart; a chart whose own series do not add up is still found."""
    a, b = {"image_file": "img/a.png"}, {"image_file": "img/b.png"}
    rows = [
        rec("read_iops", "17,674", 17674) | a,
        rec("write_iops", "8,537", 8537) | a,
        rec("iops", "26,211", 26211) | a,
        rec("read_iops", "18,113", 18113) | b,
        rec("write_iops", "8,389", 8389) | b,
        rec("iops", "26,502", 26502) | b,
    ]
    assert run(rows, "read_write_total").empty
    wrong = rows[:2] + [rec("iops", "29,000", 29000) | a]
    assert len(run(wrong, "read_write_total")) == 1
