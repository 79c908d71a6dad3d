"""Views for the match sheet, hand entry and table links."""
