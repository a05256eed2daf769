"""End to end in a real browser: Playwright drives Debian's Chromium (headless) through the demo
reviewer's day: log in, upload a dev contract, wait for the real worker, accept the proposals,
draw one manual box, approve, download; then the engine's verifier and the shared scorer check
the download. Screenshots of the upload, review and published pages go to ``screenshots/``."""

from __future__ import annotations

import json
import os
import re
import shutil
import signal
import subprocess
import sys

import pymupdf
import pytest
from django.core.management import call_command
from django.urls import reverse
from playwright.sync_api import expect

from contracts.models import Contract, Proposal, Source
from policy.models import AgencyRule
from redactor import rulebook
from redactor.categories import NAME_CATEGORIES
from redactor.model import Box
from redactor.publish.verify import verify
from tests.conftest import DATA, SCORER
from tests.plugins.browser import SCREENSHOTS, wait_for_js
from tests.worker import flush_queue, start_worker

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True, serialized_rollback=True)]

DOCUMENT = "kupni_auto_1"


@pytest.fixture
def worker():
    flush_queue()
    proc = start_worker()
    yield proc
    os.killpg(proc.pid, signal.SIGTERM)
    proc.wait(timeout=30)


def test_reviewer_publishes_a_dev_contract_in_the_browser(live_server, browser_page, worker, tmp_path):
    from accounts.management.commands.demo import DEMO_PASSWORD

    call_command("demo", url=live_server.url, stdout=open(os.devnull, "w"))
    SCREENSHOTS.mkdir(exist_ok=True)
    page = browser_page
    page.goto(f"{live_server.url}/")
    page.fill("input[name=username]", "kontrolor")
    page.fill("input[name=password]", DEMO_PASSWORD)
    page.click("button[type=submit]")
    page.wait_for_url(re.compile(r"/a/\d+/contracts/$"))

    page.click("text=Nahrát smlouvu")
    source = DATA / "dev" / f"{DOCUMENT}.pdf"
    page.set_input_files("input[name=file]", str(source))
    page.fill("input[name=title]", "Kupní smlouva – osobní automobil")
    page.fill("input[name=counterparty]", "fyzická osoba")
    page.fill("input[name=value_amount]", "185000")
    page.screenshot(path=str(SCREENSHOTS / "1-upload.png"), full_page=True)
    page.click("#upload-form button[type=submit]")
    page.wait_for_url(re.compile(r"/contracts/\d+/$"))

    # the real worker processes it; the progress bar reloads the page when the status changes
    page.wait_for_selector("#open-review", timeout=120_000)
    page.click("#open-review")
    page.wait_for_selector(".box")
    # each reason says the engine's suggestion once, in Czech (not "ponechat – Ponechat: …")
    reasons = page.locator(".item .reason").all_inner_texts()
    assert reasons and not [r for r in reasons if re.match(r"(znečitelnit|ponechat|ke kontrole) – ", r)], reasons[:3]

    contract = Contract.objects.get()
    suggested = Proposal.objects.filter(contract=contract, suggestion="redact").count()
    assert suggested > 0
    with page.expect_response(lambda r: "/review/decide/" in r.url and r.ok):
        page.click("#accept-suggested")
    # page 1 of this contract is empty but for a sticky note (a planted hidden-layer secret); show page 2
    page.locator("#page-2 .sheet").evaluate("e => { e.scrollIntoView({block: 'start'}); window.scrollBy(0, -140); }")
    wait_for_js(page, "(i => i.complete && i.naturalWidth > 0)(document.querySelector('#page-2 img'))")
    page.locator(".item.state-redact").first.click()
    assert page.locator(".item.state-redact .reason").first.inner_text().startswith("Znečitelnil kontrolor – ")
    page.screenshot(path=str(SCREENSHOTS / "2-review.png"), full_page=False)
    assert Proposal.objects.filter(contract=contract, decision="accepted").count() == suggested

    # one click keeps every occurrence of the seller's name (all inflected forms), not her other
    # data; the reviewer sees how many, and undoes it
    seller = Proposal.objects.filter(contract=contract, text="Michaela Dvořáková").first()
    occurrences = Proposal.objects.filter(contract=contract, cluster=seller.cluster, category__in=NAME_CATEGORIES)
    others = Proposal.objects.filter(contract=contract, cluster=seller.cluster).exclude(category__in=NAME_CATEGORIES)
    assert occurrences.count() > 2 and others.exists()
    item = page.locator(f".item[data-id='{seller.pk}']")
    item.click()  # a proposal's buttons show on the selected one
    # "why?" on demand: the rules that made the suggestion by their Czech names (each id in its
    # tooltip), the decision last
    item.locator(".why summary").click()
    why = item.locator(".why li")
    expect(why.last).to_have_text(re.compile(r"^Rozhodnutí: Znečitelnit"))
    assert why.first.get_attribute("data-rule") in rulebook.rules()
    assert why.first.inner_text().startswith(rulebook.rule(why.first.get_attribute("data-rule")).title("cs"))
    with page.expect_response(lambda r: "/review/decide/" in r.url and r.ok):
        item.locator("button.reject").click()
    # the box still shows the accept above until the page has read this answer
    expect(page.locator("#last-count")).to_have_text(re.compile(r"^Ponecháno: "))
    n = occurrences.count()  # Czech plural of the count (1 výskyt, 2–4 výskyty, 5 výskytů)
    assert page.inner_text("#last-count").split(": ")[1] == f"{n} " + ("výskyty" if 2 <= n <= 4 else "výskytů")
    assert set(occurrences.values_list("decision", flat=True)) == {"rejected"}
    assert set(others.values_list("decision", flat=True)) == {"accepted"}  # her birth number, her address
    assert AgencyRule.objects.filter(agency=contract.agency, pattern="Michaela Dvořáková").exists()
    page.locator("#last-action").screenshot(path=str(SCREENSHOTS / "8-one-click.png"))
    with page.expect_response(lambda r: "/review/undo/" in r.url and r.ok):
        page.click("#undo-last")
    assert set(occurrences.values_list("decision", flat=True)) == {"accepted"}
    assert not AgencyRule.objects.filter(agency=contract.agency).exists()

    # one manual box, drawn with the mouse in the top margin of page 1 (scrolled clear of the sticky
    # toolbar), on a trade secret the counterparty designated: who and when are asked for
    page.check("#mode-box")
    assert not page.is_visible("#claimant")
    page.select_option("#ground", "trade_secret")
    page.fill("#claimant", "AUTO KOVÁŘ s.r.o.")
    page.fill("#claimed-on", "2026-11-02")
    sheet = page.locator("#page-1 .sheet")
    sheet.evaluate("e => { e.scrollIntoView({block: 'start'}); window.scrollBy(0, -300); }")
    box = sheet.bounding_box()
    x0, y0 = box["x"] + box["width"] * 0.70, box["y"] + box["height"] * 0.015
    with page.expect_response(lambda r: "/review/manual/" in r.url and r.ok):
        page.mouse.move(x0, y0)
        page.mouse.down()
        page.mouse.move(x0 + box["width"] * 0.2, y0 + box["height"] * 0.03, steps=5)
        page.mouse.up()
    manual = Proposal.objects.get(contract=contract, source=Source.MANUAL_BOX)
    assert manual.decision == "accepted" and manual.boxes[0][0] == 1
    assert (manual.legal_ground, manual.trade_secret_claimant) == ("trade_secret", "AUTO KOVÁŘ s.r.o.")
    assert str(manual.trade_secret_claimed_on) == "2026-11-02"

    page.click("#approve")
    page.wait_for_selector("#published", timeout=120_000)
    page.screenshot(path=str(SCREENSHOTS / "3-published.png"), full_page=True)
    assert "nic čitelného nezůstalo" in page.inner_text("#verification")

    with page.expect_download() as download_info:
        page.click("#download")
    download = download_info.value
    assert download.suggested_filename == "kupni-smlouva-osobni-automobil-anonymizovano.pdf"
    out_dir = tmp_path / "out"
    out_dir.mkdir()
    redacted = out_dir / f"{DOCUMENT}.pdf"
    download.save_as(redacted)

    # the audit trail says what happened in words: who, the event, its detail by label
    page.goto(
        live_server.url
        + reverse("contracts:audit", kwargs={"agency_id": contract.agency_id, "contract_id": contract.pk})
    )
    page.screenshot(path=str(SCREENSHOTS / "10-audit.png"), full_page=True)
    trail = page.inner_text("table.list")
    assert "Zveřejněno" in trail and "rámečky:" in trail and "{" not in trail
    assert "Obchodní tajemství označené smluvní stranou" in trail and "AUTO KOVÁŘ s.r.o." in trail
    assert "trade_secret" not in trail and "legal_ground" not in trail

    # 1. the engine's verifier: no accepted text readable, nothing under the boxes
    data = redacted.read_bytes()
    accepted = Proposal.objects.filter(contract=contract, decision="accepted")
    boxes = [Box(int(b[0]), *b[1:]) for p in accepted for b in p.boxes]
    with pymupdf.open(source) as doc:
        full_text = "".join(page_.get_text() for page_ in doc)
    texts = [p.text for p in accepted if p.text and full_text.count(p.text) == 1]
    result = verify(data, texts, boxes=boxes)
    assert result.ok, result.problems
    # the manual box is burned in: its area is black in the output
    with pymupdf.open(stream=data, filetype="pdf") as doc:
        x0_, y0_, x1_, y1_ = manual.boxes[0][1:]
        w, h = x1_ - x0_, y1_ - y0_  # burn-in trims a box's top and bottom a little (burn.VERTICAL_TRIM)
        pix = doc[0].get_pixmap(clip=pymupdf.Rect(x0_ + w / 4, y0_ + h / 3, x1_ - w / 4, y1_ - h / 3))
        assert set(pix.samples) == {0}

    # 2. the shared, independent scorer against the gold file
    gold = tmp_path / "gold"
    gold.mkdir()
    for suffix in (".pdf", ".json"):
        shutil.copy(DATA / "dev" / f"{DOCUMENT}{suffix}", gold)
    report = tmp_path / "score.json"
    subprocess.run(
        [sys.executable, str(SCORER), str(gold), str(out_dir), "--json", str(report)], check=True, capture_output=True
    )
    summary = json.loads(report.read_text())["summary"]
    assert summary["missing_outputs"] == 0
    assert summary["leaked"] == 0 and summary["hidden_leaks"] == summary["raw_leaks"] == summary["unsafe_saves"] == 0
    assert summary["lost"] == 0


def test_api_docs_page_renders_offline_and_tries_a_call(live_server, browser_page, agency, admin_user):
    """Swagger UI from the sidecar package: every asset from this server, the operations listed, and
    "Try it out" with a token reaches the API (no CDN, no network)."""
    from accounts.services import api_token_create

    _, raw = api_token_create(agency=agency, name="docs", role="clerk", created_by=admin_user)
    page = browser_page
    foreign = []
    page.on(
        "request",
        lambda r: (
            r.url.startswith(("http://", "https://"))
            and not r.url.startswith(live_server.url)
            and foreign.append(r.url)
        ),
    )
    page.goto(f"{live_server.url}/api/v1/docs/")
    page.wait_for_selector("text=Upload a contract")
    assert page.locator(".opblock").count() >= 11
    page.click("button.authorize")
    page.fill(".auth-container input", raw)
    page.click(".auth-btn-wrapper button.authorize")
    page.click(".btn-done")
    page.click("#operations-contracts-contracts_list")
    page.click("#operations-contracts-contracts_list >> text=Try it out")
    page.click("#operations-contracts-contracts_list >> text=Execute")
    page.wait_for_selector(
        "#operations-contracts-contracts_list .live-responses-table .response-col_status:has-text('200')"
    )
    page.screenshot(path=str(SCREENSHOTS / "4-api-docs.png"), full_page=False)
    assert foreign == []


def test_agency_admin_changes_the_map_previews_publishes_and_a_new_contract_follows(
    live_server, browser_page, worker, tmp_path
):
    """Matrix click → preview on a dev contract → publish → a newly processed contract is decided
    by the new version (the VIN of a sold car kept once it no longer depends on the seller's name)."""
    from accounts.management.commands.demo import DEMO_PASSWORD
    from accounts.models import Agency
    from contracts.services import uploads
    from policy.selectors import map_version_in_force
    from tests.worker import wait_for

    call_command("demo", url=live_server.url, stdout=open(os.devnull, "w"))
    SCREENSHOTS.mkdir(exist_ok=True)
    agency = Agency.objects.get(ico="00000001")
    admin = agency.memberships.get(user__username="spravce").user
    data = (DATA / "dev" / f"{DOCUMENT}.pdf").read_bytes()
    first = uploads.contract_upload(agency=agency, user=admin, data=data, filename="auto.pdf", title="Auto 1")
    wait_for(lambda: Contract.objects.get(pk=first.pk).status == "needs_review", timeout=120)
    vin = Proposal.objects.get(contract=first, category=38)
    assert vin.suggestion == "redact"

    page = browser_page
    page.goto(f"{live_server.url}/")
    page.fill("input[name=username]", "spravce")
    page.fill("input[name=password]", DEMO_PASSWORD)
    page.click("button[type=submit]")
    page.wait_for_url(re.compile(r"/a/\d+/contracts/$"))
    page.goto(f"{live_server.url}/a/{agency.pk}/map/matrix/")
    for depends_on in (1, 2):  # VIN (38) no longer depends on the given name (1) or the surname (2)
        page.click(f"#cell-38-{depends_on}")
        page.wait_for_selector(f"#cell-38-{depends_on}:has-text('·')")
    page.locator("#cell-38-1").scroll_into_view_if_needed()
    page.screenshot(path=str(SCREENSHOTS / "5-map-matrix.png"), full_page=False)

    page.goto(f"{live_server.url}/a/{agency.pk}/map/preview/")
    page.select_option("#preview-source", f"c{first.pk}")
    page.click("#run-preview")
    page.wait_for_selector("#preview")
    rows = page.locator("#preview tbody tr")
    assert rows.count() == 1 and vin.text in rows.first.inner_text()
    # the actions in the admin's language, each with its reason below it
    assert rows.first.locator("td").nth(3).inner_text().startswith("znečitelnit\n")
    assert rows.first.locator("td").nth(4).inner_text().startswith("ponechat\n")
    page.screenshot(path=str(SCREENSHOTS / "6-map-preview.png"), full_page=True)

    page.goto(f"{live_server.url}/a/{agency.pk}/map/")
    page.fill("input[name=note]", "VIN only with a name in the same sentence: no, never")
    page.click("#publish")
    page.wait_for_selector(".messages, .message, #categories")
    version = map_version_in_force(agency=agency)
    assert version.agency == agency and version.number == 1

    second = uploads.contract_upload(agency=agency, user=admin, data=data, filename="auto.pdf", title="Auto 2")
    wait_for(lambda: Contract.objects.get(pk=second.pk).status == "needs_review", timeout=120)
    assert Contract.objects.get(pk=second.pk).map_version == version
    assert Proposal.objects.get(contract=second, category=38).suggestion == "keep"
    assert Proposal.objects.get(contract=first, pk=vin.pk).suggestion == "redact"  # the old contract keeps v1's
    page.goto(f"{live_server.url}/a/{agency.pk}/contracts/{second.pk}/review/")
    page.wait_for_selector(f"text={vin.text}")
    item = page.locator(".item", has_text=vin.text).first
    item.click()
    assert "keep" in item.inner_text().lower() or "ponechat" in item.inner_text().lower()
    page.screenshot(path=str(SCREENSHOTS / "7-new-decision.png"), full_page=False)
