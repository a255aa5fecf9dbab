"""The data files' JSON: strict parsing, encoding and checking of every document a store keeps.

Pure functions, no I/O: the data folder (:mod:`.folder.store`) reads and writes these documents as
files, and PostgreSQL (:mod:`.postgres.store`) checks its rows with the same checks. Every decoder
raises ``ValueError`` with the reason a person should read.
"""

from __future__ import annotations

import json
import re
import uuid
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from datetime import datetime, timezone
from typing import Annotated, Any

import msgspec

from ..browser import BrowserSession
from ..codes import MAX_DIGITS, Ruleset
from ..daily import DailyAttempt
from ..halloffame import HallOfFame
from ..moderation import Ban, Broadcast, Kick, Retirement
from ..users import PendingLink
from ..records import GAME_KINDS, GameRecord
from ..rush import RushScore
from ..ratings import collector_paused
from ..shapes import shaped
from ..variants import Variant
from ..stats import GameSummary, PlayerLine
from ..users import NameRejected, User, UserRegistry, check_name, computer_name, name_key

SCHEMA = 1
USERS_SCHEMA = 2
"""users.json's version: 2 added each user's key fingerprints (version 1 is still read)."""

MAX_FILE_BYTES = 16 * 1024 * 1024
"""Refuse to read anything larger: no file of ours comes near it (10,000 users is about 0.7 MB),
so a 50 MB file is refused before it is read."""
MAX_INDEX_BYTES = 256 * 1024 * 1024
"""The games' index is the one file that grows with every game (about 250 bytes each): it may hold about a
million games. Under the common limit, an index of more than about 65,000 games was refused on every
read, so each look at the statistics or the ratings read every game file again (docs/perf/ratings.md)."""
MAX_DEPTH = 12
"""Deepest nesting our files use is 6 (a guess inside a player inside a game)."""

GAME_ID = re.compile(r"[0-9]{8}T[0-9]{12}Z-[0-9a-f]{12}")
"""A game's id (:func:`new_game_id`)."""
_LIFELINE = "LIFELINE"


def _reject_constant(name: str) -> Any:
    raise ValueError(f"{name} is not allowed in a data file")


def _bounded_int(text: str) -> int:
    digits = text.lstrip("-")
    if len(digits) > MAX_DIGITS:
        raise ValueError(
            f"the number {text[:12]}… ({len(digits)} digits) is too large for a data file "
            f"(the limit is {MAX_DIGITS} digits; no game comes near it)"
        )
    return int(text)


def _no_duplicate_keys(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    result: dict[str, Any] = {}
    for key, value in pairs:
        if key in result:
            raise ValueError(f"the key {key!r} appears twice in one object")
        result[key] = value
    return result


def _depth(value: Any) -> int:
    """Nesting depth of parsed JSON, walked level by level without recursion (stops past the limit)."""
    depth = 0
    level = [value] if isinstance(value, (dict, list)) else []
    while level and depth <= MAX_DEPTH:
        depth += 1
        below: list[Any] = []
        for item in level:
            for child in item.values() if isinstance(item, dict) else item:
                if isinstance(child, (dict, list)):
                    below.append(child)
        level = below
    return depth


def parse_document(raw: bytes, schemas: tuple[int, ...] = (SCHEMA, USERS_SCHEMA)) -> dict[str, Any]:
    """Parse one data file strictly; ``ValueError`` with the reason a person should read.

    Refuses: empty or oversized files, bad UTF-8, invalid JSON, NaN/Infinity, duplicate keys,
    nesting deeper than :data:`MAX_DEPTH`, a top level that is not an object, and a missing or
    unknown schema version (any of ``schemas``; each decoder then checks its own file's version).
    """
    if len(raw) > MAX_FILE_BYTES:
        raise ValueError(f"the file is too large ({len(raw)} bytes; the limit is {MAX_FILE_BYTES})")
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise ValueError(f"the file is not valid UTF-8 (bad byte at offset {exc.start})") from None
    if not text.strip():
        raise ValueError("the file is empty")
    try:
        data = json.loads(
            text, parse_constant=_reject_constant, object_pairs_hook=_no_duplicate_keys, parse_int=_bounded_int
        )
    except RecursionError:
        raise ValueError(f"the JSON is nested too deeply (more than {MAX_DEPTH} levels)") from None
    except json.JSONDecodeError as exc:
        raise ValueError(f"the file is not valid JSON ({exc.msg} at line {exc.lineno}, column {exc.colno})") from None
    if _depth(data) > MAX_DEPTH:
        raise ValueError(f"the JSON is nested too deeply (more than {MAX_DEPTH} levels)")
    if not isinstance(data, dict):
        raise ValueError("the file must hold a JSON object")
    if "schema" not in data:
        raise ValueError("the file has no schema version")
    schema = data["schema"]
    if type(schema) is not int or schema not in schemas:
        raise ValueError(f"unknown schema version {schema!r} (this wom-tui reads version {max(schemas)})")
    return data


_ROW_ENCODER = json.JSONEncoder(allow_nan=False)


def encode_document(body: dict[str, Any], schema: int = SCHEMA) -> bytes:
    """One data file's bytes: pretty-printed JSON with the schema version first.

    A top-level list is written one compact item per line (a user, a record): as readable as a
    fully indented file, and several times faster to write, since only the compact form uses
    the C encoder — it matters with 10,000 users.
    """
    lines = []
    for key, value in {"schema": schema, **body}.items():
        name = json.dumps(key)
        if isinstance(value, list) and value:
            items = ",\n".join("    " + _ROW_ENCODER.encode(item) for item in value)
            lines.append(f"  {name}: [\n{items}\n  ]")
        else:
            text = json.dumps(value, indent=2, allow_nan=False).replace("\n", "\n  ")
            lines.append(f"  {name}: {text}")
    return ("{\n" + ",\n".join(lines) + "\n}\n").encode("utf-8")


def _expect_keys(data: dict[str, Any], required: set[str], optional: frozenset[str] = frozenset()) -> None:
    missing = required - set(data)
    if missing:
        raise ValueError(f"missing field {sorted(missing)[0]!r}")
    extra = set(data) - required - optional
    if extra:
        # Unknown fields would be lost on the next rewrite, so they make the file unreadable instead.
        raise ValueError(f"unexpected field {sorted(extra)[0]!r}")


def _expect_schema(data: dict[str, Any], schema: int = SCHEMA) -> None:
    if data["schema"] != schema:
        raise ValueError(f"unknown schema version {data['schema']!r} (this wom-tui reads version {schema})")


def check_game_id(value: Any) -> str:
    """``value`` if it is a game id (:func:`new_game_id`); ``ValueError`` if not."""
    if not isinstance(value, str) or GAME_ID.fullmatch(value) is None:
        raise ValueError(f"{value!r} is not a game id")
    return value


def decode_users(data: dict[str, Any]) -> tuple[UserRegistry, list[str]]:
    """users.json's content → the registry and the ids of the games most recently applied."""
    _expect_keys(data, {"schema", "users"}, frozenset({"recent_games"}))
    users = data["users"]
    if not isinstance(users, list):
        raise ValueError("'users' must be a list")
    loaded = []
    for number, item in enumerate(users, 1):
        try:
            loaded.append(User.from_json(item))
        except NameRejected as exc:
            name = item.get("name") if isinstance(item, dict) else None
            raise ValueError(f"user #{number} has an invalid name {name!r}: {exc.reason}") from None
        except (ValueError, TypeError) as exc:
            raise ValueError(f"user #{number}: {exc}") from None
    try:
        registry = UserRegistry(loaded)
    except ValueError as exc:
        raise ValueError(f"{exc} (names must be unique ignoring case)") from None
    recent = data.get("recent_games", [])
    if not isinstance(recent, list):
        raise ValueError("'recent_games' must be a list")
    return registry, [check_game_id(game_id) for game_id in recent]


def encode_users(registry: UserRegistry, recent_games: Iterable[str] = ()) -> bytes:
    """users.json's bytes for ``registry`` (in registration order), always schema 2."""
    body = {"users": [user.as_json() for user in registry], "recent_games": list(recent_games)}
    return encode_document(body, USERS_SCHEMA)


def decode_links(data: dict[str, Any]) -> list[PendingLink]:
    """links.json's content → the one-time codes waiting to be typed."""
    _expect_keys(data, {"schema", "links"})
    _expect_schema(data)
    links = data["links"]
    if not isinstance(links, list):
        raise ValueError("'links' must be a list")
    try:
        return [PendingLink.from_json(item) for item in links]
    except NameRejected as exc:
        raise ValueError(f"a link code has an invalid name: {exc.reason}") from None
    except (ValueError, TypeError) as exc:
        raise ValueError(f"bad link code: {exc}") from None


def encode_links(links: Iterable[PendingLink]) -> bytes:
    """links.json's bytes."""
    return encode_document({"links": [link.as_json() for link in links]})


def decode_browser(data: dict[str, Any]) -> tuple[list[PendingLink], list[BrowserSession]]:
    """browser.json's content → the one-time codes for browsers and the browser sessions (token hashes only)."""
    _expect_keys(data, {"schema", "codes", "sessions"})
    _expect_schema(data)
    codes, sessions = data["codes"], data["sessions"]
    if not isinstance(codes, list) or not isinstance(sessions, list):
        raise ValueError("'codes' and 'sessions' must be lists")
    try:
        pending = [PendingLink.from_json(item) for item in codes]
        kept = [BrowserSession.from_json(item) for item in sessions]
    except NameRejected as exc:
        raise ValueError(f"a browser code or session has an invalid name: {exc.reason}") from None
    except (ValueError, TypeError) as exc:
        raise ValueError(f"bad browser code or session: {exc}") from None
    if len({session.id for session in kept}) != len(kept) or len({s.token_hash for s in kept}) != len(kept):
        raise ValueError("two browser sessions share an id or a token")
    return pending, kept


def encode_browser(codes: Iterable[PendingLink], sessions: Iterable[BrowserSession]) -> bytes:
    """browser.json's bytes."""
    return encode_document({"codes": [code.as_json() for code in codes],
                            "sessions": [session.as_json() for session in sessions]})


@dataclass(frozen=True)
class ModerationDocument:
    """moderation.json: the bans, the retired names, the kicks of the last minute and the operator's broadcast."""

    bans: tuple[Ban, ...] = ()
    retired: tuple[Retirement, ...] = ()
    kicks: tuple[Kick, ...] = ()
    broadcast: Broadcast | None = None


def decode_moderation(data: dict[str, Any]) -> ModerationDocument:
    """moderation.json's content → the bans, the retired names, the kicks and the broadcast (the last two
    are left out of a file written before they were kept).
    """
    _expect_keys(data, {"schema", "bans", "retired"}, frozenset({"kicks", "broadcast"}))
    _expect_schema(data)
    bans, retired, kicks = data["bans"], data["retired"], data.get("kicks", [])
    if not isinstance(bans, list) or not isinstance(retired, list) or not isinstance(kicks, list):
        raise ValueError("'bans', 'retired' and 'kicks' must be lists")
    try:
        kept = [Ban.from_json(item) for item in bans]
        names = [Retirement.from_json(item) for item in retired]
        kicked = [Kick.from_json(item) for item in kicks]
        broadcast = None if data.get("broadcast") is None else Broadcast.from_json(data["broadcast"])
    except NameRejected as exc:
        raise ValueError(f"bad retired name: {exc.reason}") from None
    except (ValueError, TypeError, AttributeError) as exc:
        raise ValueError(f"bad ban, retired name, kick or broadcast: {exc}") from None
    if len({ban.id for ban in kept}) != len(kept):
        raise ValueError("two bans share an id")
    if len({name_key(r.name) for r in names}) != len(names):
        raise ValueError("a name is retired twice")
    return ModerationDocument(tuple(kept), tuple(names), tuple(kicked), broadcast)


def encode_moderation(document: ModerationDocument) -> bytes:
    """moderation.json's bytes."""
    data: dict[str, Any] = {"bans": [ban.as_json() for ban in document.bans],
                            "retired": [r.as_json() for r in document.retired]}
    if document.kicks:
        data["kicks"] = [kick.as_json() for kick in document.kicks]
    if document.broadcast is not None:
        data["broadcast"] = document.broadcast.as_json()
    return encode_document(data)


def decode_hall(data: dict[str, Any]) -> HallOfFame:
    """halloffame.json's content → the hall of fame."""
    _expect_keys(data, {"schema", "records"})
    _expect_schema(data)
    try:
        return HallOfFame.from_json(data["records"])
    except NameRejected as exc:
        raise ValueError(f"a record has an invalid name: {exc.reason}") from None
    except (ValueError, TypeError) as exc:
        raise ValueError(f"bad hall-of-fame record: {exc}") from None


def encode_hall(hall: HallOfFame) -> bytes:
    """halloffame.json's bytes."""
    return encode_document({"records": hall.as_json()})


_THEME_NAME = re.compile(r"[A-Za-z0-9][A-Za-z0-9_.-]{0,63}")
MAX_IDENTITY = 200
"""An identity is "local" or, over SSH, a key fingerprint (SHA256:… is 50 characters)."""


def check_identity(identity: Any) -> str:
    """An identity preferences are kept under: printable ASCII, 1–200 characters; ``ValueError`` if not."""
    if not (isinstance(identity, str) and 0 < len(identity) <= MAX_IDENTITY
            and identity.isascii() and identity.isprintable()):
        raise ValueError(f"{identity!r} is not an identity (1–{MAX_IDENTITY} printable ASCII characters)")
    return identity


def check_theme_name(theme: Any) -> str:
    """A theme name as Textual names them (``wom-colourblind``, ``nord``); ``ValueError`` if not."""
    if not isinstance(theme, str) or _THEME_NAME.fullmatch(theme) is None:
        raise ValueError(f"{theme!r} is not a theme name")
    return theme


_FORM_NAME = re.compile(r"[a-z][a-z0-9_-]{0,31}")
_CHOICE_NAME = re.compile(r"[a-z][a-z0-9_]{0,31}")
MAX_CHOICES = 24
"""At most this many choices are kept per form (a setup has a handful)."""
MAX_CHOICE_TEXT = 64

Choices = dict[str, str | int | bool | None]
"""One form's remembered choices: a name → a short text, a whole number, true/false or null."""
_CHOICES: Any = Annotated[dict[
    Annotated[str, msgspec.Meta(pattern=f"^{_CHOICE_NAME.pattern}$")],
    Annotated[str, msgspec.Meta(max_length=MAX_CHOICE_TEXT)] | Annotated[int, msgspec.Meta(ge=-2**31, le=2**31)]
    | bool | None,
], msgspec.Meta(max_length=MAX_CHOICES)]


def check_form_name(form: Any) -> str:
    """A form whose choices are remembered (``solo``, ``wom``, ``table``, ``stats``); ``ValueError`` if not."""
    if not isinstance(form, str) or _FORM_NAME.fullmatch(form) is None:
        raise ValueError(f"{form!r} is not a form name")
    return form


def check_choices(values: Any) -> Choices:
    """A form's choices as they may be kept; ``ValueError`` naming what is wrong.

    The store keeps only the shape (names, scalar values, sizes); whether a value is still one the
    form offers is decided by the form when it reads it back (an unknown value falls back to its default).
    """
    return dict(shaped(values, _CHOICES, {"[]": f"a choice must be text (at most {MAX_CHOICE_TEXT} characters), "
                                              "a whole number, true/false or null"}, what="choices"))


def decode_choices_leniently(data: Any) -> dict[str, dict[str, Choices]]:
    """The ``choices`` part of preferences.json: identity → form → choices.

    Anything damaged is left out rather than refused: remembered choices are a comfort, and a bad one
    must neither stop the game nor make the themes beside it unreadable (the form then shows its defaults).
    """
    kept: dict[str, dict[str, Choices]] = {}
    if not isinstance(data, dict):
        return kept
    for identity, forms in data.items():
        try:
            check_identity(identity)
        except ValueError:
            continue
        if not isinstance(forms, dict):
            continue
        for form, values in forms.items():
            try:
                kept.setdefault(identity, {})[check_form_name(form)] = check_choices(values)
            except ValueError:
                continue
    return {identity: forms for identity, forms in kept.items() if forms}


def decode_prefs(data: dict[str, Any]) -> dict[str, str]:
    """preferences.json's content → the theme chosen by each identity."""
    return decode_prefs_document(data)[0]


def decode_prefs_document(data: dict[str, Any]) -> tuple[dict[str, str], dict[str, dict[str, Choices]]]:
    """preferences.json's content → (the theme of each identity, the choices each remembers per form)."""
    _expect_keys(data, {"schema", "themes"}, frozenset({"choices"}))
    themes = data["themes"]
    if not isinstance(themes, dict):
        raise ValueError("'themes' must be an object")
    return ({check_identity(identity): check_theme_name(theme) for identity, theme in themes.items()},
            decode_choices_leniently(data.get("choices")))


def encode_prefs(themes: dict[str, str], choices: dict[str, dict[str, Choices]] | None = None) -> bytes:
    """preferences.json's bytes (``choices`` only when some are kept, as older versions wrote it)."""
    document: dict[str, Any] = {"themes": dict(sorted(themes.items()))}
    if choices:
        document["choices"] = {identity: dict(sorted(forms.items())) for identity, forms in sorted(choices.items())
                               if forms}
    return encode_document(document)


def decode_rush(data: dict[str, Any]) -> dict[str, RushScore]:
    """rush.json's content → each identity's best Rush."""
    _expect_keys(data, {"schema", "bests"})
    bests = data["bests"]
    if not isinstance(bests, dict):
        raise ValueError("'bests' must be an object")
    return {check_identity(identity): RushScore.from_json(score) for identity, score in bests.items()}


def encode_rush(bests: dict[str, RushScore]) -> bytes:
    """rush.json's bytes."""
    return encode_document({"bests": {identity: score.as_json() for identity, score in sorted(bests.items())}})


def check_kept_json(game: Any) -> dict[str, Any]:
    """``game`` if it is a solo game in progress that may be kept to resume: a classic one
    (:meth:`.solo.SoloGame.as_json`) or a variant's (:meth:`.variant_game.VariantGame.as_json`, its
    ``kind`` is ``"variant"``); ``ValueError`` with the reason if not.
    """
    if isinstance(game, dict) and game.get("kind") == "variant":
        from ..variant_game import check_variant_json

        return check_variant_json(game)
    from ..solo import check_solo_json

    return check_solo_json(game)


def decode_solo(data: dict[str, Any]) -> tuple[str, dict[str, Any]]:
    """A solo file's content → (identity, the game as :meth:`.solo.SoloGame.as_json` gives it, or a variant's)."""
    _expect_keys(data, {"schema", "identity", "game"})
    return check_identity(data["identity"]), check_kept_json(data["game"])


def encode_solo(identity: str, game: dict[str, Any]) -> bytes:
    """A solo file's bytes."""
    return encode_document({"identity": identity, "game": game})


def check_game_json(data: Any) -> GameRecord:
    """Validate a game record's JSON strictly and build it: its shape (types, fields, one to four players) as
    :meth:`GameRecord.from_json` reads it, then the rules: names, codes of its ruleset, feedback that fits.
    """
    record = GameRecord.from_json(data)
    datetime.fromisoformat(record.finished_at)
    length, symbols = record.ruleset.length, record.ruleset.palette.symbols
    seen: set[str] = set()
    for number, player in enumerate(record.players, 1):
        name = player.name
        if computer_name(name) != name:
            try:
                check_name(name)
            except NameRejected as exc:
                raise ValueError(f"player #{number} has an invalid name {name!r}: {exc.reason}") from None
        if name_key(name) in seen:
            raise ValueError(f"{name!r} plays twice in one game")
        seen.add(name_key(name))
        for code, (black, white) in player.guesses:
            if black + white > length:
                raise ValueError(f"player #{number}: a guess must be [code, black, white]")
            if code != _LIFELINE and (len(code) != length or any(ch not in symbols for ch in code)):
                raise ValueError(f"player #{number}: {code!r} is not a code of this ruleset")
        if player.secret is not None and (len(player.secret) != length or any(ch not in symbols for ch in player.secret)):
            raise ValueError(f"player #{number}: the secret {player.secret!r} is not a code of this ruleset")
        if any(len(code) != length or any(ch not in symbols for ch in code) for code in player.codes):
            raise ValueError(f"player #{number}: Quad's codes must be codes of this ruleset")
        if any(clue.symbol not in symbols or (clue.position or 0) >= length for _, clue in player.clues):
            raise ValueError(f"player #{number}: a clue must be [lifeline row, symbol, position]")
    return record


def decode_game(data: dict[str, Any]) -> tuple[str, GameRecord]:
    """A game file's content → its id and record."""
    _expect_keys(data, {"schema", "id", "game"})
    _expect_schema(data)
    return check_game_id(data["id"]), check_game_json(data["game"])


def encode_game(game_id: str, record: GameRecord) -> bytes:
    """A game file's bytes."""
    return encode_document({"id": game_id, "game": record.as_json()})


def new_game_id() -> str:
    """A unique id that sorts by time to the microsecond: ``20261120T235510123456Z-1a2b3c4d5e6f``."""
    now = datetime.now(timezone.utc)
    return now.strftime("%Y%m%dT%H%M%S%fZ-") + uuid.uuid4().hex[:12]


def parse_index(raw: bytes) -> dict[str, tuple[int, int, GameSummary]]:
    """games_index.json's bytes → its entries; ``ValueError`` (or ``RecursionError``) if damaged.

    Only a cache, read whole each time statistics open in a new session: parsed without
    :func:`parse_document`'s per-number hook (ten times slower on 10,000 games). Every value is
    still checked by :func:`decode_index`, and a damaged file is only rebuilt from the game files.
    """
    if len(raw) > MAX_INDEX_BYTES:
        raise ValueError("the index is too large")
    with collector_paused():  # a few hundred thousand lists and tuples, no cycle among them
        data = json.loads(raw, parse_constant=_reject_constant)
        if not isinstance(data, dict) or data.get("schema") != SCHEMA:
            raise ValueError("the index is not a version-1 object")
        return decode_index(data)


def decode_index(data: dict[str, Any]) -> dict[str, tuple[int, int, GameSummary]]:
    """games_index.json's content → {game id: (size, mtime_ns, summary)}.

    Compact on purpose (it is read whole each time statistics open): ``rulesets`` lists each
    ruleset once; each game is one flat row ``[game id, size, mtime_ns, kind, ruleset number,
    finished_at]`` followed by ``name, is_user, broke, attempts, points`` for each player.
    ``mtime_ns`` is written as a string of digits: it has 19 digits, more than a data file's
    numbers may have. ``hot_seat`` and ``tables`` list the ids of the games played hot-seat and at
    live tables (a game in neither was recorded before records said; required, so an index written
    before they were kept is rebuilt from the game files once). ``unrated`` lists the unrated games and
    ``arenas`` maps a Code Arena's games to its id, and ``variants`` a variant's games to the variant, when
    there are any.
    """
    _expect_keys(data, {"schema", "rulesets", "games", "hot_seat", "tables"},
                 frozenset({"unrated", "arenas", "variants"}))
    unrated = frozenset(shaped(data.get("unrated", []), list[str], what="'unrated'"))
    arenas = shaped(data.get("arenas", {}), dict[str, str], what="'arenas'").get
    variants = shaped(data.get("variants", {}), dict[str, Variant], what="'variants'")
    raw_rulesets, games = data["rulesets"], data["games"]
    if not isinstance(raw_rulesets, list) or not isinstance(games, list):
        raise ValueError("'rulesets' and 'games' must be lists")
    seating = {**dict.fromkeys(shaped(data["hot_seat"], list[str], what="'hot_seat'"), True),
               **dict.fromkeys(shaped(data["tables"], list[str], what="'tables'"), False)}
    rulesets = [Ruleset.from_json(item) for item in raw_rulesets]
    kinds = frozenset(GAME_KINDS)
    result = {}
    # Read whole by every rebuild of the ratings (100,000 rows): the namedtuples are made from their rows.
    make_line, make_summary = PlayerLine._make, GameSummary._make
    seated = seating.get
    for row in games:
        if type(row) is not list or not 11 <= len(row) <= 26 or (len(row) - 6) % 5:
            raise ValueError("an index row must be [game id, size, mtime_ns, kind, ruleset, finished_at, players…]")
        game_id, size, mtime, kind, number, finished = row[:6]
        # The id is only looked up among the files found in games/, so it needs no pattern check.
        if (type(game_id) is not str or type(size) is not int or type(mtime) is not str or not mtime.isdigit()
                or kind not in kinds or type(number) is not int or not 0 <= number < len(rulesets)
                or type(finished) is not str):
            raise ValueError(f"bad index row for {game_id!r}")
        players = []
        for i in range(6, len(row), 5):
            line = row[i:i + 5]
            player, is_user, broke, attempts, points = line
            if (type(player) is not str or type(is_user) is not bool or type(broke) is not bool
                    or type(attempts) is not int or type(points) is not int or attempts < 0 or points < 0):
                raise ValueError(f"bad player in the index row for {game_id!r}")
            players.append(make_line(line))
        result[game_id] = (size, int(mtime), make_summary((game_id, kind, rulesets[number], finished, tuple(players),
                                                           seated(game_id), game_id not in unrated, arenas(game_id),
                                                           variants.get(game_id, Variant.CLASSIC))))
    return result


class SummaryReader:
    """Reads the summary PostgreSQL keeps of each game (migration 14): the record without its players,
    ``names``, ``users``, ``broke``, ``attempts``, ``breaking`` and ``making`` one value per player.
    Checked as the folder's index is (types, counts, one to four players); each ruleset is checked once.
    """

    def __init__(self) -> None:
        self._rulesets: dict[tuple[Any, ...], Ruleset] = {}
        self._kinds = frozenset(GAME_KINDS)

    def summary(self, game_id: str, kind: str, data: Any) -> GameSummary:
        """The game's summary; ``ValueError`` if ``data`` is not one (the caller reads the record whole)."""
        if type(data) is not dict:
            raise ValueError("no summary")
        kind_, raw_ruleset, finished = data.get("kind"), data.get("ruleset"), data.get("finished_at")
        hot_seat = data.get("hot_seat")
        if kind_ != kind or kind not in self._kinds or type(finished) is not str or type(raw_ruleset) is not dict \
                or (hot_seat is not None and type(hot_seat) is not bool):
            raise ValueError("not a summary")
        key = tuple(sorted(raw_ruleset.items()))
        ruleset = self._rulesets.get(key)
        if ruleset is None:
            ruleset = self._rulesets[key] = Ruleset.from_json(raw_ruleset)
        columns: list[Any] = [data.get(key) for key in ("names", "users", "broke", "attempts", "breaking", "making")]
        count = len(columns[0]) if type(columns[0]) is list else 0
        if not 1 <= count <= 4 or not all(type(column) is list and len(column) == count for column in columns):
            raise ValueError("not a summary")
        lines = []
        for name, user, broken, used, made, kept in zip(*columns):
            if (type(name) is not str or type(user) is not bool or type(broken) is not bool or type(used) is not int
                    or type(made) is not int or type(kept) is not int or used < 0 or made < 0 or kept < 0):
                raise ValueError("not a summary")
            lines.append(PlayerLine(name, user, broken, used, made + kept))
        arena = data.get("arena")
        if arena is not None and (type(arena) is not str or not arena):
            raise ValueError("not a summary")
        try:
            variant = Variant(data.get("variant", "classic"))
        except ValueError:
            raise ValueError("not a summary") from None
        return GameSummary(game_id, kind, ruleset, finished, tuple(lines), hot_seat, data.get("rated") is not False,
                           arena, variant)


def encode_index(entries: dict[str, tuple[int, int, GameSummary]]) -> bytes:
    """games_index.json's bytes (see :func:`decode_index`)."""
    numbers: dict[Ruleset, int] = {}
    rows = []
    hot_seat: list[str] = []
    tables: list[str] = []
    unrated: list[str] = []
    arenas: dict[str, str] = {}
    variants: dict[str, str] = {}
    for game_id, (size, mtime, summary) in entries.items():
        number = numbers.setdefault(summary.ruleset, len(numbers))
        row: list[Any] = [game_id, size, str(mtime), summary.kind, number, summary.finished_at]
        for line in summary.players:
            row.extend(line)
        rows.append(row)
        if summary.hot_seat is not None:
            (hot_seat if summary.hot_seat else tables).append(game_id)
        if not summary.rated:
            unrated.append(game_id)
        if summary.arena is not None:
            arenas[game_id] = summary.arena
        if summary.variant is not Variant.CLASSIC:
            variants[game_id] = summary.variant.as_json()
    return encode_document({"rulesets": [ruleset.as_json() for ruleset in numbers], "games": rows,
                            "hot_seat": hot_seat, "tables": tables, **({"unrated": unrated} if unrated else {}),
                            **({"arenas": arenas} if arenas else {}),
                            **({"variants": variants} if variants else {})})


def decode_secret(data: dict[str, Any]) -> bytes:
    """daily_secret.json's content → the secret's bytes."""
    _expect_keys(data, {"schema", "secret"})
    secret = data["secret"]
    if not isinstance(secret, str) or re.fullmatch(r"[0-9a-f]{32,128}", secret) is None:
        raise ValueError("'secret' must be 32 to 128 lowercase hex digits")
    return bytes.fromhex(secret)


def encode_secret(secret: bytes) -> bytes:
    """daily_secret.json's bytes."""
    return encode_document({"secret": secret.hex()})


def decode_attempts(data: dict[str, Any]) -> list[DailyAttempt]:
    """daily.json's content → every attempt."""
    _expect_keys(data, {"schema", "attempts"})
    attempts = data["attempts"]
    if not isinstance(attempts, list):
        raise ValueError("'attempts' must be a list")
    result = []
    for number, item in enumerate(attempts, 1):
        try:
            result.append(DailyAttempt.from_json(item))
        except (ValueError, TypeError) as exc:
            raise ValueError(f"attempt #{number}: {exc}") from None
        if isinstance(item, dict):
            try:
                check_name(item["player"])
            except NameRejected as exc:
                raise ValueError(f"attempt #{number} has an invalid name: {exc.reason}") from None
    seen = set()
    for attempt in result:
        key = (attempt.day, attempt.puzzle, name_key(attempt.player))
        if key in seen:
            raise ValueError(f"{attempt.player!r} has two attempts at the {attempt.puzzle} code of {attempt.day}")
        seen.add(key)
    return result


def encode_attempts(attempts: Iterable[DailyAttempt]) -> bytes:
    """daily.json's bytes (the single file older versions kept; read to move it into ``daily/``)."""
    return encode_document({"attempts": [attempt.as_json() for attempt in attempts]})


def decode_daily_day(day: str) -> Callable[[dict[str, Any]], list[DailyAttempt]]:
    """A decoder of ``daily/<day>.json``: that day's attempts (each must be of ``day``)."""

    def decode(data: dict[str, Any]) -> list[DailyAttempt]:
        _expect_keys(data, {"schema", "day", "attempts"})
        if data["day"] != day:
            raise ValueError(f"the file is named for {day} but says {data['day']!r}")
        attempts = decode_attempts({"schema": data["schema"], "attempts": data["attempts"]})
        for number, attempt in enumerate(attempts, 1):
            if attempt.day != day:
                raise ValueError(f"attempt #{number} is of {attempt.day}, not {day}")
        keys = [(attempt.puzzle, attempt.key) for attempt in attempts if attempt.key is not None]
        if len(keys) != len(set(keys)):
            raise ValueError("one key has two attempts at one puzzle")
        return attempts

    return decode


def encode_daily_day(day: str, attempts: Iterable[DailyAttempt]) -> bytes:
    """``daily/<day>.json``'s bytes: ``{"schema": 1, "day": ..., "attempts": [...]}``."""
    return encode_document({"day": day, "attempts": [attempt.as_json() for attempt in attempts]})


__all__ = [
    "ModerationDocument", "GAME_ID", "MAX_FILE_BYTES", "MAX_INDEX_BYTES", "SCHEMA", "SummaryReader", "USERS_SCHEMA", "check_game_id",
    "check_game_json", "check_identity",
    "check_theme_name", "Choices", "check_choices", "check_form_name", "decode_choices_leniently", "decode_prefs_document", "encode_document", "new_game_id", "parse_document",
]
