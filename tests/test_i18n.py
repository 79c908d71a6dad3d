"""Every language of the site is complete: each one in ``settings.LANGUAGES`` but the
source language (English) has a catalogue in which every message is translated, the
compiled catalogue is current, and the main pages and every PDF kind come out in that
language with no English left. A language added to settings without its catalogue, or a
string added without a translation in each catalogue, fails here.

Three independent nets, each failing on a string added without a translation:

* the catalogue test re-extracts the messages from the current source (``makemessages``
  into a scratch copy of the project, or a pure-Python extractor where GNU gettext is not
  installed) and wants each one translated in ``locale/es``;
* the page and PDF tests render them in each language and look for English UI words;
* they also render the same thing in English and want no word of it left in the other
  version, except names from the data and words that are the same in both languages.

What the pages show as data (player and tournament names, the audit log's raw JSON, the
CSV file format's column names) is not interface text; the fixtures use names that are
neither English nor UI words.
"""

from __future__ import annotations

import ast
import gettext as gnu_gettext
import io
import os
import re
import shutil
import subprocess
import sys
import tokenize
from dataclasses import dataclass, field
from html.parser import HTMLParser
from pathlib import Path

import pytest
from django.conf import settings
from django.utils.translation.template import templatize

BASE_DIR = Path(settings.BASE_DIR)
# Every language the site speaks besides the one its messages are written in.
TRANSLATED = [code for code, _name in settings.LANGUAGES if code != "en"]


def po_path(language: str) -> Path:
    return BASE_DIR / "locale" / language / "LC_MESSAGES" / "django.po"


PO_PATH = po_path("es")
# The same directories the Makefile's ``translations`` target leaves out.
IGNORED_DIRS = {".venv", "tests", "test-artifacts", "data", "locale", "node_modules"}
EXTENSIONS = {".py", ".html", ".txt"}  # makemessages' defaults for the "django" domain

Key = tuple[str | None, str]  # (context, msgid)


# -- reading a .po file ----------------------------------------------------------------------


@dataclass
class PoEntry:
    msgid: str
    msgctxt: str | None = None
    msgid_plural: str | None = None
    msgstr: list[str] = field(default_factory=list)
    flags: set[str] = field(default_factory=set)
    locations: list[str] = field(default_factory=list)
    obsolete: bool = False

    @property
    def key(self) -> Key:
        return (self.msgctxt, self.msgid)


_PO_LINE = re.compile(r'^(msgctxt|msgid_plural|msgid|msgstr(?:\[\d+\])?)\s+(".*")$')


def read_po(path: Path) -> tuple[dict[str, str], list[PoEntry]]:
    """The header's fields and the entries of a .po file (strings unescaped)."""
    entries: list[PoEntry] = []
    fields: dict[str, str] = {}
    flags: set[str] = set()
    locations: list[str] = []
    obsolete = False
    current: dict[str, object] = {}
    last = ""

    def flush() -> None:
        nonlocal current, flags, locations, obsolete
        if "msgid" in current:
            strs = current.get("msgstr", {})
            assert isinstance(strs, dict)
            entries.append(
                PoEntry(
                    msgid=str(current["msgid"]),
                    msgctxt=current.get("msgctxt"),  # type: ignore[arg-type]
                    msgid_plural=current.get("msgid_plural"),  # type: ignore[arg-type]
                    msgstr=[strs[i] for i in sorted(strs)],
                    flags=flags,
                    locations=locations,
                    obsolete=obsolete,
                )
            )
        current, flags, locations, obsolete = {}, set(), [], False

    for raw in path.read_text(encoding="utf-8").splitlines():
        line = raw.strip()
        if line.startswith("#~"):
            obsolete = True
            line = line[2:].strip()
        if not line:
            flush()
            continue
        if line.startswith("#,"):
            flags |= {flag.strip() for flag in line[2:].split(",")}
            continue
        if line.startswith("#:"):
            locations.extend(line[2:].split())
            continue
        if line.startswith("#"):
            continue
        if line.startswith('"'):
            value = ast.literal_eval(line)
            if last.startswith("msgstr"):
                strs = current["msgstr"]
                assert isinstance(strs, dict)
                strs[last] += value
            else:
                current[last] = str(current[last]) + value
            continue
        match = _PO_LINE.match(line)
        assert match, f"{path}: cannot read {raw!r}"
        keyword, value = match.group(1), ast.literal_eval(match.group(2))
        if keyword in ("msgctxt", "msgid") and "msgstr" in current:
            flush()
        if keyword.startswith("msgstr"):
            current.setdefault("msgstr", {})[keyword] = value  # type: ignore[index]
        else:
            current[keyword] = value
        last = keyword
    flush()
    header = next((e for e in entries if e.key == (None, "")), None)
    if header is not None:
        entries.remove(header)
        for line in header.msgstr[0].splitlines():
            name, _, value = line.partition(":")
            fields[name.strip()] = value.strip()
    return fields, entries


# -- extracting the messages from the source -------------------------------------------------

# makemessages' keywords (xgettext's Python defaults plus Django's); argument roles in order.
KEYWORDS = {
    "_": ("msgid",),
    "gettext": ("msgid",),
    "gettext_lazy": ("msgid",),
    "gettext_noop": ("msgid",),
    "ngettext": ("msgid", "plural"),
    "ngettext_lazy": ("msgid", "plural"),
    "pgettext": ("ctx", "msgid"),
    "pgettext_lazy": ("ctx", "msgid"),
    "npgettext": ("ctx", "msgid", "plural"),
    "npgettext_lazy": ("ctx", "msgid", "plural"),
}


@dataclass(frozen=True)
class Message:
    key: Key
    plural: str | None
    where: str


def _string_value(tokens: list[tokenize.TokenInfo]) -> str | None:
    """The value of an argument made only of (adjacent) string literals, else None."""
    parts = [t for t in tokens if t.type not in (tokenize.NL, tokenize.NEWLINE, tokenize.COMMENT)]
    if not parts or any(t.type != tokenize.STRING for t in parts):
        return None
    values = []
    for token in parts:
        prefix = token.string[: token.string.index(token.string[-1])].lower()
        if "f" in prefix or "b" in prefix:
            return None
        values.append(ast.literal_eval(token.string))
    return "".join(values)


def _calls(source: str, where: str) -> list[Message]:
    tokens = [
        t
        for t in tokenize.generate_tokens(io.StringIO(source).readline)
        if t.type not in (tokenize.COMMENT, tokenize.NL)
    ]
    found = []
    for i, token in enumerate(tokens[:-1]):
        roles = KEYWORDS.get(token.string) if token.type == tokenize.NAME else None
        if roles is None or tokens[i + 1].string != "(":
            continue
        args: list[list[tokenize.TokenInfo]] = [[]]
        depth = 0
        for inner in tokens[i + 2 :]:
            if inner.type == tokenize.OP and inner.string in "([{":
                depth += 1
            elif inner.type == tokenize.OP and inner.string in ")]}":
                if depth == 0:
                    break
                depth -= 1
            elif inner.type == tokenize.OP and inner.string == "," and depth == 0:
                args.append([])
                continue
            args[-1].append(inner)
        values = dict(zip(roles, (_string_value(arg) for arg in args), strict=False))
        if any(values.get(role) is None for role in roles):
            continue
        line = f"{where}:{token.start[0]}"
        found.append(Message((values.get("ctx"), values["msgid"]), values.get("plural"), line))
    return found


def python_extract() -> list[Message]:
    """Every translatable message in the source, found the way makemessages finds them
    (templates through Django's own ``templatize``), without GNU gettext."""
    messages: list[Message] = []
    for directory, subdirs, files in os.walk(BASE_DIR):
        subdirs[:] = sorted(d for d in subdirs if d not in IGNORED_DIRS and not d.startswith("."))
        for name in sorted(files):
            path = Path(directory, name)
            if path.suffix not in EXTENSIONS:
                continue
            where = str(path.relative_to(BASE_DIR))
            source = path.read_text(encoding="utf-8")
            if path.suffix != ".py":
                # Indentation means nothing in a template; tokenize would trip over it.
                source = "\n".join(
                    line.lstrip() for line in templatize(source, origin=where).splitlines()
                )
            messages.extend(_calls(source, where))
    return messages


def makemessages_extract(tmp_path: Path) -> tuple[list[PoEntry], str]:
    """Run the project's own ``makemessages`` over a scratch copy of the source, so the
    repository's catalogue is never touched. Returns the fresh entries and xgettext's
    warnings."""
    copy = tmp_path / "project"
    shutil.copytree(
        BASE_DIR,
        copy,
        ignore=lambda _dir, names: [
            n
            for n in names
            if n in IGNORED_DIRS
            or n.startswith(".")
            or n == "__pycache__"
            or n.endswith((".sqlite3", ".pyc"))
        ],
    )
    (copy / "locale").mkdir()
    env = {**os.environ, "DJANGO_SETTINGS_MODULE": "config.settings", "PYTHONPATH": str(copy)}
    result = subprocess.run(
        [sys.executable, "manage.py", "makemessages", "-l", "es", "--no-wrap"]
        + [f"--ignore={d}" for d in sorted(IGNORED_DIRS)],
        cwd=copy,
        env=env,
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert result.returncode == 0, result.stderr
    _, entries = read_po(copy / "locale" / "es" / "LC_MESSAGES" / "django.po")
    return entries, result.stderr


HAVE_GETTEXT = all(shutil.which(tool) for tool in ("xgettext", "msguniq", "msgmerge"))
needs_gettext = pytest.mark.skipif(not HAVE_GETTEXT, reason="GNU gettext is not installed")


@pytest.fixture(scope="module")
def extracted(tmp_path_factory) -> tuple[list[PoEntry], str]:
    """makemessages' view of the source, taken once for the module (it takes seconds)."""
    return makemessages_extract(tmp_path_factory.mktemp("makemessages"))


@dataclass
class Catalogue:
    language: str
    fields: dict[str, str]
    entries: dict[Key, PoEntry]

    def __iter__(self):  # (fields, entries), as the tests unpack it
        return iter((self.fields, self.entries))

    def __getitem__(self, index: int):
        return (self.fields, self.entries)[index]


@pytest.fixture(scope="module", params=TRANSLATED)
def catalogue(request) -> Catalogue:
    """One translated language's catalogue: every test using it runs once per language."""
    path = po_path(request.param)
    assert path.exists(), f"{request.param} is in settings.LANGUAGES but has no {path}"
    fields, entries = read_po(path)
    return Catalogue(request.param, fields, {e.key: e for e in entries if not e.obsolete})


def _untranslated(wanted: dict[Key, str], catalogue: Catalogue) -> list[str]:
    problems = []
    path = po_path(catalogue.language).relative_to(BASE_DIR)
    for key, where in sorted(wanted.items(), key=lambda item: item[1]):
        entry = catalogue.entries.get(key)
        label = f"{where}: {key[1]!r}" + (f" (context {key[0]!r})" if key[0] else "")
        if entry is None:
            problems.append(f"{label} is not in {path}")
        elif "fuzzy" in entry.flags:
            problems.append(f"{label} is fuzzy")
        elif not entry.msgstr or not all(entry.msgstr):
            problems.append(f"{label} has no {catalogue.language} translation")
    return problems


FIX = (
    "run `make translations`, translate the new messages in every catalogue in locale/ "
    "and commit .po and .mo"
)


@needs_gettext
def test_makemessages_finds_nothing_untranslated(extracted, catalogue):
    entries, warnings = extracted
    assert "used without plural and with plural" not in warnings, (
        "one msgid is used both with and without a plural form; gettext() cannot find the "
        f"singular one. Give one of them a context.\n{warnings}"
    )
    wanted = {e.key: " ".join(e.locations) for e in entries}
    problems = _untranslated(wanted, catalogue)
    assert not problems, f"{FIX}:\n" + "\n".join(problems)


def test_every_message_in_the_source_is_translated(catalogue):
    """The same check without GNU gettext, so a fresh machine runs it too."""
    messages = python_extract()
    assert len(messages) > 500, "the extractor found suspiciously few messages"
    plural_use: dict[Key, set[bool]] = {}
    for message in messages:
        plural_use.setdefault(message.key, set()).add(message.plural is not None)
    mixed = [key for key, uses in plural_use.items() if len(uses) > 1]
    assert not mixed, f"used both with and without a plural form (add a context): {mixed}"
    wanted = {m.key: m.where for m in messages}
    problems = _untranslated(wanted, catalogue)
    assert not problems, f"{FIX}:\n" + "\n".join(problems)


@needs_gettext
def test_python_extractor_agrees_with_makemessages(extracted):
    """The fallback above finds exactly what makemessages finds."""
    entries, _ = extracted
    assert {m.key for m in python_extract()} == {e.key for e in entries}


def test_the_catalogue_is_complete_and_well_formed(catalogue):
    fields, entries = catalogue
    assert fields["Language"] == catalogue.language
    assert fields["Plural-Forms"] == "nplurals=2; plural=(n != 1);"
    assert fields["Content-Type"] == "text/plain; charset=UTF-8"
    problems = []
    for entry in entries.values():
        where = repr(entry.msgid)
        if "fuzzy" in entry.flags:
            problems.append(f"{where} is fuzzy")
        if not all(entry.msgstr) or len(entry.msgstr) != (2 if entry.msgid_plural else 1):
            problems.append(f"{where} is not (fully) translated")
        if entry.msgid_plural is None:
            # Exactly the original's placeholders and markup.
            pairs = [(text, _placeholders(entry.msgid)) for text in entry.msgstr]
        else:
            # A singular may leave the number out ("one game" / "una partida"); the plural
            # form keeps every placeholder of the English plural.
            allowed = _placeholders(entry.msgid) | _placeholders(entry.msgid_plural)
            pairs = [(text, _placeholders(text) & allowed) for text in entry.msgstr[:-1]]
            pairs.append((entry.msgstr[-1], _placeholders(entry.msgid_plural)))
        for text, wanted in pairs:
            if _placeholders(text) != wanted:
                problems.append(f"{where}: placeholders {_placeholders(text)} != {wanted}")
            if _tags(text) != _tags(entry.msgid):
                problems.append(f"{where}: HTML {_tags(text)} != {_tags(entry.msgid)}")
    assert not problems, "\n".join(problems)


def _placeholders(text: str) -> set[str]:
    return set(re.findall(r"%\(\w+\)[sd]|\{\w*\}", text))


def _tags(text: str) -> list[str]:
    return re.findall(r"</?\w+>|&\w+;", text)


def test_the_compiled_catalogue_matches_the_po_file(catalogue):
    fields, entries = catalogue
    with po_path(catalogue.language).with_suffix(".mo").open("rb") as handle:
        mo = gnu_gettext.GNUTranslations(handle)
    assert mo.info()["plural-forms"] == fields["Plural-Forms"]
    stale = []
    for entry in entries.values():
        if entry.msgid_plural is None:
            if entry.msgctxt is None:
                got = [mo.gettext(entry.msgid)]
            else:
                got = [mo.pgettext(entry.msgctxt, entry.msgid)]
        elif entry.msgctxt is None:
            got = [mo.ngettext(entry.msgid, entry.msgid_plural, n) for n in (1, 2)]
        else:
            got = [mo.npgettext(entry.msgctxt, entry.msgid, entry.msgid_plural, n) for n in (1, 2)]
        if got != entry.msgstr:
            stale.append(f"{entry.msgid!r}: {got} != {entry.msgstr}")
    assert not stale, "django.mo is out of date; run `make messages`:\n" + "\n".join(stale)


ENGINE_MESSAGE = {
    "es": "mano 4: los puntos sueltos de quien cierra (12) superan el límite de cierre de 10",
    "af": "hand 4: die klopper se dooihout (12) is bo die kloplimiet van 10",
}


def test_engine_messages_are_in_the_catalogue(catalogue):
    """The engine marks its messages with a no-op ``_``; the web layer translates them."""
    from django.utils import translation

    from engine.errors import ScoringError

    error = ScoringError(
        "knocker deadwood %(deadwood)d is over the knock limit of %(limit)d",
        {"deadwood": 12, "limit": 10},
    ).at_hand(4)
    with translation.override(catalogue.language):
        text = error.render(translation.gettext)
    assert text == ENGINE_MESSAGE[catalogue.language]
    assert str(error) == "hand 4: knocker deadwood 12 is over the knock limit of 10"


def test_every_language_of_the_site_is_checked_and_compiled():
    """A language is a catalogue and one line of settings: each one in settings.LANGUAGES
    has its .po and .mo, a tournament may speak it, and the switcher offers it."""
    from tournaments.models import Tournament

    assert settings.LANGUAGE_CODE == "en" and "en" in dict(settings.LANGUAGES)
    assert {"es", "af"} <= set(TRANSLATED)
    for language in TRANSLATED:
        assert po_path(language).exists() and po_path(language).with_suffix(".mo").exists()
    field = Tournament._meta.get_field("language")
    assert [code for code, _name in field.choices] == [c for c, _n in settings.LANGUAGES]
    assert field.max_length >= max(len(code) for code, _name in settings.LANGUAGES)


@pytest.mark.django_db
def test_a_new_language_in_settings_needs_no_migration(settings):
    """The tournament's language choices come from settings.LANGUAGES through a callable,
    which the migrations name instead of copying the list."""
    from io import StringIO

    from django.core.management import call_command

    settings.LANGUAGES = [*settings.LANGUAGES, ("pt-br", "Brazilian Portuguese")]
    out = StringIO()
    call_command("makemigrations", "--check", "--dry-run", stdout=out)
    assert "No changes detected" in out.getvalue()


# -- pages and PDFs in each language ---------------------------------------------------------


def _word_list(text: str) -> frozenset[str]:
    return frozenset(text.split())


# Words of the English interface that are not Spanish words. Matched as whole words, case
# sensitive ("Final", "Total", "Gin", "Hollywood", "no" are Spanish too and left out).
ENGLISH_WORDS = _word_list(
    """
    Round round Rounds Table table Tables tables Hand hand Hands hands Save Enter Player
    Players players Standings Bracket bracket Confirm Knock knock knocked Deadwood deadwood
    Winner winner Log Tournament Tournaments tournament Game Games game games Match Matches
    match matches Points points Boxes Box box Shutout Shutouts shutout Undercut Undercuts
    undercut Dealer dealer deal deals dealt Seed Seeds seed Registration Roles Setup Audit
    Search Name Phone Email Delete Edit Cancel Add Remove Withdraw Preview Generate Champion
    Results Place Progress Played Playing played Waiting waiting Ready Complete Draft Running
    Finished Status Date Scoresheet Signature Next Previous Show Filter When Who What Before
    After Page the and with for of to is not yes bye walkover Walkover needed free queued
    beat wins won Username Password Rules Format Back Open Import Projector Directors
    Scorekeeper Scorekeepers Nobody nobody Third place Semifinals Quarterfinals Still Out
    Check Here Paid Set Find New Other Average Avg Tables Losers Winners Consolation Reset
    Starting Scan Column Columns continued progress Spades spades Big big Dead
    dead went out Opponent opponent lay offs card Card Clubs Hearts Diamonds Link link
    """
)
# Words that are the same in both languages, card ranks and match keys (W1-2, P), and
# "none", the word the setup form takes for "no big gin" in any language; the names of
# rule sets (Palace, Tedesco) and the language switcher's codes; the program's own name in
# the footer (ginclub, as `ginclub --version` prints it).
SAME_IN_BOTH = _word_list(
    """
    A B C J Q K N P W O Gin gin Gins gins rummy Hollywood Oklahoma Total total Final final Club
    Director Provisional control a no vs PDF JSON CSV UTF A4 kB EN ES Rating rating none
    AF Palace Tedesco ginclub
    """
)

# Afrikaans words spelt like English ones: English UI words that are Afrikaans too, and
# words both versions print. Everything else English in an Afrikaans page is a miss.
ALSO_AFRIKAANS = _word_list("hand Hand is of Status")
# "s" is the end of "s'n" (almal s'n: everyone's).
SAME_IN_AFRIKAANS = _word_list("in as by my My s AF bonus Modern Letter Afrikaans")
SAME_IN_SPANISH = _word_list("as")  # "as" is the Spanish for an ace
ALSO_IN = {"es": frozenset(), "af": ALSO_AFRIKAANS}
SAME_IN = {
    "es": SAME_IN_BOTH | SAME_IN_SPANISH,
    "af": SAME_IN_BOTH | ALSO_AFRIKAANS | SAME_IN_AFRIKAANS,
}

NAMES = [
    "Ana Ruiz",
    "Beatriz Soto",
    "Carmen Vidal",
    "Diego Marín",
    "Elena Quiroga",
    "Fabián Lugo",
    "Gloria Nieto",
    "Héctor Salas",
]


class VisibleText(HTMLParser):
    """The text a reader sees: text nodes, the title, and the attributes a browser shows
    (tooltips, placeholders, labels for screen readers, confirm dialogs, button values).
    ``<script>``, ``<style>`` and ``<code>``/``<pre>`` (the audit log's raw JSON, the CSV
    file format) are not interface text."""

    SKIP = {"script", "style", "code", "pre"}
    SHOWN = {"title", "placeholder", "aria-label", "alt", "hx-confirm"}

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.parts: list[str] = []
        self.skipping = 0

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag in self.SKIP:
            self.skipping += 1
        values = dict(attrs)
        for name, value in attrs:
            if value and name in self.SHOWN:
                self.parts.append(value)
        if tag == "input" and values.get("type") in ("submit", "button") and values.get("value"):
            self.parts.append(values["value"] or "")

    def handle_endtag(self, tag: str) -> None:
        if tag in self.SKIP and self.skipping:
            self.skipping -= 1

    def handle_data(self, data: str) -> None:
        if not self.skipping:
            self.parts.append(data)


def visible_text(html: str) -> str:
    parser = VisibleText()
    parser.feed(html)
    return " ".join(" ".join(parser.parts).split())


def words(text: str) -> set[str]:
    """The words of ``text``; addresses (table links hold random letters) are not words."""
    return set(re.findall(r"[^\W\d_]+", re.sub(r"\S+://\S+", " ", text)))


def english_left(
    translated: str, english: str, data_words: set[str], language: str = "es"
) -> dict[str, set[str]]:
    """English UI words in the translated text, and words of the English rendering that
    survive in it (names and words shared by both languages aside)."""
    found = words(translated)
    return {
        "English UI words": (found & (ENGLISH_WORDS - ALSO_IN[language])) - data_words,
        "words also in the English version": (found & words(english))
        - data_words
        - SAME_IN[language],
    }


@dataclass
class Club:
    """A Spanish-speaking club night with something on every screen."""

    director: object
    tournament: object
    draft: object
    playing: object
    awaiting: object
    complete: object
    hollywood: object
    oklahoma: object
    revoked: object

    @property
    def data_words(self) -> set[str]:
        from tournaments.models import Player, Tournament

        texts = [str(self.director), "zzz"]
        texts += [f"{p.name} {p.email}" for p in Player.objects.all()]
        for t in Tournament.objects.all():
            texts += [t.name, t.venue, t.slug]
        texts += ["marta", "rocio", "ana", "Ana Torres", "Ben Okafor", "example", "com"]
        # The CSV file's column names are a file format, shown as such on the import page.
        texts += ["name email phone club_id rating notes surname"]
        texts += ["nombre apellidos correo teléfono club puntuación notas UTF Windows"]
        return words(" ".join(texts))


def _spanish_tournament(director, name: str, count: int, **fields):
    from tests.factories import make_tournament
    from tournaments.models import Entry, Player

    tournament = make_tournament(owner=director, name=name, language="es", **fields)
    for seed, name_ in enumerate(NAMES[:count], start=1):
        email = f"{name_.split()[0].lower()}@club.es"
        player, _ = Player.objects.get_or_create(name=name_, email=email)
        Entry.objects.create(tournament=tournament, player=player, seed=seed)
    return tournament


def _generate(tournament):
    from tournaments.draw import generate_bracket

    generate_bracket(tournament=tournament, user=tournament.owner)
    tournament.refresh_from_db()
    return tournament


def _play_out(match, winner: str, user) -> None:
    """Big gins for ``winner`` until the match is decided."""
    from scoring.loading import HandData
    from tests.scoring.helpers import play
    from tournaments.models import Match

    while match.status != Match.Status.AWAITING:
        play(match, [HandData("big_gin", winner, None, 40)], user=user)
        match.refresh_from_db()


@pytest.fixture
def club(db) -> Club:
    from scoring.loading import HandData
    from tables.table_links import set_table_link
    from tests.factories import make_director, make_user
    from tests.scoring.helpers import gin, knock, play
    from tournaments.services import confirm_match

    director = make_director(username="directora")
    tournament = _spanish_tournament(
        director, "Copa Primavera", 8, venue="Casino del Puerto", tables=3, third_place=True
    )
    tournament.co_directors.add(make_user(username="marta"))
    tournament.scorekeepers.add(make_user(username="rocio"))
    _generate(tournament)
    round_one = tournament.matches.filter(section="winners", round=1).order_by("position")
    first, second, third, fourth = round_one
    first.first_dealer = "B"
    first.save(update_fields=["first_dealer"])
    mixed = [
        knock("A", 4, 31),
        knock("B", 9, 5),  # an undercut
        HandData("draw"),
        HandData("big_gin", "A", None, 22),
        gin("B", 17),
    ]
    play(first, mixed, user=director)
    _play_out(first, "A", director)
    confirm_match(match=first, user=director)
    play(second, mixed, user=director)
    _play_out(third, "B", director)
    set_table_link(match=fourth, action="revoke", user=director)

    hollywood = _spanish_tournament(director, "Noche Hollywood", 2, preset="hollywood")
    _generate(hollywood)
    hollywood_match = hollywood.matches.get()
    play(hollywood_match, [knock("A", 3, 40), gin("B", 12), knock("B", 2, 20)], user=director)

    oklahoma = _spanish_tournament(director, "Torneo Oklahoma", 2, preset="oklahoma")
    _generate(oklahoma)

    draft = _spanish_tournament(director, "Liga de Otoño", 5, random_draw=True, draw_seed=4242)
    for model in (first, second, third, fourth, hollywood_match):
        model.refresh_from_db()
    return Club(
        director=director,
        tournament=tournament,
        draft=draft,
        playing=second,
        awaiting=third,
        complete=first,
        hollywood=hollywood_match,
        oklahoma=oklahoma.matches.get(),
        revoked=fourth,
    )


def _match_url(match, suffix: str = "") -> str:
    return f"/t/{match.tournament.slug}/matches/{match.pk}/{suffix}"


PAGES = {
    # name: (signed in?, url builder)
    "home": (False, lambda c: "/"),
    "home-signed-in": (True, lambda c: "/"),
    "login": (False, lambda c: "/accounts/login/"),
    "dashboard": (True, lambda c: "/director/"),
    "player-registry": (True, lambda c: "/director/players/"),
    "player-search": (True, lambda c: "/director/players/?q=zzz"),
    "player-new": (True, lambda c: "/director/players/new/"),
    "player-import": (True, lambda c: "/director/players/import/"),
    "tournament-new": (True, lambda c: "/director/tournaments/new/"),
    "tournament-setup": (True, lambda c: f"/t/{c.tournament.slug}/manage/"),
    "draft-setup": (True, lambda c: f"/t/{c.draft.slug}/manage/"),
    "registration": (True, lambda c: f"/t/{c.tournament.slug}/manage/entries/"),
    "registration-open": (True, lambda c: f"/t/{c.draft.slug}/manage/entries/?q=a"),
    "bracket-preview": (True, lambda c: f"/t/{c.draft.slug}/manage/bracket/"),
    "bracket-generated": (True, lambda c: f"/t/{c.tournament.slug}/manage/bracket/"),
    "round-control": (True, lambda c: f"/t/{c.tournament.slug}/manage/rounds/"),
    "round-control-empty": (True, lambda c: f"/t/{c.draft.slug}/manage/rounds/"),
    "roles": (True, lambda c: f"/t/{c.tournament.slug}/manage/roles/"),
    "audit-log": (True, lambda c: f"/t/{c.tournament.slug}/manage/audit/"),
    "match-sheet-director": (True, lambda c: _match_url(c.playing)),
    "match-sheet-complete": (False, lambda c: _match_url(c.complete)),
    "match-sheet-awaiting": (False, lambda c: f"/table/{c.awaiting.token}/"),
    "match-sheet-hollywood": (True, lambda c: _match_url(c.hollywood)),
    "entry-form-oklahoma": (True, lambda c: _match_url(c.oklahoma)),
    "hand-edit": (True, lambda c: _match_url(c.playing, "hands/2/edit/")),
    "hand-delete": (True, lambda c: _match_url(c.playing, "hands/2/delete/")),
    "table-link": (False, lambda c: f"/table/{c.playing.token}/"),
    "table-link-closed": (False, lambda c: f"/table/{c.revoked.token}/"),
    "public-tournament": (False, lambda c: f"/t/{c.tournament.slug}/"),
    "public-not-drawn": (False, lambda c: f"/t/{c.draft.slug}/"),
    "projector-bracket": (False, lambda c: f"/t/{c.tournament.slug}/display/?panel=bracket"),
    "projector-standings": (False, lambda c: f"/t/{c.tournament.slug}/display/?panel=standings"),
    "projector-tables": (False, lambda c: f"/t/{c.tournament.slug}/display/?panel=tables"),
}


def _get(client, url: str, language: str):
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = language
    response = client.get(url, HTTP_ACCEPT_LANGUAGE=language)
    assert response.status_code in (200, 410), f"{url}: {response.status_code}"
    return response


@pytest.mark.parametrize("language", TRANSLATED)
@pytest.mark.parametrize("page", PAGES)
def test_page_in_each_language_has_no_english(client, club, page, language):
    signed_in, url_of = PAGES[page]
    if signed_in:
        client.force_login(club.director)
    url = url_of(club)
    translated = _get(client, url, language)
    assert translated["Content-Language"] == language
    english = _get(client, url, "en")
    assert english["Content-Language"] == "en"
    left = english_left(
        visible_text(translated.content.decode()),
        visible_text(english.content.decode()),
        club.data_words,
        language,
    )
    assert not any(left.values()), f"{url} in {language} still shows English: {left}"


def test_public_pages_follow_the_tournament_language(client, club):
    """A visitor who chose no language sees the tournament's, whatever the browser says."""
    for url, spanish in (
        (f"/t/{club.tournament.slug}/", "Clasificación y estadísticas"),
        (f"/table/{club.playing.token}/", "¿Cómo terminó la mano?"),
        (f"/t/{club.tournament.slug}/display/?panel=tables", "Mesas en juego"),
    ):
        response = client.get(url, HTTP_ACCEPT_LANGUAGE="en")
        assert response["Content-Language"] == "es"
        assert spanish in visible_text(response.content.decode())


def test_public_pages_follow_an_afrikaans_tournament(client, club):
    """A third language works the same way: the tournament's, whatever the browser says."""
    club.tournament.language = "af"
    club.tournament.save(update_fields=["language"])
    for url, afrikaans in (
        (f"/t/{club.tournament.slug}/", "Ranglys en statistieke"),
        (f"/table/{club.playing.token}/", "Hoe het die hand geëindig?"),
        (f"/t/{club.tournament.slug}/display/?panel=tables", "Tafels aan die speel"),
    ):
        response = client.get(url, HTTP_ACCEPT_LANGUAGE="es")
        assert response["Content-Language"] == "af"
        assert afrikaans in visible_text(response.content.decode())


PDFS = {
    "scoresheet": lambda c: _match_url(c.playing, "scoresheet.pdf"),
    "scoresheet-hollywood": lambda c: _match_url(c.hollywood, "scoresheet.pdf"),
    "round-pack": lambda c: f"/t/{c.tournament.slug}/rounds/1/scoresheets.pdf",
    "bracket": lambda c: f"/t/{c.tournament.slug}/bracket.pdf",
    "standings": lambda c: f"/t/{c.tournament.slug}/standings.pdf",
}


def pdf_text(content: bytes) -> str:
    from pypdf import PdfReader

    return " ".join(page.extract_text() for page in PdfReader(io.BytesIO(content)).pages)


def _pdf(client, url: str) -> str:
    response = client.get(url, HTTP_ACCEPT_LANGUAGE="en")
    assert response.status_code == 200, f"{url}: {response.status_code}"
    assert response["Content-Type"] == "application/pdf"
    return pdf_text(response.content)


def _speak(club: Club, language: str) -> None:
    for tournament in {club.tournament, club.hollywood.tournament}:
        tournament.language = language
        tournament.save(update_fields=["language"])


@pytest.mark.parametrize("language", TRANSLATED)
@pytest.mark.parametrize("kind", PDFS)
def test_pdf_in_each_language_has_no_english(client, club, kind, language):
    """PDFs speak the tournament's language, whatever the browser asks for."""
    client.force_login(club.director)
    url = PDFS[kind](club)
    _speak(club, language)
    translated = _pdf(client, url)
    _speak(club, "en")
    english = _pdf(client, url)
    assert words(translated) != words(english)
    left = english_left(translated, english, club.data_words, language)
    assert not any(left.values()), f"{url} in {language} still prints English: {left}"


def test_afrikaans_dates_read_as_south_africans_write_them():
    """Django has Afrikaans month names but no Afrikaans formats: config/formats/af."""
    from datetime import date

    from django.utils import translation
    from django.utils.formats import date_format

    with translation.override("af"):
        assert date_format(date(2026, 11, 25)) == "25 November 2026"
        assert date_format(date(2026, 3, 5), "SHORT_DATE_FORMAT") == "2026-03-05"
    with translation.override("en"):
        assert date_format(date(2026, 11, 25)) == "Nov. 25, 2026"  # English as before
