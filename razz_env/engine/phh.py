"""PHH (Poker Hand History), the TOML hand format PokerKit reads: write hands as PHH and read PHH stud hands.

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

Reading: ``phh_to_record(fields)`` plays a parsed PHH hand (``FR``, ``F7S``, ``F7S/8``) through the
engine and gives the hand record (``docs/hand-records.md``); each decision must be made by the player
the engine has to act, and ``cbr N`` must be the complete, bet or raise to N that the engine allows.
``read_phh(path)`` reads a ``.phh`` or ``.phhs`` file; ``hand_from_phh(text)`` gives the finished hand.
Unknown cards (``????``) become ``"??"`` in the record. A hand's rule options travel in the user field
``_razz_env_rules`` (the record's ``rules``); other PHH metadata (event, year...) is not kept.

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

import json
import re
from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from pathlib import Path
from typing import Any

from razz_env.engine.actions import AGGRESSIVE, Action
from razz_env.engine.cards import CardError, card_str, parse_card
from razz_env.engine.config import STREET_NAMES
from razz_env.engine.errors import ConfigError, IllegalActionError, shown
from razz_env.engine.record import UNKNOWN_CARD, UNKNOWN_COMMUNITY, check_players, hand_from_record, start_hand
from razz_env.engine.state import HandState
from razz_env.engine.variants import VARIANTS

PHH_VARIANTS = {"razz": "FR", "stud": "F7S", "stud8": "F7S/8"}
RULES_FIELD = "_razz_env_rules"  # a PHH user-defined field: the record's ``rules`` as JSON (options or a preset)
POKERKIT_RAISE_CAP = 4  # PokerKit's fixed-limit games allow a bet and three raises a round
_PHH_VERBS = {Action.BRING_IN: "pb", Action.FOLD: "f", Action.CHECK: "cc", Action.CALL: "cc"}  # else "cbr N"


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
    if any(entry.action is Action.BET_BIG for entry in hand.history):
        raise ValueError("PHH export: PokerKit does not model the stud open-pair big bet (bet_big)")
    bets_per_street = Counter(entry.street for entry in hand.history if entry.action in AGGRESSIVE)
    over = [street for street, count in bets_per_street.items() if count > POKERKIT_RAISE_CAP]
    if over:
        raise ValueError(f"PHH export: PokerKit caps a round at {POKERKIT_RAISE_CAP} bets and raises; "
                         f"this hand has more on street {over[0]}")
    return code


def _phh_card(hand: HandState, seat: int, position: int) -> str:
    """A card as PHH writes it: ``??`` where the hand's record did not know it."""
    return card_str(hand.cards[seat][position]) if hand.is_known(seat, position) else UNKNOWN_CARD


def _dealing(hand: HandState, street: int) -> list[str]:
    """The dealing actions of ``street`` (3 to 7): each seat's new cards, or the community card."""
    first, last = (0, 3) if street == 3 else (street - 1, street)
    actions = [f"d dh p{seat + 1} " + "".join(_phh_card(hand, seat, p) for p in range(first, last))
               for seat, held in enumerate(hand.cards) if len(held) >= last]
    if street == 7 and hand.community is not None:
        community = card_str(hand.community) if hand.is_known(*UNKNOWN_COMMUNITY) else UNKNOWN_CARD
        actions.append(f"d db {community}")
    return actions


def _last_street_dealt(hand: HandState) -> int:
    """The last street (3 to 7) whose cards the hand has dealt so far."""
    return 7 if hand.community is not None else max(3, *(len(held) for held in hand.cards))


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
        verb = _PHH_VERBS.get(entry.action, f"cbr {street_bets[entry.seat]}")
        actions.append(f"p{entry.seat + 1} {verb}")
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
    return [f"p{seat + 1} sm " + "".join(_phh_card(hand, seat, p) for p in range(min(count, len(hand.cards[seat]))))
            for seat in seats]


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
    rules = config.rules.to_dict(config.variant.default_raise_cap)
    if rules:
        lines.append(f"{RULES_FIELD} = {_toml_string(json.dumps(rules, separators=(',', ':')))}")
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


# ------------------------------------------------------------------------------------------------ reading

PHH_GAMES = {code: name for name, code in PHH_VARIANTS.items()}
_REQUIRED = ("variant", "antes", "bring_in", "small_bet", "big_bet", "starting_stacks", "actions")
_READ = (*_REQUIRED, "players", "finishing_stacks", "blinds_or_straddles")
# PHH's optional fields (the PHH specification; PokerKit's HandHistory): metadata a record does not keep.
_METADATA = ("author", "event", "url", "venue", "address", "city", "region", "postal_code", "country", "time",
             "time_zone", "day", "month", "year", "hand", "level", "seats", "seat_count", "table", "winnings",
             "currency", "currency_symbol", "ante_trimming_status", "time_limit", "time_banks")
_VERBS = {"f": "fold", "cc": "check or call", "cbr": "complete, bet or raise to N", "pb": "post the bring-in",
          "sm": "show or muck"}
_PLAYER = re.compile(r"p([1-9][0-9]{0,2})")  # ASCII digits only: str.isdigit() takes '²' and '٥'
_AMOUNT = re.compile(r"[0-9]{1,4000}")  # within int()'s digit limit


def _load_toml(text: str) -> dict[str, Any]:
    """``text`` parsed as TOML (``tomllib``; ``tomli`` on Python 3.10)."""
    try:
        import tomllib
    except ModuleNotFoundError:  # Python 3.10
        try:
            import tomli as tomllib  # type: ignore[no-redef]
        except ModuleNotFoundError:
            raise ConfigError("reading PHH needs Python 3.11 or later (tomllib), or the tomli package: "
                              "pip install tomli") from None
    try:
        return tomllib.loads(text)
    except RecursionError:
        raise ConfigError("PHH: nested too deeply (arrays or tables inside one another) to be a hand") from None
    except ValueError as err:  # TOMLDecodeError, or an integer past int()'s digit limit
        raise ConfigError(f"PHH: not valid TOML ({' '.join(str(err).split())})") from None


def parse_phh(text: str) -> list[tuple[str, Mapping[str, Any]]]:
    """The hands of a PHH text: ``[("", fields)]`` for a ``.phh`` hand, ``[(section, fields), ...]`` for
    the numbered sections of a ``.phhs`` file."""
    data = _load_toml(text)
    if "variant" in data:
        return [("", data)]
    hands = [(str(key), value) for key, value in data.items()]
    for key, value in hands:
        if not isinstance(value, dict):
            raise ConfigError(f"PHH: [{key}] is not a hand (a .phhs file holds one table per hand, [1], [2]...)")
    if not hands:
        raise ConfigError("PHH: no hand (a .phh file needs a 'variant' field; a .phhs file sections [1], [2]...)")
    return hands


def _int_list(name: str, value: object, size: int | None = None) -> list[int]:
    if not isinstance(value, list) or any(isinstance(v, bool) or not isinstance(v, int) for v in value):
        raise ConfigError(f"{name}: expected a list of integers, got {shown(value)}")
    if size is not None and len(value) != size:
        raise ConfigError(f"{name}: expected {size} integers (one per player in starting_stacks), got {len(value)}")
    return value


def _phh_cards(where: str, text: str) -> list[str]:
    """PHH card text (``AsKd??``) as record card names, ``"??"`` for an unknown card."""
    if len(text) % 2:
        raise ConfigError(f"{where}: {text!r} is not a run of two-character cards (e.g. 'AsKd', '??' unknown)")
    names = [text[i:i + 2] for i in range(0, len(text), 2)]
    for name in names:
        if name != UNKNOWN_CARD:
            try:
                parse_card(name)
            except CardError as err:
                raise ConfigError(f"{where}: {err} (or '??' for an unknown card)") from None
    return names


def _player(where: str, token: str, seats: int) -> int:
    """The seat (0-based) a PHH player token ``pN`` names."""
    match = _PLAYER.fullmatch(token)
    if match is None or int(match[1]) > seats:
        raise ConfigError(f"{where}: expected a player p1 to p{seats}, got {shown(token)}")
    return int(match[1]) - 1


def _check_arguments(where: str, verb: str, args: list[str]) -> None:
    """Refuse what follows a decision beyond what ``verb`` takes: one amount after ``cbr``, the cards after
    ``sm``, nothing after ``f``, ``cc`` and ``pb``."""
    extra = " ".join(args)
    if verb == "cbr" and len(args) > 1:
        raise ConfigError(f"{where}: 'cbr' takes one amount, got {extra!r}")
    if verb == "sm" and len(args) > 1:
        raise ConfigError(f"{where}: 'sm' takes the cards shown, got {extra!r}")
    if verb in ("f", "cc", "pb") and args:
        raise ConfigError(f"{where}: {verb!r} takes nothing after it, got {extra!r}")


def _decision(hand: HandState, where: str, verb: str, args: list[str]) -> str:
    """The record's action name for a PHH decision by the seat to act."""
    legal = hand.legal_actions()
    names = ", ".join(map(str, legal))
    if verb == "f":
        return "fold"
    if verb == "cc":
        return "check" if Action.CHECK in legal else "call"
    if verb == "pb":
        return "bring_in"
    if not args or not _AMOUNT.fullmatch(args[0]):
        raise ConfigError(f"{where}: 'cbr' needs the amount to complete, bet or raise to, in digits 0-9, "
                          "e.g. 'p1 cbr 200'")
    amount = int(args[0])
    options = {a: hand.bets[hand.actor] + hand.chips_for(a) for a in legal if a in AGGRESSIVE}  # the bet it makes
    for action, to in options.items():
        if to == amount:
            return str(action)
    allowed = ", ".join(f"{a} to {to}" for a, to in options.items()) or "none (legal: " + names + ")"
    raise IllegalActionError(f"{where}: the rules allow no complete, bet or raise to {amount} here; allowed: {allowed}")


def phh_to_record(fields: Mapping[str, Any]) -> dict[str, Any]:
    """The hand record of one PHH hand (``FR``, ``F7S``, ``F7S/8``), played through the engine to check
    that each decision is made by the seat the rules give it to."""
    if not isinstance(fields, Mapping):
        raise ConfigError(f"PHH: expected a table of fields, got {shown(fields)}")
    unknown = sorted(k for k in fields if k not in _READ and k not in _METADATA and not str(k).startswith("_"))
    if unknown:
        raise ConfigError(f"PHH: unknown field(s) {', '.join(map(repr, unknown))}; known: {', '.join(_READ)}, "
                          f"PHH metadata ({', '.join(_METADATA)}) and user fields starting with '_'")
    missing = [name for name in _REQUIRED if name not in fields]
    if missing:
        raise ConfigError(f"PHH: missing field(s) {', '.join(missing)}")
    code = fields["variant"]
    if not isinstance(code, str) or code not in PHH_GAMES:
        raise ConfigError(f"variant: {shown(code)} is not a stud game razz-env plays; PHH codes read: "
                          + ", ".join(f"{c} ({n})" for c, n in PHH_GAMES.items()))
    stacks = _int_list("starting_stacks", fields["starting_stacks"])
    seats = len(stacks)
    antes = _int_list("antes", fields["antes"], seats)
    if len(set(antes)) > 1:
        raise ConfigError(f"antes: every seat antes the same in razz-env, got {antes}")
    blinds = fields.get("blinds_or_straddles")
    if blinds is not None and any(_int_list("blinds_or_straddles", blinds, seats)):
        raise ConfigError(f"blinds_or_straddles: stud games have no blinds, got {blinds}")
    small, big = fields["small_bet"], fields["big_bet"]
    if all(isinstance(v, int) and not isinstance(v, bool) for v in (small, big)) and big < small:
        raise ConfigError(f"big_bet: {big} is below small_bet {small}; PHH's big bet (5th street on) is at least "
                          "its small bet")
    record: dict[str, Any] = {
        "variant": PHH_GAMES[code],
        "stakes": {"ante": antes[0] if antes else 0, "bring_in": fields["bring_in"],
                   "small_bet": fields["small_bet"], "big_bet": fields["big_bet"]},
        "stacks": stacks,
    }
    rules = fields.get(RULES_FIELD)
    if isinstance(rules, str):
        try:
            rules = json.loads(rules)
        except json.JSONDecodeError as err:
            raise ConfigError(f"{RULES_FIELD}: not a JSON object of rule options ({err.msg})") from None
        except RecursionError:
            raise ConfigError(f"{RULES_FIELD}: not a JSON object of rule options (nested too deeply)") from None
        except ValueError as err:  # an integer past int()'s digit limit
            raise ConfigError(f"{RULES_FIELD}: not a JSON object of rule options ({err})") from None
    if rules is not None:
        record["rules"] = rules
    if fields.get("players") is not None:
        record["players"] = check_players(fields["players"], seats)
    actions = fields["actions"]
    if not isinstance(actions, list) or not all(isinstance(a, str) for a in actions):
        raise ConfigError(f"actions: expected a list of PHH action strings, got {shown(actions)}")
    cards: list[list[str]] = [[] for _ in range(seats)]
    community: str | None = None
    steps: list[tuple[str, int, str, list[str], list[int]]] = []  # where, seat, verb, args, cards dealt so far
    for index, text in enumerate(actions):
        where = f"actions[{index}] ({text!r})"
        tokens = text.split("#", 1)[0].split()
        if len(tokens) >= 3 and tokens[:2] == ["d", "dh"]:
            if len(tokens) != 4:
                raise ConfigError(f"{where}: expected 'd dh pN CARDS'")
            seat = _player(where, tokens[2], seats)
            cards[seat] += _phh_cards(where, tokens[3])
        elif len(tokens) == 3 and tokens[:2] == ["d", "db"]:
            dealt = _phh_cards(where, tokens[2])
            if len(dealt) != 1 or community is not None:
                raise ConfigError(f"{where}: a stud hand deals at most one community card ('d db 7c')")
            community = dealt[0]
        elif len(tokens) >= 2 and tokens[0] != "d" and tokens[1] in _VERBS:
            seat = _player(where, tokens[0], seats)
            _check_arguments(where, tokens[1], tokens[2:])
            if tokens[1] == "sm":
                shown_cards = _phh_cards(where, tokens[2]) if len(tokens) > 2 else []
                held = cards[seat]
                if len(shown_cards) > len(held):
                    raise ConfigError(f"{where}: p{seat + 1} shows {len(shown_cards)} cards but was dealt {len(held)}")
                for i, name in enumerate(shown_cards):
                    if name == UNKNOWN_CARD:
                        continue
                    if held[i] == UNKNOWN_CARD:
                        held[i] = name
                    elif parse_card(held[i]) != parse_card(name):
                        raise ConfigError(f"{where}: p{seat + 1} shows {name} as card {i + 1}, but was dealt {held[i]}")
            else:
                steps.append((where, seat, tokens[1], tokens[2:], [len(held) for held in cards]))
        else:
            raise ConfigError(f"{where}: not a stud action; expected 'd dh pN CARDS', 'd db CARD' or 'pN VERB' "
                              f"with VERB one of {', '.join(f'{v} ({m})' for v, m in _VERBS.items())}")
    record["cards"] = cards
    record["community"] = community
    hand = start_hand({**record, "actions": []})
    names: list[str] = []
    for where, seat, verb, args, dealt in steps:
        if hand.is_over:
            raise IllegalActionError(f"{where}: the hand is already over")
        if seat != hand.actor:
            raise IllegalActionError(f"{where}: p{hand.actor + 1} is to act on {STREET_NAMES[hand.street]} street, "
                                     f"not p{seat + 1}")
        for other, held in enumerate(hand.cards):
            if dealt[other] != len(held):
                raise ConfigError(f"{where}: p{other + 1} has been dealt {dealt[other]} cards by now in the file, "
                                  f"but {len(held)} on {STREET_NAMES[hand.street]} street")
        name = _decision(hand, where, verb, args)
        try:
            hand.act(name)
        except (IllegalActionError, ConfigError) as err:
            raise type(err)(f"{where}: {err}") from None
        names.append(name)
    record["actions"] = names
    finishing = fields.get("finishing_stacks")
    record["payoffs"] = None if finishing is None else [
        end - start for end, start in zip(_int_list("finishing_stacks", finishing, seats), stacks)]
    order = ("variant", "stakes", "stacks", "cards", "community", "actions", "payoffs", "rules", "players")
    return {key: record[key] for key in order if key in record}


def read_phh(path: str | Path) -> list[tuple[str, dict[str, Any] | ConfigError | IllegalActionError]]:
    """``(label, record)`` for each hand of a ``.phh`` or ``.phhs`` file (label ``""`` or the section
    number); a hand that cannot be read or played gives its error in place of the record."""
    try:
        text = Path(path).read_bytes().decode("utf-8-sig")
    except UnicodeDecodeError as err:
        return [("", ConfigError(f"PHH: not UTF-8 text (byte {err.start + 1})"))]
    try:
        hands = parse_phh(text)
    except ConfigError as err:
        return [("", err)]
    out: list[tuple[str, dict[str, Any] | ConfigError | IllegalActionError]] = []
    for label, fields in hands:
        try:
            out.append((label, phh_to_record(fields)))
        except (ConfigError, IllegalActionError) as err:
            out.append((label, err))
    return out


def hand_from_phh(text: str) -> HandState:
    """The finished :class:`HandState` of a one-hand PHH text (raises on any problem)."""
    hands = parse_phh(text)
    if len(hands) != 1:
        raise ConfigError(f"PHH: expected one hand, got {len(hands)} sections")
    return hand_from_record(phh_to_record(hands[0][1]))
