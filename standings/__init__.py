"""Standings: the read model every surface shows (pages, PDFs, prizes, the club): one
tournament's matches and hands loaded in a fixed number of queries (:mod:`standings.data`),
its places (:mod:`standings.standings`; a staged event's in :mod:`standings.overall`), each
stage as shown (:mod:`standings.stage_views`), each player's numbers
(:mod:`standings.stats`) and the board of rounds (:mod:`standings.board`)."""
