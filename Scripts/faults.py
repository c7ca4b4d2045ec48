#!/usr/bin/env python3
"""A day of production faults in a few minutes, against two `deskkit serve` instances sharing one PostgreSQL
database, on loopback. Run by Scripts/faults.sh, which builds the release binary and starts the database.

    faults.py --deskkit BIN --pg-bin DIR --pg-data DIR --pg-port PORT --work DIR [--seconds 600] [--rate 60]
              [--as-user postgres]

Webhooks go out at a steady rate, round-robin over the instances that answer /health (as a load balancer
does; a refused connection goes to the other instance at once), each signed as Sendbird signs them; a 503 is
sent again after its Retry-After (as Sendbird does). Meanwhile, one after another and twice overlapping: an
instance frozen (SIGSTOP) past its lease while it holds running jobs, an instance killed (SIGKILL) and started
again, PostgreSQL stopped (pg_ctl stop -m fast) and started, the Platform API answering 429 with Retry-After, then
503, then hanging past the client's deadline, pages that hang, trickle or reset the connection, a burst at three
times the rate, and every webhook delivered twice.

The stand-in Platform API checks every update as it arrives against the store: the job's claim token
(`DeskKit-Claim`) must be the one the job runs under, and the job must still be running. At the end, after a
drain, the verdict: every webhook answered 200 has its message updated; no update came from a worker whose
claim was gone or after the job ended; no job is left queued or running; each instance's resident memory, 10 s
after the drain, is within 20 % of its value after warm-up; no webhook timed out or got another answer than 200
or 503 with Retry-After. Prints the figures — each instance's memory split into anonymous and file-backed pages,
its heap and trims as its `/metrics` reports them — and the verdict; exits 1 when the verdict fails."""
import argparse
import hashlib
import heapq
import hmac
import http.client
import json
import os
import queue
import re
import select
import signal
import socket
import subprocess
import sys
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

TOKEN = "faults-api-token"
KEY = "faults-metrics-key-0123456789"
PAGE_COUNT = 200


def now():
    return time.monotonic()


# ---------------------------------------------------------------------------------------------------------------
# The store, as the stand-in API and the verdict read it: one psql process kept open (no Python driver needed).


class Store:
    ROW = re.compile(r"^(queued|running|done|failed)\|(-?\d+)$")

    def __init__(self, args, pool=4):
        self.connections = [Connection(args) for _ in range(pool)]
        self.turn = 0

    def _query(self, sql, timeout=5.0):
        self.turn += 1
        return self.connections[self.turn % len(self.connections)].query(sql, timeout)

    def claim(self, message_id):
        """(state, claim token) of a job, ("absent", None) when there is none, None when the store is down."""
        lines = self._query("SELECT state, claim_token FROM deskkit_jobs WHERE message_id = %d;" % message_id)
        if lines is None:
            return None
        if not lines:
            return ("absent", None)
        match = self.ROW.match(lines[0])
        return (match.group(1), int(match.group(2))) if match else None

    def counts(self):
        lines = self._query("SELECT state || '|' || count(*) FROM deskkit_jobs GROUP BY state;")
        if lines is None or any("|" not in l for l in lines):
            return None
        return {l.split("|")[0]: int(l.split("|")[1]) for l in lines}

    def stored_ids(self):
        lines = self._query("SELECT message_id FROM deskkit_jobs;", timeout=30)
        return {int(l) for l in lines if l.isdigit()} if lines is not None else None


class Connection:
    """One psql process kept open, one query at a time."""

    def __init__(self, args):
        self.cmd = [os.path.join(args.pg_bin, "psql"), "-h", "127.0.0.1", "-p", str(args.pg_port), "-U", "deskkit",
                    "-d", "postgres", "-At", "-q"]
        self.lock = threading.Lock()
        self.proc = None

    def query(self, sql, timeout):
        with self.lock:
            return self._query(sql, timeout)

    def _query(self, sql, timeout):
        """The rows of `sql` as lines, or None when the database does not answer."""
        if self.proc is None or self.proc.poll() is not None:
            self.proc = subprocess.Popen(self.cmd, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                         stderr=subprocess.STDOUT, bufsize=0)
        try:
            self.proc.stdin.write((sql + "\n\\echo __END__\n").encode())
            # Read from the descriptor itself: a buffered reader would hold lines that select() cannot see.
            out, deadline, fd = b"", now() + timeout, self.proc.stdout.fileno()
            while b"__END__\n" not in out:
                ready, _, _ = select.select([fd], [], [], max(0.0, deadline - now()))
                if not ready:
                    raise TimeoutError
                chunk = os.read(fd, 65536)
                if not chunk:
                    raise EOFError
                out += chunk
            return [l.strip() for l in out.decode().split("__END__")[0].splitlines() if l.strip()]
        except (OSError, EOFError, TimeoutError, ValueError):
            self.proc.kill()
            self.proc = None
            return None


# ---------------------------------------------------------------------------------------------------------------
# The stand-in Platform API and the pages behind the links.


class Fake:
    def __init__(self, store):
        self.store = store
        self.lock = threading.Lock()
        self.put_mode = "ok"
        self.updates = {}  # message id -> [(time, claim token, verdict)]
        self.answers = {}  # what PUTs were answered: "200", "429", "503", "hang", "unchecked"

    def count(self, answer):
        with self.lock:
            self.answers[answer] = self.answers.get(answer, 0) + 1

    def serve(self, port):
        fake = self

        class Handler(BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1"

            def log_message(self, *args):
                pass

            def setup(self):
                super().setup()
                self.request.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)

            def answer(self, status, body=b"{}", content_type="application/json", headers=()):
                self.send_response(status)
                self.send_header("Content-Type", content_type)
                self.send_header("Content-Length", str(len(body)))
                for name, value in headers:
                    self.send_header(name, value)
                self.end_headers()
                self.wfile.write(body)

            def do_PUT(self):
                self.rfile.read(int(self.headers.get("Content-Length", "0")))
                match = re.match(r"^/v3/group_channels/[^/]+/messages/(\d+)$", self.path)
                if not match:
                    return self.answer(404)
                message_id = int(match.group(1))
                mode = fake.put_mode
                if mode == "429":
                    fake.count("429")
                    return self.answer(429, headers=[("Retry-After", "1")])
                if mode == "5xx":
                    fake.count("503")
                    return self.answer(503)
                if mode == "hang":
                    fake.count("hang")
                    time.sleep(12)  # past the client's 10 s deadline: nothing is applied
                    return self.answer(503)
                arrived = now()
                claim = fake.store.claim(message_id)
                if claim is not None and now() - arrived > 1:
                    claim = None  # judged too late to say what held the job when the update arrived
                if claim is None:
                    # The store is down: this update cannot be judged, so it is not applied (tried again later).
                    fake.count("unchecked")
                    return self.answer(503)
                token = self.headers.get("DeskKit-Claim")
                state, held = claim
                if token is not None and int(token) == held and state == "running":
                    verdict = "valid"
                elif token is not None and int(token) == held and state == "queued":
                    # This claim's own request, handled after the client's deadline had passed and the claim had
                    # put the job back: the API applied what the client gave up on (at least once, no stale claim).
                    verdict = "late"
                else:
                    verdict = "stale: job %s under claim %s" % (state, held)
                with fake.lock:
                    fake.updates.setdefault(message_id, []).append((now(), token, verdict))
                fake.count("200")
                time.sleep(0.1)  # an API across the internet
                self.answer(200)

            def do_GET(self):
                path = self.path.split("?")[0]
                if path == "/control":
                    fake.put_mode = self.path.split("put=")[1]
                    return self.answer(200)
                if path == "/stats":
                    with fake.lock:
                        body = json.dumps({"updates": fake.updates, "answers": fake.answers}).encode()
                    return self.answer(200, body)
                kind = path.split("/")[1] if path.count("/") >= 2 else ""
                page = ("<html><head><title>Order %s</title><meta property=\"og:title\" content=\"Parcel %s is on "
                        "its way\"><meta property=\"og:description\" content=\"Arrives Tuesday\"></head></html>"
                        % (path, path)).encode()
                if kind == "hang":
                    time.sleep(15)
                    return
                time.sleep(0.05)  # a page across the internet
                if kind == "reset":
                    self.request.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, b"\x01\x00\x00\x00\x00\x00\x00\x00")
                    self.close_connection = True
                    return
                if kind == "trickle":
                    self.send_response(200)
                    self.send_header("Content-Type", "text/html; charset=utf-8")
                    self.send_header("Content-Length", str(len(page)))
                    self.end_headers()
                    for byte in page:
                        self.wfile.write(bytes([byte]))
                        self.wfile.flush()
                        time.sleep(0.2)
                    return
                self.answer(200, page, "text/html; charset=utf-8")

        class Server(ThreadingHTTPServer):
            request_queue_size = 1024
            daemon_threads = True

            def handle_error(self, request, client_address):
                pass  # a client that gave up (a deadline, a reset page): nothing to report

        server = Server(("127.0.0.1", port), Handler)
        threading.Thread(target=server.serve_forever, daemon=True).start()


# ---------------------------------------------------------------------------------------------------------------
# The instances.


class Instance:
    def __init__(self, name, port, args, fake_port):
        self.name, self.port, self.args = name, port, args
        self.env = dict(os.environ, SENDBIRD_API_TOKEN=TOKEN, DESKKIT_API_BASE="http://127.0.0.1:%d" % fake_port,
                        DESKKIT_STORE="postgres://deskkit@127.0.0.1:%d/postgres?sslmode=disable" % args.pg_port,
                        DESKKIT_PORT=str(port), DESKKIT_ALLOW_PRIVATE="1", DESKKIT_METRICS_KEYS=KEY,
                        DESKKIT_JOB_LEASE="%ds" % args.lease, DESKKIT_FETCH_TIMEOUT="4s", DESKKIT_SHUTDOWN_GRACE="5s")
        self.proc = None
        self.started = None
        self.frozen = False
        self.frozen_until = 0.0  # when it last ran again after a freeze
        self.lives = []  # (pid, started) of each process, for the stale-write counters

    def start(self):
        log = open(os.path.join(self.args.work, "%s.log" % self.name), "a")
        self.proc = subprocess.Popen([self.args.deskkit, "serve", "--log-level", "warning"], env=self.env,
                                     stdout=log, stderr=log)
        self.started = now()
        self.lives.append(self.proc.pid)
        for _ in range(300):
            if self.health(timeout=1) is not None:
                return
            time.sleep(0.1)
        raise SystemExit("%s did not start: see %s.log" % (self.name, self.name))

    def health(self, timeout=0.5):
        try:
            c = http.client.HTTPConnection("127.0.0.1", self.port, timeout=timeout)
            c.request("GET", "/health")
            status = c.getresponse().status
            c.close()
            return status
        except OSError:
            return None

    def jobs_in_flight(self):
        try:
            c = http.client.HTTPConnection("127.0.0.1", self.port, timeout=1)
            c.request("GET", "/health")
            body = json.loads(c.getresponse().read())
            c.close()
            return body.get("jobs_in_flight", 0)
        except (OSError, ValueError):
            return 0

    def metrics(self):
        """The instance's `/metrics`: each name's value (summed over its labels), or None when it does not answer."""
        try:
            c = http.client.HTTPConnection("127.0.0.1", self.port, timeout=2)
            c.request("GET", "/metrics", headers={"Authorization": "Bearer " + KEY})
            text = c.getresponse().read().decode()
            c.close()
        except OSError:
            return None
        values = {}
        for line in text.splitlines():
            if line and not line.startswith("#"):
                name = re.split(r"[{ ]", line, 1)[0]
                values[name] = values.get(name, 0.0) + float(line.rsplit(" ", 1)[1])
        return values

    def rss_mib(self):
        """Resident memory in MiB: all of it, anonymous (the heap, stacks) and file-backed (the binary's pages)."""
        figures = {}
        try:
            with open("/proc/%d/status" % self.proc.pid) as status:
                for line in status:
                    key = line.split(":")[0]
                    if key in ("VmRSS", "RssAnon", "RssFile"):
                        figures[key] = int(line.split()[1]) / 1024
        except OSError:
            return None
        return (figures["VmRSS"], figures.get("RssAnon", 0), figures.get("RssFile", 0)) if "VmRSS" in figures else None

    def signal(self, sig):
        if self.proc and self.proc.poll() is None:
            os.kill(self.proc.pid, sig)


# ---------------------------------------------------------------------------------------------------------------
# Sendbird and the load balancer in front of the instances.


class Sender:
    def __init__(self, instances, fake_port, args):
        self.instances, self.fake_port, self.args = instances, fake_port, args
        self.healthy = {i.name: True for i in instances}
        self.lock = threading.Lock()
        self.work = queue.Queue()
        self.retries = []  # heap of (due, message id, delivery)
        self.next_id = 50_000_000
        self.turn = 0
        self.sent = 0
        self.results = {}  # "200", "503", "refused", "timeout", "other <status>"
        self.latencies = {}  # phase -> [seconds]
        self.accepted = set()
        self.pending = 0  # deliveries not yet answered 200 or given up
        self.phase = lambda: "steady"
        self.pages_fault = False

    def body(self, message_id):
        i = message_id
        text = "Hi, my order %d has not arrived - tracking: http://127.0.0.1:%d/p/%d" % (i, self.fake_port, i % PAGE_COUNT)
        if self.pages_fault and i % 20 == 0:
            kind = ("hang", "trickle", "reset")[(i // 20) % 3]
            text = "Order %d: http://127.0.0.1:%d/%s/%d then http://127.0.0.1:%d/p/%d" % (
                i, self.fake_port, kind, i, self.fake_port, i % PAGE_COUNT)
        body = json.dumps({"category": "group_channel:message_send", "type": "MESG", "app_id": "FAULTS",
                           "custom_type": "", "sender": {"user_id": "customer-%d" % (i % 500), "nickname": "Customer"},
                           "payload": {"message_id": i, "message": text, "custom_type": "", "data": "",
                                       "created_at": 1_700_000_000_000 + i},
                           "channel": {"channel_url": "sendbird_group_channel_%d" % (i % 500), "name": "Support"}})
        return body.encode(), hmac.new(TOKEN.encode(), body.encode(), hashlib.sha256).hexdigest()

    def new_message(self, twice):
        with self.lock:
            self.next_id += 1
            message_id = self.next_id
            self.pending += 2 if twice else 1
        delivery = self.body(message_id)
        self.work.put((message_id, delivery))
        if twice:  # a sender that did not hear the first answer in time delivers again
            self.retry_at(now() + 0.3, message_id, delivery)

    def retry_at(self, due, message_id, delivery):
        with self.lock:
            heapq.heappush(self.retries, (due, message_id, delivery))

    def due_retries(self):
        moved = 0
        with self.lock:
            while self.retries and self.retries[0][0] <= now():
                _, message_id, delivery = heapq.heappop(self.retries)
                self.work.put((message_id, delivery))
                moved += 1
        return moved

    def record(self, result, latency=None, phase=None):
        with self.lock:
            self.results[result] = self.results.get(result, 0) + 1
            if latency is not None:
                self.latencies.setdefault(phase, []).append(latency)

    def choose(self, avoid=None):
        with self.lock:
            names = [i.name for i in self.instances if self.healthy[i.name] and i.name != avoid]
            if not names:  # every instance failing its check: a balancer fails open
                names = [i.name for i in self.instances if i.name != avoid]
            self.turn += 1
            name = names[self.turn % len(names)]
        return next(i for i in self.instances if i.name == name)

    def deliver_forever(self):
        connections = {}
        while True:
            message_id, (body, signature) = self.work.get()
            avoid = None
            for _ in range(4):
                instance = self.choose(avoid)
                c = connections.get(instance.name)
                if c is None:
                    c = connections[instance.name] = http.client.HTTPConnection("127.0.0.1", instance.port, timeout=15)
                started, phase = now(), self.phase()
                try:
                    c.request("POST", "/webhooks/sendbird", body,
                              {"Content-Type": "application/json", "x-sendbird-signature": signature})
                    response = c.getresponse()
                    response.read()
                except socket.timeout:
                    c.close()
                    connections.pop(instance.name, None)
                    # An instance frozen while the request waited cannot answer it: the balancer's health check
                    # takes it out of rotation, but a request already sent to it waits for it to run again.
                    held = instance.frozen or instance.frozen_until > started
                    self.record("timeout while frozen" if held else "timeout", now() - started, phase)
                    self.retry_at(now() + 1, message_id, (body, signature))
                    break
                except OSError:
                    # Refused or reset: the instance is gone; the balancer tries the other one at once.
                    c.close()
                    connections.pop(instance.name, None)
                    self.record("refused")
                    avoid = instance.name
                    continue
                latency = now() - started
                with self.lock:
                    self.sent += 1
                if response.status == 200:
                    self.record("200", latency, phase)
                    with self.lock:
                        self.accepted.add(message_id)
                        self.pending -= 1
                elif response.status == 503 and response.getheader("Retry-After"):
                    self.record("503", latency, phase)
                    self.retry_at(now() + float(response.getheader("Retry-After")), message_id, (body, signature))
                else:
                    self.record("other %d" % response.status, latency, phase)
                    self.retry_at(now() + 1, message_id, (body, signature))
                break
            else:
                self.retry_at(now() + 1, message_id, (body, signature))

    def check_health_forever(self):
        while True:
            for instance in self.instances:
                ok = not instance.frozen and instance.health() is not None
                with self.lock:
                    self.healthy[instance.name] = ok
            time.sleep(0.25)


# ---------------------------------------------------------------------------------------------------------------
# The run.


def percentile(values, p):
    if not values:
        return float("nan")
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(len(ordered) * p))]


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--deskkit", required=True)
    parser.add_argument("--pg-bin", required=True)
    parser.add_argument("--pg-data", required=True)
    parser.add_argument("--pg-port", type=int, required=True)
    parser.add_argument("--as-user", default="")
    parser.add_argument("--work", required=True)
    parser.add_argument("--seconds", type=float, default=600)
    parser.add_argument("--rate", type=float, default=60)
    parser.add_argument("--serve-fake", type=int, default=0, help="run the stand-in API on this port (a process of its own)")
    args = parser.parse_args()
    if args.serve_fake:
        Fake(Store(args)).serve(args.serve_fake)
        threading.Event().wait()
    scale = args.seconds / 600
    args.lease = 5 if scale >= 0.5 else 3
    store = Store(args)
    fake_port, ports = 18482, (18481, 18483)
    # The stand-in API in a process of its own: its threads and the sender's do not share one interpreter lock.
    fake_process = subprocess.Popen([sys.executable, __file__, "--serve-fake", str(fake_port)] + sys.argv[1:])

    def ask_fake(path):
        for _ in range(100):
            try:
                c = http.client.HTTPConnection("127.0.0.1", fake_port, timeout=30)
                c.request("GET", path)
                body = c.getresponse().read()
                c.close()
                return body
            except OSError:
                time.sleep(0.1)
        raise SystemExit("the stand-in API does not answer")

    ask_fake("/p/0")
    instances = [Instance("a", ports[0], args, fake_port), Instance("b", ports[1], args, fake_port)]
    for instance in instances:
        instance.start()
    sender = Sender(instances, fake_port, args)
    pg_ctl = ([ "runuser", "-u", args.as_user, "--"] if args.as_user else []) + [os.path.join(args.pg_bin, "pg_ctl"),
                                                                               "-D", args.pg_data]

    # The schedule, in seconds of a 600-second run (scaled to --seconds), each fault with how long it lasts.
    def at(t):
        return t * scale

    def lasting(d, floor=0):
        return max(d * scale, floor)

    freeze_for = lasting(10, args.lease * 2)
    events = [
        (at(70), "freeze a", freeze_for), (at(110), "kill b", lasting(5, 2)), (at(160), "database stopped", lasting(20, 5)),
        (at(210), "api 429", lasting(15, 4)), (at(225), "api 5xx", lasting(15, 4)), (at(240), "api hangs", lasting(15, 4)),
        (at(270), "pages hang, trickle, reset", lasting(40, 10)),
        (at(320), "burst 3x", lasting(30, 8)), (at(320), "delivered twice", lasting(60, 15)),
        # Overlapping: the database stops while an instance is frozen; an instance is killed while the API fails,
        # webhooks pour in at three times the rate, each twice.
        (at(390), "database stopped", lasting(20, 5)), (at(395), "freeze b", freeze_for),
        (at(425), "api 5xx", lasting(20, 5)), (at(430), "kill a", lasting(5, 2)), (at(430), "burst 3x", lasting(30, 8)),
        (at(430), "delivered twice", lasting(30, 8)),
    ]
    warm_up = max(at(60), 30)
    sending_ends = at(540)
    active = []  # (name, ends)
    state_lock = threading.Lock()
    api_modes, api_lock = [], threading.Lock()

    def phase():
        with state_lock:
            names = sorted({name for name, ends in active if ends > now() - t0})
        return " + ".join(names) if names else "steady"

    sender.phase = phase
    for _ in range(96):
        threading.Thread(target=sender.deliver_forever, daemon=True).start()
    threading.Thread(target=sender.check_health_forever, daemon=True).start()

    stale = {}  # pid -> last stale-write count read
    rss = {i.name: [] for i in instances}  # (seconds, MiB, process start, anonymous MiB, file-backed MiB)
    heap = {i.name: None for i in instances}  # the process's own figures at its last scrape (/metrics)
    heaps = {i.name: [] for i in instances}  # (seconds, heap in use MiB, freed and kept MiB)

    def sample():
        for instance in instances:
            if instance.proc and instance.proc.poll() is None and not instance.frozen:
                values = instance.metrics()
                if values is not None:
                    stale[instance.proc.pid] = values.get("deskkit_jobs_stale_writes_total", 0.0)
                    heap[instance.name] = values
                    if "deskkit_heap_in_use_bytes" in values:
                        heaps[instance.name].append((now() - t0, values["deskkit_heap_in_use_bytes"] / (1 << 20),
                                                     values.get("deskkit_heap_free_bytes", 0) / (1 << 20)))
                mib = instance.rss_mib()
                if mib is not None:
                    total, anonymous, files = mib
                    rss[instance.name].append((now() - t0, total, instance.started - t0, anonymous, files))

    def fault(name, duration):
        with state_lock:
            active.append((name, now() - t0 + duration))
        print("%6.1f s  %s for %.0f s" % (now() - t0, name, duration), flush=True)
        if name.startswith("freeze"):
            instance = instances[0 if name.endswith("a") else 1]
            # Frozen while it holds running jobs (a few seconds at most to find it so).
            deadline = now() + 5
            while instance.jobs_in_flight() == 0 and now() < deadline:
                time.sleep(0.02)
            held = instance.jobs_in_flight()
            instance.frozen = True
            instance.signal(signal.SIGSTOP)
            print("          %s frozen holding %d running jobs" % (instance.name, held), flush=True)
            time.sleep(duration)
            instance.signal(signal.SIGCONT)
            instance.frozen_until = now()
            instance.frozen = False
        elif name.startswith("kill"):
            instance = instances[0 if name.endswith("a") else 1]
            instance.signal(signal.SIGKILL)
            instance.proc.wait()
            time.sleep(duration)
            instance.start()
        elif name == "database stopped":
            subprocess.run(pg_ctl + ["-m", "fast", "-w", "stop"], stdout=subprocess.DEVNULL, check=True)
            time.sleep(duration)
            subprocess.run(pg_ctl + ["-l", os.path.join(args.work, "pg.log"), "-w", "start"],
                           stdout=subprocess.DEVNULL, check=True)
        elif name.startswith("api"):
            mode = {"api 429": "429", "api 5xx": "5xx", "api hangs": "hang"}[name]
            with api_lock:
                api_modes.append(mode)
                ask_fake("/control?put=" + mode)
            time.sleep(duration)
            with api_lock:
                api_modes.remove(mode)
                ask_fake("/control?put=" + (api_modes[-1] if api_modes else "ok"))
        elif name.startswith("pages"):
            sender.pages_fault = True
            time.sleep(duration)
            sender.pages_fault = False
        else:  # bursts and double deliveries are read by the sending loop
            time.sleep(duration)

    t0 = now()
    pending_events = sorted(events)
    threads = []
    sent_messages = 0.0
    last_sample = -10.0
    while now() - t0 < sending_ends:
        elapsed = now() - t0
        while pending_events and pending_events[0][0] <= elapsed:
            _, name, duration = pending_events.pop(0)
            thread = threading.Thread(target=fault, args=(name, duration), daemon=True)
            thread.start()
            threads.append(thread)
        current = phase()
        rate = args.rate * (3 if "burst" in current else 1)
        twice = "twice" in current
        sent_messages += rate * 0.01
        while sent_messages >= 1:
            sender.new_message(twice)
            sent_messages -= 1
        sender.due_retries()
        if elapsed - last_sample >= 5:
            sample()
            last_sample = elapsed
        time.sleep(0.01)
    for thread in threads:
        thread.join()
    print("%6.1f s  sending ends; every webhook not yet admitted is sent again until it is" % (now() - t0), flush=True)
    drain_started = now()
    while now() - drain_started < 300:
        sender.due_retries()
        with sender.lock:
            left = sender.pending + len(sender.retries)
        counts = store.counts()
        if left <= 0 and sender.work.empty() and counts and counts.get("queued", 0) + counts.get("running", 0) == 0:
            break
        if now() - t0 - last_sample >= 5:
            sample()
            last_sample = now() - t0
        time.sleep(0.1)
    drained = now() - drain_started
    # The end: 1 s after the drain (printed), then the judged value after 10 s of quiet — two of the server's
    # memory readings (it looks every 5 s), as an operator's next look after an incident would find it.
    time.sleep(1)
    sample()
    after_drain = {name: samples[-1][1] for name, samples in rss.items() if samples}
    time.sleep(9)
    sample()
    end = now() - t0

    # ---- The verdict.
    counts = store.counts() or {}
    stored = store.stored_ids() or set()
    stats = json.loads(ask_fake("/stats"))
    updates = {int(k): v for k, v in stats["updates"].items()}
    put_answers = stats["answers"]
    valid = {m for m, u in updates.items() if any(v in ("valid", "late") for _, _, v in u)}
    invalid = [(m, t, v) for m, u in updates.items() for (_, t, v) in u if v not in ("valid", "late")]
    late = sum(1 for u in updates.values() for (_, _, v) in u if v == "late")
    repeated = {m: sum(1 for _, _, v in u if v in ("valid", "late")) for m, u in updates.items()}
    repeated = {m: n for m, n in repeated.items() if n > 1}
    missing = sender.accepted - valid
    not_stored = sender.accepted - stored
    stale_total = sum(stale.values())
    failures = []
    if missing:
        failures.append("%d messages answered 200 were never updated (e.g. %s)" % (len(missing), sorted(missing)[:5]))
    if not_stored:
        failures.append("%d messages answered 200 are not in the store" % len(not_stored))
    if invalid:
        failures.append("%d updates by a worker whose claim was gone or after the job ended (e.g. %s)"
                        % (len(invalid), invalid[:5]))
    if counts.get("queued", 0) or counts.get("running", 0):
        failures.append("jobs left in the store: %s" % counts)
    frozen_timeouts = sender.results.get("timeout while frozen", 0)
    bad_answers = {k: v for k, v in sender.results.items()
                   if k not in ("200", "503", "refused", "timeout while frozen")}
    if bad_answers:
        failures.append("webhook answers a sender cannot retry well: %s" % bad_answers)

    print()
    print("== figures (%.0f s of webhooks, %.0f a second steady; drained in %.1f s; lease %d s)"
          % (sending_ends, args.rate, drained, args.lease))
    print("webhooks sent: %d (answered 200: %d, 503 with Retry-After: %d; refused connections re-sent to the other "
          "instance: %d; other: %s)" % (sender.sent, sender.results.get("200", 0), sender.results.get("503", 0),
                                         sender.results.get("refused", 0), bad_answers or "none"))
    print("messages admitted: %d, updated: %d; updates: %d (repeated by at-least-once: %d messages); "
          "stale writes refused: %d" % (len(sender.accepted), len(valid), sum(len(u) for u in updates.values()),
                                        len(repeated), stale_total))
    print("updates the stand-in API handled after the client's deadline (applied anyway, at least once): %d" % late)
    print("webhook time-outs while the instance asked was frozen (no server answers then): %d" % frozen_timeouts)
    print("Platform API answers: %s" % ", ".join("%s %d" % kv for kv in sorted(put_answers.items())))
    print("store at the end: %s" % counts)
    print("admission latency by phase (ms):")
    for name, values in sorted(sender.latencies.items(), key=lambda kv: -len(kv[1])):
        print("  %-60s n=%6d  p50 %7.1f  p99 %7.1f" % (name, len(values), percentile(values, 0.5) * 1000,
                                                        percentile(values, 0.99) * 1000))
    print("resident memory (MiB), every 30 s:")
    for instance in instances:
        samples = rss[instance.name]
        shown = [s for k, s in enumerate(samples) if k % 6 == 0 or k == len(samples) - 1]
        print("  %s: %s" % (instance.name, " ".join("%.0fs:%.0f" % (t, m) for t, m, *_ in shown)))
        print("    anonymous (heap, stacks): %s" % " ".join("%.0f" % a for _, _, _, a, _ in shown))
        print("    file-backed (the binary's pages): %s" % " ".join("%.0f" % f for *_, f in shown))
        own_samples = heaps[instance.name]
        if own_samples:
            shown_own = [s for k, s in enumerate(own_samples) if k % 6 == 0 or k == len(own_samples) - 1]
            print("    heap in use / freed and kept (/metrics): %s"
                  % " ".join("%.0fs:%.1f/%.1f" % s for s in shown_own))
        print("    peak %.1f MiB" % max(s[1] for s in samples))
        own = heap[instance.name]
        if own and "deskkit_heap_in_use_bytes" in own:
            mib = 1 << 20
            print("    its own figures at the end (/metrics): resident %.1f MiB, heap in use %.1f MiB, freed and kept "
                  "by the allocator %.1f MiB; %d trims since its start gave back %.1f MiB in %.2f ms"
                  % (own.get("process_resident_memory_bytes", 0) / mib, own["deskkit_heap_in_use_bytes"] / mib,
                     own.get("deskkit_heap_free_bytes", 0) / mib, own.get("deskkit_heap_trims_total", 0),
                     own.get("deskkit_heap_trimmed_bytes_total", 0) / mib,
                     own.get("deskkit_heap_trim_seconds_total", 0) * 1000))
        life = [s for s in samples if s[2] == samples[-1][2]]
        warmed = [s for s in life if s[0] - s[2] >= warm_up]
        if len(warmed) < 2:
            print("    restarted %.0f s before the end: too late to judge against a warmed-up value" % (end - life[0][2]))
            continue
        base, last = warmed[0][1], samples[-1][1]
        change = last / base - 1
        print("    after warm-up %.1f MiB (at %.0f s), 1 s after the drain %.1f MiB, at the end (10 s of quiet) %.1f "
              "MiB: %+.1f %%" % (base, warmed[0][0], after_drain.get(instance.name, last), last, change * 100))
        if abs(change) > 0.20:
            failures.append("instance %s's resident memory moved %+.1f %% from its value after warm-up"
                            % (instance.name, change * 100))
    print()
    print("verdict: %s" % ("PASS" if not failures else "FAIL"))
    for failure in failures:
        print("  - " + failure)
    for instance in instances:
        instance.signal(signal.SIGCONT)
        instance.signal(signal.SIGTERM)
    for instance in instances:
        try:
            instance.proc.wait(timeout=15)
        except subprocess.TimeoutExpired:
            instance.signal(signal.SIGKILL)
    fake_process.kill()
    sys.exit(1 if failures else 0)


if __name__ == "__main__":
    main()
