"""The people who run tournaments: accounts made for a role in one tournament (the Roles
page: co-directors and scorekeepers) or for the whole club (the Directors page, ``manage.py
add_director``), each with a one-time link to choose a password, and the page a paused
log-in gets. Who may do what is :mod:`tournaments.permissions`'; this app makes the
accounts and their roles."""
