"""The tournament archive: export.json (who may read it, what it holds), import_tournament
(round trip, matching players and users, refusing bad archives without writing)."""

from __future__ import annotations

import copy
import io
import json
from importlib import metadata

import pytest
from django.contrib.auth import get_user_model
from django.core.management import call_command
from django.urls import reverse

from archive import api as archive
from demo.hands import match_hands
from scoring.models import Hand
from scoring.services import correct_hand, delete_hand, record_hand
from tables.table_links import set_table_link
from tests.factories import make_bracket, make_director, make_player, make_tournament, make_user
from tests.scoring.helpers import knock, named
from tournaments import services as tournament_services
from tournaments.models import AuditEntry, Decision, Entry, Match, Player, Stage, Tournament

pytestmark = pytest.mark.django_db

MODELS = (Tournament, Player, Entry, Match, Hand, AuditEntry)


def play_out(tournament: Tournament, *, seed: int = 1, limit: int | None = None) -> None:
    """Enter realistic hands in every open match, confirming each result, until the
    bracket is finished (or only ``limit`` matches were played)."""
    played = 0
    while limit is None or played < limit:
        match = (
            Match.objects.filter(tournament=tournament, status=Match.Status.READY)
            .order_by("round", "position")
            .first()
        )
        if match is None:
            return
        user = tournament.owner if played % 2 else None
        via = "" if user else f"table link, table {match.table}"
        for number, hand in enumerate(
            match_hands(tournament.ruleset, seed=seed * 1000 + match.pk), start=1
        ):
            record_hand(match=match, number=number, data=hand, user=user, via=via)
        match.refresh_from_db()
        tournament_services.confirm_match(match=match, user=user, via=via)
        played += 1


def played_tournament(**fields) -> Tournament:
    fields.setdefault("preset", "modern")
    owner = fields.pop("owner", None) or make_director(username="ana")
    tournament = make_bracket(players=6, owner=owner, third_place=True, **fields)
    tournament.co_directors.add(make_director(username="bea"))
    tournament.scorekeepers.add(make_user(username="carl"))
    Player.objects.filter(pk=tournament.entries.first().player_id).update(
        email="first@example.org", phone="+34 600 000 000", club_id="C-1", rating=1850
    )
    first = Match.objects.filter(tournament=tournament, status="ready").order_by("pk").first()
    # A corrected and a deleted hand leave audit rows that point at hands, gone or moved.
    record_hand(match=first, number=1, data=knock("A", 3, 20), user=owner)
    record_hand(match=first, number=2, data=knock("B", 4, 40), user=owner)
    correct_hand(match=first, **named(first, 1), data=knock("A", 2, 20), user=owner)
    delete_hand(match=first, **named(first, 1), user=owner)
    delete_hand(match=first, **named(first, 1), user=owner)
    set_table_link(match=first, action="renew", user=owner)
    play_out(tournament)
    tournament.refresh_from_db()
    return tournament


def export(tournament: Tournament) -> str:
    """The archive as the export view writes it: of the tournament as stored (PostgreSQL's
    jsonb gives a stored object's keys back in its own order, not the order written)."""
    stored = Tournament.objects.get(pk=tournament.pk)
    return archive.dumps(archive.export_tournament(stored))


def forget(tournament: Tournament) -> None:
    """Delete a tournament and its players, as if this were another installation."""
    players = list(tournament.entries.values_list("player_id", flat=True))
    Match.objects.filter(tournament=tournament).update(next_match=None, loser_next_match=None)
    Hand.objects.filter(match__tournament=tournament).delete()
    Match.objects.filter(tournament=tournament).delete()
    tournament.delete()
    Player.objects.filter(pk__in=players).delete()


def counts() -> dict[str, int]:
    return {model.__name__: model.objects.count() for model in MODELS}


def write(tmp_path, content, name="archive.json") -> str:
    path = tmp_path / name
    if isinstance(content, bytes):
        path.write_bytes(content)
    else:
        path.write_text(content if isinstance(content, str) else json.dumps(content))
    return str(path)


def run_import(path: str, *args: str) -> tuple[str, str]:
    out, err = io.StringIO(), io.StringIO()
    call_command("import_tournament", path, *args, stdout=out, stderr=err)
    return out.getvalue(), err.getvalue()


def refused(path: str, *args: str) -> str:
    err = io.StringIO()
    with pytest.raises(SystemExit) as exit_info:
        call_command("import_tournament", path, *args, stdout=io.StringIO(), stderr=err)
    assert exit_info.value.code == 1
    message = err.getvalue()
    assert message.startswith("error: ") and message.count("\n") == 1, message
    return message


# -- the round trip --------------------------------------------------------------------------


def test_round_trip_into_an_empty_database_gives_the_same_document(tmp_path):
    tournament = played_tournament()
    first = export(tournament)
    document = json.loads(first)
    assert document["tournament"]["status"] == "finished"
    assert document["hands"] and document["audit"]
    forget(tournament)
    assert not Tournament.objects.exists() and not Hand.objects.exists()

    out, err = run_import(write(tmp_path, first))

    assert err == ""
    assert f"/t/{document['tournament']['slug']}/" in out
    again = Tournament.objects.get(slug=document["tournament"]["slug"])
    assert export(again) == first
    call_command("verify_tournament", again.slug, stdout=io.StringIO())  # exits 1 if not


def test_round_trip_of_a_tournament_in_progress_with_oklahoma_rules(tmp_path):
    tournament = make_bracket(players=5, preset="oklahoma", name="Second")
    play_out(tournament, seed=7, limit=1)
    match = Match.objects.filter(tournament=tournament, status="ready").first()
    for number, hand in enumerate(match_hands(tournament.ruleset, seed=3, limit=2), start=1):
        record_hand(match=match, number=number, data=hand)
    first = export(tournament)
    assert any(h["knock_card"] for h in json.loads(first)["hands"])
    assert {m["status"] for m in json.loads(first)["matches"]} >= {"complete", "in_play"}
    forget(tournament)
    run_import(write(tmp_path, first))
    assert export(Tournament.objects.get(name="Second")) == first


def test_the_archive_holds_everything_by_stable_references():
    tournament = played_tournament()
    document = json.loads(export(tournament))
    # Six players in a bracket of eight: two byes, decisions of the draw (issue 28).
    assert list(document) == [
        "format",
        "version",
        "ginclub_version",
        *archive.TOP_KEYS[2:],
        "decisions",
    ]
    byes = [row for row in document["decisions"] if row["kind"] == "bye"]
    assert len(byes) == 2 and all(row["by"] == "ana" and row["entry"] in range(6) for row in byes)
    # Without money (a part of version 2), the version every older reader reads.
    assert (document["format"], document["version"]) == (archive.FORMAT, 1)
    assert document["ginclub_version"] == metadata.version("ginclub")  # which build wrote it
    info = document["tournament"]
    assert info["owner"] == "ana" and info["co_directors"] == ["bea"]
    assert info["scorekeepers"] == ["carl"]
    assert info["rules"] == tournament.rules and info["rules_locked_at"].endswith("+00:00")
    assert document["players"][0] == {
        "name": document["players"][0]["name"],
        "email": "first@example.org",
        "phone": "+34 600 000 000",
        "club_id": "C-1",
        "rating": 1850,
        "notes": "",
    }
    keys = [m["key"] for m in document["matches"]]
    final = next(m for m in document["matches"] if m["next_match"] is None and m["round"] > 1)
    assert final["winner_side"] in ("A", "B") and final["side_a"] in range(6)
    assert all(m["next_match"] in (None, *keys) for m in document["matches"])
    assert {h["match"] for h in document["hands"]} <= set(keys)
    table_hand = next(h for h in document["hands"] if h["entered_via"])
    assert table_hand["entered_by"] is None and table_hand["entered_via"].startswith("table link")
    actions = {row["action"] for row in document["audit"]}
    assert {"bracket generated", "hand entered", "hand corrected", "hand deleted"} <= actions
    corrected = next(row for row in document["audit"] if row["action"] == "hand corrected")
    assert corrected["object"] == {"type": "hand", "ref": None}  # that hand was deleted
    entered = [row for row in document["audit"] if row["action"] == "hand entered"]
    assert entered[-1]["object"]["ref"][0] in keys
    assert [row["at"] for row in document["audit"]] == sorted(
        row["at"] for row in document["audit"]
    )
    status_rows = [r for r in document["audit"] if r["object"] and r["object"]["type"] == "match"]
    sides = [r["after"]["side_a"] for r in status_rows if r["after"] and "side_a" in r["after"]]
    assert sides and all(side is None or side in range(6) for side in sides)


def test_a_part_holds_the_audit_from_its_row_on_as_the_whole_archive_does():
    """A publishing change's part (``audit_from``): its audit rows are the whole archive's
    from that row on, each hand a row names by [match key, number] (or none, gone)."""
    tournament = Tournament.objects.get(pk=played_tournament().pk)
    whole = archive.export_tournament(tournament)["audit"]
    named = [i for i, row in enumerate(whole) if row["object"] and row["object"]["type"] == "hand"]
    assert len(named) > 10
    for start in (named[0], named[len(named) // 2], named[-1], len(whole) - 1):
        part = archive.export_tournament(tournament, hands_of=[], audit_from=start)
        assert part["audit"] == whole[start:]
        assert part["hands"] == []
    assert any(row["object"]["ref"] is None for row in (whole[i] for i in named))
    assert any(isinstance(whole[i]["object"]["ref"], list) for i in named[-3:])


def test_every_model_field_is_in_the_archive():
    """A field added to a model later must be added to the archive too."""
    covered = {
        Tournament: {*archive.TOURNAMENT_FIELDS, *archive.TOURNAMENT_USERS},
        # The registry's own: when, and by which of this installation's accounts.
        Player: {*archive.PLAYER_FIELDS, *archive.PLAYER_OPTIONAL_FIELDS}
        | {"created", "updated", "created_by"},
        Entry: {*archive.ENTRY_FIELDS, *archive.ENTRY_TEAM_FIELDS, "player", "tournament"},
        Match: {
            *archive.MATCH_FIELDS,
            *archive.MATCH_OPTIONAL_FIELDS,
            *archive.MATCH_ENTRIES,
            *archive.MATCH_ROUTES,
            "stage",
        },
        Stage: {*archive.STAGE_FIELDS, *archive.STAGE_ENTRIES, "tournament"},
        Hand: {*archive.HAND_FIELDS, *archive.HAND_OPTIONAL_FIELDS, "match", "entered_by"},
        AuditEntry: {*archive.AUDIT_FIELDS, "user", "before", "after", "tournament"},
        Decision: {*archive.DECISION_FIELDS, *archive.DECISION_REFS, "tournament"}
        | {"decided_by"},  # written as "by"
    }
    covered[Match].add("tournament")
    covered[Match].add("version")  # a write counter for stale forms, not part of the record
    # Which phone label and submission id stored a hand through a table link (issue 32):
    # for telling a second phone what was stored, kept a day's resends long; not the record.
    covered[Hand] |= {"device", "submission"}
    covered[AuditEntry] |= {"object_type", "object_id"}
    # Self check-in (issue 33): a switch and a code good for one evening, not part of the
    # record; who checked in themselves is, in the audit log ("checked in by the player").
    covered[Tournament] |= {"self_checkin", "checkin_code", "checkin_code_date"}
    covered[Entry].add("self_checked_in")
    # How the venue hands out its tables (automatically or by hand) steers the evening's
    # calls, not the results: a restored tournament is called as its new director chooses.
    covered[Tournament].add("auto_call")
    for model, names in covered.items():
        fields = {f.name for f in model._meta.get_fields() if f.concrete and not f.primary_key}
        assert fields - names == set(), model.__name__


def test_import_matches_registry_players_and_reports_unknown_users(tmp_path):
    tournament = played_tournament()
    document = json.loads(export(tournament))
    forget(tournament)
    # This installation knows the first player by club id (with other details) and the
    # second by name and email; co-director bea has no account here.
    get_user_model().objects.filter(username="bea").delete()
    by_club = make_player(name="Renamed", club_id="C-1", email="x@example.org")
    second = document["players"][1]
    by_name = make_player(name=second["name"].upper(), email=second["email"])
    before = Player.objects.count()

    out, _err = run_import(write(tmp_path, document))

    imported = Tournament.objects.get()
    entries = list(imported.entries.order_by("pk"))
    assert entries[0].player == by_club and entries[1].player == by_name
    assert Player.objects.count() == before + 4
    assert list(imported.co_directors.all()) == []
    assert "bea" in out and "4 new to the registry" in out
    registry_row = AuditEntry.objects.get(tournament=None, action="tournament imported")
    assert registry_row.after["tournament"] == imported.slug


def test_unknown_owner_falls_back_to_owner_option_or_first_superuser(tmp_path):
    tournament = played_tournament()
    document = json.loads(export(tournament))
    forget(tournament)
    get_user_model().objects.filter(username="ana").delete()
    path = write(tmp_path, document)
    assert "no superuser" in refused(path)
    assert "no user 'zoe'" in refused(path, "--owner", "zoe")
    zoe = make_director(username="zoe")
    get_user_model().objects.create_superuser("root", password="x")
    out, _err = run_import(path, "--owner", "zoe")
    assert Tournament.objects.get().owner == zoe and "'ana' has no account here" in out
    forget(Tournament.objects.get())
    run_import(path)
    assert Tournament.objects.get().owner.username == "root"


def test_slug_clash_is_refused_unless_a_new_slug_is_given(tmp_path):
    tournament = played_tournament()
    path = write(tmp_path, export(tournament))
    before = counts()
    message = refused(path)
    assert tournament.slug in message and "--slug" in message
    assert counts() == before
    out, _err = run_import(path, "--slug", "copy")
    copy_ = Tournament.objects.get(slug="copy")
    # Same installation: the players are the same registry rows, the tokens are renewed.
    assert copy_.entries.count() == tournament.entries.count()
    assert Player.objects.count() == before["Player"]
    assert "table links were already in use" in out
    assert not set(copy_.matches.values_list("token", flat=True)) & set(
        tournament.matches.values_list("token", flat=True)
    )
    assert "--slug: Enter a valid “slug”" in refused(path, "--slug", "not a slug!")


def test_standard_input(tmp_path, monkeypatch):
    tournament = played_tournament()
    text = export(tournament)
    forget(tournament)
    monkeypatch.setattr("sys.stdin", io.TextIOWrapper(io.BytesIO(text.encode())))
    run_import("-")
    assert Tournament.objects.count() == 1


# -- refusing bad archives -------------------------------------------------------------------


def _set(document, path, value):
    target = document
    for step in path[:-1]:
        target = target[step]
    if value is KeyError:
        del target[path[-1]]
    else:
        target[path[-1]] = value


def _first_knock(document):
    """The first hand of a match that is a knock (so every field of it matters)."""
    return next(
        i for i, h in enumerate(document["hands"]) if h["number"] == 1 and h["kind"] == "knock"
    )


BAD = [
    pytest.param(["format"], "something-else", "not a tournament archive", id="format"),
    pytest.param(["version"], 3, "version 3 is not supported", id="version"),
    pytest.param(["audit"], KeyError, "audit missing", id="missing-top-key"),
    pytest.param(["extra"], 1, "unknown key", id="unknown-top-key"),
    pytest.param(["ginclub_version"], 1, "ginclub_version must be text", id="build"),
    pytest.param(["tournament", "tables"], "8", "tournament.tables must be a whole", id="type"),
    pytest.param(["tournament", "tables"], 0, "tournament.tables", id="range"),
    pytest.param(["tournament", "draw_seed"], 2**70, "out of range", id="huge-number"),
    pytest.param(["tournament", "status"], "paused", "not a valid choice", id="choice"),
    pytest.param(["tournament", "rules", "gin_bonus"], -1, "gin_bonus", id="rules"),
    pytest.param(
        ["tournament", "rules", "game_bonus"],
        3_000_000_000,
        "tournament.rules: rules: game_bonus must be between 0 and 500",
        id="rules-past-limit",
    ),
    pytest.param(
        ["tournament", "rules", "gin_extra_boxes"],
        6,
        "tournament.rules: rules: gin_extra_boxes must be between 0 and 5",
        id="rules-past-limit-boxes",
    ),
    pytest.param(["tournament", "date"], "yesterday", "not a date", id="date"),
    pytest.param(["tournament", "created"], "2025-01-01T10:00:00", "no time zone", id="naive"),
    pytest.param(["tournament", "owner"], None, "must be text", id="owner-null"),
    pytest.param(["tournament", "name"], "a\x00b", "NUL", id="nul"),
    pytest.param(["tournament", "venue"], "\ud800", "Unicode", id="surrogate"),
    pytest.param(["players", 0, "email"], "not-an-email", "email", id="email"),
    pytest.param(["players", 0, "name"], "", "blank", id="blank-name"),
    pytest.param(["entries", 0, "player"], 99, "refers to no entry", id="entry-player"),
    pytest.param(["entries", 1, "player"], 0, "exactly once", id="player-twice"),
    pytest.param(["entries", 1, "seed"], 1, "two seeds", id="seed-twice"),
    pytest.param(["matches", 0, "side_a"], 42, "refers to no entry", id="side"),
    pytest.param(["matches", 0, "next_match"], "NOPE", "refers to no match", id="route"),
    pytest.param(["matches", 1, "key"], "W1-1", "a second match", id="key-twice"),
    pytest.param(["matches", 0, "score_a"], 1.5, "whole number", id="float"),
    pytest.param(["matches", 0, "winner_side"], "C", "not a valid choice", id="winner"),
    pytest.param(["hands", 0, "match"], "NOPE", "refers to no match", id="hand-match"),
    pytest.param(["hands", 0, "number"], 500, "numbered 1 to", id="hand-number"),
    pytest.param(["hands", 0, "kind"], "knock", "hand 1", id="engine-refuses"),
    pytest.param(["hands", 0, "deadwood"], 99, "deadwood", id="deadwood"),
    pytest.param(["audit", 0, "at"], 12, "must be text", id="audit-at"),
    pytest.param(["audit", 0, "object"], {"type": "match", "ref": "NOPE"}, "no match", id="ref"),
    pytest.param(["audit", 0, "before"], [1, 2], "object or null", id="audit-before"),
    pytest.param(["audit", 0, "after"], {"x": "HUGE"}, "out of range", id="float-overflow"),
    pytest.param(["audit", 0, "after"], {"a\nb": "\x00"}, "contains a NUL", id="line-break"),
    pytest.param(["matches", 0, "key"], "W1\n", "must be printable", id="key-line-break"),
]


_ARCHIVED: dict[str, dict] = {}


@pytest.fixture
def archived():
    """A played tournament's archive, with the tournament and its players gone (so the
    archive as it is would import). Played once per test process: it takes a second."""
    if "document" not in _ARCHIVED:
        tournament = played_tournament()
        _ARCHIVED["document"] = json.loads(export(tournament))
        forget(tournament)
    else:
        make_director(username="ana")
    return copy.deepcopy(_ARCHIVED["document"])


def test_the_archive_fixture_imports_as_it_is(archived, tmp_path):
    run_import(write(tmp_path, archived))
    assert Tournament.objects.count() == 1


@pytest.mark.parametrize(("path", "value", "message"), BAD)
def test_bad_archive_is_refused_and_nothing_is_imported(archived, tmp_path, path, value, message):
    document = copy.deepcopy(archived)
    if path[0] == "hands":
        path = ["hands", _first_knock(document), *path[2:]]
        if path[-1] == "kind":
            document["hands"][path[1]]["deadwood"] = None  # a knock without deadwood
    _set(document, path, value)
    before = counts()
    text = json.dumps(document).replace('"HUGE"', "1e400")  # parses as infinity
    assert message in refused(write(tmp_path, text))
    assert counts() == before


@pytest.mark.parametrize(
    ("content", "message"),
    [
        (b"\xff\xfe not utf-8", "not UTF-8"),
        ("{", "not a JSON document"),
        ("[]", "must be a JSON object"),
        ("[" * 100_000 + "]" * 100_000, "nested too deeply"),
        ('{"format": NaN}', "NaN"),
        ("", "not a JSON document"),
    ],
    ids=["bytes", "truncated", "list", "deep", "nan", "empty"],
)
def test_unreadable_archive_is_refused(tmp_path, content, message):
    before = counts()
    assert message in refused(write(tmp_path, content))
    assert counts() == before


def test_missing_file_is_refused(tmp_path):
    assert "cannot read" in refused(str(tmp_path / "nope.json"))


def test_a_conflict_found_only_by_the_database_rolls_everything_back(tmp_path):
    """Two unfinished matches at one table: only the database constraint sees it."""
    tournament = make_bracket(players=4)
    document = json.loads(export(tournament))
    forget(tournament)
    ready = [m for m in document["matches"] if m["status"] == "ready"]
    assert len(ready) == 2
    for match in ready:
        match["table"] = 1
    before = counts()
    assert "does not fit this database" in refused(write(tmp_path, document))
    assert counts() == before


def test_two_archive_players_that_are_one_registry_player_are_refused(archived, tmp_path):
    make_player(name="Somebody", club_id=archived["players"][0]["club_id"])
    archived["players"][1].update(name="Somebody", email="")
    before = counts()
    assert "both 'Somebody' of the registry" in refused(write(tmp_path, archived))
    assert counts() == before


# -- the export view -------------------------------------------------------------------------


def test_export_view_for_directors_only(client):
    tournament = played_tournament()
    url = reverse("archive:tournament-export", kwargs={"slug": tournament.slug})
    assert url == f"/t/{tournament.slug}/export.json"

    response = client.get(url)
    assert response.status_code == 302 and "/accounts/login/" in response["Location"]

    client.force_login(make_director())
    assert client.get(url).status_code == 403
    client.force_login(get_user_model().objects.get(username="carl"))  # a scorekeeper
    assert client.get(url).status_code == 403

    client.force_login(get_user_model().objects.get(username="bea"))  # a co-director
    response = client.get(url)
    assert response.status_code == 200
    assert response["Content-Type"] == "application/json"
    assert response["Content-Disposition"] == f'attachment; filename="{tournament.slug}.json"'
    assert "no-store" in response["Cache-Control"]
    # bea added none of the players and is no registrar: their contact details stay out.
    hidden = archive.export_tournament(tournament, shows_private=lambda player: False)
    assert response.content.decode() == archive.dumps(hidden)
    assert "first@example.org" not in response.content.decode()
    assert client.post(url).status_code == 405
    assert client.get("/t/nope/export.json").status_code == 404


@pytest.mark.django_db
def test_director_screens_link_the_export(client):
    tournament = make_tournament()
    client.force_login(tournament.owner)
    page = client.get(f"/t/{tournament.slug}/manage/").content.decode()
    assert f'href="/t/{tournament.slug}/export.json"' in page


def test_round_trip_of_a_tournament_in_stages(tmp_path):
    from tests.tournaments.test_stages import ONE_GAME_TO_100, make_event, play_open
    from tournaments.stages import services as stage_services

    tournament = make_event(10)
    owner = tournament.owner
    swiss = stage_services.add_stage(
        tournament=tournament,
        user=owner,
        kind="swiss",
        rounds=2,
        advance=4,
        rules=ONE_GAME_TO_100,
        tiebreaks=["match_points", "head_to_head", "buchholz"],
    )
    stage_services.add_stage(
        tournament=tournament,
        user=owner,
        kind="single_elimination",
        round_rules={"2": {"games_to_win": 2, "game_target": 100}},
    )
    stage_services.start(tournament=tournament, user=owner)
    play_open(tournament, swiss)
    stage_services.pair_next_round(stage=swiss, user=owner)
    play_open(tournament, swiss)
    stage_services.close_stage(stage=swiss, user=owner)
    first = export(tournament)
    document = json.loads(first)
    assert [s["kind"] for s in document["stages"]] == ["swiss", "single_elimination"]
    assert document["stages"][1]["round_rules"] == {"2": {"games_to_win": 2, "game_target": 100}}
    assert {m["stage"] for m in document["matches"]} == {1, 2}
    assert any(r["object"] and r["object"]["type"] == "stage" for r in document["audit"])
    forget(tournament)
    assert not Stage.objects.exists()

    run_import(write(tmp_path, first))

    again = Tournament.objects.get(slug=document["tournament"]["slug"])
    assert export(again) == first
    assert again.stages.get(number=2).entrants == [
        again.entries.order_by("pk")[i].pk for i in document["stages"][1]["entrants"]
    ]
    call_command("verify_tournament", again.slug, stdout=io.StringIO())  # exits 1 if not


def test_an_archive_from_another_build_or_from_before_builds_imports(archived, tmp_path):
    archived["ginclub_version"] = "0.0.1"
    run_import(write(tmp_path, archived))
    forget(Tournament.objects.get())
    del archived["ginclub_version"]  # written before issue 30
    run_import(write(tmp_path, archived))
    assert Tournament.objects.count() == 1


def test_an_archive_from_before_stages_imports_as_one_bracket(archived, tmp_path):
    document = archived
    document.pop("stages", None)
    for match in document["matches"]:
        match.pop("stage", None)
        match.pop("decided_on_time", None)
    run_import(write(tmp_path, document))
    assert not Stage.objects.exists()
