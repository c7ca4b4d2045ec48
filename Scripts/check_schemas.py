"""The JSON Schemas against DeskKit's strict validation (Scripts/check-schemas.sh runs this).

1. Every schema is a valid draft 2020-12 document, and every example validates against its schema.
2. hypothesis-jsonschema generates valid instances of every payload schema and of Pyrus's and LiveTex's
   bodies; `deskkit validate` finds no problem in any, and `deskkit decode` reads each payload as its kind.
3. Equal to the validator: every JSON text of Corpus/, those instances, and the `deskkit mutate` variants of
   both that are still JSON (RFC 8259 text in UTF-8 without lone surrogates, NaN or a key twice — what a schema
   cannot see) are validated under each format both ways — `deskkit validate --format NAME` and the schema
   NAME with Python's `jsonschema` — and the two must agree on every one.

4. One URL rule: every URL of Corpus/urls (Scripts/make-url-corpus.py) gets the same verdict from `common.json`'s
   `web-url` and from `deskkit card --urls` (`URLSafety`, which strict validation reports as `unsafe_url`), but
   for the two rules a pattern cannot state (an `xn--` label's decoded form, the bidi rule across a host's labels),
   which only DeskKit refuses, counted.

`jsonschema` leaves contentMediaType/contentEncoding/contentSchema as annotations (draft 2020-12 allows that);
here they are asserted, as the schemas' descriptions say: a string under `contentMediaType: application/json`
holds JSON — base64 of it with `contentEncoding: base64` — with a BOM and white space allowed around it, and
that JSON validates against `contentSchema`.
"""

import base64
import json
import os
import subprocess
import sys
import tempfile

import jsonschema
import referencing
import referencing.jsonschema
from jsonschema import Draft202012Validator, ValidationError

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
SCHEMAS = os.path.join(ROOT, "Sources", "DeskKitSchemas", "Schemas")
DESKKIT = os.environ.get("DESKKIT", os.path.join(ROOT, ".build", "debug", "deskkit"))
FORMATS = ["desk-data", "desk-message", "sendbird-webhook", "pyrus-webhook", "pyrus-auth", "livetex-webhook"]
# The rules the schemas' descriptions name as ones no schema can state: a text DeskKit finds one of these in is
# left out of the comparison (and counted).
UNSTATED = {"duplicate_key", "too_deep"}
# The URL rules no pattern states (common.json's `web-url` says so): a label's punycode decoded, and the bidi rule
# across the labels of a host with a right-to-left one. An `unsafe_url` problem saying one of these is left out too.
UNSTATED_URL = ("has an xn-- label in its host", "mixes right-to-left and left-to-right text in its host")
WHAT_IS_UNSTATED = ("a key twice inside data, nesting past the parser's 128 levels, an xn-- label's decoded form, "
                    "the bidi rule across a host's labels")


def unstated(problem):
    """Whether DeskKit's `problem` is one of the rules no schema states."""
    return problem["code"] in UNSTATED or (
        problem["code"] == "unsafe_url" and problem["message"].startswith(UNSTATED_URL))
PAYLOADS = {"url-preview": "url_preview", "closure-inquiry": "closure_inquiry",
            "customer-satisfaction": "customer_satisfaction", "bot-answers": "bot_answers",
            "notification": "notification", "system-message": "system_message"}


def load_schemas():
    docs = {}
    for name in sorted(os.listdir(SCHEMAS)):
        with open(os.path.join(SCHEMAS, name), encoding="utf-8") as f:
            docs[name[:-5]] = json.load(f)
    # Without $schema, a $ref into another document keeps this harness's validator (with content assertion)
    # instead of jsonschema's own for the dialect.
    bare = {name: {k: v for k, v in doc.items() if k != "$schema"} for name, doc in docs.items()}
    registry = referencing.Registry().with_resources(
        (doc["$id"], referencing.Resource(contents=doc, specification=referencing.jsonschema.DRAFT202012))
        for doc in bare.values())
    return docs, bare, registry


# MARK: Content assertion

def strict_json(text):
    """JSON as RFC 8259 has it, or None: no NaN/Infinity, no key twice, no lone surrogate."""
    duplicate = False

    def pairs(items):
        nonlocal duplicate
        keys = [k for k, _ in items]
        if len(set(keys)) != len(keys):
            duplicate = True
        return dict(items)

    def constant(name):
        raise ValueError(name)

    try:
        value = json.loads(text, object_pairs_hook=pairs, parse_constant=constant)
        json.dumps(value, ensure_ascii=False).encode("utf-8")
    except (ValueError, RecursionError, UnicodeEncodeError):
        return None, False
    return value, duplicate


def trim(text):
    """Without a byte order mark and the white space (space, tab, CR, LF) around it."""
    t = text.strip(" \t\r\n")
    if t.startswith("\ufeff"):
        t = t[1:].strip(" \t\r\n")
    return t


def from_base64(text):
    t = trim(text).replace("\r\n", "").replace("\n", "")
    urlsafe = "-" in t or "_" in t
    t += "=" * (-len(t) % 4)
    try:
        raw = base64.b64decode(t, altchars=b"-_" if urlsafe else None, validate=True)
        return raw.decode("utf-8")
    except (ValueError, UnicodeDecodeError):
        return None


def content_media_type(validator, media_type, instance, schema):
    if media_type != "application/json" or not isinstance(instance, str):
        return
    if schema.get("contentEncoding") == "base64":
        text = from_base64(instance)
        if text is None or not trim(text)[:1] in ("{", "["):
            yield ValidationError("not base64 of JSON")
            return
    else:
        text = instance
    value, _ = strict_json(trim(text))
    if value is None and trim(text) != "null":
        yield ValidationError("does not hold JSON")
        return
    if "contentSchema" in schema:
        yield from validator.descend(value, schema["contentSchema"])


Validator = jsonschema.validators.extend(Draft202012Validator, {"contentMediaType": content_media_type})


# MARK: DeskKit

def deskkit(*args, stdin=None):
    return subprocess.run([DESKKIT, *args], input=stdin, capture_output=True, check=False)


def deskkit_valid(fmt, texts):
    """`deskkit validate --format fmt --jsonl` on each text (one line each): valid or not, and the problems."""
    out = deskkit("validate", "--format", fmt, "--jsonl", "-", stdin="\n".join(texts).encode() + b"\n")
    answers = [json.loads(line) for line in out.stdout.splitlines()]
    assert len(answers) == len(texts), (fmt, len(answers), len(texts), out.stderr[:500])
    return [(a["valid"], a["problems"]) for a in answers]


def compare_urls(docs):
    """Each URL of Corpus/urls against `web-url` and `deskkit card --urls`; the count of disagreements."""
    with open(os.path.join(ROOT, "Corpus", "urls", "urls.jsonl"), encoding="utf-8") as f:
        lines = [line for line in f.read().split("\n") if line]
    out = deskkit("card", "--urls", "-", stdin="\n".join(lines).encode() + b"\n")
    answers = [json.loads(line) for line in out.stdout.decode().split("\n") if line]
    assert len(answers) == len(lines), (len(answers), len(lines), out.stderr[:500])
    validator = Validator(docs["common"]["$defs"]["web-url"])
    failures = beyond = 0
    for line, answer in zip(lines, answers):
        url = json.loads(line)
        if validator.is_valid(url) != answer["safe"]:
            if not answer["safe"] and answer["problem"].startswith(UNSTATED_URL):
                beyond += 1
                continue
            failures += 1
            print(f"URL {json.dumps(url)[:200]}: deskkit says {answer['safe']} ({answer['problem']})")
    safe = sum(a["safe"] for a in answers)
    print(f"{len(lines)} URLs of Corpus/urls ({safe} safe): web-url and deskkit card --urls agree on "
          f"{len(lines) - failures - beyond}, {beyond} refused for a rule no pattern states (an xn-- label's "
          f"decoded form, the bidi rule)")
    return failures


def corpus_texts():
    """Every JSON text in Corpus/ (whole files and lines of JSON-lines files), and the data payloads inside."""
    texts = set()
    for folder in ["envelope", "messages", "message-data", "validate", "webhooks", "pyrus-webhook",
                   "pyrus-auth", "livetex-webhook"]:
        base = os.path.join(ROOT, "Corpus", folder)
        for name in sorted(os.listdir(base)):
            with open(os.path.join(base, name), "rb") as f:
                raw = f.read()
            try:
                text = raw.decode("utf-8")
            except UnicodeDecodeError:
                continue
            candidates = [text] + text.split("\n")
            for c in candidates:
                for t in (c, trim(c), from_base64(c) or ""):
                    value, duplicate = strict_json(t)
                    if isinstance(value, dict) and not duplicate and "\n" not in t and "\r" not in t:
                        texts.add(t)
                        data = value.get("data")
                        if isinstance(data, str):
                            for inner in (trim(data), from_base64(data) or ""):
                                v, dup = strict_json(inner)
                                if isinstance(v, dict) and not dup and "\n" not in inner:
                                    texts.add(inner)
    return sorted(texts)


def variants(texts, count, seed):
    with tempfile.NamedTemporaryFile("w", suffix=".jsonl", delete=False) as f:
        f.write("\n".join(texts) + "\n")
    out = deskkit("mutate", f.name, "--count", str(count), "--seed", str(seed))
    os.unlink(f.name)
    kept = []
    # Lines end at "\n" only: str.splitlines would also split at U+2028 and U+0085, which a text may hold.
    for line in out.stdout.split(b"\n"):
        if not line:
            continue
        text = json.loads(line)["text"]
        if text is None or "\n" in text or "\r" in text:
            continue
        value, duplicate = strict_json(text)
        if value is not None and not duplicate:
            kept.append(text)
    return kept


def compare_one(job):
    """One format's judgements, both ways (run in a process of its own): the lines to print, disagreements."""
    fmt, docs, texts = job
    _, _, registry = load_schemas()
    validator = Validator(docs[fmt], registry=registry)
    answers = deskkit_valid(fmt, texts)
    lines, failures, agree, valid, beyond = [], 0, 0, 0, 0
    for text, (ok, problems) in zip(texts, answers):
        if any(unstated(p) for p in problems):
            beyond += 1
            continue
        errors = list(validator.iter_errors(json.loads(text)))
        if (not errors) == ok:
            agree += 1
            valid += ok
            continue
        failures += 1
        if failures <= 10:
            found = "valid" if not errors else [(list(e.absolute_path), e.message[:120]) for e in errors[:2]]
            lines.append(f"DISAGREE {fmt}: deskkit {'valid' if ok else problems[:2]} schema {found}\n    {text[:400]}")
    lines.append(f"{fmt}: {len(texts)} texts, {agree} agree ({valid} valid both ways), {beyond} left out for a rule "
                 f"no schema states ({WHAT_IS_UNSTATED})")
    return lines, failures


def compare(docs, texts):
    import multiprocessing

    with multiprocessing.Pool(os.cpu_count()) as pool:
        results = pool.map(compare_one, [(fmt, docs, texts) for fmt in FORMATS])
    for lines, _ in results:
        print("\n".join(lines))
    return sum(failures for _, failures in results)


def generate(job):
    """Valid instances of one schema from hypothesis-jsonschema, as JSON texts (run in a process of its own)."""
    import functools

    import hypothesis_jsonschema._from_schema as strategies
    from hypothesis import HealthCheck, given, settings
    from hypothesis_jsonschema import from_schema

    # hypothesis-jsonschema builds a pattern's strategy again for every object it draws, and hypothesis builds
    # one character by character: seconds for `web-url`'s classes of Unicode ranges. Built once, kept.
    if not hasattr(strategies.from_js_regex, "cache_info"):
        strategies.from_js_regex = functools.lru_cache(maxsize=None)(strategies.from_js_regex)

    schema, count = job
    instances = []

    # derandomize: the same instances each run, so that CI's verdict does not change from one run to the next.
    @settings(
        max_examples=count, deadline=None, database=None, derandomize=True, suppress_health_check=list(HealthCheck)
    )
    @given(from_schema(schema))
    def collect(instance):
        instances.append(json.dumps(instance, ensure_ascii=False))

    collect()
    return instances


def hypothesis_instances(docs, registry, per_schema):
    """Valid instances of every payload schema and of the other systems' bodies: deskkit finds no problem in
    any, and reads each payload as its kind. hypothesis-jsonschema does not generate what content keywords
    assert (a ticket's relatedChannels holds a JSON array), so an instance is kept only when the validator
    with content assertion takes it too."""
    import multiprocessing

    names = list(PAYLOADS) + ["pyrus-webhook", "pyrus-auth", "livetex-webhook"]
    with multiprocessing.Pool(os.cpu_count()) as pool:
        generated = pool.map(generate, [(bundle(docs, n), per_schema) for n in names])
    failures = 0
    everything = []
    for name, candidates in zip(names, generated):
        validator = Validator(docs[name], registry=registry)
        instances = [i for i in candidates if validator.is_valid(json.loads(i))]
        if len(instances) < len(candidates):
            print(f"{name}: {len(candidates) - len(instances)} of {len(candidates)} generated left out: "
                  f"what they hold in a string the content keywords describe is not that")
        everything += instances
        fmt = "desk-data" if name in PAYLOADS else name
        lines = "\n".join(instances).encode() + b"\n"
        answers = [json.loads(line) for line in deskkit("validate", "--format", fmt, "--jsonl", "-",
                                                         stdin=lines).stdout.splitlines()]
        bad, beyond = [], []
        for i, a in zip(instances, answers):
            if not a["valid"]:
                (beyond if all(unstated(p) for p in a["problems"]) else bad).append((i, a["problems"]))
        wrong_kind = []
        if name in PAYLOADS:
            decoded = deskkit("decode", "--format", fmt, "--messages", "-", stdin=lines).stdout.splitlines()
            wrong_kind = [(i, json.loads(d)["kind"]) for i, d in zip(instances, decoded)
                          if json.loads(d)["kind"] != PAYLOADS[name]]
        failures += len(bad) + len(wrong_kind) + (len(answers) != len(instances))
        for i, p in bad[:5]:
            print(f"HYPOTHESIS {name}: deskkit finds {p[:2]} in {i[:300]}")
        for i, k in wrong_kind[:5]:
            print(f"HYPOTHESIS {name}: read as {k}, not {PAYLOADS[name]}: {i[:300]}")
        kinds = f", {len(instances) - len(wrong_kind)} read as {PAYLOADS[name]}" if name in PAYLOADS else ""
        print(f"{name}: {len(instances)} valid instances generated, {len(instances) - len(bad) - len(beyond)} "
              f"without a problem for deskkit validate --format {fmt}, {len(beyond)} with one no schema states"
              f"{kinds}")
    return failures, everything


def bundle(docs, name):
    """`name` with every document it refers to inlined under $defs (hypothesis-jsonschema reads one document)."""
    def rewrite(node, here):
        if isinstance(node, dict):
            out = {}
            for k, v in node.items():
                if k == "$ref":
                    target, _, pointer = v.partition("#")
                    doc = target[:-5] if target else here
                    out[k] = f"#/$defs/{doc}{pointer}"
                elif k in ("$id", "$schema", "examples"):
                    continue
                else:
                    out[k] = rewrite(v, here)
            return out
        if isinstance(node, list):
            return [rewrite(v, here) for v in node]
        return node

    defs = {n: rewrite(d, n) for n, d in docs.items()}
    root = dict(defs[name])
    root["$defs"] = dict(root.get("$defs", {}), **defs)
    return root


def members_without_description(doc):
    """The members (`properties`) with no description, outside conditions (`if`) and what a condition adds to
    a member described elsewhere (`then`, `else`, `allOf`, `anyOf`, `contentSchema`)."""
    missing = []

    def walk(node, path, described):
        if isinstance(node, dict):
            for key, value in node.get("properties", {}).items():
                if described and isinstance(value, dict) and "description" not in value:
                    missing.append(f"{path}/properties/{key}")
            for key, value in node.items():
                if key in ("if", "not"):
                    continue
                inner = described and key not in ("then", "else", "allOf", "anyOf", "contentSchema")
                walk(value, f"{path}/{key}", inner)
        elif isinstance(node, list):
            for i, value in enumerate(node):
                walk(value, f"{path}/{i}", described)

    walk(doc, "#", True)
    return missing


def main():
    originals, docs, registry = load_schemas()
    failures = 0
    for name, doc in docs.items():
        Draft202012Validator.check_schema(originals[name])
        validator = Validator(doc, registry=registry)
        for example in doc.get("examples", []):
            for error in validator.iter_errors(example):
                failures += 1
                print(f"EXAMPLE {name}: {error.message[:200]}")
    undescribed = [f"{name}: {path}" for name, doc in originals.items() for path in members_without_description(doc)]
    for member in undescribed:
        print(f"UNDESCRIBED {member}")
    failures += len(undescribed)
    print(f"{len(docs)} schemas are draft 2020-12 documents; every member is described; their examples validate")

    failures += compare_urls(docs)

    # Valid instances first: they are mutated with the corpus, which puts random strings, numbers and keys
    # into the variants.
    examples = int(os.environ.get("SCHEMA_EXAMPLES", "1000"))
    instances = []
    if examples:
        found, instances = hypothesis_instances(docs, registry, examples)
        failures += found
    count = int(os.environ.get("SCHEMA_VARIANTS", "100000"))
    texts = corpus_texts()
    mutated = variants(texts + instances, count, seed=int(os.environ.get("SCHEMA_SEED", "1")))
    compared = sorted(set(texts + instances + mutated))
    print(f"{len(texts)} JSON texts in Corpus/ and {len(instances)} generated; {len(mutated)} of {count} "
          f"mutate variants of them still JSON; {len(compared)} distinct texts compared")
    failures += compare(docs, compared)
    if failures:
        print(f"{failures} disagreements")
        sys.exit(1)


if __name__ == "__main__":
    main()
