"""The data folder under attack: failed saves, FIFOs, symlinks, huge files and numbers,
readers racing writers, pending games naming strangers, and a planted lock symlink."""

from __future__ import annotations

import errno
import json
import multiprocessing
import os
from pathlib import Path

import pytest

import wom_tui.domain.store.folder.store as store_module
from wom_tui.domain.store import StoreError
from wom_tui.domain.store.documents import MAX_FILE_BYTES, encode_game, new_game_id
from wom_tui.domain.store.folder.store import FolderStore as Store

from .helpers import snapshot, wom_game


def _fail_writes_to(monkeypatch, name: str, error: int = errno.ENOSPC) -> None:
    real = store_module.atomic_write

    def failing(path: Path, data: bytes) -> None:
        if path.name == name:
            raise OSError(error, os.strerror(error))
        real(path, data)

    monkeypatch.setattr(store_module, "atomic_write", failing)


# -- (1) a save reported as failed is never applied later -----------------------------------------


@pytest.mark.parametrize("error", [errno.ENOSPC, errno.EFBIG])
def test_a_game_whose_save_failed_is_not_applied_later(tmp_path, monkeypatch, error):
    store = Store(tmp_path)
    store.register("Alan")
    _fail_writes_to(monkeypatch, "users.json", error)
    with pytest.raises(StoreError, match="users.json: cannot write the file"):
        store.record_game(wom_game("Alan", points=7))
    monkeypatch.undo()
    assert list((tmp_path / "games").iterdir()) == [], "no pending file is left to apply later"
    again = Store(tmp_path)  # a new session finishes pending games
    again.check()
    again.record_game(wom_game("Alan", points=1))  # and the next save
    alan = again.user("Alan")
    assert (alan.score, alan.games) == (1, 1), "the failed game's points were never applied"


# -- (2) anything but a regular file is refused, with the reason, at once -------------------------


def _in_child(data_dir: str, queue, what: str = "check") -> None:  # pragma: no cover - runs in a child process
    try:
        store = Store(data_dir)
        store.check() if what == "check" else store.games()
        queue.put("ok")
    except StoreError as error:
        queue.put(str(error))


def _check_in_time(folder: Path, seconds: float = 10.0, what: str = "check") -> str:
    """Run Store(folder).check() (or ``.games()``) in a child; its outcome, or 'hung' if it does not finish."""
    queue = multiprocessing.get_context("spawn").Queue()
    child = multiprocessing.get_context("spawn").Process(target=_in_child, args=(str(folder), queue, what))
    child.start()
    child.join(seconds)
    if child.is_alive():
        child.kill()
        child.join()
        return "hung"
    return queue.get(timeout=5)


def test_a_fifo_in_place_of_users_json_is_refused_not_waited_on(tmp_path):
    Store(tmp_path)
    os.mkfifo(tmp_path / "users.json")
    outcome = _check_in_time(tmp_path)
    assert "users.json" in outcome and "not a regular file" in outcome


def test_a_fifo_in_place_of_a_game_file_is_refused(tmp_path):
    Store(tmp_path)
    os.mkfifo(tmp_path / "games" / f"{new_game_id()}.json")
    assert _check_in_time(tmp_path) == "ok"  # the start-up check reads no finished game
    outcome = _check_in_time(tmp_path, what="games")  # reading the games refuses it, never waits on it
    assert ".json" in outcome and "not a regular file" in outcome


def test_a_dangling_symlink_is_refused_naming_the_file(tmp_path):
    Store(tmp_path)
    (tmp_path / "users.json").symlink_to(tmp_path / "nowhere.json")
    with pytest.raises(StoreError, match="users.json: .*symbolic link"):
        Store(tmp_path).check()
    assert (tmp_path / "users.json").is_symlink()


def test_a_symlink_to_a_valid_file_is_refused_too(tmp_path):
    elsewhere = tmp_path / "elsewhere"
    Store(elsewhere).register("Alan")
    Store(tmp_path)
    (tmp_path / "users.json").symlink_to(elsewhere / "users.json")
    with pytest.raises(StoreError, match="symbolic link"):
        Store(tmp_path).users()
    with pytest.raises(StoreError, match="symbolic link"):
        Store(tmp_path).register("Grace")
    assert [u.name for u in Store(elsewhere).users()] == ["Alan"]


def test_a_50_mb_file_is_refused_without_reading_it(tmp_path):
    Store(tmp_path)
    row = '{"name": "U%07d", "score": 0, "games": 0}'
    with open(tmp_path / "users.json", "w") as handle:
        handle.write('{"schema": 1, "users": [')
        handle.write(", ".join(row % n for n in range(1_200_000)))
        handle.write("]}")
    assert (tmp_path / "users.json").stat().st_size > 50_000_000
    with pytest.raises(StoreError, match=r"users.json: the file is too large .* the limit is"):
        Store(tmp_path).check()
    assert MAX_FILE_BYTES < 50_000_000


@pytest.mark.parametrize("number", ["1" + "0" * 27, "9" * 4299, "1" + "0" * 16], ids=["10^27", "4299 digits", "10^16"])
def test_numbers_no_game_could_produce_are_refused(tmp_path, number):
    Store(tmp_path)
    text = '{"schema": 1, "users": [{"name": "Alan", "score": %s, "games": 1}]}' % number
    (tmp_path / "users.json").write_text(text)
    with pytest.raises(StoreError, match="users.json: .*too large"):
        Store(tmp_path).check()
    assert (tmp_path / "users.json").read_text() == text


def test_games_beyond_any_real_count_are_refused(tmp_path):
    Store(tmp_path)
    (tmp_path / "users.json").write_text(
        '{"schema": 1, "users": [{"name": "Alan", "score": 0, "games": 999999999999999}]}'
    )
    with pytest.raises(StoreError, match="users.json: user #1"):
        Store(tmp_path).check()


# -- (3) a reader racing writers never fails --------------------------------------------------------


def test_checks_and_opens_racing_game_writers_never_fail(tmp_path):
    from .workers import CTX, record_forever, wait_until

    Store(tmp_path).register("Alan")
    done = CTX.Value("i", 0)
    writers = [CTX.Process(target=record_forever, args=(str(tmp_path), done)) for _ in range(2)]
    for writer in writers:
        writer.start()
    failures: list[str] = []
    try:
        wait_until(lambda: done.value > 0, "the writers to start")
        for _ in range(40):
            try:
                Store(tmp_path).check()
            except StoreError as error:
                failures.append(str(error))
    finally:
        for writer in writers:
            writer.kill()
            writer.join()
    assert failures == [], f"{len(failures)} of 40 checks failed, first: {failures[:1]}"


# -- (4) a pending game naming an unregistered user is refused at the start-up check -----------------


def test_a_pending_game_naming_a_stranger_is_refused_by_the_check_naming_the_file(tmp_path):
    store = Store(tmp_path)
    store.register("Alan")
    game_id = new_game_id()
    pending = tmp_path / "games" / f"{game_id}.pending.json"
    pending.write_bytes(encode_game(game_id, wom_game("Alan", "Stranger")))
    before = snapshot(tmp_path)
    with pytest.raises(StoreError) as caught:
        Store(tmp_path).check()
    assert caught.value.path == pending
    assert "'Stranger', who is not a registered user" in caught.value.reason
    assert snapshot(tmp_path) == before


# -- (5) the lock and the data files are never followed through a symlink ----------------------------


def test_a_lock_symlink_does_not_truncate_its_target(tmp_path):
    precious = tmp_path / "precious.txt"
    precious.write_text("keep me")
    folder = tmp_path / "data"
    folder.mkdir()
    (folder / ".lock").symlink_to(precious)
    with pytest.raises(StoreError, match=r"\.lock: .*symbolic link"):
        Store(folder)
    assert precious.read_text() == "keep me"


def test_pyproject_requires_a_filelock_without_the_symlink_flaws():
    pyproject = (Path(__file__).resolve().parents[2] / "pyproject.toml").read_text()
    assert '"filelock>=3.20.3' in pyproject


def test_the_installed_filelock_does_not_follow_a_lock_symlink(tmp_path):
    from filelock import FileLock

    precious = tmp_path / "precious.txt"
    precious.write_text("keep me")
    (tmp_path / "x.lock").symlink_to(precious)
    try:
        with FileLock(tmp_path / "x.lock", timeout=1):
            pass
    except OSError:
        pass
    assert precious.read_text() == "keep me"


def test_users_json_stays_valid_json_after_all_this(tmp_path):
    store = Store(tmp_path)
    store.register("Alan")
    store.record_game(wom_game("Alan"))
    data = json.loads((tmp_path / "users.json").read_text())
    assert data["users"][0]["games"] == 1
