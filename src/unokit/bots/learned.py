"""The learned bot: a policy trained by self-play (``python -m unokit.rl.train``), run with numpy alone.

The weights are small ``.npz`` files in the package (``unokit/bots/weights/EDITION-Np.npz``, one per
table), each beside a JSON file with the command and seed that trained them.  The network reads the
observation vector of
:mod:`unokit.rl.encoding` (scaled by its bounds) and scores every action id and "wait"; the bot
plays the legal action of highest score.  Out of turn (an UNO call or catch, a jump-in) it is
offered those actions and "wait": choosing "wait" lets the window pass.

:class:`NumpyPolicy` is the same network for batches of observations (the evaluation's fast
path); training uses torch, playing does not.
"""

from __future__ import annotations

import json
from importlib import resources
from pathlib import Path
from typing import Any

import numpy as np
import numpy.typing as npt

from unokit.bots.base import interrupt_actions, jump_actions
from unokit.bots.weights import learned_tables
from unokit.editions import get_edition
from unokit.engine.errors import UnknownOptionError
from unokit.engine.views import View

__all__ = [
    "LearnedBot",
    "NumpyPolicy",
    "load_policy",
    "shipped_policy",
]

FloatArray = npt.NDArray[np.float32]


class NumpyPolicy:
    """A policy/value network read from a weights file written by :func:`unokit.rl.train.model.export_weights`.

    ``meta`` holds what the network was trained for: ``edition``, ``players``, ``history``,
    ``size`` (observation length) and ``actions`` (action ids, "wait" included)."""

    def __init__(self, arrays: dict[str, npt.NDArray[Any]]) -> None:
        self.meta: dict[str, Any] = json.loads(str(arrays["meta"]))
        self.scale = arrays["scale"].astype(np.float32)
        layers = int(self.meta["layers"])
        self.hidden = [(arrays[f"w{i}"].astype(np.float32), arrays[f"b{i}"].astype(np.float32)) for i in range(layers)]
        self.policy_w = arrays["policy_w"].astype(np.float32)
        self.policy_b = arrays["policy_b"].astype(np.float32)
        self.value_w = arrays["value_w"].astype(np.float32)
        self.value_b = arrays["value_b"].astype(np.float32)

    def features(self, observations: FloatArray) -> FloatArray:
        """The last hidden layer's activations for a batch of observations."""
        x = np.asarray(observations, dtype=np.float32) * self.scale
        for w, b in self.hidden:
            x = np.maximum(x @ w + b, 0.0)
        return x

    def logits(self, observations: FloatArray, masks: npt.NDArray[Any]) -> FloatArray:
        """Action scores, ``-inf`` where the mask is 0."""
        scores = self.features(observations) @ self.policy_w + self.policy_b
        return np.where(np.asarray(masks) != 0, scores, -np.inf).astype(np.float32)

    def values(self, observations: FloatArray) -> FloatArray:
        """The value of each observation for the seat it belongs to."""
        return (self.features(observations) @ self.value_w + self.value_b)[:, 0]

    def act(self, observations: FloatArray, masks: npt.NDArray[Any]) -> npt.NDArray[np.int64]:
        """The legal action of highest score in each row."""
        chosen: npt.NDArray[np.int64] = np.argmax(self.logits(observations, masks), axis=1).astype(np.int64)
        return chosen


def load_policy(path: str | Path) -> NumpyPolicy:
    """The policy in the weights file ``path``."""
    with np.load(path) as data:
        return NumpyPolicy(dict(data))


_POLICIES: dict[str, NumpyPolicy] = {}


def shipped_policy(players: int, edition: str = "classic") -> NumpyPolicy:
    """The shipped policy for ``edition`` at ``players`` (loaded once);
    :class:`~unokit.engine.errors.UnknownOptionError` if none was trained for that table."""
    name = f"{edition}-{players}p.npz"
    if name not in _POLICIES:
        shipped = resources.files("unokit.bots.weights") / name
        if (edition, players) not in learned_tables():
            known = ", ".join(f"{e} with {p} players" for e, p in learned_tables()) or "no table"
            raise UnknownOptionError(f"the learned bot plays {known}, not {edition} with {players} players")
        with resources.as_file(shipped) as path, np.load(path) as data:
            _POLICIES[name] = NumpyPolicy(dict(data))
    return _POLICIES[name]


class LearnedBot:
    """Plays the legal action the learned policy scores highest.  Made for one edition (and, given
    ``players``, one table size: refused at once if no weights play it); the table size is read from
    each view.  ``weights``: a weights file instead of the shipped ones
    (:func:`unokit.bots.weights.learned_tables`), which play only the tables they were trained for:
    any other is refused with :class:`~unokit.engine.errors.UnknownOptionError` (no fallback to another bot)."""

    def __init__(
        self,
        seed: int = 0,
        edition: str = "classic",
        name: str = "learned",
        weights: str | Path | None = None,
        players: int | None = None,
        **options: Any,
    ) -> None:
        if options:
            raise UnknownOptionError(f"unknown option(s) for a learned bot: {', '.join(sorted(options))}")
        tables = learned_tables()
        if weights is None and edition not in {e for e, _ in tables}:
            known = ", ".join(f"{e} with {p} players" for e, p in tables) or "no table"
            raise UnknownOptionError(f"the learned bot plays {known}, not {edition}")
        self.name = name
        self.edition = edition
        self.seed = seed
        self._weights = load_policy(weights) if weights is not None else None
        self._encoders: dict[tuple[int, Any], Any] = {}
        if players is not None:
            self.policy(players)  # refuses a table it was not trained for now, not at its first move

    def policy(self, players: int) -> NumpyPolicy:
        """The policy for a table of ``players``."""
        if self._weights is not None:
            meta = self._weights.meta
            if meta["players"] != players or meta["edition"] != self.edition:
                raise UnknownOptionError(
                    f"these weights play {meta['edition']} with {meta['players']} players, "
                    f"not {self.edition} with {players}"
                )
            return self._weights
        return shipped_policy(players, self.edition)

    def _scores(self, view: View, allowed: list[int], wait: bool) -> tuple[int, npt.NDArray[np.float32]]:
        policy = self.policy(view.players)
        key = (view.players, view.rules)
        encoder = self._encoders.get(key)
        if encoder is None:
            from unokit.rl.encoding import Encoder

            encoder = Encoder(view.edition, view.players, view.rules, int(policy.meta["history"]))
            self._encoders[key] = encoder
        mask = np.zeros((1, int(policy.meta["actions"])), dtype=np.int8)
        mask[0, allowed] = 1
        wait_id = mask.shape[1] - 1
        if wait:
            mask[0, wait_id] = 1
        logits = policy.logits(encoder.encode(view)[None, :], mask)[0]
        return wait_id, logits

    def choose(self, view: View) -> int:
        """The legal action scored highest."""
        legal = list(view.legal_actions)
        if len(legal) == 1:
            return legal[0]
        _, logits = self._scores(view, legal, wait=False)
        return int(np.argmax(logits))

    def wants_interrupt(self, view: View) -> int | None:
        """Out of turn: the action scored highest among those on offer and "wait" (``None``).  At its
        own turn: the turn's best action if it is a call (otherwise ``None``: :meth:`choose` follows)."""
        space = get_edition(view.edition).actions
        offered = list(interrupt_actions(space, view.legal_actions) + jump_actions(space, view.legal_actions))
        if not offered:
            return None
        own_turn = view.actor == view.seat
        allowed = list(view.legal_actions) if own_turn else offered
        _wait_id, logits = self._scores(view, allowed, wait=not own_turn)
        best = int(np.argmax(logits))
        return best if best in offered else None
