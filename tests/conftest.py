"""Fixtures and settings for the whole suite: one throwaway PostgreSQL server per test session
(started when first needed), and no hypothesis deadlines."""

from __future__ import annotations

import pytest
from hypothesis import settings

from throwaway_pg import ThrowawayPostgres

# Timing is measured in bench/, never asserted: no per-example deadline, so a busy machine cannot fail a test.
settings.register_profile("wom", deadline=None)
settings.load_profile("wom")


@pytest.fixture(scope="session")
def postgres_server():
    """A PostgreSQL server for this test session (see tests/throwaway_pg.py); stopped and removed at the end."""
    server = ThrowawayPostgres()
    try:
        server.start()
        yield server
    finally:
        server.remove()
