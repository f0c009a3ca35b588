"""PHH in (``razz_env.engine.phh``): published stud hands replay exactly, and every hand we write reads back.

``tests/data/phh/`` holds real hands from the 2023 WSOP (PokerGO broadcasts, as transcribed in PokerKit's
tests); each file's comments cite its source and the rules it was played under.
"""

from __future__ import annotations

import copy
import random
import re
from pathlib import Path

import pytest

from razz_env.cli import main
from razz_env.engine import HandConfig, HandState, hand_from_record, replay_record, to_record
from razz_env.engine.actions import Action
from razz_env.engine.errors import ConfigError, IllegalActionError
from razz_env.engine.phh import hand_from_phh, parse_phh, phh_to_record, read_phh, to_phh, write_phh
from razz_env.engine.presets import PRESETS
from razz_env.engine.record import UNKNOWN_CARD

DATA = Path(__file__).resolve().parents[1] / "data" / "phh"
FILES = sorted(DATA.glob("*.phh"))
REFUSED = [path for path in FILES if "razz-env refuses it" in path.read_text(encoding="utf-8")]
PLAYED = [path for path in FILES if path not in REFUSED]


def test_the_published_hands_cover_every_stud_game():
    assert len(PLAYED) >= 10
    assert {path.stem.rsplit("-", 1)[1] for path in PLAYED} == {"razz", "stud", "stud8"}
    for path in FILES:
        text = path.read_text(encoding="utf-8")
        assert text.startswith("# 2023 World Series of Poker Event #") and "pokergo.com" in text


@pytest.mark.parametrize("path", PLAYED, ids=lambda p: p.stem)
def test_published_hand_replays_exactly(path):
    """Payoffs match the file's finishing stacks, and every decision is made by the player the file names."""
    [(label, record)] = read_phh(path)
    assert isinstance(record, dict), record
    result = replay_record(record)
    assert result.ok and result.message == "", result.message
    hand = hand_from_record(record)
    fields = parse_phh(path.read_text(encoding="utf-8"))[0][1]
    decisions = [a.split()[0] for a in fields["actions"] if not a.startswith("d ") and a.split()[1] != "sm"]
    assert [f"p{entry.seat + 1}" for entry in hand.history] == decisions
    assert [s + p for s, p in zip(fields["starting_stacks"], hand.payoffs)] == fields["finishing_stacks"]
    # PHH -> record -> PHH -> record: the same hand
    assert phh_to_record(parse_phh(to_phh(hand, record.get("players")))[0][1]) == record


@pytest.mark.parametrize("preset", list(PRESETS))
@pytest.mark.parametrize("path", PLAYED, ids=lambda p: p.stem)
def test_published_hand_replays_under_every_preset(path, preset):
    """These hands were played by the 2023 WSOP rules, and no decision in them turns on a point where the presets
    differ (the cap, the open pair, a tied board): under every preset the same seat acts at every decision and the
    finishing stacks are the broadcast's."""
    [(_, record)] = read_phh(path)
    record = {**record, "rules": {"preset": preset}}
    assert replay_record(record).ok, replay_record(record).message
    hand = hand_from_record(record)
    assert hand.config.rules.preset == preset
    fields = parse_phh(path.read_text(encoding="utf-8"))[0][1]
    decisions = [a.split()[0] for a in fields["actions"] if not a.startswith("d ") and a.split()[1] != "sm"]
    assert [f"p{entry.seat + 1}" for entry in hand.history] == decisions
    assert [s + p for s, p in zip(fields["starting_stacks"], hand.payoffs)] == fields["finishing_stacks"]


@pytest.mark.parametrize("path", REFUSED, ids=lambda p: p.stem)
def test_published_hand_with_an_unknown_door_is_refused_naming_the_card(path):
    [(_, error)] = read_phh(path)
    assert isinstance(error, ConfigError)
    assert "door card is unknown ('??'), but the door cards decide who brings in" in str(error)


def random_hands(variant: str, count: int, seed: int = 0) -> list[HandState]:
    """Random finished hands that PHH can express (no open-pair big bet)."""
    rng = random.Random(seed)
    hands = []
    while len(hands) < count:
        seats = rng.randrange(2, 9)
        hand = HandState(HandConfig.create(variant, stacks=[rng.choice([9, 30, 200]) for _ in range(seats)]),
                         seed=rng.randrange(10**9))
        while not hand.is_over:
            legal = [a for a in hand.legal_actions() if a is not Action.BET_BIG]
            hand.act(legal[rng.randrange(len(legal))])
        hands.append(hand)
    return hands


@pytest.mark.parametrize("variant", ["razz", "stud", "stud8"])
def test_every_hand_we_write_reads_back_to_the_same_record(variant):
    for index, hand in enumerate(random_hands(variant, 150)):
        players = [f"player {seat}" for seat in range(hand.num_seats)] if index % 2 else None
        record = to_record(hand, players)
        assert phh_to_record(parse_phh(to_phh(hand, players))[0][1]) == record
        assert hand_from_phh(to_phh(hand)).payoffs == hand.payoffs


def test_unknown_cards_round_trip_through_phh():
    count = 0
    for hand in random_hands("stud8", 60, seed=1):
        record = copy.deepcopy(to_record(hand))
        for seat, held in enumerate(record["cards"]):
            if hand.folded[seat]:
                held[0] = held[1] = UNKNOWN_CARD
                count += 1
        replayed = hand_from_record(record)
        text = to_phh(replayed)
        assert ("????" in text) == (count > 0 and any(hand.folded))
        assert phh_to_record(parse_phh(text)[0][1]) == record
    assert count > 20


def test_rule_options_travel_in_a_user_field():
    hand = HandState(HandConfig.create("razz", num_seats=3, raise_cap=3), seed=4)
    while not hand.is_over:
        hand.act(hand.legal_actions()[-1] if hand.street < 5 else hand.legal_actions()[1])
    text = to_phh(hand)
    assert "_razz_env_rules = \"{\\\"raise_cap\\\":3}\"" in text
    assert phh_to_record(parse_phh(text)[0][1])["rules"] == to_record(hand)["rules"] == {"raise_cap": 3}


def test_phhs_sections_read_back(tmp_path):
    hands = random_hands("razz", 3) + random_hands("stud", 2)
    path = tmp_path / "hands.phhs"
    write_phh(path, hands)
    read = read_phh(path)
    assert [label for label, _ in read] == ["1", "2", "3", "4", "5"]
    assert [record for _, record in read] == [to_record(hand) for hand in hands]


def test_razz_replay_reads_phh_files(tmp_path, capsys):
    path = tmp_path / "hands.phhs"
    write_phh(path, random_hands("stud8", 4))
    assert main(["replay", str(path), *map(str, PLAYED), "--check"]) == 0
    assert capsys.readouterr().out.startswith(f"{4 + len(PLAYED)} hands, 0 mismatches, 0 illegal, 0 invalid")
    assert main(["replay", str(REFUSED[0]), "--check"]) == 1
    out = capsys.readouterr().out
    assert "1 hands, 0 mismatches, 0 illegal, 1 invalid" in out and "door card is unknown" in out


def test_razz_replay_counts_illegal_actions_apart_from_invalid_hands(tmp_path, capsys):
    """An illegal decision is ``illegal``; a file or field that does not make a hand (encoding, TOML, a stake) is
    ``invalid``; both fail ``--check``."""
    texts = {"illegal.phh": HEAD + DEALT + "'p2 f']", "config.phh": HEAD.replace("= 10", "= 4") + "actions = []",
             "toml.phh": HEAD + "actions = [", "verb.phh": HEAD + DEALT + "'p1 pb zz']"}
    for name, text in texts.items():
        (tmp_path / name).write_text(text, encoding="utf-8")
    (tmp_path / "bytes.phh").write_bytes(b"variant = '\xff'")
    files = [str(tmp_path / name) for name in ("illegal.phh", "config.phh", "toml.phh", "verb.phh", "bytes.phh")]
    assert main(["replay", *files, "--check"]) == 1
    out = capsys.readouterr().out.splitlines()
    assert out[0] == "5 hands, 0 mismatches, 1 illegal, 4 invalid"
    assert out[1].endswith("illegal.phh:hand: actions[2] ('p2 f'): p1 is to act on 3rd street, not p2")
    assert "big_bet: 4 is below small_bet 5" in out[2] and "PHH: not valid TOML" in out[3]
    assert "'pb' takes nothing after it" in out[4] and "PHH: not UTF-8 text" in out[5]


HEAD = ("variant = 'FR'\nantes = [1, 1]\nbring_in = 2\nsmall_bet = 5\nbig_bet = 10\n"
        "starting_stacks = [100, 100]\n")


@pytest.mark.parametrize("text, error, match", [
    ("variant = 'NT'\n" + HEAD.split("\n", 1)[1] + "actions = []", ConfigError, "'NT' is not a stud game"),
    (HEAD + "actions = []\nsmallbet = 5", ConfigError, "unknown field.*'smallbet'"),
    (HEAD.replace("[1, 1]", "[1, 2]") + "actions = []", ConfigError, "antes: every seat antes the same"),
    (HEAD + "actions = ['d dh p1 AcXc2c', 'd dh p2 3c4c5c']", ConfigError, r"actions\[0\].*unknown card 'Xc'"),
    (HEAD + "actions = ['d dh p1 Ac2cKs', 'd dh p2 3c4c5c', 'p2 pb']", IllegalActionError,
     r"actions\[2\] \('p2 pb'\): p1 is to act on 3rd street, not p2"),
    (HEAD + "actions = ['d dh p1 Ac2cKs', 'd dh p2 3c4c5c', 'p1 cbr 7']", IllegalActionError,
     "no complete, bet or raise to 7 here; allowed: complete to 5"),
    (HEAD + "actions = ['d dh p1 Ac2cKs', 'd dh p3 3c4c5c']", ConfigError, "expected a player p1 to p2"),
    (HEAD + "actions = ['d dh p1 Ac2cKs', 'd dh p2 3c4c5c', 'p1 sd']", ConfigError, "not a stud action"),
    (HEAD + "actions = ['d dh p1 Ac2cKs', 'd dh p2 3c4c5c', 'p1 sm AdAh']", ConfigError, "shows Ad as card 1"),
    (HEAD + "actions = [", ConfigError, "PHH: not valid TOML"),
])
def test_bad_phh_is_one_error_naming_the_problem(text, error, match):
    with pytest.raises(error, match=match):
        hand_from_phh(text)


DEALT = "actions = ['d dh p1 Ac2cKs', 'd dh p2 3c4c5c', "
DEEP = 50_000


@pytest.mark.parametrize("text, match", [
    (HEAD + DEALT + "'p1 pb', 'p2 cbr ²']", r"actions\[3\] \('p2 cbr ²'\): 'cbr' needs the amount .* in digits 0-9"),
    (HEAD + DEALT + "'p1 pb', 'p2 cbr ٥']", r"actions\[3\] \('p2 cbr ٥'\): 'cbr' needs the amount .* in digits 0-9"),
    (HEAD + DEALT + "'p1 pb', 'p2 cbr " + "9" * 5000 + "']", r"actions\[3\] .*: 'cbr' needs the amount"),
    (HEAD + DEALT + "'p² pb']", r"actions\[2\] \('p² pb'\): expected a player p1 to p2, got 'p²'"),
    (HEAD + DEALT + "'p" + "1" * 5000 + " pb']", r"actions\[2\] .*: expected a player p1 to p2, got 'p111"),
    (HEAD + DEALT + "'p1 pb zz']", r"actions\[2\] \('p1 pb zz'\): 'pb' takes nothing after it, got 'zz'"),
    (HEAD + DEALT + "'p1 pb', 'p2 cbr 5 7']", r"actions\[3\] .*: 'cbr' takes one amount, got '5 7'"),
    (HEAD + DEALT + "'p1 pb', 'p2 f', 'p1 sm Ac2cKs 1']", r"actions\[4\] .*: 'sm' takes the cards shown, got "
                                                        r"'Ac2cKs 1'"),
    ("variant = ['FR']\n" + HEAD.split("\n", 1)[1] + "actions = []", r"variant: \['FR'\] is not a stud game"),
    ("variant = 'FR'\nantes = [1, 1]\nbring_in = 2\nsmall_bet = 5\nbig_bet = 4\nstarting_stacks = [100, 100]\n"
     "actions = []", r"big_bet: 4 is below small_bet 5"),
    (HEAD + "actions = " + "[" * DEEP + "]" * DEEP, r"PHH: nested too deeply"),
    (HEAD + "actions = []\nbring_in_ = " + "9" * 5000, r"PHH: not valid TOML \(.*4300 digits"),
    (HEAD + "actions = []\n_razz_env_rules = '" + "[" * DEEP + "]" * DEEP + "'",
     r"_razz_env_rules: not a JSON object of rule options \(nested too deeply\)"),
    (HEAD + "actions = []\n_razz_env_rules = '{\"raise_cap\": " + "9" * 5000 + "}'",
     r"_razz_env_rules: not a JSON object of rule options \(.*4300 digits"),
])
def test_every_malformed_phh_is_its_error_in_place_of_the_record(tmp_path, text, match):
    """``read_phh`` never raises for what a file holds: the error takes the record's place."""
    path = tmp_path / "hand.phh"
    path.write_text(text, encoding="utf-8")
    [(label, error)] = read_phh(path)
    assert label == "" and isinstance(error, ConfigError), error
    assert re.search(match, str(error)) and "\n" not in str(error), str(error)


def test_a_deal_out_of_place_is_refused():
    text = HEAD + "actions = ['d dh p1 Ac2cKs', 'd dh p2 3c4c5c', 'd dh p1 4d', 'p1 pb', 'p2 f']"
    with pytest.raises(ConfigError, match="p1 has been dealt 4 cards by now in the file, but 3 on 3rd street"):
        hand_from_phh(text)
