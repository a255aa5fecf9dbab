"""Line mode over real SSH (``ssh -t host line``): a whole quick match with HAL9000 read as the client reads
it, a Quad table in words, a line player and a full-screen player finishing one table, the choice remembered,
bad input.

One server for the module, of its own: quick match fills at once (``fill_after=0``) and the computers move
without a person's pace, so that a game is played in seconds.
"""

from __future__ import annotations

import asyncio
import re
from dataclasses import replace

import asyncssh
import pytest
import pytest_asyncio

from wom_tui.domain.store.folder.store import FolderStore as Store
from wom_tui.domain.table import SeatHolder
from wom_tui.serve.server import GameServer
from wom_tui.settings import Settings

from .conftest import NO_GAME
from .sshterm import MENU_TEXT, WAIT, connect, new_key, open_terminal

shared = pytest.mark.asyncio(loop_scope="module")


@pytest_asyncio.fixture(scope="module", loop_scope="module")
async def line_server(tmp_path_factory: pytest.TempPathFactory):
    server = GameServer(Settings(data_dir=tmp_path_factory.mktemp("line") / "data", seed=36, port=0, max_per_ip=32,
                                 max_per_network=32, fill_after=0.0, computer_pace=0.0))
    await server.start()
    yield server
    await asyncio.wait_for(server.close(), WAIT)


class LineClient(asyncssh.SSHClientSession):
    """What an SSH client of line mode receives, byte for byte, and its lines."""

    def __init__(self) -> None:
        self.raw = bytearray()
        self._changed = asyncio.Event()
        self.closed = asyncio.Event()
        self.chan: asyncssh.SSHClientChannel | None = None

    def connection_made(self, chan) -> None:  # type: ignore[override]
        self.chan = chan

    def data_received(self, data: bytes, datatype) -> None:  # type: ignore[override]
        self.raw += data
        self._changed.set()

    def connection_lost(self, exc) -> None:
        self.closed.set()
        self._changed.set()

    @property
    def lines(self) -> list[str]:
        return self.raw.decode().split("\r\n")

    def type(self, text: str) -> None:
        assert self.chan is not None
        self.chan.write(text.encode())

    async def wait_for(self, pattern: str, timeout: float = WAIT) -> str:
        regex = re.compile(pattern, re.M)

        async def watch() -> str:
            while True:
                for line in self.lines:
                    if regex.search(line):
                        return line
                if self.closed.is_set():
                    raise AssertionError(f"closed without {pattern!r}:\n{self.raw.decode()}")
                self._changed.clear()
                await self._changed.wait()

        try:
            return await asyncio.wait_for(watch(), timeout)
        except asyncio.TimeoutError:
            raise AssertionError(f"no {pattern!r} after {timeout} s:\n{self.raw.decode()}") from None


async def open_line(conn: asyncssh.SSHClientConnection, *, pty: bool = True) -> LineClient:
    """``ssh -t host line`` (``pty=False``: ``ssh host line``, the client's own line editing)."""
    options = {"term_type": "xterm-256color", "term_size": (80, 24)} if pty else {}
    _chan, client = await conn.create_session(LineClient, "line", encoding=None, **options)
    return client


def registered(server: GameServer, name: str) -> asyncssh.SSHKey:
    key = new_key()
    Store(server.settings.data_dir).register(name, key=key.get_fingerprint())
    return key


@shared
async def test_a_quick_match_with_hal9000_over_ssh_in_plain_lines(line_server: GameServer) -> None:
    key = registered(line_server, "Lena")
    conn = await connect(line_server, "lena", key)
    client = await open_line(conn)
    await client.wait_for(r"^World of Mastermind, line mode\. You are Lena\.")
    client.type("quick\r")
    await client.wait_for(r"^Set your code for HAL9000")
    client.type("RGBY\r")
    await client.wait_for(r"^Break HAL9000's code")
    store = Store(line_server.settings.data_dir)
    (table,) = [t for t in store.live.tables().tables if "Lena" in t.names]
    secret = table.to_json()["seats"][1]["code"]
    wrong = "KKKK" if secret != "KKKK" else "WWWW"
    client.type(wrong + "\r")
    await client.wait_for(r"^Guess 1: ")
    client.type(secret.lower() + "\r")
    results = await client.wait_for(r"^Results: ")
    client.type("share\r")
    share = await client.wait_for(r"^Mastermind table ")
    client.type("quit\r")
    await asyncio.wait_for(client.closed.wait(), WAIT)
    conn.close()

    raw = bytes(client.raw)
    assert b"\x1b" not in raw  # no CSI at all: no cursor positioning, no erase, no alternate screen, no colour
    assert b"\x1b[?1049h" not in raw
    lines = [line for line in client.lines if line]
    typed = {"quick", "RGBY", wrong, secret.lower(), "share", "quit"}
    said = [line for line in lines if line not in typed]  # the client's own typing, echoed, left out
    assert all(len(line) <= 120 for line in said)
    events = [line for line in said if re.match(r"(Guess \d|HAL9000 made guess \d|Results:|Quick match found)", line)]
    assert len(events) == len(set(events))  # exactly one line per game event
    assert [line for line in said if line.startswith("Guess ")] == [
        next(line for line in said if line.startswith("Guess 1: ")),
        f"Guess 2: {' '.join(secret)} — all 4 right place."]
    hal = [int(re.match(r"HAL9000 made guess (\d+)", line).group(1)) for line in said
           if line.startswith("HAL9000 made guess")]
    assert hal == list(range(1, len(hal) + 1)) and hal
    assert results.startswith(f"Results: Lena broke {' '.join(secret)} in 2 guesses, ")
    assert f"HAL9000 broke R G B Y in {len(hal)} guesses." in results
    assert share.startswith("Mastermind table · 4 × Classic · 2/10. ")
    assert said[-1] == "Goodbye, thanks for playing World of Mastermind!"
    (game,) = [g for g in store.games() if any(p.name == "Lena" for p in g.players)]
    assert [(p.name, p.broke) for p in game.players] == [("Lena", True), ("HAL9000", True)]


@shared
async def test_a_quad_table_with_hal9000_over_ssh_in_plain_lines(line_server: GameServer) -> None:
    """A variant at a table over SSH (docs/play.md, *Variants*): four answers a guess in words, the codes at the end."""
    key = registered(line_server, "Quinn")
    conn = await connect(line_server, "quinn", key)
    client = await open_line(conn)
    await client.wait_for(r"^World of Mastermind, line mode\. You are Quinn\.")
    client.type("open 2 quad\r")
    await client.wait_for(r"^Your table for Quad is open with 2 seats")
    client.type("computer 2\r")
    await client.wait_for(r"HAL9000 sat in seat 2")
    client.type("start\r")
    await client.wait_for(r"^Set your code for HAL9000")
    client.type("RGBY\r")
    await client.wait_for(r"^Break HAL9000's code and three more")
    store = Store(line_server.settings.data_dir)
    (table,) = [t for t in store.live.tables().tables if "Quinn" in t.names]
    codes = table._boards[0].codes
    for code in dict.fromkeys(codes):
        client.type(code + "\r")
    first = await client.wait_for(r"^Guess 1: ")
    results = await client.wait_for(r"^Results: ")
    client.type("quit\r")
    await asyncio.wait_for(client.closed.wait(), WAIT)
    conn.close()
    assert b"\x1b" not in bytes(client.raw)
    assert first.startswith(f"Guess 1: {' '.join(codes[0])} — 1: broken now; 2: ") and "; 4: " in first
    assert results.startswith(f"Results: Quinn broke {' '.join(codes[0])}, ")
    assert all(len(line) <= 120 for line in client.lines)
    assert store.live.table(table.table_id).variant.value == "quad"


@shared
async def test_a_line_player_and_a_full_screen_player_finish_a_table_and_read_the_same_results(
    line_server: GameServer,
) -> None:
    ann_key, lena_key = registered(line_server, "Ann"), registered(line_server, "Leo")
    store = Store(line_server.settings.data_dir)
    table = store.live.create_table(SeatHolder("Ann", "an-earlier-session", True), seats=2, seed=3, pace=(0.0, 0.0))
    ann_conn, leo_conn = await connect(line_server, "ann", ann_key), await connect(line_server, "leo", lena_key)
    ann = await open_terminal(ann_conn)
    await ann.wait_for_text(MENU_TEXT)
    ann.type("l")
    await ann.wait_for_text("still have a seat")
    ann.type("\r")
    await ann.wait_for_text("Wait for players")
    leo = await open_line(leo_conn)
    await leo.wait_for(r"^World of Mastermind, line mode\. You are Leo\.")
    leo.type("lobby\r")
    number = (await leo.wait_for(r"^Table \d+: open, Ann, free\.$")).split(":")[0].split()[1]
    leo.type(f"join {number}\r")
    await leo.wait_for(r"^Players: seat 1 Ann; seat 2 Leo \(you\)\.$")
    await ann.wait_for_text("Leo")
    await ann.wait_for_text("press g to start")
    ann.type("g")
    await leo.wait_for(r"^Set your code for Ann")
    await ann.wait_for_text("Your code")
    ann.type("RRGG\r")
    leo.type("BBYY\r")
    await leo.wait_for(r"^Break Ann's code")
    await ann.wait_for_text("Break the code")
    leo.type("rrgg\r")
    await leo.wait_for(r"^Guess 1: R R G G — all 4 right place\.$")
    await ann.wait_for_text("Your guess")
    ann.type("WWWW\r")
    await leo.wait_for(r"^Ann made guess 1, 9 guesses left\.$")
    await ann.wait_for_text("9 attempts left")  # as a person types the next guess once the first is shown
    ann.type("BBYY\r")
    results = await leo.wait_for(r"^Results: ")
    await ann.wait_for_text("finished")
    final = store.live.table(table.table_id).view_for(None).final
    assert results == ("Results: " + "; ".join(
        f"{row.name} broke {' '.join(row.code)} in {row.attempts} guess{'es' if row.attempts > 1 else ''}, "
        f"{row.points} points" for row in final) + ".")
    for row in final:  # the full screen shows the same points for the same players
        await ann.wait_until(lambda t, r=row: any(r.name in line and str(r.points) in line for line in t.lines))
    leo.type("quit\r")
    await asyncio.wait_for(leo.closed.wait(), WAIT)
    for conn in (ann_conn, leo_conn):
        conn.close()


@shared
async def test_line_mode_is_remembered_and_a_plain_ssh_offers_it_first(line_server: GameServer) -> None:
    key = registered(line_server, "Rita")
    conn = await connect(line_server, "rita", key)
    first = await open_line(conn)
    await first.wait_for(r"You are Rita\.")
    first.type("quit\r")
    await asyncio.wait_for(first.closed.wait(), WAIT)
    # A plain ssh host: the one question, answered with Enter without seeing any screen.
    asked = await open_line_or_shell(conn)
    await asked.wait_for(r"^You chose line mode last time\. Press Enter for line mode, or f for the full screen\.$")
    assert b"\x1b" not in asked.raw
    asked.type("\r")
    await asked.wait_for(r"^World of Mastermind, line mode\. You are Rita\.")
    asked.type("\x04")  # Ctrl-D on an empty line: goodbye
    await asyncio.wait_for(asked.closed.wait(), WAIT)
    assert asked.lines[-2] == "Goodbye, thanks for playing World of Mastermind!"
    # f: the full screen, and the question is not asked again.
    full = await open_terminal(conn)
    await full.wait_for_text("You chose line mode last time")
    full.type("f")
    await full.wait_for_text(MENU_TEXT)
    full.chan.close()
    again = await open_terminal(conn)
    await again.wait_for_text(MENU_TEXT)
    assert "line mode" not in again.text
    conn.close()


async def open_line_or_shell(conn: asyncssh.SSHClientConnection) -> LineClient:
    """``ssh -t host``: a shell request with a pty, read as raw lines."""
    _chan, client = await conn.create_session(LineClient, term_type="xterm-256color", term_size=(80, 24),
                                              encoding=None)
    return client


@shared
async def test_bad_input_and_a_paste_over_ssh_get_one_line_each_and_change_nothing(line_server: GameServer) -> None:
    conn = await connect(line_server, "visitor")  # a guest, without a pty: the client edits its own lines
    client = await open_line(conn, pty=False)
    await client.wait_for(r"You are a guest\.")
    client.type("solo\n")
    await client.wait_for(r"^Solo game: ")
    client.type("12\n")
    assert await client.wait_for(r"^Guess too short") == "Guess too short; it must be exactly 4 symbols. " \
        "Type 4 symbols of 0, 1, 2, 3, 4, 5, 6, 7, 8 and 9."
    client.type("\x1b[31m1234\x1b[0m\n")  # colour codes typed: dropped, the guess stays
    await client.wait_for(r"^Guess 1: 1 2 3 4 — ")
    client.type("9" * 500 + "\n")  # a paste of one long line: cut at 200 characters, said once
    await client.wait_for(r"^That line is longer than 200 characters")
    client.type("register Vic\n")
    await client.wait_for(r"^Registering needs an SSH key")
    client.type("board\nwho\n")
    await client.wait_for(r" online: ")  # who answers after board: the board's lines are in
    assert sum(line.startswith("Guess 1: ") for line in client.lines) == 2  # the guess, then the board's line
    assert all(len(line) <= 120 for line in client.lines)
    assert b"\x1b" not in client.raw
    client.type("quit\n")
    await asyncio.wait_for(client.closed.wait(), WAIT)
    conn.close()


async def test_idle_and_shutdown_say_goodbye_in_words(start_server) -> None:
    # A server of its own: a short idle timeout. It forks no game (a line session needs none), so it starts
    # no warm parent and no hub, and its line sessions open the data folder themselves.
    server = await start_server(idle_timeout=0.5, warm_command=NO_GAME)
    conn = await connect(server, "visitor")
    client = await open_line(conn)
    await client.wait_for(r"You are a guest\.")
    await asyncio.wait_for(client.closed.wait(), WAIT)
    assert client.lines[-3:] == ["World of Mastermind, line mode. You are a guest. Type help for the commands.",
                                 "World of Mastermind closed this session after 0 seconds without a key press. See you soon!",
                                 ""]
    assert b"\x1b" not in client.raw
    conn.close()
    server.settings = replace(server.settings, idle_timeout=0)
    conn = await connect(server, "visitor")
    client = await open_line(conn)
    await client.wait_for(r"You are a guest\.")
    await server.close()
    await asyncio.wait_for(client.closed.wait(), WAIT)
    assert client.lines[-3:] == ["World of Mastermind, line mode. You are a guest. Type help for the commands.",
                                 "The World of Mastermind server is shutting down. Thanks for playing!", ""]
    assert b"\x1b" not in client.raw
