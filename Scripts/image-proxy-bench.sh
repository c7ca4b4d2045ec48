#!/usr/bin/env bash
# The image proxy's figures (issue 64), on loopback, in one run:
#
#   1. proxied images per second and latency percentiles for one 100 KB image with wrk, through
#      `deskkit serve`'s /images/ and, in the same run, through nginx's `proxy_pass` to the same origin;
#   2. `deskkit serve`'s resident memory with 200 downloads of a 10 MB image in flight — 200 distinct images on
#      200 distinct hosts (127.0.1.1 … 127.0.1.200), so no fetch is shared and no host's limit queues them — each
#      client reading at RATE (default 1M bytes a second, so they stay in flight), sampled every half second.
#
#   [DESKKIT=BINARY] Scripts/image-proxy-bench.sh [SECONDS] [CONNECTIONS]     (default 15 s, 64 connections)
#
# Needs wrk, nginx and curl (apt-get install -y wrk nginx curl) and python3. The origin is nginx serving the
# files (on 127.0.0.2), so both proxies fetch from the same fast origin; nginx runs as many workers as cores
# (`worker_processes auto`), and everything shares the machine's cores with wrk.
set -euo pipefail
cd "$(dirname "$0")/.."
seconds=${1:-15}
connections=${2:-64}
rate=${RATE:-1M}
origin_port=18291
nginx_port=18292
server_port=18293
work=$(mktemp -d)
trap 'kill $(jobs -p) 2>/dev/null || true; [ -f "$work/origin.pid" ] && kill "$(cat "$work/origin.pid")" 2>/dev/null; [ -f "$work/proxy.pid" ] && kill "$(cat "$work/proxy.pid")" 2>/dev/null; rm -rf "$work"' EXIT

deskkit=${DESKKIT:-}
if [ -z "$deskkit" ]; then
    swift build -c release --product deskkit >&2
    deskkit=.build/release/deskkit
fi

# Real PNGs of noise (so nothing compresses them away): 100 KB and 9.7 MB (under the 10 MB cap).
mkdir -p "$work/www"
python3 - "$work/www" <<'PY'
import os, struct, sys, zlib
def png(path, width, height):
    raw = b"".join(b"\0" + os.urandom(width * 3) for _ in range(height))
    def chunk(kind, data):
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data) & 0xFFFFFFFF)
    with open(path, "wb") as f:
        f.write(b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", width, height, 8, 2, 0, 0, 0))
                + chunk(b"IDAT", zlib.compress(raw, 1)) + chunk(b"IEND", b""))
png(os.path.join(sys.argv[1], "small.png"), 184, 180)
png(os.path.join(sys.argv[1], "big.png"), 1800, 1795)
PY
chmod -R a+rX "$work"  # nginx's workers read the files as another user
ls -l "$work/www" | awk 'NR > 1 { printf "%s: %d bytes\n", $9, $5 }'

cat > "$work/origin.conf" <<EOF
worker_processes 1;
pid $work/origin.pid;
error_log $work/origin-error.log;
events { worker_connections 4096; }
http {
    access_log off;
    types { image/png png; }
    server { listen $origin_port; root $work/www; etag on; }
}
EOF
cat > "$work/proxy.conf" <<EOF
worker_processes auto;
pid $work/proxy.pid;
error_log $work/proxy-error.log;
events { worker_connections 4096; }
http {
    access_log off;
    upstream origin { server 127.0.0.2:$origin_port; keepalive 64; }
    server {
        listen 127.0.0.1:$nginx_port;
        location / { proxy_pass http://origin; proxy_http_version 1.1; proxy_set_header Connection ""; }
    }
}
EOF
nginx -c "$work/origin.conf"
nginx -c "$work/proxy.conf"

key=bench-image-key-0123456789
SENDBIRD_API_TOKEN=bench-token DESKKIT_IMAGE_PROXY_KEYS=$key "$deskkit" serve --port $server_port --store memory --api-base http://127.0.0.1:9 \
    --allow-private --public-url "http://127.0.0.1:$server_port" --log-level warning \
    --max-connections 10000 2> "$work/serve.log" &
server=$!
for _ in $(seq 100); do
    curl -sf "http://127.0.0.1:$server_port/health" > /dev/null && break
    sleep 0.2
done
sign() { DESKKIT_IMAGE_PROXY_KEYS=$key DESKKIT_PUBLIC_URL="http://127.0.0.1:$server_port" "$deskkit" sign-image "$1"; }
small=$(sign "http://127.0.0.2:$origin_port/small.png")
curl -sf "$small" -o "$work/check.png"
cmp -s "$work/check.png" "$work/www/small.png" || { echo "the proxy did not pass the image's exact bytes" >&2; exit 1; }

echo
echo "== 1. one 100 KB image, wrk -t2 -c$connections -d${seconds}s, twice each, alternated"
for round in 1 2; do
    for who in deskkit nginx; do
        if [ $who = deskkit ]; then url=$small; else url="http://127.0.0.1:$nginx_port/small.png"; fi
        wrk -t2 -c"$connections" -d"${seconds}s" --latency "$url" > "$work/wrk.txt"
        rps=$(awk '/Requests\/sec/ { print $2 }' "$work/wrk.txt")
        p50=$(awk '$1 == "50%" { print $2 }' "$work/wrk.txt")
        p99=$(awk '$1 == "99%" { print $2 }' "$work/wrk.txt")
        errors=$(grep -E "Non-2xx|Socket errors" "$work/wrk.txt" | tr '\n' ' ' || true)
        printf "round %s %-8s %10s images/s   p50 %8s   p99 %8s   %s\n" "$round" "$who" "$rps" "$p50" "$p99" "$errors"
    done
done

echo
echo "== 2. 200 downloads of a 9.7 MB image in flight (200 hosts, each client at $rate/s)"
rss() { awk '/VmRSS/ { print $2 }' "/proc/$server/status"; }
echo "resident before: $(( $(rss) / 1024 )) MB"
for i in $(seq 1 200); do
    url=$(sign "http://127.0.1.$i:$origin_port/big.png")
    curl -s --limit-rate "$rate" -o /dev/null -w "%{http_code} %{size_download}\n" "$url" >> "$work/downloads.txt" &
done
peak=0
samples=0
while [ "$(jobs -rp | wc -l)" -gt 1 ]; do
    now=$(rss)
    [ "$now" -gt "$peak" ] && peak=$now
    samples=$((samples + 1))
    if [ $((samples % 4)) = 1 ]; then
        echo "  $(( now / 1024 )) MB resident, $(( $(jobs -rp | wc -l) - 1 )) downloads running"
    fi
    sleep 0.5
done
complete=$(awk -v size="$(stat -c %s "$work/www/big.png")" '$1 == 200 && $2 == size' "$work/downloads.txt" | wc -l)
echo "peak resident: $(( peak / 1024 )) MB; downloads complete with the exact size: $complete of 200"
echo "resident after: $(( $(rss) / 1024 )) MB"
