"""The quick start's month of the registry's open data: invented records of the demo agency, a few
of them exposing personal data, as the registry publishes them (a monthly dump, ``dump_mesice.xsd``
of ISRS 1.2.1, and every record's files under ``smlouva/soubor/<n>/<name>``), so that the import,
the audit, a correction and the ``modifikace`` can be tried end to end on a fresh clone.
``bin/start`` writes the month into ``var/demo-open-data/`` (:func:`write_demo_month`), serves it
on loopback as the registry's open data and, with ``REDACTOR_DEMO_DATABOX=1``, tells the
data-box test server the records (:func:`demo_records`), so that it accepts their new versions.

Every person, number and address here is made up (birth numbers and accounts pass their
checksums so that the engine finds them, as it would real ones); nothing is fetched from outside.
"""

from __future__ import annotations

import io
from dataclasses import dataclass
from datetime import UTC, date, datetime
from pathlib import Path

from redactor.metadata import ContractMetadata, PublishingBody, RegistryParty
from registry import isrs

#: The demo month: what an admin types on *Zveřejněné záznamy* to fetch it.
DEMO_MONTH = date(2026, 11, 1)


@dataclass(frozen=True)
class _DemoFile:
    name: str
    paragraphs: tuple[str, ...]
    #: words drawn over with a black box while their text stays in the layer (an earlier redaction that failed)
    boxed: str = ""


@dataclass(frozen=True)
class _DemoRecord:
    record_id: int
    subject: str
    concluded: date
    parties: tuple[RegistryParty, ...]
    files: tuple[_DemoFile, ...]


_FIRM = RegistryParty(name="STAVBY HORÁK s.r.o.", ico="25596641", address="Průmyslová 8, 602 00 Brno")
_TOWN = "Obec Horní Lhota (demo), IČO: 00000001, se sídlem Náves 1, 679 01 Horní Lhota, zastoupená starostou"

_RECORDS = (
    _DemoRecord(
        9_100_001,
        "Smlouva o dílo – oprava chodníku na návsi",
        date(2026, 10, 6),
        (_FIRM,),
        (
            _DemoFile(
                "smlouva-o-dilo-chodnik.pdf",
                (
                    "Smlouva o dílo č. 2026/41",
                    f"Objednatel: {_TOWN}.",
                    "Zhotovitel: STAVBY HORÁK s.r.o., IČO: 25596641, se sídlem Průmyslová 8, 602 00 Brno.",
                    "Předmět díla: oprava chodníku na návsi v délce 120 m. Cena díla činí 412 000 Kč bez DPH.",
                    "V Horní Lhotě dne 6. 10. 2026",
                ),
            ),
        ),
    ),
    _DemoRecord(
        9_100_002,
        "Kupní smlouva – pozemek parc. č. 412/3",
        date(2026, 10, 14),
        (RegistryParty(name="Alžběta Hrdličková", address="U Rybníka 14, 679 01 Horní Lhota"),),
        (
            _DemoFile(
                "kupni-smlouva-pozemek.pdf",
                (
                    "Kupní smlouva č. 2026/44",
                    "Prodávající: Alžběta Hrdličková, nar. 18. 3. 1968, rodné číslo 685318/1236, "
                    "bytem U Rybníka 14, 679 01 Horní Lhota.",
                    f"Kupující: {_TOWN}.",
                    "Předmětem koupě je pozemek parc. č. 412/3 v k. ú. Horní Lhota o výměře 820 m².",
                    "Kupní cena 164 000 Kč bude zaplacena na účet prodávající č. 1234567899/0100.",
                    "Prodávající Alžběta Hrdličková prohlašuje, že pozemek nemá právní vady.",
                ),
            ),
        ),
    ),
    _DemoRecord(
        9_100_003,
        "Nájemní smlouva – byt v domě Náves 3 a její dodatek",
        date(2026, 10, 20),
        (RegistryParty(name="Radim Koudelka", address="Náves 3, 679 01 Horní Lhota"),),
        (
            _DemoFile(
                "najemni-smlouva.pdf",
                (
                    "Nájemní smlouva č. 2026/47",
                    f"Pronajímatel: {_TOWN}.",
                    "Nájemce: Radim Koudelka, nar. 11. 4. 1982, rodné číslo 820411/4567, tel. 603 817 091.",
                    "Předmětem nájmu je byt č. 2 v domě Náves 3. Nájemné činí 9 800 Kč měsíčně, celkem 117 600 Kč "
                    "ročně.",
                ),
            ),
            _DemoFile(
                "dodatek-c-1.pdf",
                (
                    "Dodatek č. 1 k nájemní smlouvě č. 2026/47",
                    f"Pronajímatel: {_TOWN}.",
                    "Nájemce: Radim Koudelka, bytem Náves 3, 679 01 Horní Lhota.",
                    "Nájemné se od 1. 1. 2027 zvyšuje na 10 200 Kč měsíčně.",
                ),
            ),
        ),
    ),
    _DemoRecord(
        9_100_004,
        "Darovací smlouva – příspěvek na opravu kapličky",
        date(2026, 10, 27),
        (RegistryParty(name="Spolek přátel Horní Lhoty, z.s.", ico="22745009"),),
        (
            _DemoFile(
                "darovaci-smlouva.pdf",
                (
                    "Darovací smlouva č. 2026/52",
                    f"Dárce: {_TOWN}.",
                    "Obdarovaný: Spolek přátel Horní Lhoty, z.s., IČO: 22745009, zastoupený předsedkyní "
                    "Věrou Šlapalovou, nar. 7. 2. 1975, rodné číslo 755207/1230.",
                    "Dar ve výši 60 000 Kč je určen na opravu kapličky na návsi.",
                ),
                boxed="755207/1230",
            ),
        ),
    ),
)


def _pdf(paragraphs: tuple[str, ...], boxed: str = "") -> bytes:
    """A one-page A4 PDF of ``paragraphs`` (PyMuPDF Story, sans-serif 11 pt), with a black box
    drawn over ``boxed`` whose text stays in the layer (an earlier redaction that failed)."""
    import html  # noqa: PLC0415

    import pymupdf  # noqa: PLC0415 - only when the month is written

    body = "".join(f"<p>{html.escape(p)}</p>" for p in paragraphs)
    story = pymupdf.Story(html=f"<body style='font-family: sans-serif; font-size: 11pt'>{body}</body>")
    out = io.BytesIO()
    writer = pymupdf.DocumentWriter(out)
    page_box = pymupdf.paper_rect("a4")
    device = writer.begin_page(page_box)
    story.place(page_box + (56, 56, -56, -56))
    story.draw(device)
    writer.end_page()
    writer.close()
    doc = pymupdf.open(stream=out.getvalue(), filetype="pdf")
    try:
        if boxed:
            page = doc[0]
            for rect in page.search_for(boxed):
                page.draw_rect(rect, color=(0, 0, 0), fill=(0, 0, 0))
        doc.set_metadata({"producer": "Redactor demo", "title": paragraphs[0]})
        return doc.tobytes(garbage=3, deflate=True)
    finally:
        doc.close()


def demo_records(directory: Path) -> list[isrs.Record]:
    """The records of the demo month written in ``directory`` (:func:`write_demo_month`), read
    back from its dump; empty when it is not written."""
    dump = directory / f"dump_{DEMO_MONTH.year}_{DEMO_MONTH.month:02d}.xml"
    return isrs.parse_dump(dump.read_bytes()) if dump.is_file() else []


def write_demo_month(directory: Path, base_url: str, *, ico: str, data_box: str, name: str) -> Path:
    """Write the demo month into ``directory`` (once: an existing dump is kept, so its files keep
    their SHA-256) as the registry serves it from ``base_url`` (the dump at its root, the files
    under ``smlouva/soubor/``), the publisher the agency ``name`` with ``ico`` and ``data_box``;
    returns the dump's path."""
    dump = directory / f"dump_{DEMO_MONTH.year}_{DEMO_MONTH.month:02d}.xml"
    if dump.is_file():
        return dump
    publisher = PublishingBody(name=name, ico=ico, data_box=data_box)
    records: list[isrs.Record] = []
    n = 0
    for demo in _RECORDS:
        files = []
        for f in demo.files:
            n += 1
            data = _pdf(f.paragraphs, f.boxed)
            path = directory / "smlouva" / "soubor" / str(n) / f.name
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_bytes(data)
            files.append(isrs.RecordFile(f.name, isrs.sha256(data), f"{base_url}smlouva/soubor/{n}/{f.name}"))
        meta = ContractMetadata(publisher, list(demo.parties), demo.subject, demo.concluded)
        # published in the dump's month, as every record of a monthly dump is (within the 30 days
        # § 5(2) of Act 340/2015 allows after the contract was concluded)
        published = datetime(DEMO_MONTH.year, DEMO_MONTH.month, demo.concluded.day, 9, 0, tzinfo=UTC)
        records.append(
            isrs.Record(
                record_id=demo.record_id,
                version_id=demo.record_id + 500_000,
                link=f"https://smlouvy.gov.cz/smlouva/{demo.record_id}",
                published_at=published,
                metadata=meta,
                files=files,
                current=True,
            )
        )
    generated = datetime(DEMO_MONTH.year, DEMO_MONTH.month + 1, 1, 3, 0, tzinfo=UTC)
    directory.mkdir(parents=True, exist_ok=True)
    dump.write_bytes(isrs.dump_xml(records, DEMO_MONTH.year, DEMO_MONTH.month, generated))
    return dump
