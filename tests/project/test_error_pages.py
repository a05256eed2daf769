"""Every refusal is the product's own page in the interface's language: a role that may not open a
page (403), a page that does not exist or belongs to another agency (404), a form post refused by
the CSRF check; and a page shows no link its reader's role cannot follow."""

from __future__ import annotations

import re

import pytest
from django.test import Client
from django.urls import reverse

from tests.plugins.tenants import logged_in

pytestmark = pytest.mark.django_db


def _czech(client: Client) -> Client:
    client.cookies["django_language"] = "cs"
    return client


def test_a_clerk_on_a_reviewers_page_reads_the_products_403_in_czech(published, clerk):
    url = reverse("contracts:review", kwargs={"agency_id": published.agency_id, "contract_id": published.pk})
    response = _czech(logged_in(clerk)).get(url)
    page = response.content.decode()
    assert response.status_code == 403 and 'id="error-403"' in page
    assert "Vaše role" in page and "Forbidden" not in page


def test_another_agencys_contract_is_the_products_404_in_czech(published, other_agency, clerk):
    url = reverse("contracts:detail", kwargs={"agency_id": other_agency.pk, "contract_id": published.pk})
    response = _czech(logged_in(clerk)).get(url)
    page = response.content.decode()
    assert response.status_code == 404 and 'id="error-404"' in page and "Stránka nebyla nalezena" in page


def test_a_refused_form_post_is_the_products_page_not_djangos(published, clerk):
    client = _czech(Client(enforce_csrf_checks=True))
    client.force_login(clerk)
    url = reverse("contracts:retry", kwargs={"agency_id": published.agency_id, "contract_id": published.pk})
    response = client.post(url, {}, HTTP_ORIGIN="https://elsewhere.example")
    page = response.content.decode()
    assert response.status_code == 403 and 'id="error-csrf"' in page
    assert "CSRF verification" not in page and "Formulář nebyl přijat" in page


@pytest.mark.parametrize("role", ["clerk", "reviewer"])
def test_no_link_on_a_contracts_pages_is_forbidden_to_its_reader(published, role, request):
    """Every same-site link (GET) on the contract list and a published contract's page opens for
    the member who sees it: a link their role cannot follow is not shown."""
    client = logged_in(request.getfixturevalue(role))
    pages = [
        reverse("contracts:list", kwargs={"agency_id": published.agency_id}),
        reverse("contracts:detail", kwargs={"agency_id": published.agency_id, "contract_id": published.pk}),
    ]
    forbidden = []
    for url in pages:
        html = client.get(url).content.decode()
        for link in sorted(set(re.findall(r'<a [^>]*href="(/[^"#]*)', html))):
            link = link.replace("&amp;", "&")
            if link.startswith(("/static/", "/accounts/logout")):
                continue
            if client.get(link).status_code == 403:
                forbidden.append((url, link))
    assert forbidden == []


def test_a_published_contracts_badge_does_not_claim_the_registry_published_it(published, clerk):
    """ "Published" is the redacted PDF made; the registry publishes it only when it replies. The
    Czech badge says so, and agrees with the registry panel's "not sent yet"."""
    url = reverse("contracts:detail", kwargs={"agency_id": published.agency_id, "contract_id": published.pk})
    page = _czech(logged_in(clerk)).get(url).content.decode()
    assert "Znečitelněno, k odeslání do registru" in page
    assert "Zveřejněno v registru" not in page


def test_the_pages_to_confirm_by_eye_are_links_to_the_pages(processed, reviewer):
    """Approval asks the reviewer to look at pages nothing was detected on: each page number is a
    link to that page on the review page, not a list to look up."""
    pages = [dict(p) for p in processed.pages]
    pages[-1]["needs_ocr"] = True
    type(processed).objects.filter(pk=processed.pk).update(pages=pages)
    url = reverse("contracts:review", kwargs={"agency_id": processed.agency_id, "contract_id": processed.pk})
    page = _czech(logged_in(reviewer)).get(url).content.decode()
    last = pages[-1]["number"]
    assert f'<a href="#page-{last}" class="page-link">{last}</a>' in page
    assert f'id="page-{last}"' in page and "1 stránka bez textové vrstvy" in page
