"""The file storage the environment chooses (``STORAGES["default"]``; issue 33).

``REDACTOR_STORAGE=local`` (the default): local disk under ``MEDIA_ROOT``. ``REDACTOR_STORAGE=s3``:
an S3-compatible bucket (managed S3, Ceph RGW, SeaweedFS, MinIO...) through django-storages and
boto3, so that web processes and workers on several machines share nothing but PostgreSQL, Redis
and the bucket. The bucket is named by django-storages' own variables, read from the environment:
``AWS_STORAGE_BUCKET_NAME`` (required), ``AWS_S3_ENDPOINT_URL`` (any server but AWS),
``AWS_S3_REGION_NAME``, ``AWS_ACCESS_KEY_ID`` and ``AWS_SECRET_ACCESS_KEY`` (else boto3's own
chain: an instance role, ``~/.aws``), ``AWS_S3_ADDRESSING_STYLE`` (``path`` unless set),
``AWS_LOCATION`` (a prefix inside the bucket) and ``AWS_QUERYSTRING_EXPIRE`` (seconds a signed URL
lives, 300). ``REDACTOR_S3_ENCRYPTION`` asks the server to encrypt every object: ``AES256`` (SSE-S3,
the default), ``aws:kms`` (with ``AWS_S3_SSE_KMS_KEY_ID``) or ``none`` for a server that offers no
encryption.
"""

from __future__ import annotations

from django.core.exceptions import ImproperlyConfigured

from .env import env, env_int

ENCRYPTIONS = ("AES256", "aws:kms", "none")


def default_storage_from_env() -> dict:
    """``STORAGES["default"]`` for the environment: ``{"BACKEND": dotted path, "OPTIONS": {...}}``.
    Raises ``ImproperlyConfigured`` for an unknown ``REDACTOR_STORAGE`` or encryption, or an S3
    storage without a bucket name."""
    kind = env("REDACTOR_STORAGE", "local")
    if kind == "local":
        return {"BACKEND": "django.core.files.storage.FileSystemStorage"}
    if kind != "s3":
        raise ImproperlyConfigured(f"REDACTOR_STORAGE must be local or s3, not {kind!r}")
    bucket = env("AWS_STORAGE_BUCKET_NAME")
    if not bucket:
        raise ImproperlyConfigured("REDACTOR_STORAGE=s3 needs AWS_STORAGE_BUCKET_NAME (and AWS_S3_ENDPOINT_URL)")
    encryption = env("REDACTOR_S3_ENCRYPTION", "AES256")
    if encryption not in ENCRYPTIONS:
        raise ImproperlyConfigured(f"REDACTOR_S3_ENCRYPTION must be one of {', '.join(ENCRYPTIONS)}")
    object_parameters: dict[str, str] = {}
    if encryption != "none":
        object_parameters["ServerSideEncryption"] = encryption
        if encryption == "aws:kms" and env("AWS_S3_SSE_KMS_KEY_ID"):
            object_parameters["SSEKMSKeyId"] = env("AWS_S3_SSE_KMS_KEY_ID") or ""
    return {
        "BACKEND": "storages.backends.s3.S3Storage",
        "OPTIONS": {
            "bucket_name": bucket,
            "location": env("AWS_LOCATION", ""),
            "endpoint_url": env("AWS_S3_ENDPOINT_URL"),
            "region_name": env("AWS_S3_REGION_NAME"),
            "access_key": env("AWS_ACCESS_KEY_ID"),
            "secret_key": env("AWS_SECRET_ACCESS_KEY"),
            "addressing_style": env("AWS_S3_ADDRESSING_STYLE", "path"),
            # private objects: no ACL header, so only the bucket's owner reads them; downloads go
            # through the app's access checks, and a URL, if one is ever signed, lives 5 minutes
            "default_acl": None,
            "querystring_auth": True,
            "querystring_expire": env_int("AWS_QUERYSTRING_EXPIRE", 300),
            # an original is never overwritten: a taken name gets another one
            "file_overwrite": False,
            "object_parameters": object_parameters,
        },
    }
