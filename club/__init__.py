"""Club life across tournaments: the club rating, player pages, seasons and exports.

Above ``public`` in the code map (it reads the standings the public pages compute), with
one exception held by ``tests/test_layout.py``: the rating store (:mod:`club.models` and
:mod:`club.ratings`) imports only ``tournaments`` and ``scoring``, so ``public`` may read it
for ``standings.json``.
"""
