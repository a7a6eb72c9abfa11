"""vdi_report: digitize, normalize, model and audit VDI storage reference architectures.

Data flow (one module per step):
``data/raw`` --sources--> ``normalize`` --> ``data/processed`` --> ``audit`` / ``models`` --> ``charts`` / ``render``.
"""

__version__ = "0.1.0"
