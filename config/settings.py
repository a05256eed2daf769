"""Django settings, one module, driven by the environment.

Embedded defaults (no variable set) run the service locally: SQLite in ``var/``, media in
``var/media``, Redis on 127.0.0.1:6379, DEBUG off, HTTPS required (bin/start, which serves plain
HTTP on loopback, sets ``SECURE_HTTPS=0``). Production sets ``SECRET_KEY``, ``ALLOWED_HOSTS``,
``DATABASE_URL``, ``REDIS_URL`` and ``MEDIA_ROOT`` (or ``REDACTOR_STORAGE=s3`` with a bucket).
"""

from __future__ import annotations

from pathlib import Path

import dj_database_url
from django.core.exceptions import ImproperlyConfigured

from .env import env, env_bool, env_int, env_list, usable_cores
from .storage import default_storage_from_env

BASE_DIR = Path(__file__).resolve().parent.parent
VAR_DIR = Path(env("VAR_DIR", str(BASE_DIR / "var")))

# Off unless DEBUG is set: a deployment that forgets the variable must not run with debug pages,
# a public key or webhooks into its own network.
DEBUG = env_bool("DEBUG", False)
# SECRET_KEY from the environment, else from SECRET_KEY_FILE (bin/setup writes var/secret_key once
# for the quick start and the command line); only DEBUG may fall back to a fixed development key.
SECRET_KEY_FILE = Path(env("SECRET_KEY_FILE", str(VAR_DIR / "secret_key")))
SECRET_KEY = env("SECRET_KEY") or (
    SECRET_KEY_FILE.read_text(encoding="utf-8").strip() if SECRET_KEY_FILE.is_file() else ""
)
if not SECRET_KEY:
    if not DEBUG:
        raise ImproperlyConfigured(f"SECRET_KEY must be set (or written to {SECRET_KEY_FILE}) when DEBUG is off")
    SECRET_KEY = "insecure-development-key-change-me"
ALLOWED_HOSTS = env_list("ALLOWED_HOSTS", ["localhost", "127.0.0.1", "[::1]"])
CSRF_TRUSTED_ORIGINS = env_list("CSRF_TRUSTED_ORIGINS", [])
# a refused form post is the product's own page in the interface's language (templates/403_csrf.html)
CSRF_FAILURE_VIEW = "accounts.views.csrf_failure"

INSTALLED_APPS = [
    "django.contrib.admin",
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "django.contrib.staticfiles",
    "rest_framework",
    "drf_spectacular",
    "drf_spectacular_sidecar",
    "django_rq",
    "axes",
    "csp",
    "accounts",
    "contracts",
    "policy",
    "registry",
]

MIDDLEWARE = [
    "django.middleware.security.SecurityMiddleware",
    "whitenoise.middleware.WhiteNoiseMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    "django.middleware.locale.LocaleMiddleware",
    # a declared size over the view's limit is refused before CSRF or a form reads the body
    "config.middleware.RequestSizeMiddleware",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    # answers to a signed-in person or a token: never kept by a cache
    "config.middleware.PrivateResponseMiddleware",
    "django.contrib.messages.middleware.MessageMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
    "csp.middleware.CSPMiddleware",
    # last, as django-axes asks: locks out a username + address after repeated failed logins
    "axes.middleware.AxesMiddleware",
]

AUTHENTICATION_BACKENDS = [
    "axes.backends.AxesStandaloneBackend",
    "accounts.throttle.LoginThrottleBackend",
    "django.contrib.auth.backends.ModelBackend",
]
# Login throttling (django-axes): 5 failures lock a username from one address for 15 minutes.
AXES_FAILURE_LIMIT = env_int("AXES_FAILURE_LIMIT", 5)
AXES_COOLOFF_TIME = env_int("AXES_COOLOFF_MINUTES", 15) / 60
AXES_LOCKOUT_PARAMETERS = [["username", "ip_address"]]
AXES_RESET_ON_SUCCESS = True
AXES_LOCKOUT_TEMPLATE = "registration/locked_out.html"
# Beyond that (accounts.throttle): failed logins from one address across usernames (password
# spraying) and for one username across addresses (a botnet), counted in the shared cache; at the
# limit, logins from that address or for that username are refused until the window ends.
REDACTOR_LOGIN_FAILURES_PER_ADDRESS = env_int("REDACTOR_LOGIN_FAILURES_PER_ADDRESS", 20)
REDACTOR_LOGIN_FAILURES_PER_USERNAME = env_int("REDACTOR_LOGIN_FAILURES_PER_USERNAME", 10)
REDACTOR_LOGIN_WINDOW_MINUTES = env_int("REDACTOR_LOGIN_WINDOW_MINUTES", 15)
# Reverse proxies in front of the web processes (0: clients connect directly). The client address
# for the lockout and the password-reset limit is then read from X-Forwarded-For
# (accounts.access.client_ip); behind a proxy, leaving this at 0 makes every client one address.
TRUSTED_PROXY_COUNT = env_int("TRUSTED_PROXY_COUNT", 0)
AXES_CLIENT_IP_CALLABLE = "accounts.access.client_ip"
RATELIMIT_IP_META_KEY = "accounts.access.client_ip"
# Password-reset e-mails (django-ratelimit, counted in the shared cache): per client address and
# per e-mail address entered, "<n>/<s|m|h|d>".
REDACTOR_PASSWORD_RESET_RATE_IP = env("REDACTOR_PASSWORD_RESET_RATE_IP", "10/h")
REDACTOR_PASSWORD_RESET_RATE_EMAIL = env("REDACTOR_PASSWORD_RESET_RATE_EMAIL", "3/h")
# Days an agency admin's invitation link stays valid.
REDACTOR_INVITATION_DAYS = env_int("REDACTOR_INVITATION_DAYS", 7)
# The service's address as people reach it ("https://redakce.example.cz"): the links and the
# signature of its e-mails; empty: the address the request came in on.
REDACTOR_PUBLIC_URL = env("REDACTOR_PUBLIC_URL", "").rstrip("/")
LOGIN_URL = "login"
LOGIN_REDIRECT_URL = "home"
LOGOUT_REDIRECT_URL = "login"
EMAIL_BACKEND = env("EMAIL_BACKEND", "django.core.mail.backends.console.EmailBackend")
DEFAULT_FROM_EMAIL = env("DEFAULT_FROM_EMAIL", "redactor@localhost")
EMAIL_HOST = env("EMAIL_HOST", "localhost")
EMAIL_PORT = env_int("EMAIL_PORT", 25)

ROOT_URLCONF = "config.urls"
WSGI_APPLICATION = "config.wsgi.application"

TEMPLATES = [
    {
        "BACKEND": "django.template.backends.django.DjangoTemplates",
        "DIRS": [BASE_DIR / "templates"],
        "APP_DIRS": True,
        "OPTIONS": {
            "context_processors": [
                "django.template.context_processors.request",
                "django.contrib.auth.context_processors.auth",
                "django.contrib.messages.context_processors.messages",
                "django.template.context_processors.i18n",
            ],
        },
    },
]

DATABASES = {
    "default": dj_database_url.parse(
        env("DATABASE_URL", f"sqlite:///{VAR_DIR / 'db.sqlite3'}"), conn_max_age=env_int("DB_CONN_MAX_AGE", 60)
    )
}
if DATABASES["default"]["ENGINE"] == "django.db.backends.sqlite3":
    # The quick start's SQLite under concurrent uploads and jobs: write-ahead logging lets readers
    # run beside the one writer, transactions take the write lock when they begin (IMMEDIATE), so
    # two writers queue instead of failing half-way with "database is locked", and a writer waits
    # up to 30 s for the lock (Django 5.1+ options).
    DATABASES["default"]["OPTIONS"] = {
        "init_command": "PRAGMA journal_mode=WAL; PRAGMA synchronous=NORMAL; PRAGMA busy_timeout=30000;",
        "transaction_mode": "IMMEDIATE",
        "timeout": 30,
    }
DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"

REDIS_URL = env("REDIS_URL", "redis://127.0.0.1:6379/0")
RQ_QUEUES = {
    "default": {"URL": REDIS_URL, "DEFAULT_TIMEOUT": env_int("RQ_DEFAULT_TIMEOUT", 900)},
    # scanned contracts (OCR takes seconds per page): their own queue, so that a long scan does not
    # hold up other agencies' born-digital contracts; bin/start runs one worker per queue
    "ocr": {"URL": REDIS_URL, "DEFAULT_TIMEOUT": env_int("RQ_DEFAULT_TIMEOUT", 900)},
    # an admin's heavy jobs (map previews, bulk text exports): every worker takes them last
    "low": {"URL": REDIS_URL, "DEFAULT_TIMEOUT": env_int("RQ_DEFAULT_TIMEOUT", 900)},
}
# the services enqueue in transaction.on_commit themselves; django-rq must not defer a second time.
# The worker loads the engine once, before its first job, and forks every job from it (contracts.worker).
RQ = {"COMMIT_MODE": "auto", "WORKER_CLASS": "contracts.worker.EngineWorker"}

# Shared by every web process: the API's per-token request counts live here.
CACHES = {"default": {"BACKEND": "django.core.cache.backends.redis.RedisCache", "LOCATION": REDIS_URL}}

# REST API (/api/v1/): token authentication only, one error format, per-token throttling.
REST_FRAMEWORK = {
    "DEFAULT_AUTHENTICATION_CLASSES": ["accounts.authentication.ApiTokenAuthentication"],
    "DEFAULT_PERMISSION_CLASSES": ["rest_framework.permissions.IsAuthenticated"],
    "DEFAULT_THROTTLE_CLASSES": ["contracts.api.throttling.TokenRateThrottle"],
    "DEFAULT_RENDERER_CLASSES": ["rest_framework.renderers.JSONRenderer"],
    "DEFAULT_PARSER_CLASSES": ["contracts.api.parsers.JSONParser", "rest_framework.parsers.MultiPartParser"],
    "DEFAULT_SCHEMA_CLASS": "drf_spectacular.openapi.AutoSchema",
    "EXCEPTION_HANDLER": "contracts.api.errors.exception_handler",
    "UNAUTHENTICATED_USER": None,
}
# Requests per token, "<n>/<second|minute|hour|day>"; read on every request (tests change it).
REDACTOR_API_RATE = env("REDACTOR_API_RATE", "300/minute")
# Seconds a client is asked to wait (Retry-After) before asking again about a contract whose
# processing or publishing is under way; webhooks tell the same without asking.
REDACTOR_API_POLL_SECONDS = env_int("REDACTOR_API_POLL_SECONDS", 2)
SPECTACULAR_SETTINGS = {
    "TITLE": "Redactor API",
    "VERSION": "1.0.0",
    "DESCRIPTION": (BASE_DIR / "contracts" / "api" / "description.md").read_text(encoding="utf-8"),
    "SERVE_INCLUDE_SCHEMA": False,
    "SERVE_PERMISSIONS": ["rest_framework.permissions.AllowAny"],
    "SERVE_AUTHENTICATION": [],
    "COMPONENT_SPLIT_REQUEST": True,
    "SCHEMA_PATH_PREFIX": r"/api/v1",
    # Swagger UI's files come from the drf-spectacular-sidecar package: nothing from a CDN
    "SWAGGER_UI_DIST": "SIDECAR",
    "SWAGGER_UI_FAVICON_HREF": "SIDECAR",
    "REDOC_DIST": "SIDECAR",
    "ENUM_NAME_OVERRIDES": {"ContractStatus": "contracts.models.Status"},
}
# Webhooks: attempts after the first, seconds apart; the whole schedule spans about 8 hours.
REDACTOR_WEBHOOK_RETRY_DELAYS = [
    int(x) for x in env_list("REDACTOR_WEBHOOK_RETRY_DELAYS", ["30", "120", "600", "3600", "21600"])
]
REDACTOR_WEBHOOK_TIMEOUT = env_int("REDACTOR_WEBHOOK_TIMEOUT", 10)
# Allow webhook URLs on loopback and private networks (an on-premises DMS); off unless set.
REDACTOR_WEBHOOK_ALLOW_PRIVATE = env_bool("REDACTOR_WEBHOOK_ALLOW_PRIVATE", False)
# Ports a webhook URL may use ("any" lifts the limit, e.g. for a receiver on a high port).
REDACTOR_WEBHOOK_PORTS = (
    None
    if env("REDACTOR_WEBHOOK_PORTS", "") == "any"
    else [int(p) for p in env_list("REDACTOR_WEBHOOK_PORTS", ["80", "443"])]
)

LANGUAGE_CODE = "cs"
LANGUAGES = [("cs", "Čeština"), ("en", "English")]
LOCALE_PATHS = [BASE_DIR / "locale"]
TIME_ZONE = "Europe/Prague"
USE_I18N = True
USE_TZ = True
USE_THOUSAND_SEPARATOR = True

STATIC_URL = "static/"
STATIC_ROOT = Path(env("STATIC_ROOT", str(VAR_DIR / "staticfiles")))
STATICFILES_DIRS = [BASE_DIR / "static"]
STORAGES = {
    # the product's files (originals, published PDFs and texts, bulk exports): local disk under
    # MEDIA_ROOT (the quick start's default) or, with REDACTOR_STORAGE=s3, a bucket (config.storage)
    "default": default_storage_from_env(),
    # hashed, compressed names in production; plain names under DEBUG (and in tests, whose live
    # server serves static files from the app folders, not from collectstatic's output)
    "staticfiles": {
        "BACKEND": "django.contrib.staticfiles.storage.StaticFilesStorage"
        if DEBUG
        else "whitenoise.storage.CompressedManifestStaticFilesStorage"
    },
}
WHITENOISE_USE_FINDERS = DEBUG
# Uploaded originals and redacted files are private: MEDIA_ROOT is never served by a URL.
MEDIA_ROOT = Path(env("MEDIA_ROOT", str(VAR_DIR / "media")))
# ... and readable by the service's own user only, on a machine others share (issue 30).
FILE_UPLOAD_PERMISSIONS = 0o600
FILE_UPLOAD_DIRECTORY_PERMISSIONS = 0o700

# Redaction engine
REDACTOR_MAX_UPLOAD_BYTES = env_int("REDACTOR_MAX_UPLOAD_BYTES", 50 * 1024 * 1024)
# The largest monthly open-data dump of the registry an admin may upload or the import fetches (a
# month of the whole registry is 58-100 MB); it is streamed to a temporary file, never held in memory.
REDACTOR_MAX_DUMP_BYTES = env_int("REDACTOR_MAX_DUMP_BYTES", 400 * 1024 * 1024)
# Any other request's body (a login, a review decision, a webhook form): Django's own limit for
# form data in memory; over it the request is refused on its Content-Length (config.middleware).
REDACTOR_MAX_REQUEST_BYTES = env_int("REDACTOR_MAX_REQUEST_BYTES", 2_621_440)
REDACTOR_MAX_PAGES = env_int("REDACTOR_MAX_PAGES", 2000)
# The upload check reads each file in a process of its own (contracts.isolated): the time it may take
# (seconds, wall and processor) and the memory it may use beyond what it starts with (bytes).
REDACTOR_CHECK_SECONDS = env_int("REDACTOR_CHECK_SECONDS", 8)
REDACTOR_CHECK_MEMORY_BYTES = env_int("REDACTOR_CHECK_MEMORY_BYTES", 512 * 1024**2)
# Longest page side (points; 3456 pt = 122 cm, above A0) checked at upload, and the most pixels one
# page image may have (the review page's 1.5× zoom is lowered to fit): a bigger page would cost
# the web worker gigabytes per request.
REDACTOR_MAX_PAGE_POINTS = env_int("REDACTOR_MAX_PAGE_POINTS", 3456)
REDACTOR_MAX_RENDER_PIXELS = env_int("REDACTOR_MAX_RENDER_PIXELS", 20_000_000)
# Memory a background job may use beyond what its worker held when it forked the job (bytes; 0: no cap).
REDACTOR_JOB_MEMORY_BYTES = env_int("REDACTOR_JOB_MEMORY_BYTES", 2 * 1024**3)
# Contracts larger than this (bytes) are processed on the slow queue with the scans, so that one
# large document cannot hold up the ordinary contracts of every agency.
REDACTOR_SLOW_QUEUE_BYTES = env_int("REDACTOR_SLOW_QUEUE_BYTES", 8 * 1024**2)
# Rendered page images stay in the shared cache this long (seconds); deleting a contract drops them.
REDACTOR_PAGE_CACHE_SECONDS = env_int("REDACTOR_PAGE_CACHE_SECONDS", 3600)
# "rules" (default): gazetteers, titles, functions and cue words, no statistical model; "spacy" adds
# the model REDACTOR_SPACY_MODEL, and the name of a model package (cs_core_news_sm) picks it directly.
# cs_core_news_sm is CC BY-NC-SA 3.0 (non-commercial) and only requirements-nc.txt installs it.
# Measured on the dev, real and scanned sets (docs/evaluation/index.md), the model changes no score; it adds review
# items for unconfirmed NER names.
REDACTOR_NLP = env("REDACTOR_NLP", "rules")
REDACTOR_SPACY_MODEL = env("REDACTOR_SPACY_MODEL", "cs_core_news_sm")
# Pages of one scanned document read by Tesseract at once, one single-threaded Tesseract per core
# (and the bands that check another tool's OCR layer): by default the cores this process may use,
# so that one long scan on the ocr queue takes minutes / cores.
REDACTOR_OCR_PARALLEL = env_int("REDACTOR_OCR_PARALLEL", usable_cores())
# PDFs the platform default map can be previewed on (the development set next to the checkout)
REDACTOR_PREVIEW_DIR = env("REDACTOR_PREVIEW_DIR", str(BASE_DIR.parent / "shared" / "data" / "dev"))
# Jobs: rq kills a job after REDACTOR_JOB_TIMEOUT seconds; a running job that has not reported
# progress for REDACTOR_JOB_STALE_SECONDS is taken for dead (its worker was killed) and can be retried.
REDACTOR_JOB_TIMEOUT = env_int("REDACTOR_JOB_TIMEOUT", 900)
REDACTOR_JOB_STALE_SECONDS = env_int("REDACTOR_JOB_STALE_SECONDS", 300)
# A queued run whose queue nobody has worked on for REDACTOR_QUEUE_WAIT_SECONDS (no run of its
# queue started or running meanwhile) is shown as stuck, with a sentence and a retry.
REDACTOR_QUEUE_WAIT_SECONDS = env_int("REDACTOR_QUEUE_WAIT_SECONDS", 180)
# Uploads above 2.5 MB go to a temporary file rather than memory; the request may carry the file plus form fields.
DATA_UPLOAD_MAX_MEMORY_SIZE = 2_621_440
FILE_UPLOAD_MAX_MEMORY_SIZE = 2_621_440
# A file over REDACTOR_MAX_UPLOAD_BYTES is stored nowhere, even without a Content-Length.
FILE_UPLOAD_HANDLERS = [
    "contracts.upload_handlers.UploadLimitHandler",
    "django.core.files.uploadhandler.MemoryFileUploadHandler",
    "django.core.files.uploadhandler.TemporaryFileUploadHandler",
]

LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    "handlers": {"console": {"class": "logging.StreamHandler"}},
    "root": {"handlers": ["console"], "level": env("LOG_LEVEL", "INFO")},
    # pikepdf announces its C++ log bridge at INFO on import; only its warnings matter here
    "loggers": {"pikepdf": {"level": "WARNING"}},
}

# HTTPS: on unless DEBUG; SECURE_HTTPS=0 only where the service is reached over plain HTTP on
# loopback (bin/start). Behind a reverse proxy that terminates TLS, X-Forwarded-Proto says https.
SECURE_HTTPS = env_bool("SECURE_HTTPS", not DEBUG)
SESSION_COOKIE_SECURE = env_bool("SESSION_COOKIE_SECURE", SECURE_HTTPS)
CSRF_COOKIE_SECURE = env_bool("CSRF_COOKIE_SECURE", SECURE_HTTPS)
SECURE_SSL_REDIRECT = env_bool("SECURE_SSL_REDIRECT", SECURE_HTTPS)
SECURE_REDIRECT_EXEMPT = [r"^healthz$"]  # the container's HEALTHCHECK asks over plain HTTP
SECURE_HSTS_SECONDS = env_int("SECURE_HSTS_SECONDS", 31_536_000 if SECURE_HTTPS else 0)
SECURE_HSTS_INCLUDE_SUBDOMAINS = env_bool("SECURE_HSTS_INCLUDE_SUBDOMAINS", False)
SECURE_HSTS_PRELOAD = env_bool("SECURE_HSTS_PRELOAD", False)
# X-Forwarded-Proto is believed only from a reverse proxy that says so: a client talking to
# gunicorn directly could otherwise claim HTTPS for a plain-HTTP request.
if TRUSTED_PROXY_COUNT > 0:
    SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https")
# A login lasts a working day (Django's default is two weeks): a forgotten session on a shared
# office computer is not open for long. SESSION_COOKIE_AGE in seconds.
SESSION_COOKIE_AGE = env_int("SESSION_COOKIE_AGE", 8 * 3600)
SECURE_REFERRER_POLICY = "same-origin"
X_FRAME_OPTIONS = "DENY"
# Content-Security-Policy (django-csp): scripts and styles from our own static files only, no
# inline code anywhere (templates carry data in json_script, code in static/js/); page images are
# same-origin. The API docs page (Swagger UI) alone adds inline styles (contracts/api/urls.py).
CONTENT_SECURITY_POLICY = {
    "DIRECTIVES": {
        "default-src": ["'self'"],
        "script-src": ["'self'"],
        "style-src": ["'self'"],
        "img-src": ["'self'", "data:"],
        "object-src": ["'none'"],
        "base-uri": ["'self'"],
        "form-action": ["'self'"],
        "frame-ancestors": ["'none'"],
    }
}

# The registry of contracts (ISRS) through the data box (ISDS). Messages go to the registry's data box
# REDACTOR_REGISTRY_DATABOX (whbt3kp, ISRS_aplikacni_rozhrani.pdf § 2.1); each agency's credentials and
# environment are in its registry settings (console). REDACTOR_DATABOX_URL_<ENV> are the web-service
# bases (operations at <base>dz, information at <base>dx; ISDS WSDL 3.11). The test suite and the demo
# point them at tests.databox_server, a data-box test server of this project (the real one is not
# reachable from here). REDACTOR_REGISTRY_POLL_SECONDS: how often replies are read.
REDACTOR_REGISTRY_DATABOX = env("REDACTOR_REGISTRY_DATABOX", "whbt3kp")
REDACTOR_DATABOX_URL_PRODUCTION = env("REDACTOR_DATABOX_URL_PRODUCTION", "https://ws1.datovka.gov.cz/DS/")
# The hosts of ISDS's "Informace pro vývojáře aplikací – červen 2026" (v1.1, 23 June 2026): the test
# environment at datovka-test.gov.cz since 29 January 2026, production at datovka.gov.cz since
# 25 June 2026; the old czebox.cz / mojedatovaschranka.cz names still answer (no end date yet) and
# may be set here.
REDACTOR_DATABOX_URL_TEST = env("REDACTOR_DATABOX_URL_TEST", "https://ws1.datovka-test.gov.cz/DS/")
REDACTOR_DATABOX_TIMEOUT = env_int("REDACTOR_DATABOX_TIMEOUT", 60)
REDACTOR_REGISTRY_POLL_SECONDS = env_int("REDACTOR_REGISTRY_POLL_SECONDS", 300)
# Files one data-box message may carry (20 MB); more go in further messages (pridani_prilohy).
REDACTOR_REGISTRY_MESSAGE_BYTES = env_int("REDACTOR_REGISTRY_MESSAGE_BYTES", 20 * 1024 * 1024)
# The registry's open data, read to audit what an agency already published: monthly dumps at
# <REDACTOR_REGISTRY_OPEN_DATA_URL>dump_<yyyy>_<mm>.xml (dump_mesice.xsd), each record's files at the
# link the dump gives, fetched only when it starts with REDACTOR_REGISTRY_FILES_URL (a dump an admin
# uploads cannot send the service elsewhere). REDACTOR_REGISTRY_FETCH=false: nothing is fetched (an
# agency without access to the internet uploads its dumps; their files stay unread).
REDACTOR_REGISTRY_FETCH = env_bool("REDACTOR_REGISTRY_FETCH", True)
REDACTOR_REGISTRY_OPEN_DATA_URL = env("REDACTOR_REGISTRY_OPEN_DATA_URL", "https://data.smlouvy.gov.cz/")
REDACTOR_REGISTRY_FILES_URL = env("REDACTOR_REGISTRY_FILES_URL", "https://smlouvy.gov.cz/smlouva/soubor/")
REDACTOR_REGISTRY_FETCH_TIMEOUT = env_int("REDACTOR_REGISTRY_FETCH_TIMEOUT", 60)
# The most seconds one fetch may take in all (a file; a month's dump), however the bytes trickle in.
REDACTOR_REGISTRY_FILE_DEADLINE = env_int("REDACTOR_REGISTRY_FILE_DEADLINE", 120)
REDACTOR_REGISTRY_DUMP_DEADLINE = env_int("REDACTOR_REGISTRY_DUMP_DEADLINE", 1800)
# Key for credentials stored in the database (Fernet); derived from SECRET_KEY when unset.
REDACTOR_SECRETS_KEY = env("REDACTOR_SECRETS_KEY", "")
