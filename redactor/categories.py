"""Category IDs recognizers emit.

IDs 1-59 are the identifiers of the reduced category-dependency map of Ondrášek (VŠE 2022,
"Detekce osobních údajů…", table of 34 identifiers); IDs from 100 are the product's own
additions for identifiers the thesis does not list. What each category *means* for a
decision (primary, secondary, dependencies) lives in the category map JSON, not here.
"""

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
BANK_ACCOUNT = 17
IBAN = 19
PHONE = 21
DRIVING_LICENCE = 23
SIPO = 25
VEHICLE_PLATE = 30
MAC_ADDRESS = 31
IP_ADDRESS = 32
VIN = 38
DIC = 42
ADDRESS_RESIDENCE = 45
ADDRESS_SEAT = 46
ACADEMIC_TITLE = 52
JOB_POSITION = 53
DATE_OF_BIRTH = 56
LEGAL_ENTITY = 59
#: A handwritten signature or a stamp on a scan (:mod:`redactor.decide.signatures`)
SIGNATURE = 60
ICO = 100
DATA_BOX = 101

NAME_CATEGORIES = frozenset({GIVEN_NAME, SURNAME, FULL_NAME})
ADDRESS_CATEGORIES = frozenset({ADDRESS_RESIDENCE, ADDRESS_SEAT})
#: Accounts held at a bank: the bank named next to them is not their owner.
ACCOUNT_CATEGORIES = frozenset({BANK_ACCOUNT, IBAN})
