"""Everything a report section reads, loaded once and only when a section asks for it.

``Context(params)`` holds the report parameters (the nine of notebook ``10_report``) and exposes
the processed tables as cached attributes (``ctx.results``, ``ctx.tests``, ``ctx.pred`` ...).
Sections read data only from here, so the switch to ``vdi_report.catalogue`` is one place.
"""

import datetime
import functools
import json
from dataclasses import dataclass, field

import pandas as pd

from .. import config, normalize, sources

RAID_WRITE_PENALTY = {"none": 1, "raid10": 2, "raid5": 4, "raid6": 6}  # the report contract (issue 12)
FAILOVER_MODES = ("none", "controller")


def _csv(name: str, **kw) -> pd.DataFrame:
    """A processed table by file name (``data/processed/<name>``); FileNotFoundError names it."""
    path = config.PROCESSED_DIR / name
    if not path.exists():
        raise FileNotFoundError(f"{path} is missing: run `make report` (it builds the stage that writes it)")
    return pd.read_csv(path, **kw)


def validate(params: dict) -> dict:
    """The report parameters, typed; ValueError with a plain message for a bad value.

    Uses ``scenario.validate`` (the model stage's contract: seven parameters) when it takes them,
    otherwise checks the three it knows and the four others here.
    """
    import inspect

    from ..models import scenario

    p = dict(params)
    names = ["desktops", "worker_class", "concurrency", "headroom", "boot_window_min", "raid", "failover"]
    if len(inspect.signature(scenario.validate).parameters) >= len(names):
        p.update(scenario.validate(*(p[n] for n in names)))
        return p
    p["desktops"], p["worker_class"], p["headroom"] = scenario.validate(p["desktops"], p["worker_class"], p["headroom"])
    try:
        p["concurrency"], p["boot_window_min"] = float(p["concurrency"]), float(p["boot_window_min"])
    except (TypeError, ValueError):
        raise ValueError("concurrency and boot_window_min must be numbers") from None
    if not 0 < p["concurrency"] <= 1:
        raise ValueError(f"concurrency must be a fraction in (0, 1], got {p['concurrency']!r}")
    if not p["boot_window_min"] > 0:
        raise ValueError(f"boot_window_min must be positive minutes, got {p['boot_window_min']!r}")
    if p["raid"] not in RAID_WRITE_PENALTY:
        raise ValueError(f"raid must be one of {', '.join(RAID_WRITE_PENALTY)}, got {p['raid']!r}")
    if p["failover"] not in FAILOVER_MODES:
        raise ValueError(f"failover must be one of {', '.join(FAILOVER_MODES)}, got {p['failover']!r}")
    if p["boot_window_min"] == int(p["boot_window_min"]):
        p["boot_window_min"] = int(p["boot_window_min"])
    return p


@dataclass
class Context:
    """Report parameters and lazily loaded processed tables.

    ``params``: dict with desktops (int), worker_class (str), concurrency (fraction),
    headroom (fraction), boot_window_min (minutes), raid (none|raid10|raid5|raid6), failover
    (none|controller), report_date (ISO date) and cost_file (path or "").
    """

    params: dict
    _cache: dict = field(default_factory=dict, repr=False)

    def __post_init__(self):
        self.params = validate(self.params)

    @property
    def report_date(self) -> str:
        return self.params.get("report_date") or datetime.date.today().isoformat()

    @functools.cached_property
    def sources(self) -> pd.DataFrame:
        """data/raw/sources.csv, validated (one row per document)."""
        return sources.load_sources()

    @functools.cached_property
    def seeds(self) -> pd.DataFrame:
        """The compared documents (``role == seed``); externals are never pooled with them."""
        s = self.sources
        return s[s["role"] == "seed"] if "role" in s.columns else s

    @functools.cached_property
    def results(self) -> pd.DataFrame:
        """data/processed/results.csv (README: processed data contract)."""
        return normalize.read_normalized(config.PROCESSED_DIR / "results.csv")

    @functools.cached_property
    def tests(self) -> pd.DataFrame:
        return _csv("tests.csv", keep_default_na=False)

    @functools.cached_property
    def testbeds(self) -> pd.DataFrame:
        cols = ["drives", "raw_capacity_gb", "desktops_per_drive", "desktops_per_raw_tb"]
        return _csv("testbeds.csv", keep_default_na=False, na_values={c: [""] for c in cols})

    @functools.cached_property
    def pred(self) -> pd.DataFrame:
        """iops_per_desktop_model.csv: phase, worker_class, statistic, estimate, pi90_low, pi90_high ..."""
        return _csv("iops_per_desktop_model.csv")

    @functools.cached_property
    def cv(self) -> pd.DataFrame:
        return _csv("iops_model_cv.csv")

    @functools.cached_property
    def coefs(self) -> pd.DataFrame:
        return _csv("iops_model_coefficients.csv")

    @functools.cached_property
    def obs(self) -> pd.DataFrame:
        return _csv("iops_model_observations.csv", keep_default_na=False)

    @functools.cached_property
    def density(self) -> pd.DataFrame:
        from ..models import density
        return density.read(config.PROCESSED_DIR / "density.csv")

    @functools.cached_property
    def findings(self) -> pd.DataFrame:
        from .. import audit
        return audit.read_findings()

    @functools.cached_property
    def register(self) -> pd.DataFrame:
        from .. import audit
        return audit.load_discrepancies()

    @functools.cached_property
    def claims(self) -> pd.DataFrame:
        from .. import audit
        return audit.load_claims()

    @functools.cached_property
    def vocabulary(self) -> dict:
        return config.VOCABULARY

    @functools.cached_property
    def sizing_inputs(self) -> dict | None:
        """data/processed/sizing_inputs.json (the model stage's inputs of ``scenario.size``), or
        None while the model stage does not write it."""
        path = config.PROCESSED_DIR / "sizing_inputs.json"
        return json.loads(path.read_text(encoding="utf-8")) if path.exists() else None

    def label(self, field_name: str, value: str) -> str:
        """The vocabulary's label of ``value`` in ``field_name`` (the value itself when unlisted)."""
        for row in self.vocabulary.get(field_name, []):
            if row["value"] == value:
                return row["label"]
        return value.replace("_", " ")
