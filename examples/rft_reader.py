#!/usr/bin/env python3
"""rft_reader.py - a stand-alone reader of rft streams, written from rft(5) alone.

Python has no zstd in its standard library, so read the decompressed content:

    zstd -dc trace.rft | python3 examples/rft_reader.py           # records per kind
    zstd -dc trace.rft | python3 examples/rft_reader.py --text    # K/B/W/R/E/A lines

It checks the magic, the format version, the header, every record length and
the end record's count, and prints the number of records of each kind (on
stderr with --text, whose standard output is the canonical text that rft-view
prints, without annotations).  Exit status: 0 ok, 1 bad data, 2 usage.
"""
import signal
import struct
import sys

KINDS = {0x00: "end", 0x01: "kernel", 0x02: "begin", 0x03: "end-wf", 0x04: "write",
         0x05: "read", 0x06: "bundle", 0x10: "duty", 0x11: "counters", 0x12: "faultmap", 0x13: "alloc"}
FIXED = {0x00: 8, 0x02: 27, 0x03: 16, 0x05: 20}   # exact payload lengths (write: geometry)
MAX_RECORD = 16 << 20


class Bad(Exception):
    pass


def take(f, n):
    b = f.read(n)
    if len(b) != n:
        raise Bad("stream ends inside the header (truncated)")
    return b


def length_range(kind, lanes):
    """The smallest and largest payload a record of this kind may have."""
    if kind == 0x01:
        return 15, 15 + 4095
    if kind == 0x04:
        n = 40 + (lanes + 7) // 8 + 4 * lanes
        return n, n
    if kind == 0x06:
        n = 18 + (lanes + 7) // 8
        return n, n
    return FIXED.get(kind, 0), FIXED.get(kind, MAX_RECORD)


def string(buf, pos):
    if pos + 2 > len(buf):
        raise Bad("header: malformed string")
    (n,) = struct.unpack_from("<H", buf, pos)
    if n > 4095 or pos + 2 + n > len(buf):
        raise Bad("header: malformed string")
    return buf[pos + 2:pos + 2 + n].decode("utf-8", "surrogateescape"), pos + 2 + n


def read_header(f):
    fixed = take(f, 12)
    magic, major, minor, bom, hlen = struct.unpack("<4sBBHI", fixed)
    if magic != b"RFTS":
        raise Bad("not an rft stream (bad magic)")
    if major != 1:
        raise Bad("unsupported format version %d.%d (this reader knows 1.x)" % (major, minor))
    if bom != 0x0102:
        raise Bad("bad byte-order mark")
    if not 20 <= hlen <= 1 << 24:
        raise Bad("header length %d out of range" % hlen)
    h = take(f, hlen)
    lanes, entries, block_lanes, lane_bits = struct.unpack_from("<4I", h, 0)
    if not (1 <= lanes <= 1024 and 1 <= entries <= 65535 and 1 <= block_lanes <= lanes
            and lanes % block_lanes == 0 and lane_bits == 32):
        raise Bad("header: bad geometry")
    producer, pos = string(h, 16)
    version, pos = string(h, pos)
    if pos + 2 > len(h):
        raise Bad("header: malformed metadata")
    (nmeta,) = struct.unpack_from("<H", h, pos)
    pos += 2
    if nmeta > 256:
        raise Bad("header: %d metadata pairs (at most 256)" % nmeta)
    meta = []
    for _ in range(nmeta):
        key, pos = string(h, pos)
        val, pos = string(h, pos)
        meta.append((key, val))
    if pos != len(h):
        raise Bad("header: %d unexpected bytes" % (len(h) - pos))
    return lanes, meta


def text_line(kind, p, lanes, names):
    """The canonical text line of a known record, or None (no text form)."""
    if kind == 0x01:
        cycle, index, flags = struct.unpack_from("<QIB", p)
        names[index] = p[15:].decode("utf-8", "surrogateescape")
        return None if flags & 1 else "K\t%d\t%s" % (cycle, names[index])
    cycle, cu, simd, wf = struct.unpack_from("<QHHI", p)
    line = "%s\t%d\t%d\t%d\t%d" % ("?KBEWRA"[kind], cycle, cu, simd, wf)
    if kind == 0x02:
        nregs, flags, wg, kernel = struct.unpack_from("<HBII", p, 16)
        line += "\t%d" % nregs
        if flags & 1:
            line += "\t" + names.get(kernel, "?") + ("\t%d" % wg if flags & 2 else "")
    elif kind == 0x05:
        line += "\t%d" % struct.unpack_from("<H", p, 16)
    elif kind == 0x04:
        mb = (lanes + 7) // 8
        mask = int.from_bytes(p[40:40 + mb], "little") & ((1 << lanes) - 1)
        vals = struct.unpack_from("<%dI" % lanes, p, 40 + mb)
        line += "\t%d\t%0*x\t" % (struct.unpack_from("<H", p, 16)[0], (lanes + 3) // 4, mask)
        line += "\t".join("%08x" % v for v in vals)
    elif kind == 0x06:
        slots, flags = p[16], p[17]
        mask = int.from_bytes(p[18:], "little") & ((1 << lanes) - 1)
        line += "\t%s\t%0*x" % ("".join(c for i, c in enumerate("XYZWT") if slots >> i & 1) or "-",
                                  (lanes + 3) // 4, mask)
        line += "\ttrans" * (flags & 1) + "\tvector" * (flags >> 1 & 1)
    return line


def read_stream(f, text, out):
    lanes, _meta = read_header(f)
    counts, names, nrec = {}, {}, 0
    while True:
        where = "record %d: " % (nrec + 1)
        prefix = f.read(5)
        if not prefix:
            raise Bad(where + "stream ends without an end record (truncated)")
        if len(prefix) < 5:
            raise Bad(where + "stream ends inside the kind and length (truncated)")
        kind, n = struct.unpack("<BI", prefix)
        lo, hi = length_range(kind, lanes)
        if not lo <= n <= hi:
            raise Bad(where + "%s record of %d bytes (expected %s)" % (
                KINDS.get(kind, "unknown"), n, lo if lo == hi else "%d..%d" % (lo, hi)))
        p = f.read(n)
        if len(p) != n:
            raise Bad(where + "stream ends inside the record (truncated)")
        if kind == 0x00:
            (count,) = struct.unpack("<Q", p)
            if count != nrec:
                raise Bad(where + "end record counts %d records, stream has %d" % (count, nrec))
            if f.read(1):
                raise Bad(where + "data after the end record")
            return counts, nrec
        if kind == 0x01 and struct.unpack_from("<H", p, 13)[0] != n - 15:
            raise Bad(where + "kernel name length does not match the record length")
        if 0x02 <= kind <= 0x06 and p[12:16] == b"\xff\xff\xff\xff":
            raise Bad(where + "reserved wavefront id 4294967295")
        if kind == 0x06 and (p[16] & ~0x1f or p[17] & ~0x03 or (p[17] & 1 and not p[16] & 0x10)
                             or (p[17] & 2 and not p[16] & 0x0f)):
            raise Bad(where + "bundle record with unknown or contradictory slot and flag bits")
        nrec += 1
        counts[kind] = counts.get(kind, 0) + 1
        if text and 0x01 <= kind <= 0x06:
            line = text_line(kind, p, lanes, names)
            if line is not None:
                out.write(line + "\n")


def main(argv):
    if argv not in ([], ["--text"]):
        sys.stderr.write("usage: rft_reader.py [--text] < decompressed-stream\n")
        return 2
    text = argv == ["--text"]
    signal.signal(signal.SIGPIPE, signal.SIG_DFL)   # die quietly when our reader goes away
    out = sys.stdout
    out.reconfigure(errors="surrogateescape")
    try:
        counts, nrec = read_stream(sys.stdin.buffer, text, out)
    except Bad as e:
        out.flush()
        sys.stderr.write("rft_reader.py: %s\n" % e)
        return 1
    summary = sys.stderr if text else out
    for kind in sorted(counts):
        summary.write("%s\t%d\n" % (KINDS.get(kind, "0x%02x" % kind), counts[kind]))
    summary.write("records\t%d\n" % nrec)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
