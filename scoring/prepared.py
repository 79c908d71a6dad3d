"""A queryset's look-up by one field, compiled once: the hot path of hand entry.

Django compiles a queryset into SQL every time it runs. For the look-up behind every hand
entered (a join, ``only()``, two annotations, a row lock) that compiling was about 1.3 ms
of an 11 ms request. :class:`PreparedLookup` keeps what the ORM made of the queryset for
each database — the SQL, the column converters and how to build the objects from a row —
and runs it again with another value. It builds the same objects as ``queryset.get()``,
deferred fields, ``select_related`` objects and annotations alike (tests hold it to that).

It uses the compiler's attributes the way Django's own ``ModelIterable`` does; Django is
pinned to one LTS series (pyproject.toml), and the tests compare the two on each run.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, Generic, TypeVar

from django.db import connections
from django.db.models import Model, QuerySet
from django.db.models.query import get_related_populators
from django.db.transaction import TransactionManagementError

M = TypeVar("M", bound=Model)


@dataclass(frozen=True)
class _Compiled:
    sql: str
    params: tuple[Any, ...]
    index: int  # where the looked-up value goes in params
    converters: dict[int, Any]
    compiler: Any
    model: type[Model]
    start: int
    end: int
    init_list: list[str]
    populators: list[Any]
    annotations: dict[str, int]
    locks: bool


class PreparedLookup(Generic[M]):
    """``queryset().filter(<field>=value)`` as at most one object, compiled once per
    database. ``queryset`` is a function (models are not ready at import time) that
    returns the same unevaluated queryset each time."""

    def __init__(self, queryset: Callable[[], QuerySet[M]], field: str, sentinel: Any) -> None:
        self._queryset = queryset
        self._field = field
        self._sentinel = sentinel  # a value no real look-up uses, to find its parameter
        self._compiled: dict[str, _Compiled] = {}

    def get(self, value: Any) -> M | None:
        queryset = self._queryset()
        alias = queryset.db
        compiled = self._compiled.get(alias) or self._compile(queryset, alias)
        connection = connections[alias]
        if compiled.locks and connection.get_autocommit():
            raise TransactionManagementError(
                "select_for_update cannot be used outside of a transaction."
            )
        params = list(compiled.params)
        params[compiled.index] = value
        with connection.cursor() as cursor:
            cursor.execute(compiled.sql, params)
            rows = cursor.fetchmany(2)
        if len(rows) > 1:
            raise queryset.model.MultipleObjectsReturned(f"more than one row for {value!r}")
        if not rows:
            return None
        if compiled.converters:
            rows = list(compiled.compiler.apply_converters(rows, compiled.converters))
        row = rows[0]
        obj = compiled.model.from_db(alias, compiled.init_list, row[compiled.start : compiled.end])
        for populator in compiled.populators:
            populator.populate(row, obj)
        for name, position in compiled.annotations.items():
            setattr(obj, name, row[position])
        return obj  # type: ignore[return-value]

    def _compile(self, queryset: QuerySet[M], alias: str) -> _Compiled:
        query = queryset.filter(**{self._field: self._sentinel}).query
        compiler = query.get_compiler(using=alias)
        sql, params = compiler.as_sql()
        if list(params).count(self._sentinel) != 1:
            raise ValueError(f"the look-up's parameters are not as expected: {params!r}")
        klass_info, select = compiler.klass_info, compiler.select
        fields = klass_info["select_fields"]
        start, end = fields[0], fields[-1] + 1
        compiled = _Compiled(
            sql=sql,
            params=tuple(params),
            index=list(params).index(self._sentinel),
            converters=compiler.get_converters([column for column, *_ in select]),
            compiler=compiler,
            model=klass_info["model"],
            start=start,
            end=end,
            init_list=[column[0].target.attname for column in select[start:end]],
            populators=get_related_populators(klass_info, select, alias),
            annotations=dict(compiler.annotation_col_map),
            locks=bool(
                query.select_for_update and compiler.connection.features.has_select_for_update
            ),
        )
        self._compiled[alias] = compiled
        return compiled
