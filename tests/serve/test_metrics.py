"""``--metrics``: /metrics counts what real SSH sessions and games did; /livez, /readyz; the JSON log."""

from __future__ import annotations

import asyncio
import json
import logging
import os
import signal
import urllib.error
import urllib.request
from collections.abc import Iterator

import aiohttp
import asyncssh
import pytest
from prometheus_client.parser import text_string_to_metric_families

from wom_tui.serve.events import Events, Who
from wom_tui.serve.logsafe import JsonFormatter

from web.conftest import SocketTab

from .conftest import NO_GAME, until
from .sshterm import MENU_TEXT, WAIT, ServerFactory, connect, new_key, open_terminal

GAME_TEXT = "Guess #1"


def get(url: str) -> tuple[int, str]:
    """GET ``url``: (status, body), 5xx included."""
    try:
        with urllib.request.urlopen(url, timeout=WAIT) as answer:
            return answer.status, answer.read().decode()
    except urllib.error.HTTPError as error:
        return error.code, error.read().decode()


async def scrape(port: int) -> dict[tuple[str, tuple[tuple[str, str], ...]], float]:
    """Every sample of /metrics: {(name, sorted labels): value}."""
    status, text = await asyncio.to_thread(get, f"http://127.0.0.1:{port}/metrics")
    assert status == 200
    return {
        (sample.name, tuple(sorted(sample.labels.items()))): sample.value
        for family in text_string_to_metric_families(text)
        for sample in family.samples
    }


def value(samples: dict, name: str, **labels: str) -> float:
    return samples.get((name, tuple(sorted(labels.items()))), 0.0)


async def lose_a_solo_game(terminal) -> None:
    """From the menu: a solo game of ten wrong guesses, to its end (the game is recorded)."""
    terminal.type("o")
    await terminal.wait_for_text("Solo game")
    terminal.type("p")
    await terminal.wait_for_text(GAME_TEXT)
    for number in range(2, 11):
        terminal.type("9999\r")
        await terminal.wait_for_text(f"Guess #{number}")
    terminal.type("9999\r")
    await terminal.wait_for_text("Out of guesses")


async def test_metrics_count_what_real_sessions_and_games_did(start_server: ServerFactory) -> None:
    server = await start_server(metrics="127.0.0.1:0", max_per_ip=8)
    assert server.health is not None
    port = server.health.port
    before = await scrape(port)
    assert value(before, "wom_sessions_total", transport="ssh", kind="guest") == 0
    assert value(before, "wom_live_tables_open") == 0

    # A guest plays a solo game to its end, then quits.
    guest_conn = await connect(server)
    guest = await open_terminal(guest_conn)
    await guest.wait_for_text(MENU_TEXT)
    mid = await scrape(port)
    assert value(mid, "wom_sessions_open", transport="ssh", kind="guest") == 1
    await lose_a_solo_game(guest)

    # A player with a key floods the menu with keys (the throttle drops the excess) and stays.
    keyed_conn = await connect(server, key=new_key())
    keyed = await open_terminal(keyed_conn)
    await keyed.wait_for_text(MENU_TEXT)
    keyed.type(b"\x1b[A" * 2000)

    # A session without a terminal is refused.
    refused_conn = await connect(server, key=new_key())
    chan, _session = await refused_conn.create_session(asyncssh.SSHClientSession, encoding=None)
    await chan.wait_closed()

    guest.type("\x1b")  # back to the solo setup, then to the menu
    await guest.wait_for_text("p Play")
    guest.type("\x1b")
    await guest.wait_for_text(MENU_TEXT)
    guest.type("x")
    await guest.wait_closed()
    await until(lambda: len(server.sessions) == 1)

    await until(lambda: any(session.input_dropped for session in server.sessions))
    samples = await scrape(port)
    assert value(samples, "wom_sign_ins_total", transport="ssh", outcome="guest") == 1
    assert value(samples, "wom_sign_ins_total", transport="ssh", outcome="key") == 2
    assert value(samples, "wom_sessions_total", transport="ssh", kind="guest") == 1
    assert value(samples, "wom_sessions_total", transport="ssh", kind="signed_in") == 1
    assert value(samples, "wom_sessions_open", transport="ssh", kind="guest") == 0
    assert value(samples, "wom_sessions_open", transport="ssh", kind="signed_in") == 1
    assert value(samples, "wom_refusals_total", transport="ssh", reason="no_terminal") == 1
    assert value(samples, "wom_throttled_keystrokes_total", transport="ssh") > 0
    assert value(samples, "wom_session_to_menu_seconds_count", transport="ssh") == 2
    assert 0 < value(samples, "wom_session_to_menu_seconds_sum", transport="ssh") < WAIT * 2
    assert value(samples, "wom_games_started_total", kind="solo") == 1
    assert value(samples, "wom_games_finished_total", kind="solo") == 1
    assert value(samples, "wom_store_operation_seconds_count", backend="folder") >= 1
    assert value(samples, "wom_store_errors_total", backend="folder") == 0
    assert value(samples, "wom_warm_parent_restarts_total") == 0

    # The warm parent dies: counted once, and /readyz says so until the new one is up.
    assert server.warm is not None and server.warm.pid is not None
    old = server.warm.pid
    os.kill(old, signal.SIGKILL)
    await until(lambda: server.warm.pid != old)
    await server.warm.ready()
    status, _body = await asyncio.to_thread(get, f"http://127.0.0.1:{port}/readyz")
    assert status == 200
    assert value(await scrape(port), "wom_warm_parent_restarts_total") == 1

    keyed.type("x")
    await keyed.wait_closed()
    for conn in (guest_conn, keyed_conn, refused_conn):
        conn.close()


async def test_livez_and_readyz_answer_and_anything_else_is_404(start_server: ServerFactory) -> None:
    server = await start_server(metrics="127.0.0.1:0", warm_command=NO_GAME)
    assert server.health is not None
    base = f"http://127.0.0.1:{server.health.port}"
    assert await asyncio.to_thread(get, f"{base}/livez") == (200, "ok\n")
    assert await asyncio.to_thread(get, f"{base}/readyz") == (200, "ok\n")
    status, body = await asyncio.to_thread(get, f"{base}/nothing")
    assert status == 404 and "/readyz" in body


async def test_the_metrics_are_off_unless_asked_for(start_server: ServerFactory) -> None:
    server = await start_server(warm_command=NO_GAME)
    assert server.health is None and server.metrics is None


async def test_readyz_fails_while_postgres_is_stopped_and_recovers(start_server: ServerFactory, postgres_server) -> None:
    url = postgres_server.new_database("ready")
    server = await start_server(metrics="127.0.0.1:0", warm_command=NO_GAME, store=url)
    assert server.health is not None
    readyz = f"http://127.0.0.1:{server.health.port}/readyz"
    answers: list[tuple[int, str]] = []

    async def ready_again() -> None:
        answers.clear()
        while (answer := await asyncio.to_thread(get, readyz))[0] != 200:
            answers.append(answer)
            assert len(answers) < 60, f"readyz never said ready: {answer}"

    await ready_again()  # the first connection to the database may take more than a probe's second
    await asyncio.to_thread(postgres_server.stop, "fast")
    try:
        answers.clear()

        async def not_ready() -> bool:
            answers.append(await asyncio.to_thread(get, readyz))
            return answers[-1][0] == 503

        while not await not_ready():
            assert len(answers) < 100, answers[-1]
        assert "the store" in answers[-1][1]
        # Still live: the loop answers whatever the database does.
        live = await asyncio.to_thread(get, f"http://127.0.0.1:{server.health.port}/livez")
        assert live[0] == 200
    finally:
        await asyncio.to_thread(postgres_server.start)
    await ready_again()


@pytest.fixture
def json_log() -> Iterator[list[str]]:
    """The server's log lines as ``--log-format json`` writes them, while the test runs."""
    lines: list[str] = []

    class Collect(logging.Handler):
        def emit(self, record: logging.LogRecord) -> None:
            lines.append(self.format(record))

    handler = Collect()
    handler.setFormatter(JsonFormatter())
    logger = logging.getLogger("wom_tui.serve")
    logger.addHandler(handler)
    old_level = logger.level
    logger.setLevel(logging.INFO)
    try:
        yield lines
    finally:
        logger.removeHandler(handler)
        logger.setLevel(old_level)


async def test_the_json_log_has_one_object_a_line_and_no_raw_client_text(
    start_server: ServerFactory, json_log: list[str]
) -> None:
    lines = json_log
    server = await start_server(warm_command=NO_GAME, no_guests=True)
    # A guest (the user name is never logged: asyncssh's client refuses control characters in it anyway)
    # asking for a subsystem with an escape sequence in its name, then a terminal type with one:
    # refused, and logged, every client string escaped.
    conn = await connect(server)
    with pytest.raises(asyncssh.ChannelOpenError):
        await conn.create_session(
            asyncssh.SSHClientSession, subsystem="sftp\x1b]0;pwned\x07\nINFO FORGED", encoding=None)
    chan, _session = await conn.create_session(
        asyncssh.SSHClientSession, term_type="xterm\x1b[31m", term_size=(80, 24), encoding=None)
    await chan.wait_closed()
    conn.close()
    await until(lambda: any('"no_guests"' in line for line in lines))
    entries = [json.loads(line) for line in lines]
    assert all("\n" not in line and "\x1b" not in line and "\x07" not in line for line in lines)
    assert {"time", "level", "event", "message"} <= set(entries[0])
    sign_in = next(entry for entry in entries if entry["event"] == "sign_in")
    assert sign_in["transport"] == "ssh" and sign_in["address"] == "127.0.0.1" and "fingerprint" not in sign_in
    refusal = next(entry for entry in entries if entry["event"] == "refusal" and entry["reason"] == "no_guests")
    assert refusal["session"].startswith("1.") and refusal["address"] == "127.0.0.1"
    subsystem = next(entry for entry in entries if entry.get("reason") == "subsystem")
    assert "\\x1b]0;pwned" in subsystem["message"] and "\\nINFO FORGED" in subsystem["message"]


def test_a_name_with_escapes_is_escaped_in_the_json_log_of_a_session_end(json_log: list[str]) -> None:
    who = Who("4.1", "203.0.113.9", "SHA256:abc")
    events = Events()
    events.game_report(who, json.dumps({"event": "identity", "name": "Eve\x1b[2J\nINFO FORGED"}), 0.1)
    events.session_ended(who, "client left", 12.5, 0)
    (line,) = json_log
    entry = json.loads(line)
    assert "\x1b" not in line and "\n" not in line
    assert entry["event"] == "session_end" and entry["name"] == "Eve\\x1b[2J\\nINFO FORGED"
    assert (entry["duration"], entry["reason"], entry["fingerprint"]) == (12.5, "client left", "SHA256:abc")


def test_a_games_log_line_cannot_pass_for_a_report() -> None:
    from wom_tui.launch import REPORT_MARK, _ServerLogFormatter

    formatter = _ServerLogFormatter("%(levelname)s %(name)s: %(message)s")
    record = logging.LogRecord("wom_tui.session", logging.ERROR, __file__, 1, "%s", (
        'name\n' + REPORT_MARK + '{"event":"game_finished","kind":"wom"}',), None)
    text = formatter.format(record)
    assert not any(line.startswith(REPORT_MARK) for line in text.split("\n"))
    report = logging.LogRecord("wom_tui.report", logging.INFO, __file__, 1, "%s", ('{"event":"menu"}',), None)
    assert formatter.format(report) == REPORT_MARK + '{"event":"menu"}'


async def test_wom_tui_serve_with_json_logs_and_metrics_as_a_process(tmp_path) -> None:
    from .fleet import ServeProcess, make_host_key

    host_key_path = tmp_path / "host_key"
    make_host_key(host_key_path)
    server = await ServeProcess.start(
        tmp_path / "data", host_key_path, "--log-format", "json", "--metrics", "127.0.0.1:0", "--web", "127.0.0.1:0")
    try:
        await until(lambda: any("/readyz" in line for line in server.log))
        port = int(next(json.loads(line)["message"].rsplit(":", 1)[1].rstrip("/")
                        for line in server.log if "/readyz" in line))
        assert await asyncio.to_thread(get, f"http://127.0.0.1:{port}/readyz") == (200, "ok\n")
        conn = await asyncssh.connect("127.0.0.1", server.port, username="guest", known_hosts=None,
                                      client_keys=None, password="", agent_path=None)
        terminal = await open_terminal(conn)
        await terminal.wait_for_text(MENU_TEXT)
        terminal.type("x")
        await terminal.wait_closed()
        conn.close()
        await until(lambda: any('"ready"' in line and "browser" in line for line in server.log))
        web = next(json.loads(line)["web"] for line in server.log if '"ready"' in line and "browser" in line)
        async with aiohttp.ClientSession() as http:  # a browser tab too: its game quits at once
            async with http.ws_connect(web.replace("http", "ws", 1) + "ws/" + "t" * 24 + "?width=80&height=24",
                                       headers={"Origin": web.rstrip("/")}) as socket:
                tab = SocketTab(socket, 80, 24)
                await tab.wait_for_text(MENU_TEXT)
                await tab.type("x")
                await tab.wait_closed()
        await until(lambda: sum('"session_end"' in line for line in server.log) == 2)
    finally:
        await server.stop()
    entries = [json.loads(line) for line in server.log]  # every line, the start-up hint's too
    events = [entry["event"] for entry in entries]
    assert "sign_in" in events and "session_end" in events and "game_process" in events and "ready" in events
    assert {entry.get("transport") for entry in entries if entry["event"] == "session_end"} == {"ssh", "web"}
    end = next(entry for entry in entries if entry["event"] == "session_end")
    assert (end["transport"], end["reason"], end["status"]) == ("ssh", "game quit", 0) and end["duration"] > 0
