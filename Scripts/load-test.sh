#!/usr/bin/env bash
# Load test of `deskkit serve` with wrk: signed Sendbird webhooks against loopback.
#
#   [DESKKIT=BINARY [KEYS=api]] Scripts/load-test.sh [SECONDS] [CONNECTIONS] [STORE]
#       (default 300 s, 64 connections, 2 wrk threads; STORE sqlite (a file in a temporary directory), postgres
#       (a throwaway cluster in the temporary directory, fsync and synchronous_commit on), memory, or a --store value)
#
# Needs wrk (apt-get install -y wrk) and python3. Sends DISTINCT (default 200,000) distinct signed
# message_send webhooks, every request a new message id until they run out (then re-deliveries, answered
# as duplicates: keep SECONDS × rate under DISTINCT to measure admissions only); one in LINK_EVERY (default
# 10) has a link — only those are jobs, committed to the store (LINK_EVERY=1: every request is a commit).
# Pages and the Platform API are Scripts/fake-sendbird.py. Prints wrk's figures with latency percentiles,
# the server's resident memory every 30 s, the webhook and job counters, and how fast the accepted jobs
# were enriched (from the first request until the store has none queued or running). TRACES=1: the server
# exports its spans over OTLP/HTTP (OTEL_EXPORTER_OTLP_ENDPOINT) to a sink that counts and drops them — the
# cost of tracing; the sink's count is printed at the end.
set -euo pipefail
cd "$(dirname "$0")/.."
seconds=${1:-300}
connections=${2:-64}
store=${3:-sqlite}
distinct=${DISTINCT:-200000}
link_every=${LINK_EVERY:-10}
token=load-test-token
api_key=load-test-metrics-key-0123456789
server_port=18181
fake_port=18182
work=$(mktemp -d)
trap 'kill $(jobs -p) 2>/dev/null || true; rm -rf "$work"' EXIT

# DESKKIT: another build to measure (an older one, alternated with this one in one session). A build from before
# issue 93 has no metrics keys: KEYS=api gives it the script's key as an API key (`/metrics` took those then).
deskkit=${DESKKIT:-}
keys_variable=DESKKIT_METRICS_KEYS
[ "${KEYS:-metrics}" = api ] && keys_variable=DESKKIT_API_KEYS
if [ -z "$deskkit" ]; then
    swift build -c release --product deskkit >&2
    deskkit=.build/release/deskkit
fi
python3 - "$work/bodies.txt" "$token" "$fake_port" "$distinct" "$link_every" <<'PY'
import hashlib, hmac, json, sys
path, token, port, distinct, link_every = sys.argv[1], sys.argv[2].encode(), sys.argv[3], int(sys.argv[4]), int(sys.argv[5])
with open(path, "w") as out:
    for i in range(distinct):
        text = "Hi, my order %d has not arrived" % i
        if i % link_every == 0:
            text += " - tracking: http://127.0.0.1:%s/tracking/%d" % (port, i % 50)
        body = json.dumps({"category": "group_channel:message_send", "type": "MESG", "app_id": "LOAD", "custom_type": "",
                           "sender": {"user_id": "customer-%d" % (i % 500), "nickname": "Customer"},
                           "payload": {"message_id": 10_000_000 + i, "message": text, "custom_type": "", "data": "",
                                       "created_at": 1_700_000_000_000 + i},
                           "channel": {"channel_url": "sendbird_group_channel_%d" % (i % 500), "name": "Support"}})
        sig = hmac.new(token, body.encode(), hashlib.sha256).hexdigest()
        out.write("%s\t%s\n" % (sig, body))
PY
cat > "$work/webhooks.lua" <<LUA
-- One "signature<TAB>body" a line (a Lua table literal this long is over Lua's constant limit).
local bodies = {}
for line in io.lines("$work/bodies.txt") do
  local tab = line:find("\t", 1, true)
  bodies[#bodies + 1] = {line:sub(tab + 1), line:sub(1, tab - 1)}
end
-- Each of the two threads sends its own half of the bodies, in order: no message id twice until they run out.
local counter = 0
function setup(thread) counter = counter + 1; thread:set("id", counter) end
local i = 0
function init(args) i = ((id or 1) - 1) * math.floor(#bodies / 2) end
function request()
  i = i % #bodies + 1
  local b = bodies[i]
  return wrk.format("POST", "/webhooks/sendbird", {["Content-Type"] = "application/json", ["x-sendbird-signature"] = b[2]}, b[1])
end
LUA

case $store in
  memory) store_option=memory ;;
  sqlite) store_option=sqlite:$work/state.sqlite ;;
  postgres)
    # PostgreSQL refuses to run as root: as root, the cluster runs as the postgres user.
    initdb=$(command -v initdb || ls -d /usr/lib/postgresql/*/bin/initdb | sort -V | tail -1)
    bin=$(dirname "$(readlink -f "$initdb")")
    as=()
    if [ "$(id -u)" = 0 ]; then as=(runuser -u postgres --); chown postgres "$work"; fi
    "${as[@]}" "$bin/initdb" -D "$work/pg" -U deskkit -A trust --no-sync >/dev/null
    "${as[@]}" "$bin/pg_ctl" -D "$work/pg" -l "$work/pg.log" -w \
        -o "-c listen_addresses=127.0.0.1 -p 18183 -k $work -c fsync=on -c synchronous_commit=on" start >/dev/null
    trap '"${as[@]}" "$bin/pg_ctl" -D "$work/pg" -m immediate stop >/dev/null 2>&1; kill $(jobs -p) 2>/dev/null || true; rm -rf "$work"' EXIT
    store_option="postgres://deskkit@127.0.0.1:18183/postgres?sslmode=disable" ;;
  *) store_option=$store ;;
esac
python3 Scripts/fake-sendbird.py $fake_port &
if [ "${TRACES:-0}" = 1 ]; then
    sink_port=18184
    python3 -c '
import http.server as s, sys, threading
posted = [0, 0]
lock = threading.Lock()
class Sink(s.BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"
    def do_POST(self):
        n = int(self.headers.get("Content-Length") or 0)
        self.rfile.read(n)
        with lock:
            posted[0] += 1
            posted[1] += n
        self.send_response(200); self.send_header("Content-Length", "0"); self.end_headers()
    def do_GET(self):
        body = ("%d posts, %d bytes" % tuple(posted)).encode()
        self.send_response(200); self.send_header("Content-Length", str(len(body))); self.end_headers(); self.wfile.write(body)
    def log_message(self, *args): pass
s.ThreadingHTTPServer(("127.0.0.1", int(sys.argv[1])), Sink).serve_forever()' $sink_port &
    export OTEL_EXPORTER_OTLP_ENDPOINT=http://127.0.0.1:$sink_port OTEL_SWIFT_LOG_LEVEL=warning
fi
env "$keys_variable=$api_key" DESKKIT_STORE=$store_option SENDBIRD_API_TOKEN=$token DESKKIT_API_BASE=http://127.0.0.1:$fake_port DESKKIT_PORT=$server_port \
    DESKKIT_ALLOW_PRIVATE=1 "$deskkit" serve --log-level warning &
server=$!
for _ in $(seq 50); do curl -sf http://127.0.0.1:$server_port/health >/dev/null 2>&1 && break; sleep 0.2; done

(
    for i in $(seq $((seconds / 30))); do
        sleep 30
        echo "rss after $((i * 30))s: $(($(ps -o rss= -p $server) / 1024)) MiB"
    done
) &
echo "rss at start: $(($(ps -o rss= -p $server) / 1024)) MiB"
started=$(date +%s.%N)
wrk -t2 -c"$connections" -d"${seconds}s" --latency -s "$work/webhooks.lua" "http://127.0.0.1:$server_port"
echo "rss at end: $(($(ps -o rss= -p $server) / 1024)) MiB"
echo "fake Sendbird: $(curl -s http://127.0.0.1:$fake_port/stats)"
if [ "$store" != memory ]; then
    # Enrichment: until every accepted job is done or failed in the store.
    metric() { curl -s --max-time 30 -H "Authorization: Bearer $api_key" http://127.0.0.1:$server_port/metrics | awk -v k="$1" '$1 == k { print int($2) }'; }
    accepted=$(metric 'deskkit_webhooks_total{outcome="queued"}')
    while true; do
        settled=$(( $(metric 'deskkit_store_jobs{state="done"}' || echo 0) + $(metric 'deskkit_store_jobs{state="failed"}' || echo 0) ))
        [ "$settled" -ge "$accepted" ] && break
        sleep 0.2
    done
    finished=$(date +%s.%N)
    python3 -c "import sys; n, t = int(sys.argv[1]), float(sys.argv[2]) - float(sys.argv[3]); print(f'enriched: {n} jobs done in {t:.1f} s = {n / t:,.0f} jobs/s')" \
        "$settled" "$finished" "$started"
fi
curl -s -H "Authorization: Bearer $api_key" http://127.0.0.1:$server_port/metrics | grep -E '^deskkit_(webhooks|jobs)_total|^deskkit_store_jobs'
if [ "${TRACES:-0}" = 1 ]; then echo "OTLP sink: $(curl -s http://127.0.0.1:$sink_port/)"; fi
