"""The rules of World of Mastermind: pure Python, no Textual (README, *For developers*)."""

from .board import LIFELINE, Attempt, DecodingBoard
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
from .game import Awaiting, GameKind, GameStateError, Move, Refusal, Status
from .halloffame import HallEntry, HallOfFame
from .players import ComputerPlayer, HumanPlayer, Player, computer_player, hal9000, viki
from .records import GameRecord, PlayerRecord
from .scoring import Breakdown, breakdown, breaking_points, making_points
from .solo import LifelinePolicy, LifelineResult, SoloGame, SoloSetup
from .store import Store, StoreError
from .users import COMPUTER_NAMES, NameRejected, User, UserRegistry, check_name
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
