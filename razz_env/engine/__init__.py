"""The stud rules engine: pure Python (plus numpy for batch evaluation), no RL imports."""

from razz_env.engine.actions import Action
from razz_env.engine.cards import card_str, cards_str, parse_card, parse_cards
from razz_env.engine.config import HandConfig, Rules, Stakes
from razz_env.engine.errors import ConfigError, IllegalActionError
from razz_env.engine.record import hand_from_record, replay_record, to_record
from razz_env.engine.state import HandState, HistoryEntry
from razz_env.engine.table import Table
from razz_env.engine.variants import VARIANTS, Variant
from razz_env.engine.view import SeatView

__all__ = [
    "Action", "ConfigError", "HandConfig", "HandState", "HistoryEntry", "IllegalActionError", "Rules",
    "SeatView", "Stakes", "Table", "VARIANTS", "Variant", "card_str", "cards_str", "hand_from_record", "parse_card",
    "parse_cards", "replay_record", "to_record",
]
