"""The mixture agent: its policy against an independent computation from the real hands (each member asked at the
seat's earlier decisions as the seat saw them then), alone and in batches of many hands, for other down cards in
the order they were dealt, its draws, pickling, a match in worker processes, LBR reading it, and its refusals."""

from __future__ import annotations

import copy
import pickle
import random

import numpy as np
import pytest

pytest.importorskip("torch")
pytest.importorskip("numba", reason="the batched PPO trainer needs numba (the batch extra)")

import torch

from razz_env.agents.base import BaseAgent
from razz_env.agents.lbr import LocalBestResponse
from razz_env.agents.mixture import MixtureAgent
from razz_env.agents.registry import make_agent
from razz_env.encoding.actions import to_engine
from razz_env.encoding.encoders import FlatEncoder
from razz_env.encoding.interface import ObservationBatch, Observer, action_probabilities
from razz_env.engine.config import HandConfig
from razz_env.engine.errors import ConfigError
from razz_env.engine.state import HandState
from razz_env.evaluate import match
from razz_env.train.batch_ppo import Agent, Args, save_policy

torch.set_num_threads(1)
CONFIG = HandConfig.create("razz", num_seats=2, stacks=200)
WEIGHTS = [2.0, 1.0, 1.0]


@pytest.fixture(scope="module")
def members(tmp_path_factory) -> list:
    """Two policy files of random weights (far from uniform) trained at CONFIG's table, and the heuristic."""
    folder, specs = tmp_path_factory.mktemp("members"), []
    for seed in (0, 1):
        torch.manual_seed(seed)
        network = Agent(FlatEncoder(CONFIG).size, (32, 16), "tanh")
        with torch.no_grad():
            for parameter in network.actor.parameters():
                parameter.mul_(6.0)
        path = folder / f"member{seed}.pt"
        save_policy(path, network, Args(hidden=(32, 16), stacks=200), steps=1)
        specs.append({"type": str(path), "deterministic": False})
    return [*specs, "razz_heuristic"]


def mixture(members, **options) -> MixtureAgent:
    return make_agent({"type": "mixture", "members": members, "weights": WEIGHTS, "seed": 3, **options})


def played(agent, hands: int, seed: int = 0) -> list[tuple]:
    """(hand before the decision, seat, observation, the hand's earlier (hand, seat, id) of that seat) at every
    decision of hands played by random legal ids."""
    observer, rng, found = Observer(agent, CONFIG), random.Random(seed), []
    for deal in range(hands):
        hand, past = HandState(CONFIG, seed=seed * 1000 + deal), []
        while not hand.is_over:
            seat, observation = hand.actor, observer(hand, hand.actor)
            found.append((copy.deepcopy(hand), seat, observation, [p for p in past if p[1] == seat]))
            taken = rng.choice(np.flatnonzero(observation.action_mask).tolist())
            past.append((copy.deepcopy(hand), seat, taken))
            hand.act(to_engine(taken, hand.legal_actions()))
    return found


def oracle(agent: MixtureAgent, hand: HandState, seat: int, past: list[tuple]) -> np.ndarray:
    """The behaviour strategy computed from the real hands: each member's probability of each earlier id at the
    observation the seat had then, times its prior, normalised; its policy now weighted so."""
    members = [make_agent(m) for m in agent.spec["members"]]
    weights = np.array(WEIGHTS) / sum(WEIGHTS)
    now = []
    for k, member in enumerate(members):
        observer = Observer(member, CONFIG)
        for earlier, _, taken in past:
            weights[k] *= action_probabilities(member, [observer(earlier, seat)])[0, taken]
        now.append(action_probabilities(member, [observer(hand, seat)])[0])
    if weights.sum() == 0:
        weights = np.array(WEIGHTS)
    return (weights / weights.sum()) @ np.array(now)


def test_the_policy_is_the_members_weighted_by_what_they_gave_the_seats_earlier_actions(members) -> None:
    agent = mixture(members)
    decisions = played(agent, 12)
    expected = np.array([oracle(agent, hand, seat, past) for hand, seat, _, past in decisions])
    one_at_a_time = np.array([agent.action_probabilities(observation) for _, _, observation, _ in decisions])
    np.testing.assert_allclose(one_at_a_time, expected, atol=1e-12)
    batched = agent.action_probabilities_batch(ObservationBatch.of([d[2] for d in decisions]))
    np.testing.assert_allclose(batched, expected, atol=1e-12)
    later = [i for i, (_, _, _, past) in enumerate(decisions) if past]
    assert len(later) > 20  # the weights moved: some decision of a later street has them away from the priors
    assert any(abs(expected[i] - oracle(agent, *decisions[i][:2], [])).max() > 0.05 for i in later)


def test_other_down_cards_are_asked_in_the_order_they_were_dealt(members) -> None:
    """A best response's question: one 7th-street decision with other down cards (the views' and the vectors'
    own-down slices replaced, as LBR asks), each answered as the hand dealt with those cards, the third card the
    7th street's."""
    agent = mixture(members)
    decision = next(d for d in played(agent, 40, seed=1) if d[0].street == 7 and len(d[3]) >= 3)
    hand, seat, observation, _ = decision
    seen = set(hand.down_cards(seat) + hand.up_cards(0) + hand.up_cards(1))
    free = [c for c in range(52) if c not in seen]
    holdings = np.array([free[:3], [free[2], free[1], free[0]], free[3:6], [free[5], free[3], free[4]]])
    batch = ObservationBatch.of([observation])
    views = batch.views.with_own_down(np.zeros(len(holdings), np.intp), holdings)
    vectors = np.repeat(batch.vectors, len(holdings), axis=0)
    agent.encoder.write_own_down(vectors, holdings)
    asked = agent.action_probabilities_batch(ObservationBatch(np.full(len(holdings), seat),
                                                              np.repeat(batch.masks, len(holdings), axis=0),
                                                              views, vectors))
    for holding, answer in zip(holdings.tolist(), asked):
        cards = [list(hand.cards[s]) for s in range(2)]
        cards[seat][:2], cards[seat][6] = holding[:2], holding[2]
        replayed, past = HandState(CONFIG, cards=cards), []
        for entry in hand.history:
            if entry.seat == seat:
                past.append((copy.deepcopy(replayed), seat, to_engine_id(replayed, entry.action)))
            replayed.act(entry.action)
        np.testing.assert_allclose(answer, oracle(agent, replayed, seat, past), atol=1e-12)
    assert not np.allclose(asked[0], asked[1]) or not np.allclose(asked[2], asked[3])  # the order is read


def to_engine_id(hand: HandState, action) -> int:
    from razz_env.encoding.actions import ENGINE_TO_ID

    return ENGINE_TO_ID[action]


def test_draws_follow_the_policy_and_a_batch_draws_as_calls_in_order(members) -> None:
    decisions = [d[2] for d in played(mixture(members), 6)]
    one, other = mixture(members), mixture(members)
    assert one.act_batch(ObservationBatch.of(decisions)) == [other.act(o) for o in decisions]
    agent, observation = mixture(members), decisions[0]
    counts = np.bincount([agent.act(observation) for _ in range(4000)], minlength=5) / 4000
    np.testing.assert_allclose(counts, agent.action_probabilities(observation), atol=0.03)


def test_a_pickled_mixture_states_the_same_policy_and_draws_the_same(members) -> None:
    agent = mixture(members)
    decisions = [d[2] for d in played(agent, 4)]
    again = pickle.loads(pickle.dumps(agent))
    np.testing.assert_array_equal(again.action_probabilities_batch(ObservationBatch.of(decisions)),
                                  agent.action_probabilities_batch(ObservationBatch.of(decisions)))
    assert again.act_batch(ObservationBatch.of(decisions)) == mixture(members).act_batch(ObservationBatch.of(decisions))


def test_it_plays_a_match_in_worker_processes_with_aivat(members) -> None:
    spec = {"type": "mixture", "members": members, "seed": 1}
    one = match(spec, "calling_station", deals=8, seed=2, workers=1, aivat=True, table={"stacks": 200})
    two = match(spec, "calling_station", deals=8, seed=2, workers=2, aivat=True, table={"stacks": 200})
    assert one.hands == two.hands == 16 and one.bb_per_100 == two.bb_per_100
    assert one.aivat_bb_per_100 == two.aivat_bb_per_100


def test_lbr_keeps_the_seventh_card_apart_for_a_mixture(members) -> None:
    lbr = LocalBestResponse({"type": "mixture", "members": members}, stacks=200, samples=16)
    assert lbr._ordered
    assert not LocalBestResponse(members[0], stacks=200, samples=16)._ordered
    result = match({"type": "lbr", "target": {"type": "mixture", "members": members}, "stacks": 200, "samples": 16},
                   {"type": "mixture", "members": members, "seed": 1}, deals=3, seed=4, workers=1,
                   table={"stacks": 200}, decision_timeout=60.0)
    assert result.hands == 6


@pytest.mark.parametrize(("options", "problem"), [
    ({"members": []}, "members: expected a list of one or more agent specs"),
    ({"members": "razz_heuristic"}, "members: expected a list"),
    ({"members": ["razz_heuristic", "random"], "weights": [1]}, "weights: expected 2 finite numbers"),
    ({"members": ["razz_heuristic", "random"], "weights": [0, 0]}, "not all 0"),
    ({"members": ["razz_heuristic", "random"], "weights": [1, -1]}, "at least 0"),
    ({"members": ["razz_heuristic"]}, "no member declares the table it plays, so give the mixture's table"),
    ({"members": ["razz_heuristic"], "table": {"varaint": "razz"}}, "unknown key"),
])
def test_bad_specs_are_named(options, problem) -> None:
    with pytest.raises(ConfigError, match=problem):
        make_agent({"type": "mixture", **options})


def test_members_of_other_tables_or_without_a_policy_are_refused(members) -> None:
    with pytest.raises(ConfigError, match="different tables"):
        make_agent({"type": "mixture", "members": members, "table": {"stacks": 1000}})
    with pytest.raises(ConfigError, match="member 'silent' states no policy"):
        make_agent({"type": "mixture", "members": [members[0], Silent()]})


class Silent(BaseAgent):
    """Plays, but states no policy."""

    name = "silent"

    def act(self, observation) -> int:
        return self.passive(observation)


def test_a_table_with_open_folds_needs_the_option(members) -> None:
    agent = mixture(members)
    hand = HandState(CONFIG, seed=1)
    while not hand.is_over and "check" not in [a.name.lower() for a in hand.legal_actions()]:
        hand.act(hand.legal_actions()[-2] if len(hand.legal_actions()) > 1 else hand.legal_actions()[0])
    assert not hand.is_over
    observation = Observer(agent, CONFIG, allow_open_fold=True)(hand, hand.actor)
    with pytest.raises(ValueError, match="allows open folds needs the mixture's allow_open_fold to be True"):
        agent.action_probabilities(observation)
    opened = mixture(members, allow_open_fold=True)
    assert opened.action_probabilities(observation)[0] >= 0
