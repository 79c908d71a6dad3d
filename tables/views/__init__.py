"""The tables app's views: the director's table-link button on the match sheet
(``table_link``), the players calling the director and the director answering
(``calls``), and what every view behind a table link shares (``links``, on which
scoring's hand views stand too). The URLs are in :mod:`tables.urls`."""
