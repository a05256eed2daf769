"""Writes of the redactor app, one module per entity: :mod:`.maps` (category-map drafts, import,
publication), :mod:`.rules` (agency rules: votes, console edits, CSV) and :mod:`.profiles` (the
agency profile's spreadsheet). The views, the contracts app and the tests import the module they
need."""
