"""Pytest plugins of the suite, loaded by ``tests/conftest.py`` (``pytest_plugins``)."""
