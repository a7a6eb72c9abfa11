"""Paths and controlled vocabularies, in one place.

Paths are built from the package location so no module hard-codes a directory. The seed
texts (the vendor documents) live beside the project in ``../shared/seeds``; set
``VDI_SEEDS_DIR`` to point elsewhere.
"""

import os
from pathlib import Path

PROJ_ROOT = Path(__file__).resolve().parents[2]
STATIC_DIR = Path(__file__).resolve().parent / "static"  # the HTML page's scripts (static/*.js)
DATA_DIR = PROJ_ROOT / "data"
RAW_DIR = DATA_DIR / "raw"
RECORDS_DIR = RAW_DIR / "records"
PROCESSED_DIR = DATA_DIR / "processed"
NORMALIZED_DIR = PROCESSED_DIR / "normalized"
REPORTS_DIR = PROJ_ROOT / "reports"
# The report notebook writes its files here; the build's last step publishes them into
# REPORTS_DIR all at once (files.publish), so reports/ never holds half of a new report.
REPORT_STAGING_DIR = PROJ_ROOT / "build" / "publish"
NOTEBOOKS_DIR = PROJ_ROOT / "notebooks"
TEMPLATES_DIR = PROJ_ROOT / "templates"
SEEDS_DIR = Path(os.environ.get("VDI_SEEDS_DIR", PROJ_ROOT.parent / "shared" / "seeds"))

EXTERNAL_DIR = Path(os.environ.get("VDI_EXTERNAL_DIR", PROJ_ROOT.parent / "shared" / "external"))
# Where each source's text lives, by the ``text_dir`` column of sources.csv.
TEXT_DIRS = {"seeds": SEEDS_DIR, "external": EXTERNAL_DIR}

VOCABULARY_FIELDS = (
    "phase",
    "statistic",
    "bound",
    "vantage",
    "condition",
    "variant",
    "configuration",
    "worker_class",
    "clone_type",
    "persistence",
    "aggregation",
    "window",
    "load",
    "claim_topic",
    "era",
    "fact_kind",
)


def _read_vocabulary(path: Path = RAW_DIR / "vocabulary.csv") -> dict[str, list[dict]]:
    """``data/raw/vocabulary.csv`` as {field: [row, ...]} in the file's ``order``.

    Read with the standard library so that importing ``config`` stays cheap. Raises ValueError
    naming the file and line for a row whose ``field`` is unknown or whose ``order`` is not an
    integer.
    """
    import csv

    vocab: dict[str, list[dict]] = {f: [] for f in VOCABULARY_FIELDS}
    with open(path, encoding="utf-8", newline="") as fh:
        for line, row in enumerate(csv.DictReader(fh), start=2):
            if row["field"] not in vocab:
                raise ValueError(
                    f"{path}: line {line}: column 'field' = {row['field']!r}: "
                    f"expected one of {', '.join(VOCABULARY_FIELDS)}"
                )
            try:
                row["order"] = int(row["order"])
            except ValueError:
                raise ValueError(f"{path}: line {line}: column 'order' = {row['order']!r}: not an integer") from None
            vocab[row["field"]].append(row)
    return {f: sorted(rows, key=lambda r: r["order"]) for f, rows in vocab.items()}


# Controlled vocabularies: data/raw/vocabulary.csv (documented in data/raw/README.md).
VOCABULARY = _read_vocabulary()


def label(field: str, value: str) -> str:
    """The vocabulary's label of ``value`` in ``field`` (``config1`` -> ``Config 1``); the value
    with spaces for underscores when the vocabulary does not list it."""
    for r in VOCABULARY.get(field, []):
        if r["value"] == value:
            return r["label"]
    return str(value).replace("_", " ")


def values(field: str) -> tuple[str, ...]:
    """The allowed values of one vocabulary ``field``, in the vocabulary's order."""
    return tuple(r["value"] for r in VOCABULARY[field])


PHASES, STATISTICS, BOUNDS, VANTAGES = values("phase"), values("statistic"), values("bound"), values("vantage")
CONDITIONS, VARIANTS, CONFIGURATIONS = values("condition"), values("variant"), values("configuration")
WORKER_CLASSES, CLONE_TYPES, PERSISTENCE = values("worker_class"), values("clone_type"), values("persistence")
AGGREGATIONS, WINDOWS, LOADS = values("aggregation"), values("window"), values("load")

ERAS = values("era")

# The lists the models and the report share, each derived here from the vocabulary's ``kind``
# column (space-separated kinds; data/raw/README.md) and declared nowhere else (a unit test greps
# ``src/`` for a second declaration). Phase kinds: ``scenario`` (a phase of the sizing scenario, one
# planning row each), ``user`` (load driven by users logging on and working), ``maintenance`` (an
# operation on the desktop pool outside the users' day), ``run`` (a whole test run, boot included),
# ``context`` (not a test phase: test bed, sizing rules, capacity, cost, statements about all tests).
PHASE_KINDS = ("scenario", "user", "maintenance", "run", "context")
# The kinds each field may take (raw.validate rejects any other): worker classes of kind
# ``login_vsi`` are Login VSI's standard workloads; clone types of kind ``scenario`` are the
# scenario's CLONE_TYPE values.
KINDS = {"phase": PHASE_KINDS, "worker_class": ("login_vsi",), "clone_type": ("scenario",)}


def kinds(field: str, value: str) -> frozenset[str]:
    """The vocabulary's kinds of ``value`` in ``field`` (empty when the value or its kind is not listed)."""
    for r in VOCABULARY.get(field, []):
        if r["value"] == value:
            return frozenset((r.get("kind") or "").split())
    return frozenset()


def of_kind(field: str, kind: str) -> tuple[str, ...]:
    """The values of vocabulary ``field`` whose ``kind`` includes ``kind``, in the vocabulary's order."""
    return tuple(v for v in values(field) if kind in kinds(field, v))


# The scenario's phases (boot, login, steady_state): one planning row and one sized row each.
SCENARIO_PHASES = of_kind("phase", "scenario")
# Phases whose figures are users' load (login, login_and_steady_state, steady_state): the IOPS
# model's observations, the login/steady-state merge of normalize.
USER_PHASES = of_kind("phase", "user")
# The scenario's user phases (login, steady_state): what a user-load verdict reads.
SCENARIO_USER_PHASES = tuple(p for p in SCENARIO_PHASES if p in USER_PHASES)
# Not test phases (overall, testbed, capacity, cost, sizing).
CONTEXT_PHASES = of_kind("phase", "context")
# Phases of the desktops' day (the scenario's and the users' phases) and ``overall`` (a statement
# about all tests, AccelStor's "always under 4 %", binds them too): density's ``phase_kind`` user.
DAY_PHASES = tuple(p for p in PHASES if p in SCENARIO_PHASES + USER_PHASES or p == "overall")
# Phases whose load scales with the number of desktops (density's counts): the users' phases and
# ``overall``; a boot storm's load scales with the boot rate, not the count.
COUNT_PHASES = tuple(p for p in DAY_PHASES if p in USER_PHASES or p == "overall")
# Phases of a VDI day (the vocabulary's order), for tables and charts: every phase but the context ones.
PHASE_ORDER = tuple(p for p in PHASES if p not in CONTEXT_PHASES)
# Login VSI's worker classes (task, office, knowledge, power): worker_class kind ``login_vsi``.
LOGIN_VSI_CLASSES = of_kind("worker_class", "login_vsi")
# The scenario's CLONE_TYPE values (full, linked): the clone types of kind ``scenario`` without
# their ``_clone`` suffix (sources.csv says full_clone / linked_clone).
SCENARIO_CLONE_TYPES = tuple(c.removesuffix("_clone") for c in of_kind("clone_type", "scenario"))
PHASE_LABELS = {r["value"]: r["label"] for r in VOCABULARY["phase"] if r["value"] in PHASE_ORDER}
VANTAGE_LABELS = {r["value"]: r["label"] for r in VOCABULARY["vantage"]}
# The sign printed before a bounded number (the vocabulary's label: ``gt`` "≥ ", ``lt`` "≤ ",
# ``approx`` "≈ "; nothing for ``eq``): one sign per bound in every table, chart and sentence.
BOUND_SIGNS = {r["value"]: "" if r["value"] == "eq" else f"{r['label']} " for r in VOCABULARY["bound"]}


def bound_sign(bound: str) -> str:
    """The sign before a number with this ``bound`` (``BOUND_SIGNS``); "" for eq or an unknown one."""
    return BOUND_SIGNS.get(bound, "")
