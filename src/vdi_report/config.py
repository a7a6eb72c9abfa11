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
NOTEBOOKS_DIR = PROJ_ROOT / "notebooks"
TEMPLATES_DIR = PROJ_ROOT / "templates"
SEEDS_DIR = Path(os.environ.get("VDI_SEEDS_DIR", PROJ_ROOT.parent / "shared" / "seeds"))

# Controlled vocabularies (documented in data/raw/README.md).
PHASES = (
    "provisioning", "boot", "login", "steady_state", "login_and_steady_state", "patching",
    "power_off", "refresh", "recompose", "overall", "testbed", "capacity", "cost", "sizing",
)
STATISTICS = ("peak", "average", "total", "single")
BOUNDS = ("eq", "approx", "lt", "gt")
VANTAGES = ("", "array_frontend", "array_backend", "host", "guest", "storage_port")
CONDITIONS = ("", "normal", "failover")
VARIANTS = ("", "monday", "tuesday", "8_hour")
CONFIGURATIONS = ("", "config1", "config2", "config3")
WORKER_CLASSES = ("", "task", "office", "knowledge", "power", "extreme_power", "mixed")

# Phases in the order of a VDI day, for tables and charts.
PHASE_ORDER = ("provisioning", "boot", "login", "login_and_steady_state", "steady_state",
               "patching", "power_off", "refresh", "recompose")
PHASE_LABELS = {
    "provisioning": "Provisioning", "boot": "Boot storm", "login": "Login storm",
    "login_and_steady_state": "Login + steady state", "steady_state": "Steady state",
    "patching": "Patching", "power_off": "Power off", "refresh": "Refresh", "recompose": "Recompose",
}
