"""A link as a QR code on a page: an inline SVG (segno, as the scoresheets' table links)
for the one-time links a director hands over from their screen (a set-password link, a
publishing token)."""

from __future__ import annotations

import segno
from django.utils.safestring import SafeString, mark_safe


def qr_svg(url: str) -> SafeString:
    """The link as an inline SVG QR code (segno, as the scoresheets' table links)."""
    return mark_safe(segno.make(url, error="m", micro=False).svg_inline(scale=5, border=2))
