"""The package of the fixture (its agents are re-exported by pkg/agents/__init__.py)."""
