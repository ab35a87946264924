"""
Both clients generated from the live document, once per session, the TypeScript side compiled with
`tsc --strict`; then, per test, each client in turn against the live service.
"""

import importlib
import sys
from pathlib import Path

import pytest
import requests

from tests.support.clients import drivers
from tests.support.clients.tools import ROOT, run

CLIENTS = ROOT / "build" / "clients"
TSC = ROOT / "node_modules" / ".bin" / "tsc"
TYPESCRIPT_PROJECT = ROOT / "tests" / "support" / "clients" / "typescript" / "tsconfig.json"
DRIVER = CLIENTS / "js" / "tests" / "support" / "clients" / "typescript" / "driver.js"


@pytest.fixture(scope="session")
def live_document(live_server) -> bytes:
    """The OpenAPI document as the running service serves it."""
    response = requests.get(f"{live_server.url}/api/v1/openapi.json", timeout=30)
    assert response.status_code == 200
    return response.content


@pytest.fixture(scope="session")
def generated_clients(live_document) -> Path:
    """`make clients`, from the live document: build/clients/{python,typescript}, and the TypeScript
    client with the code that drives it compiled by `tsc --strict` into build/clients/js."""
    CLIENTS.mkdir(parents=True, exist_ok=True)
    document = CLIENTS / "openapi.json"
    document.write_bytes(live_document)
    run([ROOT / "scripts" / "generate-clients.sh", document, CLIENTS])
    run([TSC, "--strict", "-p", TYPESCRIPT_PROJECT])
    if str(CLIENTS / "python") not in sys.path:
        sys.path.insert(0, str(CLIENTS / "python"))
    importlib.invalidate_caches()
    return CLIENTS


@pytest.fixture(scope="session")
def python_client(generated_clients) -> drivers.PythonClient:
    return drivers.PythonClient()


@pytest.fixture
def typescript_client(generated_clients):
    # A process per test, as the Python client makes a connection per call: Node's fetch keeps
    # connections open, and a live server thread kept behind one would keep its database connection
    # from one test into the next (where the database may have been restarted meanwhile).
    client = drivers.TypeScriptClient(DRIVER)
    yield client
    client.close()


@pytest.fixture(params=["python", "typescript"])
def generated_client(request):
    """Each generated client in turn."""
    return request.getfixturevalue(f"{request.param}_client")


@pytest.fixture
def service(live_server, settings) -> str:
    # The live server runs our real code; its absolute links (shareUrl, downloadUrl) must point at it.
    settings.PUBLIC_BASE_URL = live_server.url
    # The TypeScript flow adds the course's preview page as a source: a page of this loopback server.
    settings.WEBHOOK_ALLOW_PRIVATE_NETWORKS = True
    return live_server.url
