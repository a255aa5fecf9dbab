"""Provisional ratings are shown with their number, marked, and listed (issue 35, item 14): ``wom-tui ratings``
prints ``1012?`` rather than a bare ``?``, ``--active`` lists a provisional player who played lately instead of
saying there are no rated games, and a game that will never be rated is told apart (domain)."""

from __future__ import annotations


from wom_tui import cli
from wom_tui.domain.ratings import PROVISIONAL_NOTE, Rating, rates
from wom_tui.domain.store.folder.store import FolderStore

from tests.ui.test_rating_board import duel




def test_a_provisional_rating_is_its_number_marked():
    rating = Rating("Cara", games=2)
    assert rating.provisional and rating.label == f"{rating.value}?"
    assert Rating("Alan", sigma=2.0, games=9).label == str(Rating("Alan", sigma=2.0, games=9).value)


def test_a_guest_against_one_computer_is_not_rated_and_two_rated_players_are():
    assert not rates([("Guest 1", False), ("VIKI", False)])
    assert rates([("Alan", True), ("VIKI", False)])
    assert rates([("HAL9000", False), ("VIKI", False), ("Guest 2", False)])
    assert not rates([("Alan", True), ("VIKI", False)], hot_seat=True)  # practice at one terminal


def test_the_cli_prints_provisional_numbers_and_active_lists_them(tmp_path, capsys):
    store = FolderStore(tmp_path)
    store.register("Cara")
    for n in range(2):
        store.record_game(duel("Cara", "VIKI", days_ago=0, n=n))
    assert cli.main(["--data-dir", str(tmp_path), "ratings"]) == 0
    out = capsys.readouterr().out
    rows = {line.split()[1]: line.split()[2] for line in out.splitlines()[1:] if line[:3].strip().isdigit()}
    assert rows["Cara"].endswith("?") and rows["Cara"][:-1].isdigit(), out
    assert rows["VIKI"].endswith("?") and rows["VIKI"][:-1].isdigit(), out
    assert PROVISIONAL_NOTE in out
    assert cli.main(["--data-dir", str(tmp_path), "ratings", "--active"]) == 0
    active = capsys.readouterr().out
    assert "No rated games yet" not in active and "Cara" in active and "VIKI" in active


def test_active_with_no_recent_game_says_so(tmp_path, capsys):
    store = FolderStore(tmp_path)
    store.register("Old")
    store.record_game(duel("Old", "HAL9000", days_ago=40, n=1))
    assert cli.main(["--data-dir", str(tmp_path), "ratings", "--active"]) == 0
    assert capsys.readouterr().out == "No rated game in the last 30 days.\n"
    empty = tmp_path / "empty"
    assert cli.main(["--data-dir", str(empty), "ratings", "--active"]) == 0
    assert capsys.readouterr().out == "No rated games yet.\n"
