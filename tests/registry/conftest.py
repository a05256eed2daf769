"""The registry's fixtures: the data-box test server with a box of the agency, which sends
through it."""

from __future__ import annotations

import pytest

from registry import services as registry
from tests.databox_server import DataBoxServer

AGENCY_BOX = "abc2def"


@pytest.fixture
def databox(settings, agency, admin_user):
    """The test server with a box for the agency, and the agency set to send through it."""
    server = DataBoxServer(registry_box=settings.REDACTOR_REGISTRY_DATABOX)
    server.add_box(AGENCY_BOX, "horni-lhota", "heslo-1")
    settings.REDACTOR_DATABOX_URL_TEST = server.start()
    agency.data_box_id = AGENCY_BOX
    agency.save(update_fields=["data_box_id"])
    registry.registry_settings_update(
        agency=agency,
        user=admin_user,
        channel="databox",
        environment="test",
        unit="odbor správy majetku",
        address="Náměstí 1, 679 01 Horní Lhota",
        login="horni-lhota",
        password="heslo-1",
    )
    yield server
    server.stop()
