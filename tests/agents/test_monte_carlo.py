"""The Monte Carlo agent: it decides on what its seat can see only, the same way every time; its equity makes sense."""

from __future__ import annotations

import atexit
import json
import os
import random
import re
import subprocess
import sys
from collections import Counter
from collections.abc import Iterator
from pathlib import Path

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from razz_env.agents import monte_carlo
from razz_env.agents.monte_carlo import MonteCarloAgent
from razz_env.agents.registry import make_agent
from razz_env.encoding.actions import to_engine
from razz_env.encoding.interface import Observation, ObservationBatch, act_batch, declaration_of, observe
from razz_env.engine import hand_value
from razz_env.engine.actions import Action
from razz_env.engine.cards import parse_cards
from razz_env.engine.config import HandConfig
from razz_env.engine.state import HandState
from razz_env.engine.variants import SEVEN_CARD_GAMES

HIDDEN_POSITIONS = (0, 1, 6)  # down, down, 7th street
FIGURES: Counter = Counter()
if os.environ.get("RAZZ_FUZZ_EXAMPLES"):
    atexit.register(lambda: print("\nsettings fuzz figures:", dict(sorted(FIGURES.items()))))


def _two_deals(seed: int, seats: int) -> tuple[list[list[int]], list[list[int]]]:
    """The same deal twice, except that every other seat's down cards differ."""
    deck = list(range(52))
    random.Random(seed).shuffle(deck)
    cards = [deck[7 * s:7 * s + 7] for s in range(seats)]
    spare = iter(deck[7 * seats:])
    other = [list(held) for held in cards]
    for seat in range(1, seats):
        for position in HIDDEN_POSITIONS:
            other[seat][position] = next(spare)
    return cards, other


@pytest.mark.parametrize("variant", SEVEN_CARD_GAMES)
@pytest.mark.parametrize("spec", [{"type": "monte_carlo", "samples": 64}, "razz_heuristic"])
def test_opponents_down_cards_do_not_matter(variant: str, spec) -> None:
    """Seat 0's decisions and equity are identical whatever the opponents hold face down."""
    for deal in range(4):
        seats = 2 + deal % 2
        first, second = _two_deals(deal, seats)
        config = HandConfig.create(variant, num_seats=seats)
        hands = [HandState(config, cards=first), HandState(config, cards=second)]
        agents = [make_agent(spec, seed=11), make_agent(spec, seed=11)]
        station = make_agent("calling_station")
        decisions = 0
        while not hands[0].is_over:
            assert hands[0].actor == hands[1].actor and hands[0].street == hands[1].street
            seat = hands[0].actor
            observations = [observe(hand, seat) for hand in hands]
            if seat == 0:
                chosen = [agent.act(obs) for agent, obs in zip(agents, observations)]
                assert chosen[0] == chosen[1]
                if isinstance(agents[0], MonteCarloAgent):
                    assert agents[0].equity(observations[0].view) == agents[1].equity(observations[1].view)
                decisions += 1
            else:
                chosen = [station.act(obs) for obs in observations]
            if seat == 0 and chosen[0] == 0:  # seat 0 folded: the rest is not its decision
                break
            for hand, action_id in zip(hands, chosen):
                hand.act(to_engine(action_id, hand.legal_actions()))
        assert decisions > 0


def _to_seventh(variant: str, cards: str, seats: int = 2) -> HandState:
    held = [parse_cards(cards)] + [list(range(7 * s + 24, 7 * s + 31)) for s in range(seats - 1)]
    hand = HandState(HandConfig.create(variant, num_seats=seats), cards=held)
    station = make_agent("calling_station")
    while hand.street < 7 or hand.actor != 0:
        hand.act(to_engine(station.act(observe(hand, hand.actor)), hand.legal_actions()))
    return hand


def test_equity_of_the_nuts_and_of_a_dead_hand() -> None:
    agent = MonteCarloAgent(samples=300, seed=1)
    wheel = _to_seventh("razz", "Ac 2c 3d 4h 5s Ks Kh")
    assert agent.equity(wheel.view(0)) > 0.95
    trips = _to_seventh("razz", "Kc Kd Ks Qh Qs Qd Jh")
    assert agent.equity(trips.view(0)) < 0.05


def test_equity_in_every_variant_is_a_share() -> None:
    agent = MonteCarloAgent(samples=100, seed=2)
    for variant in SEVEN_CARD_GAMES:
        hand = _to_seventh(variant, "Ac 2c 3d 4h 5s Ks Kh", seats=3)
        equity = agent.equity(hand.view(0))
        assert 0.0 <= equity <= 1.0
    stud8_scoop = _to_seventh("stud8", "Ac 2c 3c 4c 5c Kh Kd")  # steel wheel: best high and best low
    assert agent.equity(stud8_scoop.view(0)) > 0.9


def test_a_folded_seat_has_no_equity_and_no_decision() -> None:
    """Eight seats: three fold on 3rd street, five see 7th; the folded seats' views (too few cards dealt) are asked."""
    hand = HandState(HandConfig.create("razz", num_seats=8), seed=1)
    while hand.street < 7:
        legal = hand.legal_actions()
        passive = next(a for a in (Action.BRING_IN, Action.CHECK, Action.CALL) if a in legal)
        hand.act(Action.FOLD if Action.FOLD in legal and sum(hand.folded) < 3 else passive)
    assert sum(hand.folded) == 3 and hand.community is None and not hand.is_over
    agent = MonteCarloAgent(samples=32, seed=1)
    for seat in (s for s in range(8) if hand.folded[s]):
        assert agent.equity(hand.view(seat)) == 0.0
        with pytest.raises(ValueError, match="no legal action"):
            agent.action_probabilities(observe(hand, seat))


def test_samples_must_be_positive() -> None:
    with pytest.raises(ValueError, match="samples"):
        MonteCarloAgent(samples=0)


@pytest.mark.parametrize(("setting", "value", "message"), [
    ("samples", "200", "samples: expected an integer, got '200'"),
    ("samples", 10**7, "samples: must be at most 1000000, got 10000000"),
    ("samples", True, "samples: expected an integer"),
    ("margin", 5, "margin: must be at most 1, got 5"),
    ("margin", float("nan"), "margin: expected a number"),
    ("implied_odds", -0.1, "implied_odds: must be at least 0, got -0.1"),
    ("implied_odds", "0.05", "implied_odds: expected a number"),
    ("seed", -1, "seed: must be at least 0, got -1"),
    ("seed", 1.5, "seed: expected an integer or None"),
])
def test_bad_settings_are_refused_by_name(setting: str, value, message: str) -> None:
    with pytest.raises(ValueError, match=f"^{message}"):
        MonteCarloAgent(**{setting: value})


ANY_VALUE = st.one_of(st.none(), st.booleans(), st.integers(-3, 3), st.integers(-2**70, 2**70),
                     st.floats(allow_nan=True, allow_infinity=True), st.text(max_size=4),
                     st.lists(st.integers(), max_size=2))


@settings(max_examples=int(os.environ.get("RAZZ_FUZZ_EXAMPLES", "50")), deadline=None)
@given(setting=st.sampled_from(["samples", "margin", "implied_odds", "seed"]), value=ANY_VALUE)
def test_any_setting_builds_or_is_refused_by_name(setting: str, value) -> None:
    try:
        agent = MonteCarloAgent(**{setting: value})
    except ValueError as err:
        FIGURES[f"{setting}: clean error"] += 1
        assert re.match(f"{setting}: (expected|must be at (least|most)) ", str(err))
    else:
        FIGURES[f"{setting}: valid"] += 1
        assert 1 <= agent.samples <= 10**6 and -1 <= agent.margin <= 1 and 0 <= agent.implied_odds <= 1
        assert agent.seed >= 0


def _decisions(variant: str, seats: int, seed: int) -> list[Observation]:
    """Every decision of a hand played at random, as observations of the seat to act."""
    rng = random.Random(seed)
    hand = HandState(HandConfig.create(variant, num_seats=seats), seed=seed)
    observations = []
    while not hand.is_over:
        observations.append(observe(hand, hand.actor))
        legal = [a for a in hand.legal_actions() if a.name != "FOLD"] or hand.legal_actions()
        hand.act(rng.choice(legal))
    return observations


DECISIONS = [o for variant in SEVEN_CARD_GAMES for seed in range(3) for o in _decisions(variant, 2 + seed, seed)]


def test_same_observation_same_equity_and_decision_and_a_one_hot_policy() -> None:
    """A decision is a function of the observation: asked again, by a twin or after other questions, it stands."""
    agent, twin = MonteCarloAgent(samples=32, seed=4), MonteCarloAgent(samples=32, seed=4)
    first = [(agent.equity(o.view), agent.act(o)) for o in DECISIONS]
    again = [(agent.equity(o.view), agent.act(o)) for o in reversed(DECISIONS)][::-1]
    assert first == again == [(twin.equity(o.view), twin.act(o)) for o in DECISIONS]
    for observation, (_, chosen) in zip(DECISIONS, first):
        np.testing.assert_array_equal(agent.action_probabilities(observation), np.eye(5)[chosen])


def test_the_seed_picks_the_deals() -> None:
    views = [o.view for o in DECISIONS if o.view.street < 7]
    one, two = MonteCarloAgent(samples=32, seed=1), MonteCarloAgent(samples=32, seed=2)
    assert [one.equity(v) for v in views] != [two.equity(v) for v in views]
    unseeded = MonteCarloAgent(samples=32)
    assert [unseeded.equity(v) for v in views] == [unseeded.equity(v) for v in views]


def test_the_deals_do_not_depend_on_the_process() -> None:
    """Seeded from a stable hash (not Python's per-process ``hash``): another process, which asked about
    another view first, gives the same equity."""
    script = ("from razz_env.agents.monte_carlo import MonteCarloAgent\n"
              "from razz_env.engine.config import HandConfig\n"
              "from razz_env.engine.state import HandState\n"
              "agent = MonteCarloAgent(samples=64, seed=7)\n"
              "other = HandState(HandConfig.create('razz', num_seats=3), seed=6)\n"
              "agent.equity(other.view(other.actor))\n"
              "hand = HandState(HandConfig.create('razz', num_seats=3), seed=5)\n"
              "print(repr(agent.equity(hand.view(hand.actor))))")
    root = Path(__file__).resolve().parents[2]
    env = {**os.environ, "PYTHONHASHSEED": "12345", "PYTHONPATH": str(root)}
    there = subprocess.run([sys.executable, "-c", script], env=env, cwd=root, capture_output=True, text=True,
                           check=True).stdout.strip()
    hand = HandState(HandConfig.create("razz", num_seats=3), seed=5)
    assert there == repr(MonteCarloAgent(samples=64, seed=7).equity(hand.view(hand.actor)))


RECORDING = Path(__file__).with_name("data") / "monte_carlo_decisions.json"
RECORDED_SAMPLES = (1, 10, 77, 200, 500)  # agent i % 5 has samples RECORDED_SAMPLES[i % 5] and seed i % 5


def _recorded_states() -> Iterator[Observation]:
    """The decisions of the recording: every seven-card variant at 2 to 8 seats, two hands each, played
    to the end by a seeded mix of folds (15%) and other legal actions; 1,206 decisions, every street."""
    for variant in SEVEN_CARD_GAMES:
        for seats in range(2, 9):
            for hand_number in range(2):
                rng = random.Random(f"{variant}/{seats}/{hand_number}")
                hand = HandState(HandConfig.create(variant, num_seats=seats), seed=rng.randrange(2**32))
                while not hand.is_over:
                    yield observe(hand, hand.actor)
                    legal = hand.legal_actions()
                    if Action.FOLD in legal and rng.random() < 0.15:
                        hand.act(Action.FOLD)
                    else:
                        hand.act(rng.choice([a for a in legal if a is not Action.FOLD]))


def _decide(agents: list[MonteCarloAgent], observations: list[Observation]) -> list[list]:
    """``[action id, equity]`` of each observation, by agent ``i % len(agents)``."""
    return [[agents[i % len(agents)].act(o), agents[i % len(agents)].equity(o.view)]
            for i, o in enumerate(observations)]


def _recorded_agents() -> list[MonteCarloAgent]:
    return [MonteCarloAgent(samples=samples, seed=i) for i, samples in enumerate(RECORDED_SAMPLES)]


def test_decisions_and_equities_are_the_recorded_ones() -> None:
    """Every decision and equity (bit for bit) is the one recorded from the first implementation (which scored
    stud high hand by hand in Python) on 1,206 seeded decisions with 1 to 500 samples."""
    observations = list(_recorded_states())
    recorded = json.loads(RECORDING.read_text())
    now = _decide(_recorded_agents(), observations)
    assert len(now) == len(recorded) == 1206
    wrong = [(i, observations[i].view.variant, observations[i].view.num_seats, observations[i].view.street)
             for i, (a, b) in enumerate(zip(now, recorded)) if a != b]
    assert not wrong, (f"{len(wrong)} decisions differ from the recording, the first at (index, variant, seats, "
                       f"street) {wrong[0]}")


def test_the_recording_catches_a_changed_rollout(monkeypatch: pytest.MonkeyPatch) -> None:
    """The recording is sensitive: deals drawn from another stream change equities and some decisions (every
    7th recorded decision, each asked of the agent that made it)."""
    observations = list(_recorded_states())
    recorded = json.loads(RECORDING.read_text())
    original = MonteCarloAgent.deals_key
    monkeypatch.setattr(MonteCarloAgent, "deals_key", lambda self, view: original(MonteCarloAgent(seed=self.seed + 1),
                                                                                 view))
    agents = _recorded_agents()
    picked = range(0, len(observations), 7)
    now = [[agents[i % len(agents)].act(observations[i]), agents[i % len(agents)].equity(observations[i].view)]
           for i in picked]
    assert sum(a[1] != recorded[i][1] for a, i in zip(now, picked)) > len(now) // 2
    assert any(a[0] != recorded[i][0] for a, i in zip(now, picked))


def test_the_rollouts_draw_what_deals_generator_draws() -> None:
    """The rollouts re-key one Philox instead of building :meth:`MonteCarloAgent.deals_generator`: the same raw
    draws, whatever was drawn before."""
    agent = MonteCarloAgent(seed=5)
    keys = [agent.deals_key(o.view) for o in DECISIONS[:4]]
    first = [monte_carlo._raw(key, (3, 41)) for key in keys]
    for observation, key, draws in zip(DECISIONS, keys, first):
        np.testing.assert_array_equal(draws, agent.deals_generator(observation.view).bit_generator.random_raw((3, 41)))
        np.testing.assert_array_equal(monte_carlo._raw(key, (3, 41)), draws)


def test_stud_rollouts_score_all_deals_in_one_batch_call(monkeypatch: pytest.MonkeyPatch) -> None:
    """Stud high is scored by the vectorised evaluator, never hand by hand (the first version looped over
    ``stud_high`` in Python: 1.7 to 2.6 times slower per stud and stud8 decision)."""
    def one_by_one(cards):
        raise AssertionError("stud_high called hand by hand")

    monkeypatch.setattr(hand_value, "stud_high", one_by_one)
    agent = MonteCarloAgent(samples=50, seed=3)
    for variant in ("stud", "stud8"):
        for seats in (2, 6):
            hand = HandState(HandConfig.create(variant, num_seats=seats), seed=seats)
            assert 0.0 < agent.equity(hand.view(hand.actor)) < 1.0


@settings(max_examples=int(os.environ.get("RAZZ_FUZZ_EXAMPLES", "25")), deadline=None)
@given(variant=st.sampled_from(["stud", "stud8"]), seats=st.integers(2, 8), seed=st.integers(0, 2**32 - 1),
       street=st.integers(3, 7), samples=st.integers(1, 300))
def test_stud_equity_is_the_hand_by_hand_one(variant: str, seats: int, seed: int, street: int, samples: int) -> None:
    """On any seeded stud or stud8 state, the equity equals the one scored with ``stud_high`` hand by hand."""
    rng = random.Random(seed)
    hand = HandState(HandConfig.create(variant, num_seats=seats), seed=seed)
    while not hand.is_over and hand.street < street:
        legal = hand.legal_actions()
        hand.act(rng.choice([a for a in legal if a is not Action.FOLD or rng.random() < 0.2]))
    seat = hand.actor if not hand.is_over else 0
    agent = MonteCarloAgent(samples=samples, seed=seed)
    batched = agent.equity(hand.view(seat))
    one_by_one = {**monte_carlo.BATCH_EVALUATORS,
                  "high": lambda cards: np.array([hand_value.stud_high(row) for row in cards])}
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(monte_carlo, "BATCH_EVALUATORS", one_by_one)
        assert agent.equity(hand.view(seat)) == batched
    FIGURES[f"stud equity, street {hand.street}: valid"] += 1


def test_the_player_needs_no_numba() -> None:
    """Without numba (the ``batch`` extra) the player decides as with it: it never imports the batched engine."""
    script = ("import sys\n"
              "sys.modules['numba'] = None\n"  # makes `import numba` raise ImportError
              "from razz_env.agents.monte_carlo import MonteCarloAgent\n"
              "from razz_env.encoding.interface import observe\n"
              "from razz_env.engine.config import HandConfig\n"
              "from razz_env.engine.state import HandState\n"
              "agent = MonteCarloAgent(samples=64, seed=7)\n"
              "for variant in ('razz', 'stud8'):\n"
              "    hand = HandState(HandConfig.create(variant, num_seats=3), seed=5)\n"
              "    print(agent.act(observe(hand, hand.actor)), repr(agent.equity(hand.view(hand.actor))))\n"
              "print(sorted(m for m in sys.modules if m.startswith(('numba', 'razz_env.batch'))))")
    root = Path(__file__).resolve().parents[2]
    there = subprocess.run([sys.executable, "-c", script], env={**os.environ, "PYTHONPATH": str(root)}, cwd=root,
                           capture_output=True, text=True, check=True).stdout.splitlines()
    agent = MonteCarloAgent(samples=64, seed=7)
    here = []
    for variant in ("razz", "stud8"):
        hand = HandState(HandConfig.create(variant, num_seats=3), seed=5)
        here.append(f"{agent.act(observe(hand, hand.actor))} {agent.equity(hand.view(hand.actor))!r}")
    assert there == [*here, "['numba']"]


def _played(variant: str, seats: int, hands: int, seed: int = 0) -> list[Observation]:
    """The observation of the seat to act at every decision of ``hands`` seeded hands at ``seats`` seats, played to
    the end by a seeded chooser: folds 15% of the time it may, else any other legal action."""
    rng = random.Random(f"{variant}/{seats}/{seed}")
    observations = []
    for _ in range(hands):
        hand = HandState(HandConfig.create(variant, num_seats=seats), seed=rng.randrange(2**32))
        while not hand.is_over:
            observations.append(observe(hand, hand.actor))
            legal = hand.legal_actions()
            fold = Action.FOLD in legal and rng.random() < 0.15
            hand.act(Action.FOLD if fold else rng.choice([a for a in legal if a is not Action.FOLD]))
    return observations


def _batch_equals_one_at_a_time(agent: MonteCarloAgent, observations: list[Observation], seed: int) -> None:
    """``act_batch`` of the observations in a shuffled order gives each the id ``act`` gives it alone, and its
    stated policy is the one-hot of that id."""
    alone = [agent.act(o) for o in observations]
    order = list(range(len(observations)))
    random.Random(seed).shuffle(order)
    batch = ObservationBatch.of([observations[i] for i in order])
    assert agent.act_batch(batch) == [alone[i] for i in order]
    np.testing.assert_array_equal(agent.action_probabilities_batch(batch), np.eye(5)[[alone[i] for i in order]])


@pytest.mark.parametrize("variant", SEVEN_CARD_GAMES)
def test_act_batch_decides_as_act_at_every_decision(variant: str) -> None:
    """Every decision of 8 random hands at each table size from 2 to 8 seats, in one shuffled batch per size."""
    for seats in range(2, 9):
        observations = _played(variant, seats, hands=8)
        for samples in (1, 24):
            _batch_equals_one_at_a_time(MonteCarloAgent(samples=samples, seed=seats), observations, seed=seats)


@pytest.mark.slow
@pytest.mark.parametrize("variant", SEVEN_CARD_GAMES)
def test_act_batch_decides_as_act_with_the_default_samples(variant: str) -> None:
    """As above with the default 200 samples, 40 hands at each table size."""
    for seats in range(2, 9):
        _batch_equals_one_at_a_time(MonteCarloAgent(seed=seats), _played(variant, seats, hands=40, seed=1), seats)


def test_a_row_is_estimated_as_alone_whatever_the_batch(monkeypatch: pytest.MonkeyPatch) -> None:
    """A row's equity (bit for bit) does not depend on the other rows of its batch, their number, order and
    mix of streets and table sizes, nor on how the batch is cut into chunks of hands."""
    agent = MonteCarloAgent(samples=40, seed=9)
    for variant, seats in (("razz", 2), ("stud8", 5), ("action_razz", 8)):
        views = ObservationBatch.of(_played(variant, seats, hands=6, seed=2)).views
        alone = np.array([agent.equity(views.view(i)) for i in range(len(views))])
        rng = np.random.default_rng(seats)
        for chunk_hands in (1, 500, monte_carlo.CHUNK_HANDS, 10**9):
            monkeypatch.setattr(monte_carlo, "CHUNK_HANDS", chunk_hands)
            order = rng.permutation(len(views))
            np.testing.assert_array_equal(agent.equities(views.take(order)), alone[order])
            rows = rng.choice(len(views), size=len(views) // 3, replace=True)  # repeated rows too
            np.testing.assert_array_equal(agent.equities(views.take(rows)), alone[rows])


def test_the_deal_index_cache_changes_nothing(monkeypatch: pytest.MonkeyPatch) -> None:
    """Equities are the same whether the deal indexes are kept or worked out again, and the cache keeps to its
    budget (none here: it keeps nothing)."""
    agent = MonteCarloAgent(samples=30, seed=2)
    views = ObservationBatch.of(_played("stud8", 4, hands=3)).views
    kept = agent.equities(views)
    monkeypatch.setattr(monte_carlo, "_INDEXES", monte_carlo._IndexCache(0))
    np.testing.assert_array_equal(agent.equities(views), kept)
    assert monte_carlo._INDEXES.size == 0 and not monte_carlo._INDEXES.indexes


def test_act_batch_is_declared_and_checks_its_rows() -> None:
    agent = MonteCarloAgent(samples=8, seed=1)
    assert declaration_of(agent).acts_in_batch and agent.act_batch([]) == []
    observations = _played("razz", 3, hands=2)
    assert act_batch(agent, observations) == [agent.act(o) for o in observations]
    hand = HandState(HandConfig.create("razz", num_seats=3), seed=4)
    idle = observe(hand, (hand.actor + 1) % 3)
    with pytest.raises(ValueError, match=f"seat {idle.seat} has no legal action"):
        agent.act_batch([*observations[:3], idle])
    with pytest.raises(ValueError, match="reads the seat views"):
        agent.act_batch([Observation(o.seat, o.action_mask) for o in observations[:2]])


if __name__ == "__main__":  # rewrite the recording: only after a deliberate change of the agent's decisions
    RECORDING.parent.mkdir(exist_ok=True)
    RECORDING.write_text(json.dumps(_decide(_recorded_agents(), list(_recorded_states()))) + "\n")
