"""The rules of World of Mastermind: pure Python, no Textual (README, *For developers*).

Names are imported on first use (PEP 562), so that a screen importing one module of
the domain does not pay for all of it (numpy, the store) at start-up.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ..lazy import lazy_names

if TYPE_CHECKING:
    from .board import (
        LIFELINE,
        Attempt,
        DecodingBoard,
    )
    from .codes import (
        DIGITS8,
        DIGITS10,
        PALETTES,
        RAINBOW,
        SOLO_RULESET,
        WOM,
        WOM_RULESET,
        Feedback,
        InvalidCode,
        Palette,
        Ruleset,
        feedback,
    )
    from .game import (
        Awaiting,
        GameKind,
        GameStateError,
        Move,
        Refusal,
        Status,
    )
    from .halloffame import (
        HallEntry,
        HallOfFame,
    )
    from .players import (
        ComputerPlayer,
        HumanPlayer,
        Player,
        computer_player,
        hal9000,
        viki,
    )
    from .records import (
        GameRecord,
        PlayerRecord,
    )
    from .scoring import (
        Breakdown,
        breakdown,
        breaking_points,
        making_points,
    )
    from .solo import (
        LifelinePolicy,
        LifelineResult,
        SoloGame,
        SoloSetup,
    )
    from .store import (
        Store,
        StoreError,
    )
    from .users import (
        COMPUTER_NAMES,
        NameRejected,
        User,
        UserRegistry,
        check_name,
    )
    from .wom import (
        GameResults,
        MadeCode,
        PlayerResult,
        SetupError,
        TurnResult,
        WomGame,
        player_for_name,
        players_from_names,
    )

_SOURCES: dict[str, str] = {
    "LIFELINE": "board",
    "Attempt": "board",
    "DecodingBoard": "board",
    "DIGITS8": "codes",
    "DIGITS10": "codes",
    "PALETTES": "codes",
    "RAINBOW": "codes",
    "SOLO_RULESET": "codes",
    "WOM": "codes",
    "WOM_RULESET": "codes",
    "Feedback": "codes",
    "InvalidCode": "codes",
    "Palette": "codes",
    "Ruleset": "codes",
    "feedback": "codes",
    "Awaiting": "game",
    "GameKind": "game",
    "GameStateError": "game",
    "Move": "game",
    "Refusal": "game",
    "Status": "game",
    "HallEntry": "halloffame",
    "HallOfFame": "halloffame",
    "ComputerPlayer": "players",
    "HumanPlayer": "players",
    "Player": "players",
    "computer_player": "players",
    "hal9000": "players",
    "viki": "players",
    "GameRecord": "records",
    "PlayerRecord": "records",
    "Breakdown": "scoring",
    "breakdown": "scoring",
    "breaking_points": "scoring",
    "making_points": "scoring",
    "LifelinePolicy": "solo",
    "LifelineResult": "solo",
    "SoloGame": "solo",
    "SoloSetup": "solo",
    "Store": "store",
    "StoreError": "store",
    "COMPUTER_NAMES": "users",
    "NameRejected": "users",
    "User": "users",
    "UserRegistry": "users",
    "check_name": "users",
    "GameResults": "wom",
    "MadeCode": "wom",
    "PlayerResult": "wom",
    "SetupError": "wom",
    "TurnResult": "wom",
    "WomGame": "wom",
    "player_for_name": "wom",
    "players_from_names": "wom",
}

__all__ = [
    "COMPUTER_NAMES",
    "DIGITS8",
    "DIGITS10",
    "LIFELINE",
    "PALETTES",
    "RAINBOW",
    "SOLO_RULESET",
    "WOM",
    "WOM_RULESET",
    "Attempt",
    "Awaiting",
    "Breakdown",
    "ComputerPlayer",
    "DecodingBoard",
    "Feedback",
    "GameKind",
    "GameRecord",
    "GameResults",
    "GameStateError",
    "HallEntry",
    "HallOfFame",
    "HumanPlayer",
    "InvalidCode",
    "LifelinePolicy",
    "LifelineResult",
    "MadeCode",
    "Move",
    "NameRejected",
    "Palette",
    "Player",
    "PlayerRecord",
    "PlayerResult",
    "Refusal",
    "Ruleset",
    "SetupError",
    "SoloGame",
    "SoloSetup",
    "Status",
    "Store",
    "StoreError",
    "TurnResult",
    "User",
    "UserRegistry",
    "WomGame",
    "breakdown",
    "breaking_points",
    "check_name",
    "computer_player",
    "feedback",
    "hal9000",
    "making_points",
    "player_for_name",
    "players_from_names",
    "viki",
]


__getattr__, __dir__ = lazy_names(__name__, globals(), _SOURCES)
