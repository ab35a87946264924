"""Reading /metrics as Prometheus does: `scrape()` and the value of one sample."""

from prometheus_client.parser import text_string_to_metric_families

TOKEN = "metrics-token-for-tests"


def scrape(client, *, token: str = TOKEN) -> dict:
    """GET /metrics with the token; the families parsed by name (a counter's without `_total`)."""
    response = client.get("/metrics", headers={"Authorization": f"Bearer {token}"})
    assert response.status_code == 200, response.status_code
    return {family.name: family for family in text_string_to_metric_families(response.content.decode())}


def value(families: dict, name: str, sample: str | None = None, **labels: str) -> float:
    """The value of `name`'s sample (`sample` names it: `cgs_http_requests_total`) with these labels; 0 if none."""
    sample = sample or name
    for found in families[name].samples:
        if found.name == sample and found.labels == labels:
            return found.value
    return 0.0
