"""Queries compiled once: the hot path of hand entry.

Django compiles a queryset into SQL every time it runs. For the look-up behind every hand
entered (a join, ``only()``, two annotations, a row lock) that compiling was about 1.3 ms
of an 11 ms request, and for the match's hands about 0.7 ms. A prepared query keeps what
the ORM made of a queryset filtered by one field, for each database — the SQL, the column
converters and, for objects, how to build them from a row — and runs it again with
another value:

- :class:`PreparedLookup` gives the one object ``queryset.get()`` would (deferred fields,
  ``select_related`` objects and annotations alike), or None;
- :class:`PreparedRows` gives the rows of a ``values_list()`` queryset.

Tests hold both to the ORM's own results. The objects are built from the compiler's
attributes the way Django's ``ModelIterable`` does; Django is pinned to one LTS series
(pyproject.toml), and those tests are what an upgrade would fail.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, Generic, TypeVar

from django.db import connections
from django.db.models import Model, QuerySet
from django.db.models.query import get_related_populators
from django.db.models.sql.compiler import SQLCompiler
from django.db.transaction import TransactionManagementError

M = TypeVar("M", bound=Model)


@dataclass(frozen=True)
class _Compiled:
    compiler: SQLCompiler
    sql: str
    params: tuple[Any, ...]
    index: int  # where the value goes in params
    converters: dict[int, Any]
    locks: bool


class _Prepared(Generic[M]):
    """``queryset().filter(<field>=value)``, compiled once per database. ``queryset`` is a
    function (models are not ready at import time) that returns the same unevaluated
    queryset each time; ``sentinel`` is a value no real query uses, to find its
    parameter."""

    def __init__(self, queryset: Callable[[], QuerySet[M, Any]], field: str, sentinel: Any):
        self._queryset = queryset
        self._field = field
        self._sentinel = sentinel
        self._compiled: dict[str, _Compiled] = {}

    def _run(self, value: Any, fetch: int | None) -> tuple[_Compiled, list[Any]]:
        """The rows for ``value`` (at most ``fetch`` of them), converted as the ORM would."""
        alias = self._queryset().db
        compiled = self._compiled.get(alias) or self._compile(alias)
        connection = connections[alias]
        if compiled.locks and connection.get_autocommit():
            raise TransactionManagementError(
                "select_for_update cannot be used outside of a transaction."
            )
        params = list(compiled.params)
        params[compiled.index] = value
        with connection.cursor() as cursor:
            cursor.execute(compiled.sql, params)
            rows = cursor.fetchall() if fetch is None else cursor.fetchmany(fetch)
        if compiled.converters:
            rows = list(compiled.compiler.apply_converters(rows, compiled.converters))
        return compiled, rows

    def _compile(self, alias: str) -> _Compiled:
        query = self._queryset().filter(**{self._field: self._sentinel}).query
        compiler = query.get_compiler(using=alias)
        sql, params = compiler.as_sql()
        if list(params).count(self._sentinel) != 1:
            raise ValueError(f"the query's parameters are not as expected: {params!r}")
        compiled = _Compiled(
            compiler=compiler,
            sql=sql,
            params=tuple(params),
            index=list(params).index(self._sentinel),
            converters=compiler.get_converters([column for column, *_ in compiler.select]),
            locks=query.select_for_update and connections[alias].features.has_select_for_update,
        )
        self._compiled[alias] = compiled
        return compiled


class PreparedRows(_Prepared[M]):
    """The rows of a ``values_list()`` queryset filtered by one field."""

    def rows(self, value: Any) -> list[tuple[Any, ...]]:
        return [tuple(row) for row in self._run(value, None)[1]]


@dataclass(frozen=True)
class _Builder:
    """How ModelIterable turns a row into the queryset's object."""

    model: type[Model]
    start: int
    end: int
    init_list: list[str]
    populators: list[Any]
    annotations: dict[str, int]


class PreparedLookup(_Prepared[M]):
    """The one object ``queryset().get(<field>=value)`` gives, or None."""

    def __init__(self, queryset: Callable[[], QuerySet[M]], field: str, sentinel: Any) -> None:
        super().__init__(queryset, field, sentinel)
        self._builders: dict[str, _Builder] = {}

    def get(self, value: Any) -> M | None:
        compiled, rows = self._run(value, 2)
        if len(rows) > 1:
            model = self._queryset().model
            raise model.MultipleObjectsReturned(f"more than one row for {value!r}")
        if not rows:
            return None
        alias = compiled.compiler.using
        build = self._builders.get(alias) or self._builder(compiled.compiler)
        row = rows[0]
        obj = build.model.from_db(alias, build.init_list, row[build.start : build.end])
        for populator in build.populators:
            populator.populate(row, obj)
        for name, position in build.annotations.items():
            setattr(obj, name, row[position])
        return obj  # type: ignore[return-value]

    def _builder(self, compiler: SQLCompiler) -> _Builder:
        klass_info, select = compiler.klass_info, compiler.select
        assert klass_info is not None
        fields = klass_info["select_fields"]
        start, end = fields[0], fields[-1] + 1
        builder = _Builder(
            model=klass_info["model"],
            start=start,
            end=end,
            init_list=[column[0].target.attname for column in select[start:end]],
            populators=get_related_populators(klass_info, select, compiler.using),
            annotations=dict(compiler.annotation_col_map),
        )
        self._builders[compiler.using] = builder
        return builder
