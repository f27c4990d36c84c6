"""TLS to a real Mosquitto listener on loopback, with a certificate authority the test makes and
throws away: the table connects when told of the authority, and says in one line why it cannot
when it is not (it plays on and tries again)."""

from __future__ import annotations

import logging
import subprocess
import time
from pathlib import Path

import pytest

from table.config import ConfigError, load_config
from table.mqtt import TablePublisher, parse_url
from tests.mqtt_broker import Broker, Subscriber, free_port

pytestmark = pytest.mark.system


def _openssl(*args: str) -> None:
    subprocess.run(["openssl", *args], check=True, capture_output=True, timeout=60)


def _authority_and_broker_certificate(folder: Path) -> tuple[Path, Path, Path]:
    """A throwaway certificate authority, and a certificate it signed for 127.0.0.1."""
    ca_key, ca, key, request, cert = (
        folder / n for n in ("ca.key", "ca.crt", "broker.key", "broker.csr", "broker.crt")
    )
    _openssl("req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "2", "-subj", "/CN=test authority",
             "-keyout", str(ca_key), "-out", str(ca))  # fmt: skip
    _openssl(
        "req", "-newkey", "rsa:2048", "-nodes", "-subj", "/CN=127.0.0.1", "-keyout", str(key), "-out", str(request)
    )
    names = folder / "names.ext"
    names.write_text("subjectAltName = IP:127.0.0.1, DNS:localhost\n")
    _openssl("x509", "-req", "-in", str(request), "-CA", str(ca), "-CAkey", str(ca_key), "-CAcreateserial",
             "-days", "2", "-extfile", str(names), "-out", str(cert))  # fmt: skip
    return ca, cert, key


@pytest.fixture
def tls_broker(tmp_path: Path):
    ca, cert, key = _authority_and_broker_certificate(tmp_path)
    port = free_port()
    broker = Broker(tmp_path, extra=f"listener {port} 127.0.0.1\ncafile {ca}\ncertfile {cert}\nkeyfile {key}\n")
    broker.start()
    yield broker, port, ca
    broker.stop()


def test_the_table_publishes_over_tls_to_a_broker_its_authority_signed(tls_broker) -> None:
    broker, port, ca = tls_broker
    settings = parse_url(f"mqtts://127.0.0.1:{port}", "tls")
    from dataclasses import replace

    table = TablePublisher(replace(settings, ca_file=str(ca))).start()
    watching = Subscriber(broker, "cardtable/tls/#")  # on the plain listener of the same broker
    try:
        table.retain("seat/0/score", "7")
        assert watching.wait_for("cardtable/tls/seat/0/score") == "7"
        assert table.connected and table.refused is None
    finally:
        watching.close()
        table.stop()


def test_a_certificate_the_table_cannot_trust_is_said_in_one_line(tls_broker, caplog) -> None:
    _, port, _ = tls_broker
    table = TablePublisher(parse_url(f"mqtts://127.0.0.1:{port}", "tls"))  # the system's authorities only
    with caplog.at_level(logging.ERROR, logger="cardtable"):
        table.start()
        deadline = time.monotonic() + 15
        while table.refused is None and time.monotonic() < deadline:
            time.sleep(0.05)
        table.client.disconnect()
        table.client.loop_stop()
    assert not table.connected
    assert table.refused is not None and "certificate" in table.refused and "is refused" in table.refused
    assert "ca_file" in table.refused  # what to do
    said = [r.getMessage() for r in caplog.records if "certificate" in r.getMessage()]
    assert len(said) == 1  # once, though paho tries again


def test_the_configuration_s_tls_files_are_checked(tmp_path: Path) -> None:
    from tests.live_tables import rendered_table

    path = rendered_table(tmp_path, frames=1, card_from=999)
    with pytest.raises(ConfigError, match="only for TLS"):
        load_config(path, {"mqtt": {"url": "mqtt://127.0.0.1:1883", "ca_file": "ca.crt"}})
    with pytest.raises(ConfigError, match="ca_file: no such file"):
        load_config(path, {"mqtt": {"url": "mqtts://127.0.0.1:8883", "ca_file": "nope.crt"}})
    with pytest.raises(ConfigError, match="cert_file and key_file go together"):
        load_config(path, {"mqtt": {"url": "mqtts://127.0.0.1:8883", "cert_file": "nope.crt"}})
    (tmp_path / "ca.crt").write_text("x")
    config = load_config(path, {"mqtt": {"url": "mqtts://127.0.0.1:8883", "ca_file": "ca.crt"}})
    assert config.mqtt_settings().ca_file == str(tmp_path / "ca.crt")
