"""The container image and the deployment behind Caddy (Dockerfile, deploy/, docs/deploy.md).

The files are checked everywhere: the image installs the web extra only, runs as a user without
rights with a health check on ``/healthz`` and its SQLite file in a volume, and its command serves on
every address with the public URL of its environment; Caddy's configuration is valid (``caddy
validate``, where Caddy is installed: ``apt-get install caddy``) and compose.yaml trusts the proxy's
network.  Where a container engine answers (``docker info``), the image is built and run, and the test
waits for its health check and asks for the page and the options; where none does, that test is skipped
and says why.
"""

from __future__ import annotations

import json
import os
import re
import shlex
import shutil
import socket
import subprocess
import time
import urllib.parse
import urllib.request
import uuid
from pathlib import Path
from typing import Any

import pytest

from unokit.cli import build_parser
from unokit.web.storage import is_postgres

ROOT = Path(__file__).resolve().parent.parent
DOCKERFILE = (ROOT / "Dockerfile").read_text(encoding="utf-8")
CADDYFILE = ROOT / "deploy" / "Caddyfile"
COMPOSE = (ROOT / "deploy" / "compose.yaml").read_text(encoding="utf-8")
CLUSTER_CADDYFILE = ROOT / "deploy" / "Caddyfile.cluster"
CLUSTER_COMPOSE = (ROOT / "deploy" / "compose.cluster.yaml").read_text(encoding="utf-8")


def instructions(dockerfile: str) -> list[tuple[str, str]]:
    """The Dockerfile's instructions (keyword, arguments), continuation lines joined, comments left out."""
    text = re.sub(
        r"\\\n", " ", "\n".join(line for line in dockerfile.splitlines() if not line.lstrip().startswith("#"))
    )
    found = []
    for line in text.splitlines():
        if line.strip():
            keyword, _, rest = line.strip().partition(" ")
            found.append((keyword.upper(), rest.strip()))
    return found


def exec_form(arguments: str) -> list[str]:
    form = json.loads(arguments)
    assert isinstance(form, list) and all(isinstance(part, str) for part in form), arguments
    return form


# ---------------------------------------------------------------- the files


def test_the_image_is_slim_and_installs_the_web_extra_only() -> None:
    steps = instructions(DOCKERFILE)
    bases = [rest for keyword, rest in steps if keyword == "FROM"]
    assert len(bases) == 1 and re.fullmatch(r"python:3\.1[1-9]-slim", bases[0]), bases
    installs = [rest for keyword, rest in steps if keyword == "RUN" and "pip install" in rest]
    assert len(installs) == 1, installs
    commands = [part.strip() for part in installs[0].split("&&")]
    pip = [shlex.split(command) for command in commands if command.startswith("pip install")]
    assert len(pip) == 1
    targets = [argument for argument in pip[0][2:] if not argument.startswith("-")]
    assert targets == [".[${UNOKIT_EXTRAS}]"], "the extras named, nothing else (no tests, no tools)"
    assert ("ARG", "UNOKIT_EXTRAS=web") in steps, "the web extra alone by default"
    copied = [rest for keyword, rest in steps if keyword == "COPY"]
    assert all(not re.search(r"\btests\b|\bbench\b|^\.\s", rest) for rest in copied), copied


def test_the_image_runs_as_a_user_without_rights_with_its_data_in_a_volume() -> None:
    steps = instructions(DOCKERFILE)
    users = [rest for keyword, rest in steps if keyword == "USER"]
    assert users and users[-1] not in ("root", "0") and not users[-1].startswith(("root:", "0:")), users
    assert steps.index(("USER", users[-1])) > max(i for i, (keyword, _) in enumerate(steps) if keyword == "RUN")
    assert ("VOLUME", "/data") in steps
    command = exec_form(next(rest for keyword, rest in steps if keyword == "CMD"))
    assert "--db /data/" in command[-1]


def test_the_health_check_asks_healthz_with_pythons_urllib() -> None:
    steps = instructions(DOCKERFILE)
    checks = [rest for keyword, rest in steps if keyword == "HEALTHCHECK"]
    assert len(checks) == 1
    options, _, command = checks[0].partition("CMD")
    assert re.search(r"--interval=\d+s", options) and re.search(r"--timeout=\d+s", options)
    argv = exec_form(command.strip())
    assert argv[:2] == ["python", "-c"] and "urllib.request" in argv[2] and "/healthz" in argv[2]
    assert not any(tool in checks[0] for tool in ("curl", "wget"))


def run_image_command(tmp_path: Path, **environment: str) -> list[str]:
    """The arguments the image's command passes to ``unokit`` (run by the system's ``sh`` with a
    ``unokit`` that prints them) in ``environment``."""
    argv = exec_form(next(rest for keyword, rest in instructions(DOCKERFILE) if keyword == "CMD"))
    assert argv[:2] == ["sh", "-c"]
    printer = tmp_path / "unokit"
    printer.write_text('#!/bin/sh\nfor a in "$@"; do printf "%s\\n" "$a"; done\n')
    printer.chmod(0o755)
    env = {"PATH": f"{tmp_path}:{os.environ['PATH']}", "UNOKIT_PUBLIC_URL": "", "UNOKIT_TRUSTED_PROXY": ""}
    done = subprocess.run(["sh", "-c", argv[2]], env={**env, **environment}, capture_output=True, text=True, check=True)
    return done.stdout.splitlines()


def test_the_images_command_serves_everywhere_with_the_public_url_when_set(tmp_path: Path) -> None:
    bare = run_image_command(tmp_path)
    assert bare == ["serve", "--host", "0.0.0.0", "--port", "8000", "--db", "/data/unokit.sqlite3"]
    behind = run_image_command(tmp_path, UNOKIT_PUBLIC_URL="https://uno.example", UNOKIT_TRUSTED_PROXY="172.30.77.0/24")
    assert behind == [*bare, "--public-url", "https://uno.example", "--trusted-proxy", "172.30.77.0/24"]
    spaced = run_image_command(tmp_path, UNOKIT_PUBLIC_URL="https://uno.example/ x")
    assert spaced[-2:] == ["--public-url", "https://uno.example/ x"], "one argument, refused by unokit itself"


def test_the_build_sees_only_the_package() -> None:
    ignored = [line.strip() for line in (ROOT / ".dockerignore").read_text().splitlines()]
    rules = [line for line in ignored if line and not line.startswith("#")]
    assert rules[0] == "*", "everything left out but what is named"
    assert {"!pyproject.toml", "!README.md", "!src/"} <= set(rules)
    assert not any(rule.startswith("!") and re.search(r"tests|node_modules|\.venv|bench", rule) for rule in rules)


def test_compose_publishes_caddy_alone_and_trusts_its_network() -> None:
    services = re.search(r"^services:\n(.*?)^\S", COMPOSE, re.S | re.M)
    assert services is not None
    blocks = dict(re.findall(r"^  (\w+):\n((?:    .*\n|\n)*)", services.group(1), re.M))
    assert set(blocks) == {"unokit", "caddy"}
    unokit, caddy = blocks["unokit"], blocks["caddy"]
    assert "ports:" not in unokit, "only Caddy is reached from outside"
    assert re.search(r'"443:443"', caddy) and re.search(r'"80:80"', caddy), "HTTPS, and HTTP for the certificate"
    assert "./Caddyfile:/etc/caddy/Caddyfile" in caddy
    assert re.search(r"UNOKIT_PUBLIC_URL: https://\$\{UNOKIT_DOMAIN", unokit)
    trusted = re.search(r"UNOKIT_TRUSTED_PROXY: (\S+)", unokit)
    subnet = re.search(r"- subnet: (\S+)", COMPOSE)
    assert trusted and subnet and trusted.group(1) == subnet.group(1), "the proxy's network is the one trusted"
    assert re.search(r"condition: service_healthy", caddy), "Caddy waits for the health check"
    assert re.search(r"- unokit-data:/data", unokit), "the rooms outlive the container"


def caddy_config(caddyfile: Path, **environment: str) -> dict[str, Any]:
    """``caddyfile`` validated (``caddy validate``) and adapted to Caddy's JSON in ``environment``;
    the test is skipped, saying so, where Caddy is not installed."""
    caddy = shutil.which("caddy")
    if caddy is None:
        pytest.skip(f"caddy is not installed (apt-get install caddy): {caddyfile.name} was not validated by Caddy")
    env = {**os.environ, **environment, "HOME": str(ROOT / "test-artifacts" / "caddy-home")}
    checked = subprocess.run(
        [caddy, "validate", "--config", str(caddyfile), "--adapter", "caddyfile"],
        env=env,
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    assert checked.returncode == 0 and "Valid configuration" in checked.stdout + checked.stderr, checked.stderr
    adapted = subprocess.run(
        [caddy, "adapt", "--config", str(caddyfile), "--adapter", "caddyfile"],
        env=env,
        capture_output=True,
        text=True,
        timeout=60,
        check=True,
    )
    config: dict[str, Any] = json.loads(adapted.stdout)
    return config


def test_the_caddyfile_proxies_the_domain_with_https() -> None:
    text = CADDYFILE.read_text(encoding="utf-8")
    assert re.search(r"^\{\$UNOKIT_DOMAIN\} \{\n\treverse_proxy unokit:8000\n\}", text, re.M)
    assert "encode" not in re.sub(r"#.*", "", text), "the JSON API is never compressed"
    config = caddy_config(CADDYFILE, UNOKIT_DOMAIN="uno.example")
    server = next(iter(config["apps"]["http"]["servers"].values()))
    assert server["listen"] == [":443"], "served with HTTPS (Caddy redirects HTTP to it)"
    route = server["routes"][0]
    assert route["match"] == [{"host": ["uno.example"]}]
    handlers = json.dumps(route["handle"])
    assert '"handler": "reverse_proxy"' in handlers and '"dial": "unokit:8000"' in handlers
    assert "automatic_https" not in json.dumps(server), "automatic HTTPS left on"


# ---------------------------------------------------------------- several processes


def compose_services(text: str) -> dict[str, str]:
    """A compose file's services: name to its block of lines."""
    services = re.search(r"^services:\n(.*?)^\S", text, re.S | re.M)
    assert services is not None
    return dict(re.findall(r"^  (\w+):\n((?:    .*\n|\n)*)", services.group(1), re.M))


def interpolated(text: str, **environment: str) -> str:
    """``text`` with compose's ``${NAME}``, ``${NAME:-default}`` and ``${NAME:?error}`` replaced from
    ``environment`` (an unset ``:?`` variable fails, as compose does)."""

    def value(found: re.Match[str]) -> str:
        name, kind, rest = found.group(1), found.group(2) or "", found.group(3) or ""
        if name in environment:
            return environment[name]
        assert kind != ":?", f"compose refuses to start without {name}: {rest}"
        return rest

    return re.sub(r"\$\{(\w+)(:-|:\?)?([^}]*)\}", value, text)


def test_the_cluster_compose_runs_workers_on_postgresql_and_redis_behind_caddy_alone() -> None:
    blocks = compose_services(CLUSTER_COMPOSE)
    assert set(blocks) == {"postgres", "redis", "unokit", "caddy"}
    assert all("ports:" not in blocks[name] for name in ("postgres", "redis", "unokit")), "only Caddy is reached"
    caddy, unokit = blocks["caddy"], blocks["unokit"]
    assert re.search(r'"443:443"', caddy) and re.search(r'"80:80"', caddy)
    assert "./Caddyfile.cluster:/etc/caddy/Caddyfile" in caddy
    assert re.search(r"UNOKIT_UPSTREAMS: \$\{UNOKIT_UPSTREAMS:-unokit:8000\}", caddy)
    assert re.search(r"unokit:\n\s+condition: service_healthy", caddy), "Caddy waits for the game's health check"
    for service in ("postgres", "redis"):
        assert "healthcheck:" in blocks[service]
        assert re.search(rf"{service}:\n\s+condition: service_healthy", unokit), f"the game waits for {service}"
        assert re.search(r"networks:\n\s+- backend\n", blocks[service]), f"{service} is on the internal network"
    assert re.search(r"^  backend:\n    internal: true", CLUSTER_COMPOSE, re.M), "nothing outside reaches the data"
    assert re.search(r"- postgres-data:/var/lib/postgresql/data", blocks["postgres"]), "the rooms outlive it"
    assert re.search(r"UNOKIT_EXTRAS: web,cluster", unokit), "the image with PostgreSQL's and Redis's clients"
    password = re.search(r"PGPASSWORD: \$\{UNOKIT_DB_PASSWORD:\?", unokit)
    assert password and "POSTGRES_PASSWORD: ${UNOKIT_DB_PASSWORD:?" in blocks["postgres"]


def test_the_cluster_composes_command_is_one_unokit_accepts() -> None:
    """The game's command, with the variables compose fills in, parsed by ``unokit serve`` itself."""
    unokit = compose_services(CLUSTER_COMPOSE)["unokit"]
    folded = re.search(r"command: >-\n((?:      .*\n)+)", unokit)
    assert folded is not None
    command = " ".join(line.strip() for line in folded.group(1).splitlines())
    with pytest.raises(AssertionError, match="UNOKIT_DOMAIN"):
        interpolated(command)
    argv = shlex.split(interpolated(command, UNOKIT_DOMAIN="uno.example"))
    assert argv[:2] == ["unokit", "serve"]
    args = build_parser().parse_args(argv[1:])
    assert args.workers == 4 and (args.host, args.port) == ("0.0.0.0", 8000)
    assert is_postgres(args.db) and "@postgres:5432/" in args.db
    assert urllib.parse.urlsplit(args.db).password is None, "the password comes from PGPASSWORD, not the command"
    assert args.redis == "redis://redis:6379/0"
    assert args.public_url == "https://uno.example"
    subnet = re.search(r"- subnet: (\S+)", CLUSTER_COMPOSE)
    assert subnet and args.trusted_proxy == [subnet.group(1)], "the proxy's network is the one trusted"
    assert args.allowed_host == ["unokit:8000"], "Caddy's health checks ask by the service's name"
    workers = shlex.split(interpolated(command, UNOKIT_DOMAIN="uno.example", UNOKIT_WORKERS="8"))
    assert build_parser().parse_args(workers[1:]).workers == 8


def test_the_cluster_caddyfile_spreads_over_the_upstreams_with_health_checks() -> None:
    text = CLUSTER_CADDYFILE.read_text(encoding="utf-8")
    assert "encode" not in re.sub(r"#.*", "", text), "the JSON API is never compressed"
    assert not re.search(r"lb_policy (cookie|ip_hash|client_ip_hash|header)", text), "no sticky sessions"
    for upstreams, dials in (
        (None, ["unokit:8000"]),
        ("10.0.0.11:8000 10.0.0.12:8000", ["10.0.0.11:8000", "10.0.0.12:8000"]),
    ):
        environment = {"UNOKIT_DOMAIN": "uno.example"} | ({"UNOKIT_UPSTREAMS": upstreams} if upstreams else {})
        config = caddy_config(CLUSTER_CADDYFILE, **environment)
        server = next(iter(config["apps"]["http"]["servers"].values()))
        assert server["listen"] == [":443"], "served with HTTPS"
        route = server["routes"][0]
        assert route["match"] == [{"host": ["uno.example"]}]
        proxy = next(h for h in route["handle"][0]["routes"][0]["handle"] if h["handler"] == "reverse_proxy")
        assert [upstream["dial"] for upstream in proxy["upstreams"]] == dials
        assert proxy["load_balancing"]["selection_policy"] == {"policy": "least_conn"}
        assert proxy["load_balancing"]["try_duration"] > 0, "a server that refuses is passed over"
        assert proxy["health_checks"]["active"]["uri"] == "/healthz"


# ---------------------------------------------------------------- the image, built and run


def engine_answers() -> str | None:
    """None when a container engine answers ``docker info``, else why not."""
    docker = shutil.which("docker")
    if docker is None:
        return "no docker command"
    try:
        info = subprocess.run([docker, "info"], capture_output=True, text=True, timeout=30, check=False)
    except subprocess.TimeoutExpired:
        return "docker info did not answer within 30 s"
    if info.returncode != 0:
        reason = (info.stderr or info.stdout).strip().splitlines()
        return f"docker info failed: {reason[-1] if reason else info.returncode}"
    return None


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def test_the_image_builds_runs_as_no_root_and_serves_the_game() -> None:
    missing = engine_answers()
    if missing is not None:
        pytest.skip(f"no container engine answers, the image was not built or run ({missing})")
    tag = f"unokit-test:{uuid.uuid4().hex[:8]}"
    name = f"unokit-test-{uuid.uuid4().hex[:8]}"
    port = free_port()
    public_url = f"UNOKIT_PUBLIC_URL=http://127.0.0.1:{port}"  # the port published: the address opened
    subprocess.run(["docker", "build", "-t", tag, str(ROOT)], check=True, timeout=900, capture_output=True)
    try:
        subprocess.run(
            ["docker", "run", "-d", "--name", name, "-p", f"127.0.0.1:{port}:8000", "-e", public_url, tag],
            check=True,
            timeout=60,
            capture_output=True,
        )
        deadline = time.monotonic() + 120
        status = ""
        while time.monotonic() < deadline:
            inspected = subprocess.run(
                ["docker", "inspect", "--format", "{{.State.Health.Status}}", name],
                capture_output=True,
                text=True,
                check=True,
            )
            status = inspected.stdout.strip()
            if status == "healthy":
                break
            assert status in ("starting", ""), f"the container is {status}"
            time.sleep(1)
        assert status == "healthy", "the health check never passed"
        user = subprocess.run(["docker", "exec", name, "id", "-u"], capture_output=True, text=True, check=True)
        assert user.stdout.strip() not in ("", "0"), "runs as a user without rights"
        with urllib.request.urlopen(f"http://127.0.0.1:{port}/", timeout=10) as response:
            assert response.status == 200 and b"<!doctype html>" in response.read()
        with urllib.request.urlopen(f"http://127.0.0.1:{port}/api/options", timeout=10) as response:
            assert "classic" in json.loads(response.read())["editions"]
        with urllib.request.urlopen(f"http://127.0.0.1:{port}/api/site", timeout=10) as response:
            assert json.loads(response.read())["base"] == f"http://127.0.0.1:{port}"
    finally:
        subprocess.run(["docker", "rm", "-f", name], capture_output=True, check=False)
        subprocess.run(["docker", "rmi", "-f", tag], capture_output=True, check=False)
