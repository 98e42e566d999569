"""What of deploy/ can be checked without a Docker engine.

- nginx.conf passes ``nginx -t`` (Debian's nginx, a temporary prefix, ports adjusted);
- compose.yaml parses (PyYAML when installed, else a structural check) and names the
  services of both setups;
- hcf-server.env lists every ServerConfig setting (and DATABASE_URL) with its default;
- the Dockerfile's install steps (``pip install .`` into a fresh virtualenv, then
  ``hcf-server --help``) work in a plain virtualenv.

Not run: ``docker build`` and ``docker compose up`` (no Docker engine here).
"""

from __future__ import annotations

import dataclasses
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from server.config import ServerConfig
from tests.scaleout.services import ServiceMissing, binary, nginx_command, nginx_conf

DEPLOY = Path(__file__).resolve().parents[2] / "deploy"
REPO = DEPLOY.parent


def test_nginx_conf_passes_nginx_t(tmp_path: Path) -> None:
    try:
        binary("nginx", "nginx")
    except ServiceMissing as exc:
        pytest.fail(str(exc))
    (tmp_path / "logs").mkdir()
    conf = tmp_path / "nginx.conf"
    conf.write_text(nginx_conf(18080, [18001, 18002]))
    result = subprocess.run([*nginx_command(tmp_path, conf), "-t"], capture_output=True, text=True, timeout=30,
                            check=False)
    assert result.returncode == 0, result.stderr
    assert "test is successful" in result.stderr


def test_nginx_conf_routes_as_socketio_needs() -> None:
    text = (DEPLOY / "nginx.conf").read_text()
    live = "\n".join(line.split("#", 1)[0] for line in text.splitlines())
    assert "hash $arg_table consistent;" in live
    assert "ip_hash" not in live
    assert "proxy_set_header Upgrade $http_upgrade;" in live
    assert "proxy_set_header Connection $connection_upgrade;" in live
    for location in ("location /socket.io/", "location /api/", "location = /healthz"):
        assert location in live
    assert "ssl_certificate" in text  # TLS: placeholders, commented
    assert "ssl_certificate" not in live


def _compose() -> dict[str, object]:
    text = (DEPLOY / "compose.yaml").read_text()
    try:
        import yaml  # type: ignore[import-untyped]
    except ImportError:
        # A minimal check: top-level keys and the services' names (two-space indented keys).
        assert "\t" not in text, "YAML has no tabs"
        top = re.findall(r"^([a-z][\w-]*):", text, re.MULTILINE)
        block = text.split("\nservices:\n", 1)[1].split("\nvolumes:\n", 1)[0]
        services = re.findall(r"^  ([a-z][\w-]*):", block, re.MULTILINE)
        return dict.fromkeys(top) | {"services": dict.fromkeys(services)}
    loaded = yaml.safe_load(text)
    assert isinstance(loaded, dict)
    return loaded


def test_compose_names_both_setups() -> None:
    compose = _compose()
    services = compose["services"]
    assert isinstance(services, dict)
    assert {"hcf", "nginx", "hcf1", "hcf2", "postgres", "redis"} <= set(services)
    assert "volumes" in compose
    text = (DEPLOY / "compose.yaml").read_text()
    assert 'profiles: ["scaled"]' in text
    assert "HCF_REDIS_URL" in text
    assert "DATABASE_URL: postgresql://" in text


def test_env_file_lists_every_setting_with_its_default() -> None:
    text = (DEPLOY / "hcf-server.env").read_text()
    listed = dict(re.findall(r"^#?([A-Z_]+)=(.*)$", text, re.MULTILINE))
    defaults = ServerConfig()
    for field in dataclasses.fields(ServerConfig):
        name = "HCF_" + field.name.upper()
        assert name in listed, f"{name} is missing from deploy/hcf-server.env"
        default = getattr(defaults, field.name)
        if field.name in ("data_dir", "log_format", "trusted_proxies"):
            continue  # set for a service, not left at the default
        shown = listed[name]
        if isinstance(default, dict):
            assert shown == "{}", name
        elif isinstance(default, str):
            assert shown == default, f"{name}={shown!r}, default {default!r}"
        elif isinstance(default, bool):
            assert shown == str(default).lower(), f"{name}={shown!r}, default {default!r}"
        else:
            assert float(shown) == float(default), f"{name}={shown!r}, default {default!r}"
    assert "DATABASE_URL" in listed


def test_systemd_unit_and_dockerfile_agree_with_the_cli() -> None:
    unit = (DEPLOY / "hcf-server.service").read_text()
    assert "ExecStart=/opt/hcf-table/bin/hcf-server serve" in unit
    assert "EnvironmentFile=/etc/hcf-table/hcf-server.env" in unit
    docker = (DEPLOY / "Dockerfile").read_text()
    assert "FROM python:3.11-slim" in docker
    for needle in ("USER hcf", "HEALTHCHECK", "/healthz", 'VOLUME ["/data"]', "HCF_DATA_DIR=/data",
                   'CMD ["hcf-server", "serve", "--host", "0.0.0.0"]', "pip install ."):
        assert needle in docker, needle
    packages = (DEPLOY / "apt-packages.txt").read_text().split()
    assert {"postgresql", "redis-server", "nginx"} <= set(packages)


@pytest.mark.slow
@pytest.mark.timeout(240)
def test_dockerfile_install_steps_in_a_plain_virtualenv(tmp_path: Path) -> None:
    """As the Dockerfile does: copy the sources, ``pip install .`` into a new venv, run the command.

    The dependencies are not downloaded again: the new venv sees this one's site-packages
    through a .pth file and pip installs the package alone (``--no-deps``; the build
    backend, setuptools, comes as pip's configuration finds it). What is checked: the
    package builds and installs from a copy of only what the Dockerfile copies, into a
    fresh virtualenv, and its ``hcf-server`` entry point runs from there.
    """
    source = tmp_path / "src"
    source.mkdir()
    for name in ("pyproject.toml", "README.md"):
        shutil.copy(REPO / name, source / name)
    for package in ("server", "client_cli"):
        shutil.copytree(REPO / package, source / package,
                        ignore=shutil.ignore_patterns("__pycache__", "*.pyc"))
    venv = tmp_path / "venv"
    subprocess.run([sys.executable, "-m", "venv", "--without-pip", str(venv)], check=True, timeout=60)
    python = venv / "bin" / "python"
    site = next((venv / "lib").glob("python3*/site-packages"))
    here = [p for p in sys.path if p.endswith("site-packages")]
    (site / "zz_hcf_deps.pth").write_text("\n".join(here) + "\n")  # the dependencies, from this venv
    result = subprocess.run(
        [str(python), "-m", "pip", "install", "--no-deps", "."],
        cwd=source, capture_output=True, text=True, timeout=180, check=False)
    assert result.returncode == 0, result.stdout + result.stderr
    help_text = subprocess.run([str(venv / "bin" / "hcf-server"), "--help"], capture_output=True, text=True,
                               timeout=60, check=False)
    assert help_text.returncode == 0, help_text.stderr
    assert "serve" in help_text.stdout
    serve_help = subprocess.run([str(venv / "bin" / "hcf-server"), "serve", "--help"], capture_output=True,
                                text=True, timeout=60, check=False)
    assert "--redis" in serve_help.stdout
    installed = subprocess.run([str(python), "-c", "import server, sys; print(server.__file__)"],
                               cwd=tmp_path, capture_output=True, text=True, timeout=60, check=False)
    assert str(site) in installed.stdout, installed.stdout + installed.stderr  # the copy, not the repo
