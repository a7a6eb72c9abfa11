"""Everything a report section reads, loaded once and only when a section asks for it.

``Context(params)`` holds the report parameters (the nine of notebook ``10_report``) and exposes
the processed tables as cached attributes (``ctx.results``, ``ctx.tests``, ``ctx.pred`` ...).
Sections read data only from here, so the switch to ``vdi_report.catalogue`` is one place.
"""

import datetime
import functools
from dataclasses import dataclass, field

import pandas as pd

from .. import config, normalize, sources

SCENARIO_PARAMS = ("desktops", "worker_class", "concurrency", "headroom", "boot_window_min", "raid", "failover")


def _csv(name: str, **kw) -> pd.DataFrame:
    """A processed table by file name (``data/processed/<name>``); FileNotFoundError names it."""
    path = config.PROCESSED_DIR / name
    if not path.exists():
        raise FileNotFoundError(f"{path} is missing: run `make report` (it builds the stage that writes it)")
    return pd.read_csv(path, **kw)


def validate(params: dict) -> dict:
    """The report parameters, typed (``scenario.validate``, the model stage's contract); raises
    ValueError with a plain message for a bad value."""
    from ..models import scenario

    p = dict(params)
    p.update(scenario.validate(*(p[n] for n in SCENARIO_PARAMS)))
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
    def seed_results(self) -> pd.DataFrame:
        """results.csv of the compared (seed) documents only: external documents are an out-of-sample
        check, never pooled with the seeds in a comparison."""
        return self.results[self.results["source_id"].isin(self.seeds["source_id"])]

    @functools.cached_property
    def seed_tests(self) -> pd.DataFrame:
        return self.tests[self.tests["source_id"].isin(self.seeds["source_id"])]

    @functools.cached_property
    def tests(self) -> pd.DataFrame:
        return _csv("tests.csv", keep_default_na=False)

    @functools.cached_property
    def testbeds(self) -> pd.DataFrame:
        cols = ["drives", "raw_capacity_gb", "desktops_per_drive", "desktops_per_raw_tb"]
        return _csv("testbeds.csv", keep_default_na=False, na_values={c: [""] for c in cols})

    @functools.cached_property
    def pred(self) -> pd.DataFrame:
        """The planning table iops_per_desktop_model.csv (``iops.PLANNING_COLUMNS``)."""
        return _csv("iops_per_desktop_model.csv", keep_default_na=False, na_values=[""])

    @functools.cached_property
    def cv_by_vendor(self) -> pd.DataFrame:
        return _csv("iops_model_cv_by_vendor.csv")

    @functools.cached_property
    def exclusions(self) -> pd.DataFrame:
        return _csv("iops_model_exclusions.csv", keep_default_na=False)

    @functools.cached_property
    def external(self) -> pd.DataFrame:
        return _csv("iops_model_external.csv", keep_default_na=False)

    @functools.cached_property
    def boot_storms(self) -> pd.DataFrame:
        return _csv("boot_storms.csv", keep_default_na=False, na_values=[""])

    @functools.cached_property
    def boot_external(self) -> pd.DataFrame:
        return _csv("boot_external.csv", keep_default_na=False, na_values=[""])

    @functools.cached_property
    def density_summary(self) -> pd.DataFrame:
        return _csv("density_summary.csv", keep_default_na=False, na_values=[""])

    @functools.cached_property
    def cost_readings(self) -> pd.DataFrame:
        return _csv("cost_readings.csv", keep_default_na=False, na_values=[""])

    @functools.cached_property
    def cost(self) -> pd.DataFrame:
        return _csv("cost.csv", keep_default_na=False, na_values=[""])

    @functools.cached_property
    def sizing(self) -> pd.DataFrame:
        """``scenario.size`` of the report parameters (one row per phase; its docstring has the columns)."""
        from ..models import scenario
        return scenario.size({k: self.params[k] for k in SCENARIO_PARAMS}, self.sizing_inputs)

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
    def sizing_inputs(self) -> dict:
        """data/processed/sizing_inputs.json: the model stage's inputs of ``scenario.size``."""
        from ..models import scenario
        return scenario.read_inputs(config.PROCESSED_DIR / "sizing_inputs.json")

    def vocabulary_order(self, field_name: str) -> list[str]:
        """The values of a vocabulary field in the file's order (phases: the order of a VDI day)."""
        return [r["value"] for r in self.vocabulary.get(field_name, [])]

    def label(self, field_name: str, value: str) -> str:
        """The vocabulary's label of ``value`` in ``field_name`` (the value itself when unlisted)."""
        for row in self.vocabulary.get(field_name, []):
            if row["value"] == value:
                return row["label"]
        return value.replace("_", " ")
