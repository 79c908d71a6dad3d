"""Pairing: who plays whom. Pure Python (networkx for Swiss): knockout brackets and their
drop order into the losers' bracket, Swiss rounds, the cut between stages, and the
tiebreaks that rank a table of results. Plain data in, plain data out; no Django, nothing
of the project."""
