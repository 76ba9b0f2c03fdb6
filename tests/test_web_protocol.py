"""The message table: every client message checked, anything else refused with a reason."""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import Any

import pytest

from unokit.bots.weights import learned_tables
from unokit.web.app import RateLimiter, options
from unokit.web.protocol import MAX_FRAME, MESSAGES, ProtocolError, clean_name, parse_message


def msg(**fields: object) -> str:
    return json.dumps(fields)


SAMPLES: dict[str, dict[str, Any]] = {
    "create": {
        "name": "Ann",
        "edition": "classic",
        "seats": 4,
        "rules": {"target_score": 200, "scoring": "running-tally"},
        "bot": "random",
        "timer": 45,
        "public": True,
        "late_join": False,
        "avatar": "owl",
        "colour": "blue",
        "lang": "es",
    },
    "join": {"code": "ABCDEFGH", "name": "Bob", "avatar": "cat", "colour": "red", "lang": "fr"},
    "resume": {"code": "ABCDEFGH", "secret": "x" * 32, "version": 3, "avatar": "fox", "colour": "slate", "lang": "de"},
    "spectate": {"code": "ABCDEFGH", "version": 0, "lang": "en"},
    "lang": {"lang": "de"},
    "seat": {"seat": 2, "bot": True},
    "rule_cards": {"texts": ["Skip your next turn", "Sing"]},
    "read_rule": {"text": "Draw 2 cards"},
    "start": {},
    "act": {"action": "R7!", "version": 12},
    "sync": {"version": 0},
    "hint": {"version": 4},
    "ping": {},
    "chat": {"text": "good game <b>all</b>"},
    "rematch": {},
    "continue": {},
    "kick": {"seat": 3},
    "leave": {},
    "back": {},
    "react": {"reaction": "👏", "to": 1},
    "look": {"avatar": "fox", "colour": "teal"},
    "voice": {"on": True},
    "signal": {"to": 1, "kind": "offer", "data": "v=0"},
}
"""A valid message of every type (its fields, ``type`` aside)."""


def test_every_type_accepts_its_fields() -> None:
    assert set(SAMPLES) == set(MESSAGES)
    for kind, fields in SAMPLES.items():
        assert parse_message(msg(type=kind, **fields)) == {"type": kind, **fields}


def test_optional_fields_may_be_left_out() -> None:
    assert parse_message(msg(type="create", name="Ann", edition="all-wild", seats=2)) == {
        "type": "create",
        "name": "Ann",
        "edition": "all-wild",
        "seats": 2,
    }
    assert parse_message(msg(type="spectate", code="ABCDEFGH"))["code"] == "ABCDEFGH"


@pytest.mark.parametrize(
    ("text", "reason"),
    [
        ("not json", "not JSON"),
        ("[1, 2]", "JSON object"),
        ('{"type": "act", "action": "R7", "version": NaN}', "not JSON"),
        (msg(kind="ping"), "unknown message type"),
        (msg(type="dance"), "unknown message type"),
        (msg(type=7), "unknown message type"),
        (msg(type="ping", extra=1), "unknown field 'extra'"),
        (msg(type="join", code="ABCDEFGH"), "missing field 'name'"),
        (msg(type="join", code=123, name="Ann"), "must be a string"),
        (msg(type="join", code="A" * 17, name="Ann"), "at most 16"),
        (msg(type="join", code="ABCDEFGH", name=""), "cannot be empty"),
        (msg(type="join", code="ABCDEFGH", name="   "), "cannot be empty"),
        (msg(type="join", code="ABCDEFGH", name="x" * 25), "at most 24"),
        (msg(type="join", code="ABCDEFGH", name="Ann\u202e"), r"U\+202E"),
        (msg(type="join", code="ABCDEFGH", name="Ann\x00"), r"U\+0000"),
        (msg(type="join", code="ABCDEFGH", name=["Ann"]), "must be a string"),
        (msg(type="create", name="Ann", edition="poker", seats=4), "must be one of"),
        (msg(type="create", name="Ann", edition="classic", seats=11), "from 2 to 10"),
        (msg(type="create", name="Ann", edition="classic", seats=1), "from 2 to 10"),
        (msg(type="create", name="Ann", edition="classic", seats=4.0), "whole number"),
        (msg(type="create", name="Ann", edition="classic", seats=True), "whole number"),
        (msg(type="create", name="Ann", edition="classic", seats="4"), "whole number"),
        (msg(type="create", name="Ann", edition="classic", seats=4, rules=[1]), "object of rule options"),
        (msg(type="create", name="Ann", edition="classic", seats=4, rules={"target_score": {"y": 1}}), "plain value"),
        (msg(type="create", name="Ann", edition="classic", seats=4, rules={"spinning": True}), "unknown rule option"),
        (msg(type="create", name="Ann", edition="classic", seats=4, rules={"deck": [["R1", 900]]}), "unknown rule"),
        (msg(type="create", name="Ann", edition="classic", seats=4, bot="genius"), "must be one of"),
        (msg(type="seat", seat=2, bot="yes"), "true or false"),
        (msg(type="seat", seat=-1, bot=True), "from 0 to 9"),
        (msg(type="act", action="R7", version=-1), "from 0"),
        (msg(type="act", action="R7", version=10**12), "from 0"),
        (msg(type="act", action="R7" * 20, version=1), "at most 32"),
        (msg(type="rule_cards", texts="Skip"), "list of strings"),
        (msg(type="rule_cards", texts=["ok", 3]), "list of strings"),
        (msg(type="rule_cards", texts=["x" * 401]), "at most 400"),
    ],
)
def test_malformed_messages_are_refused_with_the_reason(text: str, reason: str) -> None:
    with pytest.raises(ProtocolError, match=reason):
        parse_message(text)


def test_frames_over_the_limit_and_binary_frames_are_refused() -> None:
    padding = "x" * MAX_FRAME
    with pytest.raises(ProtocolError, match="at most 8192 bytes"):
        parse_message(msg(type="ping", pad=padding))
    multibyte = msg(type="read_rule", text="é" * 380)  # under 8 KiB in characters and in bytes
    assert parse_message(multibyte)["text"] == "é" * 380
    with pytest.raises(ProtocolError, match="at most 8192 bytes"):
        parse_message(json.dumps({"type": "read_rule", "text": "€" * 3000}, ensure_ascii=False))
    with pytest.raises(ProtocolError, match="binary"):
        parse_message(b'{"type": "ping"}')
    with pytest.raises(ProtocolError, match="not JSON"):
        parse_message("[" * 4000 + "]" * 4000)


def test_names_are_plain_text_kept_verbatim() -> None:
    assert clean_name("  <img src=x onerror=f()> ") == "<img src=x onerror=f()>"
    assert clean_name("<script>x()</script>") == "<script>x()</script>"
    assert clean_name("Ann \t  Lee") == "Ann Lee"
    assert clean_name("Zoë 🎲") == "Zoë 🎲"


def test_rate_limiter_refills_at_its_rate() -> None:
    bucket = RateLimiter(rate=20.0, burst=40.0, now=0.0)
    assert sum(bucket.allow(0.0) for _ in range(100)) == 40
    assert sum(bucket.allow(0.5) for _ in range(100)) == 10
    assert sum(bucket.allow(100.0) for _ in range(100)) == 40


def test_options_list_every_rule_option_with_its_default() -> None:
    from dataclasses import fields

    from unokit.engine.rules import OPTIONS, Rules

    data = options()
    assert data["editions"] == ["classic", "wild-jackpot", "space-jam", "all-wild"]
    assert set(data["rules"]) == {f.name for f in fields(Rules)} - {"deck"}
    words = {"label", "help", "choice_labels"}  # the words, checked against the engine's below
    limits = {key: value for key, value in data["rules"]["target_score"].items() if key not in words}
    assert limits == {"type": "int", "min": 1, "max": 1_000_000, "default": 500}
    assert data["rules"]["lever_weights"]["default"] == [1, 1, 1, 1, 1, 1]
    call_uno = {key: value for key, value in data["rules"]["call_uno"].items() if key not in words}
    assert call_uno == {"type": "bool", "group": "house", "default": True}
    assert data["presets"]["house"] == {"stacking": "same", "seven_swap": True, "zero_pass": True, "jump_in": True}
    for name, values in data["presets"].items():  # every preset names options the server offers, valid together
        assert set(values) <= set(data["rules"]), name
        Rules.from_dict({"preset": name})
    assert data["rules"]["lever_weights"]["editions"] == ["wild-jackpot"]
    assert data["rules"]["allow_bluff"]["editions"] == ["classic", "space-jam", "wild-jackpot"]
    assert data["rules"]["forced_swap_final_card"] == {
        "choices": ["wins", "swaps"],
        "editions": ["all-wild"],
        "default": "wins",
        "label": "Forced Swap as the final card",
        "help": "Whether a Wild Forced Swap played as your last card wins at once.",
        "choice_labels": {"wins": "It wins at once", "swaps": "The hands are swapped first"},
    }
    for name, entry in data["rules"].items():  # the engine's table, as it is
        spec = OPTIONS[name]
        assert entry.get("editions") == (list(spec.editions) if spec.editions is not None else None)
        assert entry.get("group") == (spec.group or None), "house rules are marked as such, no other"
        assert (entry["label"], entry["help"], entry.get("requires")) == (spec.label, spec.help, spec.requires or None)
        assert list(entry.get("choice_labels", {}).values()) == list(spec.choice_labels)
        if "min" in entry:
            assert (entry["min"], entry["max"]) == (spec.low, spec.high)
    assert data["bots"] == ["heuristic", "random", "ismcts"] + (["learned"] if learned_tables() else [])
    assert data["rule_card_counts"]["4"] == 2 and data["rule_card_counts"]["10"] == 1
    json.dumps(data)


LONE_SURROGATE = "\udfff"
STRING_KINDS = {"str", "name", "chat", "choice", "texts", "rules"}


def with_lone_surrogates(kind: str, sample: dict[str, Any] | None = None) -> Iterator[tuple[str, dict[str, Any]]]:
    """The message ``sample`` of ``kind`` (by default :data:`SAMPLES`'s) once for every string in it
    (rule option names included), with that string's first character a lone surrogate (its length
    kept): each with the field it went into."""
    fields = SAMPLES[kind] if sample is None else sample

    def variants(value: Any) -> Iterator[Any]:
        if isinstance(value, str):
            yield LONE_SURROGATE + value[1:]
        elif isinstance(value, list):
            for index, item in enumerate(value):
                for changed in variants(item):
                    yield [*value[:index], changed, *value[index + 1 :]]
        elif isinstance(value, dict):
            for key, item in value.items():
                yield {**{k: v for k, v in value.items() if k != key}, LONE_SURROGATE + key[1:]: item}
                for changed in variants(item):
                    yield {**value, key: changed}

    for name, value in fields.items():
        for changed in variants(value):
            yield name, {"type": kind, **{**fields, name: changed}}


def test_a_lone_surrogate_in_any_string_field_is_malformed() -> None:
    covered = set()
    for kind in MESSAGES:
        for name, message in with_lone_surrogates(kind):
            frame = json.dumps(message)
            assert "\\udfff" in frame, "sent as the JSON escape, as a hostile client would"
            with pytest.raises(ProtocolError, match=f"{kind}: field {name!r} holds a lone surrogate"):
                parse_message(frame)
            covered.add((kind, name))
    string_fields = {
        (kind, name) for kind, table in MESSAGES.items() for name, spec in table.items() if spec.kind in STRING_KINDS
    }
    assert covered == string_fields, "every string field of every message is tried"
    paired = json.dumps({"type": "chat", "text": "dice \U0001f3b2"})  # a pair of surrogates: one character
    assert parse_message(paired)["text"] == "dice \U0001f3b2"
