"""Fixtures for the whole suite: one throwaway PostgreSQL server per test session, started when first needed."""

from __future__ import annotations

import pytest

from throwaway_pg import ThrowawayPostgres


@pytest.fixture(scope="session")
def postgres_server():
    """A PostgreSQL server for this test session (see tests/throwaway_pg.py); stopped and removed at the end."""
    server = ThrowawayPostgres()
    try:
        server.start()
        yield server
    finally:
        server.remove()
