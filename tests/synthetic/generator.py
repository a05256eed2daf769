"""Synthetic Czech contracts with gold files, for measuring how the engine generalises.

Every person, number and address is invented (Faker ``cs_CZ`` names and streets; identifiers
with valid checksums from python-stdnum). Six kinds mirror the development set (vehicle sale,
works contract, lease to a sole trader, grant to an association, farmland lease, settlement)
and two more (gift, loan) are kinds the engine never saw. Phrasing varies: titles, name
order, grammatical cases, date and phone formats. The gold format is the shared one
(``../shared/data/README.md``): single name words in every form, identifiers as printed.
"""

from __future__ import annotations

import json
import random
import unicodedata
from dataclasses import dataclass, field
from pathlib import Path

import pymupdf
from faker.providers.address.cs_CZ import Provider as Address
from faker.providers.person.cs_CZ import Provider as Names
from stdnum import iban as std_iban
from stdnum.cz import bankaccount, dic, rc

from redactor.czech import NameGazetteer
from redactor.text import count_word, normalize
from tests.pdfs import Layout, pdf_from_paragraphs
from tests.synthetic.declension import feminine, fleeting_stem, masculine

BANKS = ["0100", "0300", "0600", "0800", "2010", "2700", "3030", "5500", "6100"]
TITLES = ["", "", "", "Ing. ", "Mgr. ", "Bc. ", "MUDr. ", "PhDr. ", "JUDr. ", "RNDr. ", "Ing. arch. ", "Mgr. et Mgr. "]
TOWNS = [
    "Město Holešov",
    "Město Kolín",
    "Obec Dolní Lhota",
    "Město Nové Strašecí",
    "Město Třebíč",
    "Obec Záhoří",
    "Město Frýdlant nad Ostravicí",
    "Statutární město Jihlava",
]
COMPANIES = [
    "Stavby Morava s.r.o.",
    "TERMO servis a.s.",
    "Silnice Haná s.r.o.",
    "Zahradnictví Novotný s.r.o.",
    "AQUA projekt, spol. s r.o.",
    "Stavební firma Dvořák a syn s.r.o.",
]
ASSOCIATIONS = [
    "Sbor dobrovolných hasičů Lhota",
    "Spolek přátel hudby Tábor, z.s.",
    "TJ Sokol Horní Ves, z.s.",
    "Klub českých turistů Beskydy, z.s.",
]


#: Phrasings of each field as real registry contracts write them; every kind draws from these.
CUES = {
    "dob": ["nar.", "narozen/a", "datum narození:", "dat. nar.", "nar. dne", "narozen(a) dne"],
    "rc": ["r.č.", "RČ:", "rodné číslo:", "r. č.", "rodné číslo", "RČ"],
    "home": ["bytem", "trvale bytem", "bydliště:", "trvalý pobyt:", "adresa trvalého pobytu:", "bytem:"],
    "phone": ["tel.", "tel.:", "telefon:", "mobil:", "mob.", "tel. č.", "kontaktní telefon:"],
    "email": ["e-mail:", "email:", "e-mail", "E-mail:", "el. pošta:"],
    "account": ["č. ú.", "číslo účtu:", "bankovní spojení:", "účet č.", "č. účtu"],
    "sipo": ["SIPO", "spojovací číslo SIPO", "číslo SIPO:", "SIPO č.", "spoj. č. SIPO", "spojovací číslo", "spoj. č."],
    "card": ["č. OP:", "číslo OP", "občanský průkaz č.", "OP č.", "číslo občanského průkazu:"],
    # a party's contact person (issue 31): an employee of the supplier, redacted
    "contact": [
        "Kontaktní osoba:",
        "kontaktní osoba zhotovitele:",
        "Vyřizuje:",
        "Ve věcech technických jedná:",
        "ve věcech smluvních:",
        "Osoba oprávněná jednat ve věcech technických:",
        "Odpovědná osoba:",
        "Technický zástupce:",
        "Pověřený pracovník:",
    ],
}
#: Public bodies that publish contracts for their members and units (issue 31: officials in
#: every role), each with its seat; the office's head acts for it.
PUBLIC_OFFICES = [
    ("Česká republika – Kancelář Poslanecké sněmovny", "Sněmovní 176/4", "118 26 Praha 1", "vedoucím Kanceláře"),
    ("Česká republika – Kancelář Senátu", "Valdštejnské náměstí 17/4", "118 01 Praha 1", "vedoucím Kanceláře Senátu"),
    ("Krajský úřad Jihomoravského kraje", "Žerotínovo náměstí 449/3", "601 82 Brno", "ředitelem krajského úřadu"),
    ("Městský úřad Kolín", "Karlovo náměstí 78", "280 12 Kolín", "tajemníkem úřadu"),
]
#: Switchboards and receptions of public offices (the offices' own published numbers).
OFFICE_PHONES = ["257 171 111", "257 071 111", "541 651 111", "321 748 111"]
#: Banks that rent receivables are assigned to, with their seats and IČO (public register data).
BANKS_ASSIGNED = [
    ("UniCredit Bank Czech Republic and Slovakia, a.s.", "Želetavská 1525/1, 140 92 Praha 4", "64948242"),
    ("Komerční banka, a.s.", "Na Příkopě 33/969, 114 07 Praha 1", "45317054"),
    ("Česká spořitelna, a.s.", "Olbrachtova 1929/62, 140 00 Praha 4", "45244782"),
]
#: (function before a name in the given case, after a name, feminine forms): officials named in
#: any syntactic role keep their names (ministry methodology: officials acting in office).
FUNCTIONS = [
    ("poslanec", "poslance", "poslanci", "poslankyně", "poslankyně", "poslankyni"),
    ("senátor", "senátora", "senátorovi", "senátorka", "senátorky", "senátorce"),
    (
        "člen zastupitelstva",
        "člena zastupitelstva",
        "členovi zastupitelstva",
        "členka zastupitelstva",
        "členky zastupitelstva",
        "člence zastupitelstva",
    ),
    ("radní", "radního", "radnímu", "radní", "radní", "radní"),
    ("starosta", "starosty", "starostovi", "starostka", "starostky", "starostce"),
    (
        "ředitel odboru investic",
        "ředitele odboru investic",
        "řediteli odboru investic",
        "ředitelka odboru investic",
        "ředitelky odboru investic",
        "ředitelce odboru investic",
    ),
    (
        "vedoucí oddělení správy majetku",
        "vedoucího oddělení správy majetku",
        "vedoucímu oddělení správy majetku",
        "vedoucí oddělení správy majetku",
        "vedoucí oddělení správy majetku",
        "vedoucí oddělení správy majetku",
    ),
    (
        "předseda poslaneckého klubu",
        "předsedy poslaneckého klubu",
        "předsedovi poslaneckého klubu",
        "předsedkyně poslaneckého klubu",
        "předsedkyně poslaneckého klubu",
        "předsedkyni poslaneckého klubu",
    ),
]
#: (given name, surname, female): Slovak, Ukrainian and Vietnamese names of the kind that sign
#: registry contracts as private landlords and sole traders; none is in the Czech gazetteers.
FOREIGN_NAMES = [
    ("Ján", "Kováč", False),
    ("Jozef", "Hrušovský", False),
    ("Zuzana", "Baková", True),
    ("Oleksandr", "Kovalenko", False),
    ("Nataliia", "Shevchenko", True),
    ("Bohdan", "Melnyk", False),
    ("Thanh", "Nguyen", False),
    ("Lan", "Tran", True),
    ("Duc", "Pham", False),
]
#: Share of the generated people whose surname is in no list the product's gazetteer loads
#: (Hlídač státu's top surnames, Faker's cs_CZ): real contracts are full of them.
UNLISTED_SURNAME_SHARE = 1 / 3
#: Share of the generated people whose given name is in no such list.
UNLISTED_GIVEN_SHARE = 0.15
#: Surnames (masculine forms) in none of those lists, checked by a test: ordinary Czech surnames
#: that are also common words (a dish, an animal, a tool, a landform), rare family names, and
#: foreign surnames common among Czech residents. Feminine forms are derived (:func:`feminine_surname`).
UNLISTED_SURNAMES = {
    "common_word": """Rohlík Koláč Strom Lípa Dub Brouk Kapr Štika Okoun Pstruh Kaňka Škvor Pšenička Jablko
        Hrouda Kobliha Vidlička Hrnec Kotel Louka Potok Oblak Kolébka Medvěd Jezevec Krtek Mlynář Zedník Husa
        Kachna Ovečka Bečka Sud Kopec Makovec Kmín Pepř Orel Jestřáb Kavka Konipas Datel Vydra Bobr Tchoř Kuna
        Hranol Válec""".split(),
    "rare": """Hronek Kosek Lustig Ruml Kyncl Kolbaba Drbohlav Pěchouček Vopálecký Čtvrtníček Klusáček Hemerka
        Bohušík Lustyk Habrman Žďárský Vondrouš Krupka Pitr Rampas Kutnar Hrudka Broukal Hrabák Podzimek Kratina
        Chalupníček Pazourek Kubias Brablec Netušil Wenzl Šrajer Jirouš Klepáček Cvrček Bican Ulrych Soumar
        Pinkava Hanzal Vrtiška Kořán Šorm""".split(),
    "foreign": "Nowak Lehmann Schulz Meyer Kovalenko Bondarenko Tkachenko Petrenko Ivanov Smirnov".split(),
}
#: Invented Czech-sounding surnames are made of these (those the gazetteer knows are skipped).
_INVENTED_STEMS = """Hrab Kub Pech Vrb Zlat Mrk Bast Chod Kval Lib Pal Rež Sem Tuč Vaš Žel Brod Hlad Kras Pleš Rouš
    Sklen Trn Vald Zvon""".split()
_INVENTED_ENDINGS = "ánek íček ota ík ál ouš ař ina ula ourek ecký ný ovský áček ata oun".split()
#: Given names in no list the gazetteer loads (old Czech, Slavic, Ukrainian), by ``female``.
UNLISTED_GIVEN = {
    False: """Radhost Kvido Budislav Velen Hostivít Vladivoj Soběslav Bohuš Kazimír Ratibor Bonifác Cyprián
        Erazim Vendelín Metoděj""".split(),
    True: "Kazimíra Ctislava Mečislava Kunhuta Oksana Halyna Ljuba Dobrava Doubravka Xenie Ofélie".split(),
}


def feminine_surname(masculine_form: str) -> str:
    """The feminine form of a masculine surname as Czech forms it: Vopálecký → Vopálecká,
    Kolbaba → Kolbabová, Hronek → Hronková (the fleeting e), Ruml → Rumlová."""
    if masculine_form.endswith("ý"):
        return masculine_form[:-1] + "á"
    if masculine_form.endswith("í"):
        return masculine_form
    if masculine_form.endswith(("a", "o")):
        return masculine_form[:-1] + "ová"
    return (fleeting_stem(masculine_form) or masculine_form) + "ová"


def unlisted_surname(r: random.Random, female: bool) -> str:
    """A surname in no list the product's gazetteer loads: a common word, a rare or a foreign
    surname (:data:`UNLISTED_SURNAMES`), or an invented Czech-sounding one."""
    gazetteer = NameGazetteer.default()
    kind = r.choice([*UNLISTED_SURNAMES, "invented"])
    while True:
        if kind == "invented":
            name = r.choice(_INVENTED_STEMS) + r.choice(_INVENTED_ENDINGS)
        else:
            name = r.choice(UNLISTED_SURNAMES[kind])
        form = feminine_surname(name) if female else name
        if not (gazetteer.surname_of(form) or gazetteer.given_name_of(form)):
            return form


LAYOUTS = [
    Layout(),
    Layout("serif", 10, 40, "a4"),
    Layout("sans-serif", 9, 30, "a5"),
    Layout("monospace", 10, 70, "a4"),
    Layout("serif", 12.5, 90, "letter"),
    Layout("sans-serif", 13, 110, "a4"),
]


@dataclass
class Person:
    """A private or official person with the forms a contract prints."""

    given: str
    surname: str
    female: bool
    title: str = ""

    def forms(self) -> dict[str, tuple[str, str]]:
        """Case -> (given, surname)."""
        decline = feminine if self.female else masculine
        g, s = decline(self.given), decline(self.surname)
        return {"nom": (self.given, self.surname), "gen": (g[0], s[0]), "dat": (g[1], s[1]), "ins": (g[2], s[2])}

    def name(self, case: str = "nom", title: bool = False) -> str:
        given, surname = self.forms()[case]
        return f"{self.title if title else ''}{given} {surname}"

    def surname_in(self, case: str) -> str:
        return self.forms()[case][1]


@dataclass
class Contract:
    """Paragraphs plus what must be redacted and kept."""

    kind: str
    paragraphs: list[str]
    redact: list[tuple[str, str]] = field(default_factory=list)  # (text, category)
    keep: list[tuple[str, str]] = field(default_factory=list)
    private: list[Person] = field(default_factory=list)
    public: list[Person] = field(default_factory=list)  # officials, representatives: not scored
    #: officials named in office in any role (issue 31): their name words are scored as keep
    officials: list[Person] = field(default_factory=list)


def _feminine_function(function: str, female: bool) -> str:
    """The instrumental of a function for a woman ("vedoucím" -> "vedoucí", "ředitelem" -> "ředitelkou")."""
    if not female:
        return function
    for male, female in (("vedoucím", "vedoucí"), ("ředitelem", "ředitelkou"), ("tajemníkem", "tajemnicí")):
        function = function.replace(male, female)
    return function


class Generator:
    """Random contracts from a seed (the same seed gives the same documents)."""

    def __init__(self, seed: int):
        self.r = random.Random(seed)

    # -- values ---------------------------------------------------------------------------
    def cue(self, field: str) -> str:
        """One of the phrasings of ``field`` (a key of :data:`CUES`)."""
        return self.r.choice(CUES[field])

    def person(self, female: bool | None = None, titled: bool = True) -> Person:
        """A person with a Czech name; :data:`UNLISTED_SURNAME_SHARE` of the surnames and
        :data:`UNLISTED_GIVEN_SHARE` of the given names come from outside every list the
        product's gazetteer loads (:func:`unlisted_surname`, :data:`UNLISTED_GIVEN`), as real
        people's names often do."""
        female = self.r.random() < 0.5 if female is None else female
        given = self.r.choice(Names.first_names_female if female else Names.first_names_male)
        surname = self.r.choice(Names.last_names_female if female else Names.last_names_male)
        if self.r.random() < UNLISTED_SURNAME_SHARE:
            surname = unlisted_surname(self.r, female)
        if self.r.random() < UNLISTED_GIVEN_SHARE:
            given = self.r.choice(UNLISTED_GIVEN[female])
        return Person(given, surname, female, self.r.choice(TITLES) if titled else "")

    def birth(self, female: bool) -> tuple[str, str]:
        """(date of birth as printed, birth number with slash)."""
        while True:
            year, month, day = self.r.randint(1954, 2003), self.r.randint(1, 12), self.r.randint(1, 28)
            serial = self.r.randint(0, 999)
            base = f"{year % 100:02d}{month + (50 if female else 0):02d}{day:02d}{serial:03d}"
            number = base + str((11 - int(base) % 11) % 11 % 10)
            if rc.is_valid(number):
                date = self.r.choice([f"{day}. {month}. {year}", f"{day:02d}.{month:02d}.{year}"])
                return date, f"{number[:6]}/{number[6:]}"

    def account(self) -> str:
        while True:
            prefix = str(self.r.randint(10, 999999)) if self.r.random() < 0.3 else ""
            number = str(self.r.randint(10**8, 10**10 - 1))
            value = f"{prefix + '-' if prefix else ''}{number}/{self.r.choice(BANKS)}"
            if bankaccount.is_valid(value):
                return value

    def iban(self) -> str:
        while True:
            account = self.account()
            if "-" not in account:
                break
        number, bank = account.split("/")
        bban = f"{bank}000000{int(number):010d}"
        check = std_iban.calc_check_digits(f"CZ00{bban}")
        raw = f"CZ{check}{bban}"
        return " ".join(raw[i : i + 4] for i in range(0, len(raw), 4))

    def ico(self) -> str:
        while True:
            base = f"{self.r.randint(0, 9999999):07d}"
            value = base + dic.calc_check_digit_legal(base)
            if not value.startswith("9"):
                return value

    def phone(self) -> str:
        prefix = self.r.choice(
            [
                "601",
                "602",
                "603",
                "604",
                "605",
                "606",
                "607",
                "608",
                "702",
                "720",
                "721",
                "723",
                "724",
                "728",
                "731",
                "732",
                "736",
                "737",
                "739",
                "774",
                "775",
                "776",
                "777",
            ]
        )
        digits = prefix + f"{self.r.randint(0, 999999):06d}"
        style = self.r.randrange(4)
        if style == 0:
            return f"+420 {digits[:3]} {digits[3:6]} {digits[6:]}"
        if style == 1:
            return f"+420{digits}"
        if style == 2:
            return f"{digits[:3]} {digits[3:6]} {digits[6:]}"
        return digits

    def street(self, house: bool = True) -> str:
        name = self.r.choice(Address.streets)
        if self.r.random() < 0.5:
            return f"{name} {self.r.randint(1, 2999)}/{self.r.randint(1, 60)}"
        return f"{name} {self.r.randint(1, 999)}"

    def town(self) -> str:
        return f"{self.r.randint(100, 799)} {self.r.randint(0, 99):02d} {self.r.choice(Address.cities)}"

    def email(self, p: Person) -> str:
        def ascii_(s: str) -> str:
            return "".join(c for c in unicodedata.normalize("NFD", s) if not unicodedata.combining(c)).lower()

        local = self.r.choice(
            [
                f"{ascii_(p.given)}.{ascii_(p.surname)}",
                f"{ascii_(p.given)[0]}.{ascii_(p.surname)}",
                f"{ascii_(p.surname)}.{ascii_(p.given)}",
            ]
        )
        return f"{local}@{self.r.choice(['seznam.cz', 'email.cz', 'centrum.cz', 'volny.cz', 'post.cz', 'atlas.cz'])}"

    def plate(self) -> str:
        letters = "ABCEHJKLMPSTUZ"
        return (
            f"{self.r.randint(1, 9)}{self.r.choice(letters)}{self.r.choice(letters + '0123456789')} "
            f"{self.r.randint(1000, 9999)}"
        )

    def vin(self) -> str:
        alphabet = "ABCDEFGHJKLMNPRSTUVWXYZ0123456789"
        return "TMB" + "".join(self.r.choice(alphabet) for _ in range(14))

    def price(self) -> str:
        value = self.r.randint(20, 900) * 1000
        return f"{value:,} Kč".replace(",", " ")

    # -- kinds ----------------------------------------------------------------------------
    def _official(self) -> tuple[Person, str]:
        mayor = self.person(titled=True)
        return mayor, "starostka" if mayor.female else "starosta"

    def vehicle_sale(self) -> Contract:
        seller, town = self.person(), self.r.choice(TOWNS)
        mayor, function = self._official()
        dob, number = self.birth(seller.female)
        street, place, card, phone = self.street(), self.town(), str(self.r.randint(100000000, 999999999)), self.phone()
        seat, ico, vin, plate, account, price = (
            self.street(),
            self.ico(),
            self.vin(),
            self.plate(),
            self.account(),
            self.price(),
        )
        c = Contract(
            "vehicle_sale",
            [
                "Kupní smlouva na motorové vozidlo",
                "Prodávající:",
                f"Jméno a příjmení: {seller.name(title=True)}",
                f"{self.cue('dob').capitalize()} {dob}",
                f"{self.cue('rc').capitalize()} {number.replace('/', '') if self.r.random() < 0.5 else number}",
                f"{self.r.choice(['Adresa:', 'Bytem', 'Trvalý pobyt:', 'Bydliště:'])} {street}, {place}",
                f"{self.cue('card').capitalize()} {card}",
                f"{self.cue('phone').capitalize()} {phone}",
                "Kupující:",
                f"{town}, {seat}, {self.town()}, IČ: {ico}, zastoupené {mayor.name('ins', title=True)}, {function}",
                f"1. Prodávající prodává kupujícímu osobní automobil Škoda Octavia, VIN {vin}, rok výroby 2016, "
                f"registrační značka {plate}.",
                f"2. Kupní cena vozidla činí {price}. Kupující zaplatí kupní cenu na bankovní účet prodávajícího "
                f"číslo {account} do 10 dnů od předání vozidla.",
                f"3. Prodávající {seller.name()} prohlašuje, že vozidlo nemá právní vady.",
                f"4. Převod vozidla zajistí kupující; {seller.name()} k tomu udělí kupujícímu plnou moc.",
                "Prodávající:",
                seller.name(title=True),
                "Kupující:",
                f"{mayor.name()}, {function}",
            ],
        )
        number_printed = number.replace("/", "") if number.replace("/", "") in c.paragraphs[4] else number
        c.redact += [
            (dob, "IDENTIFIER"),
            (number_printed, "IDENTIFIER"),
            (street, "IDENTIFIER"),
            (card, "IDENTIFIER"),
            (phone, "IDENTIFIER"),
            (plate, "IDENTIFIER"),
            (account, "IDENTIFIER"),
        ]
        c.keep += [(town, "ORGANIZATION"), (ico, "ORGANIZATION"), (seat, "ORGANIZATION"), (price, "PUBLIC")]
        c.private.append(seller)
        c.public.append(mayor)
        return c

    def works(self) -> Contract:
        town, company = self.r.choice(TOWNS), self.r.choice(COMPANIES)
        mayor, function = self._official()
        director = self.person()
        manager, supervisor = self.person(), self.person()
        seat1, seat2, ico1, ico2 = self.street(), self.street(), self.ico(), self.ico()
        account, price = self.account(), self.price()
        phone1, phone2, email = self.phone(), self.phone(), self.email(manager)
        c = Contract(
            "works",
            [
                "SMLOUVA O DÍLO",
                "Článek 1 – Smluvní strany",
                f"1.1 Objednatel: {town}",
                f"sídlo: {seat1}, {self.town()}",
                f"IČO: {ico1}",
                f"zastoupený: {mayor.name(title=True)}, {function}",
                f"1.2 Zhotovitel: {company}",
                f"sídlo: {seat2}, {self.town()}",
                f"IČO: {ico2}, DIČ: CZ{ico2}",
                f"zastoupený: {director.name(title=True)}, jednatelem společnosti",
                f"bankovní spojení: {account}",
                f"1.3 Stavbyvedoucím zhotovitele je {manager.name(title=True)}, {self.cue('phone')} {phone1}, "
                f"{self.cue('email')} {email}. "
                f"Technický dozor objednatele vykonává {supervisor.name(title=True)}, {self.cue('phone')} {phone2}",
                "Článek 2 – Cena",
                f"Cena díla činí {price} bez DPH. "
                f"Změny ceny musí odsouhlasit {supervisor.name()} jako technický dozor.",
                f"Zápis o předání podepíše za zhotovitele {manager.name()}; stavební deník povede "
                f"{manager.surname} průběžně. Pokyny {supervisor.name('gen')} jsou závazné.",
                "za objednatele",
                mayor.name(title=True),
                "za zhotovitele",
                director.name(title=True),
            ],
        )
        c.redact += [(phone1, "IDENTIFIER"), (phone2, "IDENTIFIER"), (email, "IDENTIFIER")]
        c.keep += [
            (town, "ORGANIZATION"),
            (company, "ORGANIZATION"),
            (ico1, "ORGANIZATION"),
            (ico2, "ORGANIZATION"),
            (seat1, "ORGANIZATION"),
            (seat2, "ORGANIZATION"),
            (price, "PUBLIC"),
        ]
        c.private += [manager, supervisor]
        c.public += [mayor, director]
        return c

    def lease(self) -> Contract:
        town, tenant = self.r.choice(TOWNS), self.person(titled=False)
        mayor, function = self._official()
        seat, ico1, ico2, place, dob = (
            self.street(),
            self.ico(),
            self.ico(),
            self.street(),
            self.birth(tenant.female)[0],
        )
        email, phone, account, price = self.email(tenant), self.phone(), self.account(), self.price()
        c = Contract(
            "lease",
            [
                "Smlouva o nájmu prostoru sloužícího podnikání",
                f"Pronajímatel: {town}, se sídlem {seat}, {self.town()}, IČO {ico1}, zastoupeno {function}ou "
                f"{mayor.name('ins', title=True)}",
                f"Nájemce: {tenant.name()}, fyzická osoba podnikající, IČO {ico2}, místo podnikání {place}, "
                f"{self.town()}, {self.cue('dob')} {dob}, {self.cue('email')} {email}, {self.cue('phone')} {phone}",
                f"Čl. 1 Nájemné činí {price} měsíčně. Kauci složil{'a' if tenant.female else ''} {tenant.name()} "
                f"z účtu {account}.",
                f"Čl. 2 Pronajímatel souhlasí, aby {tenant.surname} umístil{'a' if tenant.female else ''} "
                "reklamní štít. "
                f"Smlouvu s {tenant.name('ins')} schválila rada.",
                f"Za pronajímatele: {mayor.name(title=True)}     Nájemce: {tenant.name()}",
            ],
        )
        c.redact += [
            (place, "IDENTIFIER"),
            (dob, "IDENTIFIER"),
            (email, "IDENTIFIER"),
            (phone, "IDENTIFIER"),
            (account, "IDENTIFIER"),
        ]
        c.keep += [(town, "ORGANIZATION"), (seat, "ORGANIZATION"), (ico1, "ORGANIZATION"), (price, "PUBLIC")]
        c.private.append(tenant)
        c.public.append(mayor)
        return c

    def grant(self) -> Contract:
        town, assoc = self.r.choice(TOWNS), self.r.choice(ASSOCIATIONS)
        chair, accountant = self.person(), self.person()
        official = self.person()
        seat1, seat2, ico1, ico2 = self.street(), self.street(), self.ico(), self.ico()
        home, phone, email = self.street(), self.phone(), self.email(accountant)
        acc1, acc2, price = self.account(), self.account(), self.price()
        c = Contract(
            "grant",
            [
                "SMLOUVA O POSKYTNUTÍ DOTACE",
                f"Poskytovatel: {town}, IČO {ico1}, {seat1}, {self.town()}",
                f"Příjemce: {assoc}, IČO {ico2}, sídlo {seat2}, {self.town()}, bankovní účet {acc1}, "
                f"zastoupený předsedou spolku {chair.name('ins', title=True)}",
                f"I. Poskytovatel poskytuje příjemci dotaci ve výši {price} na činnost mládeže.",
                f"II. Vyúčtování zpracuje hospodář spolku {accountant.name()}, {self.cue('home')} {home}, "
                f"{self.town()}, {self.cue('phone')} {phone}, {self.cue('email')} {email}. "
                f"Podklady předá {accountant.name('dat')} předseda.",
                f"III. Při porušení podmínek je příjemce povinen dotaci vrátit na účet poskytovatele {acc2}.",
                f"V Holešově dne 21. 3. 2024 — za poskytovatele {official.name(title=True)}, starosta, "
                f"za příjemce {chair.name(title=True)}",
            ],
        )
        c.redact += [(home, "IDENTIFIER"), (phone, "IDENTIFIER"), (email, "IDENTIFIER")]
        c.keep += [
            (town, "ORGANIZATION"),
            (ico1, "ORGANIZATION"),
            (ico2, "ORGANIZATION"),
            (seat1, "ORGANIZATION"),
            (seat2, "ORGANIZATION"),
            (price, "PUBLIC"),
        ]
        c.private.append(accountant)
        c.public += [chair, official]
        return c

    def farmland(self) -> Contract:
        a, b, town = self.person(female=False), self.person(female=True), self.r.choice(TOWNS)
        rc_a, rc_b = self.birth(False)[1], self.birth(True)[1]
        home_a, home_b, seat, ico = self.street(), self.street(), self.street(), self.ico()
        account, iban, email, phone, price = self.account(), self.iban(), self.email(a), self.phone(), self.price()
        c = Contract(
            "farmland",
            [
                "Pachtovní smlouva",
                "Propachtovatelé:",
                f"1) {a.name(title=True)}, {self.cue('rc')} {rc_a}, {self.cue('home')} {home_a}, {self.town()}, "
                f"{self.cue('account')} {account}",
                f"2) {b.name(title=True)}, {self.cue('rc')} {rc_b}, {self.cue('home')} {home_b}, {self.town()}, "
                f"IBAN {iban}",
                f"Pachtýř: {town}, IČO: {ico}, se sídlem {seat}, {self.town()}",
                "Propachtovatelé jsou podílovými spoluvlastníky pozemků parc. č. 781 a 615.",
                f"Pachtovné činí {price} ročně a bude vyplaceno rovným dílem {a.name('dat')} a {b.name('dat')}.",
                f"Pachtýř bude pozemky užívat jako veřejnou zeleň. "
                f"{b.surname} a {a.surname} souhlasí s výsadbou stromů.",
                f"Kontakt na propachtovatele: {email}, {phone}",
            ],
        )
        c.redact += [
            (rc_a, "IDENTIFIER"),
            (rc_b, "IDENTIFIER"),
            (home_a, "IDENTIFIER"),
            (home_b, "IDENTIFIER"),
            (account, "IDENTIFIER"),
            (iban, "IDENTIFIER"),
            (email, "IDENTIFIER"),
            (phone, "IDENTIFIER"),
        ]
        c.keep += [(town, "ORGANIZATION"), (ico, "ORGANIZATION"), (seat, "ORGANIZATION"), (price, "PUBLIC")]
        c.private += [a, b]
        return c

    def settlement(self) -> Contract:
        victim, lawyer, town = self.person(), self.person(), self.r.choice(TOWNS)
        dob = self.birth(victim.female)[0]
        home, seat, ico, account, price = self.street(), self.street(), self.ico(), self.account(), self.price()
        born = "narozená" if victim.female else "narozený"
        c = Contract(
            "settlement",
            [
                "Dohoda o narovnání",
                f"{town}, IČO {ico}, se sídlem {seat}, {self.town()} (dále „město“)",
                "a",
                f"{victim.name(title=True)}, {born} {dob}, trvale bytem {home}, {self.town()}, zastoupen"
                f"{'á' if victim.female else 'ý'} advokátem {lawyer.name('ins', title=True)} (dále „poškozený“)",
                f"1. Dne 26. 1. 2024 došlo k pádu poškozeného. {victim.name()} utrpěl{'a' if victim.female else ''} "
                "zlomeninu zápěstí.",
                f"2. Město uhradí {victim.name('dat')} částku {price} na účet č. {account}.",
                f"3. Uhrazením částky jsou veškeré nároky {victim.surname_in('gen')} vůči městu vypořádány.",
                f"4. Korespondenci zasílat na adresu advokátní kanceláře {lawyer.name('gen', title=True)}.",
            ],
        )
        c.redact += [(dob, "IDENTIFIER"), (home, "IDENTIFIER"), (account, "IDENTIFIER")]
        c.keep += [(town, "ORGANIZATION"), (ico, "ORGANIZATION"), (seat, "ORGANIZATION"), (price, "PUBLIC")]
        c.private.append(victim)
        c.public.append(lawyer)
        return c

    def gift(self) -> Contract:
        """A kind the development set does not have: a gift from a private person to a town."""
        donor, town = self.person(), self.r.choice(TOWNS)
        mayor, function = self._official()
        dob, number = self.birth(donor.female)
        home, ico, seat, phone = self.street(), self.ico(), self.street(), self.phone()
        c = Contract(
            "gift",
            [
                "Darovací smlouva",
                f"Dárce: {donor.name(title=True)}, {self.cue('dob')} {dob}, {self.cue('rc')} {number}, "
                f"{self.cue('home')} {home}, {self.town()}, {self.cue('phone')} {phone}",
                f"Obdarovaný: {town}, IČO: {ico}, se sídlem {seat}, {self.town()}, zastoupený {function}ou "
                f"{mayor.name('ins', title=True)}",
                f"I. Dárce daruje obdarovanému pozemek parc. č. 1234 v katastrálním území Lhota. "
                f"Obdarovaný dar od {donor.name('gen')} přijímá.",
                f"II. Daň z nabytí nehradí ani {donor.surname}, ani obdarovaný.",
                f"Dárce: {donor.name()}",
                f"Obdarovaný: {mayor.name(title=True)}, {function}",
            ],
        )
        c.redact += [(dob, "IDENTIFIER"), (number, "IDENTIFIER"), (home, "IDENTIFIER"), (phone, "IDENTIFIER")]
        c.keep += [(town, "ORGANIZATION"), (ico, "ORGANIZATION"), (seat, "ORGANIZATION")]
        c.private.append(donor)
        c.public.append(mayor)
        return c

    def loan(self) -> Contract:
        """Another unseen kind: a loan from a town to a private person, surname first."""
        borrower, town = self.person(titled=False), self.r.choice(TOWNS)
        mayor, function = self._official()
        number = self.birth(borrower.female)[1]
        home, ico, seat, account, price = self.street(), self.ico(), self.street(), self.account(), self.price()
        c = Contract(
            "loan",
            [
                "Smlouva o zápůjčce",
                f"Zapůjčitel: {town}, IČO {ico}, se sídlem {seat}, {self.town()}, zastoupené {mayor.name('ins')}, "
                f"{function}",
                f"Vydlužitel: {borrower.surname} {borrower.given}, r. č. {number}, trvalý pobyt {home}, {self.town()}",
                f"1. Zapůjčitel půjčuje vydlužiteli částku {price}, která bude zaslána na účet {account} "
                f"vydlužitele {borrower.name('gen')}.",
                f"2. {borrower.name()} se zavazuje zápůjčku vrátit do 31. 12. 2026.",
            ],
        )
        c.redact += [(number, "IDENTIFIER"), (home, "IDENTIFIER"), (account, "IDENTIFIER")]
        c.keep += [(town, "ORGANIZATION"), (ico, "ORGANIZATION"), (seat, "ORGANIZATION"), (price, "PUBLIC")]
        c.private.append(borrower)
        c.public.append(mayor)
        return c

    def services(self) -> Contract:
        """Another unseen kind, laid out as many real contracts are: each party a "Label: value"
        form, a sole trader (sometimes with a Slovak, Ukrainian or Vietnamese name, which no Czech
        gazetteer holds), a SIPO number, a date of birth in the body, numbered clauses."""
        town = self.r.choice(TOWNS)
        mayor, function = self._official()
        trader = self.foreign_person() if self.r.random() < 0.4 else self.person(titled=False)
        worker = self.person(titled=False)
        dob, number = self.birth(trader.female)
        worker_dob = self.birth(worker.female)[0]
        seat, ico1, ico2, home = self.street(), self.ico(), self.ico(), self.street()
        account, phone, email, sipo, price = (
            self.account(),
            self.phone(),
            self.email(trader),
            f"{self.r.randint(10**9, 10**10 - 1)}",
            self.price(),
        )
        c = Contract(
            "services",
            [
                "Smlouva o poskytování služeb",
                f"1. Objednatel: {town}",
                f"Sídlo: {seat}, {self.town()}",
                f"IČO: {ico1}",
                f"Zastoupený: {mayor.name(title=True)}, {function}",
                f"2. Poskytovatel: {trader.name()}",
                f"Místo podnikání: {home}, {self.town()}",
                f"IČO: {ico2}",
                f"DIČ: CZ{number.replace('/', '')}",
                f"{self.cue('account').capitalize()} {account}",
                f"{self.cue('phone').capitalize()} {phone}",
                f"{self.cue('email').capitalize()} {email}",
                f"1. Poskytovatel zajistí úklid budovy radnice za {price} měsíčně. Služby bude osobně vykonávat "
                f"{worker.name()}, {self.cue('dob')} {worker_dob}, kterého poskytovatel zaměstnává.",
                f"2. Poskytovatel, {self.cue('dob')} {dob}, prohlašuje, že je plátcem SIPO, "
                f"{self.cue('sipo')} {sipo}. Kontaktní telefon poskytovatele je {phone}",
                "3. Smlouva se uzavírá na dobu neurčitou.",
                f"Za objednatele: {mayor.name(title=True)}, {function}",
                f"Poskytovatel: {trader.name()}",
            ],
        )
        c.redact += [
            (home, "IDENTIFIER"),
            (f"CZ{number.replace('/', '')}", "IDENTIFIER"),
            (account, "IDENTIFIER"),
            (phone, "IDENTIFIER"),
            (email, "IDENTIFIER"),
            (dob, "IDENTIFIER"),
            (worker_dob, "IDENTIFIER"),
            (sipo, "IDENTIFIER"),
        ]
        c.keep += [(town, "ORGANIZATION"), (ico1, "ORGANIZATION"), (seat, "ORGANIZATION"), (price, "PUBLIC")]
        c.private += [trader, worker]
        c.public.append(mayor)
        return c

    def foreign_person(self) -> Person:
        """A person with a name common among Czech sole traders and landlords but absent from
        Czech name lists (Slovak, Ukrainian, Vietnamese); declined like a Czech name."""
        given, surname, female = self.r.choice(FOREIGN_NAMES)
        return Person(given, surname, female)

    def function(self, p: Person) -> tuple[str, str, str]:
        """A public function for ``p`` as (nominative, genitive, dative), in ``p``'s gender."""
        forms = self.r.choice(FUNCTIONS)
        return forms[3:] if p.female else forms[:3]

    def office_lease(self) -> Contract:
        """Issue 31, classes 1, 2 and 4: a public office leases rooms from a private landlord for
        a member or a unit; officials are named as beneficiary, in a recital, as addressee, in a
        label and after the name, none of them signing; the office's seat is repeated in a block
        that names its head; the rent goes to the landlord's account with SIPO's everyday name.
        Held-out real leases added: the tenant's label numbered without its colon, the director
        "oprávněn k jednání" with titles, the rent assigned to a bank with the landlord's account
        repeated, the office's reception phone in the safety clause, the place and date of signing."""
        office, seat, town, head_function = self.r.choice(PUBLIC_OFFICES)
        landlord, head = self.person(), self.person(titled=True)
        member, chair, councillor, addressee = (self.person() for _ in range(4))
        dob, _number = self.birth(landlord.female)
        home, place = self.street(), self.town()
        account, phone, price = self.account(), self.phone(), self.price()
        sipo = f"{self.r.randint(10**9, 10**10 - 1)}"
        ico = self.ico()
        f_member, f_chair, f_councillor, f_addressee = (
            self.function(p) for p in (member, chair, councillor, addressee)
        )
        signatory = self.person(titled=True)
        bank, bank_seat, bank_ico = self.r.choice(BANKS_ASSIGNED)
        switchboard = self.r.choice(OFFICE_PHONES)
        # the tenant's label as templates and OCR give it: with its colon, or numbered without one
        tenant_label = self.r.choice(["Nájemce: ", "2. Nájemce "])
        roles = [
            f"1. Pronajímatel přenechává nájemci do užívání kancelář č. 12 pro potřeby {f_member[1]} "
            f"{member.name('gen', title=True)}. Klíče od kanceláře převezme {member.name()}.",
            f"2. Vzhledem k tomu, že {f_councillor[0]} {councillor.name()} předložil{'a' if councillor.female else ''} "
            f"záměr a {f_chair[0]} {chair.name()} jej projednal{'a' if chair.female else ''}, uzavírají strany "
            "tuto smlouvu.",
            f"3. Kancelář {f_addressee[1]} {addressee.name('gen')} se nachází ve 2. podlaží.",
        ]
        self.r.shuffle(roles)
        c = Contract(
            "office_lease",
            [
                "Smlouva o nájmu prostoru sloužícího podnikání",
                f"Pronajímatel: {landlord.name(title=True)}, {self.cue('dob')} {dob}, {self.cue('home')} {home}, "
                f"{place}, {self.cue('phone')} {phone}",
                f"{tenant_label}{office}, IČO: {ico}, se sídlem {seat}, {town}, zastoupená "
                f"{head.name('ins', title=True)}, {_feminine_function(head_function, head.female)}, "
                f"oprávněn{'a' if signatory.female else ''} k jednání {signatory.name(title=True)}, "
                f"{'ředitelka' if signatory.female else 'ředitel'} odboru hospodářské správy",
                f"Adresa pro doručování nájemce: {head.name(title=True)}, {seat}, {town}",
                *roles,
                f"4. Nájemné činí {price} měsíčně a nájemce je poukáže na účet pronajímatele č. {account}. "
                f"Zálohy na služby hradí pronajímatel přes SIPO, {self.cue('sipo')} {sipo}.",
                f"5. Pohledávky nájemného jsou postoupeny ve prospěch banky {bank}, se sídlem {bank_seat}, "
                f"IČO {bank_ico}. Veškeré úhrady nájemného musí být směrovány na účet č. {account}, vedený u {bank}",
                "6. Každý zpozorovaný požár v budově je nutné ohlásit a volat ohlašovnu požáru (recepce) "
                f"na tel. {switchboard}.",
                f"Na vědomí: {f_addressee[0]} {addressee.name(title=True)}",
                f"V Praze {self.r.randint(1, 28)}. {self.r.randint(1, 12)}. {self.r.randint(2017, 2026)}",
                f"Za nájemce: {head.name(title=True)}",
                f"Pronajímatel: {landlord.name(title=True)}",
            ],
        )
        c.redact += [
            (dob, "IDENTIFIER"),
            (home, "IDENTIFIER"),
            (phone, "IDENTIFIER"),
            (account, "IDENTIFIER"),
            (sipo, "IDENTIFIER"),
        ]
        c.keep += [
            (office, "ORGANIZATION"),
            (ico, "ORGANIZATION"),
            (seat, "ORGANIZATION"),
            (price, "PUBLIC"),
            (switchboard, "ORG_CONTACT"),
            (bank_ico, "ORGANIZATION"),
        ]
        c.private.append(landlord)
        c.public.append(head)
        c.officials += [member, chair, councillor, addressee, signatory]
        return c

    def supply(self) -> Contract:
        """Issue 31, classes 2 and 3: a supplier's entry names its statutory representative and
        its account in one sentence, its contact persons after every contact cue (and in the
        clause on communication) are redacted; the town's head of a unit is its contact and
        the town's seat is repeated as the invoicing address under that official's name."""
        town, company = self.r.choice(TOWNS), self.r.choice(COMPANIES)
        head, director = self.person(titled=True), self.person(titled=True)
        contact, technician, clerk = self.person(), self.person(), self.person()
        seat1, seat2, place1, place2 = self.street(), self.street(), self.town(), self.town()
        ico1, ico2, account, price = self.ico(), self.ico(), self.account(), self.price()
        phone1, phone2 = self.phone(), self.phone()
        domain = "".join(ch for ch in unicodedata.normalize("NFD", company.split()[0].lower()) if ch.isalpha())
        email = f"{self.email(contact).split('@')[0]}@{domain}.cz"
        c = Contract(
            "supply",
            [
                "Kupní smlouva na dodávku kancelářského nábytku",
                "1. Smluvní strany",
                f"1.1 Kupující: {town}, se sídlem {seat1}, {place1}, IČO: {ico1}, zastoupené "
                f"{'starostkou' if head.female else 'starostou'} {head.name('ins', title=True)}",
                f"Fakturační adresa: {head.name(title=True)}, {seat1}, {place1}",
                f"1.2 Prodávající: {company}, se sídlem {seat2}, {place2}, IČO: {ico2}, zastoupená "
                f"{director.name('ins', title=True)}, jednatelem, bankovní spojení: {account}",
                f"{self.cue('contact')} {contact.name(title=True)}, {self.cue('phone')} {phone1}, "
                f"{self.cue('email')} {email}",
                f"{self.cue('contact')} {technician.name()}",
                f"2. Kupní cena činí {price} bez DPH a bude uhrazena na účet prodávajícího.",
                f"3. Komunikaci za prodávajícího vyřizuje {clerk.name()}, tel. {phone2}.",
                "Za kupujícího:",
                head.name(title=True),
                "Za prodávajícího:",
                f"{director.name(title=True)}, jednatel",
            ],
        )
        c.redact += [(phone1, "IDENTIFIER"), (email, "IDENTIFIER"), (phone2, "IDENTIFIER")]
        c.keep += [
            (town, "ORGANIZATION"),
            (company, "ORGANIZATION"),
            (ico1, "ORGANIZATION"),
            (ico2, "ORGANIZATION"),
            (seat1, "ORGANIZATION"),
            (seat2, "ORGANIZATION"),
            (account, "ORGANIZATION"),
            (price, "PUBLIC"),
        ]
        c.private += [contact, technician, clerk]
        c.public += [director]
        c.officials.append(head)
        return c

    KINDS = (
        "vehicle_sale",
        "works",
        "lease",
        "grant",
        "farmland",
        "settlement",
        "gift",
        "loan",
        "services",
        "office_lease",
        "supply",
    )

    def contract(self, kind: str) -> Contract:
        """One contract of ``kind`` (one of ``KINDS``)."""
        return getattr(self, kind)()


def _words(people: list[Person]) -> set[str]:
    """Every given name and surname form of ``people``."""
    out = set()
    for p in people:
        for given, surname in p.forms().values():
            out |= {given, surname}
    return out


def _name_words(c: Contract) -> set[str]:
    """Name words of private persons, minus any a kept person shares (a namesake mayor)."""
    return _words(c.private) - _words(c.public) - _words(c.officials)


def _official_words(c: Contract) -> set[str]:
    """Name words of officials named in office (kept), minus any a private person shares."""
    return _words(c.officials) - _words(c.private)


def gold_items(contract: Contract, text: str, names: set[str], officials: set[str]) -> list[dict[str, object]]:
    """The gold items of ``contract`` found in its printed ``text`` (``occurrences`` counted as
    the shared format counts them): the ``names`` words and its ``redact`` values to redact, the
    ``officials`` words and its ``keep`` values to keep (unless also redacted)."""
    items: list[dict[str, object]] = []
    # a name word inside a kept value is not the person's ("Svobody" in the seat "Nábřeží Ludvíka
    # Svobody 871" of a town whose contractor is a private Svoboda)
    names_text = text
    for value, _category in contract.keep:
        names_text = names_text.replace(normalize(value), " ")
    for word in sorted(names):
        n = count_word(names_text, word)
        if n:
            items.append({"text": word, "category": "PERSON_NAME", "expected": "redact", "occurrences": n})
    for value, category in contract.redact:
        n = count_word(text, value)
        if n:
            items.append({"text": value, "category": category, "expected": "redact", "occurrences": n})
    redact_words = {str(i["text"]) for i in items}
    for word in sorted(officials):
        n = count_word(text, word)
        if n and word not in redact_words:
            items.append({"text": word, "category": "OFFICIAL", "expected": "keep", "occurrences": n})
    for value, category in contract.keep:
        n = count_word(text, value)
        if n and value not in redact_words:
            items.append({"text": value, "category": category, "expected": "keep", "occurrences": n})
    return items


def write_set(out_dir: Path, seed: int, count: int, kinds: tuple[str, ...] = Generator.KINDS) -> list[Path]:
    """Write ``count`` contracts (NAME.pdf + NAME.json gold) cycling through ``kinds``."""
    out_dir.mkdir(parents=True, exist_ok=True)
    gen = Generator(seed)
    paths = []
    for i in range(count):
        kind = kinds[i % len(kinds)]
        contract = gen.contract(kind)
        layout = gen.r.choice(LAYOUTS)
        pdf = pdf_from_paragraphs(contract.paragraphs, layout=layout)
        with pymupdf.open(stream=pdf, filetype="pdf") as doc:
            text = normalize(" ".join(page.get_text() for page in doc))
        items = gold_items(contract, text, _name_words(contract), _official_words(contract))
        name = f"{kind}_{seed}_{i}"
        (out_dir / f"{name}.pdf").write_bytes(pdf)
        gold = {
            "document": f"{name}.pdf",
            "language": "cs",
            "kind": kind,
            "producer": "pymupdf-story",
            "layout": {"font": layout.font, "size": layout.size, "margin": layout.margin, "paper": layout.paper},
            "items": items,
            "hidden_layer_secrets": [],
        }
        (out_dir / f"{name}.json").write_text(json.dumps(gold, ensure_ascii=False, indent=1), encoding="utf-8")
        paths.append(out_dir / f"{name}.pdf")
    return paths
