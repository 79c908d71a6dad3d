"""The club's pages, by concept: the club rating (:mod:`club.views.ratings`: a player's
page, a tournament's rating changes, seeding by rating), seasons
(:mod:`club.views.seasons`) and the CSV exports (:mod:`club.views.exports`)."""
