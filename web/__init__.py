"""The site's plumbing, the ground floor every app stands on and no tournament owns: the
client's address (``clients``), the language a page is in (``language``), number fields
and the one place numbers are read (``numbers``, ``number_fields``), two tabs racing for
one unique thing (``unique``), the recorded answer of each submitted form
(``submissions``, the :class:`~web.models.Submission` model), the guess limiter
(``limiter``) and :func:`web.pages.page`, the one choice between an htmx partial and the
whole page. It imports no other app of the project."""
