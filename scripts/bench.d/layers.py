#!/usr/bin/env python3
"""Where a poll's CPU goes, by layer: reads `perf report --stdio --no-children
--sort dso,sym -g none` on standard input and prints, for each layer, its share of
the samples and its microseconds per poll, given the CPU per poll in milliseconds.

    perf report ... | scripts/bench.d/layers.py CPU_MS_PER_POLL

Used by `scripts/bench many --profile`."""
import re
import sys

# (layer, test on (dso, symbol)), first match wins. Swift symbols are mangled: $s +
# the module name's length and name ($s7NIOCore…, $s4GRDB…).
LAYERS = [
    ("kernel: thread wake-ups and switches", lambda d, s: d.startswith("[kernel") and re.search(
        r"schedule|switch|futex|wake|enqueue_task|dequeue_task|update_curr|pick_next|idle|select_task|ttwu|_raw_spin_unlock_irq", s)),
    ("kernel: network, epoll, timers", lambda d, s: d.startswith("[kernel") and re.search(
        r"tcp|ip_|ipv|sock|skb|inet|net_|dev_|epoll|ep_|loopback|__sys_|recv|send|hrtimer|timerfd|eventfd|napi|nf_", s)),
    ("kernel: memory and threads (page faults, thread stacks, clone)", lambda d, s: d.startswith("[kernel") and re.search(
        r"page|folio|memcg|vma|mmap|unmap|munmap|fork|clone|exit|mm_|lru|pte|pmd|tlb|memset|copy_", s)),
    ("kernel: other (syscall entry, files)", lambda d, s: d.startswith("[kernel")),
    ("libc: malloc and free", lambda d, s: "libc" in d and re.search(r"malloc|free|calloc|realloc|_int_|tcache|arena", s)),
    ("libc: locks, threads, other", lambda d, s: "libc" in d or "libpthread" in d or d == "[vdso]"),
    ("SQLite (libsqlite3)", lambda d, s: "sqlite" in d),
    ("GRDB", lambda d, s: "$s4GRDB" in s),
    ("AsyncHTTPClient", lambda d, s: "$s15AsyncHTTPClient" in s),
    ("NIO (event loops, channels, HTTP/1, TLS)", lambda d, s: re.search(r"\$s\d+NIO|\$s\d+_NIO|CNIO|nio_", s)),
    ("Dispatch", lambda d, s: "dispatch" in s.lower()),
    ("Swift runtime: retain/release", lambda d, s: re.search(r"swift_(retain|release|bridgeObject|unknownObject)", s)),
    ("Swift runtime: concurrency (tasks, continuations, executors)", lambda d, s: re.search(
        r"swift_task|swift_continuation|swift_job|swift::runJob|Executor|AsyncTask|swift_asyncLet|\$ss\w*Continuation|TaskGroup", s)),
    ("Swift runtime: metadata, casts, allocation", lambda d, s: re.search(r"^swift|swift::|_swift|\$s\w*Mp$|Wl$|WV$", s)),
    ("Foundation", lambda d, s: re.search(r"\$s\d+Foundation|\$s10Foundation|FoundationEssentials|__CF|CF[A-Z]", s)),
    ("the agent (Streams, Store, SyncCore, SyncAgentDaemon)", lambda d, s: re.search(
        r"\$s\d+(Streams|Store|SyncCore|SyncAgentDaemon|SyncAgentCLI|SyncAgent)", s)),
    ("Swift standard library (strings, arrays, hashing)", lambda d, s: s.startswith("$ss") or "$sS" in s[:4]),
    ("logging, metrics, status server", lambda d, s: re.search(r"\$s\d+(Logging|Hummingbird|ServiceLifecycle|Metrics)", s)),
    ("other code of the binary", lambda d, s: True),
]


def main() -> None:
    per_poll_ms = float(sys.argv[1])
    totals: dict[str, float] = {}
    seen = 0.0
    for line in sys.stdin:
        m = re.match(r"\s*([\d.]+)%\s+(\S+)\s+\[(.)\]\s+(.*)$", line)
        if not m:
            continue
        share, dso, _, symbol = float(m.group(1)), m.group(2), m.group(3), m.group(4).strip()
        seen += share
        for name, test in LAYERS:
            if test(dso, symbol):
                totals[name] = totals.get(name, 0.0) + share
                break
    if seen == 0:
        sys.exit("layers.py: no samples in the report")
    print(f"  {'layer':<62} {'share':>7} {'µs/poll':>9}")
    for name, _ in LAYERS:
        if name in totals:
            share = totals[name] / seen
            print(f"  {name:<62} {100 * share:6.1f}% {1000 * per_poll_ms * share:9.1f}")
    print(f"  {'total':<62} {100.0:6.1f}% {1000 * per_poll_ms:9.1f}")


main()
