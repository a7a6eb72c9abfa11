"""vdi_report: digitize, normalize, model and audit VDI storage reference architectures.

Data flow (one module per step):
``data/raw`` --sources--> ``normalize`` --> ``data/processed`` (``catalogue``) --> ``audit`` /
``models`` --> ``charts`` / ``render``. The build's stages are declared in ``stages``.

Importing the package defers one slow third-party import (see ``defer_iri_grammar``), so every
process that imports ``vdi_report`` first (the notebooks' kernels, ``render``, the notebook
runner ``vdi_report.execute``, the tests) starts seconds faster.
"""

import importlib.util
import sys
import types

__version__ = "0.2.0"  # also in CITATION.cff and CHANGELOG.md (a test checks)


def defer_iri_grammar() -> None:
    """Compile jsonschema's IRI grammar on first use instead of at import.

    ``jsonschema`` (imported by nbformat, papermill, nbconvert and altair) imports the optional
    ``rfc3987_syntax`` package at import time for its ``iri``/``iri-reference`` format checks,
    and that package compiles an Earley grammar when imported: 3.5 s on the project's 2-core
    machine (``python -X importtime -c "import altair"``), paid by every kernel and every
    papermill run. This puts a stand-in module in its place whose ``is_valid_syntax`` imports
    the real package on its first call, so the checks behave exactly as before. Does nothing
    when the package is absent or already imported.
    """
    name = "rfc3987_syntax"
    if name in sys.modules or importlib.util.find_spec(name) is None:
        return
    stub = types.ModuleType(name, "stand-in: the real module is imported on the first is_valid_syntax call")
    real = {}

    def is_valid_syntax(term: str, value: str) -> bool:
        if "f" not in real:
            if sys.modules.get(name) is stub:
                del sys.modules[name]
            real["f"] = importlib.import_module(name).is_valid_syntax
        return real["f"](term, value)

    stub.is_valid_syntax = is_valid_syntax
    sys.modules[name] = stub


defer_iri_grammar()
