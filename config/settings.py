"""The one settings module, driven by environment variables.

Embedded default (nothing set but DEBUG): SQLite file, local-memory cache, Celery tasks run
eagerly in-process. Production: DATABASE_URL (PostgreSQL), REDIS_URL, CELERY_BROKER_URL,
SECRET_KEY, ALLOWED_HOSTS; see README.md.
"""

import os
from pathlib import Path

import environ
from csp.constants import NONCE, NONE, SELF
from django.core.exceptions import ImproperlyConfigured
from django.utils.translation import gettext_lazy as _

BASE_DIR = Path(__file__).resolve().parent.parent


def _parallel_test_worker() -> None:
    """A test run split over processes (``pytest -n``): each process gets its own Redis databases, so that
    one process's cache clear or queued task never reaches another's (the test databases are already one
    per process). The processes a test starts (workers, servers) inherit the result and keep it."""
    worker = os.environ.get("PYTEST_XDIST_WORKER", "")
    if not worker.startswith("gw") or os.environ.get("TEST_WORKER_SERVICES"):
        return
    step = 2 * int(worker.removeprefix("gw"))  # the broker and the cache of each process: two databases
    for name in ("CELERY_BROKER_URL", "REDIS_URL"):
        url = os.environ.get(name, "")
        head, _, db = url.rpartition("/")
        if url.startswith("redis://") and db.isdigit() and head.count("/") >= 2:
            os.environ[name] = f"{head}/{int(db) + step}"
    os.environ["TEST_WORKER_SERVICES"] = worker


_parallel_test_worker()

env = environ.Env()

DEBUG = env.bool("DEBUG", default=False)

_DEV_SECRET_KEY = "development-only-secret-key-not-for-production-use-0123456789abcdef"
SECRET_KEY = env.str("SECRET_KEY", default=_DEV_SECRET_KEY if DEBUG else "")
if not SECRET_KEY:
    raise ImproperlyConfigured("SECRET_KEY must be set when DEBUG is off.")

ALLOWED_HOSTS = env.list("ALLOWED_HOSTS", default=["127.0.0.1", "localhost", "testserver"] if DEBUG else [])
CSRF_TRUSTED_ORIGINS = env.list("CSRF_TRUSTED_ORIGINS", default=[])

INSTALLED_APPS = [
    "django.contrib.admin",
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "whitenoise.runserver_nostatic",
    "django.contrib.staticfiles",
    "rest_framework",
    "django_filters",
    "rest_framework.authtoken",
    "drf_spectacular",
    "drf_spectacular_sidecar",
    "django_htmx",
    "simple_history",
    "axes",
    "tournaments",
    "scoring",
    "penalties",
    "rankings",
    "rankings.submission",
    "idempotency",
    "notifications",
    "csp",
]

MIDDLEWARE = [
    # first: the request's frames in one chunk of the interpreter's stack (config/stackroom.py)
    "config.stackroom.RoomyStackMiddleware",
    "django.middleware.security.SecurityMiddleware",
    # before the page cache, so that the pages it serves carry the policy too
    "csp.middleware.CSPMiddleware",
    "whitenoise.middleware.WhiteNoiseMiddleware",
    "tournaments.pagecache.PublicPageMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    "django.middleware.locale.LocaleMiddleware",
    "django.middleware.common.CommonMiddleware",
    "config.middleware.RefuseNulMiddleware",
    # before anything reads a body (the CSRF check reads forms, the idempotency fingerprint every body)
    "config.middleware.BoundedBodyMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    # after the session and the user: the account's, the private link's or the tournament's language
    "config.languages.ChosenLanguageMiddleware",
    # a private tournament's page refused to an outsider answers 404, as a missing tournament's does
    "config.middleware.PrivateTournamentMiddleware",
    "django.contrib.messages.middleware.MessageMiddleware",
    "config.middleware.FinishedTournamentMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
    "django_htmx.middleware.HtmxMiddleware",
    "simple_history.middleware.HistoryRequestMiddleware",
    "axes.middleware.AxesMiddleware",
    # last: it runs the view itself for writes that carry an Idempotency-Key
    "idempotency.middleware.IdempotencyMiddleware",
]

ROOT_URLCONF = "config.urls"

TEMPLATES = [
    {
        "BACKEND": "django.template.backends.django.DjangoTemplates",
        "DIRS": [BASE_DIR / "templates"],
        "APP_DIRS": True,
        "OPTIONS": {
            "context_processors": [
                "django.template.context_processors.request",
                "django.template.context_processors.i18n",
                "django.contrib.auth.context_processors.auth",
                "django.contrib.messages.context_processors.messages",
                "scoring.offline.views.offline_account",
            ],
        },
    },
]

# Django's form renderer, with the plain inputs written without a template (config/formrenderer.py).
FORM_RENDERER = "config.formrenderer.FormRenderer"

WSGI_APPLICATION = "config.wsgi.application"
ASGI_APPLICATION = "config.asgi.application"

# Database: DATABASE_URL, an SQLite file by default.
DATABASES = {"default": env.db_url("DATABASE_URL", default=f"sqlite:///{BASE_DIR / 'db.sqlite3'}")}
DATABASES["default"].setdefault("CONN_MAX_AGE", env.int("CONN_MAX_AGE", default=60))
# No `SELECT 1` before every request: a reused connection is checked only after it sat idle
# (config/dbcheck.py, CONN_IDLE_CHECK_SECONDS); CONN_HEALTH_CHECKS=true brings Django's own check back.
DATABASES["default"]["CONN_HEALTH_CHECKS"] = env.bool("CONN_HEALTH_CHECKS", default=False)
CONN_IDLE_CHECK_SECONDS = env.float("CONN_IDLE_CHECK_SECONDS", default=30)
if DATABASES["default"]["ENGINE"] == "django.db.backends.sqlite3":
    # Several writers (a web server, an eager task) share the file: wait instead of failing.
    DATABASES["default"].setdefault("OPTIONS", {})["timeout"] = 20
    DATABASES["default"]["CONN_MAX_AGE"] = 0
DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"

# Cache: REDIS_URL; without it, files in CACHE_DIR, shared by every process of the server (the publication
# stamps of the public pages and the clock's document must read the same in every process).
REDIS_URL = env.str("REDIS_URL", default="")
if REDIS_URL:
    CACHES = {
        "default": {
            "BACKEND": "django_redis.cache.RedisCache",
            "LOCATION": REDIS_URL,
            "KEY_PREFIX": env.str("CACHE_KEY_PREFIX", default="mahjong"),
            "OPTIONS": {
                "SOCKET_CONNECT_TIMEOUT": 2,
                "SOCKET_TIMEOUT": 2,
                # A cache outage must never take pages down.
                "IGNORE_EXCEPTIONS": True,
            },
        }
    }
    DJANGO_REDIS_IGNORE_EXCEPTIONS = True
    DJANGO_REDIS_LOG_IGNORED_EXCEPTIONS = True
else:
    CACHES = {
        "default": {
            "BACKEND": "config.filecache.SharedFileCache",
            "LOCATION": env.str("CACHE_DIR", default=str(BASE_DIR / "var" / "cache")),
            "OPTIONS": {"MAX_ENTRIES": 20_000},
        }
    }

# Background tasks: CELERY_BROKER_URL; unset, tasks run eagerly in-process.
CELERY_BROKER_URL = env.str("CELERY_BROKER_URL", default="")
CELERY_TASK_ALWAYS_EAGER = not CELERY_BROKER_URL
CELERY_TASK_EAGER_PROPAGATES = True
CELERY_RESULT_BACKEND = env.str("CELERY_RESULT_BACKEND", default=CELERY_BROKER_URL or None) or None
CELERY_TASK_ACKS_LATE = True
CELERY_TASK_REJECT_ON_WORKER_LOST = True
CELERY_WORKER_PREFETCH_MULTIPLIER = 1
CELERY_TASK_DEFAULT_QUEUE = env.str("CELERY_QUEUE", default="mahjong")
CELERY_BROKER_CONNECTION_RETRY_ON_STARTUP = True
# The worker reconnects to a broker that went away, for as long as it takes (config/celery.py).
CELERY_BROKER_CONNECTION_RETRY = True
CELERY_BROKER_CONNECTION_MAX_RETRIES = None
# A publish to a broker that is down must fail fast, not hang the request that confirmed a result.
CELERY_BROKER_TRANSPORT_OPTIONS = {"max_retries": 1, "interval_start": 0, "interval_step": 0.2}
CELERY_BROKER_CONNECTION_TIMEOUT = 2
CELERY_TASK_PUBLISH_RETRY = False
CELERY_TIMEZONE = env.str("TIME_ZONE", default="Europe/Madrid")
# How long the answer to a write with an Idempotency-Key is kept for its repeats (never under 24).
IDEMPOTENCY_KEEP_HOURS = env.int("IDEMPOTENCY_KEEP_HOURS", default=48)
# A message taken by a worker that dies (kill -9, lost machine) goes back to the queue within a minute:
# tasks are acknowledged late, so an unacknowledged message is redelivered after the visibility timeout
# (45 s), found by the workers' scan for such messages (every 5 s; kombu's default scans every 100 s).
# A task still running after 45 s may then run twice: every task here is safe to run twice.
CELERY_BROKER_TRANSPORT_OPTIONS.update(
    visibility_timeout=env.int("CELERY_VISIBILITY_TIMEOUT", default=45),
    unacked_restore_interval=5,
    unacked_restore_throttle=1,
)
# A background job (archive import, export) is leased by the worker running it, renewed every third of
# JOB_LEASE_SECONDS (rankings/jobs/leases.py): a dead worker's job is taken over when its message comes back.
JOB_LEASE_SECONDS = env.int("JOB_LEASE_SECONDS", default=30)
CELERY_RESULT_BACKEND_TRANSPORT_OPTIONS = {
    "visibility_timeout": CELERY_BROKER_TRANSPORT_OPTIONS["visibility_timeout"]
}
# The standings sweep (rankings/standings/sweep.py): every STANDINGS_SWEEP_SECONDS, the recompute of a tournament
# whose snapshot is older than its input, and not queued for STANDINGS_SWEEP_STALE_SECONDS, is queued again.
STANDINGS_SWEEP_SECONDS = env.int("STANDINGS_SWEEP_SECONDS", default=60)
STANDINGS_SWEEP_STALE_SECONDS = env.int("STANDINGS_SWEEP_STALE_SECONDS", default=60)
# The jobs sweep (rankings/sweep.py): every JOBS_SWEEP_SECONDS, an export or import queued for longer
# than JOBS_SWEEP_STALE_SECONDS (its message lost with the broker's queue), or left running by a worker
# that is gone, is queued again.
JOBS_SWEEP_SECONDS = env.int("JOBS_SWEEP_SECONDS", default=60)
JOBS_SWEEP_STALE_SECONDS = env.int("JOBS_SWEEP_STALE_SECONDS", default=60)
# Backups (rankings/backups): the archive of every running tournament, every BACKUP_SECONDS, the newest
# BACKUP_KEEP of each tournament kept (96: a day at 15 minutes), in BACKUP_ROOT.
BACKUP_SECONDS = env.int("BACKUP_SECONDS", default=15 * 60)
BACKUP_KEEP = env.int("BACKUP_KEEP", default=96)
BACKUP_ROOT = Path(env.str("BACKUP_ROOT", default=str(BASE_DIR / "var" / "backups")))
# With no broker there is no beat: each server process runs CELERY_BEAT_SCHEDULE in-process
# (config/scheduler.py), one process at a time through the lock on EMBEDDED_SCHEDULE_FILE.
EMBEDDED_SCHEDULER = env.bool("EMBEDDED_SCHEDULER", default=True)
EMBEDDED_SCHEDULER_TICK_SECONDS = env.float("EMBEDDED_SCHEDULER_TICK_SECONDS", default=5.0)
EMBEDDED_SCHEDULE_FILE = Path(
    env.str("EMBEDDED_SCHEDULE_FILE", default=str(BASE_DIR / "var" / "embedded-schedule.json"))
)
CELERY_BEAT_SCHEDULE = {
    "purge-idempotency-keys": {"task": "idempotency.tasks.idempotency_purge", "schedule": 3600.0},
    "backups": {"task": "rankings.backups.tasks.backups_write_running", "schedule": float(BACKUP_SECONDS)},
    "standings-sweep": {
        "task": "rankings.standings.tasks.standings_sweep",
        "schedule": float(STANDINGS_SWEEP_SECONDS),
    },
    "jobs-sweep": {"task": "rankings.tasks.jobs_sweep", "schedule": float(JOBS_SWEEP_SECONDS)},
}

AUTH_PASSWORD_VALIDATORS = [
    {"NAME": "django.contrib.auth.password_validation.UserAttributeSimilarityValidator"},
    {"NAME": "django.contrib.auth.password_validation.MinimumLengthValidator"},
    {"NAME": "django.contrib.auth.password_validation.CommonPasswordValidator"},
    {"NAME": "django.contrib.auth.password_validation.NumericPasswordValidator"},
]

AUTHENTICATION_BACKENDS = [
    "axes.backends.AxesStandaloneBackend",
    "django.contrib.auth.backends.ModelBackend",
]

# Repeated failed logins are throttled.
AXES_FAILURE_LIMIT = env.int("AXES_FAILURE_LIMIT", default=5)
AXES_COOLOFF_TIME = env.float("AXES_COOLOFF_HOURS", default=1.0)
# One lock per username and address together: a stranger's wrong passwords lock the stranger's address
# out of that account, never the account's owner signing in from elsewhere. The address is the caller's
# as the reverse proxies report it (config/clientip.py): behind a proxy every request comes from the
# proxy's own address, and keying on that would let anyone lock anyone out.
AXES_LOCKOUT_PARAMETERS = [["username", "ip_address"]]
AXES_CLIENT_IP_CALLABLE = "config.clientip.client_ip"
# How many reverse proxies in front of the server append to X-Forwarded-For (with BEHIND_PROXY).
TRUSTED_PROXY_COUNT = env.int("TRUSTED_PROXY_COUNT", default=1)
AXES_RESET_ON_SUCCESS = True
AXES_ENABLED = env.bool("AXES_ENABLED", default=True)

LOGIN_URL = "login"
LOGIN_REDIRECT_URL = "my-tournaments"
LOGOUT_REDIRECT_URL = "home"

# Internationalisation: nine languages (docs/TRANSLATING.md). A visitor first gets the first of their
# browser's languages the site has, then the one they choose (tournaments/languages.py); the language menu
# names each language in itself (tournaments.languages.NATIVE_NAMES).
LANGUAGE_CODE = "en"
LANGUAGES = [
    ("en", _("English")),
    ("es", _("Spanish")),
    ("eu", _("Basque")),
    ("fr", _("French")),
    ("de", _("German")),
    ("it", _("Italian")),
    ("nl", _("Dutch")),
    ("pl", _("Polish")),
    ("pt", _("Portuguese")),
]
LOCALE_PATHS = [BASE_DIR / "locale"]
TIME_ZONE = env.str("TIME_ZONE", default="Europe/Madrid")
# One date format per language (config/formats/<language>/formats.py), used by every page.
FORMAT_MODULE_PATH = ["config.formats"]
USE_I18N = True
USE_TZ = True

STATIC_URL = "static/"
STATIC_ROOT = BASE_DIR / "staticfiles"
STATICFILES_DIRS = [BASE_DIR / "static"]
STORAGES = {
    "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
    "staticfiles": {
        "BACKEND": "config.staticstorage.StaticFilesStorage"
        if not DEBUG
        else "django.contrib.staticfiles.storage.StaticFilesStorage"
    },
}
MEDIA_ROOT = Path(env.str("MEDIA_ROOT", default=str(BASE_DIR / "var" / "media")))
MEDIA_URL = "media/"

REST_FRAMEWORK = {
    "DEFAULT_AUTHENTICATION_CLASSES": [
        "rest_framework.authentication.SessionAuthentication",
        "rest_framework.authentication.TokenAuthentication",
    ],
    "DEFAULT_PERMISSION_CLASSES": ["rest_framework.permissions.IsAuthenticatedOrReadOnly"],
    "DEFAULT_SCHEMA_CLASS": "config.schema.AutoSchema",
    "DEFAULT_PARSER_CLASSES": [
        "config.parsers.BoundedJSONParser",
        "config.parsers.BoundedFormParser",
        "config.parsers.BoundedMultiPartParser",
    ],
    "DEFAULT_PAGINATION_CLASS": "config.api.BoundedLimitOffsetPagination",
    "PAGE_SIZE": 100,
    "EXCEPTION_HANDLER": "config.api.exception_handler",
}
SPECTACULAR_SETTINGS = {
    "ENUM_NAME_OVERRIDES": {
        "ClockStateEnum": "tournaments.clock.engine.STATES",
        "SeatingStateEnum": ["empty", "draft", "published", "played"],
        "RankedFamilyEnum": "rankings.models.ImportedTournament.Family",
        "CheckStatusEnum": "rankings.submission.engine.STATUSES",
        "JobStatusEnum": ["queued", "running", "done", "failed"],
        "NeedStatusEnum": ["safe", "needs", "open", "out"],
    },
    "TITLE": "Mahjong tournaments API",
    "DESCRIPTION": "Tournaments, players, seating, results, penalties and standings. "
    "Public reads need no login; writes need a role in the tournament.",
    "VERSION": "1",
    "SERVE_INCLUDE_SCHEMA": False,
    "SWAGGER_UI_DIST": "SIDECAR",
    "SWAGGER_UI_FAVICON_HREF": "SIDECAR",
    "REDOC_DIST": "SIDECAR",
    "POSTPROCESSING_HOOKS": [
        "drf_spectacular.hooks.postprocess_schema_enums",
        "idempotency.schema.document_idempotency_key",
    ],
}

# Production hardening: active whenever DEBUG is off (passes `manage.py check --deploy`).
BEHIND_PROXY = env.bool("BEHIND_PROXY", default=True)
SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https") if BEHIND_PROXY else None
if not DEBUG:
    SECURE_SSL_REDIRECT = env.bool("SECURE_SSL_REDIRECT", default=True)
    SECURE_REDIRECT_EXEMPT = [r"^healthz$"]
    # Off only for the local demo served over plain http (`make run`); never in production.
    SESSION_COOKIE_SECURE = CSRF_COOKIE_SECURE = env.bool("SECURE_COOKIES", default=True)
    SECURE_HSTS_SECONDS = env.int("SECURE_HSTS_SECONDS", default=31536000)
    SECURE_HSTS_INCLUDE_SUBDOMAINS = True
    SECURE_HSTS_PRELOAD = env.bool("SECURE_HSTS_PRELOAD", default=True)
    SECURE_CONTENT_TYPE_NOSNIFF = True
    X_FRAME_OPTIONS = "DENY"
SECURE_REFERRER_POLICY = "same-origin"

# Content-Security-Policy on every response (django-csp): scripts and styles from this site only (the
# vendored htmx and Pico CSS included), no inline handler or eval; the print pages' own <style> carries the
# request's nonce. The API documentation pages (Swagger UI, ReDoc) bring their own inline bootstrap and are
# served with a policy of their own (config/urls.py).
CONTENT_SECURITY_POLICY = {
    "DIRECTIVES": {
        "default-src": [SELF],
        "script-src": [SELF],
        "style-src": [SELF, NONCE],
        "img-src": [SELF, "data:"],
        "font-src": [SELF],
        "connect-src": [SELF],
        "object-src": [NONE],
        "base-uri": [SELF],
        "form-action": [SELF],
        "frame-ancestors": [NONE],
    }
}

LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    "handlers": {"console": {"class": "logging.StreamHandler"}},
    "root": {"handlers": ["console"], "level": env.str("LOG_LEVEL", default="INFO")},
    "loggers": {"axes": {"level": "WARNING"}},
}

# Input limits: JSON bodies (size and nesting, config/parsers.py), archives (size; the same nesting).
JSON_MAX_BYTES = env.int("JSON_MAX_BYTES", default=1024 * 1024)
JSON_MAX_DEPTH = 32
ARCHIVE_MAX_BYTES = env.int("ARCHIVE_MAX_BYTES", default=25 * 1024 * 1024)
# Archives larger than this are imported in the background (a job with progress), not in the request.
ARCHIVE_INLINE_BYTES = env.int("ARCHIVE_INLINE_BYTES", default=256 * 1024)
# Django's own cap on a request body read whole (an archive sent as a JSON body is the largest).
DATA_UPLOAD_MAX_MEMORY_SIZE = ARCHIVE_MAX_BYTES
# A URL-encoded form sent to the API; an upload (a file and the form around it).
FORM_MAX_BYTES = env.int("FORM_MAX_BYTES", default=1024 * 1024)
UPLOAD_MAX_BYTES = ARCHIVE_MAX_BYTES + 1024 * 1024
# The longest path and query the project answers (414 beyond, JSON under /api/); the server in front must
# let longer lines through (gunicorn --limit-request-line 8190) so that the answer is the project's.
CSRF_FAILURE_VIEW = "config.api.csrf_failure"
URI_MAX_BYTES = env.int("URI_MAX_BYTES", default=4096)

# Public pages: how long a rendered page may be served from the cache (seconds).
PUBLIC_PAGE_CACHE_SECONDS = env.int("PUBLIC_PAGE_CACHE_SECONDS", default=10)
# How long a process may trust the publication stamp it read last (tournaments/pagecache.py): with Redis a
# second (a change made in another process shows within it); with the file cache none, so every process
# reads the shared stamp on every request and all of them serve the same page after a change.
PUBLIC_STAMP_MEMO_SECONDS = env.float("PUBLIC_STAMP_MEMO_SECONDS", default=1.0 if REDIS_URL else 0.0)
CLOCK_POLL_SECONDS = env.int("CLOCK_POLL_SECONDS", default=15)
# A director's CSV file of more players than this is imported in the background, with its progress
# (rankings/player_jobs.py); smaller files within the request.
PLAYER_IMPORT_INLINE_ROWS = env.int("PLAYER_IMPORT_INLINE_ROWS", default=200)

# Web Push (notifications/): the VAPID key pair the push services check our messages against. In production
# VAPID_PUBLIC_KEY and VAPID_PRIVATE_KEY (base64url, as `manage.py vapid_keys --print` makes them) and
# VAPID_SUBJECT (a mailto: or https: contact for the push services); unset, the pair `make run` keeps in
# VAPID_FILE (var/vapid.json, outside the repository). No pair at all: the pages say push is not offered.
VAPID_FILE = Path(env.str("VAPID_FILE", default=str(BASE_DIR / "var" / "vapid.json")))
VAPID_PUBLIC_KEY = env.str("VAPID_PUBLIC_KEY", default="")
VAPID_PRIVATE_KEY = env.str("VAPID_PRIVATE_KEY", default="")
VAPID_SUBJECT = env.str("VAPID_SUBJECT", default="mailto:director@localhost")
# The push services a subscription may name (the browser vendors'): their host or a parent domain. The
# server sends to these hosts only, over https.
PUSH_SERVICE_HOSTS = env.list(
    "PUSH_SERVICE_HOSTS",
    default=[
        "fcm.googleapis.com",
        "android.googleapis.com",
        "push.services.mozilla.com",
        "notify.windows.com",
        "push.apple.com",
    ],
)
PUSH_TIMEOUT_SECONDS = env.float("PUSH_TIMEOUT_SECONDS", default=10.0)
PUSH_BATCH = env.int("PUSH_BATCH", default=200)  # messages per sending task
PUSH_CONCURRENCY = env.int("PUSH_CONCURRENCY", default=8)  # messages of a task in flight at once
PUSH_SWEEP_SECONDS = env.int("PUSH_SWEEP_SECONDS", default=30)  # the waits for confirmation, the clock
CELERY_BEAT_SCHEDULE["push-sweep"] = {
    "task": "notifications.tasks.push_sweep",
    "schedule": float(PUSH_SWEEP_SECONDS),
}
