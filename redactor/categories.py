"""Category IDs recognizers emit, and the one table of what the engine's code knows of each.

IDs 1-59 are the identifiers of the reduced category-dependency map of Ondrášek (VŠE 2022,
"Detekce osobních údajů…", table of 34 identifiers); IDs from 100 are the product's own
additions for identifiers the thesis does not list. What each category *means* for a
decision (primary, secondary, dependencies) lives in the category map JSON, not here; what the
code does with a category's values (its export tag, whether it is the same value wherever it
stands, a hard identifier, a holder's own data, its pseudonym) lives in :data:`CATEGORIES`, and
every set of categories the engine tests against is derived from that table.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

GIVEN_NAME = 1
SURNAME = 2
FULL_NAME = 4
EMAIL_PERSONAL = 6
EMAIL_GENERIC = 7
LOGIN = 9
COMPANY_NAME = 10
BIRTH_NUMBER = 12
ID_CARD = 13
PASSPORT = 14
PAYMENT_CARD = 15
OTHER_CARD = 16
BANK_ACCOUNT = 17
IBAN = 19
PHONE = 21
DRIVING_LICENCE = 23
AGE = 24
SIPO = 25
VEHICLE_PLATE = 30
MAC_ADDRESS = 31
IP_ADDRESS = 32
DOMAIN = 33
VIN = 38
SERIAL_NUMBER = 40
DIC = 42
ADDRESS_RESIDENCE = 45
ADDRESS_SEAT = 46
RELIGION = 49
ACADEMIC_TITLE = 52
JOB_POSITION = 53
POLITICAL_AFFILIATION = 54
NATIONALITY = 55
DATE_OF_BIRTH = 56
LEGAL_ENTITY = 59
#: A handwritten signature or a stamp on a scan (:mod:`redactor.decide.signatures`)
SIGNATURE = 60
#: Its names when an agency's map predates the category.
SIGNATURE_NAME = {"cs": "Podpis nebo razítko", "en": "Signature or stamp"}
#: Text no recognizer claimed that may still be personal data (:mod:`redactor.decide.suspicious`):
#: in no category map, always for a reviewer to decide.
SUSPICIOUS = 0
#: Its names, as no map has them (the reviewer's words, not the engine's).
SUSPICIOUS_NAME = {"cs": "Možný osobní údaj", "en": "Possible personal data"}
ICO = 100
DATA_BOX = 101

#: What kind of value a category's values are, where the code treats a kind alike.
Kind = Literal["name", "address", "account", "other"]
#: How the pseudonymised export replaces a value (:data:`redactor.publish.pseudonyms.OPERATORS`):
#: a name of the same form, a title, a valid birth number, a valid account, a valid IBAN, a date
#: moved by the document's shift, another address, an e-mail, a phone of the same shape, or
#: random characters of the value's shape.
Pseudonym = Literal["name", "title", "birth_number", "bank_account", "iban", "date_of_birth", "address", "email",
                    "phone", "shape"]  # fmt: skip
#: The tagged export's tag of a category without one of its own (an agency's addition).
OTHER_TAG = "ÚDAJ"


@dataclass(frozen=True)
class Category:
    """One category as the engine's code treats it (the map says what it *means*).

    - ``id``, ``key``: the category map's id and key;
    - ``tag``: the tagged export's tag (:data:`OTHER_TAG` when it has none of its own);
    - ``kind``: names, addresses and bank accounts are treated alike within their kind;
    - ``pseudonym``: the pseudonymised export's operator (:data:`Pseudonym`);
    - ``same_everywhere``: the same data wherever it stands: one occurrence redacted, all are;
    - ``hard``: personal data whoever holds it: an agency's keep rule never silences it (birth
      number: Act 133/2000 Sb., § 13c; identity documents, payment cards, date of birth);
    - ``own_data``: a person's own data: next to a name it shows a private capacity;
    - ``entity_value``: an organisation holds it in its own entry (its account, IBAN, DIČ),
      whoever else the entry names (a residence address or a phone there may still be a named
      person's);
    - ``for_anyone``: personal for anyone whatever the holder (the ministry methodology: a birth
      number, a date of birth, a document number, a home address are redacted for officials too);
    - ``contact``: personal data in a private holder's hands; a public body's or a company's
      are kept by the analysis (phones, personal e-mails, accounts, IBANs);
    - ``holder_kept``: a keep decision rests on its holder (an organisation's seat, its phone),
      so a low recognizer score says the shape was uncertain, not the holder;
    - ``layout_checked``: a contact value (phone, e-mail, account, data box) whose keep is asked
      when only the page's layout says whose it is (:mod:`redactor.decide.keep_check`); names
      are checked by their person's role.
    """

    id: int
    key: str
    tag: str = OTHER_TAG
    kind: Kind = "other"
    pseudonym: Pseudonym = "shape"
    same_everywhere: bool = False
    hard: bool = False
    own_data: bool = False
    entity_value: bool = False
    for_anyone: bool = False
    contact: bool = False
    holder_kept: bool = False
    layout_checked: bool = False


#: Every category of the platform's map, by id (a test keeps it equal to the map's categories).
CATEGORIES: dict[int, Category] = {
    c.id: c
    for c in (
        Category(GIVEN_NAME, "given_name", "JMÉNO", "name", "name"),
        Category(SURNAME, "surname", "JMÉNO", "name", "name"),
        Category(FULL_NAME, "full_name", "JMÉNO", "name", "name"),
        Category(
            EMAIL_PERSONAL,
            "email_personal",
            "EMAIL",
            pseudonym="email",
            same_everywhere=True,
            contact=True,
            layout_checked=True,
        ),
        Category(EMAIL_GENERIC, "email_generic", "EMAIL", pseudonym="email", same_everywhere=True, layout_checked=True),
        Category(LOGIN, "login", "LOGIN"),
        Category(COMPANY_NAME, "company_name"),
        Category(
            BIRTH_NUMBER,
            "birth_number",
            "RČ",
            pseudonym="birth_number",
            same_everywhere=True,
            hard=True,
            own_data=True,
            for_anyone=True,
        ),
        Category(ID_CARD, "id_card", "OP", same_everywhere=True, hard=True, own_data=True, for_anyone=True),
        Category(PASSPORT, "passport", "PAS", same_everywhere=True, hard=True, own_data=True, for_anyone=True),
        Category(PAYMENT_CARD, "payment_card", "KARTA", same_everywhere=True, hard=True),
        Category(OTHER_CARD, "other_card"),
        Category(
            BANK_ACCOUNT,
            "bank_account",
            "ÚČET",
            "account",
            "bank_account",
            same_everywhere=True,
            entity_value=True,
            contact=True,
            layout_checked=True,
        ),
        Category(
            IBAN,
            "iban",
            "IBAN",
            "account",
            "iban",
            same_everywhere=True,
            entity_value=True,
            contact=True,
            layout_checked=True,
        ),
        Category(
            PHONE,
            "phone",
            "TELEFON",
            pseudonym="phone",
            same_everywhere=True,
            contact=True,
            holder_kept=True,
            layout_checked=True,
        ),
        Category(
            DRIVING_LICENCE, "driving_licence", "ŘP", same_everywhere=True, hard=True, own_data=True, for_anyone=True
        ),
        Category(AGE, "age"),
        Category(SIPO, "sipo", "SIPO", same_everywhere=True),
        Category(VEHICLE_PLATE, "vehicle_plate", "RZ", same_everywhere=True),
        Category(MAC_ADDRESS, "mac_address", "MAC"),
        Category(IP_ADDRESS, "ip_address", "IP"),
        Category(DOMAIN, "domain"),
        Category(VIN, "vin", "VIN", same_everywhere=True),
        Category(SERIAL_NUMBER, "serial_number"),
        Category(DIC, "dic", "DIČ", same_everywhere=True, entity_value=True),
        Category(
            ADDRESS_RESIDENCE, "address_residence", "ADRESA", "address", "address", for_anyone=True, holder_kept=True
        ),
        Category(ADDRESS_SEAT, "address_seat", "ADRESA", "address", "address", holder_kept=True),
        Category(RELIGION, "religion"),
        Category(ACADEMIC_TITLE, "academic_title", "TITUL", pseudonym="title"),
        Category(JOB_POSITION, "job_position"),
        Category(POLITICAL_AFFILIATION, "political_affiliation"),
        Category(NATIONALITY, "nationality"),
        Category(
            DATE_OF_BIRTH,
            "date_of_birth",
            "DATUM_NAROZENÍ",
            pseudonym="date_of_birth",
            same_everywhere=True,
            hard=True,
            own_data=True,
            for_anyone=True,
        ),
        Category(LEGAL_ENTITY, "legal_entity"),
        Category(SIGNATURE, "signature"),
        Category(ICO, "ico"),
        Category(DATA_BOX, "data_box", "DATOVÁ_SCHRÁNKA", layout_checked=True),
    )
}


def category(category_id: int) -> Category:
    """The table's entry for ``category_id``; a category it does not hold (one an agency added to
    its map) has none of the traits, the tag :data:`OTHER_TAG` and the ``shape`` pseudonym."""
    return CATEGORIES.get(category_id) or Category(category_id, "")


def _where(**traits: object) -> frozenset[int]:
    return frozenset(c.id for c in CATEGORIES.values() if all(getattr(c, k) == v for k, v in traits.items()))


NAME_CATEGORIES = _where(kind="name")
ADDRESS_CATEGORIES = _where(kind="address")
#: Accounts held at a bank: the bank named next to them is not their owner.
ACCOUNT_CATEGORIES = _where(kind="account")
#: Values that are the same data wherever they stand: one of them redacted, all are.
SAME_EVERYWHERE = _where(same_everywhere=True)
#: Categories a keep rule never silences (:attr:`Category.hard`).
HARD_IDENTIFIERS = _where(hard=True)
#: A person's own data: next to a name it shows a private capacity (:attr:`Category.own_data`).
OWN_DATA = _where(own_data=True)
#: Values an organisation holds in its own entry (:attr:`Category.entity_value`).
ENTITY_VALUES = _where(entity_value=True)
#: Personal for anyone whatever the holder (:attr:`Category.for_anyone`).
PERSONAL_FOR_ANYONE = _where(for_anyone=True)
#: Personal data in a private holder's hands (:attr:`Category.contact`).
CONTACT_CATEGORIES = _where(contact=True)
#: A keep decision rests on the holder (:attr:`Category.holder_kept`).
HOLDER_KEPT = _where(holder_kept=True)
#: A keep on the page's layout alone is asked (:attr:`Category.layout_checked`).
LAYOUT_CHECKED = _where(layout_checked=True)
