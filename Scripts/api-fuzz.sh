#!/usr/bin/env bash
# Fuzzes `deskkit serve`'s HTTP API against the OpenAPI document it serves, in three configurations, with
# schemathesis: every operation, checked for not_a_server_error, status_code_conformance,
# content_type_conformance and response_schema_conformance, after openapi-spec-validator has checked the document
# itself. The document a server serves names the routes its configuration has (a route that is off is absent),
# so each configuration is fuzzed against its own:
#
#   defaults   the defaults with a client key and an operator key, fuzzed with the client key: a SQLite store, no
#              image proxy, no site policy; the console's routes and /metrics answer it 403, as documented;
#   all        every optional route on, fuzzed with the operator key: the image proxy (half its URLs signed with its
#              key, so the fuzzer reaches the proxy's fetch), a site policy, the job store and the shared preview
#              cache on PostgreSQL (a throwaway cluster in the namespace; SQLite when not run as root, which initdb
#              needs to drop to the postgres user);
#   no-key     no key at all: /v1/* and /metrics answer 401 to everyone, as documented.
#
# Webhook bodies are signed with the server's token in every configuration (Scripts/api_fuzz_hooks.py), so the
# fuzzer reaches the webhook route itself, not only its signature check. The servers run with traces on
# (exported to a sink in the namespace), so the fuzzed `traceparent` and `tracestate` headers meet the real
# propagator. Whatever the fuzzer finds is fixed in the server, not in the document.
#
#   Scripts/api-fuzz.sh [MAX_TIME_SECONDS]      (default 120: half to `all`, 30 % to `defaults`, 20 % to `no-key`)
#
# The servers and the fuzzer run in a network namespace of their own (`unshare -n`, or `unshare -rn` for a user
# that is not root) holding only a loopback interface: the pages the fuzzer makes a server fetch cannot leave
# the machine, and the Platform API base is a closed loopback port. schemathesis and openapi-spec-validator come
# from PyPI into a virtualenv at $SCHEMATHESIS_VENV (default ~/.cache/deskkit-schemathesis). DESKKIT names the
# binary (default .build/debug/deskkit, built when missing). EXAMPLES caps the examples per operation (default 60);
# CHECKS names schemathesis' checks (default the four above; `all` for every one it has).
set -euo pipefail
cd "$(dirname "$0")/.."
max_time=${1:-120}
venv=${SCHEMATHESIS_VENV:-$HOME/.cache/deskkit-schemathesis}
DESKKIT=${DESKKIT:-.build/debug/deskkit}
[ -x "$DESKKIT" ] || swift build --product deskkit
if [ ! -x "$venv/bin/schemathesis" ] || [ ! -x "$venv/bin/openapi-spec-validator" ]; then
    python3 -m venv "$venv"
    "$venv/bin/pip" install -q "schemathesis==4.32.5" "openapi-spec-validator==0.7.2"
fi
if [ "$(id -u)" = 0 ]; then isolate=(unshare -n); else isolate=(unshare -rn); fi
"${isolate[@]}" true || { echo "api-fuzz.sh needs a network namespace (unshare -n); none can be made here" >&2; exit 69; }
work=$(mktemp -d)
chmod 755 "$work"
trap 'rm -rf "$work"' EXIT
pg_bin=""
if [ "$(id -u)" = 0 ] && initdb=$(command -v initdb || ls -d /usr/lib/postgresql/*/bin/initdb 2>/dev/null | sort -V | tail -1); then
    pg_bin=$(dirname "$(readlink -f "$initdb")")
fi
export DESKKIT work venv pg_bin
export DESKKIT_FUZZ_TOKEN=fuzz-token SCHEMATHESIS_HOOKS=api_fuzz_hooks PYTHONPATH="$PWD/Scripts"
export EXAMPLES=${EXAMPLES:-60}
export CHECKS=${CHECKS:-not_a_server_error,status_code_conformance,content_type_conformance,response_schema_conformance} T_ALL=$((max_time / 2)) T_DEFAULTS=$((max_time * 3 / 10)) T_NO_KEY=$((max_time / 5))
"${isolate[@]}" bash -euo pipefail -c '
    ip link set lo up
    key=fuzz-key-0123456789abcdef
    operator_key=fuzz-operator-key-0123456789
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
    pids="$sink"
    pg_stop() { :; }
    trap "kill \$pids 2>/dev/null || true; pg_stop" EXIT
    # One configuration: NAME PORT SECONDS AUTH (the key sent: client, operator or no), then the server'"'"'s own
    # arguments. Both kinds of key are configured; a client key on the console'"'"'s routes is a 403, as documented.
    fuzz() {
        local name=$1 port=$2 seconds=$3 auth=$4
        shift 4
        echo "== $name: $seconds s"
        OTEL_EXPORTER_OTLP_ENDPOINT=http://127.0.0.1:4318 OTEL_SWIFT_LOG_LEVEL=warning \
        SENDBIRD_API_TOKEN=$DESKKIT_FUZZ_TOKEN \
            "$DESKKIT" serve --port $port --public-url "http://127.0.0.1:$port" --api-base http://127.0.0.1:9 \
            --rate-limit 0 --fetch-timeout 2s --log-level warning "$@" 2> "$work/$name.log" &
        local server=$!
        pids="$pids $server"
        for _ in $(seq 150); do
            curl -sf "http://127.0.0.1:$port/health" > /dev/null && break
            sleep 0.2
        done
        # The document itself, its references to /schemas/ resolved against the server.
        "$venv/bin/python" -c "import sys; from openapi_spec_validator import validate_url; validate_url(sys.argv[1])" \
            "http://127.0.0.1:$port/openapi.json" || { echo "the document of $name is not valid OpenAPI" >&2; return 1; }
        local headers=()
        [ "$auth" = client ] && headers=(-H "Authorization: Bearer $key")
        [ "$auth" = operator ] && headers=(-H "Authorization: Bearer $operator_key")
        local status=0
        "$venv/bin/schemathesis" run "http://127.0.0.1:$port/openapi.json" --url "http://127.0.0.1:$port" \
            --checks "$CHECKS" "${headers[@]}" --max-examples "$EXAMPLES" --max-time "$seconds" --seed 1138 --workers 2 \
            --report-dir "$work/report-$name" || status=$?
        if ! kill -0 $server 2>/dev/null; then echo "deskkit serve ($name) died:" >&2; tail -20 "$work/$name.log" >&2; exit 1; fi
        kill $server; wait $server 2>/dev/null || true
        return $status
    }
    status=0
    DESKKIT_API_KEYS=$key DESKKIT_OPERATOR_KEYS=$operator_key \
        fuzz defaults 18080 "$T_DEFAULTS" client --store "sqlite:$work/defaults.sqlite" || status=1
    store="sqlite:$work/all.sqlite"
    if [ -n "$pg_bin" ]; then
        pg_port=18432
        mkdir "$work/pg" && chown postgres "$work/pg"
        runuser -u postgres -- "$pg_bin/initdb" -D "$work/pg" -U deskkit -A trust --no-sync > /dev/null
        printf "listen_addresses = '"'"'127.0.0.1'"'"'\nport = %s\nunix_socket_directories = '"'"'%s'"'"'\n" \
            $pg_port "$work/pg" >> "$work/pg/postgresql.conf"
        runuser -u postgres -- "$pg_bin/pg_ctl" -D "$work/pg" -l "$work/pg/log" -w start > /dev/null
        pg_stop() { runuser -u postgres -- "$pg_bin/pg_ctl" -D "$work/pg" -m immediate stop > /dev/null 2>&1 || true; }
        store="postgres://deskkit@127.0.0.1:$pg_port/postgres"
    else
        echo "(not root: the store and the shared cache of the all-routes configuration are SQLite)"
    fi
    image_key=fuzz-image-key-0123456789
    DESKKIT_API_KEYS=$key DESKKIT_OPERATOR_KEYS=$operator_key DESKKIT_IMAGE_PROXY_KEYS=$image_key \
        DESKKIT_FUZZ_IMAGE_KEY=$image_key fuzz all 18081 "$T_ALL" operator --store "$store" \
        --preview-hosts-deny "denied.example,*.blocked.example" || status=1
    fuzz no-key 18082 "$T_NO_KEY" no --store memory || status=1
    exit $status
'
