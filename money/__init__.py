"""Money: one tournament's entry fees, prize pool, payouts, side pots and payments."""
