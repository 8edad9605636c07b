#!/usr/bin/env python3
"""The upstream of scripts/chaos: paginated collections whose every walk is a new generation,
and a change log that an incremental resource follows.

    upstream.py --port-file FILE --delay-ms MS [--seed S] [--log NAME=COUNT:SIZE] NAME=COUNT:SIZE...

GET /page/NAME?page=P&per_page=SIZE answers {"data": [...]} with items P*SIZE-SIZE+1 …
(at most COUNT), each {"id": K, "gen": G, "pad": "..."}. A request for page 1 starts a
new walk: it bumps NAME's generation G, so the items of one walk all carry one G and
those of two walks never match. Every page waits MS milliseconds before it answers, so
that a kill lands mid-walk. The last page of a walk is the first one holding fewer than
SIZE items (COUNT is never a multiple of SIZE).

GET /_state answers one line per collection, "NAME GEN SERVED COMPLETE REQUESTS": its
current walk GEN (0 before the first), how many pages of that walk were written whole,
1 if its last page was, and how many pages were asked for in all.

--log NAME=COUNT:SIZE serves an API that lists what changed since a time, as an incremental
resource reads it (docs/configuration.md#incremental-resources): an append-only log whose
entry number N is the change at time BASE + N seconds (BASE is 2026-01-01T00:00:00Z). It
starts with COUNT inserts, items 1…COUNT. GET /log/NAME?updated_since=T&page=P&per_page=SIZE
answers {"data": [...]}: the entries from the one at time T on (T included, a Unix time or
ISO 8601), in log order, SIZE a page. An entry is an item {"id", "rev": N, "updated_at":
BASE + N, "pad"} (an insert or an update) or a tombstone {"id", "deleted": true,
"updated_at"}. Each request for page 1 from where the log was read to (a new sync; not a
walk cut off that starts again from an earlier entry, whose restarts would otherwise
make the log outgrow any reader) first appends a batch of 0-1,200 random changes
(inserts of absent ids up to COUNT * 4 / 3, updates, and one delete in seven of present
ones); any other request, one time in three, a batch of 1-30, so that the log grows
under a walk. A batch always ends with an insert or update, so the largest updated_at a
complete walk saw is its last entry's, whether or not the agent counts tombstones. The
log only grows at its end, so a page of a walk (its T fixed) always holds the same
entries, however late it is asked for: a walk cut off and gone on with reads each change.

POST /_check/NAME with the incremental resource's records as lines "ID REV" after a first
line "CURSOR WALK_SENT WALK_PAGES WALK_RESUME" (the stored value's Unix time, or - for none;
the same for a walk cut off, and its committed pages, or - -; the time a walk cut off goes
on from, or -) answers one line: "ok P" where P is
the log position whose state the records are (the state after applying entries 1…P), or
"bad WHY". Bad is: records that are the state after no position (a change lost, a page
half applied, an older version), a position before the one the cursor says was read
(the cursor ran ahead of the data) or after the last one served, or, for a walk cut off, records that are not the state
after its committed pages (one that goes on by value: after the entry at WALK_RESUME). GET /_state adds a line per log: "log NAME HEAD FURTHEST
WALK_OPEN REQUESTS": its last entry, the last entry it served in a page written whole, 1
while a walk has not yet served its last page, and the pages asked for in all.

The port it listens on (127.0.0.1, a free one) is written to FILE once it listens. It
exits when its parent does.
"""
import argparse
import array
import json
import os
import random
import sys
import threading
import time
from datetime import datetime
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from urllib.parse import parse_qs, urlsplit

PAD = "x" * 48  # makes each record ~90 bytes of JSON, so commits have some weight


class Collection:
    def __init__(self, count, size):
        self.count = count
        self.size = size
        self.last = count // size + 1
        self.gen = 0
        self.served = set()  # pages of walk `gen` whose answer was written whole
        self.requests = 0


BASE = 1767225600  # 2026-01-01T00:00:00Z: entry N of a log is the change at BASE + N seconds


class Log:
    """An append-only log of changes; entry N (from 1) is the change at BASE + N."""

    def __init__(self, count, size, rng):
        self.size = size
        self.space = count * 4 // 3
        self.rng = rng
        self.ids = array.array("i")  # entry N at index N - 1: its item, negative for a tombstone
        self.present = set()
        for k in range(1, count + 1):
            self.ids.append(k)
            self.present.add(k)
        self.furthest = 0  # the last entry served in a page written whole
        self.requests = 0
        self.walk_open = False
        # The state after entry `base_at`, for checks: item -> the entry that wrote it.
        self.base_at = 0
        self.base = {}

    def append(self, n):
        for i in range(n):
            k = self.rng.randint(1, self.space)
            last = i == n - 1
            if k in self.present and not last and self.rng.random() < 1 / 7:
                self.present.discard(k)
                self.ids.append(-k)
            else:
                self.present.add(k)
                self.ids.append(k)

    def entry(self, n):
        k = self.ids[n - 1]
        if k < 0:
            return {"id": -k, "deleted": True, "updated_at": BASE + n}
        return {"id": k, "rev": n, "updated_at": BASE + n, "pad": PAD}

    def advance(self, position):
        """Moves the kept state forward to `position` (never back)."""
        for n in range(self.base_at + 1, position + 1):
            k = self.ids[n - 1]
            if k < 0:
                self.base.pop(-k, None)
            else:
                self.base[k] = n
        self.base_at = max(self.base_at, position)

    def positions(self, records):
        """The positions from `base_at` on whose state `records` (item -> rev) are."""
        state = self.base
        mismatched = {k for k in set(state) | set(records) if state.get(k) != records.get(k)}
        found = [self.base_at] if not mismatched else []
        overrides = {}
        for n in range(self.base_at + 1, len(self.ids) + 1):
            k = self.ids[n - 1]
            key = abs(k)
            overrides[key] = n if k > 0 else None
            if overrides[key] == records.get(key):
                mismatched.discard(key)
            else:
                mismatched.add(key)
            if not mismatched:
                found.append(n)
        return found


def parse_time(text):
    try:
        return float(text)
    except ValueError:
        text = text.replace("Z", "+00:00")
        return datetime.fromisoformat(text).timestamp()


class Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"
    disable_nagle_algorithm = True  # else each answer waits out a delayed ACK (40 ms)

    def log_message(self, *args):
        pass

    def answer(self, status, body):
        data = json.dumps(body, separators=(",", ":")).encode()
        self.send_response(status)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(data)))
        self.end_headers()
        self.wfile.write(data)
        self.wfile.flush()

    def do_GET(self):
        server = self.server
        url = urlsplit(self.path)
        if url.path == "/_state":
            with server.mutex:
                lines = "".join(
                    f"{name} {c.gen} {len(c.served)} {int(c.last in c.served)} {c.requests}\n"
                    for name, c in server.collections.items()
                ) + "".join(
                    f"log {name} {len(log.ids)} {log.furthest} {int(log.walk_open)} {log.requests}\n"
                    for name, log in server.logs.items()
                )
            data = lines.encode()
            self.send_response(200)
            self.send_header("Content-Type", "text/plain")
            self.send_header("Content-Length", str(len(data)))
            self.end_headers()
            self.wfile.write(data)
            return
        parts = url.path.split("/")
        if len(parts) == 3 and parts[1] == "log" and parts[2] in server.logs:
            return self.log_page(server.logs[parts[2]], parse_qs(url.query))
        if len(parts) != 3 or parts[1] != "page" or parts[2] not in server.collections:
            return self.answer(404, {"error": "no such collection"})
        collection = server.collections[parts[2]]
        query = parse_qs(url.query)
        try:
            page = int(query.get("page", ["1"])[0])
            size = int(query.get("per_page", [str(collection.size)])[0])
        except ValueError:
            return self.answer(400, {"error": "bad page"})
        if size != collection.size or page < 1:
            return self.answer(400, {"error": "unexpected page or per_page"})
        with server.mutex:
            collection.requests += 1
            if page == 1:
                collection.gen += 1
                collection.served = set()
            gen = collection.gen
        time.sleep(server.delay)
        first = (page - 1) * size + 1
        last = min(page * size, collection.count)
        items = [{"id": k, "gen": gen, "pad": PAD} for k in range(first, last + 1)]
        try:
            self.answer(200, {"data": items})
        except OSError:
            return  # the agent was killed while this page was on its way
        with server.mutex:
            if collection.gen == gen:
                collection.served.add(page)


    def log_page(self, log, query):
        server = self.server
        try:
            page = int(query.get("page", ["1"])[0])
            size = int(query.get("per_page", [str(log.size)])[0])
            since = parse_time(query["updated_since"][0]) if "updated_since" in query else 0
        except (ValueError, KeyError):
            return self.answer(400, {"error": "bad page, per_page or updated_since"})
        if size != log.size or page < 1:
            return self.answer(400, {"error": "unexpected page or per_page"})
        with server.mutex:
            log.requests += 1
            first = max(1, int(-(-(since - BASE) // 1)))  # the first entry at or after `since`
            if page == 1 and first >= log.furthest:
                # A sync from where the log was read to: the changes made since the last one.
                log.append(log.rng.randint(0, 1200))
            elif log.rng.random() < 1 / 3:
                log.append(log.rng.randint(1, 30))
            log.walk_open = True
            start = first + (page - 1) * size
            end = min(start + size - 1, len(log.ids))
            items = [log.entry(n) for n in range(start, end + 1)]
        time.sleep(server.delay)
        try:
            self.answer(200, {"data": items})
        except OSError:
            return
        with server.mutex:
            if items:
                log.furthest = max(log.furthest, end)
            if len(items) < size:
                log.walk_open = False

    def do_POST(self):
        server = self.server
        parts = urlsplit(self.path).path.split("/")
        length = int(self.headers.get("Content-Length", "0"))
        body = self.rfile.read(length).decode()
        if len(parts) != 3 or parts[1] != "_check" or parts[2] not in server.logs:
            return self.answer(404, {"error": "no such log"})
        log = server.logs[parts[2]]
        lines = body.splitlines()
        head = (lines[0].split() + ["-"] * 4)[:4] if lines else ["-"] * 4
        records = {}
        for line in lines[1:]:
            k, rev = line.split()
            records[int(k)] = int(rev)

        def position(text):
            return 0 if text == "-" else int(text) - BASE

        with server.mutex:
            cursor = position(head[0])
            why = None
            if cursor < log.base_at:
                why = f"the cursor went back, to entry {cursor} from {log.base_at}"
            elif cursor > log.furthest:
                why = f"the cursor is at entry {cursor}, beyond the last one served ({log.furthest})"
            else:
                log.advance(cursor)
                found = log.positions(records)
                if not found:
                    why = (f"the {len(records)} records are the state after no entry from {cursor} on "
                           f"(the log holds {len(log.ids)})")
                elif head[3] != "-":
                    # A walk cut off that goes on by value: every entry up to the largest time it
                    # committed (a page ends with its largest, a tombstone's time counts too).
                    committed = position(head[3])
                    if committed not in found:
                        why = (f"a walk cut off that goes on from entry {committed} should leave the state "
                               f"after it, but the records are the state after {found[:5]}")
                elif head[2] != "-":
                    # A walk cut off that goes on by page: its committed pages, from the first entry
                    # at its value on.
                    committed = max(1, position(head[1])) + int(head[2]) * log.size - 1
                    if committed not in found:
                        why = (f"a walk cut off after {head[2]} pages should leave the state after entry "
                               f"{committed}, but the records are the state after {found[:5]}")
            text = f"bad {why}\n" if why else f"ok {found[-1]}\n"
        data = text.encode()
        self.send_response(200)
        self.send_header("Content-Type", "text/plain")
        self.send_header("Content-Length", str(len(data)))
        self.end_headers()
        self.wfile.write(data)


class Server(ThreadingHTTPServer):
    daemon_threads = True

    def handle_error(self, request, client_address):
        if not isinstance(sys.exc_info()[1], OSError):  # a killed agent resets its connections
            super().handle_error(request, client_address)


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--port-file", required=True)
    parser.add_argument("--delay-ms", type=float, default=5)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--log", action="append", default=[], metavar="NAME=COUNT:SIZE")
    parser.add_argument("collections", nargs="+", metavar="NAME=COUNT:SIZE")
    args = parser.parse_args()
    collections = {}
    for spec in args.collections:
        name, _, rest = spec.partition("=")
        count, _, size = rest.partition(":")
        if int(count) % int(size) == 0:
            sys.exit(f"{spec}: COUNT must not be a multiple of SIZE")
        collections[name] = Collection(int(count), int(size))
    rng = random.Random(args.seed)
    logs = {}
    for spec in args.log:
        name, _, rest = spec.partition("=")
        count, _, size = rest.partition(":")
        logs[name] = Log(int(count), int(size), rng)
    server = Server(("127.0.0.1", 0), Handler)
    server.collections = collections
    server.logs = logs
    server.delay = args.delay_ms / 1000
    server.mutex = threading.Lock()
    temporary = args.port_file + ".tmp"
    with open(temporary, "w") as f:
        f.write(f"{server.server_address[1]}\n")
    os.rename(temporary, args.port_file)
    parent = os.getppid()

    def orphaned():  # the chaos script was killed: do not linger
        while os.getppid() == parent:
            time.sleep(1)
        os._exit(0)

    threading.Thread(target=orphaned, daemon=True).start()
    server.serve_forever()


if __name__ == "__main__":
    main()
