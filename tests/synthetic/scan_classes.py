"""Synthetic scans of the layouts where scans hide personal data, with gold files.

Each class is a document a real agency publishes as a scan; every person, number and address in
it is invented (Faker ``cs_CZ``, identifiers with valid checksums, see :mod:`.generator`):

- ``certification``: a purchase contract whose last page carries a signature certification
  clause (legalizace): the signer's name, date of birth and home address;
- ``form``: an information request under Act 106/1999 Sb. as a form of labelled fields on
  separate lines (Jméno / Příjmení / Datum narození / Trvalý pobyt / Telefon / E-mail),
  addressed to a city district whose name holds the requester's town part;
- ``letter``: a private landlord's letter: sender's block without any cue word, the addressee
  (a town office with its switchboard and account in its header), a mobile in the signature;
- ``sole_trader``: a sole trader's address (a house number with a slash) printed three times,
  his e-mail made of his name, the agency's account and phone beside its name.

:func:`scan` renders a PDF the way a scanner does: grey pixels at 150-300 dpi (or 72), a slight
skew, speckle noise, a stamp or a signature stroke over the text. The gold lists name words in
every printed form and identifiers as printed, ``redact`` or ``keep``, as the shared format
does (``../shared/data/README.md``); ``occurrences`` are counted in the printed text.
"""

from __future__ import annotations

import io
import json
import math
import random
from pathlib import Path

import numpy as np
import pymupdf
from PIL import Image, ImageDraw

from redactor.text import normalize
from tests.pdfs import pdf_from_paragraphs
from tests.synthetic.generator import Contract, Generator, Person, gold_items

CLASSES = ("certification", "form", "letter", "sole_trader")
DISTRICTS = ["Praha 12", "Praha 4", "Praha - Libuš", "Brno - sever", "Ostrava - Jih"]


class ScanClasses(Generator):
    """One contract of each class from a seed (the same seed, the same documents)."""

    def _party_blocks(self) -> tuple[str, list[tuple[str, str]]]:
        office = self.r.choice(["Obec Horní Lhota", "Město Kostelec", "Obec Dolní Újezd"])
        ico = self.ico()
        return (
            f"{office}, IČO: {ico}, se sídlem Náměstí {self.r.randint(1, 40)}, {self.town()}",
            [(office, "ORGANIZATION"), (ico, "IDENTIFIER")],
        )

    def certification(self) -> Contract:
        seller, buyer = self.person(titled=False), self.person(titled=False)
        dob, _rc = self.birth(seller.female)
        street, town = self.street(), self.town()
        office, keep = self._party_blocks()
        verb = "uznala" if seller.female else "uznal"
        clerk = self.person(titled=False)
        paragraphs = [
            f"Kupní smlouva č. {self.r.randint(1, 300)}/2026",
            f"Prodávající: {seller.name()}, bytem {street}, {town}",
            f"Kupující: {office}",
            f"Předmětem koupě je pozemek parc. č. {self.r.randint(100, 3000)}/{self.r.randint(1, 40)} za kupní cenu "
            f"{self.r.randint(50, 900)} 000 Kč.",
            "Smluvní strany prohlašují, že si smlouvu přečetly a na důkaz souhlasu připojují své podpisy.",
            f"Ověřovací doložka pro legalizaci. Poř. č. {self.r.randint(1, 400)}/2026. Ověřuji, že "
            f"{seller.given} {seller.surname.upper()}, nar. {dob}, bytem {street}, {town}, jehož totožnost byla "
            f"prokázána platným úředním průkazem, podpis {verb} za vlastní.",
            f"V Kostelci dne 5. 3. 2026, {clerk.name()}, pracovnice městského úřadu",
        ]
        c = Contract("certification", paragraphs, [(dob, "DATE_OF_BIRTH"), (street, "ADDRESS")], keep, [seller])
        c.public = [buyer, clerk]
        return c

    def form(self) -> Contract:
        who = self.person(titled=False)
        dob, _rc = self.birth(who.female)
        street = self.street()
        district = self.r.choice(DISTRICTS)
        postcode = f"{self.r.randint(100, 199)} {self.r.randint(0, 99):02d}"
        phone, email = self.phone(), self.email(who)
        body = f"Městská část {district}"
        paragraphs = [
            "Žádost o poskytnutí informace podle zákona č. 106/1999 Sb., o svobodném přístupu k informacím",
            f"Adresát: {body}, Úřad městské části, {self.street()}, {postcode} {district.split(' - ')[0]}",
            f"Jméno: {who.given}",
            f"Příjmení: {who.surname}",
            f"Datum narození: {dob}",
            f"Trvalý pobyt: {street}, {postcode} {district}",
            f"Telefon: {phone}",
            f"E-mail: {email}",
            f"Žádám o poskytnutí kopie smlouvy o dílo uzavřené {body} dne {self.r.randint(1, 28)}. 2. 2026.",
            f"Informaci žádám zaslat elektronicky. {body} vyřizuje žádosti do 15 dnů.",
        ]
        redact = [(dob, "DATE_OF_BIRTH"), (street, "ADDRESS"), (phone, "PHONE"), (email, "EMAIL")]
        return Contract("form", paragraphs, redact, [(body, "ORGANIZATION")], [who])

    def letter(self) -> Contract:
        who = self.person(titled=True)
        street, town = self.street(), self.town()
        mobile = self.phone()
        office = self.r.choice(["Městský úřad Kostelec", "Obecní úřad Horní Lhota", "Městský úřad Dolní Újezd"])
        account = self.account()
        paragraphs = [
            who.name(title=True),
            street,
            town,
            f"{office}, odbor správy majetku, Náměstí {self.r.randint(1, 40)}, {self.town()}, "
            f"ústředna 321 748 111, účet {account}",
            "Věc: Nabídka pronájmu pozemku",
            f"Nabízím pronájem pozemku parc. č. {self.r.randint(100, 3000)}/{self.r.randint(1, 40)} za "
            f"{self.r.randint(5, 40)} 000 Kč ročně.",
            "S pozdravem",
            who.name(),
            f"mobil {mobile}",
        ]
        return Contract(
            "letter",
            paragraphs,
            [(street, "ADDRESS"), (mobile, "PHONE")],
            [(office, "ORGANIZATION"), (account, "IDENTIFIER"), ("321 748 111", "PHONE")],
            [who],
        )

    def sole_trader(self) -> Contract:
        who = self.person(titled=False)
        street = f"{self.r.choice(['Lipová', 'Husova', 'Polní', 'Krátká', 'Zahradní'])} {self.r.randint(100, 2999)}/"
        street += str(self.r.randint(1, 60))
        town = self.town()
        email, ico = self.email(who), self.ico()
        office, keep = self._party_blocks()
        agency_phone = self.r.choice(["257 171 111", "541 651 111"])
        paragraphs = [
            f"Smlouva o dílo č. {self.r.randint(1, 300)}/2026",
            f"Objednatel: {office}, tel. {agency_phone}",
            f"Zhotovitel: {who.name()}, IČO: {ico}, s místem podnikání {street}, {town}",
            f"Zhotovitel provede opravu chodníku za cenu {self.r.randint(60, 900)} 000 Kč bez DPH.",
            f"Korespondenční adresa zhotovitele: {street}, {town}; e-mail {email}.",
            f"Faktura bude zaslána na adresu {street}, {town}.",
        ]
        keep = keep + [(agency_phone, "PHONE"), (ico, "IDENTIFIER")]
        return Contract("sole_trader", paragraphs, [(street, "ADDRESS"), (email, "EMAIL")], keep, [who])


def scan(pdf: bytes, rng: random.Random) -> tuple[bytes, dict[str, object]]:
    """An image-only copy of ``pdf`` as a scanner makes it, and how it was made: ``dpi`` (72,
    150, 200 or 300), ``skew`` (degrees), ``noise`` (grey-level spread) and ``mark`` (a stamp
    or a signature stroke drawn over the last page's lower text, or none)."""
    dpi = rng.choice([72, 150, 200, 300])
    skew = round(rng.uniform(-1.2, 1.2), 2)
    noise = rng.choice([0, 8, 16])
    mark = rng.choice(["stamp", "signature", "none"])
    src = pymupdf.open(stream=pdf, filetype="pdf")
    out = pymupdf.open()
    for number, page in enumerate(src):
        pix = page.get_pixmap(dpi=dpi, colorspace=pymupdf.csGRAY)
        image = Image.frombytes("L", (pix.width, pix.height), pix.samples).rotate(
            skew, resample=Image.Resampling.BILINEAR, fillcolor=255
        )
        if number == len(src) - 1 and mark != "none":
            _mark(image, mark, rng, page, dpi)
        if noise:
            pixels = np.asarray(image, dtype=np.int16)
            pixels = pixels + np.asarray(
                np.random.default_rng(rng.randint(0, 2**32)).normal(0, noise, pixels.shape), np.int16
            )
            image = Image.fromarray(np.clip(pixels, 0, 255).astype(np.uint8))
        buffer = io.BytesIO()
        image.save(buffer, format="PNG")
        new = out.new_page(width=page.rect.width, height=page.rect.height)
        new.insert_image(new.rect, stream=buffer.getvalue())
    data = out.tobytes(garbage=3, deflate=True)
    out.close()
    src.close()
    return data, {"dpi": dpi, "skew": skew, "noise": noise, "mark": mark}


def _mark(image: Image.Image, kind: str, rng: random.Random, page: pymupdf.Page, dpi: int) -> None:
    """Draw a round stamp or a signature stroke over the text of the page's lower half."""
    draw = ImageDraw.Draw(image)
    words = [w for w in page.get_text("words") if w[1] > page.rect.height * 0.2]
    if not words:
        return
    x0, y0, x1, y1, *_ = rng.choice(words)
    scale = dpi / 72
    cx, cy = (x0 + x1) / 2 * scale, (y0 + y1) / 2 * scale
    if kind == "stamp":
        r = 40 * scale
        draw.ellipse((cx - r, cy - r, cx + r, cy + r), outline=110, width=max(1, int(2 * scale)))
        draw.ellipse((cx - r * 0.7, cy - r * 0.7, cx + r * 0.7, cy + r * 0.7), outline=130, width=max(1, int(scale)))
        return
    points = []
    for i in range(40):
        t = i / 39
        points.append(
            (cx - 60 * scale + 120 * scale * t, cy + 8 * scale * math.sin(t * 9 + rng.random()) + 4 * scale * t)
        )
    draw.line(points, fill=60, width=max(1, int(1.5 * scale)))


def write_scan_set(out_dir: Path, seeds: tuple[int, ...] = (1, 2, 3, 4)) -> list[Path]:
    """Write one scan of each class (:data:`CLASSES`) per seed into ``out_dir``: ``NAME.pdf``
    and its gold ``NAME.json`` (``"producer": "scan"`` and how it was scanned)."""
    out_dir.mkdir(parents=True, exist_ok=True)
    paths = []
    for seed in seeds:
        gen = ScanClasses(seed)
        for kind in CLASSES:
            contract: Contract = getattr(gen, kind)()
            pdf = pdf_from_paragraphs(contract.paragraphs)
            with pymupdf.open(stream=pdf, filetype="pdf") as doc:
                text = normalize(" ".join(page.get_text() for page in doc))
            items = gold_items(contract, text, _person_words(contract.private) - _person_words(contract.public), set())
            scanned, how = scan(pdf, gen.r)
            name = f"scan_{kind}_{seed}"
            (out_dir / f"{name}.pdf").write_bytes(scanned)
            gold = {
                "document": f"{name}.pdf",
                "language": "cs",
                "kind": kind,
                "producer": "scan",
                "scan": how,
                "items": items,
                "hidden_layer_secrets": [],
            }
            (out_dir / f"{name}.json").write_text(json.dumps(gold, ensure_ascii=False, indent=1), encoding="utf-8")
            paths.append(out_dir / f"{name}.pdf")
    return paths


def _person_words(people: list[Person]) -> set[str]:
    """Every given name and surname form of ``people``, surnames in capitals too (a certification
    clause prints them so)."""
    out: set[str] = set()
    for p in people:
        for given, surname in p.forms().values():
            out |= {given, surname, surname.upper()}
    return out
