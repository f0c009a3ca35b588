"""Hand records (docs/hand-records.md): round trips, replays, player names, and errors that name what is wrong."""

from __future__ import annotations

import copy
import json
import random
import re

import pytest

from razz_env.engine import (
    Action,
    ConfigError,
    HandConfig,
    HandState,
    IllegalActionError,
    hand_from_record,
    replay_record,
    to_record,
)
from razz_env.engine.record import config_from_record, read_records, write_records


def random_hand(variant: str, seats: int, seed: int, **kwargs) -> HandState:
    policy = random.Random(seed)
    stacks = kwargs.pop("stacks", None) or [policy.choice([3, 12, 40, 200]) for _ in range(seats)]
    hand = HandState(HandConfig.create(variant, stacks=stacks, **kwargs), seed=seed)
    while not hand.is_over:
        legal = hand.legal_actions()
        hand.act(legal[policy.randrange(len(legal))])
    return hand


def base_record() -> dict:
    """A valid heads-up razz record: seat 1 (K♥) brings in, seat 0 completes, seat 1 folds."""
    return {
        "variant": "razz",
        "stakes": {"ante": 1, "bring_in": 2, "small_bet": 5, "big_bet": 10},
        "stacks": [100, 100],
        "cards": [["As", "2d", "7h"], ["Qs", "Jd", "Kh"]],
        "community": None,
        "actions": ["bring_in", "complete", "fold"],
        "payoffs": [3, -3],
    }


# ---------------------------------------------------------------------------- round trip


@pytest.mark.parametrize("variant", ["razz", "action_razz", "stud", "stud8"])
@pytest.mark.parametrize("seats", [2, 3, 5, 8])
def test_to_record_then_hand_from_record_gives_the_same_hand(variant, seats):
    for seed in range(6):
        hand = random_hand(variant, seats, seed)
        record = json.loads(json.dumps(to_record(hand)))
        replayed = hand_from_record(record)
        assert replayed.payoffs == hand.payoffs
        assert replayed.history == hand.history
        assert replayed.cards == hand.cards
        assert replayed.community == hand.community
        assert replay_record(record).ok
        assert to_record(replayed) == record


def test_record_fields_follow_the_spec():
    hand = random_hand("razz", 3, 4)
    record = to_record(hand)
    assert list(record)[:7] == ["variant", "stakes", "stacks", "cards", "community", "actions", "payoffs"]
    assert record["stakes"] == {"ante": 1, "bring_in": 2, "small_bet": 5, "big_bet": 10}
    assert all(isinstance(c, str) and len(c) == 2 for held in record["cards"] for c in held)
    assert set(record["actions"]) <= {str(a) for a in Action}
    assert sum(record["payoffs"]) == 0
    assert "rules" not in record


def test_rule_options_and_bet_schedule_round_trip_through_the_record():
    options = {"raise_cap": 0, "heads_up_uncapped": True, "open_pair_big_bet": False}
    for seed in range(8):
        hand = random_hand("stud", 3, seed, street_bets=[4, 4, 8, 8, 16], bring_in=1, **options)
        record = json.loads(json.dumps(to_record(hand)))
        assert record["rules"] == {**options, "raise_cap": None}  # the record's Rules: null is no cap
        assert record["stakes"]["street_bets"] == [4, 4, 8, 8, 16]
        assert config_from_record(record) == hand.config
        assert hand_from_record(record).payoffs == hand.payoffs


def test_record_with_a_community_card_round_trips():
    hand = HandState(HandConfig.create("stud8", num_seats=8), seed=2)
    while not hand.is_over:
        legal = hand.legal_actions()
        hand.act(next(a for a in (Action.BRING_IN, Action.CHECK, Action.CALL) if a in legal))
    record = to_record(hand)
    assert record["community"] is not None
    assert all(len(held) == 6 for held in record["cards"])
    assert hand_from_record(record).payoffs == hand.payoffs


def test_a_partial_hand_writes_a_record_without_payoffs():
    hand = HandState(HandConfig.create("razz", num_seats=3), seed=1)
    hand.act(Action.BRING_IN)
    record = to_record(hand)
    assert record["payoffs"] is None
    assert record["actions"] == ["bring_in"]


# ---------------------------------------------------------------------------- replay_record


def test_replay_reports_ok_mismatch_illegal_and_invalid():
    record = base_record()
    assert replay_record(record).ok
    wrong = {**record, "payoffs": [-3, 3]}
    result = replay_record(wrong)
    assert result.status == "mismatch"
    assert result.message == "payoffs: expected [-3, 3], got [3, -3]"
    bad = {**record, "actions": ["bring_in", "raise"]}
    result = replay_record(bad)
    assert result.status == "illegal" and "action 1" in result.message
    assert replay_record({"variant": "razz"}).status == "invalid"
    no_payoffs = {k: v for k, v in record.items() if k != "payoffs"}
    assert replay_record(no_payoffs).ok and replay_record(no_payoffs).payoffs == (3, -3)


def test_read_and_write_records_as_jsonl(tmp_path):
    path = tmp_path / "hands.jsonl"
    records = [base_record(), to_record(random_hand("stud", 4, 9))]
    assert write_records(path, records) == 2
    path.write_text(path.read_text() + "\nnot json\n")
    read = list(read_records(path))
    assert [line for line, _ in read] == [1, 2, 4]
    assert read[0][1] == records[0] and read[1][1] == records[1]
    assert isinstance(read[2][1], ConfigError) and str(read[2][1]).startswith("record: not valid JSON")


# ---------------------------------------------------------------------------- malformed records


def _with(path: tuple, value) -> dict:
    record = copy.deepcopy(base_record())
    target = record
    for key in path[:-1]:
        target = target[key]
    target[path[-1]] = value
    return record


@pytest.mark.parametrize(
    ("path", "value", "match"),
    [
        (("cards", 1, 2), "Kx", r"cards\[1\]\[2\]: unknown card 'Kx'"),
        (("cards", 0, 0), "10s", r"cards\[0\]\[0\]: unknown card"),
        (("cards", 1, 2), "As", "card As is dealt twice"),
        (("community",), "As", "community: with 2 seats"),
        (("community",), "Zz", "community: unknown card"),
        (("cards",), [["As", "2d", "7h"]], r"cards: expected 2 lists"),
        (("cards",), "As 2d 7h", "cards: expected one list"),
        (("cards", 1), "Qs Jd Kh", r"cards\[1\]: expected a list of card names, got 'Qs Jd Kh'"),
        (("cards", 1, 0), 40, r"cards\[1\]\[0\]: unknown card 40"),
        (("cards", 1, 0), ["Qs"], r"cards\[1\]\[0\]: unknown card \['Qs'\]"),
        (("cards", 1, 0), {"Qs": 1}, r"cards\[1\]\[0\]: unknown card \{'Qs': 1\}"),
        (("community",), ["5h"], r"community: unknown card \['5h'\]"),
        (("stakes", "street_bets"), 5, r"stakes\.street_bets: expected a list of 5 bet sizes"),
        (("stakes", "ante"), 1.0, r"stakes\.ante: expected an integer number of chips, got 1\.0"),
        (("stakes", "ante"), True, r"stakes\.ante: expected an integer number of chips, got True"),
        (("stacks", 0), None, r"stacks\[0\]: expected an integer number of chips, got None"),
        (("stacks", 0), [100], r"stacks\[0\]: expected an integer number of chips, got \[100\]"),
        (("variant",), ["razz"], r"variant: unknown variant \['razz'\]"),
        (("rules",), [4], r"rules: expected an object, got \[4\]"),
        (("rules",), {"heads_up_uncapped": 1}, r"rules\.heads_up_uncapped: expected true/false, got 1"),
        (("actions", 1), 4, r"actions\[1\]: expected an action name \(fold, check, .*\), got 4"),
        (("actions", 1), None, r"actions\[1\]: expected an action name"),
        (("payoffs",), "3,-3", r"payoffs: expected a list of 2 chip counts \(one per seat\), got '3,-3'"),
        (("payoffs",), [3, -3, 0], r"payoffs: expected 2 chip counts \(one per seat\), got 3"),
        (("payoffs", 0), 3.0, r"payoffs\[0\]: expected an integer number of chips, got 3\.0"),
        (("payoffs", 0), "3", r"payoffs\[0\]: expected an integer number of chips, got '3'"),
        (("cards", 0), ["As", "2d", "7h", "4c"], r"cards\[0\]: lists 4 cards but the seat was dealt 3"),
        (("cards", 0), ["As", "2d", "7h", "4c", "5c", "6c", "8c", "9c"], r"cards\[0\]: a seat holds at most 7"),
        (("cards", 1), ["Qs", "Jd"], r"cards\[1\]: seat 1 must be dealt a door card"),
        (("stakes", "ante"), -1, r"stakes\.ante: must be at least 0"),
        (("stakes", "big_bet"), -10, r"stakes\.big_bet"),
        (("stakes", "bring_in"), 5, r"stakes\.bring_in: must be below the 3rd-street bet 5"),
        (("stakes", "bring_in"), 7, r"stakes\.bring_in"),
        (("stakes", "small_bet"), "5", r"stakes\.small_bet: expected an integer"),
        (("stakes", "street_bets"), [5, 5, 10], r"stakes\.street_bets"),
        (("stakes",), {"ante": 1, "bring_in": 2, "small_bet": 5}, "stakes: missing big_bet"),
        (("stakes",), [1, 2, 5, 10], "stakes: expected an object"),
        (("stacks",), [100, -100], r"stacks\[1\]: must be at least 1"),
        (("stacks",), [100], "stacks: razz seats 2 to 8, got 1"),
        (("stacks",), "100,100", "stacks: expected a list"),
        (("variant",), "omaha", "variant: unknown variant 'omaha'"),
        (("rules",), {"raise_cap": 0}, r"rules\.raise_cap"),
        (("rules",), {"cap": 3}, "rules: unknown key"),
        (("actions",), "bring_in complete fold", "actions: expected a list"),
    ],
)
def test_malformed_record_is_a_config_error_naming_the_field(path, value, match):
    with pytest.raises(ConfigError, match=match):
        hand_from_record(_with(path, value))
    result = replay_record(_with(path, value))
    assert result.status == "invalid"


@pytest.mark.parametrize("field", ["variant", "stakes", "stacks", "cards", "actions"])
def test_missing_record_field_is_named(field):
    record = base_record()
    del record[field]
    with pytest.raises(ConfigError, match=f"record: missing field\\(s\\) {field}"):
        hand_from_record(record)


def test_unknown_record_field_is_named():
    with pytest.raises(ConfigError, match=r"record: unknown field\(s\) \['seed'\]; known: .*, rules, players"):
        hand_from_record({**base_record(), "seed": 3})


def test_huge_or_odd_values_are_shown_short_in_messages():
    message = replay_record(_with(("variant",), "x" * 10_000)).message
    assert message.startswith("variant: unknown variant 'xxx") and len(message) < 200
    message = replay_record(_with(("stacks", 0), -(10**1000))).message
    assert message == "stacks[0]: must be at least 1, got an integer of about 1000 digits"
    huge = _with(("stacks",), [10**1000, 10**1000])
    assert replay_record({**huge, "payoffs": [3, -3]}).ok  # a huge stack is a valid stack


def test_record_must_be_an_object():
    with pytest.raises(ConfigError, match="record: expected a JSON object"):
        hand_from_record(["razz"])


def test_community_card_in_a_record_that_never_needed_one_is_refused():
    record = {**base_record(), "community": "5h"}
    with pytest.raises(ConfigError, match="community: with 2 seats every live seat gets its own 7th card"):
        hand_from_record(record)


def test_eight_seat_record_listing_a_community_card_it_never_dealt_is_refused():
    hand = random_hand("razz", 8, 3, stacks=[200] * 8)
    record = to_record(hand)
    assert record["community"] is None  # random play folds someone
    used = {c for held in record["cards"] for c in held}
    record["community"] = next(c for c in (r + s for r in "A23456789TJQK" for s in "cdhs") if c not in used)
    with pytest.raises(ConfigError, match="community: a community card is listed but every live seat got"):
        hand_from_record(record)
    assert replay_record(record).status == "invalid"


def test_record_listing_cards_a_folded_seat_never_got_is_refused_after_a_complete_replay():
    record = _with(("cards", 0), ["As", "2d", "7h", "4c"])
    with pytest.raises(ConfigError, match=r"cards\[0\]: lists 4 cards but the seat was dealt 3 \(not dealt: 4c\)"):
        hand_from_record(record)


def test_record_missing_a_card_the_actions_need_is_refused_naming_the_action():
    record = {**base_record(), "actions": ["bring_in", "call", "check", "check"], "payoffs": None}
    with pytest.raises(ConfigError, match=r"action 1 \('call'\): cards\[0\]: seat 0 must be dealt a 4th-street"):
        hand_from_record(record)


# ---------------------------------------------------------------------------- illegal actions in records


def test_illegal_action_names_the_action_index_the_seat_and_the_legal_actions():
    record = {**base_record(), "actions": ["bring_in", "check"]}
    with pytest.raises(IllegalActionError) as err:
        hand_from_record(record)
    message = str(err.value)
    assert message.startswith("action 1 ('check'): ")
    assert "seat 0" in message
    assert "legal: fold, call, complete" in message


def test_unknown_action_name_is_an_illegal_action_naming_its_index():
    record = {**base_record(), "actions": ["bring_in", "shove"]}
    with pytest.raises(IllegalActionError, match=r"action 1 \('shove'\): seat 0 .*unknown action 'shove'"):
        hand_from_record(record)


def test_bring_in_seat_folding_in_a_record_is_illegal():
    record = {**base_record(), "actions": ["fold"]}
    with pytest.raises(IllegalActionError, match=r"action 0 \('fold'\): seat 1 .*legal: bring_in, complete"):
        hand_from_record(record)


def test_actions_left_over_after_the_hand_ended_are_refused():
    record = {**base_record(), "actions": ["bring_in", "complete", "fold", "check"]}
    with pytest.raises(IllegalActionError, match=r"action 3 \('check'\): the hand is already over; 1 action"):
        hand_from_record(record)


def test_record_ending_before_the_hand_does_is_refused():
    record = {**base_record(), "actions": ["bring_in", "complete"]}
    with pytest.raises(IllegalActionError, match="the record ends after 2 action.*seat 1 is still to act"):
        hand_from_record(record)


# ---------------------------------------------------------------------------- player names


def test_to_record_writes_player_names_that_replay_and_round_trip():
    hand = random_hand("stud8", 3, 5)
    record = json.loads(json.dumps(to_record(hand, players=["alice", "bob", "Zoë 🂡"])))
    assert record["players"] == ["alice", "bob", "Zoë 🂡"]
    assert list(record)[-1] == "players"
    result = replay_record(record)
    assert result.ok and result.players == ("alice", "bob", "Zoë 🂡")
    assert to_record(hand_from_record(record), players=record["players"]) == record


def test_players_are_optional_and_may_repeat():
    hand = random_hand("razz", 2, 1)
    assert "players" not in to_record(hand)
    assert replay_record(to_record(hand)).players is None
    assert replay_record({**to_record(hand), "players": None}).ok
    assert to_record(hand, players=("random", "random"))["players"] == ["random", "random"]


@pytest.mark.parametrize(
    ("players", "match"),
    [
        (["alice"], r"players: expected 2 names \(one per seat\), got 1"),
        (["alice", "bob", "carol"], r"players: expected 2 names \(one per seat\), got 3"),
        ("alice bob", r"players: expected a list of 2 names \(one per seat\), got 'alice bob'"),
        ({"0": "alice"}, "players: expected a list of 2 names"),
        (["alice", 7], r"players\[1\]: expected a name \(a string\), got 7"),
        (["alice", None], r"players\[1\]: expected a name \(a string\), got None"),
        (["alice", ["bob"]], r"players\[1\]: expected a name \(a string\), got \['bob'\]"),
        (["", "bob"], r"players\[0\]: a name must not be blank"),
        (["alice", "  "], r"players\[1\]: a name must not be blank"),
        (["al\nice", "bob"], r"players\[0\]: control characters are not allowed"),
        (["alice", "b\x00b"], r"players\[1\]: control characters are not allowed"),
        (["alice", "b\ud800"], r"players\[1\]: control characters are not allowed"),
    ],
)
def test_bad_player_names_are_named_when_writing_and_when_reading(players, match):
    hand = hand_from_record(base_record())
    with pytest.raises(ConfigError, match=match):
        to_record(hand, players=players)
    record = {**base_record(), "players": players}
    with pytest.raises(ConfigError, match=match):
        config_from_record(record)
    result = replay_record(record)
    assert result.status == "invalid" and re.search(match, result.message)


# ---------------------------------------------------------------------------- the documentation's records

DOCS = __import__("pathlib").Path(__file__).resolve().parents[2] / "docs"


def test_the_documented_example_record_replays_to_its_payoffs():
    text = (DOCS / "hand-records.md").read_text(encoding="utf-8")
    example = json.loads(text.split("```json\n", 1)[1].split("```", 1)[0])
    result = replay_record(example)
    assert result.ok and result.message == "" and result.players == ("alice", "bob", "carol")


def test_the_sample_file_replays_with_names_across_the_four_variants():
    lines = list(read_records(DOCS / "examples" / "hands.jsonl"))
    assert len(lines) >= 24
    assert {record["variant"] for _, record in lines} == {"razz", "action_razz", "stud", "stud8"}
    for _, record in lines:
        result = replay_record(record)
        assert result.ok and result.message == "" and len(result.players) == len(record["stacks"])


def test_unreadable_file_names_the_problem(tmp_path) -> None:
    from razz_env.engine.record import unreadable_file

    (tmp_path / "ok.jsonl").write_text("")
    assert unreadable_file(tmp_path / "ok.jsonl") is None
    assert unreadable_file(tmp_path / "missing.jsonl") == "no such file"
    assert unreadable_file(tmp_path).startswith("is a directory")
