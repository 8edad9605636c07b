#!/usr/bin/env python3
"""Writes the seed inputs of the `sync` fuzz target into fuzz/corpus/sync (docs/testing.md#fuzzing).

Each seed is the bytes that `SyncScript` (Sources/FuzzTargets/Sync/SyncScript.swift) decodes
into one configuration and the answers of its syncs; this file encodes them the same way,
so that the corpus starts with every pagination style, every kind of `since`, snapshot and
incremental, waits, failures and the wire. Run it again after a change of that decoding:

    python3 fuzz/sync-seeds.py && scripts/fuzz sync 60
"""

import os
import sys

STYLES = ["none", "page", "offset", "cursor", "cursorFromLastItem", "link", "nextUrl"]
SOURCES = ["field", "fromBody", "token", "link"]
FORMATS = ["iso8601", "unixSeconds", "unixMilliseconds"]
PLACEMENTS = ["param", "pattern", "header", "bodyField"]
LOOKBACKS = [0, 0, 1000, 3_600_000, 250]
STATUSES = [200] * 10 + [304, 429, 503, 500, 403, 404, 410, 400, 201, 204, 408, 502]
HEADERS = [
    "Retry-After", "x-ratelimit-remaining", "x-ratelimit-reset", "x-ratelimit-limit", "ratelimit-remaining",
    "ratelimit-reset", "RateLimit", "X-Rate-Limit-Remaining", "X-Rate-Limit-Reset", "X-Shopify-Shop-Api-Call-Limit",
    "X-Total-Count", "ETag", "Last-Modified", "Link", "Content-Length", "Content-Encoding",
]
LITERALS = [
    "0", "1", "2.5", "1e20", "1e300", "-1", "18446744073709551616", "9223372036854775808", "9223372036854775807",
    "99999999999999999999", "3600", "86400", "4102444800", "4102444800000", "1767225600", "1767229200000",
    "Wed, 21 Oct 2015 07:28:00 GMT", "Fri, 31 Dec 9999 23:59:59 GMT", "Sunday, 06-Nov-94 08:49:37 GMT", "",
    "limit=40, remaining=0, reset=1e20", "39/40", "40/40", 'W/"abc"', '"etag-1"', "gzip", "br", " 7 ",
    '<@BASE@/items?p=9>; rel="next"', "</items?p=2>; rel=next", "1.0e3",
]
YEARS = [2026, 2026, 2026, 1970, 2000, 1, 9999, 0, 10000, 1969, 2100, 2024, 1900]
ZONES = ["Z", "Z", "Z", "+01:00", "-05:30", "+0100", "+14:00", "", "z", "-23:59", "+00"]


def be(value, count):
    """`count` bytes, big-endian, as `FuzzInput.int(in:)` reads them."""
    return bytes((value >> (8 * (count - 1 - i))) & 0xFF for i in range(count))


def config(incremental=False, style="none", in_body=False, has_more=False, stop_when=False, total=None,
           cap=False, deleted=False, expired_when=False, size=2, source="field", format="iso8601",
           placement="param", lookback=0, attempts=2, max_wait=3600, wire=False, syncs=1):
    flags = (1 if incremental else 0) | (2 if in_body else 0) | (0xE0 if wire else 0)
    totals = {None: 0, "body": 2, "header": 3}
    extras = ((1 if has_more else 0) | (2 if stop_when else 0) | totals[total] << 2 | (16 if cap else 0)
              | (32 if deleted else 0) | (64 if expired_when else 0))
    retry = [1, 2, 3].index(attempts) | [3600, 0, 10].index(max_wait) << 2
    return bytes([flags, STYLES.index(style), extras, size - 1, SOURCES.index(source), FORMATS.index(format),
                  PLACEMENTS.index(placement), LOOKBACKS.index(lookback), retry, syncs - 1])


# Values (SyncValues.draw and its kin).
def token(number):
    return bytes([5]) + be(number, 2)


def small(number):
    return bytes([3, number])


def unix_seconds(offset):
    """1767225600 + offset, a number of seconds (SyncValues.drawTime, case 6)."""
    return bytes([6]) + be(offset + 100_000_000, 4)


def unix_milliseconds(offset):
    """1767225600000 + offset, a number of milliseconds (case 8)."""
    return bytes([8]) + be(offset + 100_000_000, 4)


def iso(year, month, day, hour, minute, second, fraction="", zone="Z", separator="T"):
    """An ISO 8601 text built field by field (SyncValues.builtTime)."""
    return (bytes([12, YEARS.index(year), month - 1, day - 1, hour, minute, second, len(fraction)])
            + bytes(int(d) for d in fraction) + bytes([ZONES.index(zone), ["T", "T", "T", " ", "t"].index(separator)]))


def url(kind=0, number=0):
    """0: the next page on the upstream; 5: a delta link with a token."""
    return bytes([kind]) + (be(number, 2) if kind == 5 else b"")


def count(number):
    return bytes([3, number])


def literal(text):
    return bytes([0, LITERALS.index(text)])


def number_header(value):
    return bytes([2]) + be(value, 2)


def item(since=None, null=False, key=None, no_key=False, tombstone=False):
    choice = 0x0F if key is not None else 0x0E if no_key else 0
    choice |= 0x10 if null else 0x20 if since is not None else 0
    choice |= 0x40 if tombstone else 0
    return bytes([choice]) + (key or b"") + (since or b"")


def page(items=(), next=None, has_more=None, end=False, total=None, total_name=0, kept=None, size=2):
    """A body from the template; `has_more` True or one of "false", "null", '"yes"', "1"."""
    shape = ((1 if next is not None else 0) | (2 if has_more is True else 0) | (4 if end else 0)
             | (8 if total is not None else 0) | (16 if kept is not None else 0))
    out = bytes([0, shape, len(items) % (size + 2)]) + b"".join(items)
    if next is not None:
        out += next
    if has_more is not None and has_more is not True:
        out += bytes([["false", "null", '"yes"', "1"].index(has_more)])
    if total is not None:
        out += total + bytes([total_name])
    if kept is not None:
        out += bytes([2]) + kept if kept != b"null" else bytes([0])
    return out


def answer(body=None, status=200, headers=(), failure=None, raw=None):
    kind = {"unreachable": 0xFF, "reset": 0xFE}[failure] if failure else STATUSES.index(status)
    out = bytes([kind, len(headers)])
    for name, value in headers:
        out += bytes([HEADERS.index(name)]) + value
    if raw is not None:
        return out + bytes([0x1F, len(raw)]) + raw
    return out + (body if body is not None else page())


T = iso(2026, 11, 24, 10, 0, 0)
T2 = iso(2026, 11, 25, 8, 30, 15, zone="+01:00")

SEEDS = {
    # Snapshots, one per pagination style.
    "snapshot-none-etag": config() + answer(page([item(), item()]), headers=[("ETag", literal('"etag-1"'))]),
    "snapshot-page-total-body": config(style="page", total="body")
    + answer(page([item(), item()], total=count(3))) + answer(page([item()], total=count(3))),
    "snapshot-offset-total-header": config(style="offset", total="header")
    + answer(page([item(), item()], total=count(3))) + answer(page([item()], total=count(3))),
    "snapshot-cursor-hasmore": config(style="cursor", has_more=True)
    + answer(page([item(), item()], next=token(5), has_more=True)) + answer(page([item()], has_more="false")),
    "snapshot-cursor-last-item": config(style="cursorFromLastItem")
    + answer(page([item(), item()])) + answer(page([item()])),
    "snapshot-link": config(style="link") + answer(page([item(), item()], next=url())) + answer(page([item()])),
    "snapshot-next-url-stop-when": config(style="nextUrl", stop_when=True)
    + answer(page([item(), item()], next=url())) + answer(page([item()], next=url(), end=True)),
    "snapshot-page-in-body": config(style="page", in_body=True, size=1)
    + answer(page([item()], size=1)) + answer(page([], size=1)),
    "snapshot-not-modified": config(syncs=2, deleted=True)
    + answer(page([item(), item(tombstone=True)]), headers=[("ETag", literal('"etag-1"'))]) + answer(status=304),
    # Incremental, each kind of since, each format and placement.
    "incremental-field-iso-param-page": config(True, "page", syncs=2)
    + answer(page([item(T), item(T2)])) + answer(page([item(T)])) + answer(page([item(iso(2026, 12, 1, 0, 0, 0))])),
    "incremental-field-seconds-header-cursor": config(True, "cursor", format="unixSeconds", placement="header",
                                                      cap=True, syncs=2)
    + answer(page([item(unix_seconds(10)), item(unix_seconds(-5))], next=token(7)))
    + answer(page([item(unix_seconds(3))])) + answer(page([item(unix_seconds(99))])),
    "incremental-field-ms-bodyfield-offset": config(True, "offset", in_body=True, format="unixMilliseconds",
                                                    placement="bodyField", syncs=2)
    + answer(page([item(unix_milliseconds(5000)), item(null=True)])) + answer(page([])),
    "incremental-field-pattern-lookback": config(True, "none", placement="pattern", lookback=3_600_000, syncs=2)
    + answer(page([item(T), item()])) + answer(page([item(T2)])),
    "incremental-from-body-next-url": config(True, "nextUrl", source="fromBody", lookback=1000, syncs=2)
    + answer(page([item()], next=url())) + answer(page([item()], kept=T)) + answer(page([], kept=T2)),
    "incremental-from-body-seconds-link": config(True, "link", source="fromBody", format="unixSeconds", syncs=2)
    + answer(page([item()], next=url(), kept=unix_seconds(1))) + answer(page([item()], kept=unix_seconds(2))),
    "incremental-token-cursor": config(True, "cursor", source="token", syncs=2)
    + answer(page([item(), item()], next=token(3), kept=token(10))) + answer(page([item()], kept=token(11)))
    + answer(page([], kept=token(12))),
    "incremental-token-header": config(True, "cursorFromLastItem", source="token", placement="header", syncs=2)
    + answer(page([item()], kept=token(1))) + answer(page([item()], kept=token(2))),
    "incremental-link-none": config(True, "none", source="link", syncs=2)
    + answer(page([item()], kept=url(5, 42))) + answer(page([item()], kept=url(5, 43))),
    "incremental-link-link-style": config(True, "link", source="link", syncs=2)
    + answer(page([item()], next=url())) + answer(page([item()], kept=url(5, 7))) + answer(page([])),
    # Waits, failures and resumes.
    "retry-after-then-page": config(attempts=3) + answer(status=429, headers=[("Retry-After", literal("1"))])
    + answer(page([item()])),
    "quota-at-zero": config(style="page", size=1, attempts=3)
    + answer(page([item()], size=1), headers=[("x-ratelimit-remaining", literal("0")),
                                              ("x-ratelimit-reset", number_header(30))])
    + answer(page([], size=1)),
    "unavailable-gives-up": config(attempts=1) + answer(status=503, headers=[("Retry-After", literal("3600"))]),
    "offline-then-reset": config(attempts=2, syncs=2) + answer(failure="unreachable") + answer(failure="reset")
    + answer(page([item()])),
    "incremental-cut-off-resumes": config(True, "page", size=1, attempts=1, syncs=2)
    + answer(page([item(T)], size=1)) + answer(status=500) + answer(page([item(T2)], size=1))
    + answer(page([], size=1)),
    "incremental-expired": config(True, "cursor", source="token", expired_when=True, syncs=2)
    + answer(page([item()], kept=token(1))) + answer(status=410) + answer(page([item()], kept=token(2))),
    "raw-body": config(attempts=1) + answer(raw=b'{"items": [{"id": "a"}], "x": 1e400}'),
    "wire-page": config(style="page", size=1, wire=True) + answer(page([item()], size=1))
    + answer(page([], size=1)),
    "wire-content-length": config(wire=True, attempts=1)
    + answer(page([item()]), headers=[("Content-Length", number_header(5))]),
}


def main():
    folder = os.path.join(os.path.dirname(os.path.abspath(__file__)), "corpus", "sync")
    os.makedirs(folder, exist_ok=True)
    for name, data in SEEDS.items():
        with open(os.path.join(folder, name), "wb") as file:
            file.write(data)
    print(f"{folder}: {len(SEEDS)} seeds", file=sys.stderr)


if __name__ == "__main__":
    main()
