"""Fuzz targets (run with atheris; each also runs as a hypothesis test in the suite)."""
