#!/usr/bin/env python3
"""Load for `scripts/bench status`: CLIENTS concurrent HTTP/1.1 keep-alive
clients, each sending GET PATH and reading the whole answer, one request after
another, for SECONDS. Prints requests, errors and latency percentiles; with
STATUS_LOAD_MORE=1 in the environment, also how many different answers came and
the p50 and p99 of the time until the answer's head (the server's part).

    status-load.py unix:/path/to.sock /v1/status 100 10
    status-load.py tcp:127.0.0.1:8080 /one/items/1 100 10
"""
import asyncio
import os
import sys
import time
import zlib

MORE = os.environ.get("STATUS_LOAD_MORE") == "1"


async def connect(target):
    kind, _, where = target.partition(":")
    if kind == "unix":
        return await asyncio.open_unix_connection(where)
    host, _, port = where.rpartition(":")
    return await asyncio.open_connection(host, int(port))


async def client(target, path, deadline, latencies, heads, errors, answers):
    request = f"GET {path} HTTP/1.1\r\nHost: localhost\r\nAccept: application/json\r\n\r\n".encode()
    reader = writer = None
    while time.monotonic() < deadline:
        try:
            if writer is None:
                reader, writer = await connect(target)
            start = time.perf_counter()
            writer.write(request)
            head = await reader.readuntil(b"\r\n\r\n")
            heads.append(time.perf_counter() - start)
            status = int(head.split(b" ", 2)[1])
            length = None
            chunked = False
            for line in head.split(b"\r\n")[1:]:
                name, _, value = line.partition(b":")
                if name.strip().lower() == b"content-length":
                    length = int(value.strip())
                elif name.strip().lower() == b"transfer-encoding" and b"chunked" in value.lower():
                    chunked = True
            body = b""
            if chunked:
                while True:
                    size = int((await reader.readuntil(b"\r\n")).strip(), 16)
                    body += (await reader.readexactly(size + 2))[:-2]
                    if size == 0:
                        break
            elif length is not None:
                body = await reader.readexactly(length)
            else:
                raise ValueError("an answer without a length")
            latencies.append(time.perf_counter() - start)
            if MORE:
                answers.add(zlib.crc32(body))
            if status != 200:
                errors.append(f"HTTP {status}")
        except Exception as error:  # a refused, reset or malformed exchange
            errors.append(type(error).__name__)
            if writer is not None:
                writer.close()
            reader = writer = None
            await asyncio.sleep(0.01)
    if writer is not None:
        writer.close()


async def main():
    target, path, clients, seconds = sys.argv[1], sys.argv[2], int(sys.argv[3]), float(sys.argv[4])
    latencies, heads, errors, answers = [], [], [], set()
    deadline = time.monotonic() + seconds
    await asyncio.gather(*(client(target, path, deadline, latencies, heads, errors, answers) for _ in range(clients)))
    latencies.sort()
    heads.sort()

    def percentile(p, values=latencies):
        if not values:
            return float("nan")
        return values[min(len(values) - 1, int(p / 100 * len(values)))] * 1000

    print(f"{len(latencies)} {len(latencies) / seconds:.0f} {percentile(50):.2f} {percentile(99):.2f} "
          f"{percentile(100):.2f} {len(errors)} {','.join(sorted(set(errors))) or '-'}"
          + (f" {len(answers)} {percentile(50, heads):.2f} {percentile(99, heads):.2f}" if MORE else ""))


asyncio.run(main())
