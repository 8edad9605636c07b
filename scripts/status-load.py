#!/usr/bin/env python3
"""Load for `scripts/bench status`: CLIENTS concurrent HTTP/1.1 keep-alive
clients, each sending GET PATH and reading the whole answer, one request after
another, for SECONDS. Prints requests, errors and latency percentiles.

    status-load.py unix:/path/to.sock /v1/status 100 10
    status-load.py tcp:127.0.0.1:8080 /one/items/1 100 10
"""
import asyncio
import sys
import time


async def connect(target):
    kind, _, where = target.partition(":")
    if kind == "unix":
        return await asyncio.open_unix_connection(where)
    host, _, port = where.rpartition(":")
    return await asyncio.open_connection(host, int(port))


async def client(target, path, deadline, latencies, errors):
    request = f"GET {path} HTTP/1.1\r\nHost: localhost\r\nAccept: application/json\r\n\r\n".encode()
    reader = writer = None
    while time.monotonic() < deadline:
        try:
            if writer is None:
                reader, writer = await connect(target)
            start = time.perf_counter()
            writer.write(request)
            head = await reader.readuntil(b"\r\n\r\n")
            status = int(head.split(b" ", 2)[1])
            length = None
            chunked = False
            for line in head.split(b"\r\n")[1:]:
                name, _, value = line.partition(b":")
                if name.strip().lower() == b"content-length":
                    length = int(value.strip())
                elif name.strip().lower() == b"transfer-encoding" and b"chunked" in value.lower():
                    chunked = True
            if chunked:
                while True:
                    size = int((await reader.readuntil(b"\r\n")).strip(), 16)
                    await reader.readexactly(size + 2)
                    if size == 0:
                        break
            elif length is not None:
                await reader.readexactly(length)
            else:
                raise ValueError("an answer without a length")
            latencies.append(time.perf_counter() - start)
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
    latencies, errors = [], []
    deadline = time.monotonic() + seconds
    await asyncio.gather(*(client(target, path, deadline, latencies, errors) for _ in range(clients)))
    latencies.sort()

    def percentile(p):
        if not latencies:
            return float("nan")
        return latencies[min(len(latencies) - 1, int(p / 100 * len(latencies)))] * 1000

    print(f"{len(latencies)} {len(latencies) / seconds:.0f} {percentile(50):.2f} {percentile(99):.2f} "
          f"{percentile(100):.2f} {len(errors)} {','.join(sorted(set(errors))) or '-'}")


asyncio.run(main())
