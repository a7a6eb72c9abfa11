"""Models of issue 6: per-desktop IOPS (``iops``), headroom and density (``density``), cost per
desktop (``cost``) and the sizing scenario (``scenario``). Each reads ``data/processed`` tables
and returns DataFrames; the notebooks 04, 05 and 10 narrate them."""
