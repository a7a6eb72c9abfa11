"""The report, one module per section (``sections/``), each reading only processed tables.

``context.Context`` loads the processed tables once (lazily); ``show`` is the only way a section
puts prose, tables and figures on the page: prose is a template whose numbers arrive through
``{placeholders}`` filled from data (``tests/test_report_prose.py`` fails on a typed number),
tables and figures get their numbers (Table N, Figure N) when the report is rendered.

Chapters are discovered (``sections.CHAPTERS``, ordered by each module's ``ORDER``); notebook
``10_report`` renders them in order.
"""
