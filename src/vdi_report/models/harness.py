"""The test harness and data path behind a planning row (issue 24, item 2).

Every planning row of ``iops_per_desktop_model.csv`` pools documents; what their figures hold
depends on how each test was run: the load tool and workload, the probe or timer actions that ran
beside it (Login Enterprise's EUX measurements "significantly affect the performance, especially
CPU and storage", ra2022_05:L28; the 2023 EUX disk operations raised IOPS "up to 10 times",
ra-2022-06 L48), where profile I/O lands and where a Citrix Provisioning write cache sits. Those
facts are digitized with their lines in ``data/raw/test_setup.csv``; this module states them per
row, for the documents and provisioning of that row, with the lines they come from.
"""

from __future__ import annotations

import pandas as pd

# The factors of data/raw/test_setup.csv a planning row states (column name = factor name).
HARNESS_FACTORS = ("load_tool", "probes", "profile_storage", "write_cache")
NOT_STATED = "not stated"


def _configurations(setup_wide: pd.DataFrame, source_id: str, provisioning: str) -> list[str]:
    """The configurations of ``source_id`` whose stated provisioning is one of ``provisioning``
    (``mcs``, ``pvs`` or ``mcs+pvs``); every configuration of the document for a seed row (whose
    provisioning names clone types) or when none matches; ``[""]``: the document's own lines."""
    w = setup_wide[setup_wide["source_id"] == source_id]
    wanted = set(provisioning.split("+"))
    confs = [c for c, p in zip(w["configuration"], w["provisioning"]) if c and p in wanted]
    if not confs:
        confs = [c for c in w["configuration"] if c]
    return confs or [""]


def harness_columns(
    rows: pd.DataFrame,
    row_sources: pd.Series,
    labels: dict[str, str],
    setup_wide: pd.DataFrame,
    row_runs: pd.Series | None = None,
) -> pd.DataFrame:
    """``rows`` (planning rows, any columns, with ``provisioning``) with one column per factor of
    ``HARNESS_FACTORS`` and ``harness_lines``.

    ``row_sources``: per row (same index), the source ids of the documents pooled in it;
    ``labels``: source id -> document label; ``setup_wide``: ``raw.test_setup.wide`` of
    data/raw/test_setup.csv. A factor's cell lists, per document of the row, the distinct values
    stated for its configurations of the row's provisioning (``"<document>: <value>"``, documents
    joined by ``"; "``; a document's values by ``" | "``; ``"<document>: not stated"`` beside the
    documents that state it); ``"not stated"`` alone where no document of the row states it.
    ``row_runs``: per row, the (source id, configuration) pairs of the records pooled in it; a
    document's configurations are those when given (the runs the row holds: e.g. RA-2022's
    first-run profile-container run is not in the MCS rows), else those of the row's provisioning.
    ``harness_lines``: the ``text_file:L<line>`` each stated value comes from
    (``(assumed)`` when test_setup.csv's basis is assumed). Raises KeyError if ``rows`` has no
    ``provisioning`` column."""
    from ..raw import test_setup

    out = {f: [] for f in (*HARNESS_FACTORS, "harness_lines")}
    for i, r in rows.iterrows():
        sources = list(dict.fromkeys(row_sources.loc[i] or []))
        lines: list[str] = []
        for factor in HARNESS_FACTORS:
            parts = []
            runs = [] if row_runs is None else list(row_runs.loc[i] or [])
            for s in sources:
                confs = sorted({c for src, c in runs if src == s}) or _configurations(
                    setup_wide, s, str(r["provisioning"])
                )
                found = [test_setup.lookup(setup_wide, s, c, factor) for c in confs]
                values = list(dict.fromkeys(v for v, _ in found if v))
                lines += [src for v, src in found if v]
                parts.append(f"{labels.get(s, s)}: {' | '.join(values) or NOT_STATED}")
            stated = any(not x.endswith(f": {NOT_STATED}") for x in parts)
            out[factor].append("; ".join(parts) if stated else NOT_STATED)
        out["harness_lines"].append(" ".join(dict.fromkeys(lines)))
    return rows.assign(**out)
