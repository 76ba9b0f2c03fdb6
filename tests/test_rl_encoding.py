"""The observation encoding: its layout, its contents, and that hidden cards never change it."""

from __future__ import annotations

import random
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import numpy as np
import pytest

from unokit.engine.cards import parse_card
from unokit.engine.errors import SetupError
from unokit.engine.game import Game
from unokit.engine.rules import Rules
from unokit.rl.cycle import DecisionCycle
from unokit.rl.encoding import Encoder, markdown_table, observation_table

EDITIONS = ("classic", "space-jam", "all-wild", "wild-jackpot")
DOCS = Path(__file__).resolve().parent.parent / "docs" / "rl.md"


def random_decisions(game: Game, seed: int, moves: int) -> Iterator[int]:
    """Up to ``moves`` random decisions asked as the environments ask them (waits included); yields
    the seat asked before each is taken."""
    cycle = DecisionCycle(game)
    rng = random.Random(seed)
    for _ in range(moves):
        if game.is_over:
            return
        seat, _ = cycle.asked()
        yield seat
        cycle.act(seat, rng.choice(cycle.legal()))


def played(edition: str, players: int, seed: int, moves: int, rules: Rules | dict[str, object] | None = None) -> Game:
    """A game after up to ``moves`` random decisions."""
    game = Game(edition, players, seed=seed, rules=rules)
    for _ in random_decisions(game, seed, moves):
        pass
    return game


@pytest.mark.parametrize("edition", EDITIONS)
def test_fields_tile_the_vector_and_do_not_depend_on_the_rules(edition: str) -> None:
    encoder = Encoder(edition, 4)
    offset = 0
    for field in encoder.fields:
        assert field.offset == offset and field.size > 0, field
        offset += field.size
    assert offset == encoder.size == encoder.high.shape[0]
    assert (encoder.high > 0).all()
    chaos = Encoder(edition, 4, Rules.preset("chaos") if edition != "all-wild" else Rules.preset("house"))
    assert [(f.name, f.offset, f.size) for f in chaos.fields] == [(f.name, f.offset, f.size) for f in encoder.fields]
    assert observation_table(edition, 4) == encoder.table()


def test_edition_fields_appear_in_their_edition_only() -> None:
    names = {edition: {f.name for f in observation_table(edition, 3)} for edition in EDITIONS}
    assert "jam" in names["space-jam"] and "jam" not in names["classic"]
    assert {"lever", "rule", "give_to"} <= names["wild-jackpot"]
    assert "lever" not in names["classic"] | names["all-wild"]


def test_docs_show_the_generated_table() -> None:
    assert markdown_table("classic", 2) in DOCS.read_text(encoding="utf-8")


@pytest.mark.parametrize("edition", EDITIONS)
def test_contents_follow_the_view(edition: str) -> None:
    game = played(edition, 3, seed=5, moves=25)
    encoder = Encoder(edition, 3)
    for seat in range(3):
        view = game.view(seat)
        vector = encoder.encode(view)
        hand = encoder.read(vector, "hand")
        assert hand.sum() == len(view.hand)
        for card in set(view.hand):
            assert hand[encoder.face_index[card]] == view.hand.count(card)
        assert encoder.read(vector, "top_card")[encoder.face_index[view.top_card]] == 1
        sizes = encoder.read(vector, "hand_sizes")
        assert [int(sizes[k]) for k in range(3)] == [view.hand_sizes[(seat + k) % 3] for k in range(3)]
        assert encoder.read(vector, "actor")[(view.actor - seat) % 3] == 1
        assert encoder.read(vector, "direction")[0] == (1 if view.direction > 0 else 0)
        assert encoder.read(vector, "phase")[encoder.phases.index(view.phase)] == 1
        assert encoder.read(vector, "draw_pile_size")[0] == view.draw_pile_size
        newest = encoder.read(vector, "events")[: encoder.slot_size]
        assert newest[encoder.event_kinds.index(view.history[-1][0])] == 1


@pytest.mark.parametrize(
    ("edition", "players", "rules"),
    [
        ("classic", 2, None),
        ("classic", 4, "house"),
        ("space-jam", 3, None),
        ("all-wild", 4, "house"),
        ("wild-jackpot", 3, None),
        ("wild-jackpot", 4, "teams"),
    ],
)
def test_cards_the_observer_cannot_see_never_change_the_observation(
    edition: str, players: int, rules: str | None
) -> None:
    options = {"preset": rules} if rules else None
    for seed in range(6):
        game = played(edition, players, seed=seed, moves=15 + 7 * seed, rules=options)
        if game.is_over:
            continue
        observer = seed % players
        encoder = Encoder(edition, players, game.rules)
        before = encoder.encode(game.view(observer))
        others = [s for s in range(players) if s != observer and game.hands[s]]
        hidden = game.clone()
        rng = random.Random(seed)
        rng.shuffle(hidden.draw_pile)
        # a card of one opponent changes places with a different card elsewhere out of sight
        giver = others[0]
        places = [hidden.hands[s] for s in others[1:]] + [hidden.draw_pile]
        swapped = False
        for place in places:
            for i, card in enumerate(hidden.hands[giver]):
                j = next((j for j, other in enumerate(place) if other != card), None)
                if j is not None:
                    hidden.hands[giver][i], place[j] = place[j], card
                    swapped = True
                    break
            if swapped:
                break
        assert swapped
        assert hidden.state_key() != game.state_key()
        assert np.array_equal(encoder.encode(hidden.view(observer)), before)
        # the observer's own hand does change it
        own = game.clone()
        mine = own.hands[observer]
        for j, card in enumerate(own.draw_pile):
            if card not in mine:
                mine[0], own.draw_pile[j] = card, mine[0]
                break
        assert not np.array_equal(encoder.encode(own.view(observer)), before)


@pytest.mark.parametrize("edition", EDITIONS)
def test_observations_stay_within_their_bounds(edition: str) -> None:
    rules = Rules.preset("chaos") if edition != "all-wild" else Rules.preset("house")
    game = Game(edition, 4, seed=11, rules=rules)
    encoder = Encoder(edition, 4, rules)
    for seat in random_decisions(game, 11, 400):
        vector = encoder.encode(game.view(seat))
        assert vector.dtype == np.float32
        assert (vector >= encoder.low).all() and (vector <= encoder.high).all()


def test_bad_input_is_refused() -> None:
    encoder = Encoder("classic", 2)
    game = Game("classic", 2, seed=1)
    with pytest.raises(ValueError, match="spectator"):
        encoder.encode(game.view(None))
    with pytest.raises(ValueError, match="classic with 2 players"):
        encoder.encode(Game("classic", 3, seed=1).view(0))
    with pytest.raises(ValueError, match="unknown edition"):
        Encoder("uno-flip", 2)
    with pytest.raises(SetupError):
        Encoder("classic", 11)
    with pytest.raises(KeyError, match="known: hand"):
        encoder.field("hands")
    assert parse_card("R7") in encoder.face_index


def test_the_engine_imports_no_third_party_numerics() -> None:
    imported = "sorted({'numpy', 'gymnasium', 'pettingzoo'} & set(sys.modules))"
    code = f"import sys, unokit, unokit.bots, unokit.narrate; print({imported})"
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert result.stdout.strip() == "[]"
