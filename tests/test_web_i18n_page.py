"""The page's message catalogs (``static/locales/<lang>/<namespace>.json``): every language holds
exactly English's messages with the same blanks and its own CLDR plural categories (as Chromium's
``Intl.PluralRules`` gives them), every id the code and the page use exists, every text of
``index.html`` is translated at run time, and the lint refuses text built from words in code."""

from __future__ import annotations

import json
import re
import shutil
import subprocess
from collections.abc import Iterator
from html.parser import HTMLParser
from pathlib import Path

import pytest
from playwright.sync_api import Browser

from browser_support import browser_fixture, playwright_instance_fixture  # noqa: F401  (fixtures)
from unokit.web.app import STATIC_DIR

ROOT = Path(__file__).resolve().parent.parent
LOCALES = STATIC_DIR / "locales"
LANGUAGES = ["en", "es", "fr", "de"]
PLACEHOLDER = re.compile(r"\{\{|\}\}|\{(\w+)\}")

Message = str | dict[str, str]


def catalog_files() -> list[Path]:
    return sorted(LOCALES.glob("*/*.json"))


def load(path: Path) -> dict[str, Message]:
    data = json.loads(path.read_text(encoding="utf-8"))
    assert isinstance(data, dict), f"{path}: a catalog is one JSON object"
    return data


def placeholders(message: Message) -> set[str]:
    texts = [message] if isinstance(message, str) else list(message.values())
    return {name for text in texts for name in PLACEHOLDER.findall(text) if name}


def english() -> dict[str, Message]:
    """Every English message of every namespace."""
    messages: dict[str, Message] = {}
    for path in sorted((LOCALES / "en").glob("*.json")):
        messages.update(load(path))
    return messages


# ---------------------------------------------------------------- the catalogs


def test_every_language_has_every_namespace() -> None:
    assert sorted(path.name for path in LOCALES.iterdir()) == sorted(LANGUAGES)
    namespaces = {lang: sorted(path.name for path in (LOCALES / lang).glob("*.json")) for lang in LANGUAGES}
    assert "page.json" in namespaces["en"]
    for lang in LANGUAGES:
        assert namespaces[lang] == namespaces["en"], lang


@pytest.mark.parametrize("path", catalog_files(), ids=lambda path: f"{path.parent.name}/{path.name}")
def test_a_catalog_is_sorted_json_of_messages(path: Path) -> None:
    """Valid JSON, keys sorted, dotted ids, each message a string or a plural object of strings."""
    text = path.read_text(encoding="utf-8")
    catalog = load(path)
    assert list(catalog) == sorted(catalog), f"{path}: keys not sorted"
    assert text == json.dumps(catalog, ensure_ascii=False, indent=2) + "\n", f"{path}: not JSON of 2 spaces"
    for key, message in catalog.items():
        assert re.fullmatch(r"[a-z][\w-]*(\.[^\s.]+)+", key), f"{path}: id {key!r}"  # dotted, as card.$.does
        if isinstance(message, dict):
            assert message and all(isinstance(text, str) and text.strip() for text in message.values()), key
            assert "{count}" in "".join(message.values()) or all("count" not in t for t in message.values()), key
        else:
            assert isinstance(message, str) and message.strip(), f"{path}: {key} is empty"


@pytest.mark.parametrize("path", catalog_files(), ids=lambda path: f"{path.parent.name}/{path.name}")
def test_a_catalog_has_englishs_messages_and_blanks(path: Path) -> None:
    """The same ids as English's catalog of the namespace, each with the same blanks and shape
    (a plural object where English has one)."""
    source = load(LOCALES / "en" / path.name)
    catalog = load(path)
    assert sorted(set(source) - set(catalog)) == [], f"{path}: missing"
    assert sorted(set(catalog) - set(source)) == [], f"{path}: not in English"
    for key, message in catalog.items():
        assert placeholders(message) == placeholders(source[key]), f"{path}: {key} blanks"
        assert isinstance(message, dict) == isinstance(source[key], dict), f"{path}: {key} plural or not"


@pytest.fixture(scope="module")
def plural_categories(browser: Browser) -> Iterator[dict[str, list[str]]]:
    """CLDR's cardinal plural categories of each language, as the browser's Intl gives them."""
    page = browser.new_page()
    categories = page.evaluate(
        "(langs) => Object.fromEntries(langs.map((lang) => "
        "[lang, new Intl.PluralRules(lang).resolvedOptions().pluralCategories]))",
        LANGUAGES,
    )
    page.close()
    yield categories


def test_plural_objects_hold_their_languages_categories(plural_categories: dict[str, list[str]]) -> None:
    """Each plural object of each catalog holds exactly its language's CLDR categories (en, de: one,
    other; es, fr: one, many, other), and English has some."""
    assert sorted(plural_categories["en"]) == ["one", "other"]
    assert sorted(plural_categories["fr"]) == ["many", "one", "other"]
    plurals = 0
    for path in catalog_files():
        lang = path.parent.name
        for key, message in load(path).items():
            if isinstance(message, dict):
                plurals += 1
                assert sorted(message) == sorted(plural_categories[lang]), f"{path}: {key}"
    assert plurals > 10


def test_translations_are_translated() -> None:
    """A language's page messages are its own words: most differ from English (the same text is
    allowed for words the languages share, like "Normal", "Bot {number}" or "online")."""
    source = load(LOCALES / "en" / "page.json")
    for lang in ("es", "fr", "de"):
        catalog = load(LOCALES / lang / "page.json")
        same = [key for key in source if catalog[key] == source[key] and re.search(r"[A-Za-z]{3}", str(source[key]))]
        assert len(same) < len(source) / 15, f"{lang}: left in English: {same}"


# ---------------------------------------------------------------- the ids used


PAGE_PREFIXES = ("start", "lobby", "settings", "top", "toast", "conn", "join", "page")
TABLE_PREFIXES = ("table", "seat", "hand", "dialog", "results", "log", "chat", "replay", "uno", "attention", "learn")
PAGE_ID = re.compile(r'["\'](({})\.[a-z0-9_.-]*[a-z0-9_])["\']'.format("|".join(PAGE_PREFIXES)))
"""A string literal that is an id of page.json: in t("id"), or in a table of ids (`{open: "lobby.seat.open"}`)."""
T_CALL = re.compile(r"\bt\(\s*[\"']([^\"']+)[\"']")
"""t("id"), of any namespace."""
FILE_NAME = re.compile(r"\.(js|css|json|svg|png|html)$")

DYNAMIC_IDS: dict[str, list[str]] = {
    "${id}.name": [
        "social.voice.joining.name",
        "social.voice.leave.name",
        "social.voice.join.name",
        "social.voice.mic_on.name",
        "social.voice.mic_off.name",
    ],
}
"""Ids built in code (a template given to t()), each template with every id it can give: the scan
cannot read them, so they are listed here (tables of whole ids are preferred)."""


def client_sources() -> dict[str, str]:
    files = [*sorted(STATIC_DIR.glob("*.js")), STATIC_DIR / "index.html"]
    return {path.name: path.read_text(encoding="utf-8") for path in files}


def test_every_id_used_exists_in_english() -> None:
    """Every message id the page's code and index.html name (t("id"), tables of ids, data-i18n,
    data-i18n-attr) is an English message; an id built by a template is refused unless listed."""
    messages = english()
    used: dict[str, set[str]] = {}
    for name, text in client_sources().items():
        for found in re.finditer(r"\bt\(\s*`([^`]*)`", text):
            assert found.group(1) in DYNAMIC_IDS, (
                f"{name}: an id built in code, t(`{found.group(1)}`): list it in DYNAMIC_IDS"
            )
        for found in [*PAGE_ID.finditer(text), *T_CALL.finditer(text)]:
            if not FILE_NAME.search(found.group(1)):
                used.setdefault(found.group(1), set()).add(name)
        if name != "index.html":
            continue  # marked elements built by code name their ids as literals, found above
        for found in re.finditer(r'data-i18n="([^"]+)"', text):
            used.setdefault(found.group(1), set()).add(name)
        for found in re.finditer(r'data-i18n-attr="([^"]+)"', text):
            for pair in found.group(1).split(";"):
                attribute, _, key = pair.partition(":")
                assert attribute.strip() and key.strip(), f"{name}: {found.group(0)}"
                used.setdefault(key.strip(), set()).add(name)
    for ids in DYNAMIC_IDS.values():
        for key in ids:
            used.setdefault(key, set()).add("DYNAMIC_IDS")
    missing = {key: sorted(names) for key, names in used.items() if key not in messages}
    assert not missing, f"ids with no English message: {missing}"
    page_ids = {key for key in used if key.startswith(tuple(p + "." for p in PAGE_PREFIXES))}
    assert len(page_ids) > 150  # the scan finds the page's ids


def test_every_page_message_is_used() -> None:
    """No message of page.json is left behind by the code (its id appears in the client)."""
    sources = "\n".join(client_sources().values())
    unused = [
        key for key in load(LOCALES / "en" / "page.json") if f'"{key}"' not in sources and f":{key}" not in sources
    ]
    unused = [key for key in unused if not re.search(rf"[:;]\s*{re.escape(key)}\b", sources)]
    assert unused == []


class TextNodes(HTMLParser):
    """The text nodes of a page that hold letters, with whether an element around them is marked."""

    VOID = {"meta", "link", "input", "img", "br", "hr", "source"}

    def __init__(self) -> None:
        super().__init__()
        self.stack: list[tuple[str, dict[str, str | None]]] = []
        self.unmarked: list[str] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag not in self.VOID:
            self.stack.append((tag, dict(attrs)))

    def handle_endtag(self, tag: str) -> None:
        while self.stack and self.stack.pop()[0] != tag:
            pass

    def handle_data(self, data: str) -> None:
        if not re.search(r"[^\W\d_]", data) or any(tag in ("script", "style") for tag, _ in self.stack):
            return
        if not any("data-i18n" in attrs for _, attrs in self.stack):
            self.unmarked.append(" ".join(data.split()))


def test_every_text_of_the_page_is_translated() -> None:
    """Every text node with letters in index.html is inside an element marked data-i18n (filled from
    the catalog at run time), but the brand and what shows without JavaScript; every attribute a
    person reads (title, aria-label, alt, placeholder of words) is marked with data-i18n-attr."""
    html = (STATIC_DIR / "index.html").read_text(encoding="utf-8")
    parser = TextNodes()
    parser.feed(html)
    assert parser.unmarked == ["unokit", "unokit", "This game needs JavaScript."]
    for attribute in ("title", "aria-label", "alt"):
        written = re.findall(rf'\s{attribute}="([^"]*[A-Za-z][^"]*)"', html)
        assert written == [], f"{attribute}: {written}"
    placeholders_ = re.findall(r'placeholder="([^"]*)"', html)
    assert set(placeholders_) <= {"ABCD2345", "Ann", "Ben"}  # a code and names, not words


# ---------------------------------------------------------------- no text built from words


def eslint(source: str, name: str = "src/unokit/web/static/sample.js") -> str:
    """ESLint's findings on `source` as a module of the client (the project's config)."""
    npx = shutil.which("npx")
    if not npx or not (ROOT / "node_modules" / "eslint").exists():
        pytest.fail("the client lint needs Node.js and the client's packages: `make client`", pytrace=False)
    result = subprocess.run(
        [npx, "eslint", "--stdin", "--stdin-filename", name, "--format", "json"],
        input=source,
        capture_output=True,
        text=True,
        cwd=ROOT,
        timeout=120,
        check=False,
    )
    assert result.returncode in (0, 1), result.stderr
    return "\n".join(f"{found['ruleId']}: {found['message']}" for found in json.loads(result.stdout)[0]["messages"])


def test_the_lint_refuses_words_built_in_code() -> None:
    """A template with words, `+` or `+=` with a word: each refused; whole messages and templates of
    non-words with a commented exception pass."""
    refused = {
        "template": "export const f = (n) => `${n} cards left`;\n",
        "plus": 'export const f = (name) => "Waiting for " + name;\n',
        "plus-assign": 'export function f(s) {\n  s += " and you";\n  return s;\n}\n',
    }
    for kind, source in refused.items():
        assert "no-restricted-syntax" in eslint(source), kind
    allowed = (
        'import { t } from "./i18n.js";\n'
        'export const f = (name) => t("lobby.wait.host", { name });\n'
        "export const g = (n) => `${n}%`;\n"
        "// eslint-disable-next-line no-restricted-syntax -- an address, not words\n"
        "export const h = (code) => `/r/${code}`;\n"
    )
    assert eslint(allowed) == ""


def test_the_lint_covers_every_module() -> None:
    """The rule refusing words built in code applies to every module of the client: eslint.config.js
    exempts none (an exception is a commented line where it stands, never a whole module)."""
    config = (ROOT / "eslint.config.js").read_text(encoding="utf-8")
    assert '"no-restricted-syntax": NO_WORDS_BUILT_IN_CODE' in config
    assert "ignores" not in config, "a module is left out of the lint"
