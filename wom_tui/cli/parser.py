"""The argument parser of ``wom-tui`` and its ``serve``, ``users``, ``store`` and ``ratings`` commands."""

from __future__ import annotations

import argparse
from dataclasses import replace
from pathlib import Path
from typing import Any

from .. import __version__
from ..settings import Settings, new_seed, resolve_data_dir, resolve_store
from .arena import add_arena_command
from .ratings import add_ratings_command
from .store import add_store_command

_DEFAULT = Settings(data_dir=Path(), seed=0)
"""The defaults the help texts quote (the settings' own)."""


def _seconds(text: str) -> float:
    """A number of seconds, 0 or more (for ``--seat-grace`` and ``--fill-after``)."""
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a number of seconds") from None
    if not 0 <= value < float("inf"):
        raise argparse.ArgumentTypeError("the time must be 0 seconds or more")
    return value


_PLACE = ("data_dir", "store")
"""The options saying where the arcade is kept: for playing, serving and ``wom-tui users``."""
_PLAY = ("seed", "debug", "seat_grace", "line")
"""The options about playing: for playing and serving only."""
_SCOPE = {"users": _PLACE, "store": ("store",), "arena": _PLACE}
"""The options written before a command that the command takes (the others are a usage error)."""


def _motd(text: str) -> str:
    """``--motd``: the text, or ``@FILE``'s; one printable line (docs/serve.md, *Moderating the arcade*)."""
    from ..domain.moderation import ModerationRefused, check_motd

    if text.startswith("@"):
        try:
            text = Path(text[1:]).expanduser().read_text(encoding="utf-8")
        except (OSError, UnicodeDecodeError) as exc:
            raise argparse.ArgumentTypeError(f"cannot read {text[1:]}: {getattr(exc, 'strerror', None) or exc}") from None
    try:
        return check_motd(text)
    except ModerationRefused as exc:
        raise argparse.ArgumentTypeError(exc.reason) from None


def _common(default: object = None, *, play: bool = True) -> argparse.ArgumentParser:
    """The options every command that plays takes (``play=False``: only where the arcade is kept).

    The subcommands repeat them with SUPPRESS defaults, so that ``wom-tui --data-dir X serve`` keeps X
    instead of the subcommand's default overwriting it.
    """
    options = argparse.ArgumentParser(add_help=False, argument_default=default)
    options.add_argument("--data-dir", metavar="PATH", help="data folder (default: $WOM_DATA_DIR, else the user data folder)")
    options.add_argument("--store", metavar="URL", help="keep users and games in this PostgreSQL database, "
                         "postgresql://user@host/db (default: $WOM_STORE, else the data folder)")
    if not play:
        return options
    options.add_argument("--seed", type=int, metavar="N", help="seed for all randomness, to replay a session exactly")
    options.add_argument("--debug", action="store_true", help="show computer players' codes (DEBUG: RGBY)")
    options.add_argument("--seat-grace", type=_seconds, metavar="SECONDS",
                         help=f"seconds a dropped player keeps their seat at a table (default {_DEFAULT.seat_grace:g})")
    options.add_argument("--fill-after", type=_seconds, metavar="SECONDS",
                         help="seconds a quick match waits for other players before HAL9000 or VIKI fill the "
                              f"table (default {_DEFAULT.fill_after:g})")
    options.add_argument("--no-bell", action="store_true", help="never ring the terminal bell when it's your move")
    options.add_argument("--notify", action="store_true",
                         help="also send desktop notifications (OSC 9 and OSC 777) when it's your move")
    return options


def _positive_int(text: str) -> int:
    """A whole number of at least 1 (argparse's type)."""
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a whole number") from None
    if value < 1:
        raise argparse.ArgumentTypeError("it must be at least 1")
    return value


def _add_serve_command(sub: Any) -> None:
    serve = sub.add_parser("serve", parents=[_common(argparse.SUPPRESS)], help="host the game for SSH clients")
    serve.add_argument("--host", default=_DEFAULT.host, help=f"address to listen on (default {_DEFAULT.host})")
    serve.add_argument("--port", type=int, default=_DEFAULT.port,
                       help=f"port to listen on (default {_DEFAULT.port}; 0 picks one)")
    serve.add_argument("--max-sessions", type=int, default=_DEFAULT.max_sessions, metavar="N",
                       help=f"concurrent sessions allowed (default {_DEFAULT.max_sessions})")
    serve.add_argument("--max-per-ip", type=int, default=_DEFAULT.max_per_ip, metavar="N",
                       help=f"concurrent sessions from one address (default {_DEFAULT.max_per_ip})")
    serve.add_argument("--max-per-network", type=int, default=_DEFAULT.max_per_network, metavar="N",
                       help="concurrent sessions from one network, an IPv4 /24 or an IPv6 /64 "
                            f"(default {_DEFAULT.max_per_network}; 0: no limit)")
    serve.add_argument("--db-pool", type=_positive_int, default=_DEFAULT.db_pool, metavar="N",
                       help="database connections the server's hub keeps for all of its sessions "
                            f"(default {_DEFAULT.db_pool}; docs/arcade.md)")
    serve.add_argument("--no-hub", action="store_true", help=argparse.SUPPRESS)
    serve.add_argument("--idle-timeout", type=float, default=_DEFAULT.idle_timeout, metavar="SECONDS",
                       help=f"close idle sessions after this (default {_DEFAULT.idle_timeout:g})")
    serve.add_argument("--host-key", metavar="PATH", help="host key file (default: ssh_host_ed25519_key in the data folder)")
    serve.add_argument("--authorized-keys", metavar="FILE", help="only let in clients with a key listed here")
    serve.add_argument("--no-guests", action="store_true", help="turn away clients without an SSH key")
    serve.add_argument("--operator-key", action="append", default=[], metavar="FILE",
                       help="an authorized_keys file of operators: their sessions get the Operator screen (repeatable)")
    serve.add_argument("--metrics", metavar="HOST:PORT", type=_address,
                       help="serve Prometheus /metrics, /livez and /readyz here (off by default; "
                            "a bare PORT listens on 127.0.0.1)")
    serve.add_argument("--log-format", choices=("text", "json"), default=_DEFAULT.log_format,
                       help=f"the log on stderr: text lines or one JSON object a line (default {_DEFAULT.log_format})")
    serve.add_argument("--web", metavar="HOST:PORT", type=_web_address,
                       help="also serve the game to browsers at this address (put TLS in front: docs/serve.md)")
    serve.add_argument("--web-origin", action="append", default=[], metavar="URL", type=_origin,
                       help="the public address of the page behind a proxy, e.g. https://play.example.org (repeatable)")
    serve.add_argument("--trusted-proxy", action="append", default=[], metavar="ADDRESS", type=_network,
                       help="a reverse proxy (address or network) whose X-Forwarded-For/-Proto are believed (repeatable)")
    serve.add_argument("--motd", metavar="TEXT|@FILE", type=_motd,
                       help="a line every player reads on the main menu (@FILE: read it from FILE)")
    serve.add_argument("--arena-every", type=_hours, metavar="HOURS",
                       help="start a Code Arena every HOURS hours (docs/arcade.md, *Code Arena*; default: only "
                            "`wom-tui arena start`)")
    serve.add_argument("--arena-minutes", type=_positive_int, default=_DEFAULT.arena_minutes, metavar="N",
                       help=f"how long a scheduled arena lasts (default {_DEFAULT.arena_minutes})")
    serve.add_argument("--arena-rules", type=_arena_rules, default=_DEFAULT.arena_rules, metavar="RULES",
                       help=f"a scheduled arena's rules (default {_DEFAULT.arena_rules})")


def _hours(text: str) -> float:
    """``--arena-every``: a number of hours, from a quarter of an hour to a week."""
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a number of hours") from None
    if not 0.25 <= value <= 168:
        raise argparse.ArgumentTypeError("an arena every 0.25 to 168 hours")
    return value


def _arena_rules(text: str) -> str:
    """``--arena-rules``: rules ``wom-tui arena start --rules`` takes."""
    from ..domain.arena import ArenaRefused, parse_rules

    try:
        parse_rules(text)
    except ArenaRefused as exc:
        raise argparse.ArgumentTypeError(exc.reason) from None
    return text


def _address(text: str) -> str:
    """``HOST:PORT`` or ``PORT`` for ``--metrics``, checked now (a bare port means loopback)."""
    from ..serve.health import parse_address

    try:
        host, port = parse_address(text)
    except ValueError as exc:
        raise argparse.ArgumentTypeError(str(exc)) from None
    return f"[{host}]:{port}" if ":" in host else f"{host}:{port}"


def _web_address(value: str) -> str:
    """``--web HOST:PORT``, checked."""
    from ..serve.webaddress import split_address

    try:
        split_address(value)
    except ValueError as exc:
        raise argparse.ArgumentTypeError(str(exc)) from None
    return value


def _origin(value: str) -> str:
    """``--web-origin``: scheme and host (and port), nothing else."""
    from urllib.parse import urlsplit

    parts = urlsplit(value.rstrip("/"))
    if parts.scheme not in ("http", "https") or not parts.netloc or parts.path or parts.query:
        raise argparse.ArgumentTypeError(f"{value!r} is not an origin like https://play.example.org")
    return f"{parts.scheme}://{parts.netloc}"


def _network(value: str) -> str:
    """``--trusted-proxy``: an address or a network."""
    import ipaddress

    try:
        ipaddress.ip_network(value, strict=False)
    except ValueError as exc:
        raise argparse.ArgumentTypeError(str(exc)) from None
    return value


def _add_users_command(sub: Any) -> None:
    place = _common(argparse.SUPPRESS, play=False)
    users = sub.add_parser("users", parents=[place],
                           help="list users, bind or unbind their SSH keys, sign browsers in and out, ban, retire")
    users_sub = users.add_subparsers(dest="users_command", required=True,
                                     metavar="{list,bind,unbind,link-browser,sessions,revoke,ban,unban,bans,retire}")
    users_sub.add_parser("list", parents=[place], help="name, score, games and key fingerprints")
    bind = users_sub.add_parser("bind", parents=[place], help="let an SSH key sign in as NAME")
    bind.add_argument("name", metavar="NAME")
    bind.add_argument("--key", required=True, metavar="PUBLIC_KEY", help='the public key, e.g. "ssh-ed25519 AAAA... alan@home"')
    unbind = users_sub.add_parser("unbind", parents=[place], help="take a key from NAME")
    unbind.add_argument("name", metavar="NAME")
    unbind.add_argument("fingerprint", metavar="FINGERPRINT", help="as `wom-tui users list` shows it (SHA256:...)")
    link = users_sub.add_parser("link-browser", parents=[place],
                                help="print a one-time code that signs a browser in as NAME (10 minutes, once)")
    link.add_argument("name", metavar="NAME")
    sessions = users_sub.add_parser("sessions", parents=[place],
                                    help="NAME's browser sessions: id, signed in, last used, from where")
    sessions.add_argument("name", metavar="NAME")
    revoke = users_sub.add_parser("revoke", parents=[place],
                                  help="sign one of NAME's browsers out (SESSION-ID), or all (--all)")
    revoke.add_argument("name", metavar="NAME")
    which = revoke.add_mutually_exclusive_group(required=True)
    which.add_argument("session_id", nargs="?", metavar="SESSION-ID", help="as `wom-tui users sessions NAME` shows it")
    which.add_argument("--all", action="store_true", help="every browser session of NAME")
    ban = users_sub.add_parser("ban", parents=[place],
                               help="turn away a name, a key or an address range (and end its open sessions)")
    ban.add_argument("target", metavar="TARGET",
                     help="a name (name:X for a name that looks like an address), a key fingerprint (SHA256:...), "
                          "an address or a CIDR range (192.0.2.0/24, 2001:db8::/32)")
    ban.add_argument("--for", dest="duration", metavar="DURATION",
                     help="how long: 30m, 2h, 7d, 1w (default: until lifted with `wom-tui users unban`)")
    ban.add_argument("--reason", default="", metavar="TEXT", help="what the client is told (one line)")
    unban = users_sub.add_parser("unban", parents=[place],
                                 help="lift a ban by its id, or every ban of a target")
    unban.add_argument("target", metavar="ID-OR-TARGET", help="as `wom-tui users bans` shows it")
    users_sub.add_parser("bans", parents=[place],
                         help="the bans in force and the retired names")
    retire = users_sub.add_parser("retire", parents=[place],
                                  help="retire NAME: hidden from every board and list, kept, reserved, its keys refused")
    retire.add_argument("name", metavar="NAME")
    retire.add_argument("--reason", default="", metavar="TEXT", help="what its keys are told at sign-in (one line)")


def build_parser() -> argparse.ArgumentParser:
    """The argument parser for ``wom-tui`` and its ``serve``, ``users``, ``store`` and ``ratings`` commands."""
    parser = argparse.ArgumentParser(prog="wom-tui", description="World of Mastermind in the terminal.", parents=[_common()])
    parser.add_argument("--version", action="version", version=f"wom-tui {__version__}")
    parser.add_argument("--line", action="store_true",
                        help="line mode: plain lines of words on standard input and output, for screen readers and "
                             "braille displays (no full screen, no colours)")
    sub = parser.add_subparsers(dest="command")
    _add_serve_command(sub)
    _add_users_command(sub)
    add_store_command(sub)
    add_ratings_command(sub, _common(argparse.SUPPRESS))
    add_arena_command(sub, _common(argparse.SUPPRESS, play=False))
    return parser


def check_scope(parser: argparse.ArgumentParser, args: argparse.Namespace) -> None:
    """A usage error (status 2) for an option written before ``users`` or ``store`` that means nothing to it
    (``wom-tui --seed 3 users list``); written after the command, argparse itself refuses it.
    """
    allowed = _SCOPE.get(args.command or "")
    if allowed is None:
        return
    if args.command == "store" and getattr(args, "store_command", None) == "copy":
        allowed = ()  # copy takes its two places as --from and --to
    for name in (*_PLACE, *_PLAY):
        if name not in allowed and getattr(args, name, None) not in (None, False):
            option = "--" + name.replace("_", "-")
            command = f"{args.command} {getattr(args, args.command + '_command', '')}".strip()
            parser.error(f"{option} means nothing to `wom-tui {command}`" + (
                " (it copies --from one place --to another)" if command == "store copy" else ""))


def settings_from_args(args: argparse.Namespace) -> Settings:
    """The settings the parsed command line asks for (the defaults for what it leaves out)."""
    seed = getattr(args, "seed", None)
    settings = Settings(
        data_dir=resolve_data_dir(getattr(args, "data_dir", None)),
        seed=seed if seed is not None else new_seed(),
        debug=bool(getattr(args, "debug", False)),
        store=resolve_store(getattr(args, "store", None)),
    )
    if getattr(args, "seat_grace", None) is not None:
        settings = replace(settings, seat_grace=args.seat_grace)
    if args.fill_after is not None:
        settings = replace(settings, fill_after=args.fill_after)
    if args.no_bell:
        settings = replace(settings, bell=False)
    if args.notify:
        settings = replace(settings, desktop_notify=True)
    if args.command != "serve":
        return settings
    return replace(
        settings,
        data_dir=settings.data_dir.absolute(),
        host=args.host, port=args.port, max_sessions=args.max_sessions, max_per_ip=args.max_per_ip,
        max_per_network=args.max_per_network, db_pool=args.db_pool, hub=not args.no_hub,
        no_guests=args.no_guests, idle_timeout=args.idle_timeout, motd=args.motd or None,
        host_key=Path(args.host_key).expanduser() if args.host_key else None,
        authorized_keys=Path(args.authorized_keys).expanduser() if args.authorized_keys else None,
        operator_keys=tuple(Path(path).expanduser().absolute() for path in args.operator_key),
        metrics=args.metrics, log_format=args.log_format,
        web=args.web, web_origin=tuple(args.web_origin), trusted_proxy=tuple(args.trusted_proxy),
        arena_every=args.arena_every, arena_minutes=args.arena_minutes, arena_rules=args.arena_rules,
    )
