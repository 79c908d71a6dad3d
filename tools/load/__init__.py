"""``make loadtest``: simulated tables entering whole matches against gunicorn on loopback."""
