"""vdi_report: digitize, normalize, model and audit VDI storage reference architectures.

Data flow (one module per step):
``data/raw`` --sources--> ``normalize`` --> ``data/processed`` (``catalogue``) --> ``audit`` /
``models`` --> ``charts`` / ``render``. The build's stages are declared in ``stages``.

Importing the package imports nothing else. The build's environment (``.venv``) has no
JupyterLab: its server asks for jsonschema's format checkers, whose IRI grammar
(``rfc3987_syntax``) takes seconds to import in every kernel and papermill run that imports
jsonschema; JupyterLab has its own environment (``make lab``, ``.venv-lab``).
"""

__version__ = "0.2.0"  # also in CITATION.cff and CHANGELOG.md (a test checks)
