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
import urllib.request
import uuid
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
DOCKERFILE = (ROOT / "Dockerfile").read_text(encoding="utf-8")
CADDYFILE = ROOT / "deploy" / "Caddyfile"
COMPOSE = (ROOT / "deploy" / "compose.yaml").read_text(encoding="utf-8")


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
    assert targets == [".[web]"], "the web extra, nothing else (no tests, no tools)"
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


def test_the_caddyfile_proxies_the_domain_with_https() -> None:
    text = CADDYFILE.read_text(encoding="utf-8")
    assert re.search(r"^\{\$UNOKIT_DOMAIN\} \{\n\treverse_proxy unokit:8000\n\}", text, re.M)
    assert "encode" not in re.sub(r"#.*", "", text), "the JSON API is never compressed"
    caddy = shutil.which("caddy")
    if caddy is None:
        pytest.skip("caddy is not installed (apt-get install caddy): the Caddyfile was not validated by Caddy")
    env = {**os.environ, "UNOKIT_DOMAIN": "uno.example", "HOME": str(ROOT / "test-artifacts" / "caddy-home")}
    checked = subprocess.run(
        [caddy, "validate", "--config", str(CADDYFILE), "--adapter", "caddyfile"],
        env=env,
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    assert checked.returncode == 0 and "Valid configuration" in checked.stdout + checked.stderr, checked.stderr
    adapted = subprocess.run(
        [caddy, "adapt", "--config", str(CADDYFILE), "--adapter", "caddyfile"],
        env=env,
        capture_output=True,
        text=True,
        timeout=60,
        check=True,
    )
    config = json.loads(adapted.stdout)
    server = next(iter(config["apps"]["http"]["servers"].values()))
    assert server["listen"] == [":443"], "served with HTTPS (Caddy redirects HTTP to it)"
    route = server["routes"][0]
    assert route["match"] == [{"host": ["uno.example"]}]
    handlers = json.dumps(route["handle"])
    assert '"handler": "reverse_proxy"' in handlers and '"dial": "unokit:8000"' in handlers
    assert "automatic_https" not in json.dumps(server), "automatic HTTPS left on"


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
