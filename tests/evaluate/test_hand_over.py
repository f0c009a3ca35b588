"""The optional ``hand_over`` hook: every hand an agent was reset for ends once for it, on the scalar and the batched
engine alike, with the chips each seat won and only the down cards shown at a showdown."""

from __future__ import annotations

import pytest

from razz_env.agents.simple import RandomAgent
from razz_env.encoding.interface import Declaration, HandOutcome, hand_outcome
from razz_env.engine.config import HandConfig
from razz_env.evaluate.blocks import play_deals
from razz_env.evaluate.containment import AgentFailure
from razz_env.play import play_cli


class Told(RandomAgent):
    """A seeded random agent (acting in batch, as the batched engine needs) that logs its resets, its batched calls
    and every hand end it is told."""

    declaration = Declaration(observes=(), acts_in_batch=True)

    def __init__(self, seed: int) -> None:
        super().__init__(seed)
        self.log: list[tuple] = []
        self.outcomes: list[HandOutcome] = []

    def reset(self, seat: int, num_seats: int, variant: str) -> None:
        self.log.append(("reset", seat))

    def act_batch(self, observations) -> list[int]:
        self.log.append(("act", [o.seat for o in observations]))
        return [self.act(o) for o in observations]

    def hand_over(self, outcome: HandOutcome) -> None:
        self.log.append(("hand_over", outcome))
        self.outcomes.append(outcome)


def _lineup(seats: int) -> list[Told]:
    """``seats`` positions, the first agent seated twice (self-play): its hands are numbered across both seats."""
    first = Told(1)
    return [first, first, *(Told(2 + i) for i in range(seats - 2))] if seats > 2 else [first, Told(2)]


@pytest.mark.parametrize("seats", [2, 4])
def test_every_hand_ends_once_for_each_seat_with_what_that_seat_may_know(seats):
    players = _lineup(seats)
    config = HandConfig.create("razz", num_seats=seats)
    tables = play_deals(players, config, deals=12, seed="told", duplicate=True)
    agents = list({id(p): p for p in players}.values())
    resets = {id(agent): [entry for entry in agent.log if entry[0] == "reset"] for agent in agents}
    seen_showdown = seen_fold = False
    for agent in agents:
        numbers = sorted(o.hand for o in agent.outcomes)
        assert numbers == list(range(len(resets[id(agent)]))), "each hand it was reset for ends once"
    for number_of, table in _numbered(players, tables):
        hand = table.hand
        assert sum(hand.payoffs) == 0
        for seat, (agent, number) in number_of.items():
            outcome = next(o for o in agent.outcomes if o.hand == number)
            assert outcome == hand_outcome(hand, seat, number) and outcome.seat == seat
            assert resets[id(agent)][number] == ("reset", seat)
            assert list(outcome.payoffs) == hand.payoffs and sum(outcome.payoffs) == 0
            live = [s for s in range(seats) if not hand.folded[s]]
            assert outcome.showdown == (len(live) > 1)
            for other in range(seats):
                if outcome.showdown and other in live:
                    assert outcome.shown[other] == tuple(hand.down_cards(other))
                else:
                    assert outcome.shown[other] is None  # folded, or won without a showdown: never shown
            seen_showdown |= outcome.showdown
            seen_fold |= any(hand.folded)
    assert seen_showdown and seen_fold


def _numbered(players, tables):
    """Per table, each seat's (agent, hand number): the order of that agent's resets, tables then seats in order."""
    counts: dict[int, int] = {}
    for table in tables:
        number_of = {}
        for seat, position in enumerate(table.positions):
            agent = players[position]
            number_of[seat] = (agent, counts.get(id(agent), 0))
            counts[id(agent)] = counts.get(id(agent), 0) + 1
        yield number_of, table


@pytest.mark.parametrize("seats", [2, 3])
def test_the_batched_engine_tells_the_same_hand_ends_at_the_same_moments(seats):
    pytest.importorskip("numba", reason="the batched path needs the batch extra (numba)")
    from razz_env.evaluate.blocks import play_deals_batched

    config = HandConfig.create("stud8", num_seats=seats)
    scalar, batched = _lineup(seats), _lineup(seats)
    play_deals(scalar, config, deals=8, seed="same")
    play_deals_batched(batched, config, deals=8, seed="same")
    for one, other in zip(scalar, batched):
        assert one.log == other.log and one.outcomes
        assert sum(1 for entry in one.log if entry[0] == "hand_over") == sum(
            1 for entry in one.log if entry[0] == "reset")


def test_an_agent_without_the_hook_is_told_nothing_and_a_failing_hook_fails_its_agent():
    class Plain(RandomAgent):
        declaration = Declaration(observes=())

    class Broken(Told):
        def hand_over(self, outcome: HandOutcome) -> None:
            raise RuntimeError("no memory left")

    config = HandConfig.create("razz")
    assert len(play_deals([Plain(1), Told(2)], config, deals=2, seed="x")) == 4
    with pytest.raises(AgentFailure) as failure:
        play_deals([Plain(1), Broken(2)], config, deals=2, seed="x")
    assert failure.value.position == 1 and "hand_over: RuntimeError: no memory left" in str(failure.value)


def test_razz_play_tells_its_opponents_how_each_hand_ended():
    told = Told(3)
    status = play_cli(opponents=[told], hands=3, stack=200, seed=5,
                      input_fn=lambda prompt: "c" if "[c/" in prompt else "i", output_fn=lambda text: None)
    assert status == 0
    assert [o.hand for o in told.outcomes] == [0, 1, 2] and all(o.seat == 1 for o in told.outcomes)
    assert all(sum(o.payoffs) == 0 for o in told.outcomes)
