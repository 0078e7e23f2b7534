"""The pooltool scripts here run in pooltool's own venv, never under pytest."""

collect_ignore = ["data/make_fixtures.py"]
