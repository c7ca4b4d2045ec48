#!/usr/bin/env bash
# Slow clients against `deskkit serve` (ClientLimits): CLIENTS connections (default 3,000) each send
# `GET /health HTTP/1.1` and then one header line every 2 seconds, never ending the head, while one client
# sends GET /health and another signed webhooks, each once every 50 ms.
#
#   [DESKKIT=BINARY] [HEAD_TIMEOUT=10s] [CLIENTS=3000] Scripts/slow-clients.sh
#
# Prints the server's resident memory before (after 100 requests of each kind), at its peak and after; when the slow connections were closed
# (seconds after each opened: the head's deadline plus at most a few seconds, never before it); the
# latencies (p50, p99, max) of /health and of the webhooks meanwhile; and the server's
# deskkit_connections_* counters. Exits 1 when a slow connection outlives the deadline + 5 s, the memory
# does not come back to within 10 % of where it started, or a p99 is 100 ms or more.
set -euo pipefail
cd "$(dirname "$0")/.."
clients=${CLIENTS:-3000}
head_timeout=${HEAD_TIMEOUT:-10s}
token=slow-clients-token
api_key=slow-clients-metrics-key-0123456789
server_port=18191
fake_port=18192
work=$(mktemp -d)
trap 'kill $(jobs -p) 2>/dev/null || true; rm -rf "$work"' EXIT
deskkit=${DESKKIT:-}
if [ -z "$deskkit" ]; then
    swift build -c release --product deskkit >&2
    deskkit=.build/release/deskkit
fi
ulimit -n $((clients + 1024)) 2>/dev/null || true

python3 Scripts/fake-sendbird.py $fake_port &
DESKKIT_METRICS_KEYS=$api_key DESKKIT_STORE=memory SENDBIRD_API_TOKEN=$token DESKKIT_API_BASE=http://127.0.0.1:$fake_port \
    DESKKIT_PORT=$server_port DESKKIT_HEAD_TIMEOUT=$head_timeout DESKKIT_MAX_CONNECTIONS=$((clients + 100)) \
    "$deskkit" serve --log-level error &
server=$!
for _ in $(seq 50); do curl -sf http://127.0.0.1:$server_port/health >/dev/null 2>&1 && break; sleep 0.2; done

status=0
python3 - "$server" "$server_port" "$clients" "$head_timeout" "$token" "$api_key" <<'PY' || status=$?
import asyncio, hashlib, hmac, json, re, sys, time

pid, port, clients, head, token, api_key = int(sys.argv[1]), int(sys.argv[2]), int(sys.argv[3]), sys.argv[4], sys.argv[5], sys.argv[6]
unit = {"ms": 0.001, "s": 1, "m": 60}
m = re.fullmatch(r"(\d+)(ms|s|m)?", head)
deadline = int(m.group(1)) * unit[m.group(2) or "s"]

def rss():
    with open("/proc/%d/status" % pid) as f:
        return int(re.search(r"VmRSS:\s+(\d+)", f.read()).group(1)) / 1024

async def slow(lived, i):
    opened = time.monotonic()
    try:
        reader, writer = await asyncio.open_connection("127.0.0.1", port)
    except OSError:
        lived.append(None)
        return
    writer.write(b"GET /health HTTP/1.1\r\n")
    n = 0
    try:
        while True:
            await writer.drain()
            try:
                data = await asyncio.wait_for(reader.read(1), 2)
                if not data:
                    break  # closed by the server
            except asyncio.TimeoutError:
                pass
            n += 1
            writer.write(b"X-Slow-%d: %d\r\n" % (n, i))
    except (ConnectionError, OSError):
        pass
    lived.append(time.monotonic() - opened)
    writer.close()

async def request(raw):
    started = time.monotonic()
    reader, writer = await asyncio.open_connection("127.0.0.1", port)
    writer.write(raw)
    await writer.drain()
    line = await reader.readline()
    await reader.read()
    writer.close()
    return time.monotonic() - started, line

def webhook(i):
    body = json.dumps({"category": "group_channel:message_send", "type": "MESG", "app_id": "SLOW", "custom_type": "",
                       "sender": {"user_id": "customer", "nickname": "Customer"},
                       "payload": {"message_id": 50_000_000 + i, "message": "hello %d" % i, "custom_type": "", "data": "",
                                   "created_at": 1_700_000_000_000 + i},
                       "channel": {"channel_url": "sendbird_group_channel_1", "name": "Support"}}).encode()
    sig = hmac.new(token.encode(), body, hashlib.sha256).hexdigest()
    return (b"POST /webhooks/sendbird HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nx-sendbird-signature: %s\r\n"
            b"Content-Length: %d\r\nConnection: close\r\n\r\n" % (sig.encode(), len(body))) + body

async def probe(kind, until, times, failures):
    i = 0
    while time.monotonic() < until:
        i += 1
        raw = b"GET /health HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n" if kind == "health" else webhook(i)
        try:
            took, line = await request(raw)
            times.append(took)
            if b" 200 " not in line:
                failures.append(line)
        except OSError as e:
            failures.append(str(e))
        await asyncio.sleep(0.05)

def pct(xs, p):
    xs = sorted(xs)
    return xs[min(len(xs) - 1, int(len(xs) * p))] * 1000 if xs else float("nan")

async def main():
    # Where the server is in operation: it has answered requests of both kinds.
    for i in range(100):
        await request(b"GET /health HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")
        await request(webhook(1_000_000 + i))
    await asyncio.sleep(1)
    before = rss()
    lived, health, hooks, failures = [], [], [], []
    start = time.monotonic()
    until = start + deadline + 10
    peak = [before]
    async def sample():
        while time.monotonic() < until + 5:
            peak[0] = max(peak[0], rss())
            await asyncio.sleep(0.5)
    tasks = [asyncio.ensure_future(slow(lived, i)) for i in range(clients)]
    probes = [asyncio.ensure_future(probe("health", until, health, failures)),
              asyncio.ensure_future(probe("webhook", until, hooks, failures)), asyncio.ensure_future(sample())]
    await asyncio.wait(tasks, timeout=deadline + 30)
    await asyncio.gather(*probes)
    open_left = sum(1 for t in tasks if not t.done())
    for t in tasks:
        t.cancel()
    await asyncio.sleep(3)
    after = rss()
    times = [x for x in lived if x is not None]
    print("slow connections: %d opened, %d refused at connect, %d still open after %.0f s" % (clients, lived.count(None), open_left, deadline + 30))
    if times:
        print("closed after: min %.1f s, median %.1f s, max %.1f s (head deadline %s)" % (min(times), sorted(times)[len(times) // 2], max(times), head))
    print("rss: %.0f MiB before, %.0f MiB at peak, %.0f MiB after" % (before, peak[0], after))
    print("GET /health meanwhile: %d, p50 %.1f ms, p99 %.1f ms, max %.1f ms" % (len(health), pct(health, .5), pct(health, .99), pct(health, 1)))
    print("signed webhooks meanwhile: %d, p50 %.1f ms, p99 %.1f ms, max %.1f ms" % (len(hooks), pct(hooks, .5), pct(hooks, .99), pct(hooks, 1)))
    if failures:
        print("failed requests: %d (first: %s)" % (len(failures), failures[0]))
    ok = (open_left == 0 and times and max(times) <= deadline + 5 and min(times) >= deadline - 0.5
          and after <= before * 1.10 and pct(health, .99) < 100 and pct(hooks, .99) < 100 and not failures)
    print("verdict:", "ok" if ok else "FAILED")
    sys.exit(0 if ok else 1)

asyncio.run(main())
PY
curl -s -H "Authorization: Bearer $api_key" http://127.0.0.1:$server_port/metrics | grep '^deskkit_connections' || true
exit $status
