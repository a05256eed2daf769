"""The pages of the tour in Czech, as a clerk, a reviewer and an agency admin see them: no raw
identifier of the code (``natural_person``, ``needs_review``, ``decision_accept``) and no English
word of the product's own vocabulary in the text a person reads (issue 34). The review page's
side list is drawn by its script from the page's JSON and words; the browser test checks that."""

from __future__ import annotations

import re
from html.parser import HTMLParser

import pytest
from django.urls import reverse

from contracts.models import Status
from tests.plugins.tenants import logged_in

#: The product's own English terms, as they would leak into a Czech page untranslated (whole
#: words, case-insensitive).
ENGLISH_TERMS = (
    "redact",
    "redacted",
    "keep",
    "kept",
    "review",
    "needs review",
    "pending",
    "accepted",
    "rejected",
    "published",
    "uploaded",
    "processing",
    "approved",
    "registered",
    "failed",
    "deleted",
    "natural person",
    "legal person",
    "public body",
    "sole trader",
    "primary",
    "secondary",
    "not subject",
    "system",
    "party",
    "proposal",
    "decision",
    "contract",
    "page",
    "download",
    "original",
)
#: A code identifier: lower-case words joined by underscores.
RAW_IDENTIFIER = re.compile(r"\b[a-z]+(?:_[a-z]+)+\b")


class _VisibleText(HTMLParser):
    """The text of a page a person reads: element text and the ``title``, ``alt``,
    ``placeholder`` and ``aria-label`` attributes; not scripts, styles, JSON data or code."""

    SKIP = {"script", "style", "code", "template"}
    ATTRIBUTES = ("title", "alt", "placeholder", "aria-label")

    def __init__(self):
        super().__init__()
        self.parts: list[str] = []
        self.skipping = 0

    def handle_starttag(self, tag, attrs):
        if tag in self.SKIP:
            self.skipping += 1
        for name, value in attrs:
            if name in self.ATTRIBUTES and value:
                self.parts.append(value)

    def handle_endtag(self, tag):
        if tag in self.SKIP and self.skipping:
            self.skipping -= 1

    def handle_data(self, data):
        if not self.skipping:
            self.parts.append(data)


def visible_text(html: str) -> str:
    parser = _VisibleText()
    parser.feed(html)
    return " ".join(" ".join(parser.parts).split())


def problems_in(text: str) -> list[str]:
    """Raw identifiers and English terms of the product in ``text`` (a Czech page)."""
    found = [m.group() for m in RAW_IDENTIFIER.finditer(text)]
    for term in ENGLISH_TERMS:
        found += [m.group() for m in re.finditer(rf"(?<![\w-]){re.escape(term)}(?![\w-])", text, re.I)]
    return found


@pytest.fixture
def czech(settings):
    settings.LANGUAGE_CODE = "cs"


def _tour(contract, agency_id: int) -> dict[str, str]:
    kwargs = {"agency_id": agency_id, "contract_id": contract.pk}
    return {
        "contracts": reverse("contracts:list", kwargs={"agency_id": agency_id}),
        "upload": reverse("contracts:upload", kwargs={"agency_id": agency_id}),
        "contract": reverse("contracts:detail", kwargs=kwargs),
        "review": reverse("contracts:review", kwargs=kwargs),
        "audit": reverse("contracts:audit", kwargs=kwargs),
    }


def test_the_detectors_vocabulary_is_caught():
    """The check itself: an untranslated status, a party kind and an audit action are found."""
    text = visible_text(
        "<p>Status: Needs review</p><li>Jan (natural_person)</li><td>decision_accept</td><script>x_y</script>"
    )
    assert problems_in(text) == ["natural_person", "decision_accept", "review", "Needs review"]


def test_the_tour_in_czech_has_no_raw_vocabulary(czech, processed, reviewer, agency):
    pages = _tour(processed, agency.pk)
    found = {}
    for name, url in pages.items():
        response = logged_in(reviewer).get(url, HTTP_ACCEPT_LANGUAGE="cs")
        assert response.status_code == 200, name
        found[name] = problems_in(visible_text(response.content.decode()))
    assert {name: words for name, words in found.items() if words} == {}


def test_a_published_contract_in_czech_has_no_raw_vocabulary(czech, published, reviewer, agency):
    assert published.status == Status.PUBLISHED
    pages = _tour(published, agency.pk)
    found = {}
    for name in ("contract", "audit"):
        response = logged_in(reviewer).get(pages[name], HTTP_ACCEPT_LANGUAGE="cs")
        assert response.status_code == 200, name
        found[name] = problems_in(visible_text(response.content.decode()))
    assert {name: words for name, words in found.items() if words} == {}


def test_an_audit_events_detail_is_read_in_words_not_as_json(czech):
    """The audit trail's detail column: labels for keys, labels for the codes among the values,
    flags as yes/no, boxes counted; the CSV export keeps the JSON."""
    from django.utils import translation

    from contracts.vocabulary import audit_detail_items

    with translation.override("cs"):
        items = audit_detail_items(
            {
                "stage": "publishing",
                "mode": "pseudonymised",
                "same_cluster": True,
                "boxes": [[1, 10, 10, 50, 20], [1, 10, 30, 50, 40]],
                "covered": 1,
                "fields": ["value_without_vat", "parties.0.address"],
                "channel": "databox",
                "profile_version": None,
                "proposals": [5, 6],
                "batch": "e82b1d87-5a1c-4d3e-9f00-1234567890ab",  # ties one action's decisions for undo
            }
        )
    assert items == [  # in the order of AUDIT_DETAILS, whatever order the JSON kept
        ("verze profilu úřadu", "–"),
        ("fáze", "Zveřejnění"),
        ("návrhy", "5, 6"),
        ("všechny výskyty", "ano"),
        ("rámečky", "2"),
        ("údaje zakryté po novém přečtení obrazu stránek", "1"),
        ("export", "pseudonymizované"),
        ("pole", "Hodnota bez DPH, Strana 1: adresa"),
        ("kanál", "Datová schránka (odesílá tato služba)"),
    ]
    assert problems_in(" ".join(f"{k}: {v}" for k, v in items)) == []
    # a day or a time a detail stores in ISO 8601 reads as the interface writes dates
    with translation.override("cs"):
        dated = [
            value for _key, value in audit_detail_items({"claimed_on": "2026-03-02", "at": "2026-03-02T09:30:00Z"})
        ]
    assert dated[0] == "2. března 2026" and dated[1].startswith("2. března 2026 ")
    assert not [value for value in dated if re.search(r"\d{4}-\d{2}", value)]


def test_the_language_menu_names_each_language_in_itself(czech, clerk):
    page = logged_in(clerk).get("/", HTTP_ACCEPT_LANGUAGE="cs", follow=True).content.decode()
    menu = re.search(r'<select name="language".*?</select>', page, re.S).group(0)
    assert re.findall(r"<option[^>]*>([^<]+)</option>", menu) == ["Česky", "English"]


def admin_screens(agency, admin_user) -> dict[str, str]:
    """The agency admin's screens (name → URL), with something on each: a draft that changed a
    dependency and a role exception (the map, matrix, category, versions and preview pages show
    them), a learned rule, an invitation, a token, a webhook."""
    from accounts import services as account_services
    from contracts.services import webhooks
    from policy import selectors as policy_selectors
    from policy.services import maps, rules

    draft = maps.map_draft_open(agency=agency, user=admin_user)
    draft = maps.map_dependency_set(draft=draft, user=admin_user, category=56, depends_on=4, scopes=None)
    maps.map_role_exception_set(draft=draft, user=admin_user, role="public_official", enabled=False)
    rules.rule_vote(agency=agency, kind="person", pattern="Xaver Qwertz", value=-1, user=admin_user, category=4)
    account_services.invitation_create(agency=agency, email="nova@example.invalid", role="clerk", by=admin_user)
    account_services.api_token_create(agency=agency, name="Spisová služba", role="clerk", created_by=admin_user)
    webhooks.webhook_create(agency=agency, url="https://dms.example.cz/hook", events=["contract.published"],
                            created_by=admin_user)  # fmt: skip
    assert policy_selectors.map_draft(agency=agency) is not None
    a = {"agency_id": agency.pk}
    return {
        "map": reverse("map:agency_home", kwargs=a),
        "matrix": reverse("map:agency_matrix", kwargs=a),
        "category": reverse("map:agency_category", kwargs={**a, "category": 56}),
        "versions": reverse("map:agency_versions", kwargs=a),
        "preview": reverse("agency_map_preview", kwargs=a),
        "rules": reverse("map:rules", kwargs=a),
        "profile": reverse("map:profile", kwargs=a),
        "settings": reverse("accounts:settings", kwargs=a),
        "registry settings": reverse("registry:settings", kwargs=a),
        "tokens": reverse("accounts:api_tokens", kwargs=a),
        "webhooks": reverse("webhooks:list", kwargs=a),
        "exports": reverse("contracts:exports", kwargs=a),
        "members": reverse("accounts:members", kwargs=a),
    }


def test_the_agency_admins_screens_in_czech_have_no_raw_vocabulary(czech, processed, admin_user, agency):
    """The agency admin's screens (:func:`admin_screens`) through the test client."""
    pages = admin_screens(agency, admin_user)
    found = {}
    client = logged_in(admin_user)
    for name, url in pages.items():
        response = client.get(url, HTTP_ACCEPT_LANGUAGE="cs")
        assert response.status_code == 200, name
        found[name] = problems_in(visible_text(response.content.decode()))
    assert {name: words for name, words in found.items() if words} == {}


def test_the_review_lists_categories_are_named_in_czech_at_both_doors(czech, processed, reviewer, reviewer_token):
    """The review page's list groups proposals by their category's name, and the API names them:
    in Czech for a Czech reader, the map's names, and a span sent to review because it may be
    personal data by its own name, not the engine's term (a proposal stored with the engine's
    old English name included)."""
    import json

    from contracts.models import Proposal
    from tests.plugins.tokens import api

    doubt = Proposal.objects.filter(contract=processed).first()
    doubt.pk, doubt.category, doubt.category_name = None, 0, "Suspicious span"
    doubt.save()
    page = logged_in(reviewer).get(_tour(processed, processed.agency_id)["review"], HTTP_ACCEPT_LANGUAGE="cs")
    config = json.loads(re.search(r'id="review-config"[^>]*>(.*?)</script>', page.content.decode(), re.S).group(1))
    names = {p["category"]: p["category_name"] for p in config["state"]["proposals"]}
    assert names[0] == "Možný osobní údaj" and len(names) > 2
    assert not [name for name in names.values() if problems_in(name) or re.search(r"\b(span|data|name)\b", name, re.I)]
    listed = api(reviewer_token).get(f"/api/v1/contracts/{processed.pk}/proposals/", HTTP_ACCEPT_LANGUAGE="cs").json()
    assert {p["category_name"] for p in listed if p["category"] == 0} == {"Možný osobní údaj"}
