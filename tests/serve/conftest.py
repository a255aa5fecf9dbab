"""The SSH tests' fixture: game servers on 127.0.0.1, port 0, with data in a temp folder."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from pathlib import Path

import pytest
import pytest_asyncio

from wom_tui.serve.server import GameServer, ServeConfig

from .sshterm import WAIT, ServerFactory


@pytest.fixture
async def start_server(tmp_path: Path) -> AsyncIterator[ServerFactory]:
    """Start game servers on 127.0.0.1, port 0, data in a temp folder; all are closed afterwards."""
    servers: list[GameServer] = []

    async def start(**overrides: object) -> GameServer:
        settings: dict[str, object] = {"data_dir": tmp_path / "data", "seed": 1234, "port": 0}
        settings.update(overrides)
        server = GameServer(ServeConfig(**settings))  # type: ignore[arg-type]
        await server.start()
        servers.append(server)
        return server

    yield start
    for server in servers:
        await asyncio.wait_for(server.close(), WAIT)


@pytest_asyncio.fixture(scope="module", loop_scope="module")
async def shared_server(tmp_path_factory: pytest.TempPathFactory) -> AsyncIterator[GameServer]:
    """One game server for a whole test module (tests keep to their own keys and names)."""
    server = GameServer(
        ServeConfig(data_dir=tmp_path_factory.mktemp("shared") / "data", seed=4321, port=0, max_per_ip=16)
    )
    await server.start()
    yield server
    await asyncio.wait_for(server.close(), WAIT)
