"""The scoring app's views, by concept: the match sheet and hand entry (``sheet``), a team
match's sheet and its deals (``teams``), correcting and deleting a hand (``corrections``),
calling time and ruling on a match level on time (``clock``), and the director's dispute
page (``disputes``). What the match views share (resolving the match under both URLs, the
page context, who may correct) is ``base``; the URLs are in :mod:`scoring.urls`. The table
link's own views (the director's table-link button, calling the director) are
:mod:`tables.views`."""
