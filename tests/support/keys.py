"""API clients that call the service with a key, as a client's program does."""

from rest_framework.test import APIClient


def client_for(plain_key: str) -> APIClient:
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Bearer {plain_key}")
    return client
