#!/usr/bin/env bash
# A day of production faults in ten minutes: two release-built `deskkit serve` instances on one PostgreSQL
# database, behind a round-robin of signed webhooks at a steady rate, while an instance is frozen past its lease
# and another killed, the database stops and starts, the Platform API throttles, fails and hangs, pages hang,
# trickle and reset, and webhooks burst and come twice (Scripts/faults.py says what, when, and what is checked).
#
#   [DESKKIT=BINARY] Scripts/faults.sh [SECONDS] [RATE]
#       (default 600 s of webhooks at 60 a second, then a drain; CI runs `Scripts/faults.sh 150`: the same
#       faults, each shorter, in about three minutes)
#
# Loopback only: a throwaway cluster in a temporary directory (as the postgres user when run as root), the
# instances on 18481 and 18483, the stand-in Platform API and pages on 18482. Prints the faults as they come, the
# figures (webhooks, updates, stale writes refused, admission latency by phase, resident memory) and a verdict;
# exits 1 when it fails. Needs python3 and PostgreSQL's server binaries.
set -euo pipefail
cd "$(dirname "$0")/.."
seconds=${1:-600}
rate=${2:-60}
work=$(mktemp -d)
deskkit=${DESKKIT:-}
if [ -z "$deskkit" ]; then
    swift build -c release --product deskkit >&2
    deskkit=$PWD/.build/release/deskkit
fi
initdb=$(command -v initdb || ls -d /usr/lib/postgresql/*/bin/initdb | sort -V | tail -1)
bin=$(dirname "$(readlink -f "$initdb")")
as=()
as_user=""
if [ "$(id -u)" = 0 ]; then as=(runuser -u postgres --); as_user=postgres; chown postgres "$work"; fi
port=18484
"${as[@]}" "$bin/initdb" -D "$work/pg" -U deskkit -A trust --no-sync >/dev/null
# Sockets in the work directory, TCP on loopback only; PostgreSQL's defaults otherwise (fsync on).
echo "listen_addresses = '127.0.0.1'
port = $port
unix_socket_directories = '$work'
max_connections = 200" >>"$work/pg/postgresql.conf"
"${as[@]}" "$bin/pg_ctl" -D "$work/pg" -l "$work/pg.log" -w start >/dev/null
cleanup() {
    pkill -f -- "--work $work" 2>/dev/null || true  # the run and its stand-in API, should the run have been cut short
    "${as[@]}" "$bin/pg_ctl" -D "$work/pg" -m immediate stop >/dev/null 2>&1 || true
    if [ "${KEEP:-0}" = 1 ]; then echo "logs kept in $work" >&2; else rm -rf "$work"; fi
}
trap cleanup EXIT
python3 Scripts/faults.py --deskkit "$deskkit" --pg-bin "$bin" --pg-data "$work/pg" --pg-port $port \
    --as-user "$as_user" --work "$work" --seconds "$seconds" --rate "$rate"
