#!/usr/bin/env python3
"""The reference parser of the `json` fuzz target (docs/testing.md#fuzzing): CPython's json.

Reads inputs from stdin, each a 4-byte little-endian length and that many bytes, and
answers one line for each on stdout:

    ok TOKENS      the input is one JSON text (RFC 8259); TOKENS is its value, canonical
    reject REASON  it is not
    deep           it nests deeper than Python's recursion allows
    error WHAT     this script failed on it

CPython's json is strict where Foundation's JSONSerialization on Linux is not (it
accepts a trailing comma, a NUL after the value, a byte-order mark and UTF-16), and it
hands numbers over as their literal text. What it accepts that RFC 8259 forbids is
turned away here: NaN and Infinity. Bytes are decoded as strict UTF-8 first, so
invalid UTF-8, overlong forms and encoded surrogates are rejected, and a byte-order
mark is rejected by json itself.

TOKENS, separated by spaces: `n`, `t`, `f`; `#LITERAL` for a number as written;
`sHEX` for a string (`s!HEX` if it held a lone surrogate escape), HEX its UTF-8 with
each lone surrogate written as U+FFFD, as the agent's scanner decodes it; `[` … `]`;
`{` then `kHEX` and the value for each member in document order, duplicates kept, `}`.
"""
import json
import struct
import sys


class Number(str):
    pass


class Members(list):
    pass


def reject_constant(name):
    raise ValueError("not JSON: " + name)


decoder = json.JSONDecoder(
    parse_int=Number, parse_float=Number, parse_constant=reject_constant, object_pairs_hook=Members
)


def fixed(text):
    replaced = "".join("\ufffd" if 0xD800 <= ord(c) <= 0xDFFF else c for c in text)
    return replaced, replaced != text


def tokens(value, out):
    if value is None:
        out.append("n")
    elif value is True:
        out.append("t")
    elif value is False:
        out.append("f")
    elif isinstance(value, Number):
        out.append("#" + value)
    elif isinstance(value, str):
        text, lone = fixed(value)
        out.append(("s!" if lone else "s") + text.encode().hex())
    elif isinstance(value, Members):
        out.append("{")
        for name, member in value:
            out.append("k" + fixed(name)[0].encode().hex())
            tokens(member, out)
        out.append("}")
    else:
        out.append("[")
        for element in value:
            tokens(element, out)
        out.append("]")


def answer(data):
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError:
        return "reject invalid UTF-8"
    try:
        value = decoder.decode(text)
    except RecursionError:
        return "deep"
    except ValueError as error:
        return "reject " + str(error).replace("\n", " ")
    out = []
    try:
        tokens(value, out)
    except RecursionError:
        return "deep"
    return "ok " + " ".join(out)


def main():
    stdin = sys.stdin.buffer
    # UTF-8 whatever the locale, and an answer per line as soon as it is written.
    stdout = open(sys.stdout.fileno(), "w", encoding="utf-8", errors="backslashreplace", closefd=False)
    while True:
        head = stdin.read(4)
        if len(head) < 4:
            return
        (length,) = struct.unpack("<I", head)
        data = stdin.read(length)
        try:
            line = answer(data)
        except Exception as error:  # a bug of this script: say so, on the input's line
            line = "error " + repr(error).replace("\n", " ")
        stdout.write(line + "\n")
        stdout.flush()


if __name__ == "__main__":
    main()
