"""Local best response: exact Bayes range updates (checked by brute force), its decision rule, and known answers."""

from __future__ import annotations

import atexit
import os
import random
from collections import Counter
from itertools import combinations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from razz_env.agents.base import BaseAgent
from razz_env.agents.lbr import LocalBestResponse, OpponentRange, _showdown_value
from razz_env.agents.registry import make_agent, register
from razz_env.encoding import make_encoder
from razz_env.encoding.actions import BET_RAISE, BRING_IN, CHECK_CALL, ENGINE_TO_ID, FOLD, NUM_ACTIONS, to_engine
from razz_env.encoding.interface import Declaration, Observation, Observer, observe
from razz_env.engine.cards import parse_cards
from razz_env.engine.config import HandConfig
from razz_env.engine.dealing import deck_for
from razz_env.engine.equity import range_equity
from razz_env.engine.state import HandState
from razz_env.engine.view import SeatView
from razz_env.evaluate.block_sums import summarise_tables
from razz_env.evaluate.blocks import play_deals

CONFIG = HandConfig.create("razz", num_seats=2, stacks=1000)


def _mixed(observation: Observation, strength: float) -> np.ndarray:
    """A policy over the legal ids that leans aggressive with ``strength`` (0-1) and never zero on a legal id."""
    mask = observation.action_mask.astype(float)
    weights = np.array([1.2 - strength, 1.0, 0.2 + strength, 0.8, 0.3 + strength]) * mask
    return weights / weights.sum()


class _Stated(BaseAgent):
    """Acts by drawing from its own ``action_probabilities`` (a seeded draw)."""


    def __init__(self, seed: int | None = None) -> None:
        super().__init__()
        self.rng = random.Random(seed)

    def act(self, observation: Observation) -> int:
        probabilities = self.action_probabilities(observation)
        return self.rng.choices(range(NUM_ACTIONS), weights=probabilities.tolist())[0]


@register("lbr_test_view_policy", replace=True)
class ViewPolicy(_Stated):
    """Reads its down cards from the view: lower ranks play more aggressively."""

    name = "view_policy"
    declaration = Declaration(observes=("view",), states_policy=True)

    def action_probabilities(self, observation: Observation) -> np.ndarray:
        ranks = [c >> 2 for c in observation.view.own_down]
        return _mixed(observation, 1 - sum(ranks) / (12 * len(ranks)))


@register("lbr_test_vector_policy", replace=True)
class VectorPolicy(_Stated):
    """Reads its down cards from the flat vector's ``own_down`` slice: suits matter too."""

    name = "vector_policy"
    declaration = Declaration(observes=("vector",), encoding="flat", states_policy=True)

    def __init__(self, seed: int | None = None) -> None:
        super().__init__(seed)
        self.down = make_encoder("flat", CONFIG).layout.slices["own_down"]

    def action_probabilities(self, observation: Observation) -> np.ndarray:
        cards = np.flatnonzero(observation.vector[self.down])
        return _mixed(observation, float(np.mean((51 - cards) / 51) * 0.7 + 0.3 * np.mean(cards % 4 == 0)))


@register("lbr_test_station", replace=True)
class StatedStation(BaseAgent):
    """The calling station, stating its (one-hot) policy."""

    name = "station"
    declaration = Declaration(observes=(), states_policy=True)

    def act(self, observation: Observation) -> int:
        return self.first_legal(observation, (CHECK_CALL, BRING_IN))

    def action_probabilities(self, observation: Observation) -> np.ndarray:
        out = np.zeros(NUM_ACTIONS)
        out[self.first_legal(observation, (CHECK_CALL, BRING_IN))] = 1.0
        return out


@register("lbr_test_uniform", replace=True)
class StatedRandom(BaseAgent):
    """Uniform over the legal ids, stating it."""

    name = "uniform"
    declaration = Declaration(observes=(), states_policy=True)

    def __init__(self, seed: int | None = None) -> None:
        super().__init__()
        self.rng = random.Random(seed)

    def act(self, observation: Observation) -> int:
        return self.rng.choice(self.legal_ids(observation))

    def action_probabilities(self, observation: Observation) -> np.ndarray:
        return observation.action_mask / observation.action_mask.sum()


@register("lbr_test_liar", replace=True)
class Liar(StatedStation):
    """Says it only checks and calls, but raises whenever it can: its actions are off its stated policy."""

    name = "liar"

    def act(self, observation: Observation) -> int:
        return self.first_legal(observation, (BET_RAISE, CHECK_CALL, BRING_IN))


class SimpleBestResponse(BaseAgent):
    """The known best response to a calling station: bet or raise when ahead in equity against the (uniform) range,
    call when the pot odds pay, else fold (the station never bets, so its range carries no information)."""

    name = "simple_br"
    declaration = Declaration(observes=("view",))

    def act(self, observation: Observation) -> int:
        view = observation.view
        own = view.own_down + view.own_up
        up = view.up_cards[1 - view.seat]
        free = [c for c in range(52) if c not in set(own + up)]
        size = 3 if view.street == 7 else 2
        holdings = np.array(list(combinations(free, size)))
        share = range_equity(own, up, holdings, variant=view.variant, max_outcomes=250_000, samples=1000,
                             seed=len(view.history)).equity
        if share > 0.5:
            return self.first_legal(observation, (BET_RAISE, CHECK_CALL, BRING_IN))
        if view.to_call and share < view.to_call / (view.pot + view.to_call):
            return FOLD
        return self.first_legal(observation, (CHECK_CALL, BRING_IN))


def _play_until(deck: list[int], opponent, stop: int) -> tuple[HandState, Observation]:
    """A hand from ``deck``: seat 0 checks and calls, seat 1 is ``opponent``; stops at seat 0's decision after it
    made ``stop`` of them, returning the hand and seat 0's observation there."""
    hand = HandState(CONFIG, deck=deck)
    driver = StatedStation()
    observer = Observer(opponent, CONFIG)
    opponent.reset(1, 2, "razz")
    decided = 0
    while not hand.is_over:
        if hand.actor == 0:
            observation = observe(hand, 0)
            if decided == stop:
                return hand, observation
            decided += 1
            hand.act(to_engine(driver.act(observation), hand.legal_actions()))
        else:
            hand.act(to_engine(opponent.act(observer(hand, 1)), hand.legal_actions()))
    raise AssertionError(f"the hand ended before seat 0's decision {stop}")


def _range(target: str, observation: Observation) -> tuple[np.ndarray, np.ndarray]:
    lbr = LocalBestResponse(target, seed=1)
    lbr.reset(0, 2, "razz")
    return lbr.opponent_range(observation)


def _brute_force_weights(hand: HandState, target, holdings: list[tuple[int, ...]]) -> list[float]:
    """Each holding's probability of the opponent's actions in ``hand`` so far, multiplying the target's stated
    probabilities on real hands dealt with that holding (a HandState per holding, its observation built by Observer)."""
    observer = Observer(target, CONFIG)
    out = []
    for holding in holdings:
        cards = [list(c) for c in hand.cards]
        cards[1] = [holding[0], holding[1], *hand.cards[1][2:6], *holding[2:]]
        replay = HandState(CONFIG, cards=cards)
        likelihood = 1.0
        for entry in hand.history:
            if entry.seat == 1:
                probabilities = target.action_probabilities(observer(replay, 1))
                likelihood *= probabilities[ENGINE_TO_ID[entry.action]]
            replay.act(entry.action)
        out.append(likelihood)
    return out


@pytest.mark.parametrize("target", ["lbr_test_view_policy", "lbr_test_vector_policy"])
@pytest.mark.parametrize("stop", [2, 4])
def test_range_is_exact_bayes_over_pairs(target: str, stop: int) -> None:
    """Every pair's probability is the product of the target's probabilities of its actions, normalised."""
    deck = deck_for(["9c Kd 2s 5h 3d 8h", "As 3c 4s 7h 6d Tc"])
    hand, observation = _play_until(deck, make_agent(target, seed=7), stop)
    assert sum(entry.seat == 1 for entry in hand.history) >= 2 and hand.street < 7
    holdings, weights = _range(target, observation)
    seen = set(hand.cards[0]) | set(hand.cards[1][2:6])
    every = list(combinations([c for c in range(52) if c not in seen], 2))
    brute = np.array(_brute_force_weights(hand, make_agent(target), every))
    found = {tuple(h): w for h, w in zip(holdings.tolist(), weights)}
    assert set(found) == {h for h, b in zip(every, brute) if b > 0}
    assert [found[h] for h in every] == pytest.approx((brute / brute.sum()).tolist(), rel=1e-9, abs=1e-15)


@pytest.mark.parametrize("target", ["lbr_test_view_policy", "lbr_test_vector_policy"])
def test_range_is_exact_bayes_over_triples_on_seventh_street(target: str) -> None:
    """After the 7th-street down card the range is over triples; each is checked (on a sample) against brute force,
    and every unseen triple is in it (the policies never give a legal id probability 0)."""
    deck = deck_for(["9c Kd Tc 7h 6d 4s Qd", "As 3c 2s 5h 3d 8h 2h"])
    stop = 0
    hand, observation = _play_until(deck, make_agent(target, seed=11), stop)
    while hand.street < 7:
        stop += 1
        hand, observation = _play_until(deck, make_agent(target, seed=11), stop)
    assert any(e.street == 7 and e.seat == 1 for e in hand.history)
    holdings, weights = _range(target, observation)
    seen = set(hand.cards[0]) | set(hand.cards[1][2:6])
    free = [c for c in range(52) if c not in seen]
    assert len(holdings) == len(list(combinations(free, 3)))
    found = {tuple(h): w for h, w in zip(holdings.tolist(), weights)}
    sample = random.Random(3).sample(sorted(found), 120)
    brute = _brute_force_set_weights(hand, make_agent(target), sample)
    ratio = np.array([found[h] for h in sample]) / brute
    assert ratio == pytest.approx(np.full(len(sample), ratio[0]), rel=1e-9)


def _brute_force_set_weights(hand: HandState, target, triples: list[tuple[int, ...]]) -> np.ndarray:
    """A set of three down cards: the sum over which of its cards came on 7th street (each equally likely)."""
    out = []
    for triple in triples:
        orders = [(a, b, c) for c in triple for a, b in [tuple(x for x in triple if x != c)]]
        out.append(sum(_brute_force_weights(hand, target, orders)))
    return np.array(out)


def test_suit_blind_asks_once_per_rank_multiset_and_is_exact_for_a_policy_that_ignores_suits() -> None:
    """The view policy reads ranks only: asking one holding per rank multiset gives the exact range, with fewer
    observations; the vector policy reads suits, so there it is an approximation (the ranges differ)."""
    deck = deck_for(["9c Kd 2s 5h 3d 8h", "As 3c 4s 7h 6d Tc"])
    for target, same in (("lbr_test_view_policy", True), ("lbr_test_vector_policy", False)):
        hand, observation = _play_until(deck, make_agent(target, seed=7), 4)
        exact = _range(target, observation)
        blind = LocalBestResponse(target, seed=1, suit_blind=True)
        blind.reset(0, 2, "razz")
        asked: list[Observation] = []
        original = blind.target.action_probabilities
        blind.target.action_probabilities = lambda o, asked=asked, original=original: asked.append(o) or original(o)
        holdings, weights = blind.opponent_range(observation)
        assert np.array_equal(holdings, exact[0])
        assert np.allclose(weights, exact[1], rtol=1e-9, atol=1e-15) == same
        decisions = sum(entry.seat == 1 for entry in hand.history)
        assert 0 < len(asked) <= decisions * 91
    with pytest.raises(ValueError, match="suit_blind: suits matter in stud"):
        LocalBestResponse("lbr_test_view_policy", suit_blind=True).reset(0, 2, "stud")


def test_an_action_off_the_stated_policy_leaves_the_range_as_it_was() -> None:
    """A target that says it only calls but raises: the raise has probability 0 for every holding, so LBR skips
    that update (the range stays as before it), counts it, and plays on legally."""
    deck = deck_for(["9c Kd 2s 5h 3d 8h Qd", "As 3c 4s 7h 6d Tc 2h"])
    hand, observation = _play_until(deck, Liar(), 2)
    assert any(entry.seat == 1 and ENGINE_TO_ID[entry.action] == BET_RAISE for entry in hand.history)
    lbr = LocalBestResponse("lbr_test_liar", seed=1)
    lbr.reset(0, 2, "razz")
    holdings, weights = lbr.opponent_range(observation)
    seen = set(observation.view.own_down + observation.view.own_up + observation.view.up_cards[1])
    assert len(holdings) == len(list(combinations([c for c in range(52) if c not in seen], 2)))
    assert np.allclose(weights, 1 / len(holdings))
    assert lbr.off_policy_actions >= 1
    tables = play_deals([LocalBestResponse("lbr_test_liar", seed=2), Liar()], CONFIG, 6, "liar", True, 60.0)
    assert all(t.hand.is_over for t in tables)


def test_a_range_the_cards_rule_out_starts_over_uniform() -> None:
    """Card removal that leaves no holding (the opponent played off the target's policy) restarts the range."""
    state = OpponentRange(np.array([[0, 1], [0, 2]]), np.array([0.5, 0.5]), 0, (), (), ())
    assert state.remove_cards([1]) and state.holdings.tolist() == [[0, 2]] and state.weights.tolist() == [1.0]
    assert not state.remove_cards([0, 5])
    assert len(state.holdings) == len(list(combinations(range(50), 2)))
    assert not {0, 5} & set(state.holdings.ravel().tolist()) and np.allclose(state.weights, 1 / len(state.holdings))


def test_an_ordered_range_keeps_the_seventh_card_apart() -> None:
    """For a target that reads the order of its down cards, a pair and its 7th card stay one holding each ((a, b)
    then c is not (a, c) then b), weighted as the pair's weight over the cards it may draw; a set range merges
    them; a range that starts over on 7th street holds every pair and 7th card."""
    pairs, weights = np.array([[0, 1], [0, 2], [1, 2]]), np.array([0.5, 0.25, 0.25])
    sets = OpponentRange(pairs, weights, 0, (), (), ())
    ordered = OpponentRange(pairs, weights, 0, (), (), (), ordered=True)
    seen = list(range(4, 52))  # cards 0-3 unseen: each pair draws one of the two others
    sets.add_seventh(seen)
    ordered.add_seventh(seen)
    assert sorted(map(tuple, sets.holdings.tolist())) == [(0, 1, 2), (0, 1, 3), (0, 2, 3), (1, 2, 3)]
    assert dict(zip(map(tuple, ordered.holdings.tolist()), ordered.weights.tolist())) == {
        (0, 1, 2): 0.25, (0, 1, 3): 0.25, (0, 2, 1): 0.125, (0, 2, 3): 0.125, (1, 2, 0): 0.125, (1, 2, 3): 0.125}
    again = OpponentRange(np.array([[0, 1, 2]]), np.array([1.0]), 0, (), (), (), ordered=True)
    assert not again.remove_cards([0, *range(5, 52)])  # nothing left: it starts over, cards 1-4 unseen
    assert sorted(map(tuple, again.holdings.tolist())) == [(1, 2, 3), (1, 2, 4), (1, 3, 2), (1, 3, 4), (1, 4, 2),
                                                            (1, 4, 3), (2, 3, 1), (2, 3, 4), (2, 4, 1), (2, 4, 3),
                                                            (3, 4, 1), (3, 4, 2)]


def test_plays_an_opponent_that_is_not_its_target(monkeypatch) -> None:
    """LBR to the heuristic against a calling station (as in a training pool): the station's calls rule out the
    heuristic's holdings, the range starts over, and every hand is played out; it used to fail on an empty range
    (within these ten deals of seed "x")."""
    emptied = []
    remove_cards = OpponentRange.remove_cards

    def counted(state: OpponentRange, seen) -> bool:
        kept = remove_cards(state, seen)
        if not kept:
            emptied.append(tuple(seen))
        return kept

    monkeypatch.setattr(OpponentRange, "remove_cards", counted)
    lbr = LocalBestResponse("razz_heuristic", seed=1, suit_blind=True, samples=64)
    tables = play_deals([lbr, make_agent("calling_station")], CONFIG, 10, "x", True, 600.0)
    assert all(t.hand.is_over for t in tables) and sum(t.hand.payoffs[0] + t.hand.payoffs[1] for t in tables) == 0
    assert emptied, "these deals no longer empty the range: pick a seed that does"
    assert lbr.off_policy_actions >= len(emptied)


def test_showdown_value_counts_chips_matched_returned_and_put_in() -> None:
    """Both match the highest contribution as far as their stacks allow; the unmatched excess comes back."""
    assert _showdown_value([10, 10], [90, 90], 0, 5, np.array([0.5]))[0] == pytest.approx(10 - 5)
    assert _showdown_value([20, 10], [80, 90], 0, 10, np.array([1.0]))[0] == pytest.approx(40 - 10)
    short = _showdown_value([30, 14], [70, 0], 0, 10, np.array([1.0, 0.0]))
    assert short.tolist() == [28 + 16 - 20, 0 + 16 - 20]


def _spot(deck: list[int], actions: list[str]) -> HandState:
    hand = HandState(CONFIG, deck=deck)
    for action in actions:
        hand.act(action)
    return hand


def test_bets_the_nuts_into_a_station_and_folds_air_to_a_bet_it_cannot_call() -> None:
    """7th street against a station that always calls: a lock bets; drawing dead facing a bet folds."""
    lbr = LocalBestResponse("lbr_test_station", seed=0)
    lbr.reset(0, 2, "razz")
    deck = deck_for(["As 2s 3s 4s 5s Kc Kd", "Qc Qd 6c 7c 8c 9c Ts"])
    hand = _spot(deck, ["bring_in", "call"] + ["check", "check"] * 3 + ["check"])
    assert hand.street == 7 and hand.actor == 0
    assert lbr.act(observe(hand, 0)) == BET_RAISE
    deck = deck_for(["Kc Kd Qs Qh Js Jc Jd", "As 2s 3c 4c 5c 9c Ts"])
    hand = _spot(deck, ["complete", "call"] + ["bet", "call"] * 3 + ["bet"])
    assert hand.street == 7 and hand.actor == 0 and hand.to_call
    assert lbr.act(observe(hand, 0)) == FOLD


@register("lbr_test_folder", replace=True)
class Folder(StatedStation):
    """Folds to any bet or raise, else checks (or brings in): every raise against it wins the pot."""

    name = "folder"

    def action_probabilities(self, observation: Observation) -> np.ndarray:
        out = np.zeros(NUM_ACTIONS)
        out[self.first_legal(observation, (FOLD, CHECK_CALL, BRING_IN))] = 1.0
        return out


def _with_equity(monkeypatch: pytest.MonkeyPatch, share: float) -> None:
    """LBR's equity against every holding is ``share``."""
    import razz_env.agents.lbr as lbr_module
    from razz_env.engine.equity import RangeEquity

    def fixed(hero, up, holdings, weights, *args, **kwargs) -> RangeEquity:
        return RangeEquity(share, np.full(len(holdings), share), "ranks", 1, 1)

    monkeypatch.setattr(lbr_module, "range_equity", fixed)


@pytest.mark.parametrize(("share", "expected"), [(0.11, FOLD), (0.13, CHECK_CALL), (0.49, CHECK_CALL),
                                                 (0.51, BET_RAISE)])
def test_facing_a_bet_the_choice_follows_pot_odds_and_the_value_of_a_called_raise(monkeypatch, share, expected):
    """7th street, a bet of 10 into 72 against a station: calling is worth 82 E - 10 (call when E > 10/82), a raise
    the station calls adds 10 (2E - 1) to that (raise when E > 1/2)."""
    deck = deck_for(["Kc Kd Qs Qh Js Jc Jd", "As 2s 3c 4c 5c 9c Ts"])
    hand = _spot(deck, ["complete", "call"] + ["bet", "call"] * 3 + ["bet"])
    assert hand.street == 7 and hand.actor == 0 and hand.to_call == 10 and hand.pot == 72
    lbr = LocalBestResponse("lbr_test_station", seed=0)
    lbr.reset(0, 2, "razz")
    _with_equity(monkeypatch, share)
    assert lbr.act(observe(hand, 0)) == expected


@pytest.mark.parametrize(("share", "expected"), [(0.49, BRING_IN), (0.51, BET_RAISE)])
def test_the_bring_in_completes_exactly_when_a_called_completion_pays(monkeypatch, share, expected):
    """Bring in (2) or complete (5) against a station: completing adds 3 that the station calls, worth 3 (2E - 1)."""
    hand = HandState(CONFIG, deck=deck_for(["Js Qs Kh", "3d 4d Qc"]))
    assert hand.actor == 0
    lbr = LocalBestResponse("lbr_test_station", seed=0)
    lbr.reset(0, 2, "razz")
    _with_equity(monkeypatch, share)
    assert lbr.act(observe(hand, 0)) == expected


def test_a_raise_is_worth_the_pot_against_an_opponent_who_folds_to_it(monkeypatch):
    """Drawing dead (E = 0) against a target that folds to every bet: betting wins the pot, checking wins nothing."""
    deck = deck_for(["Kc Kd Qs Qh Js Jc Jd", "As 2s 3c 4c 5c 9c Ts"])
    hand = _spot(deck, ["complete", "call"] + ["check", "check"] * 3 + ["check"])
    assert hand.street == 7 and hand.actor == 0 and hand.to_call == 0
    for target, expected in (("lbr_test_folder", BET_RAISE), ("lbr_test_station", CHECK_CALL)):
        lbr = LocalBestResponse(target, seed=0)
        lbr.reset(0, 2, "razz")
        _with_equity(monkeypatch, 0.0)
        assert lbr.act(observe(hand, 0)) == expected


def test_bring_in_or_complete_follows_the_equity() -> None:
    """As the bring-in against a station: complete with a strong start (equity above one half), else bring in."""
    lbr = LocalBestResponse("lbr_test_station", seed=0)
    lbr.reset(0, 2, "razz")
    strong = HandState(CONFIG, deck=deck_for(["As 2s Kh", "3d 4d Qc"]))
    assert strong.actor == 0 and lbr.act(observe(strong, 0)) == BET_RAISE
    weak = HandState(CONFIG, deck=deck_for(["Js Qs Kh", "3d 4d Qc"]))
    assert weak.actor == 0 and lbr.act(observe(weak, 0)) == BRING_IN


def _match(first, second, deals: int, seed: str, variant: str = "razz") -> tuple[float, float]:
    """bb/100 of ``first`` over duplicate deals and its standard error."""
    config = HandConfig.create(variant, num_seats=2, stacks=1000)
    tables = play_deals([first, second], config, deals, seed, True, 600.0)
    sums = summarise_tables(tables, 2, deals, config.stakes.big_bet_size)
    mean = sums["deal_sum"][0] / deals
    sd = np.sqrt(max(sums["deal_sumsq"][0] / deals - mean * mean, 0) * deals / (deals - 1))
    return 100 * mean, 100 * sd / np.sqrt(deals)


@pytest.mark.parametrize(("deals", "floor"), [(8, 0.0), pytest.param(150, 70.0, marks=pytest.mark.slow)])
def test_wins_at_least_what_the_simple_best_response_wins_against_the_station(deals: int, floor: float) -> None:
    """Against a calling station, LBR (its raises valued with fold probability 0) wins at least what betting when
    ahead and calling on pot odds wins, over the same duplicate deals (up to sampling noise in the equities:
    150 deals gave 101.1 and 101.1 bb/100)."""
    lbr, _ = _match(LocalBestResponse("lbr_test_station", seed=3), StatedStation(), deals, "br")
    simple, _ = _match(SimpleBestResponse(), StatedStation(), deals, "br")
    assert lbr >= simple - 2.0
    assert lbr > floor


def test_beats_uniform_random_by_a_wide_margin() -> None:
    won, error = _match(LocalBestResponse("lbr_test_uniform", seed=3), StatedRandom(seed=4), 40, "random")
    assert won > 80 and won - 3 * error > 20


@pytest.mark.parametrize("variant", ["action_razz", "stud", "stud8"])
def test_plays_every_variant_legally(variant: str) -> None:
    lbr = LocalBestResponse("lbr_test_uniform", seed=1, samples=100)
    config = HandConfig.create(variant, num_seats=2, stacks=1000)
    tables = play_deals([lbr, StatedRandom(seed=2)], config, 3, variant, True, 600.0)
    assert all(t.hand.is_over for t in tables) and sum(t.hand.payoffs[0] + t.hand.payoffs[1] for t in tables) == 0


def _passive_until_seat_zero(hand: HandState, decisions: int) -> HandState:
    """Both seats check, call or bring in for ``decisions`` decisions, then on until seat 0 is to act."""
    for _ in range(decisions):
        if hand.is_over:
            return hand
        hand.act(next(a for a in hand.legal_actions() if str(a) in ("check", "call", "bring_in")))
    while not hand.is_over and hand.actor != 0:
        hand.act(next(a for a in hand.legal_actions() if str(a) in ("check", "call", "bring_in")))
    return hand


def test_decisions_depend_only_on_the_seed_and_the_observation() -> None:
    """The same tables in another order or one at a time (no cached range) give the same decisions."""
    hands = [_passive_until_seat_zero(HandState(CONFIG, seed=s), s % 5) for s in range(8)]
    observations = [observe(h, 0) for h in hands if not h.is_over]
    assert len(observations) >= 5
    together = LocalBestResponse("lbr_test_view_policy", seed=5).act_batch(observations)
    backwards = LocalBestResponse("lbr_test_view_policy", seed=5).act_batch(observations[::-1])[::-1]
    alone = [LocalBestResponse("lbr_test_view_policy", seed=5).act(o) for o in observations]
    assert together == backwards == alone


def _has_gpu() -> bool:
    """Whether torch sees a GPU here (False without torch)."""
    try:
        import torch
    except ImportError:
        return False
    return torch.cuda.is_available()


@pytest.mark.parametrize(("build", "message"), [
    (lambda: LocalBestResponse("calling_station_without_policy"), "unknown agent"),
    (lambda: LocalBestResponse("lbr_test_station", samples=1), "samples: must be at least 2, got 1"),
    (lambda: LocalBestResponse("lbr_test_station", samples=10**10), "samples: must be at most 1000000000"),
    (lambda: LocalBestResponse("lbr_test_station", samples=10**6), r"samples: 1,000,000 runouts of [\d,]+ holdings "
                                                                    r"would hold about [\d,]+ GiB at once"),
    (lambda: LocalBestResponse("lbr_test_station", ante=-1), "ante"),
    (lambda: LocalBestResponse("lbr_test_station", device="tpu"), "device, dtype: expected one of auto, cpu, cuda"),
    (lambda: LocalBestResponse("lbr_test_station", dtype="float16"), "and one of float32, float64, got 'auto' and"),
    pytest.param(lambda: LocalBestResponse("lbr_test_station", device="cuda"), "device: 'cuda', but torch sees no GPU",
                 marks=pytest.mark.skipif(_has_gpu(), reason="a GPU is here")),
])
def test_bad_setups_are_refused_with_a_message(build, message: str) -> None:
    with pytest.raises((ValueError, KeyError), match=message):
        build()


def test_a_target_without_a_policy_is_refused() -> None:
    @register("lbr_test_silent", replace=True)
    class Silent(BaseAgent):
        declaration = Declaration()
        def act(self, observation: Observation) -> int:
            return self.first_legal(observation, (CHECK_CALL, BRING_IN))

    with pytest.raises(ValueError, match="states no policy"):
        LocalBestResponse("lbr_test_silent")


def test_tables_it_cannot_play_are_refused() -> None:
    lbr = LocalBestResponse("lbr_test_station")
    with pytest.raises(ValueError, match="cannot be seated"):
        lbr.reset(0, 3, "razz")
    other_stakes = HandConfig.create("razz", num_seats=2, stacks=1000, ante=2)
    hand = HandState(other_stakes, seed=1)
    if hand.actor != 0:
        hand.act(hand.legal_actions()[0])
    lbr.reset(0, 2, "razz")
    with pytest.raises(ValueError, match="give lbr the table's stakes"):
        lbr.act(observe(hand, 0))


def test_a_target_whose_probabilities_are_not_a_policy_is_named() -> None:
    @register("lbr_test_broken", replace=True)
    class Broken(StatedStation):
        name = "broken"

        def action_probabilities(self, observation: Observation) -> np.ndarray:
            return np.full(NUM_ACTIONS, 0.5)

    hand = HandState(CONFIG, deck=deck_for(["As 2s Kh", "3d 4d Qc"]))
    lbr = LocalBestResponse("lbr_test_broken")
    lbr.reset(0, 2, "razz")
    with pytest.raises(ValueError, match="'broken': action_probabilities gave .* not a distribution"):
        lbr.act(observe(hand, 0))


def test_cards_of_the_other_seat_never_reach_lbr() -> None:
    """LBR decides from its observation alone: other opponent down cards give the same range and action, and the
    range holds the opponent's real cards but none LBR can see."""
    first = HandState(CONFIG, deck=deck_for(["As 2s Kh", "3d 4d Qc"]))
    second = HandState(CONFIG, deck=deck_for(["As 2s Kh", "Jd Td Qc"]))
    lbr = LocalBestResponse("lbr_test_view_policy", seed=2)
    lbr.reset(0, 2, "razz")
    assert lbr.act(observe(first, 0)) == lbr.act(observe(second, 0))
    holdings, weights = lbr.opponent_range(observe(first, 0))
    other_holdings, other_weights = lbr.opponent_range(observe(second, 0))
    assert np.array_equal(holdings, other_holdings) and np.array_equal(weights, other_weights)
    pairs = {tuple(h) for h in holdings.tolist()}
    assert tuple(sorted(parse_cards("3d 4d"))) in pairs and tuple(sorted(parse_cards("Jd Td"))) in pairs
    assert not set(holdings.ravel().tolist()) & set(parse_cards("As 2s Kh Qc"))


# RAZZ_FUZZ_EXAMPLES=300 pytest tests/agents/test_lbr.py -n 0 -s -k fuzz prints the figures.
FUZZ_EXAMPLES = int(os.environ.get("RAZZ_FUZZ_EXAMPLES", "12"))
FIGURES: Counter = Counter()
if os.environ.get("RAZZ_FUZZ_EXAMPLES"):
    atexit.register(lambda: print("\nlbr fuzz figures:", dict(sorted(FIGURES.items()))))


@settings(max_examples=FUZZ_EXAMPLES, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), variant=st.sampled_from(["razz", "action_razz", "stud", "stud8"]),
       moves=st.lists(st.integers(0, 9), min_size=8, max_size=30))
def test_fuzz_lbr_acts_legally_with_a_proper_range_in_any_state(seed, variant, moves):
    """Random hands of every variant, random (legal) play by both seats (a fold one move in ten): at each of seat 0's
    decisions LBR picks a legal id and its range is a distribution over holdings of cards it cannot see."""
    config = HandConfig.create(variant, num_seats=2, stacks=1000)
    hand = HandState(config, seed=seed)
    lbr = LocalBestResponse("lbr_test_uniform", seed=seed, samples=64)
    lbr.reset(0, 2, variant)
    for move in moves:
        if hand.is_over:
            break
        observation = observe(hand, hand.actor)
        legal = np.flatnonzero(observation.action_mask)
        if hand.actor == 0:
            chosen = lbr.act(observation)
            assert observation.action_mask[chosen] == 1
            holdings, weights = lbr.opponent_range(observation)
            view = observation.view
            assert weights.sum() == pytest.approx(1.0) and (weights > 0).all()
            assert holdings.shape[1] == (3 if view.street == 7 else 2)
            assert not set(holdings.ravel().tolist()) & set(view.own_down + view.own_up + view.up_cards[1])
            FIGURES[f"decisions on street {view.street}"] += 1
        playing = [a for a in legal if a != FOLD] or list(legal)
        chosen_id = FOLD if move == 0 and FOLD in legal else playing[move % len(playing)]
        hand.act(to_engine(int(chosen_id), hand.legal_actions()))
    FIGURES["hands"] += 1


def test_a_targets_varied_fast_path_gives_the_same_range(monkeypatch) -> None:
    """Against an SB3 agent the range update goes through ``action_probabilities_varied_batch``; it equals the slow
    path."""
    from razz_env.agents.sb3_agent import SB3Agent

    deck = deck_for(["9c Kd 2s 5h 3d 8h", "As 3c 4s 7h 6d Tc"])
    hand, observation = _play_until(deck, make_agent("ppo_razz"), 3)
    assert sum(entry.seat == 1 for entry in hand.history) >= 2
    calls = []
    varied = SB3Agent.action_probabilities_varied_batch
    monkeypatch.setattr(SB3Agent, "action_probabilities_varied_batch",
                        lambda *a, **k: calls.append(1) or varied(*a, **k))
    fast_holdings, fast_weights = _range("ppo_razz", observation)
    assert calls, "LBR did not use the target's varied fast path"
    monkeypatch.delattr(SB3Agent, "action_probabilities_varied_batch")
    slow_holdings, slow_weights = _range("ppo_razz", observation)
    np.testing.assert_array_equal(fast_holdings, slow_holdings)
    np.testing.assert_allclose(fast_weights, slow_weights, rtol=1e-9)


class _Recorder:
    """Wraps an LBR: every ``act_batch`` call's observations, the ids it gave, and each table's range after it."""

    def __init__(self, lbr: LocalBestResponse) -> None:
        self.lbr, self.name, self.declaration = lbr, lbr.name, lbr.declaration
        self.calls: list[tuple[list[Observation], list[int], list[tuple[np.ndarray, np.ndarray]]]] = []

    def reset(self, seat: int, num_seats: int, variant: str) -> None:
        self.lbr.reset(seat, num_seats, variant)

    def act(self, observation: Observation) -> int:
        return self.act_batch([observation])[0]

    def act_batch(self, observations) -> list[int]:
        observations = list(observations)
        ids = self.lbr.act_batch(observations)
        self.calls.append((observations, ids, [_kept_range(self.lbr, o) for o in observations]))
        return ids


def _kept_range(lbr: LocalBestResponse, observation: Observation) -> tuple[np.ndarray, np.ndarray]:
    """The range LBR keeps for the hand of ``observation`` (empty when it had one legal id and kept none)."""
    view = observation.view
    key = (view.seat, view.own_down[:2], view.own_up[:1], view.up_cards[1 - view.seat][:1])
    state = lbr._ranges.get(key)
    return (np.zeros((0, 2), dtype=np.int64), np.zeros(0)) if state is None else (state.holdings, state.weights)


@pytest.mark.parametrize(("target", "variant", "deals"), [
    ("lbr_test_view_policy", "razz", 6), ("lbr_test_vector_policy", "stud", 3), ("razz_heuristic", "razz", 4),
    ("ppo_razz", "razz", 4), ("lbr_test_view_policy", "action_razz", 3),
])
def test_batched_decisions_equal_one_at_a_time_on_the_same_deals(target: str, variant: str, deals: int) -> None:
    """LBR across every table at once (lockstep blocks) gives, decision for decision, the ids, ranges and counters
    of a fresh LBR deciding the same observations one at a time."""
    config = HandConfig.create(variant, num_seats=2, stacks=1000)
    batched = _Recorder(LocalBestResponse(target, seed=4, samples=200))
    play_deals([batched, make_agent(target, seed=5)], config, deals, "same", True, 600.0)
    alone = LocalBestResponse(target, seed=4, samples=200)
    alone.reset(0, 2, variant)
    asked = 0
    for observations, ids, ranges in batched.calls:
        for observation, expected, (holdings, weights) in zip(observations, ids, ranges):
            assert alone.act(observation) == expected
            mine = _kept_range(alone, observation)
            np.testing.assert_array_equal(mine[0], holdings)
            np.testing.assert_allclose(mine[1], weights, rtol=1e-9, atol=1e-12)
            asked += 1
    assert asked > 10 * deals // 3
    assert alone.counters() == batched.lbr.counters()
    assert batched.lbr.counters()["target_actions"] > 0


class _Counting(BaseAgent):
    """A suit-aware vector policy that records every observation it is asked about."""

    name = "counting"
    declaration = Declaration(observes=("vector",), encoding="flat", states_policy=True, acts_in_batch=True)

    def __init__(self, seed: int | None = None) -> None:
        super().__init__()
        self.inner = VectorPolicy(seed)
        self.asked: list[bytes] = []

    def act(self, observation: Observation) -> int:
        return self.inner.act(observation)

    def act_batch(self, observations) -> list[int]:
        return [self.act(o) for o in observations]

    def action_probabilities(self, observation: Observation) -> np.ndarray:
        return self.action_probabilities_batch([observation])[0]

    def action_probabilities_batch(self, observations) -> np.ndarray:
        self.asked += [o.vector.tobytes() + o.action_mask.tobytes() + bytes([o.seat]) for o in observations]
        return np.array([self.inner.action_probabilities(o) for o in observations])


register("lbr_test_counting", replace=True)(_Counting)


@pytest.mark.parametrize("suit_blind", [False, True])
def test_each_distinct_observation_reaches_the_target_once(suit_blind: bool) -> None:
    """Over a block of tables, no observation is asked twice: holdings that give the target the same observation
    (with ``suit_blind``, the same ranks) share one answer, and a raise's fold query serves the opponent's reply."""
    lbr = LocalBestResponse("lbr_test_counting", seed=2, samples=200, suit_blind=suit_blind)
    play_deals([lbr, VectorPolicy(seed=3)], CONFIG, 6, "dedup", True, 600.0)
    asked = lbr.target.asked
    assert len(asked) == lbr.observations_asked > 1000
    assert len(set(asked)) == len(asked), f"{len(asked) - len(set(asked))} observations asked more than once"


def test_a_network_targets_queries_arrive_without_repeats() -> None:
    """Against an SB3 agent (its varied fast path) the rows reaching the network are distinct observations too."""
    from razz_env.agents.sb3_agent import SB3Agent

    lbr = LocalBestResponse("ppo_razz", seed=2, samples=200)
    seen: list[bytes] = []
    varied = lbr.target.action_probabilities_varied_batch

    def recording(vectors, masks, columns, bases, **options) -> np.ndarray:
        for base, cards in zip(bases.tolist(), np.sort(columns, axis=1).tolist()):
            seen.append(vectors[base].tobytes() + masks[base].tobytes() + bytes(cards))
        return varied(vectors, masks, columns, bases, **options)

    lbr.target.action_probabilities_varied_batch = recording
    assert isinstance(lbr.target, SB3Agent)
    play_deals([lbr, make_agent("ppo_razz", seed=3)], CONFIG, 4, "dedup", True, 600.0)
    assert len(seen) == lbr.observations_asked > 500
    assert len(set(seen)) == len(seen)


def test_the_float64_device_path_equals_the_default_path() -> None:
    """The network queries run where ``device`` says in ``dtype``: on the CPU in float64 they equal the full
    forward pass of a float64 copy of the policy, and LBR decides as on the default path."""
    import copy

    import torch

    from razz_env.agents.sb3_agent import SB3Agent, _policy_from_scores

    zoo = make_agent("ppo_razz")
    stochastic = SB3Agent(zoo.model, deterministic=False, encoding="flat")
    rng = np.random.default_rng(0)
    encoder = make_encoder("flat", CONFIG)
    down = encoder.layout.slices["own_down"]
    vectors = np.stack([observe(_passive_until_seat_zero(HandState(CONFIG, seed=s), s % 4), 0,
                                encoder=encoder).vector for s in range(3)])
    vectors[:, down] = 0.0
    masks = np.array([[0, 1, 1, 0, 1]] * 3, dtype=np.int8)
    columns = np.sort(rng.choice(52, size=(40, 2)), axis=1) + down.start
    columns = columns[columns[:, 0] != columns[:, 1]]
    bases = rng.integers(0, 3, len(columns))
    policy = copy.deepcopy(zoo.model.policy).double()
    full = vectors[bases].astype(np.float64)
    np.put_along_axis(full, columns, 1.0, axis=1)
    with torch.no_grad():
        scores = policy.action_net(policy.mlp_extractor.forward_actor(torch.tensor(full)))
    reference = _policy_from_scores(zoo.model, scores, masks[bases], False)[0].numpy()
    got = stochastic.action_probabilities_varied_batch(vectors, masks, columns, bases, device="cpu", dtype="float64")
    np.testing.assert_allclose(got, reference, rtol=0, atol=1e-12)
    default = stochastic.action_probabilities_varied_batch(vectors, masks, columns, bases)
    np.testing.assert_allclose(default, reference, atol=1e-5)
    first = _match(LocalBestResponse("ppo_razz", seed=1, samples=200), make_agent("ppo_razz"), 3, "device")
    second = _match(LocalBestResponse("ppo_razz", seed=1, samples=200, device="cpu", dtype="float64"),
                    make_agent("ppo_razz"), 3, "device")
    assert first == second


@pytest.mark.parametrize("target", ["lbr_test_view_policy", "razz_heuristic"])
def test_the_raises_bounds_never_change_a_choice(monkeypatch, target: str) -> None:
    """Stopping the fold queries once a raise's bounds settle the choice gives the ids of asking every holding."""
    import razz_env.agents.lbr as lbr_module

    pruned = _Recorder(LocalBestResponse(target, seed=4, samples=200))
    play_deals([pruned, make_agent(target, seed=5)], CONFIG, 6, "bounds", True, 600.0)
    monkeypatch.setattr(lbr_module, "_settled", lambda values, bounds: None)
    full = LocalBestResponse(target, seed=4, samples=200)
    full.reset(0, 2, "razz")
    for observations, ids, _ in pruned.calls:
        assert full.act_batch(observations) == ids
    assert full.observations_asked > pruned.lbr.observations_asked


def _one_per_holding(lbr: LocalBestResponse, asked: list) -> list[Observation]:
    """The target's observations as LBR built them before the batch: one scalar view (or vector) per holding, in a
    plain list (what ``_observations`` is checked against)."""
    import dataclasses

    out = []
    encoder = lbr._observer.encoder
    for decision, holdings, seat, _ in asked:
        for holding in holdings.tolist():
            vector = None
            if decision.vector is not None:
                vector = decision.vector.copy()
                down = np.zeros(encoder.card_width, dtype=vector.dtype)
                np.add.at(down, np.asarray(encoder.card_index)[holding], 1)
                vector[encoder.layout.slices["own_down"]] = down
            view = None if decision.view is None else dataclasses.replace(decision.view, own_down=tuple(holding))
            out.append(Observation(seat, decision.mask, view, vector))
    return out


@pytest.mark.parametrize(("target", "variant", "deals"), [
    ("razz_heuristic", "razz", 4), ("tag", "stud", 2), ("calling_station", "razz", 2),
    ({"type": "monte_carlo", "samples": 8}, "razz", 2), ("lbr_test_view_policy", "stud8", 2),
    ("lbr_test_vector_policy", "razz", 2),
])
def test_the_batched_target_observations_give_what_one_view_per_holding_gave(monkeypatch, target, variant: str,
                                                                             deals: int) -> None:
    """Asking the target one ObservationBatch of repeated view rows gives the ids, ranges and counters of asking it a
    list of scalar observations, one per holding, on the same deals."""
    config = HandConfig.create(variant, num_seats=2, stacks=1000)
    runs = []
    for reference in (False, True):
        lbr = LocalBestResponse(target, seed=4, samples=64)
        if reference:
            monkeypatch.setattr(lbr, "_observations", lambda asked, lbr=lbr: _one_per_holding(lbr, asked))
        recorder = _Recorder(lbr)
        tables = play_deals([recorder, make_agent(target, seed=5)], config, deals, "views", True, 600.0)
        runs.append((recorder, [tuple(t.hand.history) for t in tables], lbr.counters(), lbr.observations_asked))
    (batched, hands, counters, asked), (one, one_hands, one_counters, one_asked) = runs
    assert hands == one_hands and counters == one_counters and asked == one_asked
    assert len(batched.calls) == len(one.calls) > 0
    for (_, ids, ranges), (_, one_ids, one_ranges) in zip(batched.calls, one.calls):
        assert ids == one_ids
        for (holdings, weights), (one_holdings, one_weights) in zip(ranges, one_ranges):
            np.testing.assert_array_equal(holdings, one_holdings)
            np.testing.assert_array_equal(weights, one_weights)


def test_a_target_without_act_batch_gets_one_scalar_view_per_holding() -> None:
    """A view-reading target that does not act in batch is asked observation by observation, each with a scalar
    SeatView whose down cards are the holding's."""
    seen = []

    class Checking(ViewPolicy):
        def action_probabilities(self, observation: Observation) -> np.ndarray:
            seen.append(observation.view)
            return super().action_probabilities(observation)

    lbr = LocalBestResponse(Checking(), seed=1, samples=64)
    play_deals([lbr, ViewPolicy(seed=2)], CONFIG, 1, "scalar", True, 600.0)
    assert len(seen) == lbr.observations_asked > 100
    assert all(isinstance(view, SeatView) and view.own_down == tuple(sorted(view.own_down)) for view in seen)
    assert len({view.own_down for view in seen}) > 100


def test_a_target_that_acts_in_batch_gets_one_batch_of_seat_views_per_query() -> None:
    """``razz_heuristic`` is asked ObservationBatches whose views are SeatViews (its array path), one row per
    holding, the target seat's down cards varying."""
    from razz_env.agents.razz_heuristic import RazzHeuristic
    from razz_env.encoding.interface import ObservationBatch
    from razz_env.engine.seat_views import SeatViews

    batches = []

    class Checking(RazzHeuristic):
        def action_probabilities_batch(self, observations) -> np.ndarray:
            batches.append(observations)
            return super().action_probabilities_batch(observations)

    lbr = LocalBestResponse(Checking(), seed=1, samples=64)
    play_deals([lbr, make_agent("razz_heuristic")], CONFIG, 1, "batch", True, 600.0)
    assert sum(len(b) for b in batches) == lbr.observations_asked > 100
    assert all(isinstance(b, ObservationBatch) and isinstance(b.views, SeatViews) for b in batches)
    assert all((b.views.seat == b.seats).all() for b in batches)
    assert all(len({tuple(r) for r in b.views.own_down.tolist()}) > 1 for b in batches if len(b) > 1)


def test_a_table_at_other_stakes_is_named_with_both_stacks():
    """LBR at its default 1,000-chip stacks, seated at a 200-chip table: the message names both sides' stacks."""
    from razz_env.batch.vec_env import BatchSingleAgentVecEnv

    lbr = make_agent({"type": "lbr", "target": "calling_station", "samples": 20})
    env = BatchSingleAgentVecEnv(4, lbr, "random", seed=1, variant="razz", num_seats=2, stacks=200)
    with pytest.raises(ValueError, match=r"started from stacks \[200, 200\] .* replayed at stacks \[1000, 1000\], "
                                         r".* has stacks \[999"):
        env.reset(seed=1)
        for _ in range(20):
            env.step(np.argmax(env.action_masks(), axis=1))
