"""Hand records (``docs/hand-records.md``): build a hand from one, replay it, write and read JSONL files.

A record lists the cards each seat was dealt and every decision in order;
replaying applies them through :class:`HandState`, refusing anything illegal,
and compares the payoffs. Every field is checked for type and value first, so a
malformed record is one :class:`ConfigError` naming the field, never a crash.

>>> rec = {"variant": "razz", "stakes": {"ante": 1, "bring_in": 2, "small_bet": 5, "big_bet": 10},
...        "stacks": [100, 100], "cards": [["As", "2d", "Kh"], ["3c", "4c", "5c"]], "community": None,
...        "actions": ["bring_in", "fold"], "payoffs": [1, -1], "players": ["alice", "bob"]}
>>> result = replay_record(rec)
>>> result.ok, result.players
(True, ('alice', 'bob'))
"""

from __future__ import annotations

import json
import unicodedata
from collections.abc import Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from razz_env.engine.actions import Action
from razz_env.engine.cards import CardError, card_str, parse_card
from razz_env.engine.checks import as_int
from razz_env.engine.config import STREET_NAMES, HandConfig, Rules, Stakes
from razz_env.engine.dealing import position_names
from razz_env.engine.errors import ConfigError, IllegalActionError, shown
from razz_env.engine.state import HandState
from razz_env.engine.variants import VARIANTS, get_variant

RECORD_FIELDS = ("variant", "stakes", "stacks", "cards", "community", "actions", "payoffs")
OPTIONAL_FIELDS = ("rules", "players")
REQUIRED_FIELDS = ("variant", "stakes", "stacks", "cards", "actions")
UTF8_BOM = b"\xef\xbb\xbf"
UNKNOWN_CARD = "??"  # a card no one saw and that decided nothing (a folded seat's down card)
UNKNOWN_COMMUNITY = (-1, 0)  # the community card's key in HandState.unknown
_ENCODINGS = ((b"\x1f\x8b", "gzip-compressed data; decompress it first"),
              (b"\xff\xfe", "UTF-16 text (byte-order mark FF FE); save it as UTF-8"),
              (b"\xfe\xff", "UTF-16 text (byte-order mark FE FF); save it as UTF-8"))



def unreadable_file(path: str | Path) -> str | None:
    """Why ``path`` cannot be read as a hand-record file (missing, a directory, no permission), or None."""
    if Path(path).is_dir():
        return "is a directory; give hand-record files (JSON lines)"
    try:
        with open(path, "rb"):
            return None
    except FileNotFoundError:
        return "no such file"
    except OSError as err:
        return f"cannot be read ({err.strerror or err})"

def check_players(players: object, num_seats: int) -> list[str]:
    """A record's ``players``: one display name per seat, each a non-blank string without control characters."""
    if not isinstance(players, Sequence) or isinstance(players, (str, bytes)):
        raise ConfigError(f"players: expected a list of {num_seats} names (one per seat), got {shown(players)}")
    if len(players) != num_seats:
        raise ConfigError(f"players: expected {num_seats} names (one per seat), got {len(players)}")
    for seat, name in enumerate(players):
        if not isinstance(name, str):
            raise ConfigError(f"players[{seat}]: expected a name (a string), got {shown(name)}")
        if not name.strip():
            raise ConfigError(f"players[{seat}]: a name must not be blank, got {name!r}")
        if any(unicodedata.category(ch) in ("Cc", "Cs") for ch in name):
            raise ConfigError(f"players[{seat}]: control characters are not allowed in a name, got {shown(name)}")
    return list(players)


def config_from_record(record: Mapping[str, Any]) -> HandConfig:
    """The :class:`HandConfig` a record describes, naming any malformed field (``players`` is checked too)."""
    if not isinstance(record, Mapping):
        raise ConfigError(f"record: expected a JSON object, got {type(record).__name__}")
    missing = [f for f in REQUIRED_FIELDS if f not in record]
    if missing:
        raise ConfigError(f"record: missing field(s) {', '.join(missing)}")
    known = RECORD_FIELDS + OPTIONAL_FIELDS
    unknown = sorted(shown(key) for key in record if key not in known)
    if unknown:
        raise ConfigError(f"record: unknown field(s) [{', '.join(unknown)}]; known: {', '.join(known)}")
    stacks = record["stacks"]
    if not isinstance(stacks, list):
        raise ConfigError(f"stacks: expected a list of chip counts, got {shown(stacks)}")
    variant = get_variant(record["variant"])
    config = HandConfig(variant, Stakes.from_dict(record["stakes"], variant), stacks,
                        Rules.from_dict(record.get("rules"), variant))
    if record.get("players") is not None:
        check_players(record["players"], config.num_seats)
    return config


def _card(where: str, text: object) -> int | None:
    """The card ``text`` names, or None for an unknown card (``"??"``)."""
    if text == UNKNOWN_CARD:
        return None
    try:
        return parse_card(text)
    except CardError as err:
        raise ConfigError(f"{where}: {err} (or {UNKNOWN_CARD!r} for a card no one saw)") from None


def _parse_record_cards(record: Mapping[str, Any], config: HandConfig
                        ) -> tuple[list[list[int | None]], int | None, bool]:
    """Each seat's cards (None where unknown), the community card, and whether the community card is unknown."""
    cards, num_seats, per_seat = record["cards"], config.num_seats, config.variant.cards_per_seat
    if not isinstance(cards, list):
        raise ConfigError(f"cards: expected one list of card names per seat, got {shown(cards)}")
    if len(cards) != num_seats:
        raise ConfigError(f"cards: expected {num_seats} lists (one per seat in stacks), got {len(cards)}")
    parsed = []
    for seat, seat_cards in enumerate(cards):
        if not isinstance(seat_cards, list):
            raise ConfigError(f"cards[{seat}]: expected a list of card names, got {shown(seat_cards)}")
        if len(seat_cards) > per_seat:
            raise ConfigError(f"cards[{seat}]: a seat holds at most {per_seat} cards, got {len(seat_cards)}")
        parsed.append([_card(f"cards[{seat}][{i}]", c) for i, c in enumerate(seat_cards)])
    community = record.get("community")
    if community is None:
        return parsed, None, False
    card = _card("community", community)
    return parsed, card, card is None


def _parse_actions(record: Mapping[str, Any]) -> list[str]:
    actions = record["actions"]
    if not isinstance(actions, list):
        raise ConfigError(f"actions: expected a list of action names, got {shown(actions)}")
    for index, name in enumerate(actions):
        if not isinstance(name, str):
            raise ConfigError(f"actions[{index}]: expected an action name ({', '.join(map(str, Action))}), "
                              f"got {shown(name)}")
    return actions


def _parse_payoffs(record: Mapping[str, Any], num_seats: int) -> list[int] | None:
    payoffs = record.get("payoffs")
    if payoffs is None:
        return None
    if not isinstance(payoffs, list):
        raise ConfigError(f"payoffs: expected a list of {num_seats} chip counts (one per seat), got {shown(payoffs)}")
    if len(payoffs) != num_seats:
        raise ConfigError(f"payoffs: expected {num_seats} chip counts (one per seat), got {len(payoffs)}")
    return [as_int(f"payoffs[{seat}]", p, what="an integer number of chips") for seat, p in enumerate(payoffs)]


def _check_cards_dealt(hand: HandState, cards: list[list[int | None]], community: int | None,
                       community_unknown: bool = False) -> None:
    """A record lists exactly the cards the hand dealt: a folded seat only what it got before folding."""
    for seat, (listed, held) in enumerate(zip(cards, hand.cards)):
        if len(listed) != len(held):
            extra = " ".join(UNKNOWN_CARD if c is None else card_str(c) for c in listed[len(held):])
            raise ConfigError(f"cards[{seat}]: lists {len(listed)} cards but the seat was dealt {len(held)} "
                              f"(not dealt: {extra})")
    if (community is not None or community_unknown) and hand.community is None:
        raise ConfigError("community: a community card is listed but every live seat got its own 7th card")


def _play(config: HandConfig, cards: list[list[int]], community: int | None, actions: list[str],
          unknown: frozenset[tuple[int, int]], finish: bool = True) -> HandState:
    """Deal ``cards`` and apply ``actions``; the hand must end exactly with the last one."""
    hand = HandState(config, cards=cards, community=community)
    hand.unknown = unknown
    for index, name in enumerate(actions):
        if hand.is_over:
            raise IllegalActionError(f"action {index} ({shown(name)}): the hand is already over; "
                                     f"{len(actions) - index} action(s) left over")
        try:
            hand.act(name)
        except (IllegalActionError, ConfigError) as err:
            raise type(err)(f"action {index} ({shown(name)}): {err}") from None
    if finish and not hand.is_over:
        raise IllegalActionError(f"actions: the record ends after {len(actions)} action(s) but seat "
                                 f"{hand.actor} is still to act on {STREET_NAMES[hand.street]} street")
    return hand


def fill_unknown(config: HandConfig, cards: list[list[int | None]], community: int | None,
                 community_unknown: bool, reverse: bool = False, avoid: Iterable[int] = ()
                 ) -> tuple[list[list[int]], int | None]:
    """``cards`` with a placeholder for each unknown card: cards of the deck that the record does not list
    (in deck order, or reversed), never one of ``avoid``."""
    listed = {c for held in cards for c in held if c is not None}
    if community is not None:
        listed.add(community)
    listed.update(avoid)
    spare = [c for c in config.variant.deck if c not in listed]
    if reverse:
        spare.reverse()
    needed = sum(c is None for held in cards for c in held) + community_unknown
    if needed > len(spare):
        raise ConfigError(f"cards: {needed} unknown cards but only {len(spare)} cards of the deck are not listed")
    free = iter(spare)
    filled = [[next(free) if c is None else c for c in held] for held in cards]
    return filled, next(free) if community_unknown else community


def _unknown_problem(config: HandConfig, cards: list[list[int | None]], community: int | None,
                     community_unknown: bool) -> str | None:
    """Why an unknown card of the record mattered before the showdown (it set the bring-in or who acts
    first), or None. Checked on the cards alone, before any action is replayed."""
    layout, variant = config.layout, config.variant
    names = position_names(variant)
    up = range(layout.up.start, layout.up.stop)
    doors = range(layout.up.start, layout.first)
    for seat, held in enumerate(cards):
        for position, card in enumerate(held):
            if card is not None or position not in up:
                continue
            where = f"cards[{seat}][{position}]: the {names[position]} card is unknown ({UNKNOWN_CARD!r})"
            if len(held) > layout.first:
                return (f"{where}, but seat {seat} played past {STREET_NAMES[layout.first]} street, where the "
                        "boards decide who acts first; a seat's up cards must be known once it plays on")
            if layout.first_up != 1 or position not in doors:
                return f"{where}, but the up cards of the first street decide who brings in; they must be known"
            beaten = _door_that_brings_in(config, cards, community, seat, position)
            if beaten is not None:
                return (f"{where}, but the door cards decide who brings in: {beaten}; "
                        "a door card may be unknown only when no card could have brought in instead")
    return None


def _door_that_brings_in(config: HandConfig, cards: list[list[int | None]], community: int | None,
                         seat: int, position: int) -> str | None:
    """How the unknown door at ``(seat, position)`` could change who brings in (two cards, two seats), or None."""
    first = config.layout.first
    short = [held[:first] for held in cards]
    listed = {c for held in cards for c in held if c is not None} | ({community} if community is not None else set())
    seen: dict[int | None, int] = {}
    for candidate in config.variant.deck:
        if candidate in listed:
            continue
        trial = [list(held) for held in short]
        trial[seat][position] = candidate
        filled, _ = fill_unknown(config, trial, None, False, avoid=(candidate,))
        seen.setdefault(HandState(config, cards=filled).bring_in_seat, candidate)
    if len(seen) < 2:
        return None
    if seat in seen:
        return f"with {card_str(seen[seat])} there seat {seat} would have brought in"
    (one, card_one), (two, card_two) = list(seen.items())[:2]
    return f"with {card_str(card_one)} there seat {one} would bring in, with {card_str(card_two)} seat {two}"


def _check_showdown_known(hand: HandState, cards: list[list[int | None]], community_unknown: bool) -> None:
    """Every card of a seat that reaches the showdown decides the pot, so none may be unknown."""
    live = [seat for seat in range(hand.num_seats) if not hand.folded[seat]]
    if len(live) < 2:
        return
    names = position_names(hand.config.variant)
    for seat in live:
        for position, card in enumerate(cards[seat]):
            if card is None:
                raise ConfigError(f"cards[{seat}][{position}]: the {names[position]} card is unknown "
                                  f"({UNKNOWN_CARD!r}), but seat {seat} reaches the showdown, where its cards "
                                  "decide the pot; every card of a seat at the showdown must be known")
    if community_unknown:
        raise ConfigError(f"community: unknown ({UNKNOWN_CARD!r}), but the hand reaches a showdown, where the "
                          "community card plays in every live hand; it must be known")


def _same_play(one: HandState, other: HandState) -> bool:
    """Two replays of one record made the same decisions, by the same seats, to the same result."""
    return (one.history == other.history and one.bring_in_seat == other.bring_in_seat
            and one.payoffs == other.payoffs)


def _record_deal(record: Mapping[str, Any]
                 ) -> tuple[HandConfig, list[list[int | None]], int | None, bool, frozenset[tuple[int, int]]]:
    """A record's config, cards (None where unknown), community card, whether that is unknown, and where the
    unknown cards sit (``HandState.unknown``); refused if an unknown card decided something the cards alone show."""
    config = config_from_record(record)
    cards, community, community_unknown = _parse_record_cards(record, config)
    unknown = frozenset((seat, position) for seat, held in enumerate(cards)
                        for position, card in enumerate(held) if card is None)
    if community_unknown:
        unknown |= {UNKNOWN_COMMUNITY}
    problem = _unknown_problem(config, cards, community, community_unknown) if unknown else None
    if problem:
        raise ConfigError(problem)
    return config, cards, community, community_unknown, unknown


def start_hand(record: Mapping[str, Any]) -> HandState:
    """The hand a record deals, before any action (unknown cards as placeholders, checked as far as
    the cards alone allow); for readers that work out the actions as they play (PHH)."""
    config, cards, community, community_unknown, unknown = _record_deal(record)
    return _play(config, *fill_unknown(config, cards, community, community_unknown), [], unknown, finish=False)


def hand_from_record(record: Mapping[str, Any]) -> HandState:
    """A finished :class:`HandState` with the record's cards and actions applied (raises on any problem).

    Unknown cards (``"??"``) are dealt as placeholders (``hand.unknown`` lists where); the record is
    refused if the play could have depended on one (a door that could have brought in, a board that
    helped decide who acts first, any card at the showdown).
    """
    config, cards, community, community_unknown, unknown = _record_deal(record)
    actions = _parse_actions(record)
    _parse_payoffs(record, config.num_seats)
    hand = _play(config, *fill_unknown(config, cards, community, community_unknown), actions, unknown)
    _check_cards_dealt(hand, cards, community, community_unknown)
    if not unknown:
        return hand
    _check_showdown_known(hand, cards, community_unknown)
    other = _play(config, *fill_unknown(config, cards, community, community_unknown, reverse=True), actions, unknown)
    if not _same_play(hand, other):
        raise ConfigError("cards: the play depends on the unknown cards (two placeholder deals replay "
                          "differently); list the cards that decided it")
    return hand


@dataclass(frozen=True, slots=True)
class ReplayResult:
    """Outcome of replaying one record: ``status`` is ``ok``, ``mismatch``, ``illegal`` (an illegal action) or
    ``invalid`` (a field that does not describe a hand).

    ``message`` says what is wrong (``field: problem``); ``payoffs`` are the replayed ones and
    ``players`` the record's names, when it has them.
    """

    status: str
    message: str = ""
    payoffs: tuple[int, ...] | None = None
    players: tuple[str, ...] | None = None

    @property
    def ok(self) -> bool:
        """True when the record replays legally and its payoffs match."""
        return self.status == "ok"


def replay_record(record: Mapping[str, Any]) -> ReplayResult:
    """Replay one record and compare payoffs; never raises for a bad record (``illegal`` or ``invalid`` with the
    reason)."""
    try:
        hand = hand_from_record(record)
    except IllegalActionError as err:
        return ReplayResult("illegal", str(err))
    except ConfigError as err:
        return ReplayResult("invalid", str(err))
    got = tuple(hand.payoffs)
    players = tuple(record["players"]) if record.get("players") is not None else None
    expected = _parse_payoffs(record, hand.num_seats)
    if expected is None:
        return ReplayResult("ok", "no payoffs to compare", got, players)
    if expected != list(got):
        return ReplayResult("mismatch", f"payoffs: expected {expected}, got {list(got)}", got, players)
    return ReplayResult("ok", "", got, players)


def to_record(hand: HandState, players: Sequence[str] | None = None) -> dict[str, Any]:
    """The hand record of a finished (or partial) hand, in the documented field order.

    ``players``: one display name per seat (seat 0 first), written as the optional ``players`` field.
    """
    config = hand.config
    variant = config.variant
    if VARIANTS.get(variant.name) != variant:
        raise ConfigError(f"variant: {variant.name!r} is not the registered variant of that name (known: "
                          f"{', '.join(VARIANTS)}), so a record naming it would replay another game")
    record: dict[str, Any] = {
        "variant": variant.name,
        "stakes": config.stakes.to_dict(),
        "stacks": list(config.stacks),
        "cards": [[card_str(c) if hand.is_known(seat, i) else UNKNOWN_CARD for i, c in enumerate(held)]
                  for seat, held in enumerate(hand.cards)],
        "community": None if hand.community is None else card_str(hand.community)
        if hand.is_known(*UNKNOWN_COMMUNITY) else UNKNOWN_CARD,
        "actions": [str(Action(entry.action)) for entry in hand.history],
        "payoffs": list(hand.payoffs) if hand.payoffs is not None else None,
    }
    rules = config.rules.to_dict(variant.default_raise_cap, variant)
    if rules:
        record["rules"] = rules
    if players is not None:
        record["players"] = check_players(players, hand.num_seats)
    return record


def _decode_line(raw: bytes) -> Any:
    """One JSONL line as a JSON value; ``ConfigError`` saying why it is not one (bad bytes, JSON, depth, size)."""
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as err:
        raise ConfigError(f"record: not UTF-8 text (byte {err.start + 1} is {raw[err.start]:#04x}); "
                          "hand records are UTF-8 JSON, one object per line") from None
    try:
        return json.loads(text, parse_constant=_refuse_constant)
    except json.JSONDecodeError as err:
        raise ConfigError(f"record: not valid JSON ({err.msg} at column {err.colno})") from None
    except RecursionError:
        raise ConfigError("record: JSON nested too deeply") from None
    except ValueError as err:  # an integer too long to convert, or NaN/Infinity
        raise ConfigError(f"record: not valid JSON ({err})") from None


def _refuse_constant(name: str) -> None:
    raise ValueError(f"{name} is not a JSON number")


def read_records(path: str | Path) -> Iterator[tuple[int, Any | ConfigError]]:
    """``(line number, JSON value)`` for each non-blank line of a JSONL file; an unreadable line yields the error.

    The file is read as bytes, so one bad line never stops the others. A UTF-8 byte-order mark at the
    start of the file is skipped; a gzip or UTF-16 file is one error on line 1 (its lines are not records).
    ``OSError`` (a missing file, a directory) is raised before the first line.
    """
    with open(path, "rb") as handle:
        for number, raw in enumerate(handle, 1):
            if number == 1:
                raw = raw.removeprefix(UTF8_BOM)
                problem = next((what for magic, what in _ENCODINGS if raw.startswith(magic)), None)
                if problem:
                    yield number, ConfigError(f"record: not a hand-record file: {problem}")
                    return
            if not raw.strip():
                continue
            try:
                yield number, _decode_line(raw)
            except ConfigError as err:
                yield number, err


def write_records(path: str | Path, records: Iterable[Mapping[str, Any]]) -> int:
    """Write records as JSONL (UTF-8, no byte-order mark); returns how many were written."""
    count = 0
    with open(path, "w", encoding="utf-8") as handle:
        for record in records:
            handle.write(json.dumps(record, separators=(",", ":")) + "\n")
            count += 1
    return count
