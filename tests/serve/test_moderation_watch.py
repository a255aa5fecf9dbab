"""The server's moderation watch on its own: it ends the sessions a ban reaches, lets a ban run out with the
clock, and keeps the last bans it read while the store cannot be read (saying so once)."""

from __future__ import annotations

import logging
from dataclasses import dataclass, field
from datetime import datetime, timedelta, timezone
from pathlib import Path

from wom_tui.domain.moderation import Ban
from wom_tui.domain.store import StoreError
from wom_tui.domain.store.folder.store import FolderStore
from wom_tui.serve.moderation import ModerationWatch
from wom_tui.settings import Settings

from .conftest import until

FP = "SHA256:" + "w" * 43


@dataclass
class FakeSession:
    fingerprint: str | None
    host: str
    ended: list[str] = field(default_factory=list)

    def end(self, reason: str, farewell: str | None = None) -> None:
        self.ended.append(farewell or "")


async def test_a_ban_ends_only_the_sessions_it_covers_and_runs_out(tmp_path: Path) -> None:
    store = FolderStore(tmp_path)
    store.register("Alan", key=FP)
    alan, other = FakeSession(FP, "192.0.2.1"), FakeSession(None, "198.51.100.1")
    watch = ModerationWatch(Settings(data_dir=tmp_path, seed=1), lambda: [alan, other], recheck=0.05)
    await watch.start()
    try:
        store.add_ban(Ban.make("Alan", "rude", datetime.now(timezone.utc), timedelta(seconds=1)))
        await until(lambda: alan.ended)
        assert "You are banned from this arcade until" in alan.ended[0] and "rude" in alan.ended[0]
        assert not other.ended
        assert watch.refusal(FP, "203.0.113.9") is not None  # at sign-in too, from any address
        await until(lambda: watch.refusal(FP, "203.0.113.9") is None)  # the ban ran out
    finally:
        await watch.close()


async def test_a_store_that_cannot_be_read_keeps_the_last_bans(tmp_path: Path, caplog) -> None:
    store = FolderStore(tmp_path)
    store.add_ban(Ban.make("192.0.2.0/24", "spam", datetime.now(timezone.utc)))
    failing = [False]

    def opener(settings: Settings) -> FolderStore:
        return FolderStore(settings.data_dir)

    watch = ModerationWatch(Settings(data_dir=tmp_path, seed=1), list, open_store=opener, recheck=0.05, reread=0.05)
    await watch.start()
    try:
        assert watch.refusal(None, "192.0.2.7") is not None
        (tmp_path / "moderation.json").write_text("{not json")
        failing[0] = True
        with caplog.at_level(logging.WARNING, logger="wom_tui.serve"):
            await until(lambda: any("cannot read the bans" in r.message for r in caplog.records))
            await until(lambda: watch._failing)
            assert watch.refusal(None, "192.0.2.7") is not None  # still turned away
            assert sum("cannot read the bans" in r.message for r in caplog.records) == 1
    finally:
        await watch.close()
    assert StoreError  # the failure is the store's
