"""No secret is kept in clear (issue 43): every answer that shows a secret once (a new
publishing token, a one-time set-password link, made or made afresh, on the Roles page and
the Directors page) is sent by a signed-in director with its submission id, as the pages
send it, and sent again (a double tap); then every row of every table of the database
(bytes and the sessions decoded), ``dumpdata``, a backup of the database taken after it
(SQLite), and what the logs printed are searched for each secret shown. A resend gets a
page saying the secret is not kept, and nothing is made twice.

The table links are not among these secrets: a table link's token is the match row's own
key, which the site must read to open the link, and it is shown on the match sheet and
printed on the scoresheets whenever asked. The logs must not print them either."""

from __future__ import annotations

import io
import logging
import re
import sqlite3
from collections.abc import Iterator
from pathlib import Path

import pytest
from django.contrib.auth import get_user_model
from django.contrib.sessions.backends.db import SessionStore
from django.core.management import call_command
from django.db import connection
from django.test import Client
from django.urls import reverse
from django.utils.encoding import force_bytes
from django.utils.http import urlsafe_base64_encode

from backups.sqlite import backup
from publishing.models import PublishToken
from tests.factories import PASSWORD, make_bracket, make_director, make_user
from tests.public.test_tables_json import seated
from tests.publishing.test_receiving import change, send
from tests.test_logs import console  # noqa: F401 (a fixture: what the logs print)
from web.models import Submission
from web.submissions import FIELD, new_id

pytestmark = pytest.mark.django_db(transaction=True)

NOT_KEPT = "This page showed a secret once; it is not kept."
TOKEN_SHOWN = re.compile(r'id="new-token">([^<]+)<')
LINK_SHOWN = re.compile(r'class="link-text">(https?://[^<]+/accounts/set-password/[^<]+)<')


def _uid(user) -> str:
    return urlsafe_base64_encode(force_bytes(user.pk))


def signed_in(user) -> Client:
    client = Client(raise_request_exception=False)
    client.force_login(user)
    return client


def sent_twice(client: Client, path: str, data: dict, shown: re.Pattern[str]) -> str:
    """POST the form as its page sends it, then again (a double tap): the secret the first
    answer showed. The second says it is not kept, and shows no secret."""
    data = {**data, FIELD: new_id()}
    first = client.post(path, data, HTTP_REFERER="http://testserver/back/")
    assert first.status_code == 200, first.content
    assert "no-store" in first["Cache-Control"]
    found = shown.search(first.content.decode())
    assert found, first.content.decode()[-4000:]
    secret = found.group(1)
    again = client.post(path, data, HTTP_REFERER="http://testserver/back/")
    assert again.status_code == 200
    assert secret not in again.content.decode()
    assert NOT_KEPT in again.content.decode() and 'href="http://testserver/back/"' in (
        again.content.decode()
    )
    assert Submission.objects.filter(key=data[FIELD]).exists()  # recorded: no second write
    return secret


def link_token(url: str) -> str:
    """The secret of a set-password link: its last part (the account's id is not one)."""
    token = url.rstrip("/").rsplit("/", 1)[-1]
    assert len(token) > 20, url
    return token


def every_value() -> Iterator[tuple[str, str]]:
    """Every value of every row of every table, as text (bytes decoded; a session's data
    decoded as well), with where it is."""
    quote = connection.ops.quote_name
    with connection.cursor() as cursor:
        for table in connection.introspection.table_names():
            cursor.execute(f"SELECT * FROM {quote(table)}")
            for row in cursor.fetchall():
                for value in row:
                    if isinstance(value, bytes | memoryview):
                        value = bytes(value).decode("utf-8", "replace")
                    yield table, str(value)
    for data in connection.cursor().execute("SELECT session_data FROM django_session"):
        yield "django_session (decoded)", repr(SessionStore().decode(data[0]))


def backup_values(path: Path) -> Iterator[str]:
    """Every value of every row of every table of the backup ``path``, as text (a long
    value spans pages of the file: read whole, not searched for in the file's bytes)."""
    reader = sqlite3.connect(path)
    try:
        tables = reader.execute("SELECT name FROM sqlite_master WHERE type = 'table'")
        for (table,) in tables.fetchall():
            for row in reader.execute(f'SELECT * FROM "{table}"'):
                for value in row:
                    if isinstance(value, bytes):
                        value = value.decode("utf-8", "replace")
                    yield str(value)
    finally:
        reader.close()


def kept_anywhere(secret: str, *, logs: str, backup_file: Path | None) -> list[str]:
    """Where ``secret`` is kept in clear: tables, dumpdata, the backup, the logs."""
    found = sorted({table for table, text in every_value() if secret in text})
    dump = io.StringIO()
    call_command("dumpdata", stdout=dump)
    if secret in dump.getvalue():
        found.append("dumpdata")
    if backup_file is not None and (
        any(secret in text for text in backup_values(backup_file))
        # Its free pages as well: a row deleted since may linger there.
        or secret.encode() in backup_file.read_bytes()
    ):
        found.append("the backup")
    if secret in logs:
        found.append("the logs")
    return found


def a_backup(tmp_path: Path) -> Path | None:
    """A backup taken now, as the venue's backups are (SQLite); None on PostgreSQL, where
    backups are PostgreSQL's own tools' and a dump holds what the tables hold."""
    if connection.vendor != "sqlite":
        return None
    made = backup(Path(connection.settings_dict["NAME"]), tmp_path / "backups", keep=0)
    assert sqlite3.connect(made).execute("SELECT count(*) FROM auth_user").fetchone()[0] > 0
    return made


def test_no_secret_shown_is_kept_in_the_database_a_backup_or_the_logs(console, tmp_path):  # noqa: F811
    director = make_director(username="dora")
    admin = make_user(username="root", is_superuser=True, is_staff=True)
    t = make_bracket(players=4, tables=2, slug="friday", owner=director)
    dora = signed_in(director)
    secrets: dict[str, str] = {}

    secrets["publishing token"] = sent_twice(
        dora, reverse("publishing:tokens"), {"label": "laptop"}, TOKEN_SHOWN
    )
    assert PublishToken.objects.count() == 1  # the double tap made no second
    assert send(change(t, slug="friday-club"), secrets["publishing token"]).status_code == 200

    roles = reverse("accounts:role-create", args=[t.slug])
    member = {"new-name": "Sam Keeper", "new-email": "sam@example.com", "new-role": "scorekeeper"}
    secrets["new member's link"] = link_token(sent_twice(dora, roles, member, LINK_SHOWN))
    sam = get_user_model().objects.get(email="sam@example.com")
    fresh = reverse("accounts:role-link", args=[t.slug])
    secrets["member's fresh link"] = link_token(
        sent_twice(dora, fresh, {"user": sam.pk}, LINK_SHOWN)
    )

    root = signed_in(admin)
    new = {"name": "Dee Rector", "email": "dee@example.com"}
    secrets["new director's link"] = link_token(
        sent_twice(root, reverse("accounts:director-create"), new, LINK_SHOWN)
    )
    dee = get_user_model().objects.get(email="dee@example.com")
    secrets["director's fresh link"] = link_token(
        sent_twice(root, reverse("accounts:director-link"), {"user": dee.pk}, LINK_SHOWN)
    )

    # The member opens the link and chooses a password (the link then dies).
    link = reverse("set-password", args=[_uid(sam), secrets["member's fresh link"]])
    newcomer = Client(raise_request_exception=False)
    form = newcomer.get(link, follow=True)
    assert form.status_code == 200 and form.redirect_chain, form.redirect_chain
    chosen = newcomer.post(
        form.redirect_chain[-1][0],
        {"new_password1": PASSWORD + "x9", "new_password2": PASSWORD + "x9"},
    )
    assert chosen.status_code == 302
    # A table link that meets a 404 (a mistyped page under it) is logged without its token.
    table_token = seated(t)[0].token
    assert newcomer.get(f"/table/{table_token}/no-such-page/").status_code == 404
    dees = secrets["director's fresh link"]
    assert newcomer.get(f"/accounts/set-password/{_uid(dee)}/{dees}/x/").status_code == 404

    logs = console.getvalue()
    assert "Not Found: /table/" in logs  # the logs were read
    kept = a_backup(tmp_path)
    found = {
        what: where
        for what, secret in secrets.items()
        if (where := kept_anywhere(secret, logs=logs, backup_file=kept))
    }
    assert not found, found
    assert table_token not in logs


@pytest.mark.parametrize(
    "language, says, back",
    [
        ("en", NOT_KEPT, "Back to the page"),
        ("es", "Esta página mostró un secreto una vez; no se guarda.", "Volver a la página"),
        ("af", "Hierdie bladsy het een keer 'n geheim gewys; dit word nie gehou nie.", "Terug"),
    ],
)
@pytest.mark.parametrize("htmx", [False, True], ids=["page", "region"])
def test_the_page_kept_in_place_of_a_secret_says_so_in_each_language(language, says, back, htmx):
    director = make_director()
    t = make_bracket(players=2, owner=director)
    client = signed_in(director)
    headers = {"HTTP_ACCEPT_LANGUAGE": language, "HTTP_REFERER": "https://evil.example/"}
    if htmx:
        headers["HTTP_HX_REQUEST"] = "true"
    data = {"new-name": "Sam", "new-email": "sam@example.com", "new-role": "scorekeeper"}
    data[FIELD] = new_id()
    path = reverse("accounts:role-create", args=[t.slug])
    first = client.post(path, data, **headers)
    url = LINK_SHOWN.search(first.content.decode()).group(1)
    again = client.post(path, data, **headers)
    text = again.content.decode()
    assert link_token(url) not in text
    assert says in text and back in text
    assert 'href="/"' in text  # another site's page is not where it goes back to
    assert ("<html" in text) is not htmx and 'id="secret-not-kept"' in text
    assert "no-store" in again["Cache-Control"]


@pytest.mark.parametrize(
    "msg, args",
    [
        ("Not Found: %s", ("/table/SECRET/hands/",)),  # Django's refusals
        ('"%s" %s %s', ("GET /table/SECRET/ HTTP/1.1", "200", "512")),  # runserver's
        ("Exception while serving /table/SECRET/confirm/", None),  # waitress's
        ("%(path)s", ({"path": "/accounts/set-password/Mw/SECRET/"},)),
        ("Not Found: %s", ("/accounts/set-password/Mw/SECRET/x/",)),
    ],
)
def test_a_logged_path_keeps_no_link_secret(msg, args):
    from config.logs import SecretsInPaths

    record = logging.LogRecord("django.request", logging.WARNING, __file__, 1, msg, args, None)
    assert SecretsInPaths().filter(record)
    said = record.getMessage()
    assert "SECRET" not in said and "…" in said, said
