#!/usr/bin/env bash
# Install the table as a service on Raspberry Pi OS (Bookworm), from a clone of the repository:
#   sudo systemd/install.sh            # do it
#   systemd/install.sh --dry-run       # only say what it would do
# Safe to run again (an update): it keeps /etc/cardtable, the passwords and the journals.
set -euo pipefail

DRY=0
[[ "${1:-}" == "--dry-run" ]] && DRY=1
SRC="$(cd "$(dirname "$0")/.." && pwd)"
PREFIX=/opt/cardtable
CONF=/etc/cardtable
STATE=/var/lib/cardtable

run() {  # a step: printed, and done unless --dry-run
    echo "+ $*"
    if [[ $DRY == 0 ]]; then "$@"; fi
}

if [[ $DRY == 0 && $(id -u) != 0 ]]; then
    echo "run it as root: sudo $0" >&2
    exit 1
fi

# 1. System packages: Python's venv, the Pi camera's library and lgpio (both only from apt, used
#    from a venv made with --system-site-packages), the broker, and aplay for the sound cues.
run apt-get update
run apt-get install -y python3-venv python3-picamera2 python3-lgpio mosquitto mosquitto-clients alsa-utils

# 2. The table's own user, in the groups for the GPIO chips, the cameras and the serial ports.
if ! id cardtable >/dev/null 2>&1; then
    run useradd --system --home-dir "$STATE" --shell /usr/sbin/nologin cardtable
fi
run usermod -a -G gpio,video,dialout,audio cardtable

# 3. The code, in a venv of its own that sees the system's picamera2 and lgpio.
run mkdir -p "$PREFIX"
run mkdir -p "$PREFIX/src"
echo "+ copy $SRC to $PREFIX/src (without .git and .venv)"
if [[ $DRY == 0 ]]; then
    # Owned by root, whoever cloned it.
    tar -C "$SRC" --exclude=./.git --exclude=./.venv -cf - . | tar -C "$PREFIX/src" --no-same-owner -xf -
fi
# Readable by root and the table's group only (a clone may hold a user's own files); Mosquitto,
# which serves the scoreboard page, reads the dashboard's folder alone.
run chown -R root:cardtable "$PREFIX/src"
run chmod -R u=rwX,g=rX,o= "$PREFIX/src"
run chmod o+x "$PREFIX" "$PREFIX/src"
run chmod -R o+rX "$PREFIX/src/dashboard"
run python3 -m venv --system-site-packages "$PREFIX/venv"
run "$PREFIX/venv/bin/pip" install --quiet "$PREFIX/src[pi]"
run ln -sf "$PREFIX/src/README.md" "$PREFIX/README.md"

# 4. The configuration (kept if it is there) and the journal's folder.
run mkdir -p "$CONF" "$STATE/journal"
if [[ ! -e "$CONF/table.toml" ]]; then
    echo "+ write $CONF/table.toml: table.example.toml with the journal, calibration and MQTT set for the Pi"
    if [[ $DRY == 0 ]]; then
        sed -e 's|^folder = "journal" |folder = "/var/lib/cardtable/journal" |' \
            -e 's|^calibration = "calibration.json"|calibration = "/etc/cardtable/calibration.json"|' \
            -e 's|^url = "" |url = "mqtt://table@localhost:1883" |' \
            -e 's|^password_file = "" |password_file = "/etc/cardtable/mqtt-password" |' \
            "$SRC/table.example.toml" > "$CONF/table.toml"
    fi
fi
run chown -R cardtable:cardtable "$STATE"

# 5. The broker: no anonymous clients, a password a user (made once, the table's written for it).
run cp "$SRC/systemd/mosquitto/cardtable.conf" /etc/mosquitto/conf.d/cardtable.conf
run cp "$SRC/systemd/mosquitto/cardtable.acl" /etc/mosquitto/cardtable.acl
# The table logs in as a user named as its table_id ([mqtt] in table.toml; the ACL lets each
# table write its own topics only). Each user is made once: a run that stopped half way is
# finished by the next one. The passwords never pass on a command line (where ps shows them):
# they are written to a file only root reads, hashed there by mosquitto_passwd -U, then added.
TABLE_ID="$(sed -n 's/^table_id *= *"\([A-Za-z0-9_-]*\)".*/\1/p' "$CONF/table.toml" 2>/dev/null | head -n 1 || true)"
TABLE_ID="${TABLE_ID:-table}"
case "$TABLE_ID" in dashboard|homeassistant|admin)
    echo "[mqtt] table_id = \"$TABLE_ID\" is the name of a service login: choose another" >&2; exit 1;;
esac
for user in "$TABLE_ID" dashboard homeassistant admin; do
    if [[ -e /etc/mosquitto/cardtable.passwd ]] && grep -q "^$user:" /etc/mosquitto/cardtable.passwd; then
        continue
    fi
    echo "+ a new password for $user, hashed into /etc/mosquitto/cardtable.passwd"
    if [[ $DRY == 0 ]]; then
        password="$(head -c 18 /dev/urandom | base64 | tr -d '/+=')"
        plain="$(umask 077 && mktemp)"
        printf '%s:%s\n' "$user" "$password" > "$plain"
        mosquitto_passwd -U "$plain"
        (umask 077 && touch /etc/mosquitto/cardtable.passwd && cat "$plain" >> /etc/mosquitto/cardtable.passwd)
        rm -f "$plain"
        (umask 077 && printf '%s\n' "$password" > "$CONF/mqtt-password-$user")
    fi
    echo "the MQTT password of $user is in $CONF/mqtt-password-$user (root only)"
done
if [[ $DRY == 1 || -e "$CONF/mqtt-password-$TABLE_ID" ]]; then
    run cp "$CONF/mqtt-password-$TABLE_ID" "$CONF/mqtt-password"
    run chown root:cardtable "$CONF/mqtt-password"
    run chmod 640 "$CONF/mqtt-password"
elif [[ ! -e "$CONF/mqtt-password" ]]; then
    # The login was made before, by hand: its password is not known here.
    echo "write the MQTT password of $TABLE_ID into $CONF/mqtt-password (root:cardtable, mode 640)" >&2
fi
run chown root:mosquitto /etc/mosquitto/cardtable.passwd
run chmod 640 /etc/mosquitto/cardtable.passwd
run systemctl restart mosquitto

# 6. The service.
run cp "$SRC/systemd/cardtable.service" /etc/systemd/system/cardtable.service
run systemctl daemon-reload
run systemctl enable cardtable.service
echo "installed. Calibrate the camera (README: \"Calibrating the camera\") into $CONF/calibration.json, edit $CONF/table.toml,"
echo "check it with: sudo -u cardtable $PREFIX/venv/bin/cardtable run --config $CONF/table.toml --check"
echo "then: sudo systemctl start cardtable && journalctl -fu cardtable"
