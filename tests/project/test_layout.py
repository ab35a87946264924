"""The project's shape, as docs/contribute/layout.md describes it: what holds each rule, and what is gone."""

import configparser
import re
from pathlib import Path

import pytest
from django.db import connection

ROOT = Path(__file__).resolve().parents[2]
SERVICE_PACKAGES = ["config", "core", "api", "accounts", "webhooks", "sources", "courses", "learners", "exports", "preview"]


def test_config_is_the_composition_root_alone():
    assert sorted(path.name for path in (ROOT / "config").glob("*.py")) == [
        "__init__.py", "asgi.py", "celery.py", "gunicorn.py", "settings.py", "urls.py", "wsgi.py"
    ]
    assert [path.name for path in (ROOT / "config").iterdir() if path.is_dir() and path.name != "__pycache__"] == []


def test_every_package_of_the_service_is_a_layer_of_the_import_contract():
    contract = configparser.ConfigParser()
    contract.read(ROOT / ".importlinter")
    layers = contract["importlinter:contract:layers"]

    named = {name.strip() for line in layers["layers"].split("\n") for name in line.split("|") if name.strip()}
    assert layers["type"] == "layers"
    assert set(SERVICE_PACKAGES) <= named
    assert all((ROOT / package / "__init__.py").exists() for package in SERVICE_PACKAGES)


@pytest.mark.django_db
def test_no_table_has_a_trigger_and_no_code_listens_or_notifies():
    with connection.cursor() as cursor:
        cursor.execute("SELECT tgrelid::regclass::text, tgname FROM pg_trigger WHERE NOT tgisinternal")
        triggers = cursor.fetchall()
    said = [
        f"{path.relative_to(ROOT)}: {match.group()}"
        for package in SERVICE_PACKAGES
        for path in (ROOT / package).rglob("*.py")
        if "migrations" not in path.parts
        for match in re.finditer(r"\b(?:LISTEN|NOTIFY|pg_notify)\b", path.read_text())
    ]

    assert triggers == []
    assert said == []


def test_the_readme_is_short_and_the_manual_is_the_docs_site():
    readme = (ROOT / "README.md").read_text()

    assert len(readme.splitlines()) <= 200
    assert "make run" in readme and "make test" in readme
    assert (ROOT / "mkdocs.yml").exists()
