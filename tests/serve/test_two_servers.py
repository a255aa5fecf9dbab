"""Two machines, simulated: two ``wom-tui serve`` processes on their own ports (stand-ins for two hosts)
share one PostgreSQL database. A player on each meets the other in the lobby, they sit at one table and
play it to the end over real SSH; the game is recorded once and both scoreboards agree with the database."""

from __future__ import annotations

from pathlib import Path

from wom_tui.domain.store.postgres.store import PostgresStore

from .fleet import (
    ServeProcess,
    make_host_key,
    open_session,
    seat_row,
    sit_down_together,
    start_together,
    to_lobby,
)
from .conftest import until
from .sshterm import Terminal, new_key


def _scoreboard_rows(terminal: Terminal, names: tuple[str, ...]) -> list[str]:
    """The scoreboard's rows of ``names``, as a person reads them (name, score, games, average)."""
    rows = [line.strip().strip("│┃").split() for line in terminal.lines]
    return [" ".join(cells) for cells in rows if cells and cells[0] in names]


async def test_a_player_on_each_of_two_servers_share_a_table_and_both_scoreboards_agree(
    postgres_server, tmp_path: Path
) -> None:
    url = postgres_server.new_database()
    keys = {name: new_key() for name in ("Ann", "Ben")}
    with PostgresStore(url) as store:
        for name, key in keys.items():
            store.register(name, key=key.get_fingerprint())
        store.register("Cy")  # someone who plays elsewhere, on both scoreboards with the same numbers
    key_file = tmp_path / "ssh_host_ed25519_key"
    host_key = make_host_key(key_file)
    # Each "host" has a data folder of its own (nothing of the arcade is kept there); one is given the
    # database on its command line, the other through WOM_STORE, as an operator would keep a password.
    servers = await start_together(
        ServeProcess.start(tmp_path / "host1", key_file, "--store", url, "--seed", "1", "--seat-grace", "60"),
        ServeProcess.start(tmp_path / "host2", key_file, "--seed", "2", "--seat-grace", "60", env={"WOM_STORE": url}),
    )
    conns = []
    try:
        assert servers[0].port != servers[1].port
        # The same host key on both: a client that knows only it reaches either server without a warning.
        (ann_conn, ann), (ben_conn, ben) = [
            await open_session(server.port, name.lower(), keys[name], host_key)
            for server, name in zip(servers, ("Ann", "Ben"))
        ]
        conns = [ann_conn, ben_conn]
        for terminal in (ann, ben):
            await to_lobby(terminal)
        # They meet in the one lobby: each sees the other online, though their sessions run on other hosts.
        for terminal in (ann, ben):
            await terminal.wait_until(lambda t: any("Online (2)" in line and "Ann" in line and "Ben" in line
                                                    for line in t.lines))
        await sit_down_together(ann, "Ann", ben, "Ben")
        for terminal, code in ((ann, "RGBY"), (ben, "WWKK")):
            await terminal.wait_for_text("Your code")
            terminal.type(code + "\r")
        for terminal in (ann, ben):
            await terminal.wait_for_text("Your guess")

        # Ben's guess, made on host 2, shows on Ann's screen on host 1 as his attempt count (never the guess).
        ben.type("RRRR\r")
        await ann.wait_until(lambda t: "1/10" in seat_row(t, "Ben"))
        assert "RRRR" not in ann.text and "R   R   R   R" not in ann.text
        ann.type("WWKK\r")  # Ann breaks Ben's code at once
        await ben.wait_until(lambda t: "1/10" in seat_row(t, "Ann"))
        ben.type("RGBY\r")  # and Ben Ann's, on his second try
        for terminal in (ann, ben):
            await terminal.wait_for_text("finished")

        with PostgresStore(url) as store:
            await until(store.games)  # recorded by the server that saw the last guess
            (game,) = store.games()
        assert {p.name: p.broke for p in game.players} == {"Ann": True, "Ben": True}
        with PostgresStore(url) as store:
            expected = {user.name: (user.score, user.games) for user in store.users()}
        assert expected["Ann"][1] == expected["Ben"][1] == 1 and expected["Cy"] == (0, 0)
        assert expected["Ann"][0] > expected["Ben"][0]  # Ann broke the code in fewer guesses

        # Both scoreboards, each read by its own server from the database, show the same rows: the database's.
        for terminal in (ann, ben):
            terminal.type("\x1b")
            await terminal.wait_for_text("Lobby: play together")
            terminal.type("\x1b")
            await terminal.wait_for_text("Show the scoreboard")
            terminal.type("s")
            await terminal.wait_until(lambda t: len(_scoreboard_rows(t, ("Ann", "Ben", "Cy"))) == 3)
        boards = [_scoreboard_rows(terminal, ("Ann", "Ben", "Cy")) for terminal in (ann, ben)]
        assert boards[0] == boards[1]
        for row, name in zip(boards[0], ("Ann", "Ben", "Cy")):  # best first
            assert row.split()[:3] == [name, str(expected[name][0]), str(expected[name][1])]
    except AssertionError as failure:
        logs = "".join(f"--- host{n} log:\n" + "".join(server.log) for n, server in enumerate(servers, 1))
        raise AssertionError(f"{failure}\n{logs}") from None
    finally:
        for conn in conns:
            conn.close()
        for server in servers:
            await server.stop()
