#!/usr/bin/env bash
# What `deskkit serve` holds over time, measured as an operator would: resident memory over many distinct
# hosts, connections per host, and how long SIGTERM takes while pages hang.
#
#   Scripts/resource-test.sh [DESKKIT]
#       (default: the release build, made first; give another binary to compare builds in one session)
#
# 1. hosts: POST /v1/preview for HOSTS (default 6,000) distinct hosts 127.x.y.z (one fake page server on
#    0.0.0.0 answers them all), printing the server's resident memory every 500 hosts; then 1,500 previews
#    of one host.
# 2. connections: 100 distinct pages of one host; prints the TCP connections the page server accepted.
# 3. shutdown: 20 previews of pages that accept and never answer, SIGTERM with --shutdown-grace 3;
#    prints how long the process took to end and the answers' statuses.
# Needs python3. All on loopback; nothing leaves the machine.
set -euo pipefail
cd "$(dirname "$0")/.."
deskkit=${1:-}
if [ -z "$deskkit" ]; then
    swift build -c release --product deskkit >&2
    deskkit=.build/release/deskkit
fi
hosts=${HOSTS:-6000}
key=resource-test-key-0123456789
server_port=18281
page_port=18282
hang_port=18283
work=$(mktemp -d)
trap 'kill $(jobs -p) 2>/dev/null || true; rm -rf "$work"' EXIT

python3 Scripts/fake-sendbird.py $page_port 0.0.0.0 &
python3 - $hang_port <<'PY' &
import socket, sys
s = socket.socket(); s.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
s.bind(("127.0.0.1", int(sys.argv[1]))); s.listen(512)
held = []
while True:
    held.append(s.accept()[0])
PY

serve() {
    SENDBIRD_API_TOKEN=t SENDBIRD_APP_ID=app "$deskkit" serve --port $server_port --store memory --allow-private \
        --api-keys $key --rate-limit 0 --no-image-probe --no-oembed "$@" 2>>"$work/serve.log" &
    pid=$!
    for _ in $(seq 100); do curl -sf "http://127.0.0.1:$server_port/health" >/dev/null && return; sleep 0.1; done
    echo "the server did not start: $(tail -5 "$work/serve.log")" >&2
    exit 1
}

# previews FIRST COUNT ONE_HOST: POST /v1/preview for hosts FIRST..FIRST+COUNT-1 (or COUNT pages of one host).
previews() {
    python3 - "$server_port" "$page_port" "$key" "$1" "$2" "${3:-}" <<'PY'
import http.client, json, sys, threading
port, page_port, key, first, count, one = int(sys.argv[1]), sys.argv[2], sys.argv[3], int(sys.argv[4]), int(sys.argv[5]), sys.argv[6]
lock = threading.Lock(); todo = list(range(first, first + count)); failed = [0]
def url(i):
    if one: return "http://127.0.0.1:%s/item/%d" % (page_port, i)
    i += 256  # 127.0.1.0 onwards
    return "http://127.%d.%d.%d:%s/" % ((i >> 16) & 255, (i >> 8) & 255, i & 255, page_port)
def work():
    c = http.client.HTTPConnection("127.0.0.1", port)
    while True:
        with lock:
            if not todo: return
            i = todo.pop()
        c.request("POST", "/v1/preview", json.dumps({"url": url(i)}), {"Authorization": "Bearer " + key})
        r = c.getresponse(); body = r.read()
        if r.status != 200 or b'"error":null' not in body:
            with lock: failed[0] += 1
threads = [threading.Thread(target=work) for _ in range(16)]
for t in threads: t.start()
for t in threads: t.join()
if failed[0]: print("  (%d previews failed)" % failed[0])
PY
}

rss() { awk '/VmRSS/ {printf "%.1f MB", $2 / 1024}' /proc/$pid/status; }

echo "== memory over distinct hosts ($deskkit)"
serve
echo "start: $(rss)"
done_hosts=0
while [ $done_hosts -lt "$hosts" ]; do
    previews $done_hosts 500
    done_hosts=$((done_hosts + 500))
    echo "after $done_hosts hosts: $(rss)"
done
previews 0 1500 one
echo "then 1,500 pages of one host: $(rss)"
kill -TERM $pid; wait $pid || true

echo "== connections for 100 pages of one host"
serve
before=$(curl -s "http://127.0.0.1:$page_port/stats" | python3 -c 'import json,sys; print(json.load(sys.stdin)["connections"])')
previews 100000 100 one
after=$(curl -s "http://127.0.0.1:$page_port/stats" | python3 -c 'import json,sys; print(json.load(sys.stdin)["connections"])')
echo "100 pages over $((after - before)) connections"
kill -TERM $pid; wait $pid || true

echo "== SIGTERM with 20 previews of pages that never answer (--shutdown-grace 3)"
serve --shutdown-grace 3
for i in $(seq 20); do
    curl -s -o /dev/null -w "%{http_code}\n" -H "Authorization: Bearer $key" \
        -d "{\"url\":\"http://127.0.0.1:$hang_port/$i\"}" "http://127.0.0.1:$server_port/v1/preview" >>"$work/codes" &
done
sleep 1
start=$(date +%s.%N)
kill -TERM $pid
wait $pid || true
end=$(date +%s.%N)
sleep 0.5
python3 -c "print('ended %.2f s after SIGTERM' % ($end - $start))"
sort "$work/codes" | uniq -c | awk '{printf "  %d answered %s\n", $1, $2}'
