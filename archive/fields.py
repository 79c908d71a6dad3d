"""Reading an archive's values strictly, the checks every part of the archive reader shares:
one JSON object as a :class:`Record` (no missing or unknown keys; its fields checked as
their model fields would check them), a list (:func:`read_list`), text (:func:`read_text`),
free-form JSON (:func:`read_json`), one value against a model field (:func:`read_field`),
and the short quoting of a bad value that every message uses (:func:`quote`). Each raises
:class:`~archive.schema.ArchiveError` naming where in the archive the value is.

The tournament reader (:mod:`archive.reading`), the stage rows (:mod:`archive.stage_rows`)
and the decision rows (:mod:`archive.decision_rows`) read with these.
"""

from __future__ import annotations

import datetime as dt
import math
from collections.abc import Iterable
from typing import Any

from django.core.exceptions import ValidationError
from django.db import models

from .schema import INT_RANGES, MAX_JSON_DEPTH, ArchiveError


def quote(value: Any) -> str:
    """``value`` as a message shows it: its repr, cut to 40 characters."""
    text = repr(value)
    return text if len(text) <= 40 else text[:37] + "..."


def read_text(value: Any, where: str) -> str:
    """``value`` (at ``where``) as text a database stores: a string, valid Unicode, no NUL."""
    if not isinstance(value, str):
        raise ArchiveError(f"{where} must be text, not {quote(value)}")
    if "\x00" in value:
        raise ArchiveError(f"{where} contains a NUL character")
    try:
        value.encode("utf-8")
    except UnicodeEncodeError:
        raise ArchiveError(f"{where} is not valid Unicode text") from None
    return value


def read_json(value: Any, where: str, depth: int = 0) -> Any:
    """Free-form JSON (an audit row's before/after) that every database can store."""
    if depth > MAX_JSON_DEPTH:
        raise ArchiveError(f"{where} is nested too deeply")
    if value is None or isinstance(value, bool | int):
        return value
    if isinstance(value, float):
        if not math.isfinite(value):
            raise ArchiveError(f"{where} holds a number out of range")
        return value
    if isinstance(value, str):
        return read_text(value, where)
    if isinstance(value, list):
        return [read_json(item, f"{where}[{i}]", depth + 1) for i, item in enumerate(value)]
    if isinstance(value, dict):
        return {
            read_text(key, where): read_json(item, f"{where}[{quote(key)}]", depth + 1)
            for key, item in value.items()
        }
    raise ArchiveError(f"{where} is not JSON")


def read_field(model_field: models.Field, value: Any, where: str) -> Any:
    """``value`` checked strictly against a model field: type first, then Django's own
    validation (choices, lengths, ranges, email syntax)."""
    if value is None:
        if model_field.null:
            return None
        raise ArchiveError(f"{where} must not be null")
    kind = model_field.get_internal_type()
    if isinstance(model_field, models.JSONField):
        return value
    if isinstance(model_field, models.BooleanField):
        if not isinstance(value, bool):
            raise ArchiveError(f"{where} must be true or false, not {quote(value)}")
        return value
    if isinstance(model_field, models.IntegerField):
        if isinstance(value, bool) or not isinstance(value, int):
            raise ArchiveError(f"{where} must be a whole number, not {quote(value)}")
        low, high = INT_RANGES.get(kind, INT_RANGES["IntegerField"])
        if not low <= value <= high:
            raise ArchiveError(f"{where} is out of range: {quote(value)}")
    elif isinstance(model_field, models.DateTimeField):
        try:
            value = dt.datetime.fromisoformat(read_text(value, where))
        except ValueError:
            raise ArchiveError(f"{where} is not a date and time: {quote(value)}") from None
        if value.tzinfo is None:
            raise ArchiveError(f"{where} has no time zone: {quote(value)}")
        value = value.astimezone(dt.UTC)
    elif isinstance(model_field, models.DateField):
        try:
            value = dt.date.fromisoformat(read_text(value, where))
        except ValueError:
            raise ArchiveError(f"{where} is not a date: {quote(value)}") from None
    else:
        value = read_text(value, where)
    try:
        return model_field.clean(value, None)
    except ValidationError as error:
        raise ArchiveError(f"{where}: {' '.join(error.messages)}") from None


class Record:
    """One JSON object of the archive, read strictly: no missing or unknown keys."""

    def __init__(
        self, data: Any, where: str, keys: Iterable[str], optional: Iterable[str] = ()
    ) -> None:
        if not isinstance(data, dict):
            raise ArchiveError(f"{where} must be an object, not {quote(data)}")
        keys = set(keys)
        missing = sorted(keys - set(data))
        if missing:
            raise ArchiveError(f"{where}: {', '.join(missing)} missing")
        unknown = sorted(str(key) for key in set(data) - keys - set(optional))
        if unknown:
            raise ArchiveError(f"{where}: unknown key {quote(', '.join(unknown))}")
        self.data = data
        self.where = where

    def __getitem__(self, key: str) -> Any:
        return self.data[key]

    def at(self, key: str) -> str:
        return f"{self.where}.{key}"

    def fields(self, model: type[models.Model], names: Iterable[str]) -> dict[str, Any]:
        """The fields ``names`` checked; an optional one left out of the record is None."""
        return {
            name: read_field(model._meta.get_field(name), self.data.get(name), self.at(name))
            for name in names
        }

    def index(self, key: str, size: int, *, null: bool = True) -> int | None:
        value = self.data[key]
        if value is None and null:
            return None
        if isinstance(value, bool) or not isinstance(value, int) or not 0 <= value < size:
            raise ArchiveError(f"{self.at(key)} refers to no entry: {quote(value)}")
        return value

    def username(self, key: str, *, null: bool = True) -> str | None:
        value = self.data[key]
        if value is None and null:
            return None
        return read_text(value, self.at(key))


def read_list(data: Any, where: str) -> list[Any]:
    """``data`` (at ``where``), which must be a JSON list."""
    if not isinstance(data, list):
        raise ArchiveError(f"{where} must be a list, not {quote(data)}")
    return data
