"""Credentials kept in the database encrypted (Fernet: AES-128-CBC with HMAC-SHA256, from the
``cryptography`` library). The key is ``REDACTOR_SECRETS_KEY`` (a Fernet key), else derived from
``SECRET_KEY`` with HKDF-SHA256, so a database dump alone does not give an agency's data-box
password away."""

from __future__ import annotations

import base64

from cryptography.fernet import Fernet, InvalidToken
from cryptography.hazmat.primitives import hashes
from cryptography.hazmat.primitives.kdf.hkdf import HKDF
from django.conf import settings


def _fernet() -> Fernet:
    if settings.REDACTOR_SECRETS_KEY:
        return Fernet(settings.REDACTOR_SECRETS_KEY.encode())
    key = HKDF(algorithm=hashes.SHA256(), length=32, salt=None, info=b"redactor credentials").derive(
        settings.SECRET_KEY.encode()
    )
    return Fernet(base64.urlsafe_b64encode(key))


def seal(plain: str) -> str:
    """``plain`` encrypted, as ASCII text to store; "" stays ""."""
    return _fernet().encrypt(plain.encode()).decode() if plain else ""


def unseal(token: str) -> str:
    """The text :func:`seal` encrypted. Raises ``ValueError`` when the key changed or the token
    was altered."""
    if not token:
        return ""
    try:
        return _fernet().decrypt(token.encode()).decode()
    except InvalidToken:
        raise ValueError("the stored credential cannot be decrypted with the current key") from None
