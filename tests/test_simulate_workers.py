"""``simulate --workers``: the same counts on one process or several (Python engine), one thread or
several (compiled engine); the games are cut into blocks made only when handed out."""

from __future__ import annotations

import argparse
from typing import Any

import pytest

from unokit.analysis.simulate import Block, Blocks, fast_engine_plays, simulate
from unokit.cli.common import add_ray_option


def steady(result: dict[str, Any]) -> dict[str, Any]:
    return {key: value for key, value in result.items() if key != "elapsed_s"}


def test_the_python_engine_counts_the_same_on_several_processes() -> None:
    rules = {"scoring": "single-round"}
    alone = simulate("space-jam", 3, 40, 6, rules)
    assert steady(simulate("space-jam", 3, 40, 6, rules, workers=2)) == steady(alone)
    jackpot = simulate("wild-jackpot", 3, 4, 1, rule_cards=["Draw 2 cards", "Sing a song"])
    spread = simulate("wild-jackpot", 3, 4, 1, rule_cards=["Draw 2 cards", "Sing a song"], workers=2)
    assert steady(spread) == steady(jackpot)


@pytest.mark.skipif(fast_engine_plays("classic", None) is not None, reason="the compiled engine needs the fast extra")
@pytest.mark.parametrize("policy", ["random", "heuristic"])
def test_the_compiled_engine_counts_the_same_on_any_threads(policy: str) -> None:
    one = simulate("all-wild", 4, 500, 2, engine="fast", policy=policy, workers=1)
    assert steady(simulate("all-wild", 4, 500, 2, engine="fast", policy=policy, workers=2)) == steady(one)
    assert steady(simulate("all-wild", 4, 500, 2, engine="fast", policy=policy)) == steady(one)


def test_blocks_cover_every_game_once() -> None:
    blocks = Blocks(Block("classic", 2, 0, None, None, "python", "random", 0, 0), 10, 4)
    assert len(blocks) == 3
    assert [(b.first, b.count) for b in blocks] == [(0, 4), (4, 4), (8, 2)]
    assert [(b.first, b.count) for b in blocks[1:]] == [(4, 4), (8, 2)]
    assert blocks[-1].first == 8
    with pytest.raises(IndexError):
        blocks[3]


def test_the_ray_option() -> None:
    parser = argparse.ArgumentParser()
    add_ray_option(parser)
    assert parser.parse_args([]).ray is None
    assert parser.parse_args(["--ray"]).ray == "local"
    assert parser.parse_args(["--ray", "ray://head:10001"]).ray == "ray://head:10001"
