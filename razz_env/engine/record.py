"""Hand records (``shared/spec/hand-record.md``): build a hand from one, replay it, write one.

A record lists the cards each seat was dealt and every decision in order;
replaying applies them through :class:`HandState`, refusing anything illegal,
and compares the payoffs.

>>> rec = {"variant": "razz", "stakes": {"ante": 1, "bring_in": 2, "small_bet": 5, "big_bet": 10},
...        "stacks": [100, 100], "cards": [["As", "2d", "Kh"], ["3c", "4c", "5c"]], "community": None,
...        "actions": ["bring_in", "fold"], "payoffs": [1, -1]}
>>> replay_record(rec).ok
True
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Iterator, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from razz_env.engine.actions import Action
from razz_env.engine.cards import CardError, card_str, parse_card
from razz_env.engine.config import STREET_NAMES, HandConfig, Rules, Stakes
from razz_env.engine.errors import ConfigError, IllegalActionError
from razz_env.engine.state import HandState
from razz_env.engine.variants import get_variant

RECORD_FIELDS = ("variant", "stakes", "stacks", "cards", "community", "actions", "payoffs")


def config_from_record(record: Mapping[str, Any]) -> HandConfig:
    """The :class:`HandConfig` a record describes, naming any malformed field."""
    if not isinstance(record, Mapping):
        raise ConfigError(f"record: expected a JSON object, got {type(record).__name__}")
    missing = [f for f in ("variant", "stakes", "stacks", "cards", "actions") if f not in record]
    if missing:
        raise ConfigError(f"record: missing field(s) {', '.join(missing)}")
    unknown = set(record) - set(RECORD_FIELDS) - {"rules"}
    if unknown:
        raise ConfigError(f"record: unknown field(s) {sorted(unknown)}; known: {', '.join(RECORD_FIELDS)}, rules")
    stacks = record["stacks"]
    if not isinstance(stacks, list):
        raise ConfigError(f"stacks: expected a list of chip counts, got {stacks!r}")
    return HandConfig(get_variant(record["variant"]), Stakes.from_dict(record["stakes"]), tuple(stacks),
                      Rules.from_dict(record.get("rules")))


def _parse_record_cards(record: Mapping[str, Any], num_seats: int) -> tuple[list[list[int]], int | None]:
    cards = record["cards"]
    if not isinstance(cards, list) or not all(isinstance(c, list) for c in cards):
        raise ConfigError("cards: expected one list of card strings per seat")
    if len(cards) != num_seats:
        raise ConfigError(f"cards: expected {num_seats} lists (one per seat in stacks), got {len(cards)}")
    parsed = []
    for seat, seat_cards in enumerate(cards):
        try:
            parsed.append([parse_card(c) for c in seat_cards])
        except CardError as err:
            raise ConfigError(f"cards[{seat}]: {err}") from None
    community = record.get("community")
    if community is not None:
        try:
            community = parse_card(community)
        except CardError as err:
            raise ConfigError(f"community: {err}") from None
    return parsed, community


def hand_from_record(record: Mapping[str, Any]) -> HandState:
    """A :class:`HandState` with the record's cards and actions applied (raises on any problem)."""
    config = config_from_record(record)
    cards, community = _parse_record_cards(record, config.num_seats)
    actions = record["actions"]
    if not isinstance(actions, list):
        raise ConfigError("actions: expected a list of action names")
    hand = HandState(config, cards=cards, community=community)
    for index, name in enumerate(actions):
        if hand.is_over:
            raise IllegalActionError(f"action {index} ({name!r}): the hand is already over; "
                                     f"{len(actions) - index} action(s) left over")
        try:
            hand.act(name)
        except IllegalActionError as err:
            raise IllegalActionError(f"action {index} ({name!r}): {err}") from None
    if not hand.is_over:
        raise IllegalActionError(f"actions: the record ends after {len(actions)} action(s) but seat "
                                 f"{hand.actor} is still to act on {STREET_NAMES[hand.street]} street")
    return hand


@dataclass(frozen=True, slots=True)
class ReplayResult:
    """Outcome of replaying one record: ``status`` is ``ok``, ``mismatch`` or ``illegal``."""

    status: str
    message: str = ""
    payoffs: tuple[int, ...] | None = None

    @property
    def ok(self) -> bool:
        """True when the record replays legally and its payoffs match."""
        return self.status == "ok"


def replay_record(record: Mapping[str, Any]) -> ReplayResult:
    """Replay one record and compare payoffs; never raises for a bad record."""
    try:
        hand = hand_from_record(record)
    except (ConfigError, IllegalActionError) as err:
        return ReplayResult("illegal", str(err))
    got = tuple(hand.payoffs)
    expected = record.get("payoffs")
    if expected is None:
        return ReplayResult("ok", "no payoffs to compare", got)
    if list(got) != list(expected):
        return ReplayResult("mismatch", f"payoffs: expected {list(expected)}, got {list(got)}", got)
    return ReplayResult("ok", "", got)


def to_record(hand: HandState) -> dict[str, Any]:
    """The hand record of a finished (or partial) hand, in the spec's field order."""
    config = hand.config
    record: dict[str, Any] = {
        "variant": config.variant.name,
        "stakes": config.stakes.to_dict(),
        "stacks": list(config.stacks),
        "cards": [[card_str(c) for c in held] for held in hand.cards],
        "community": card_str(hand.community) if hand.community is not None else None,
        "actions": [str(Action(entry.action)) for entry in hand.history],
        "payoffs": list(hand.payoffs) if hand.payoffs is not None else None,
    }
    rules = config.rules.to_dict()
    if rules:
        record["rules"] = rules
    return record


def read_records(path: str | Path) -> Iterator[tuple[int, dict[str, Any] | ConfigError]]:
    """``(line number, record)`` for each non-blank line of a JSONL file; bad JSON yields the error."""
    with open(path, encoding="utf-8") as handle:
        for number, line in enumerate(handle, 1):
            if not line.strip():
                continue
            try:
                yield number, json.loads(line)
            except json.JSONDecodeError as err:
                yield number, ConfigError(f"line {number}: not valid JSON ({err.msg})")


def write_records(path: str | Path, records: Iterable[Mapping[str, Any]]) -> int:
    """Write records as JSONL; returns how many were written."""
    count = 0
    with open(path, "w", encoding="utf-8") as handle:
        for record in records:
            handle.write(json.dumps(record, separators=(",", ":")) + "\n")
            count += 1
    return count
