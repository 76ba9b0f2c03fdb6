"""The server's words in every language: the catalogs, the formatter, the code's use of them, and a table
where each player reads the game in their own language."""

from __future__ import annotations

import ast
import json
import random
import re
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from babel import Locale
from babel.numbers import format_decimal

from unokit.editions import EDITIONS, rulecards
from unokit.engine.cards import (
    NO_COLOUR,
    Colour,
    Kind,
    card_long_name,
    colour_id,
    colour_letter,
    colour_term,
    kind_term,
    parse_card,
)
from unokit.engine.errors import UnoError
from unokit.engine.game import Game
from unokit.engine.phases import HOUSE_PHASE_NAMES, PHASE_NAMES
from unokit.engine.rules import OPTIONS, Rules
from unokit.i18n import (
    LANGUAGES,
    PLURAL_CATEGORIES,
    PLURAL_RULES,
    UnknownLanguageError,
    UnknownMessageError,
    catalog,
    format_number,
    negotiate,
    placeholders,
)
from unokit.narrate import LEVER_OUTCOME_IDS, Narrator, describe_action, plain
from unokit.web.hints import WHY_IDS
from unokit.web.messages import asks_words
from unokit.web.protocol import EDITION_NAMES
from web_support import Client, RunningServer, fast_settings

SRC = Path(__file__).resolve().parent.parent / "src" / "unokit"
CATALOGS = SRC / "i18n" / "catalogs"
OTHERS = [lang for lang in LANGUAGES if lang != "en"]
ENGLISH = catalog("en").messages


def raw(lang: str) -> dict[str, Any]:
    result: dict[str, Any] = json.loads((CATALOGS / f"{lang}.json").read_text(encoding="utf-8"))
    return result


def forms(message: str | dict[str, str]) -> list[str]:
    return [message] if isinstance(message, str) else list(message.values())


# ---------------------------------------------------------------- the catalogs


@pytest.mark.parametrize("lang", LANGUAGES)
def test_a_catalog_holds_exactly_the_english_ids_sorted(lang: str) -> None:
    messages = raw(lang)
    assert list(messages) == sorted(messages), "keys sorted"
    assert set(messages) == set(ENGLISH), (sorted(set(ENGLISH) - set(messages)), sorted(set(messages) - set(ENGLISH)))
    assert all(re.fullmatch(r"[a-z0-9_]+(\.[a-z0-9_]+)+", key) for key in messages)


@pytest.mark.parametrize("lang", OTHERS)
def test_every_message_has_the_english_placeholders_and_shape(lang: str) -> None:
    for key, message in raw(lang).items():
        english = ENGLISH[key]
        assert isinstance(message, str) == isinstance(english, str), f"{lang} {key}: a plural where English has one"
        expected = set().union(*(placeholders(form) for form in forms(english)))
        for form in forms(message):
            assert placeholders(form) == expected, f"{lang} {key}: {form!r} has not {sorted(expected)}"
            assert form.strip() == form and form, f"{lang} {key}: empty or padded"


@pytest.mark.parametrize("lang", LANGUAGES)
def test_plural_objects_hold_the_cldr_categories_of_their_language(lang: str) -> None:
    babel_tags = set(Locale.parse(lang).plural_form.tags) | {"other"}
    assert set(PLURAL_CATEGORIES[lang]) == babel_tags
    plurals = {key: message for key, message in raw(lang).items() if isinstance(message, dict)}
    assert len(plurals) > 50
    for key, message in plurals.items():
        assert set(message) == babel_tags, f"{lang} {key}: {sorted(message)}"
        assert all("{count}" in form for form in message.values()) or key == "event.rule_reshuffle", key


@pytest.mark.parametrize("lang", LANGUAGES)
def test_the_plural_rules_agree_with_babel_from_0_to_2_million(lang: str) -> None:
    rule, babel_rule = PLURAL_RULES[lang], Locale.parse(lang).plural_form
    rng = random.Random(lang)
    numbers = [*range(0, 10_001), *range(0, 2_000_001, 1000), *(rng.randrange(2_000_001) for _ in range(20_000))]
    assert [n for n in numbers if rule(n) != babel_rule(n)] == []


@pytest.mark.parametrize("lang", LANGUAGES)
def test_numbers_are_grouped_as_the_language_writes_them(lang: str) -> None:
    rng = random.Random(lang)
    for n in [0, 7, 999, 10_000, 123_456, 1_000_000, 2_000_000, *(rng.randrange(10_000, 10**9) for _ in range(500))]:
        assert format_number(n, lang) == format_decimal(n, locale=lang), n
    # CLDR's minimum grouping digits for Spanish is 2 (as Intl.NumberFormat writes it): 1000, but 10.000.
    assert format_number(1000, "es") == "1000" and format_number(1000, lang) in (
        "1000",
        format_decimal(1000, locale=lang),
    )


def test_the_formatter_fills_placeholders_braces_plurals_and_numbers() -> None:
    t = catalog("fr")
    assert t("event.stack", count=1) == "La pénalité cumulée s'élève à 1 carte."
    assert t("event.stack", count=0) == "La pénalité cumulée s'élève à 0 carte."
    assert t("event.stack", count=2_000_000) == "La pénalité cumulée s'élève à 2\u202f000\u202f000 de cartes."
    assert catalog("es")("event.stack", count=1_000_000) == "La penalización acumulada es de 1.000.000 de cartas."
    assert catalog("de")("error.hint_rate", count=5, seconds=2.5) == "höchstens 5 Tipps in 2,5 Sekunden: Warte kurz"
    en = catalog("en")
    en.messages["test.braces"] = "{{literal}} {name}}}"  # a private copy: catalog() caches one per language
    try:
        assert en("test.braces", name="Ann") == "{literal} Ann}"
    finally:
        del en.messages["test.braces"]
    with pytest.raises(UnknownMessageError, match=r"no message 'nothing\.here' in the 'de' catalog") as caught:
        catalog("de")("nothing.here")
    assert isinstance(caught.value, KeyError)
    with pytest.raises(KeyError, match=r"needs a value for \{name\}"):
        en("event.pass.other")
    with pytest.raises(UnknownLanguageError, match="unknown language 'pt'") as refused:
        catalog("pt")
    assert isinstance(refused.value, ValueError)
    with pytest.raises(ValueError, match="stray brace"):
        placeholders("a { b")


def test_accept_language_is_negotiated_to_a_shipped_language() -> None:
    assert negotiate("es-MX,es;q=0.9,en;q=0.8") == "es"
    assert negotiate("pt-BR,pt;q=0.9,de;q=0.2") == "de"
    assert negotiate("en;q=0.5, fr;q=0.6") == "fr"
    assert negotiate("it, *;q=0.1") == "en"
    assert negotiate("de;q=0, fr;q=bad") == "en"
    assert negotiate("") == negotiate(None) == "en"


def test_the_card_terms_are_the_agreed_ones() -> None:
    agreed = {
        "es": ("rojo", "Salta", "Reversa", "Roba dos", "Comodín", "Comodín Roba cuatro", "{kind} {colour}"),
        "fr": ("rouge", "Passe ton tour", "Inversion", "+2", "Joker", "Super Joker +4", "{kind} {colour}"),
        "de": (
            "Rot",
            "Aussetzen",
            "Richtungswechsel",
            "Zieh Zwei",
            "Farbwahl",
            "Zieh Vier Farbwahl",
            "{kind} {colour}",
        ),
        "en": ("red", "Skip", "Reverse", "Draw Two", "Wild", "Wild Draw Four", "{colour} {kind}"),
    }
    ids = (
        "colour.red",
        "kind.skip",
        "kind.reverse",
        "kind.draw_two",
        "kind.wild",
        "kind.wild_draw_four",
        "card.coloured",
    )
    for lang, terms in agreed.items():
        assert tuple(raw(lang)[key] for key in ids) == terms, lang
    assert [card_long_name(parse_card("R7"), lang) for lang in LANGUAGES] == ["red 7", "7 rojo", "7 rouge", "7 Rot"]
    assert card_long_name(parse_card("G+2"), "es") == "Roba dos verde"


# ---------------------------------------------------------------- the code's use of the catalogs

_LITERAL_CALLS = [
    re.compile(
        r"""\b(?:t|self|english|self\.t|member\.t|other\.t)(?:\.parts)?\(\s*"([a-z0-9_]+(?:\.[a-z0-9_]+)+)"\s*[,)]"""
    ),
    re.compile(r"""\bRoomError\(\s*"[a-z-]+",\s*"([a-z0-9_.]+)"\s*[,)]"""),
    re.compile(r"""\bRuleTextError\(\s*"([a-z0-9_.]+)"\s*[,)]"""),
    re.compile(r"""\.error\(\s*"[a-z-]+",\s*"([a-z0-9_.]+)"\s*[,)]"""),
    re.compile(r"""\brefusal\(\s*request,\s*\d+,\s*"([a-z0-9_.]+)"\s*[,)]"""),
    re.compile(r"""\bwords="([a-z0-9_]+(?:\.[a-z0-9_]+)+)"\s*[,)]"""),  # a room core's message (Send)
]
_CASED_CALLS = re.compile(r"""\bsay\(\s*"([a-z0-9_.]+)"\s*,""")
"""A narrator's ``say``: the id of a sentence with one message per case (``.you``, ``.other``, maybe ``.other_you``)."""


def literal_ids() -> tuple[set[str], set[str]]:
    """Every message id the sources name literally, and every cased id (``say``)."""
    ids: set[str] = set()
    cased: set[str] = set()
    for path in SRC.rglob("*.py"):
        text = path.read_text(encoding="utf-8")
        for pattern in _LITERAL_CALLS:
            ids.update(pattern.findall(text))
        cased.update(_CASED_CALLS.findall(text))
    return ids, cased


def family_ids() -> set[str]:
    """The ids made from data (each checked against the data it comes from)."""
    ids = {colour_id(colour) for colour in Colour} | {kind_term(kind) for kind in Kind if kind_term(kind)}
    ids |= {f"edition.{name.replace('-', '_')}.summary" for name in EDITION_NAMES}
    phases = set(PHASE_NAMES) | set(HOUSE_PHASE_NAMES)
    for edition in EDITIONS.values():
        phases |= set(edition.phase_names)
    ids |= {f"ask.{phase.replace('-', '_')}.{case}" for phase in phases for case in ("you", "other")}
    for name, spec in OPTIONS.items():
        ids |= {f"option.{name}.label", f"option.{name}.help"}
        ids |= {f"option.{name}.choice.{choice.replace('-', '_')}" for choice in spec.labelled_choices}
    ids |= set(WHY_IDS.values()) | set(LEVER_OUTCOME_IDS) | set(rulecards._VERB_IDS.values())
    ids |= set(rulecards._REFUSED.values())
    for verb in (rulecards.GIVE, rulecards.TAKE, rulecards.SWAP):
        for target in ("left", "right", "next", "previous", "most", "fewest", "choice"):
            ids.add(f"rule.{verb}.{target}")
    return ids


def test_every_id_the_code_names_exists_and_every_message_is_used() -> None:
    ids, cased = literal_ids()
    assert len(ids) > 100 and len(cased) > 40
    for base in cased:
        assert f"{base}.you" in ENGLISH and f"{base}.other" in ENGLISH, base
    missing = sorted(key for key in ids | family_ids() if key not in ENGLISH)
    assert missing == [], missing
    used = ids | family_ids() | {f"{base}.{case}" for base in cased for case in ("you", "other", "other_you")}
    assert sorted(set(ENGLISH) - used) == [], "messages no code uses"


def test_the_data_made_ids_exist_in_every_language() -> None:
    for lang in LANGUAGES:
        for spec in OPTIONS.values():
            label, help_text, choices = spec.words(lang)
            assert label and help_text and len(choices) == len(spec.labelled_choices)
        for effect_verb in rulecards._VERB_IDS:
            try:
                effect = rulecards.RuleEffect(effect_verb, 3)
            except UnoError:  # a verb without a count
                effect = rulecards.RuleEffect(effect_verb)
            assert rulecards.describe(effect, lang)
    assert OPTIONS["stacking"].words("de")[2][1] == "Zieh Zwei auf Zieh Zwei"
    assert OPTIONS["stacking"].choice_labels[1] == "Draw Two on Draw Two", "the English, as before"


PLAYER_WORD_MODULES = [
    "narrate.py",
    "engine/cards.py",
    "editions/rulecards.py",
    "web/messages.py",
    "web/hints.py",
    "web/rooms.py",
    "web/app.py",
    "web/hub.py",
    "web/chat.py",
    "web/rematch.py",
    "web/replays.py",
    "web/guard.py",
    "web/settings.py",
]
"""The modules that produce words a player reads."""


LOGGING = ("debug", "info", "warning", "error", "exception", "notice")
"""What a log call (``log.warning``, ``guard.notice``) is named: operators read it, not players."""


def _has_letters(node: ast.AST) -> bool:
    return (
        isinstance(node, ast.Constant)
        and isinstance(node.value, str)
        and re.search(r"[A-Za-z]{2}", node.value) is not None
    )


def _exempt(lines: list[str], node: ast.AST) -> bool:
    """A line marked ``# i18n:`` (with its reason: notation, an id, digits), or a log or exception text."""
    start, end = node.lineno, getattr(node, "end_lineno", node.lineno) or node.lineno
    return any("# i18n:" in lines[number - 1] for number in range(max(1, start - 1), end + 1))


def _is_log_or_raise(parents: list[ast.AST]) -> bool:
    for parent in parents:
        if isinstance(parent, ast.Raise):
            return not any(isinstance(p, ast.Call) and getattr(p.func, "id", "") == "RoomError" for p in parents)
        if isinstance(parent, ast.Call):
            func = parent.func
            if isinstance(func, ast.Attribute) and func.attr in LOGGING and isinstance(func.value, ast.Name):
                return func.value.id in ("log", "guard")
    return False


def word_building(path: Path) -> list[str]:
    """Where ``path`` builds text from words outside the catalog formatter: an f-string with words in it,
    ``+`` with a word, or a ``join`` whose separator has words."""
    source = path.read_text(encoding="utf-8")
    lines = source.splitlines()
    found: list[str] = []

    def visit(node: ast.AST, parents: list[ast.AST]) -> None:
        bad = False
        if isinstance(node, ast.JoinedStr):
            bad = any(_has_letters(value) for value in node.values)
        elif isinstance(node, ast.BinOp) and isinstance(node.op, ast.Add):
            bad = _has_letters(node.left) or _has_letters(node.right) or isinstance(node.left, ast.JoinedStr)
        elif isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr == "join":
            bad = _has_letters(node.func.value)
        if bad and not _exempt(lines, node) and not _is_log_or_raise(parents):
            found.append(f"{path.relative_to(SRC)}:{node.lineno}: {lines[node.lineno - 1].strip()}")
        if isinstance(node, ast.Expr) and isinstance(node.value, ast.Constant):
            return  # a docstring
        for child in ast.iter_child_nodes(node):
            visit(child, [*parents, node])

    visit(ast.parse(source), [])
    return found


def test_no_module_builds_player_words_by_concatenation() -> None:
    found = [line for module in PLAYER_WORD_MODULES for line in word_building(SRC / module)]
    assert found == [], "\n".join(found)


def test_the_concatenation_check_finds_what_it_looks_for(tmp_path: Path) -> None:
    sample = SRC / "i18n" / "_sample_for_the_check.py"
    sample.write_text(
        'def f(name, n):\n    a = f"{name} plays"\n    b = "Round " + str(n)\n    c = " and ".join([name])\n'
        '    d = f"{n}"  # i18n: digits\n    e = ", ".join([name])\n    return a, b, c, d, e\n',
        encoding="utf-8",
    )
    try:
        found = word_building(sample)
    finally:
        sample.unlink()
    assert [line.split(": ", 1)[0].rsplit(":", 1)[1] for line in found] == ["2", "3", "4"]


# ---------------------------------------------------------------- the narration keeps its English


def test_the_narration_in_english_is_unchanged_and_each_language_speaks_to_you() -> None:
    names = ["Ann", "Bea", "Cé"]
    events = [("play", 1, 1, (parse_card("R7"),)), ("draw", 0, 2, ()), ("catch", 2, 0, ()), ("team_win", 0, 0, (0, 2))]
    english = [plain(Narrator(names, you=0, codes=False).event(event)) for event in events]
    assert english == [
        "Bea plays red 7 and calls UNO!",
        "You draw 2 cards.",
        "Cé catches you without UNO!",
        "Your team (you and Cé) wins the round.",
    ]
    spanish = [plain(Narrator(names, you=0, codes=False, lang="es").event(event)) for event in events]
    assert spanish == [
        "Bea juega 7 rojo y canta ¡UNO!",
        "Robas 2 cartas.",
        "¡Cé te pilla sin cantar UNO!",
        "Tu equipo (tú y Cé) gana la ronda.",
    ]
    german = plain(Narrator(names, you=None, codes=False, lang="de").event(events[0]))
    assert german == "Bea spielt 7 Rot und ruft UNO!"


# ---------------------------------------------------------------- a table of four languages


@pytest.fixture(scope="module")
def server() -> Iterator[RunningServer]:
    with RunningServer(":memory:", fast_settings(bot_delay=30.0)) as running:
        yield running


def get(server: RunningServer, path: str, language: str | None = None) -> tuple[int, dict[str, Any], str]:
    request = urllib.request.Request(server.url.replace("ws://", "http://").replace("/ws", path))
    if language is not None:
        request.add_header("Accept-Language", language)
    try:
        with urllib.request.urlopen(request, timeout=10) as answer:
            return answer.status, json.loads(answer.read()), answer.headers.get("content-language", "")
    except urllib.error.HTTPError as refused:
        return refused.code, json.loads(refused.read()), refused.headers.get("content-language", "")


def test_options_are_worded_in_the_asked_language(server: RunningServer) -> None:
    for lang in LANGUAGES:
        status, options, said = get(server, f"/api/options?lang={lang}")
        t = catalog(lang)
        assert status == 200 and said == lang
        assert options["rules"]["stacking"]["label"] == t("option.stacking.label")
        assert options["rules"]["scoring"]["choice_labels"]["knockout"] == t("option.scoring.choice.knockout")
        assert options["edition_summaries"]["space-jam"] == t("edition.space_jam.summary")
        assert options["languages"] == ["en", "es", "fr", "de"]
        terms = options["terms"]
        assert set(terms) == {key for key in ENGLISH if key.startswith(("colour.", "kind.", "card."))}
        assert terms["kind.wild_draw_four"] == t("kind.wild_draw_four")
        assert terms["card.coloured"] == t.message("card.coloured")
    status, options, said = get(server, "/api/options", "fr-CA,fr;q=0.9,en;q=0.5")
    assert said == "fr" and options["rules"]["hand_size"]["label"] == "Cartes distribuées"
    assert get(server, "/api/options")[2] == "en"
    status, refused, _ = get(server, "/api/options?lang=pt")
    assert status == 400 and "unknown language pt" in refused["error"]
    status, missing, said = get(server, "/api/rooms/ZZZZZZZZ", "de")
    assert (status, missing["error"], said) == (404, "kein Raum hat diesen Code", "de")


def connect(server: RunningServer, language: str | None = None) -> Client:
    return Client(server.url, headers={"Accept-Language": language} if language else None)


def test_each_member_of_a_table_reads_it_in_their_own_language(server: RunningServer) -> None:
    ann = connect(server, "de")  # the field wins over the header
    ann.send(type="create", name="Ann", edition="classic", seats=4, rules={"scoring": "single-round"}, lang="en")
    code = ann.expect("lobby")["code"]
    bea, cel, dirk = connect(server), connect(server, "fr-FR,fr;q=0.9"), connect(server)
    bea.send(type="join", code=code, name="Bea", lang="es")
    cel.send(type="join", code=code, name="Cé")
    dirk.send(type="join", code=code, name="Dirk", lang="de")
    members = {"en": ann, "es": bea, "fr": cel, "de": dirk}
    for client in (bea, cel, dirk):
        client.expect("lobby")
    ann.expect("lobby", where=lambda m: all(seat["kind"] == "human" for seat in m["seats"]))
    ann.send(type="start")
    names = ["Ann", "Bea", "Cé", "Dirk"]
    for seat, (lang, client) in enumerate(members.items()):
        update = client.expect("update")
        t = catalog(lang)
        narrator = Narrator(names, you=seat, codes=False, lang=lang)
        for event in update["events"]:
            cards = tuple(parse_card(card) for card in event.get("cards", ()))
            data = cards if "cards" in event else tuple(event.get("scores", event.get("seats", ())))
            expected = plain(narrator.event((event["kind"], event["seat"], event["value"], data)))
            assert event["text"] == expected, (lang, event)
        dealt = next(event for event in update["events"] if event["kind"] == "deal" and event["seat"] == seat)
        assert dealt["text"].startswith(t.message("event.deal.cards.you", 7).split("{count}")[0]), dealt["text"]
        phase, you = update["view"]["phase"].replace("-", "_"), update["view"]["actor"] == seat
        assert update["asks"] == t(f"ask.{phase}.{'you' if you else 'other'}")
        client.send(type="rematch")
        assert client.expect("error")["message"] == t("error.rematch_over")
        if lang != "en":
            client.send(type="kick", seat=0)
            assert client.expect("error")["message"] == t("error.host_only")
    actor = members[LANGUAGES[ann.update["view"]["actor"]]] if ann.update else ann
    for lang in ("es", "fr", "de", "en"):
        actor.send(type="lang", lang=lang)
        update = actor.expect("update")
        assert update["events"] == [], "the lines already sent are not sent again"
        t = catalog(lang)
        move = next(move for move in update["legal"] if move["type"] in ("draw", "colour"))
        if move["type"] == "draw":
            assert move["label"] == t("action.draw")
        else:  # a wild start card: its colour is the first decision
            colour = next(c for c in range(NO_COLOUR) if colour_letter(c) == move["colour"])
            assert move["label"] == t("action.colour", colour=colour_term(colour, t))
        actor.send(type="rematch")
        assert actor.expect("error")["message"] == catalog(lang)("error.rematch_over")
    ann.send(type="lang", lang="xx")
    assert ann.expect("error")["code"] == "malformed"
    for client in members.values():
        client.close()


def test_a_lang_message_outside_a_room_changes_the_language_of_what_follows(server: RunningServer) -> None:
    client = connect(server)
    client.send(type="lang", lang="fr")
    assert client.quiet(0.3) == [], "nothing to answer outside a room"
    client.send(type="join", code="ZZZZZZZZ", name="Zoé")
    assert client.expect("error")["message"] == "aucune salle n'a ce code"
    client.send(type="read_rule", text="Pioche 2 \u200b")
    assert client.expect("error")["message"] == "le texte de la règle contient un caractère de mise en forme (U+200B)"
    client.send(type="read_rule", text="Draw 2 cards")
    reading = client.expect("reading")
    assert reading["reading"] == "appliquée : piochez 2 cartes" and reading["enforced"]
    client.close()


HOUSE = {
    "stacking": "same",
    "stack_deflect": "both",
    "seven_swap": True,
    "zero_pass": True,
    "jump_in": True,
    "multi_play": "number",
    "multi_play_bomb": True,
    "mercy": True,
    "teams": True,
}


@pytest.mark.parametrize("lang", OTHERS)
@pytest.mark.parametrize(
    ("edition", "rules"),
    [("classic", {}), ("space-jam", {}), ("all-wild", {}), ("wild-jackpot", {}), ("classic", HOUSE)],
)
def test_whole_games_are_told_in_every_language(lang: str, edition: str, rules: dict[str, Any]) -> None:
    """Random games: every event, move and ask has its words, with no placeholder left unfilled."""
    t = catalog(lang)
    names = ["Ann", "Bea", "Cé", "Dirk"]
    for seed in range(2):
        game, rng = Game(edition, 4, seed=seed, rules=Rules.from_dict(rules)), random.Random(seed)
        narrator = Narrator(names, you=0, scoring=game.scoring, edition=edition, codes=False, lang=lang)
        for _ in range(1500):
            if game.is_over:
                break
            view = game.view(0)
            narrator.learn(view.public)
            words = [asks_words(view, game.actor == 0, t)]
            words += [describe_action(game, view, action, names, t) for action in view.legal_actions]
            words += [plain(narrator.event(event)) for event in game.events[narrator.told :]]
            narrator.told = len(game.events)
            assert all(word and "{" not in word and "}" not in word for word in words), words
            game.apply(game.actor, rng.choice(game.legal_actions(game.actor)))
