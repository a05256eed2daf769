from tests.web.conftest import *  # noqa: F403  (agency, members, outsider, contract fixtures)
