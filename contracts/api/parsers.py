"""The API's JSON parser: DRF's, with a body nested deeper than Python can read refused as any
other malformed JSON (400), not an internal error."""

from __future__ import annotations

from django.utils.translation import gettext as _
from rest_framework import parsers
from rest_framework.exceptions import ParseError


class JSONParser(parsers.JSONParser):
    """:class:`rest_framework.parsers.JSONParser`; ``RecursionError`` (a body such as 100,000
    nested arrays) raises ``ParseError``."""

    def parse(self, stream, media_type=None, parser_context=None):
        try:
            return super().parse(stream, media_type, parser_context)
        except RecursionError:
            raise ParseError(_("The request is not valid JSON.")) from None
