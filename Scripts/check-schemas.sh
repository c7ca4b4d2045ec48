#!/usr/bin/env bash
# The JSON Schemas (Sources/DeskKitSchemas/Schemas/) against DeskKit's strict validation, with Python's
# `jsonschema` and hypothesis-jsonschema from PyPI (Scripts/check_schemas.py says what is checked):
#   Scripts/check-schemas.sh [VARIANTS] [EXAMPLES]
# VARIANTS `deskkit mutate` variants of the corpus and the generated instances (default 100000), EXAMPLES hypothesis instances per schema
# (default 1000). The tools go into a virtualenv at $SCHEMAS_VENV (default ~/.cache/deskkit-schemas); DESKKIT
# names the binary (default: .build/debug/deskkit, built by `swift test`).
set -euo pipefail
cd "$(dirname "$0")/.."
venv=${SCHEMAS_VENV:-$HOME/.cache/deskkit-schemas}
if [ ! -x "$venv/bin/python" ] || ! "$venv/bin/python" -c "import jsonschema, hypothesis_jsonschema" 2>/dev/null; then
  python3 -m venv "$venv"
  # hypothesis-jsonschema 0.23 breaks with hypothesis 6.131 and later.
  "$venv/bin/pip" install -q "jsonschema==4.26.0" "hypothesis<6.131" "hypothesis-jsonschema==0.23.1"
fi
export DESKKIT=${DESKKIT:-.build/debug/deskkit}
[ -x "$DESKKIT" ] || swift build --product deskkit
SCHEMA_VARIANTS=${1:-100000} SCHEMA_EXAMPLES=${2:-1000} "$venv/bin/python" Scripts/check_schemas.py
