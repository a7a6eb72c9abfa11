"""Paths and controlled vocabularies, in one place.

Paths are built from the package location so no module hard-codes a directory. The seed
texts (the vendor documents) live beside the project in ``../shared/seeds``; set
``VDI_SEEDS_DIR`` to point elsewhere.
"""

import os
from pathlib import Path

PROJ_ROOT = Path(__file__).resolve().parents[2]
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

# Phases of a VDI day (the vocabulary's order), for tables and charts.
NON_TEST_PHASES = ("overall", "testbed", "capacity", "cost", "sizing")
PHASE_ORDER = tuple(p for p in PHASES if p not in NON_TEST_PHASES)
PHASE_LABELS = {r["value"]: r["label"] for r in VOCABULARY["phase"] if r["value"] in PHASE_ORDER}
VANTAGE_LABELS = {r["value"]: r["label"] for r in VOCABULARY["vantage"]}
# The sign printed before a bounded number (the vocabulary's label: ``gt`` "≥ ", ``lt`` "≤ ",
# ``approx`` "≈ "; nothing for ``eq``): one sign per bound in every table, chart and sentence.
BOUND_SIGNS = {r["value"]: "" if r["value"] == "eq" else f"{r['label']} " for r in VOCABULARY["bound"]}


def bound_sign(bound: str) -> str:
    """The sign before a number with this ``bound`` (``BOUND_SIGNS``); "" for eq or an unknown one."""
    return BOUND_SIGNS.get(bound, "")
