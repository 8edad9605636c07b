#!/usr/bin/env python3
"""The upstream of scripts/chaos: paginated collections whose every walk is a new generation.

    upstream.py --port-file FILE --delay-ms MS NAME=COUNT:SIZE...

GET /page/NAME?page=P&per_page=SIZE answers {"data": [...]} with items P*SIZE-SIZE+1 …
(at most COUNT), each {"id": K, "gen": G, "pad": "..."}. A request for page 1 starts a
new walk: it bumps NAME's generation G, so the items of one walk all carry one G and
those of two walks never match. Every page waits MS milliseconds before it answers, so
that a kill lands mid-walk. The last page of a walk is the first one holding fewer than
SIZE items (COUNT is never a multiple of SIZE).

GET /_state answers one line per collection, "NAME GEN SERVED COMPLETE REQUESTS": its
current walk GEN (0 before the first), how many pages of that walk were written whole,
1 if its last page was, and how many pages were asked for in all.

The port it listens on (127.0.0.1, a free one) is written to FILE once it listens. It
exits when its parent does.
"""
import argparse
import json
import os
import sys
import threading
import time
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
                )
            data = lines.encode()
            self.send_response(200)
            self.send_header("Content-Type", "text/plain")
            self.send_header("Content-Length", str(len(data)))
            self.end_headers()
            self.wfile.write(data)
            return
        parts = url.path.split("/")
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


class Server(ThreadingHTTPServer):
    daemon_threads = True

    def handle_error(self, request, client_address):
        if not isinstance(sys.exc_info()[1], OSError):  # a killed agent resets its connections
            super().handle_error(request, client_address)


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--port-file", required=True)
    parser.add_argument("--delay-ms", type=float, default=5)
    parser.add_argument("collections", nargs="+", metavar="NAME=COUNT:SIZE")
    args = parser.parse_args()
    collections = {}
    for spec in args.collections:
        name, _, rest = spec.partition("=")
        count, _, size = rest.partition(":")
        if int(count) % int(size) == 0:
            sys.exit(f"{spec}: COUNT must not be a multiple of SIZE")
        collections[name] = Collection(int(count), int(size))
    server = Server(("127.0.0.1", 0), Handler)
    server.collections = collections
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
