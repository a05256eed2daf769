"""The product's recognizers as data: which run, in which order, with which context words
(after Presidio's ``default_recognizers.yaml``).

Order matters only where a recognizer declares that it ``reads`` another's findings (the
person recognizer skips words inside organisation names, addresses and e-mail addresses found
before it); :class:`~redactor.detect.recognizers.base.RecognizerRegistry` refuses an order that
breaks such a declaration. Context words are regular-expression fragments matched in the
lower-cased text just before a candidate; recognizers whose cue is part of their pattern (date
of birth, document numbers, vehicle, data box) carry no context words here.
"""

from __future__ import annotations

from dataclasses import dataclass

from redactor import lexicon
from redactor.detect.recognizers.addresses import AddressRecognizer
from redactor.detect.recognizers.base import Recognizer, RecognizerRegistry
from redactor.detect.recognizers.clauses import (
    CertificationClauseRecognizer,
    FormBlockRecognizer,
    LetterHeadRecognizer,
)
from redactor.detect.recognizers.contextual import (
    DataBoxRecognizer,
    DateOfBirthRecognizer,
    DocumentNumberRecognizer,
    EmailRecognizer,
    NetworkRecognizer,
    VehicleRecognizer,
)
from redactor.detect.recognizers.identifiers import (
    BankAccountRecognizer,
    BirthNumberRecognizer,
    DicRecognizer,
    IbanRecognizer,
    IcoRecognizer,
    PaymentCardRecognizer,
    PhoneRecognizer,
)
from redactor.detect.recognizers.organizations import OrganizationRecognizer
from redactor.detect.recognizers.persons import PersonRecognizer

#: Every recognizer class by its ``name``.
RECOGNIZERS: dict[str, type[Recognizer]] = {
    cls.name: cls
    for cls in (
        IbanRecognizer,
        BankAccountRecognizer,
        BirthNumberRecognizer,
        DicRecognizer,
        IcoRecognizer,
        PaymentCardRecognizer,
        DocumentNumberRecognizer,
        DateOfBirthRecognizer,
        CertificationClauseRecognizer,
        FormBlockRecognizer,
        LetterHeadRecognizer,
        VehicleRecognizer,
        DataBoxRecognizer,
        NetworkRecognizer,
        EmailRecognizer,
        PhoneRecognizer,
        OrganizationRecognizer,
        AddressRecognizer,
        PersonRecognizer,
    )
}


@dataclass(frozen=True)
class RecognizerConfig:
    """One entry of a registry configuration: the recognizer's ``name`` (a key of
    :data:`RECOGNIZERS`), its context words, and ``uses_ner`` for the one that also reads the
    NLP pipeline's entities when a model runs."""

    name: str
    context: tuple[str, ...] = ()
    uses_ner: bool = False


def _cues(*families: str) -> tuple[str, ...]:
    """Context words of the lexicon's ``families`` (matched in lower-cased text)."""
    return tuple(f"(?i:{lexicon.alternatives(family)})" for family in families)


#: The default configuration, in running order.
DEFAULT_RECOGNIZERS: tuple[RecognizerConfig, ...] = (
    RecognizerConfig("iban"),
    RecognizerConfig("bank_account", context=_cues("account", "account_nouns")),
    RecognizerConfig("birth_number", context=_cues("birth_number", "birth", "insured_person")),
    RecognizerConfig("dic"),
    RecognizerConfig("ico"),
    RecognizerConfig("payment_card", context=_cues("payment_card")),
    RecognizerConfig("document_number"),
    RecognizerConfig("date_of_birth"),
    RecognizerConfig("certification_clause"),
    RecognizerConfig("form_block"),
    RecognizerConfig("letter_head"),
    RecognizerConfig("vehicle"),
    RecognizerConfig("data_box"),
    RecognizerConfig("network"),
    RecognizerConfig("email"),
    RecognizerConfig("phone", context=_cues("phone", "contact_word")),
    RecognizerConfig("organization"),
    RecognizerConfig("address"),
    RecognizerConfig("person", uses_ner=True),
)


def build_recognizer(config: RecognizerConfig, *, nlp_enabled: bool = True) -> Recognizer:
    """A new recognizer as ``config`` describes it. Raises ``KeyError`` for an unknown name."""
    cls = RECOGNIZERS[config.name]
    if config.uses_ner:
        if not issubclass(cls, PersonRecognizer):
            raise TypeError(f"the recognizer {config.name!r} does not read the NLP pipeline's entities")
        recognizer: Recognizer = cls(use_ner=nlp_enabled)
    else:
        recognizer = cls()
    recognizer.context = config.context
    return recognizer


def default_registry(
    *, nlp_enabled: bool = True, config: tuple[RecognizerConfig, ...] = DEFAULT_RECOGNIZERS
) -> RecognizerRegistry:
    """The registry of ``config`` (the product's by default); ``nlp_enabled`` False runs the
    person recognizer on rules and gazetteers alone."""
    return RecognizerRegistry([build_recognizer(c, nlp_enabled=nlp_enabled) for c in config])


def default_recognizer(name: str) -> Recognizer:
    """One recognizer as the default configuration sets it up (for tools and tests)."""
    return build_recognizer(next(c for c in DEFAULT_RECOGNIZERS if c.name == name))
