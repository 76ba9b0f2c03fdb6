"""Rewards read from a game's public events: per round won or lost, round points, or the match result.

Every kind sums to zero over the seats:

``win``
    at the end of each round the winner gets +1 and the other players in the round share -1
    (with teams the winning team's players in the round share +1, the others share -1);
``points``
    at the end of each round each loser gets minus the points of the cards it held (a hand put
    out by Mercy counts too) and the winner (its team's players, shared) gets their sum, as the
    sheets' winner-collects scoring counts them;
``match``
    at the end of the match the match winner (its team, shared) gets +1 and every other seat
    shares -1; rounds give nothing.

>>> from unokit.engine.game import Game
>>> game = Game("classic", 3, seed=2, rules={"scoring": "single-round"})
>>> keeper = RewardKeeper(game, "win")
>>> while not game.is_over:
...     game.apply(game.actor, game.legal_actions(game.actor)[0])
>>> rewards = keeper.collect()
>>> sum(rewards), max(rewards)
(0.0, 1.0)
"""

from __future__ import annotations

from unokit.engine.errors import UnknownOptionError
from unokit.engine.game import Game

__all__ = ["REWARDS", "RewardKeeper", "check_reward"]

REWARDS = ("win", "points", "match")
"""The kinds of reward (``reward=`` of the environments)."""


def check_reward(reward: str) -> str:
    """``reward`` if it is one of :data:`REWARDS`; :class:`UnknownOptionError` otherwise."""
    if reward not in REWARDS:
        raise UnknownOptionError(f"unknown reward {reward!r}; known: {', '.join(REWARDS)}")
    return reward


class RewardKeeper:
    """Turns the events a game adds into rewards per seat, one call of :meth:`collect` at a time."""

    def __init__(self, game: Game, reward: str) -> None:
        self.game = game
        self.reward = check_reward(reward)
        self._read = len(game.events)
        self._held: dict[int, int] = {}
        """Points each seat held at the end of the round being scored."""

    def copy(self, game: Game) -> RewardKeeper:
        """This keeper's position in the events on ``game``, a copy of its game."""
        other = RewardKeeper(game, self.reward)
        other._read = self._read
        other._held = dict(self._held)
        return other

    def collect(self) -> list[float]:
        """The rewards of the events since the last call, per seat."""
        game = self.game
        events = game.events
        rewards = [0.0] * game.n
        for index in range(self._read, len(events)):
            kind, seat, value, data = events[index]
            if kind == "dealer":
                self._held.clear()
            elif kind == "mercy":
                self._held[seat] = game.edition.hand_points(list(data))
            elif kind == "hand":
                self._held[seat] = value
            elif kind == "round_end":
                if self.reward != "match":
                    self._score_round(seat, rewards)
                self._held.clear()
            elif kind == "match_end" and self.reward == "match":
                winners = list(game.team_seats(seat))
                _share(rewards, winners, [s for s in range(game.n) if s not in winners])
        self._read = len(events)
        return rewards

    def _score_round(self, winner: int, rewards: list[float]) -> None:
        players = sorted(self._held)
        winners = [s for s in players if s in self.game.team_seats(winner)]
        losers = [s for s in players if s not in winners]
        if not winners or not losers:
            return
        if self.reward == "win":
            _share(rewards, winners, losers)
            return
        total = sum(self._held[s] for s in losers)
        for seat in winners:
            rewards[seat] += total / len(winners)
        for seat in losers:
            rewards[seat] -= self._held[seat]


def _share(rewards: list[float], winners: list[int], losers: list[int]) -> None:
    """+1 shared among ``winners``, -1 shared among ``losers``."""
    for seat in winners:
        rewards[seat] += 1 / len(winners)
    for seat in losers:
        rewards[seat] -= 1 / len(losers)
