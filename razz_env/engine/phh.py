"""Export hands as PHH (Poker Hand History), the TOML hand format PokerKit reads.

``to_phh(hand, players=None)`` gives one hand's text (a ``.phh`` file, ``pokerkit.notation.HandHistory.load``);
``write_phh(path, hands, players=None)`` writes many hands to one ``.phhs`` file of numbered
sections (``HandHistory.load_all``). ``players`` adds PHH's ``players`` field: display names, one per
seat. Razz, stud and stud8 map to PokerKit's ``FR``, ``F7S`` and ``F7S/8``;
Action Razz and the MiniRazz games have no PokerKit game and are refused.

The export records our hand as played: cards in dealing order (``d dh p1 AsKs7h``, up or down as
the street deals them; PokerKit burns its own blank cards), decisions (``pb`` bring-in, ``cbr N``
complete, bet or raise to N chips this street, ``cc`` check or call, ``f`` fold), and each live
seat's cards at the showdown (``sm``), placed where PokerKit holds it: before the rest is dealt out
when the betting is over early. Antes are layered into side pots (``ante_trimming_status = true``)
as our showdown does, and ``finishing_stacks`` carries our result. PokerKit replays the file to the
same result wherever its rules agree with ours; where they knowingly differ (``docs/rules.md``, "Known
differences from PokerKit": board ties, short all-in raises, a community card after folds, odd chips,
stud8 side pots without a low) it may refuse the file or settle it otherwise.

>>> from razz_env.engine.cards import parse_cards
>>> from razz_env.engine.config import HandConfig
>>> hand = HandState(HandConfig.create("razz", stacks=[100, 100]),
...                  cards=[parse_cards("Ac 2c Ks"), parse_cards("3c 4c 5c")])
>>> _ = hand.act("bring_in"); _ = hand.act("fold")
>>> print(to_phh(hand))
variant = 'FR'
ante_trimming_status = true
antes = [1, 1]
bring_in = 2
small_bet = 5
big_bet = 10
starting_stacks = [100, 100]
actions = ['d dh p1 Ac2cKs', 'd dh p2 3c4c5c', 'p1 pb', 'p2 f']
finishing_stacks = [101, 99]
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from pathlib import Path

from razz_env.engine.actions import AGGRESSIVE, Action
from razz_env.engine.cards import card_str
from razz_env.engine.errors import ConfigError, shown
from razz_env.engine.record import check_players
from razz_env.engine.state import HandState
from razz_env.engine.variants import VARIANTS

PHH_VARIANTS = {"razz": "FR", "stud": "F7S", "stud8": "F7S/8"}
POKERKIT_RAISE_CAP = 4  # PokerKit's fixed-limit games allow a bet and three raises a round


def _check_expressible(hand: HandState) -> str:
    """The PHH variant code, or ValueError naming what PokerKit's games cannot express."""
    config = hand.config
    name = config.variant.name
    code = PHH_VARIANTS.get(name)
    if code is None or VARIANTS.get(name) != config.variant:
        raise ValueError(f"PHH export: PokerKit has no {name!r} game ({config.variant.title}); supported "
                         f"variants: {', '.join(PHH_VARIANTS)}")
    stakes = config.stakes
    small, big = config.bet_size(3), config.bet_size(5)
    if [config.bet_size(s) for s in (3, 4, 5, 6, 7)] != [small, small, big, big, big]:
        raise ValueError("PHH export: PokerKit bets the small bet on 3rd and 4th street and the big bet after; "
                         f"this hand's schedule is {list(stakes.street_bets or ())}")
    bets_per_street: dict[int, int] = {}
    for entry in hand.history:
        if entry.action is Action.BET_BIG:
            raise ValueError("PHH export: PokerKit does not model the stud open-pair big bet (bet_big)")
        if entry.action in AGGRESSIVE:
            bets_per_street[entry.street] = bets_per_street.get(entry.street, 0) + 1
    over = [street for street, count in bets_per_street.items() if count > POKERKIT_RAISE_CAP]
    if over:
        raise ValueError(f"PHH export: PokerKit caps a round at {POKERKIT_RAISE_CAP} bets and raises; "
                         f"this hand has more on street {over[0]}")
    return code


def _dealing(hand: HandState, street: int) -> list[str]:
    """The dealing actions of ``street`` (3 to 7): each seat's new cards, or the community card."""
    first, last = (0, 3) if street == 3 else (street - 1, street)
    actions = [
        f"d dh p{seat + 1} " + "".join(card_str(c) for c in held[first:last])
        for seat, held in enumerate(hand.cards)
        if len(held) >= last
    ]
    if street == 7 and hand.community is not None:
        actions.append(f"d db {card_str(hand.community)}")
    return actions


def _last_street_dealt(hand: HandState) -> int:
    """The last street (3 to 7) whose cards the hand has dealt so far."""
    most = max(len(held) for held in hand.cards)
    return 7 if hand.community is not None else max(3, most)


def _actions(hand: HandState) -> list[str]:
    """The PHH action list: dealing, decisions, and the showdown where PokerKit holds it."""
    actions = _dealing(hand, 3)
    street = 3
    street_bets = [0] * hand.num_seats
    for entry in hand.history:
        while street < entry.street:
            street += 1
            street_bets = [0] * hand.num_seats
            actions += _dealing(hand, street)
        street_bets[entry.seat] += entry.amount
        player = f"p{entry.seat + 1}"
        if entry.action is Action.BRING_IN:
            actions.append(f"{player} pb")
        elif entry.action is Action.FOLD:
            actions.append(f"{player} f")
        elif entry.action in (Action.CHECK, Action.CALL):
            actions.append(f"{player} cc")
        else:
            actions.append(f"{player} cbr {street_bets[entry.seat]}")
    live = [seat for seat in range(hand.num_seats) if not hand.folded[seat]]
    showdown = hand.is_over and len(live) > 1
    if showdown and street < 7:
        # All-in before 7th street: PokerKit shows the hands down before dealing the rest out,
        # then again for the seats whose 7th-street card comes down.
        actions += _shows(hand, live, street)
        live = [seat for seat in live if len(hand.cards[seat]) == 7]
    while street < _last_street_dealt(hand):
        street += 1
        actions += _dealing(hand, street)
    if showdown and live:
        actions += _shows(hand, live, 7)
    return actions


def _shows(hand: HandState, seats: list[int], count: int) -> list[str]:
    """Showdown actions: each seat shows its first ``count`` cards."""
    return [f"p{seat + 1} sm " + "".join(card_str(c) for c in hand.cards[seat][:count]) for seat in seats]


def _toml_list(values: Iterable[object]) -> str:
    """A TOML array of ints or (quote-free) strings."""
    return "[" + ", ".join(f"'{v}'" if isinstance(v, str) else str(v) for v in values) + "]"


def _toml_string(text: str) -> str:
    """A TOML basic string (names are free of control characters: ``check_players``)."""
    return '"' + text.replace("\\", "\\\\").replace('"', '\\"') + '"'


def to_phh(hand: HandState, players: Sequence[str] | None = None) -> str:
    """The PHH (TOML) text of ``hand``; ValueError if PokerKit's games cannot express it.

    ``players``: one display name per seat (seat 0 first), written as PHH's ``players`` field.
    """
    names = None if players is None else check_players(players, hand.num_seats)
    code = _check_expressible(hand)
    config = hand.config
    stakes = config.stakes
    lines = [
        f"variant = '{code}'",
        "ante_trimming_status = true",
        f"antes = {_toml_list([stakes.ante] * config.num_seats)}",
        f"bring_in = {stakes.bring_in}",
        f"small_bet = {config.bet_size(3)}",
        f"big_bet = {config.bet_size(5)}",
        f"starting_stacks = {_toml_list(config.stacks)}",
        f"actions = {_toml_list(_actions(hand))}",
    ]
    if names is not None:
        lines.append(f"players = [{', '.join(_toml_string(name) for name in names)}]")
    if hand.is_over:
        lines.append(f"finishing_stacks = {_toml_list(hand.stacks)}")
    return "\n".join(lines)


def write_phh(path: str | Path, hands: Iterable[HandState],
              players: Sequence[Sequence[str] | None] | None = None) -> int:
    """Write ``hands`` to one PHHS file (sections ``[1]``, ``[2]``...); returns how many were written.

    ``players``: one list of names per hand (or ``None`` for a hand without names). Every hand is
    checked before the file is written, so a refused hand leaves no partial file.
    """
    hands = list(hands)
    if players is None:
        players = [None] * len(hands)
    elif isinstance(players, (str, bytes)) or not isinstance(players, Sequence):
        raise ConfigError(f"players: expected one list of names per hand, got {shown(players)}")
    elif len(players) != len(hands):
        raise ConfigError(f"players: expected one list of names per hand ({len(hands)}), got {len(players)}")
    sections = []
    for number, (hand, names) in enumerate(zip(hands, players), 1):
        try:
            sections.append(f"[{number}]\n{to_phh(hand, names)}\n")
        except ValueError as err:
            raise type(err)(f"hand {number}: {err}") from None
    Path(path).write_text("\n".join(sections), encoding="utf-8")
    return len(sections)
