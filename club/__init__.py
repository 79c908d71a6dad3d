"""Club life across tournaments: the club rating, player pages, seasons and exports.

Below ``public`` and ``printing`` in the code map: it reads the standings
(:mod:`standings`), and the public pages and PDFs show its rating
(:mod:`club.standings_ratings`) and print its seasons.
"""
