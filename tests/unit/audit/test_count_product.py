"""Rule ``count_product``: a count x a per-count figure against the stated total, only within one
statement."""

import math


def test_count_product(rec, run):
    tb = {
        "unit": "count",
        "statistic": "single",
        "phase": "testbed",
        "test_id": "testbed",
        "locator": "Section 3",
        "vantage": "",
    }
    bad = [
        rec("management_servers", "four", 4, **tb),
        rec("desktops_per_management_server", "875", 875, **tb),
        rec("desktops", "5,000", 5000, **{**tb, "locator": "Section 1"}),
    ]
    f = run(bad, "count_product")
    assert len(f) == 1 and math.isclose(f.at[0, "recomputed"], 3500)
    good = [
        rec("hosts", "2", 2, worker_class="task", **tb),
        rec("desktops_per_host", "200", 200, worker_class="task", **tb),
        rec("desktops", "400", 400, worker_class="task", **tb),
        rec("volumes", "5", 5, **tb),
        rec("desktops_per_volume", "500", 500, **{**tb, "phase": "sizing"}),
    ]
    assert run(good, "count_product").empty
    # a caption's pool count and a script's per-pool count are different statements: not paired
    caption_vs_script = [
        rec("pools", "10 pools", 10, **{**tb, "locator": "Figure 7", "line": 391}),
        rec("desktops_per_pool", "130", 130, **{**tb, "locator": "Figure 7", "line": 416}),
        rec("desktops", "1,500", 1500, **{**tb, "locator": "Section 1"}),
    ]
    assert run(caption_vs_script, "count_product").empty
    caption_vs_script[1]["line"] = 391  # the same statement: 10 x 130 = 1,300 is a finding
    assert len(run(caption_vs_script, "count_product")) == 1
