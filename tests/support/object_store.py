"""
An S3-API server on loopback (moto's standalone server, in a process of its own) for the tests of
object storage and the many-machine drill: buckets made per test, what they hold listed, and the
settings or environment that point the service at one.
"""

import os
import subprocess
import sys
import uuid

import boto3
import pytest
from botocore.config import Config

from config.settings import object_storage
from tests.support.processes import wait_for
from tests.support.stack import free_port, http

# moto accepts any credentials; the service reads them as it would a real store's.
CREDENTIALS = {"AWS_ACCESS_KEY_ID": "test-access-key", "AWS_SECRET_ACCESS_KEY": "test-secret-key"}
REGION = "us-east-1"


class S3Server:
    """moto's S3 server; with `checking_credentials`, one that refuses credentials it does not know."""

    def __init__(self, *, checking_credentials: bool = False):
        self.port = free_port()
        self.checking_credentials = checking_credentials
        self.process: subprocess.Popen | None = None

    @property
    def endpoint_url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def start(self) -> "S3Server":
        self.process = subprocess.Popen(
            [sys.executable, "-m", "moto.server", "-H", "127.0.0.1", "-p", str(self.port)],
            # moto checks credentials from the first request on when told to allow none unchecked.
            env={**os.environ, **({"INITIAL_NO_AUTH_ACTION_COUNT": "0"} if self.checking_credentials else {})},
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
            start_new_session=True,
        )
        assert wait_for(lambda: http("GET", f"{self.endpoint_url}/moto-api/")[0] == 200, 60), "no S3 server"
        return self

    def stop(self) -> None:
        if self.process is not None and self.process.poll() is None:
            self.process.kill()
            self.process.wait()

    def client(self):
        return boto3.client(
            "s3",
            endpoint_url=self.endpoint_url,
            region_name=REGION,
            aws_access_key_id=CREDENTIALS["AWS_ACCESS_KEY_ID"],
            aws_secret_access_key=CREDENTIALS["AWS_SECRET_ACCESS_KEY"],
            config=Config(retries={"max_attempts": 1}),
        )

    def new_bucket(self) -> str:
        name = f"cgs-{uuid.uuid4().hex[:16]}"
        self.client().create_bucket(Bucket=name)
        return name

    def keys(self, bucket: str) -> list[str]:
        listed = self.client().list_objects_v2(Bucket=bucket)
        return sorted(entry["Key"] for entry in listed.get("Contents", []))

    def object(self, bucket: str, key: str) -> bytes:
        return self.client().get_object(Bucket=bucket, Key=key)["Body"].read()


def environment(*, endpoint_url: str, bucket: str) -> dict:
    """What a process of the service is started with to keep its files in `bucket`."""
    return {
        "STORAGE_BUCKET": bucket,
        "STORAGE_ENDPOINT_URL": endpoint_url,
        "STORAGE_REGION": REGION,
        **CREDENTIALS,
    }


def use_bucket(settings, monkeypatch, *, endpoint_url: str, bucket: str) -> None:
    """Point this test process's storage at `bucket` of the server at `endpoint_url`."""
    for name, value in CREDENTIALS.items():
        monkeypatch.setenv(name, value)
    settings.STORAGE_BUCKET = bucket
    settings.STORAGE_ENDPOINT_URL = settings.STORAGE_PUBLIC_ENDPOINT_URL = endpoint_url
    # One try, short waits: a test of a store that is down is not kept waiting.
    backend = object_storage(bucket=bucket, endpoint_url=endpoint_url, region=REGION, timeout_s=2, attempts=1)
    settings.STORAGES = {**settings.STORAGES, "default": backend}


@pytest.fixture(scope="session")
def s3_server():
    server = S3Server().start()
    yield server
    server.stop()


class ObjectStore:
    """The bucket a test's files go to, on the session's S3 server."""

    def __init__(self, server: S3Server, bucket: str):
        self.server, self.bucket = server, bucket

    def keys(self) -> list[str]:
        return self.server.keys(self.bucket)

    def object(self, key: str) -> bytes:
        return self.server.object(self.bucket, key)


@pytest.fixture
def object_store(s3_server, settings, monkeypatch) -> ObjectStore:
    """This test's files in a bucket of their own on the S3 server on loopback."""
    bucket = s3_server.new_bucket()
    use_bucket(settings, monkeypatch, endpoint_url=s3_server.endpoint_url, bucket=bucket)
    return ObjectStore(s3_server, bucket)
