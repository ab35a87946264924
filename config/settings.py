"""
Settings for the course-generation service, all from the environment (12-factor).

With nothing set, every process uses the project-local PostgreSQL and Redis that `make run`
starts. `.env.example` lists every variable; an optional `.env` beside manage.py is read too, and
real environment variables win over it.
"""

from pathlib import Path

import environ
from botocore.config import Config as StoreClientConfig
from django.core.exceptions import ImproperlyConfigured

BASE_DIR = Path(__file__).resolve().parent.parent

env = environ.Env()
environ.Env.read_env(BASE_DIR / ".env")

SECRET_KEY = env("SECRET_KEY")  # no default: `make run` writes a local .env once
DEBUG = env.bool("DEBUG", default=False)
ALLOWED_HOSTS = env.list("ALLOWED_HOSTS", default=["localhost", "127.0.0.1", "[::1]"])
# Absolute links (shareUrl, downloadUrl) start with this.
PUBLIC_BASE_URL = env.str(
    "PUBLIC_BASE_URL", default=f"http://localhost:{env.int('PORT', default=8000)}"
).rstrip("/")

INSTALLED_APPS = [
    "django.contrib.admin",
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "whitenoise.runserver_nostatic",
    "django.contrib.staticfiles",
    "rest_framework",
    "csp",
    "django.contrib.postgres",
    # Ours, from the bottom layer up (docs/contribute/layout.md).
    "core",
    "accounts",
    "webhooks",
    "sources",
    "courses",
    "learners",
    "exports",
    "preview",
]

MIDDLEWARE = [
    "core.middleware.RequestIdMiddleware",
    "core.middleware.RequestMetricsMiddleware",
    "core.middleware.PrivateAnswersMiddleware",
    "django.middleware.security.SecurityMiddleware",
    "core.middleware.ContentSecurityPolicyMiddleware",
    "whitenoise.middleware.WhiteNoiseMiddleware",
    "core.middleware.DebugErrorsMiddleware",
    "core.middleware.ApiErrorMiddleware",
    "core.middleware.FormBodiesMiddleware",
    # For the pages browsers use; API requests go straight through (core.middleware).
    "core.middleware.SessionMiddleware",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "core.middleware.AuthenticationMiddleware",
    "core.middleware.MessageMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
]

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
            ],
        },
    },
]

DATABASES = {
    "default": env.db("DATABASE_URL", default="postgres://cgs@127.0.0.1:54329/cgs"),
}
# Connections: kept by each process for reuse (DB_CONN_MAX_AGE), or in Django's own pool of each
# process (DB_POOL_SIZE), which hands a connection back after each request and allows no persistent
# ones. Which to choose, and PgBouncer in front of many machines: docs/run/deployment.md.
_pool_size = env.int("DB_POOL_SIZE", default=0)
DATABASES["default"]["CONN_MAX_AGE"] = env.int("DB_CONN_MAX_AGE", default=0 if _pool_size else 60)
if _pool_size:
    if DATABASES["default"]["CONN_MAX_AGE"] != 0:
        raise ImproperlyConfigured("With DB_POOL_SIZE the pool keeps the connections: unset DB_CONN_MAX_AGE (or 0).")
    # One connection kept open, more opened up to the size while threads need them at once (a
    # worker's heartbeat beside its task), each closed after ten minutes unused. Celery closes a
    # worker process's pool after each task, since a pool's threads do not survive its forks.
    DATABASES["default"].setdefault("OPTIONS", {})["pool"] = {"min_size": 1, "max_size": _pool_size}
# Off by default: a check costs every request a round trip. After a database restart, each process's
# first request on its lost connection is answered 503 (retry), and the next one connects afresh.
DATABASES["default"]["CONN_HEALTH_CHECKS"] = env.bool("DB_CONN_HEALTH_CHECKS", default=False)
# Parameters bound by the server, and a statement run a second time on a connection prepared: from
# then on PostgreSQL neither parses nor plans it again. Turn off behind a transaction-mode pooler that cannot
# keep prepared statements (PgBouncer before 1.21, or without max_prepared_statements).
if env.bool("DB_PREPARED_STATEMENTS", default=True):
    DATABASES["default"].setdefault("OPTIONS", {}).update({"server_side_binding": True, "prepare_threshold": 1})
# No server-side cursors (QuerySet.iterator() fetches on the client): outside a transaction Django
# declares them WITH HOLD, to be read by later transactions on the same connection, and a pooler in
# transaction mode runs those on whichever server connection is free. Off everywhere, so the code tested is
# the code that runs behind one; large reads go in chunks of their own (learners.queries).
DATABASES["default"]["DISABLE_SERVER_SIDE_CURSORS"] = True
DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"

# Which Redis holds what (docs/run/deployment.md#redis):
# - REDIS_URL, whose keys must not be evicted (`noeviction`, or `volatile-lru` where it holds the
#   cache too): Celery's queues (CELERY_BROKER_URL), the API limiter's windows (core/ratelimit.py),
#   django-ratelimit's fixed windows (CACHES below), webhook slots (webhooks/slots.py), beat's locks
#   (core/beat.py) and when each sweep last ran (core/metrics.py).
# - CACHE_REDIS_URL, whose keys may all be evicted (`allkeys-lru`): the stored renderings of courses
#   (core/redis_client.py), each key with a time to live. A page whose rendering is gone, or a cache
#   Redis that is down, is rendered again.
REDIS_URL = env.str("REDIS_URL", default="redis://127.0.0.1:63799/0")
CACHE_REDIS_URL = env.str("CACHE_REDIS_URL", default=REDIS_URL)
# Every Redis client of ours gives up quickly, so a Redis outage degrades requests instead of
# hanging them.
REDIS_SOCKET_TIMEOUT_SECONDS = env.float("REDIS_SOCKET_TIMEOUT_SECONDS", default=0.5)
# Each web process also keeps the renderings it served last in memory (core/redis_client.py).
RENDERINGS_IN_PROCESS_MB = env.int("RENDERINGS_IN_PROCESS_MB", default=32)
RENDERING_IN_PROCESS_SECONDS = env.int("RENDERING_IN_PROCESS_SECONDS", default=600)
# Django's cache holds nothing but django-ratelimit's fixed windows (the admin login, agreement
# sign-offs): limits, which an eviction would reset, so it stays on REDIS_URL, not the cache Redis.
CACHES = {
    "default": {
        "BACKEND": "django.core.cache.backends.redis.RedisCache",
        "LOCATION": REDIS_URL,
        "OPTIONS": {
            "socket_connect_timeout": REDIS_SOCKET_TIMEOUT_SECONDS,
            "socket_timeout": REDIS_SOCKET_TIMEOUT_SECONDS,
        },
    },
}

AUTH_PASSWORD_VALIDATORS = [
    {"NAME": "django.contrib.auth.password_validation.UserAttributeSimilarityValidator"},
    {"NAME": "django.contrib.auth.password_validation.MinimumLengthValidator"},
    {"NAME": "django.contrib.auth.password_validation.CommonPasswordValidator"},
    {"NAME": "django.contrib.auth.password_validation.NumericPasswordValidator"},
]

LANGUAGE_CODE = "en-us"
TIME_ZONE = "UTC"
USE_I18N = True
USE_TZ = True

STATIC_URL = "static/"
STATIC_ROOT = BASE_DIR / "staticfiles"
STATICFILES_DIRS = [BASE_DIR / "static"]
MEDIA_ROOT = env.path("MEDIA_ROOT", default=BASE_DIR / "media")
STORAGES = {
    "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
    "staticfiles": {"BACKEND": "whitenoise.storage.CompressedManifestStaticFilesStorage"},
}
# Every file the service keeps (sources, export packages) goes through the default storage: the local
# disk above, for one machine, or, when STORAGE_BUCKET is set, an S3-compatible object store that every
# machine shares (core/files.py). Credentials come from the standard AWS_ACCESS_KEY_ID and
# AWS_SECRET_ACCESS_KEY (or the machine's role), read by boto3 itself, so they are never settings here.
STORAGE_BUCKET = env.str("STORAGE_BUCKET", default="")
STORAGE_ENDPOINT_URL = env.str("STORAGE_ENDPOINT_URL", default="")
# Where browsers reach the store, for the download links signed for them: the same address unless
# the machines reach it by a private one.
STORAGE_PUBLIC_ENDPOINT_URL = env.str("STORAGE_PUBLIC_ENDPOINT_URL", default=STORAGE_ENDPOINT_URL)
# Each attempt waits at most this long to connect and between two reads, and an operation makes two
# attempts: a store that does not answer fails a request within about four times this, well inside
# gunicorn's 30-second limit on a request.
STORAGE_TIMEOUT_SECONDS = env.float("STORAGE_TIMEOUT_SECONDS", default=5)


def object_storage(*, bucket: str, endpoint_url: str | None, region: str | None, timeout_s: float, attempts: int = 2):
    """The default storage's entry for an S3-compatible store (also used by the tests' own buckets)."""
    return {
        "BACKEND": "storages.backends.s3.S3Storage",
        "OPTIONS": {
            "bucket_name": bucket,
            "endpoint_url": endpoint_url or None,
            "region_name": region or None,
            # A name is never reused (each file is named by its row's unguessable id), so no request
            # asks whether it is taken; an object is private, reached only through a link signed for
            # a few minutes (core.files.download_url).
            "file_overwrite": True,
            "default_acl": None,
            "client_config": StoreClientConfig(
                # Path-style addresses work with every S3-compatible store (MinIO, R2, GCS interop),
                # and AWS accepts them; links signed as AWS's current scheme (SigV4) says.
                s3={"addressing_style": "path"},
                signature_version="s3v4",
                # Each wait on the store (to connect, or between two reads of a socket) is bounded.
                connect_timeout=timeout_s,
                read_timeout=timeout_s,
                retries={"mode": "standard", "max_attempts": attempts},
            ),
        },
    }


if STORAGE_BUCKET:
    STORAGES["default"] = object_storage(
        bucket=STORAGE_BUCKET,
        endpoint_url=STORAGE_ENDPOINT_URL,
        region=env.str("STORAGE_REGION", default=""),
        timeout_s=STORAGE_TIMEOUT_SECONDS,
    )

# The API accepts JSON bodies up to 1 MiB; larger ones are refused with 413 before parsing.
API_MAX_BODY_BYTES = 1024 * 1024
DATA_UPLOAD_MAX_MEMORY_SIZE = API_MAX_BODY_BYTES

REST_FRAMEWORK = {
    "DEFAULT_PARSER_CLASSES": ["api.parsers.StrictJSONParser"],
    "DEFAULT_RENDERER_CLASSES": ["rest_framework.renderers.JSONRenderer"],
    "DEFAULT_AUTHENTICATION_CLASSES": [],
    "DEFAULT_PERMISSION_CLASSES": [],
    "UNAUTHENTICATED_USER": None,
    "EXCEPTION_HANDLER": "core.errors.api_exception_handler",
    # No `?format=` override of content negotiation: the API answers JSON (and the results CSV by
    # Accept), and a `format` in a query string is just an unknown parameter.
    "URL_FORMAT_OVERRIDE": None,
}

# Celery. What recovering from a dead or stopped worker rests on (docs/how-it-works/reliability.md):
# - Late acknowledgement: a task's message is acknowledged when the task ends, not when a worker
#   takes it, so a worker that dies mid-task has not consumed the message.
# - Rejection on a lost worker: a task whose worker process is killed under it is given back to the
#   queue rather than counted as done.
# - Prefetch of one: a worker process reserves only the task it is about to run. A generation runs for
#   minutes; with a larger prefetch, tasks would wait behind it in that worker while others sit idle.
# - Visibility timeout: with Redis, a message taken by a worker that dies is delivered again only after
#   this long. Recovery does not wait for it (a dead job is found by its heartbeat, a lost delivery by
#   the webhook sweep); it must outlast the longest countdown a task is sent with (a webhook retry up
#   to about 40 minutes ahead), or Redis would deliver those early and twice.
# - Soft shutdown: a worker told to stop (SIGTERM, which the Procfile makes a cold shutdown with
#   REMAP_SIGTERM=SIGQUIT) lets its tasks run on for this many seconds (long enough for a webhook
#   delivery, or a nearly finished task), then stops them; the jobs it ran are handed back at once
#   (core.leases) and their messages go back to the queue. A plain warm shutdown would wait
#   for every running generation to end, minutes, and a deploy would kill it anyway.
CELERY_BROKER_URL = REDIS_URL
CELERY_RESULT_BACKEND = None
CELERY_TASK_ALWAYS_EAGER = env.bool("CELERY_TASK_ALWAYS_EAGER", default=False)
CELERY_TASK_EAGER_PROPAGATES = True
CELERY_TASK_ACKS_LATE = True
CELERY_TASK_REJECT_ON_WORKER_LOST = True
CELERY_WORKER_PREFETCH_MULTIPLIER = 1
CELERY_WORKER_SOFT_SHUTDOWN_TIMEOUT = 3.0
CELERY_BROKER_CONNECTION_RETRY_ON_STARTUP = True
# A worker keeps trying to reach a Redis that went away, however long it is gone.
CELERY_BROKER_CONNECTION_MAX_RETRIES = None
CELERY_BROKER_TRANSPORT_OPTIONS = {
    "visibility_timeout": env.int("CELERY_VISIBILITY_TIMEOUT_S", default=3600),
    "socket_connect_timeout": 2,
    "socket_timeout": 5,
    # Sending a task gives up quickly when Redis is down (a web request must not hang); what the
    # task works on is committed, and the periodic sweeps send it again.
    "max_retries": 1,
    "interval_start": 0,
    "interval_step": 0.2,
    "interval_max": 0.5,
}
CELERY_TASK_DEFAULT_QUEUE = "celery"
# Learner events are quick database work that ends in webhooks: they never wait behind a generation.
WEBHOOKS_QUEUE = "webhooks"
CELERY_TASK_ROUTES = {
    "webhooks.tasks.*": {"queue": WEBHOOKS_QUEUE},
    "learners.tasks.send_events": {"queue": WEBHOOKS_QUEUE},
}
CELERY_BEAT_SCHEDULE: dict = {}
# Every sweep is sent by one beat only, however many run (a deploy's overlap): core/beat.py.
CELERY_BEAT_SCHEDULER = "core.beat:OneBeatScheduler"
CELERY_WORKER_HIJACK_ROOT_LOGGER = False

# Production: with an https PUBLIC_BASE_URL the service insists on HTTPS everywhere.
HTTPS = PUBLIC_BASE_URL.startswith("https://")
TRUSTED_PROXY_COUNT = env.int("TRUSTED_PROXY_COUNT", default=0)
if TRUSTED_PROXY_COUNT:
    SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https")
SECURE_SSL_REDIRECT = env.bool("SECURE_SSL_REDIRECT", default=HTTPS)
# Probes and Prometheus reach each machine directly, over the private network, where nothing speaks TLS.
SECURE_REDIRECT_EXEMPT = [r"^healthz$", r"^readyz$", r"^metrics$"]
SESSION_COOKIE_SECURE = HTTPS
CSRF_COOKIE_SECURE = HTTPS
SECURE_HSTS_SECONDS = env.int("SECURE_HSTS_SECONDS", default=31536000 if HTTPS else 0)
SECURE_HSTS_INCLUDE_SUBDOMAINS = HTTPS
SECURE_HSTS_PRELOAD = env.bool("SECURE_HSTS_PRELOAD", default=HTTPS)
SECURE_CONTENT_TYPE_NOSNIFF = True
SECURE_REFERRER_POLICY = "same-origin"
CSRF_TRUSTED_ORIGINS = env.list("CSRF_TRUSTED_ORIGINS", default=[PUBLIC_BASE_URL])
CSRF_FAILURE_VIEW = "core.error_pages.csrf_failure"  # in the reader's language

# Metrics (docs/run/metrics.md). /metrics answers only `Authorization: Bearer <METRICS_TOKEN>`, and is
# not there at all without it. A worker answers its own families on METRICS_PORT when set. Every
# process of a web server or a worker records its values in PROMETHEUS_MULTIPROC_DIR (prometheus-client
# reads it from the environment itself), emptied when the web server or the worker starts.
METRICS_TOKEN = env.str("METRICS_TOKEN", default="")
METRICS_PORT = env.int("METRICS_PORT", default=0)
PROMETHEUS_MULTIPROC_DIR = env.str("PROMETHEUS_MULTIPROC_DIR", default="")

LOG_LEVEL = env.str("LOG_LEVEL", default="INFO")
LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    "filters": {"request_id": {"()": "core.logs.RequestIdFilter"}},
    "formatters": {"json": {"()": "core.logs.JsonFormatter"}},
    "handlers": {
        "console": {
            "class": "logging.StreamHandler",
            "formatter": "json",
            "filters": ["request_id"],
        },
    },
    "root": {"handlers": ["console"], "level": LOG_LEVEL},
    "loggers": {
        # Our own one-line-per-request log replaces Django's and gunicorn's access lines.
        "django.request": {"level": "ERROR"},
        "django.server": {"level": "WARNING"},
        "celery": {"level": LOG_LEVEL},
        # Our one line per task (config/celery.py) replaces Celery's: a task received, succeeded or
        # retried, and beat sending one. Their warnings and errors stay.
        **{
            name: {"level": "DEBUG" if LOG_LEVEL == "DEBUG" else "WARNING"}
            for name in ("celery.app.trace", "celery.worker.strategy", "celery.beat")
        },
        # The object store's client: at DEBUG it logs each request's signature, enough to rebuild a
        # signed download link.
        **{name: {"level": "WARNING"} for name in ("boto3", "botocore", "s3transfer")},
    },
}

# --- Generation jobs ------------------------------------------------------------------------------
# A running job (a generation, a source's reading) records a heartbeat every GENERATION_HEARTBEAT_S;
# one whose heartbeat is older than GENERATION_HEARTBEAT_TIMEOUT_S is taken for dead and run again
# (from its last finished step), and failed after MAX_ATTEMPTS (courses.jobs) workers died on it.
# Beat looks for them at least every 15 seconds.
GENERATION_HEARTBEAT_S = env.float("GENERATION_HEARTBEAT_S", default=10)
GENERATION_HEARTBEAT_TIMEOUT_S = env.float("GENERATION_HEARTBEAT_TIMEOUT_S", default=45)
RECOVERY_INTERVAL_S = min(15.0, GENERATION_HEARTBEAT_TIMEOUT_S / 3)
# A job still pending after this long (no worker ever took it) is failed and its credit given back.
JOB_PENDING_MAX_S = env.int("JOB_PENDING_MAX_S", default=3600)
CELERY_BEAT_SCHEDULE["courses-recover-jobs"] = {"task": "courses.tasks.recover_jobs", "schedule": RECOVERY_INTERVAL_S}
CELERY_BEAT_SCHEDULE["courses-purge-idempotency-records"] = {
    "task": "courses.tasks.purge_expired_idempotency_records",
    "schedule": 3600.0,
}

# A course keeps every version of its document, up to this many.
COURSE_MAX_VERSIONS = env.int("COURSE_MAX_VERSIONS", default=100)

# --- Course generators ----------------------------------------------------------------------------
# `offline` writes scaffolding from templates (no network, instant); `openai` asks any
# OpenAI-compatible server (OpenAI, Azure OpenAI, vLLM, Ollama, llama.cpp) for structured JSON.
COURSE_GENERATOR = env.str("COURSE_GENERATOR", default="offline")
GENERATION_TIMEOUT_S = env.int("GENERATION_TIMEOUT_S", default=600)
# Requests per step (the plan, a chapter, an add-on) for an answer that keeps breaking our rules; each
# request after the first tells the model which rules its last answer broke.
GENERATION_MAX_ATTEMPTS = env.int("GENERATION_MAX_ATTEMPTS", default=3)
# Model requests in flight at once for one course (chapters, then add-ons).
GENERATION_CONCURRENCY = env.int("GENERATION_CONCURRENCY", default=4)
OPENAI_BASE_URL = env.str("OPENAI_BASE_URL", default="https://api.openai.com/v1")
OPENAI_API_KEY = env.str("OPENAI_API_KEY", default="")
OPENAI_MODEL = env.str("OPENAI_MODEL", default="gpt-4o-mini")
# Courses from sources: with a model named (text-embedding-3-small, nomic-embed-text, ...), the
# `openai` generator retrieves passages by meaning too, from the same server (sources/embeddings.py).
OPENAI_EMBEDDINGS_MODEL = env.str("OPENAI_EMBEDDINGS_MODEL", default="")
# Per attempt; the SDK retries 408/409/429/5xx, timeouts and connection errors with backoff.
OPENAI_TIMEOUT_S = env.float("OPENAI_TIMEOUT_S", default=120.0)
OPENAI_MAX_RETRIES = env.int("OPENAI_MAX_RETRIES", default=3)
# Videos: with a key, lessons get videos from the YouTube Data API search; without, a search link.
YOUTUBE_API_KEY = env.str("YOUTUBE_API_KEY", default="")
YOUTUBE_API_BASE_URL = env.str(
    "YOUTUBE_API_BASE_URL", default="https://www.googleapis.com/youtube/v3"
).rstrip("/")
YOUTUBE_TIMEOUT_S = env.float("YOUTUBE_TIMEOUT_S", default=5.0)

# Webhooks (webhooks app) ------------------------------------------------------------------------
# Private, loopback and link-local destinations are refused unless this is on: local development
# and tests only, never in production.
WEBHOOK_ALLOW_PRIVATE_NETWORKS = env.bool("WEBHOOK_ALLOW_PRIVATE_NETWORKS", default=False)
# Limit on the whole exchange with a receiver: name lookup, connect, TLS, send, wait, read.
WEBHOOK_TIMEOUT_SECONDS = env.float("WEBHOOK_TIMEOUT_SECONDS", default=10)
# Attempts per event, the first included; with the backoff below they span about an hour.
WEBHOOK_MAX_ATTEMPTS = env.int("WEBHOOK_MAX_ATTEMPTS", default=6)
# Attempts under way at once for one account (webhooks.slots): one account's slow or silent
# receivers take at most this many of the webhooks workers' processes (WEBHOOK_CONCURRENCY each).
WEBHOOK_ACCOUNT_CONCURRENCY = env.int("WEBHOOK_ACCOUNT_CONCURRENCY", default=4)
# Wait before the second attempt; it doubles for every later one (2, 4, 8, 16, 32 min), +-20% jitter.
WEBHOOK_RETRY_BASE_SECONDS = env.float("WEBHOOK_RETRY_BASE_SECONDS", default=120)
# How often beat looks for events whose delivery was lost (Redis or a worker died): an attempt whose
# worker died is made again at the next sweep after its lease (45 s): about a minute after it started.
WEBHOOK_SWEEP_INTERVAL_SECONDS = env.float("WEBHOOK_SWEEP_INTERVAL_SECONDS", default=15)
CELERY_BEAT_SCHEDULE["webhooks-sweep"] = {
    "task": "webhooks.tasks.sweep_events",
    "schedule": WEBHOOK_SWEEP_INTERVAL_SECONDS,
}

# --- Rate limits (core/ratelimit.py) ------------------------------------------------------------
# Requests per API key, per endpoint, in any sliding 60 seconds; requests without a valid key count
# per client address with the same numbers. A plan can override each in admin.
RATE_LIMIT_CREATE = env.int("RATE_LIMIT_CREATE", default=30)
RATE_LIMIT_EXPORT = env.int("RATE_LIMIT_EXPORT", default=30)
RATE_LIMIT_POLL = env.int("RATE_LIMIT_POLL", default=120)
# Reading a course, its versions and what is computed from it (its quality report); editing its
# content.
RATE_LIMIT_READ = env.int("RATE_LIMIT_READ", default=120)
RATE_LIMIT_EDIT = env.int("RATE_LIMIT_EDIT", default=60)
RATE_LIMIT_SOURCES = env.int("RATE_LIMIT_SOURCES", default=30)
# Adding and erasing a course's learners (personal links); reading its learner results.
RATE_LIMIT_LEARNERS = env.int("RATE_LIMIT_LEARNERS", default=300)
RATE_LIMIT_RESULTS = env.int("RATE_LIMIT_RESULTS", default=60)
# Start of the limiter's Redis keys, so deployments sharing a Redis database keep apart.
RATE_LIMIT_KEY_PREFIX = env.str("RATE_LIMIT_KEY_PREFIX", default="ratelimit")

# --- Sources (sources app): documents clients upload or point at ---------------------------------
# Largest file accepted, uploaded or fetched (bytes); an upload beyond it is refused with 413.
SOURCE_MAX_BYTES = env.int("SOURCE_MAX_BYTES", default=25 * 1024 * 1024)
# Pages (PDF, DOCX) or slides (PPTX) read at most; a longer document fails with SOURCE_TOO_LARGE.
SOURCE_MAX_PAGES = env.int("SOURCE_MAX_PAGES", default=500)
# Each document is read in a child process with these limits (wall clock and CPU time; address space).
SOURCE_EXTRACTION_TIMEOUT_S = env.int("SOURCE_EXTRACTION_TIMEOUT_S", default=60)
SOURCE_EXTRACTION_MEMORY_MB = env.int("SOURCE_EXTRACTION_MEMORY_MB", default=1024)
# That child runs in a sandbox (bubblewrap: no network, no other process, a read-only view of what it
# loads). Where the kernel forbids one, `required` leaves documents unread (pending) rather than read
# them unconfined, as `optional` does.
SOURCE_SANDBOX = env.str("SOURCE_SANDBOX", default="optional" if DEBUG else "required")
if SOURCE_SANDBOX not in ("required", "optional"):
    raise ImproperlyConfigured(f"SOURCE_SANDBOX is {SOURCE_SANDBOX!r}; it takes `required` or `optional`.")
# Limit on fetching a web source: the whole exchange, redirects included.
SOURCE_FETCH_TIMEOUT_S = env.float("SOURCE_FETCH_TIMEOUT_S", default=20)
CELERY_BEAT_SCHEDULE["sources-recover"] = {"task": "sources.tasks.recover_sources", "schedule": RECOVERY_INTERVAL_S}

# --- Preview page (/go/<course_id>) ---------------------------------------------------------------
# Courses are customer content: search engines are asked not to index their pages unless this is on.
PREVIEW_ALLOW_INDEXING = env.bool("PREVIEW_ALLOW_INDEXING", default=False)
# Agreement sign-offs accepted per client IP, as a django-ratelimit rate (fixed window).
PREVIEW_SIGNOFF_RATE = env.str("PREVIEW_SIGNOFF_RATE", default="10/m")
# Progress the page sends, per learner in any 60 seconds (it sends every 15 s, and on each page); of
# it, quiz attempts (each one is an event for the client's receiver); and first views that make a new
# learner, per client address in any 60 seconds.
PREVIEW_PROGRESS_LIMIT = env.int("PREVIEW_PROGRESS_LIMIT", default=60)
PREVIEW_QUIZ_ATTEMPTS_LIMIT = env.int("PREVIEW_QUIZ_ATTEMPTS_LIMIT", default=10)
PREVIEW_NEW_LEARNERS_LIMIT = env.int("PREVIEW_NEW_LEARNERS_LIMIT", default=60)
# Learner records (results, quiz attempts, sign-offs, their events) untouched for this many days are
# deleted by a daily task.
LEARNER_DATA_RETENTION_DAYS = env.int("LEARNER_DATA_RETENTION_DAYS", default=730)
CELERY_BEAT_SCHEDULE["learners-purge-expired"] = {"task": "learners.tasks.purge_expired", "schedule": 24 * 3600.0}
CELERY_BEAT_SCHEDULE["learners-sweep-events"] = {"task": "learners.tasks.sweep_events", "schedule": 60.0}
# The service's own words in every course language but English, the language of the code: one gettext
# catalogue each (courses/phrases.py; make messages compiles them, and the .mo files are committed).
LOCALE_PATHS = [BASE_DIR / "locale"]
# One strict Content-Security-Policy for every HTML response (django-csp): no inline script or
# style, nothing from elsewhere but privacy-enhanced YouTube embeds.
CONTENT_SECURITY_POLICY = {
    "DIRECTIVES": {
        "default-src": ["'self'"],
        "script-src": ["'self'"],
        "style-src": ["'self'"],
        "img-src": ["'self'", "data:"],
        "frame-src": ["https://www.youtube-nocookie.com"],
        "object-src": ["'none'"],
        "base-uri": ["'none'"],
        "form-action": ["'self'"],
        "frame-ancestors": ["'none'"],
    },
}

# --- API documents ----------------------------------------------------------------------------------
# OpenAPI 3.1 at /api/v1/openapi.json and interactive docs at /docs/, generated from the code.
INSTALLED_APPS += ["drf_spectacular", "drf_spectacular_sidecar"]
REST_FRAMEWORK["DEFAULT_SCHEMA_CLASS"] = "drf_spectacular.openapi.AutoSchema"
SPECTACULAR_SETTINGS = {
    "TITLE": "Course Generation API",
    "DESCRIPTION": (
        "Submit a subject (and your own documents, which every part of the course then cites), get a "
        "complete learning course generated in the background; poll the job or receive a webhook; share "
        "the public preview page; export SCORM for any LMS."
    ),
    # The document's version (not the API's, which is /api/v1): its major number grows with each change
    # that breaks a client written for the one before (2.0.0: the course document's keys in camelCase,
    # its schema version 3), its minor number with each addition a generated client needs to be made
    # again for (a new operation, field or enum value), its patch number with any other change.
    "VERSION": "2.3.0",
    "OAS_VERSION": "3.1.0",
    "SERVE_INCLUDE_SCHEMA": False,
    "SCHEMA_PATH_PREFIX": "/api/v1",
    "COMPONENT_SPLIT_REQUEST": True,
    "ENUM_NAME_OVERRIDES": {
        "JobStatusEnum": "courses.models.GenerationJob.Status",
        "CourseFormatEnum": "courses.models.Format",
        "ExportFormatEnum": "exports.models.Export.ExportFormat",
        "SourceStatusEnum": "sources.models.Source.Status",
        "SourceMediaTypeEnum": "sources.extraction.sniff.MEDIA_TYPES",
        "ErrorCodeEnum": "api.openapi.ERROR_CODES",
        "JobErrorCodeEnum": "courses.generation.errors.FAILURE_CODES",
        "SourceErrorCodeEnum": "sources.failures.CODES",
        "VersionSourceEnum": "courses.models.CourseVersion.Source",
        "RegenerationTargetEnum": "courses.models.Part",
        "QualityRuleEnum": "courses.quality.rules.RULES",
        "QualitySeverityEnum": "courses.quality.rules.SEVERITIES",
        "QualityFindingPartEnum": "courses.serializers.QUALITY_PARTS",
        "ReadabilityFormulaEnum": "courses.serializers.READABILITY_FORMULAS",
        "ReadabilityBandEnum": "courses.serializers.READABILITY_BANDS",
    },
    # Each app describes its own events and what its operations say beyond their views (schemas.py);
    # api.openapi adds what every operation shares, last.
    "WEBHOOKS": [
        "courses.schemas.COURSE_CREATED",
        "courses.schemas.COURSE_FAILED",
        "courses.schemas.COURSE_UPDATED",
        "courses.schemas.COURSE_DELETED",
        "exports.schemas.COURSE_EXPORTED",
        "sources.schemas.SOURCE_READY",
        "sources.schemas.SOURCE_FAILED",
        "learners.schemas.LEARNER_STARTED",
        "learners.schemas.LEARNER_FAILED",
        "learners.schemas.LEARNER_PASSED",
        "learners.schemas.LEARNER_COMPLETED",
        "learners.schemas.LEARNER_SIGNED",
    ],
    "POSTPROCESSING_HOOKS": [
        "drf_spectacular.hooks.postprocess_schema_enums",
        "courses.schemas.postprocess",
        "exports.schemas.postprocess",
        "sources.schemas.postprocess",
        "learners.schemas.postprocess",
        "api.openapi.postprocess",
    ],
    "SWAGGER_UI_DIST": "SIDECAR",
    "SWAGGER_UI_FAVICON_HREF": "SIDECAR",
    # Relative: the service that serves the document. Generated clients take the address as a setting
    # instead of carrying one instance's.
    "SERVERS": [{"url": "/", "description": "The service that serves this document."}],
    "CONTACT": {"name": "Course Generation API support", "url": f"{PUBLIC_BASE_URL}/docs/"},
    "LICENSE": {"name": "Proprietary: use under your agreement with the service", "identifier": "LicenseRef-Proprietary"},
}

# --- Error tracking (core/error_tracking.py) ------------------------------------------------------
# With a DSN, every process (web, workers, beat) sends its unhandled errors to Sentry, or any server
# that takes its events, redacted as the logs are (docs/run/operations.md). Started here, once per
# process: Celery's processes read these settings too, so its integration needs no start of its own.
SENTRY_DSN = env.str("SENTRY_DSN", default="")
SENTRY_ENVIRONMENT = env.str("SENTRY_ENVIRONMENT", default="")
SENTRY_TRACES_SAMPLE_RATE = env.float("SENTRY_TRACES_SAMPLE_RATE", default=0.0)

from core import error_tracking  # noqa: E402 (it reads the secrets above)

error_tracking.start(
    dsn=SENTRY_DSN,
    environment=SENTRY_ENVIRONMENT,
    traces_sample_rate=SENTRY_TRACES_SAMPLE_RATE,
    secrets=[SECRET_KEY, OPENAI_API_KEY, YOUTUBE_API_KEY],
)
