"""The data edge: reading and validating ``data/raw`` (never written by code).

``sources`` (sources.csv and the records files, pandera schemas; errors name file, line, column,
value), ``provenance`` (each record's quote against its document's text), ``units`` (the pint
registry and each metric's unit), ``registers`` (the curated discrepancy register and claims).
"""
