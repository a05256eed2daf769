"""Reasons for proposals: a code with parameters, rendered in the reader's language.

The engine states why it suggests what it suggests as a :class:`Reason` (``code`` +
``params``), never as a finished sentence, so that the review page, the API and the CLI can
show it in Czech or English in words a clerk understands, and an integrator can act on the code.

Templates are English ``%``-format strings marked with :func:`gettext_noop`, so Django's
``makemessages`` collects them into ``locale/*/django.po``; a caller renders with its own
translation function (Django's ``gettext`` in the web app, the API and the CLI; none in tests,
which read English). Parameters are:

- plain values (``str``, ``int``, ``float``): text from the document (a name, a cue word, a
  rule's pattern) or a number, shown as they are;
- terms ``{"term": KEY}``: a word of the product's vocabulary (a party kind, a role, an
  action), a key of :data:`TERMS`, translated like a template;
- localised names ``{"cs": …, "en": …}``: a category's name as the category map spells it
  (agencies may rename categories, so these do not go through the message catalogue);
- nested reasons ``{"code": …, "params": …}``: a party or person the finding belongs to, or the
  engine's reason that an agency rule overruled.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import TypeAlias, TypedDict, final


@final
class TermParam(TypedDict):
    """A word of the product's vocabulary: ``{"term": KEY}``, KEY a key of :data:`TERMS`."""

    term: str


@final
class LocalisedName(TypedDict):
    """A name as the category map spells it in both languages: ``{"cs": …, "en": …}``."""

    cs: str
    en: str


@final
class ReasonDict(TypedDict):
    """A reason as JSON (stored with a proposal, nested in another reason): ``{"code", "params"}``."""

    code: str
    params: Params


#: One parameter of a reason: a plain value, a term, a localised name or a nested reason.
Param: TypeAlias = "str | int | float | TermParam | LocalisedName | ReasonDict"
#: A reason's parameters by placeholder name.
Params: TypeAlias = "dict[str, Param]"


def gettext_noop(message: str) -> str:
    """Mark ``message`` for translation without translating it (the name ``makemessages``
    looks for); returns it unchanged."""
    return message


#: Code -> English template. Parameters in ``%(name)s`` form.
TEMPLATES: dict[str, str] = {
    # the category map
    "primary": gettext_noop("Redact: %(category)s – personal data on its own."),
    "form_block": gettext_noop(
        "Redact: %(category)s – a value of a natural person's form fields (name, date of birth, permanent "
        "residence), so that person's."
    ),
    "certification_clause": gettext_noop(
        "Redact: %(category)s in a signature certification clause – the signer's date of birth and home "
        "address are redacted whatever the signer's role."
    ),
    "primary_residence": gettext_noop(
        "Redact: %(category)s – an address without a seat cue that belongs to %(who)s or to nobody named, "
        "so it is treated as a home address."
    ),
    "not_subject": gettext_noop("Keep: %(category)s – not personal data."),
    "not_subject_of": gettext_noop("Keep: %(category)s of %(who)s – not personal data."),
    "role_exception": gettext_noop("%(action)s: %(name)s acts as %(role)s%(party)s (“%(cue)s”)."),
    "holder_rule": gettext_noop("%(action)s: %(category)s of %(who)s (the category map's rule for such a holder)."),
    "linked_holder": gettext_noop("Redact: %(category)s – belongs to %(who)s."),
    "linked_dependency": gettext_noop("Redact: %(category)s – linked to the %(dependency)s of %(who)s."),
    "not_personal_holder": gettext_noop("Keep: %(category)s – belongs to %(who)s, not to a private person."),
    "free_mail_kept": gettext_noop(
        "Needs review: %(category)s on a free e-mail service kept as an organisation's, though its name "
        "names none – such an address is usually a person's; confirm it, or redact it."
    ),
    "represented_only": gettext_noop(
        "Needs review: %(category)s kept because %(name)s represents %(who)s, but no function (jednatel, "
        "předseda, prokurista) stands beside the name – a statutory body is kept, an employee is not; check "
        "the commercial register, then confirm it or redact it."
    ),
    "kept_on_one_guess": gettext_noop(
        "Needs review: %(category)s kept as belonging to %(who)s – only where it stands on the page says so; "
        "confirm it, or redact it."
    ),
    "unknown_holder": gettext_noop("%(action)s: %(category)s – whose it is could not be determined."),
    "unlinked": gettext_noop("%(action)s: %(category)s – not linked to any private person."),
    "address_place": gettext_noop(
        "Keep: an address linked to no person or organisation (a building or a place), and the contract "
        "names no private person."
    ),
    "address_unlinked": gettext_noop(
        "Needs review: an address linked to no person or organisation, in a contract that names private persons."
    ),
    "agency_own": gettext_noop("Keep: %(category)s of %(agency)s – the agency's own, as its profile lists it."),
    "seat_elsewhere": gettext_noop(
        "Keep: %(category)s – the same address is kept as an organisation's seat elsewhere in the contract (%(seat)s)."
    ),
    "contact_person": gettext_noop(
        "Redact: %(category)s – %(name)s is named as a party's contact person (“%(cue)s”), an employee "
        "who is not a statutory representative."
    ),
    "attorney_person": gettext_noop(
        "Redact: %(category)s – %(name)s acts for a company on a power of attorney (“%(cue)s”), not as its "
        "statutory representative."
    ),
    "repeated_value": gettext_noop("Redact: the same value is redacted elsewhere in the contract (%(reason)s)"),
    "low_score": gettext_noop("Needs review: the recognizer is not sure of this value (%(reason)s)"),
    # suspicious spans
    "suspicious_ner": gettext_noop(
        "Needs review: possibly a person's name – the language model marks it, but no name list, title or "
        "cue confirms it."
    ),
    "suspicious_block_word": gettext_noop(
        "Needs review: a name in the entry of %(who)s that no recognizer explains – a person's name missed?"
    ),
    "suspicious_number": gettext_noop(
        "Needs review: a number after “%(cue)s” in no known format – a mistyped identifier?"
    ),
    "ocr_doubt": gettext_noop(
        "Needs review: OCR read this beside personal data with a confidence of only %(confidence)s of 100 – "
        "check it on the page."
    ),
    "earlier_redaction": gettext_noop(
        "Redact: a black box already in the file hides this text from the eye, but the text stays readable "
        "under it (an earlier redaction that failed); it is taken out of the text as well."
    ),
    "earlier_whiteout": gettext_noop(
        "Redact: a white box already in the file is drawn over this text, but the text stays readable under it "
        "and the letters may show around it (an earlier redaction that failed); it is blacked out and taken out "
        "of the text as well."
    ),
    # signatures and stamps on scans (redactor.decide.signatures)
    "signature_private": gettext_noop(
        "Redact: a handwritten signature in the block “%(label)s” of %(name)s, a private person."
    ),
    "signature_party": gettext_noop(
        "Redact: a handwritten signature in the block “%(label)s” of a party that is a %(kind)s."
    ),
    "signature_official": gettext_noop(
        "Keep: the signature in the block “%(label)s” of %(name)s, who signs as %(role)s; kept like the name."
    ),
    "signature_official_redacted": gettext_noop(
        "Redact: the signature in the block “%(label)s” of %(name)s, %(role)s – the agency redacts officials' "
        "signatures."
    ),
    "signature_role_redacted": gettext_noop(
        "Redact: the signature in the block “%(label)s” of %(name)s, %(role)s – the category map redacts the "
        "names of such signers."
    ),
    "signature_unknown": gettext_noop(
        "Needs review: handwriting or a stamp in the block “%(label)s”, whose signer could not be determined."
    ),
    "ink_in_entry": gettext_noop(
        "Redact: handwriting or a stamp across the entry of party “%(label)s”, a %(kind)s – a signature over "
        "the printed name."
    ),
    "ink_in_unknown_entry": gettext_noop(
        "Needs review: handwriting or a stamp across the entry of party “%(label)s”, whose kind could not be "
        "determined – a private person's signature over the printed name?"
    ),
    "ink_over_value": gettext_noop("Redact: a signature or stamp drawn over a redacted value (%(reason)s)"),
    # the reader's check of the published pages (redactor.publish.reader_check)
    "still_legible": gettext_noop(
        "Needs review: %(category)s still legible %(where)s of the published page, and nobody decided it – "
        "redact it, or keep it if it is not personal data."
    ),
    "still_legible_name": gettext_noop(
        "Needs review: a form of a name redacted elsewhere in the contract is still legible %(where)s of the "
        "published page – redact it, or keep it if it is somebody else's."
    ),
    # agency rules
    "agency_rule": gettext_noop("%(action)s: %(rule)s."),
    "agency_rule_overruled": gettext_noop("%(action)s: %(rule)s (the engine said: %(reason)s)"),
    "agency_rule_guard": gettext_noop(
        "Needs review: %(rule)s would keep it, but no rule keeps a birth number, an identity document, a payment "
        "card or a date of birth (the engine said: %(reason)s)"
    ),
    "rule_phrase": gettext_noop("agency rule “%(pattern)s”, %(votes)s"),
    "rule_person": gettext_noop("agency person rule “%(pattern)s”, %(votes)s"),
    "votes_one": gettext_noop("%(count)s decision"),
    "votes": gettext_noop("%(count)s decisions"),
    "votes_split": gettext_noop("%(count)s decisions: %(keep)s keep, %(redact)s redact"),
    # reviewers
    "manual": gettext_noop("Added by a reviewer."),
    "manual_occurrence": gettext_noop("Another occurrence of a text the reviewer selected."),
    # who a finding belongs to
    "who_party": gettext_noop("%(kind)s party %(index)s (%(label)s)"),
    "who_party_how": gettext_noop("%(kind)s party %(index)s (%(label)s), %(how)s"),
    "who_person": gettext_noop("person %(name)s"),
    "who_person_how": gettext_noop("person %(name)s, %(how)s"),
    "who_role": gettext_noop("%(role)s %(name)s"),
    "who_role_how": gettext_noop("%(role)s %(name)s, %(how)s"),
    "who_organisation": gettext_noop("an organisation (%(kind)s)"),
    "who_organisation_how": gettext_noop("an organisation (%(kind)s), %(how)s"),
    "who_value": gettext_noop("%(kind)s, as the value itself shows"),
    "who_service": gettext_noop("an organisation's service line (“%(cue)s”)"),
    "of_party": gettext_noop(" for %(party)s"),
}

#: Vocabulary used as parameter values (``{"term": KEY}``).
TERMS: dict[str, str] = {
    "natural_person": gettext_noop("natural person"),
    "sole_trader": gettext_noop("sole trader"),
    "legal_person": gettext_noop("legal person"),
    "public_body": gettext_noop("public body"),
    "unknown": gettext_noop("unidentified"),
    "public_official": gettext_noop("a public official"),
    "statutory_representative": gettext_noop("a statutory representative"),
    "redact": gettext_noop("Redact"),
    "keep": gettext_noop("Keep"),
    "review": gettext_noop("Needs review"),
    "possessive": gettext_noop("named as its owner"),
    "in_text_layer": gettext_noop("in the text layer"),
    "in_picture": gettext_noop("in the picture"),
    "block": gettext_noop("in whose entry it stands"),
    "sentence": gettext_noop("named in the same sentence"),
    "entry": gettext_noop("in whose entry it is listed"),
    "coreference": gettext_noop("the same person"),
    "party": gettext_noop("in the same party entry"),
}


def _identity(message: str) -> str:
    return message


@dataclass(frozen=True)
class Reason:
    """Why a proposal has its action: ``code`` (a key of :data:`TEMPLATES`) and ``params``
    (JSON-ready, see the module docstring). :meth:`render` gives the sentence."""

    code: str
    params: Params = field(default_factory=dict)

    def to_dict(self) -> ReasonDict:
        """``{"code": …, "params": …}`` (params are already JSON-ready)."""
        return {"code": self.code, "params": self.params}

    @classmethod
    def from_dict(cls, data: ReasonDict) -> Reason:
        """The inverse of :meth:`to_dict`. Raises ``KeyError`` when ``code`` is missing."""
        return cls(data["code"], dict(data.get("params") or {}))

    def render(self, translate: Callable[[str], str] = _identity, language: str = "en") -> str:
        """The reason as a sentence: templates and terms through ``translate`` (a gettext),
        localised names in ``language`` ("cs" or "en"). An unknown code renders as itself."""
        template = TEMPLATES.get(self.code)
        if template is None:
            return self.code
        values = {k: _render_value(v, translate, language) for k, v in self.params.items()}
        try:
            return translate(template) % values
        except (KeyError, TypeError, ValueError):  # a translation that lost a placeholder
            return template % values

    def __str__(self) -> str:
        return self.render()


def _render_value(value: Param, translate: Callable[[str], str], language: str) -> str:
    if isinstance(value, dict):
        if "code" in value:
            return Reason.from_dict(value).render(translate, language)
        if "term" in value:
            term = TERMS.get(value["term"])
            return translate(term) if term else str(value["term"])
        if "en" in value or "cs" in value:
            own = value.get("cs") if language == "cs" else value.get("en")
            return str(own or value.get("en") or value.get("cs") or "")
    if isinstance(value, float):
        return f"{value:.2f}"
    return str(value)


def term(key: str) -> TermParam:
    """A vocabulary parameter (``{"term": key}``)."""
    return {"term": key}


def localised(cs: str, en: str, *, inside: bool = False) -> LocalisedName:
    """A name the category map gives in both languages; ``inside`` a sentence its first letter
    is lowered unless the name is an acronym ("Given name" -> "given name", "IBAN" stays)."""
    if inside:
        cs, en = _lower_first(cs), _lower_first(en)
    return {"cs": cs, "en": en}


def _lower_first(name: str) -> str:
    return name[:1].lower() + name[1:] if len(name) > 1 and name[1].islower() else name
