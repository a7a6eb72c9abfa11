"""Everything a report section reads, loaded once and only when a section asks for it.

``Context(params)`` holds the report parameters (those of notebook ``10_report``) and exposes
the processed tables as cached attributes (``ctx.results``, ``ctx.tests``, ``ctx.pred`` ...).
Sections read data only from here; the processed tables come through ``vdi_report.catalogue``
(``TABLES``), the curated registers through ``vdi_report.audit``.
"""

import datetime
import functools
from dataclasses import dataclass, field

import pandas as pd

from .. import config, parameters
from ..raw import sources

SCENARIO_PARAMS = parameters.SCENARIO_NAMES  # the inputs of scenario.size (declared in parameters.py)


# The processed tables a section reads, by the attribute that exposes them: ``ctx.<attribute>``
# is ``catalogue.read(<table>)`` (typed: text "" where not stated, numbers float with NaN), read
# once. The catalogue (``vdi_report.catalogue``) declares each table's columns and writing stage.
TABLES = {
    "results": "results",  # every digitized record, normalized
    "tests": "tests",  # one row per test run, with headline figures
    "testbeds": "testbeds",  # drives and raw capacity per document
    "findings": "audit_findings",  # the automated audit's findings
    "plan_all": "iops_per_desktop_model",  # the planning table, every era and provisioning (ctx.plan: sizing rows)
    "obs": "iops_model_observations",  # the model's observations
    "headline_iops": "headline_iops",  # the IOPS per desktop the headline table shows (the model's value)
    "exclusions": "iops_model_exclusions",  # records the model leaves out, and why
    "coefs": "iops_model_coefficients",
    "cv": "iops_model_cv",  # held-out predictions of each specification
    "cv_by_vendor": "iops_model_cv_by_vendor",  # leave-one-vendor-out, per vendor
    "external": "iops_model_external",  # out-of-sample check on the external documents
    "lodo": "iops_model_lodo",  # leave-one-document-out per era
    "calibration": "iops_calibration",  # leave-one-lab-out: the intervals for a new lab checked
    "calibration_coverage": "iops_calibration_coverage",  # how many held-out labs each interval held
    "observation_context": "observation_context",  # what each observation was measured with
    "rules_of_thumb": "rules_of_thumb",  # the documents' rules against the seed rows
    "io_profile": "io_profile",  # read share and I/O size per test (derived)
    "within_lab": "within_lab_effects",  # within-lab effects (one lab: provisioning, profile storage, harness)
    "boot_storms": "boot_storms",  # boot storms by rate, per document
    "boot_external": "boot_external",
    "sizing_inputs": "sizing_inputs",  # the inputs of scenario.size (JSON: a dict)
    "scenario_rows": "sizing_scenario",  # the report scenario per phase (stage scenario; ctx.sizing checks it)
    "verdicts": "array_verdicts",  # per-array answers at the report scenario (stage scenario)
    "density": "density",  # utilization rows and extrapolation per resource
    "density_summary": "density_summary",  # demonstrated and extrapolated density per array
    "cost_readings": "cost_readings",  # each reading of a vendor's $-per-desktop claim
    "cost": "cost",  # cost per desktop from assumed prices
    "sensitivity": "sensitivity",  # planning figures under each analysis choice (sensitivity.csv)
    "sensitivity_ranking": "sensitivity_ranking",  # the choices by their largest one-flip move
    "sensitivity_movers": "sensitivity_movers",  # per planning row, the choices that move it
    "sensitivity_tornado": "sensitivity_tornado",  # per choice and row, the lowest and highest change
    "cost_assumptions": "cost_assumptions",  # the cost file as the cost stage read it
    "drive_mix": "drive_mix",  # FMD and HDD counts per tested configuration
    "tiering_saving": "tiering_saving",  # drive-cost saving of the tiered configuration
    "tiering_saving_curve": "tiering_saving_curve",  # that saving over HDD/FMD price ratios 0 to 1
    "boot_demand": "boot_demand",  # the boot-demand line up to the scenario's rate (stage scenario)
}


def validate(params: dict) -> dict:
    """The report parameters, typed (``scenario.validate``, the model stage's contract); raises
    ValueError with a plain message for a bad value."""
    from ..models import scenario

    p = dict(params)
    p.update(scenario.validate(**{n: p[n] for n in SCENARIO_PARAMS if n in p}))
    p["profile_file"] = p.get("profile_file") or ""
    if p["profile_file"]:
        scenario.read_profile(p["profile_file"])  # a bad profile fails here, with file, line and column
    return p


@dataclass
class Context:
    """Report parameters and lazily loaded processed tables.

    ``params``: dict with desktops (int), concurrency (fraction),
    headroom (fraction), boot_window_min (minutes), raid (none|raid10|raid5|raid6), failover
    (none|controller), report_date (ISO date) and cost_file (path or "").
    """

    params: dict
    _cache: dict = field(default_factory=dict, repr=False)

    def __post_init__(self):
        self.params = validate(self.params)

    def __getattr__(self, name: str):
        """``ctx.<attribute>`` of ``TABLES``: the processed table, read through the catalogue once.
        Raises FileNotFoundError naming the build target when the table is missing."""
        if name.startswith("_") or name not in TABLES:
            raise AttributeError(f"{type(self).__name__!r} has no attribute {name!r}")
        if name not in self._cache:
            from .. import catalogue

            self._cache[name] = catalogue.read(TABLES[name])
        return self._cache[name]

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
    def seed_results(self) -> pd.DataFrame:
        """results.csv of the compared (seed) documents only: external documents are an out-of-sample
        check, never pooled with the seeds in a comparison."""
        return self.results[self.results["source_id"].isin(self.seeds["source_id"])]

    @functools.cached_property
    def seed_tests(self) -> pd.DataFrame:
        return self.tests[self.tests["source_id"].isin(self.seeds["source_id"])]

    @functools.cached_property
    def sizing(self) -> pd.DataFrame:
        """The report scenario per phase as the ``scenario`` stage computed it (``sizing_scenario``,
        columns ``scenario.SIZE_COLUMNS``): read, never recomputed. Raises ValueError when the table
        was built for other parameters than these (rebuild with ``make report``)."""
        s = self.scenario_rows
        for k in ("desktops", "concurrency", "headroom", "boot_window_min", "login_window_min", "raid", "era"):
            if k in s.columns and k in self.params and len(s):
                have, want = s[k].iloc[0], self.params[k]
                if have != want and not (isinstance(want, float | int) and abs(float(have) - float(want)) < 1e-9):
                    raise ValueError(
                        f"data/processed/sizing_scenario.csv was built for {k} = {have}, not {want}: "
                        "rebuild it with `make report` and these parameters"
                    )
        return s

    def boot_demand_line(self, rate: float) -> pd.DataFrame:
        """The boot-demand line the ``scenario`` stage drew (``boot_demand``): read, never
        recomputed. Raises ValueError when it was drawn for another boot rate than ``rate``
        (desktops per minute; rebuild with ``make report`` and these parameters)."""
        line = self.boot_demand
        have = float(line["scenario_boot_rate_per_min"].iloc[0]) if len(line) else float("nan")
        if not abs(have - float(rate)) <= 1e-6 * max(1.0, abs(float(rate))):
            raise ValueError(
                f"data/processed/boot_demand.csv was drawn for a boot rate of {have} desktops per minute, not {rate}: "
                "rebuild it with `make report` and these parameters"
            )
        return line

    @functools.cached_property
    def quotes(self) -> dict:
        """The buyer's price per array at the report scenario, by ``source_id[:configuration]`` of
        each tested configuration (from ``array_verdicts``' price_usd: the cost file's quotes as the
        scenario stage applied them); {} without a quote."""
        v = self.verdicts
        v = v[v["price_usd"].notna()].drop_duplicates(["source_id", "configuration"])
        return {
            s + (f":{c}" if c else ""): float(p) for s, c, p in zip(v["source_id"], v["configuration"], v["price_usd"])
        }

    @functools.cached_property
    def plan(self) -> pd.DataFrame:
        """The planning rows a sizing reads (``era.sizing_rows``: one per era and cell; modern rows
        of MCS, or of MCS and Provisioning pooled under the choice); ``plan_all`` has every row."""
        from ..models import era

        return era.sizing_rows(self.plan_all)

    @functools.cached_property
    def pred(self) -> pd.DataFrame:
        """The seed era's rows of the planning table (what the seed-model chapter charts)."""
        return self.plan[self.plan["era"] == "seed"].reset_index(drop=True)

    @functools.cached_property
    def profile(self) -> dict | None:
        """The architect's figures of ``PROFILE_FILE`` (``scenario.read_profile``), or None."""
        from ..models import scenario

        return scenario.read_profile(self.params["profile_file"]) if self.params["profile_file"] else None

    @functools.cached_property
    def choices(self):
        """The analysis choices in force (``raw.choices.Choices``): the declared defaults, or the
        reviewer's file of the ``choices_file`` parameter (``make report CHOICES=...``)."""
        from ..raw import choices as analysis

        return analysis.resolve(self.params.get("choices_file") or None)

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

    def vocabulary_order(self, field_name: str) -> list[str]:
        """The values of a vocabulary field in the file's order (phases: the order of a VDI day)."""
        return [r["value"] for r in self.vocabulary.get(field_name, [])]

    def label(self, field_name: str, value: str) -> str:
        """The vocabulary's label of ``value`` in ``field_name`` (the value itself when unlisted)."""
        for row in self.vocabulary.get(field_name, []):
            if row["value"] == value:
                return row["label"]
        return value.replace("_", " ")
