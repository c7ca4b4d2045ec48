#!/usr/bin/env bash
# Fuzzes `deskkit serve`'s HTTP API against its OpenAPI document (Sources/DeskKitServer/openapi.json) with
# schemathesis: every operation, checked for not_a_server_error, status_code_conformance,
# content_type_conformance and response_schema_conformance. Whatever it finds is fixed in the server, not in
# the document. Webhook bodies are signed with the server's token (Scripts/api_fuzz_hooks.py), so the fuzzer
# reaches the webhook route itself, not only its signature check; half the image proxy's URLs are signed
# with its key, so it reaches the proxy's fetch too. The server runs with traces on (exported to
# a sink in the namespace), so the fuzzed `traceparent` and `tracestate` headers meet the real propagator.
#
#   Scripts/api-fuzz.sh [MAX_TIME_SECONDS]      (default 120)
#
# The server and the fuzzer run in a network namespace of their own (`unshare -n`, or `unshare -rn` for a user
# that is not root) holding only a loopback interface: the pages the fuzzer makes the server fetch cannot leave
# the machine, and the Platform API base is a closed loopback port. schemathesis comes from PyPI into a
# virtualenv at $SCHEMATHESIS_VENV (default ~/.cache/deskkit-schemathesis). DESKKIT names the binary
# (default .build/debug/deskkit, built when missing). EXAMPLES caps the examples per operation (default 60).
set -euo pipefail
cd "$(dirname "$0")/.."
max_time=${1:-120}
venv=${SCHEMATHESIS_VENV:-$HOME/.cache/deskkit-schemathesis}
DESKKIT=${DESKKIT:-.build/debug/deskkit}
[ -x "$DESKKIT" ] || swift build --product deskkit
if [ ! -x "$venv/bin/schemathesis" ]; then
    python3 -m venv "$venv"
    "$venv/bin/pip" install -q "schemathesis==4.32.5"
fi
if [ "$(id -u)" = 0 ]; then isolate=(unshare -n); else isolate=(unshare -rn); fi
"${isolate[@]}" true || { echo "api-fuzz.sh needs a network namespace (unshare -n); none can be made here" >&2; exit 69; }
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
export DESKKIT work max_time venv
export DESKKIT_FUZZ_TOKEN=fuzz-token DESKKIT_FUZZ_IMAGE_KEY=fuzz-image-key-0123456789 SCHEMATHESIS_HOOKS=api_fuzz_hooks PYTHONPATH="$PWD/Scripts"
export EXAMPLES=${EXAMPLES:-60}
"${isolate[@]}" bash -euo pipefail -c '
    ip link set lo up
    key=fuzz-key-0123456789abcdef
    port=18080
    # Traces on, so the fuzzed traceparent and tracestate headers meet the real propagator: exported to a sink
    # that takes every OTLP/HTTP post and keeps nothing.
    python3 -c "
import http.server as s
class Sink(s.BaseHTTPRequestHandler):
    def do_POST(self):
        self.rfile.read(int(self.headers.get(\"Content-Length\") or 0))
        self.send_response(200); self.send_header(\"Content-Length\", \"0\"); self.end_headers()
    def log_message(self, *args): pass
s.HTTPServer((\"127.0.0.1\", 4318), Sink).serve_forever()" &
    sink=$!
    OTEL_EXPORTER_OTLP_ENDPOINT=http://127.0.0.1:4318 OTEL_SWIFT_LOG_LEVEL=warning \
    SENDBIRD_API_TOKEN=$DESKKIT_FUZZ_TOKEN DESKKIT_API_KEYS=$key DESKKIT_IMAGE_PROXY_KEYS=$DESKKIT_FUZZ_IMAGE_KEY \
        "$DESKKIT" serve --port $port --store memory --public-url "http://127.0.0.1:$port" \
        --api-base http://127.0.0.1:9 --rate-limit 0 --fetch-timeout 2s --log-level warning 2> "$work/serve.log" &
    server=$!
    trap "kill $server $sink 2>/dev/null; wait $server 2>/dev/null || true" EXIT
    for _ in $(seq 100); do
        curl -sf "http://127.0.0.1:$port/health" > /dev/null && break
        sleep 0.2
    done
    status=0
    "$venv/bin/schemathesis" run "http://127.0.0.1:$port/openapi.json" --url "http://127.0.0.1:$port" \
        --checks not_a_server_error,status_code_conformance,content_type_conformance,response_schema_conformance \
        -H "Authorization: Bearer $key" --max-examples "$EXAMPLES" --max-time "$max_time" --seed 1138 \
        --workers 2 --report-dir "$work/report" || status=$?
    if ! kill -0 $server 2>/dev/null; then echo "deskkit serve died:" >&2; tail -20 "$work/serve.log" >&2; exit 1; fi
    exit $status
'
