# syntax=docker/dockerfile:1
# Build stage: wheels for every pinned dependency (the Czech spaCy model is a PyPI package).
FROM python:3.11-slim-bookworm AS build
RUN apt-get update && apt-get install -y --no-install-recommends build-essential libpoppler-cpp-dev && rm -rf /var/lib/apt/lists/*
WORKDIR /src
COPY requirements.txt constraints.txt ./
RUN pip wheel --no-cache-dir --wheel-dir /wheels -r requirements.txt -c constraints.txt

# Runtime stage: no compilers, a non-root user, nothing downloaded at start-up.
FROM python:3.11-slim-bookworm
ENV DEBUG=0 PYTHONDONTWRITEBYTECODE=1 PYTHONUNBUFFERED=1 DJANGO_SETTINGS_MODULE=config.settings \
    VAR_DIR=/var/lib/redactor
RUN apt-get update && apt-get install -y --no-install-recommends libpoppler-cpp0v5 poppler-utils gettext curl tesseract-ocr tesseract-ocr-ces && rm -rf /var/lib/apt/lists/* \
    && useradd --system --create-home --home-dir /home/redactor redactor \
    && mkdir -p /var/lib/redactor && chown redactor /var/lib/redactor
COPY --from=build /wheels /wheels
RUN pip install --no-cache-dir /wheels/* && rm -rf /wheels
WORKDIR /app
COPY --chown=redactor . .
RUN DEBUG=0 SECRET_KEY=build-only python manage.py collectstatic --no-input >/dev/null \
    && DEBUG=0 SECRET_KEY=build-only python manage.py compilemessages >/dev/null
USER redactor
EXPOSE 8000
HEALTHCHECK --interval=30s --timeout=5s --start-period=20s CMD curl -fsS http://127.0.0.1:8000/healthz || exit 1
# web (default); the workers run the same image with: python manage.py rqworker default / rqworker ocr default,
# and one cron scheduler with: python manage.py rqcron contracts.cron
CMD ["gunicorn", "config.wsgi", "--bind", "0.0.0.0:8000", "--workers", "2", "--timeout", "120"]
