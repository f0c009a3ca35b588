"""razz_env.serve.tables: a session deals, lets its agents act, and hands out only what its viewer may see."""

from __future__ import annotations

import json
import random
from typing import Any

import pytest

from razz_env.encoding.interface import Declaration
from razz_env.engine.cards import card_str
from razz_env.engine.config import HandConfig
from razz_env.engine.errors import ConfigError
from razz_env.engine.record import replay_record
from razz_env.engine.text import shows_down_cards
from razz_env.serve.tables import UNKNOWN, Session, Setup

OFFERED = {name: name for name in ("random", "calling_station", "razz_heuristic", "maniac", "rock", "ppo_razz_psro",
                                   "minirazz_cfr")}


def _play_out(session: Session, rng: random.Random) -> None:
    """The person takes random legal actions until the hand is over."""
    while True:
        assert session.wait()
        view = session.view()
        assert view["error"] is None
        if view["over"]:
            return
        assert view["your_turn"]
        session.act(rng.choice(view["legal"])["name"])


def _hidden_cards(session: Session) -> set[str]:
    """The cards of the hand in play that the person may not see now: other seats' down cards, unless shown."""
    hand, up = session.hand, session.config.variant.up_positions
    return {card_str(card) for seat, cards in enumerate(hand.cards) if seat != session.person
            and not shows_down_cards(hand, seat, session.person) for position, card in enumerate(cards)
            if position not in up}


@pytest.mark.parametrize("variant, agents", [("razz", ("maniac",)), ("stud8", ("calling_station", "rock")),
                                             ("minirazz", ("random",))])
def test_no_message_holds_a_card_the_person_may_not_see(variant, agents):
    """Every view the session hands out, at every step of 12 hands of random play, read as the JSON the browser gets:
    no other seat's down card appears in it unless that seat showed it at the showdown (checked after the hand)."""
    rng = random.Random(7)
    session = Session(Setup(variant=variant, seat=1 if len(agents) > 1 else 0, agents=agents, seed=3), OFFERED)
    checked = 0
    for _ in range(12):
        while True:
            assert session.wait()
            view = session.view()
            text = json.dumps(view)
            hidden = _hidden_cards(session)
            assert not any(f'"{card}"' in text for card in hidden), (hidden, view["steps"][-1])
            checked += 1
            if view["over"]:
                break
            session.act(rng.choice(view["legal"])["name"])
        for record in json.loads("[" + session.records_jsonl().strip().replace("\n", ",") + "]")[-1:]:
            seen = {card for cards in record["cards"] for card in cards}
            assert not hidden & seen and replay_record(record).ok
        session.next_hand()
    assert checked >= 24  # at least two views a hand
    session.close()


def test_a_watched_table_shows_every_card_and_each_agents_stated_policy():
    session = Session(Setup(seat=None, agents=("razz_heuristic", "random"), seed=11), OFFERED)
    assert not session.view()["your_turn"] and session.view()["steps"][0]["state"]["viewer"] == "all cards face up"
    session.step(1)
    assert session.wait()
    first = session.view()["steps"][1]
    assert first["seat"] is not None and first["policy"] and abs(sum(first["policy"].values()) - 1) < 1e-6
    session.step(None)
    assert session.wait() and session.view()["over"]
    last = session.view()["steps"][-1]
    assert len(last["aivat"]) == 2 and abs(sum(last["aivat"])) < 1e-6
    assert all(name is not None for seat in last["state"]["seats"] for name, _ in seat["cards"])
    session.close()


def test_a_person_never_gets_an_opponents_stated_policy_or_the_hands_aivat():
    session = Session(Setup(agents=("random",), seed=2), OFFERED)
    _play_out(session, random.Random(1))
    view = session.view()
    assert all(step["policy"] is None and "aivat" not in step for step in view["steps"])
    assert view["results"]["hands"] == 1
    session.close()


def test_stacks_carry_over_and_a_busted_seat_buys_in_again():
    session = Session(Setup(agents=("maniac",), stack=12, seed=4), OFFERED)
    rng = random.Random(0)
    for _ in range(30):
        before = list(session.config.stacks)
        _play_out(session, rng)
        payoffs = session.hand.payoffs
        session.next_hand()
        busted = [seat for seat, (chips, won) in enumerate(zip(before, payoffs)) if chips + won == 0]
        assert list(session.config.stacks) == [12 if seat in busted else chips + won
                                               for seat, (chips, won) in enumerate(zip(before, payoffs))]
        if busted:
            assert "buys in again for 12" in session.view()["notes"][-1]
            break
    else:
        pytest.fail("nobody busted in 30 hands at 12-chip stacks against a maniac")
    assert session.view()["carry"]
    session.close()


class _Trained:
    """Checks or calls (brings in), and declares the table it was trained at (1,000-chip heads-up razz)."""

    name = "trained"
    declaration = Declaration(variants=("razz",), seat_counts=(2,),
                              table=HandConfig.create("razz", num_seats=2, stacks=1000))

    def reset(self, seat: int, num_seats: int, variant: str) -> None:
        pass

    def act(self, observation: Any) -> int:
        return 1 if observation.action_mask[1] else 3  # check or call, else bring in


def test_an_agent_trained_at_one_table_gets_that_table_every_hand(monkeypatch):
    import razz_env.serve.tables as tables

    monkeypatch.setattr(tables, "make_agent", lambda spec, seed=None: _Trained())
    session = Session(Setup(agents=("random",), seed=4), OFFERED)
    assert not session.view()["carry"]
    for _ in range(3):
        _play_out(session, random.Random(3))
        session.next_hand()
        assert list(session.config.stacks) == [1000, 1000]
    session.close()
    with pytest.raises(ConfigError, match="trained at stacks 1000; it cannot be seated at a table of stacks 500"):
        Session(Setup(agents=("random",), stack=500), OFFERED)


def test_the_same_seed_deals_the_same_cards_and_the_agents_act_alike():
    def hands(seed: int) -> list[str]:
        session = Session(Setup(seat=None, agents=("razz_heuristic", "random"), seed=seed), OFFERED)
        for _ in range(3):
            session.step(None)
            assert session.wait()
            session.next_hand()
        session.close()
        return session.records_jsonl().splitlines()

    assert hands(5) == hands(5) and hands(5) != hands(6)


@pytest.mark.parametrize("data, message", [
    ([], "expected a JSON object"),
    ({"colour": "red"}, r"unknown field\(s\) \['colour'\]"),
    ({"variant": "holdem"}, "variant: expected one of razz"),
    ({"agents": []}, "agents: expected a list of agent names"),
    ({"agents": ["cmd:/bin/sh"]}, "'cmd:/bin/sh' is not offered here"),
    ({"seat": 2}, "seat: expected your seat, 0 to 1"),
    ({"seat": True}, "seat: expected your seat"),
    ({"stack": 0}, "stack: expected a whole number of chips"),
    ({"seed": -1}, "seed: expected a whole number"),
])
def test_a_bad_setup_names_the_field_and_what_is_allowed(data, message):
    with pytest.raises(ConfigError, match=message):
        Setup.from_request(data, OFFERED)


def test_a_table_refuses_moves_out_of_turn_and_illegal_ones_and_changes_nothing():
    session = Session(Setup(agents=("calling_station",), seed=9), OFFERED)
    assert session.wait()
    view = session.view()
    with pytest.raises(ConfigError, match="is not legal now; legal: "):
        session.act("dance")
    with pytest.raises(ConfigError, match="the hand is not over yet"):
        session.next_hand()
    with pytest.raises(ConfigError, match="step is for watched tables"):
        session.step(1)
    assert session.view() == view
    with pytest.raises(ConfigError, match="seating|cannot"):
        Session(Setup(variant="minirazz", agents=("razz_heuristic",)), OFFERED)
    session.close()


class _Broken:
    """An agent that fails at its first decision."""

    name = "broken"
    declaration = Declaration()

    def reset(self, seat: int, num_seats: int, variant: str) -> None:
        pass

    def act(self, observation: object) -> int:
        raise RuntimeError("out of coffee")


def test_an_agent_that_fails_stops_its_table_with_the_reason(monkeypatch):
    import razz_env.serve.tables as tables

    monkeypatch.setattr(tables, "make_agent", lambda spec, seed=None: _Broken())
    session = Session(Setup(seat=None, agents=("random", "random")), OFFERED)
    session.step(None)
    assert session.wait()
    assert "out of coffee" in session.view()["error"]
    with pytest.raises(ConfigError, match="this table stopped: RuntimeError: out of coffee"):
        session.step(1)


def test_records_write_unseen_cards_as_unknown():
    session = Session(Setup(agents=("rock",), seed=1), OFFERED)
    folded = None
    rng = random.Random(2)
    for _ in range(20):
        _play_out(session, rng)
        record = json.loads(session.records_jsonl().splitlines()[-1])
        if session.hand.folded[0] or session.hand.folded[1]:
            folded = record
            break
        session.next_hand()
    assert folded is not None, "no hand ended in a fold in 20 hands"
    opponent = folded["cards"][1]
    assert opponent[0] == opponent[1] == UNKNOWN and UNKNOWN not in folded["cards"][0]
    assert replay_record(folded).ok
    session.close()


class _Told:
    """Calls or checks (brings in), and keeps what ``hand_over`` tells it."""

    name = "told"
    declaration = Declaration()

    def __init__(self) -> None:
        self.outcomes: list = []

    def reset(self, seat: int, num_seats: int, variant: str) -> None:
        pass

    def act(self, observation: Any) -> int:
        return 1 if observation.action_mask[1] else 3

    def hand_over(self, outcome: Any) -> None:
        self.outcomes.append(outcome)


def test_an_agent_with_the_hook_is_told_how_each_hand_ended(monkeypatch):
    import razz_env.serve.tables as tables

    monkeypatch.setattr(tables, "make_agent", lambda spec, seed=None: _Told())
    session = Session(Setup(agents=("random",), seed=8), OFFERED)
    rng = random.Random(4)
    payoffs = []
    for _ in range(3):
        _play_out(session, rng)
        payoffs.append(tuple(session.hand.payoffs))
        session.next_hand()
    told = session.agents[1].outcomes
    assert [(o.hand, o.seat, o.payoffs) for o in told] == [(n, 1, p) for n, p in enumerate(payoffs)]
    session.close()
