# The web game in a container: Python's slim image with the web extra only, served by a user without
# rights, its SQLite file in the volume /data.  docs/deploy.md: on a local network, and on a server
# behind Caddy with HTTPS (deploy/compose.yaml).
#
#   docker build -t unokit .
#   docker run -d -p 8000:8000 -v unokit-data:/data -e UNOKIT_PUBLIC_URL=http://192.168.1.20:8000 unokit
#
# UNOKIT_PUBLIC_URL: the address people open (the links the page shows use it; behind a proxy, its
# https:// address). UNOKIT_TRUSTED_PROXY: the reverse proxy's address or network, whose
# X-Forwarded-For and X-Forwarded-Proto are believed.
FROM python:3.12-slim

ENV PYTHONDONTWRITEBYTECODE=1 \
    PYTHONUNBUFFERED=1 \
    PIP_NO_CACHE_DIR=1 \
    PIP_DISABLE_PIP_VERSION_CHECK=1

# The extras installed: the web extra alone by default; web,cluster for several server processes with
# PostgreSQL and Redis (deploy/compose.cluster.yaml).
ARG UNOKIT_EXTRAS=web

WORKDIR /build
COPY pyproject.toml README.md ./
COPY src ./src
RUN pip install --no-compile ".[${UNOKIT_EXTRAS}]" \
    && rm -rf /build \
    && useradd --system --uid 10001 --user-group --home-dir /data --shell /usr/sbin/nologin unokit \
    && mkdir -p /data \
    && chown unokit:unokit /data

USER unokit
WORKDIR /data
VOLUME /data
EXPOSE 8000
ENV UNOKIT_PUBLIC_URL="" \
    UNOKIT_TRUSTED_PROXY=""

HEALTHCHECK --interval=30s --timeout=5s --start-period=15s --retries=3 \
    CMD ["python", "-c", "import sys, urllib.request; sys.exit(urllib.request.urlopen('http://127.0.0.1:8000/healthz', timeout=4).status != 200)"]

CMD ["sh", "-c", "exec unokit serve --host 0.0.0.0 --port 8000 --db /data/unokit.sqlite3 ${UNOKIT_PUBLIC_URL:+--public-url \"$UNOKIT_PUBLIC_URL\"} ${UNOKIT_TRUSTED_PROXY:+--trusted-proxy \"$UNOKIT_TRUSTED_PROXY\"}"]
