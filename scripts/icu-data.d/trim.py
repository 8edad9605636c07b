#!/usr/bin/env python3
"""Writes an ICU common data package (CmnD) holding only the named items of another."""
import struct, sys
src, dst, listfile = sys.argv[1:4]
keep = {l.strip() for l in open(listfile) if l.strip() and not l.startswith('#')}
d = open(src, 'rb').read()
hs = struct.unpack_from('<H', d, 0)[0]
assert d[12:16] == b'CmnD'
n = struct.unpack_from('<I', d, hs)[0]
ents = [struct.unpack_from('<II', d, hs + 4 + 8 * i) for i in range(n)]
items = []
for i, (no, do) in enumerate(ents):
    name = d[hs + no:d.index(b'\0', hs + no)].decode()
    end = ents[i + 1][1] if i + 1 < n else len(d) - hs
    short = name.split('/', 1)[1]
    if short in keep:
        items.append((name, d[hs + do:hs + end]))
missing = keep - {name.split('/', 1)[1] for name, _ in items}
assert not missing, f"not in the package: {sorted(missing)}"
items.sort(key=lambda t: t[0].encode())
names = b''.join(name.encode() + b'\0' for name, _ in items)
toc_len = 4 + 8 * len(items)
data_start = toc_len + len(names)
data_start += (-data_start - hs) % 16  # items aligned to 16 in the whole file
out = bytearray(d[:hs])
toc = bytearray(struct.pack('<I', len(items)))
body = bytearray()
name_off = toc_len
offset = data_start
for name, blob in items:
    toc += struct.pack('<II', name_off, offset)
    name_off += len(name.encode()) + 1
    body += blob + b'\0' * ((-len(blob)) % 16)
    offset += len(blob) + ((-len(blob)) % 16)
out += toc + names + b'\0' * (data_start - toc_len - len(names)) + body
open(dst, 'wb').write(out)
print(f"{len(items)} items, {len(out)} bytes")
