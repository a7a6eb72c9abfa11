"""Chart tooltips name each field with a label and its unit (issue 28), not its column name."""

import altair as alt
import pandas as pd

from vdi_report.report import charts


def test_every_tooltip_field_gets_a_title_and_given_titles_stay():
    df = pd.DataFrame({"vendor": ["a"], "boot_rate_per_min": [1.0], "some_new_field": ["x"]})
    c = (
        alt.Chart(df)
        .mark_point()
        .encode(
            x="boot_rate_per_min:Q",
            tooltip=[
                "vendor",
                alt.Tooltip("boot_rate_per_min:Q", format=",.0f"),
                alt.Tooltip("some_new_field:N", title="Mine"),
                "some_new_field",
            ],
        )
    )
    spec = c.to_dict()
    tips = charts.titled_tooltips(spec)["encoding"]["tooltip"]
    assert [t["title"] for t in tips] == ["Vendor", "Boot rate (desktops per minute)", "Mine", "Some new field"]
    assert "title" not in spec["encoding"]["tooltip"][0]  # the spec itself is not changed
