"""The report, one module per section (``sections/``), each reading only processed tables.

``context.Context`` loads the processed tables once (lazily); ``show`` is the only way a section
puts prose, tables and figures on the page: prose is a template whose numbers arrive through
``{placeholders}`` filled from data (``tests/test_report_prose.py`` fails on a typed number),
tables and figures get their numbers (Table N, Figure N) when the report is rendered.

Notebook ``10_report`` calls ``render_sections(ctx)`` section by section.
"""

SECTION_ORDER = ("answers", "evidence", "method", "models", "audit", "appendix")
