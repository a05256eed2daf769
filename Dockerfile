# The service on Debian bookworm (its Python 3.11 in a virtual environment), built from the same
# package lists as bin/setup: debian-packages.txt for Debian, requirements.txt for Python.
#   docker build -t redactor .                      # Python packages from the package index
#   bin/wheelhouse && docker build -t redactor .    # or from ./wheelhouse only (air-gapped builds)
# The default pipeline needs no model; the non-commercial cs_core_news_sm (requirements-nc.txt) is
# not installed. bin/docker-smoke builds and runs it end to end.

# Build stage: the virtual environment, compiled translations and static files.
FROM debian:bookworm-slim AS build
ARG DEBIAN_FRONTEND=noninteractive
COPY debian-packages.txt /tmp/
RUN apt-get update \
    && apt-get install -y --no-install-recommends \
       $(awk '!/^#/ && ($2 == "python" || $2 == "run" || $2 == "build") {print $1}' /tmp/debian-packages.txt) \
    && rm -rf /var/lib/apt/lists/*
RUN python3 -m venv /opt/venv
COPY requirements.txt constraints.txt /src/
# wheelhouse/ holds wheels when bin/wheelhouse made them (else only its README): then nothing is
# fetched from the package index
COPY wheelhouse/ /wheels/
RUN if ls /wheels/*.whl >/dev/null 2>&1; then \
      /opt/venv/bin/pip install --no-cache-dir --no-index --find-links /wheels -r /src/requirements.txt -c /src/constraints.txt; \
    else \
      /opt/venv/bin/pip install --no-cache-dir -r /src/requirements.txt -c /src/constraints.txt; \
    fi
WORKDIR /app
COPY . .
RUN rm -rf wheelhouse \
    && DEBUG=0 SECRET_KEY=build-only /opt/venv/bin/python manage.py compilemessages --ignore=tests >/dev/null \
    && DEBUG=0 SECRET_KEY=build-only STATIC_ROOT=/app/staticfiles /opt/venv/bin/python manage.py collectstatic --no-input >/dev/null

# Runtime stage: no compilers, a non-root user, nothing downloaded at start-up.
FROM debian:bookworm-slim
ARG DEBIAN_FRONTEND=noninteractive
COPY debian-packages.txt /tmp/
RUN apt-get update \
    && apt-get install -y --no-install-recommends \
       $(awk '!/^#/ && ($2 == "python" || $2 == "run") {print $1}' /tmp/debian-packages.txt) \
    && rm -rf /var/lib/apt/lists/* \
    && useradd --system --create-home --home-dir /home/redactor redactor \
    && mkdir -p /var/lib/redactor && chown redactor /var/lib/redactor
ENV PATH=/opt/venv/bin:$PATH DEBUG=0 PYTHONDONTWRITEBYTECODE=1 PYTHONUNBUFFERED=1 \
    DJANGO_SETTINGS_MODULE=config.settings VAR_DIR=/var/lib/redactor STATIC_ROOT=/app/staticfiles
COPY --from=build /opt/venv /opt/venv
COPY --from=build --chown=redactor /app /app
WORKDIR /app
USER redactor
# nginx listens on 0.0.0.0:$PORT in front of gunicorn (bin/serve); the health check asks the same port
ENV PORT=8000 HOST=0.0.0.0 RUN_DIR=/tmp/redactor-run
EXPOSE 8000
HEALTHCHECK --interval=30s --timeout=5s --start-period=20s CMD curl -fsS "http://127.0.0.1:${PORT}/healthz" || exit 1
# web (default); the workers run the same image with: python manage.py rqworker default low / rqworker ocr default,
# and one cron scheduler with: python manage.py rqcron config.cron
CMD ["bin/serve"]
