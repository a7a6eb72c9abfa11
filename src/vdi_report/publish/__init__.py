"""Publishing the executed report notebook: ``render`` (HTML, interactive and offline, and a
tagged PDF/UA printed by headless Chromium and finished with pikepdf)."""
