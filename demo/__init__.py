"""The demo: seeded tournaments, stages, teams and club history for a first evening."""
