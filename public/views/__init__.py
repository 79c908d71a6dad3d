"""The public pages of one tournament, by concept: the tournament's page, its
``standings.json`` (:mod:`public.views.tournament`), the projector display
(:mod:`public.views.display`), and the
players' own pages, find-yourself and a player's page (:mod:`public.views.find`)."""
