"""Rule ``testbed_cpu``: test-bed CPU facts that must agree with each other (cores x clock = the
stated CPU capacity; threads = cores or twice the cores)."""

from __future__ import annotations

import itertools

import pandas as pd

from ..common import finding, fmt, overlap, where
from ..registry import rule

CLOCKS = ("cpu_clock", "cpu_frequency")
# Logical processors are the cores, or twice the cores with hyperthreading (Intel: 2 threads per core).
THREADS_PER_CORE = (1, 2)


def _testbed(df: pd.DataFrame) -> pd.DataFrame:
    return df[(df["phase"] == "testbed") | (df["test_id"] == "testbed")]


@rule(
    80,
    "testbed_cpu",
    "Cores × clock ≠ CPU capacity",
    "test-bed CPU facts disagree: logical processors x clock is not the stated CPU capacity, "
    "or threads are neither the cores nor twice the cores",
)
def rule_testbed_cpu(df: pd.DataFrame) -> list[dict]:
    """Test-bed CPU arithmetic within one host description (same source, locator, configuration
    and worker class: one table or paragraph describes one host type).

    * ``host_cpu_capacity`` (GHz) = cores x clock (``CLOCKS``), the cores being the stated
      ``logical_processors`` divided by 1 or 2 (``THREADS_PER_CORE``, hyperthreading): a finding
      when no choice reproduces the capacity within printed precision;
    * ``host_threads`` = ``host_cores`` x 1 or 2 for the pair stated on one line.
    """
    tb = _testbed(df)
    tb = tb[tb["metric"].isin(("host_cpu_capacity", *CLOCKS, "logical_processors", "host_cores", "host_threads"))]
    keys = ["source_id", "locator", "configuration", "worker_class"]
    out = []
    for _, g in tb.groupby(keys, sort=True):
        caps, clocks = g[g["metric"] == "host_cpu_capacity"], g[g["metric"].isin(CLOCKS)]
        lps = g[g["metric"] == "logical_processors"]
        for (_, c), (_, k), (_, n) in itertools.product(caps.iterrows(), clocks.iterrows(), lps.iterrows()):
            cands = [(t, n["lo"] / t * k["lo"], n["hi"] / t * k["hi"]) for t in THREADS_PER_CORE]
            if any(overlap((lo, hi), (c["lo"], c["hi"])) for _, lo, hi in cands):
                continue
            txt = " or ".join(
                f"{fmt(n['value'] / t)} cores x {fmt(k['value'])} GHz = {fmt(n['value'] / t * k['value'])} GHz"
                for t in THREADS_PER_CORE
            )
            out.append(
                finding(
                    "testbed_cpu",
                    pd.concat([c.to_frame().T, k.to_frame().T, n.to_frame().T]),
                    f"CPU capacity stated as {where(c)}, but {where(n)} logical processors at {where(k)} give {txt}.",
                    stated=c["value"],
                    recomputed=n["value"] / 2 * k["value"],
                    unit="GHz",
                )
            )
        for _, line in g.groupby("line", sort=True):
            cores, threads = line[line["metric"] == "host_cores"], line[line["metric"] == "host_threads"]
            for (_, co), (_, th) in itertools.product(cores.iterrows(), threads.iterrows()):
                if any(overlap((co["lo"] * t, co["hi"] * t), (th["lo"], th["hi"])) for t in THREADS_PER_CORE):
                    continue
                out.append(
                    finding(
                        "testbed_cpu",
                        pd.concat([co.to_frame().T, th.to_frame().T]),
                        f"{where(th)} threads are neither the {where(co)} cores nor twice them.",
                        stated=th["value"],
                        recomputed=co["value"] * 2,
                        unit="count",
                    )
                )
    return out
