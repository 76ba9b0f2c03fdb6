"""Events: every change of a game is reported as one.

An event is a tuple ``(kind, seat, value, data)``:

============== ======== ============================ ===========================
kind           seat     value                        data
============== ======== ============================ ===========================
dealer_draw    drawer   face value counted           (card,)
dealer         dealer   round number                 ()
deal           receiver number of cards              cards (secret)
flip           -1       0                            (card,) start card
return         -1       0                            (card,) shuffled back into the deck
play           player   1 if UNO was called          (card,)
draw           drawer   number of cards              cards (secret)
pass           player   0                            ()
colour         chooser  colour                       ()
skip           skipped  0                            ()
reverse        player   new direction (+1 / -1)      ()
challenge      victim   seat challenged              ()
reveal         shown    seat it is shown to          hand (secret)
verdict        bluffer  1 guilty, 0 innocent         ()
accept         victim   seat of the Wild Draw Four   ()
uno            caller   0                            ()
catch          catcher  seat caught                  ()
jam            player   1 Slam side up, 0 back up    ()
discard        player   0                            (card,)
target         chooser  target seat                  ()
swap           player   other seat                   ()
reshuffle      -1       cards reshuffled             ()
blocked        last to  turns in a row with no card ()                  (nobody can play or draw: the round
               draw     played or drawn                                  is blocked; before the hands)
hand           owner    points of the hand           cards, at the round's end
round_end      winner   points won                   scores after the round
match_end      winner   round number                 final scores
stack          player   pending total after the card ()                  (house rule stacking)
stack_draw     victim   total drawn                  ()
deflect        player   pending total deflected      ()
pass_hands     player   direction the hands moved    ()                  (house rule zero_pass)
team_win       winner   the winner's team (0 or 1)   the team's seats    (house rule teams; after round_end)
knockout       leaver   cards held                   ()                  (knockout scoring; after round_end)
jump           jumper   seat whose turn is lost      ()                  (house rule jump_in)
bomb           player   cards in the set             ()                  (house rule multi_play_bomb)
mercy          player   cards held                   the cards, public   (house rule mercy: out of the round)
============== ======== ============================ ===========================

A finished round's events are read into one :class:`unokit.engine.results.RoundResult`
(``game.round_results``).

Secret data (``deal``, ``draw``, ``reveal``, ``take``, ``give``) is only for the seat
named, and for ``reveal``, ``take`` and ``give`` also the seat in ``value``;
:func:`redact` strips it for everyone else.  Editions add their own kinds (see
:mod:`unokit.editions.wild_jackpot`).
"""

from __future__ import annotations

from unokit.engine.cards import card_name

Event = tuple[str, int, int, tuple[int, ...]]

EVENT_KINDS = frozenset(
    {
        "dealer_draw",
        "dealer",
        "deal",
        "flip",
        "return",
        "play",
        "draw",
        "pass",
        "colour",
        "skip",
        "reverse",
        "challenge",
        "reveal",
        "verdict",
        "accept",
        "uno",
        "catch",
        "jam",
        "discard",
        "target",
        "swap",
        "reshuffle",
        "blocked",
        "hand",
        "round_end",
        "match_end",
        "stack",
        "stack_draw",
        "deflect",
        "pass_hands",
        "team_win",
        "knockout",
        "jump",
        "bomb",
        "mercy",
    }
)
"""The kinds of the table above; editions add their own (``Edition.event_kinds``)."""
HOUSE_EVENT_KINDS = frozenset(
    {"stack", "stack_draw", "deflect", "pass_hands", "jump", "bomb", "team_win", "knockout", "mercy"}
)
"""The kinds only house rules report (see :mod:`unokit.editions.house`)."""

SECRET_KINDS = frozenset({"deal", "draw", "reveal", "take", "give"})
SHARED_SECRET_KINDS = frozenset({"reveal", "take", "give"})
"""Secret kinds whose data the seat in ``value`` sees too."""


def redact(event: Event, viewer: int | None) -> Event:
    """The event as ``viewer`` may see it (``None``: a spectator)."""
    kind, seat, value, data = event
    if kind not in SECRET_KINDS or not data:
        return event
    if viewer is not None and (seat == viewer or (kind in SHARED_SECRET_KINDS and value == viewer)):
        return event
    return (kind, seat, value, ())


def event_to_dict(event: Event, card_names: bool = True) -> dict[str, object]:
    """A JSON-ready form of an event."""
    kind, seat, value, data = event
    out: dict[str, object] = {"kind": kind, "seat": seat, "value": value}
    if kind in ("round_end", "match_end"):
        out["scores"] = list(data)
    elif kind == "team_win":
        out["seats"] = list(data)
    else:
        out["cards"] = [card_name(c) for c in data] if card_names else list(data)
    return out
