#!/usr/bin/env python3
"""rft_reader.py - a stand-alone reader of rft streams, written from rft(5) alone.

As a program, on a FILE or standard input, compressed or not:

    python3 rft_reader.py trace.rft             # records per kind
    python3 rft_reader.py --text trace.rft      # K/B/W/R/E/A lines, as rft-view prints them
    zstd -dc trace.rft | python3 rft_reader.py  # decompressed content works too

As a module (`make install` puts it in PREFIX/share/rftrace):

    import rft_reader
    with rft_reader.open_stream("trace.rft") as s:
        print(s.header.lanes, s.header.meta)
        for rec in s:                       # namedtuples; rec.kind is "kernel", "write", ...
            if rec.kind == "write":
                print(rec.cycle, rec.vreg, hex(rec.mask), rec.values)
    cols = rft_reader.write_arrays("trace.rft")    # NumPy: one array per write field

Records are plain Python objects (ints, tuples, str).  With NumPy installed,
open_stream(..., arrays=True) gives each write's mask and values as arrays and
write_arrays() gives all writes as columns; nothing else needs NumPy.
Compressed streams are read through python3-zstandard when it is installed,
else through the zstd program.

It checks the magic, the format version, the header, every record length and
the end record's count, as librft does.  Exit status: 0 ok, 1 bad data, 2 usage.
"""
import collections
import shutil
import signal
import struct
import subprocess
import sys
import threading

MAX_RECORD = 16 << 20
MAX_STR = 4095
ZSTD_MAGIC = b"\x28\xb5\x2f\xfd"
CHUNK = 1 << 16


class Bad(Exception):
    """Bad or unreadable data; the message names the place ("record 12: ...")."""


# ---- records: plain namedtuples, the first field the kind's name -------------

Header = collections.namedtuple(
    "Header", "major minor lanes entries block_lanes lane_bits producer version meta")
Kernel = collections.namedtuple("Kernel", "kind cycle index flags name")
Begin = collections.namedtuple("Begin", "kind cycle cu simd wf nregs flags wg kernel")
EndWf = collections.namedtuple("EndWf", "kind cycle cu simd wf")
# mask: int, bit i = lane i (arrays=True: bool array); values: tuple of u32 (uint32 array)
Write = collections.namedtuple(
    "Write", "kind cycle cu simd wf vreg phys cls bs wc flags c0 de db on_bits mask values")
Read = collections.namedtuple("Read", "kind cycle cu simd wf vreg phys")
# slots: bits X=1 Y=2 Z=4 W=8 T=16; flags: 1 trans, 2 vector; mask as in Write
Bundle = collections.namedtuple("Bundle", "kind cycle cu simd wf slots flags mask")
Other = collections.namedtuple("Other", "kind code payload")   # kinds without a parser here

WRITE_FIXED = 40    # bytes before the exec mask; the fields below, in order
WRITE_FIELDS = (("cycle", "<u8"), ("cu", "<u2"), ("simd", "<u2"), ("wf", "<u4"),
                ("vreg", "<u2"), ("phys", "<u2"), ("cls", "u1"), ("bs", "u1"), ("wc", "u1"),
                ("flags", "u1"), ("c0", "<u4"), ("de", "<u4"), ("db", "<u4"),
                ("on_bits", "<u4"))


def mask_bytes(lanes):
    return (lanes + 7) // 8


def write_length(lanes):
    return WRITE_FIXED + mask_bytes(lanes) + 4 * lanes


def parse_kernel(p, lanes, np):
    cycle, index, flags = struct.unpack_from("<QIB", p)
    return Kernel("kernel", cycle, index, flags, p[15:].decode("utf-8", "surrogateescape"))


def parse_begin(p, lanes, np):
    return Begin("begin", *struct.unpack_from("<QHHIHBII", p))


def parse_endwf(p, lanes, np):
    return EndWf("end-wf", *struct.unpack_from("<QHHI", p))


def parse_read(p, lanes, np):
    return Read("read", *struct.unpack_from("<QHHIHH", p))


def parse_write(p, lanes, np):
    fixed = struct.unpack_from("<QHHIHHBBBBIIII", p)
    mb = mask_bytes(lanes)
    if np is None:
        mask = int.from_bytes(p[WRITE_FIXED:WRITE_FIXED + mb], "little") & ((1 << lanes) - 1)
        values = struct.unpack_from("<%dI" % lanes, p, WRITE_FIXED + mb)
    else:
        bits = np.frombuffer(p, np.uint8, mb, WRITE_FIXED)
        mask = np.unpackbits(bits, bitorder="little")[:lanes].astype(bool)
        values = np.frombuffer(p, "<u4", lanes, WRITE_FIXED + mb)
    return Write("write", *fixed, mask, values)


def parse_bundle(p, lanes, np):
    fixed = struct.unpack_from("<QHHIBB", p)
    mb = mask_bytes(lanes)
    if np is None:
        mask = int.from_bytes(p[18:18 + mb], "little") & ((1 << lanes) - 1)
    else:
        mask = np.unpackbits(np.frombuffer(p, np.uint8, mb, 18), bitorder="little")[:lanes].astype(bool)
    return Bundle("bundle", *fixed, mask)


def slice_text(letter, r):
    return "%s\t%d\t%d\t%d\t%d" % (letter, r.cycle, r.cu, r.simd, r.wf)


def text_kernel(r, lanes, names):
    return None if r.flags & 1 else "K\t%d\t%s" % (r.cycle, r.name)   # implicit: no K line


def text_begin(r, lanes, names):
    line = slice_text("B", r) + "\t%d" % r.nregs
    if r.flags & 1:
        line += "\t" + names.get(r.kernel, "?") + ("\t%d" % r.wg if r.flags & 2 else "")
    return line


def text_endwf(r, lanes, names):
    return slice_text("E", r)


def text_read(r, lanes, names):
    return slice_text("R", r) + "\t%d" % r.vreg


def text_write(r, lanes, names):
    return slice_text("W", r) + "\t%d\t%0*x\t%s" % (
        r.vreg, (lanes + 3) // 4, r.mask, "\t".join("%08x" % v for v in r.values))


def text_bundle(r, lanes, names):
    slots = "".join(c for i, c in enumerate("XYZWT") if r.slots >> i & 1) or "-"
    mask = r.mask if isinstance(r.mask, int) else sum(1 << i for i, b in enumerate(r.mask) if b)
    return (slice_text("A", r) + "\t%s\t%0*x" % (slots, (lanes + 3) // 4, mask) +
            "\ttrans" * (r.flags & 1) + "\tvector" * (r.flags >> 1 & 1))


def exactly(n):
    return lambda lanes: (n, n)


def any_length(lanes):
    return 0, MAX_RECORD


# One entry per kind.  lengths(lanes) gives the shortest and longest payload;
# parse(payload, lanes, numpy or None) gives the record (none: an Other);
# text(record, lanes, kernel names) its canonical line, or None; on_slice:
# the payload starts with cycle, CU, SIMD and wavefront id.
Kind = collections.namedtuple("Kind", "name lengths parse text on_slice")
KINDS = {
    0x00: Kind("end", exactly(8), None, None, False),
    0x01: Kind("kernel", lambda lanes: (15, 15 + MAX_STR), parse_kernel, text_kernel, False),
    0x02: Kind("begin", exactly(27), parse_begin, text_begin, True),
    0x03: Kind("end-wf", exactly(16), parse_endwf, text_endwf, True),
    0x04: Kind("write", lambda lanes: (write_length(lanes),) * 2, parse_write, text_write, True),
    0x05: Kind("read", exactly(20), parse_read, text_read, True),
    0x06: Kind("bundle", lambda lanes: (18 + mask_bytes(lanes),) * 2, parse_bundle, text_bundle,
               True),
    0x10: Kind("duty", any_length, None, None, False),
    0x11: Kind("counters", any_length, None, None, False),
    0x12: Kind("faultmap", any_length, None, None, False),
    0x13: Kind("alloc", any_length, None, None, False),
    0x14: Kind("patch", any_length, None, None, False),
}
UNKNOWN = Kind("unknown", any_length, None, None, False)


# ---- bytes: the content of the zstd frames, or the file itself ----------------

class Content:
    """Buffered reads of exact sizes over next_chunk(), which returns b"" at the end."""

    def __init__(self):
        self.buf = bytearray()
        self.pos = 0

    def read(self, n):
        while len(self.buf) - self.pos < n:
            chunk = self.next_chunk()
            if not chunk:
                break
            if self.pos > CHUNK:
                del self.buf[:self.pos]
                self.pos = 0
            self.buf += chunk
        out = bytes(self.buf[self.pos:self.pos + n])
        self.pos += len(out)
        return out

    def close(self):
        pass


class Plain(Content):
    """Uncompressed content: the bytes already read, then the file."""

    def __init__(self, head, f):
        super().__init__()
        self.buf += head
        self.f = f

    def next_chunk(self):
        return self.f.read(CHUNK)


class ZstdModule(Content):
    """python3-zstandard, frame after frame; a frame cut short is an error."""

    def __init__(self, head, f, zstandard):
        super().__init__()
        self.f, self.zstandard = f, zstandard
        self.dctx = zstandard.ZstdDecompressor()
        self.frame = None
        self.pending = head

    def next_chunk(self):
        out = b""
        while not out:
            data, self.pending = self.pending or self.f.read(CHUNK), b""
            if not data:
                if self.frame is not None and not self.frame.eof:
                    raise Bad("truncated zstd frame")
                return b""
            if self.frame is None or self.frame.eof:
                self.frame = self.dctx.decompressobj()
            try:
                out = self.frame.decompress(data)
            except self.zstandard.ZstdError as e:
                raise Bad("corrupt zstd data: %s" % e) from None
            if self.frame.eof:
                self.pending = self.frame.unused_data
        return out


class ZstdProgram(Content):
    """The zstd program, fed by a thread (the bytes already read, then the file)."""

    def __init__(self, head, f):
        super().__init__()
        try:
            self.proc = subprocess.Popen(["zstd", "-dcq"], stdin=subprocess.PIPE,
                                         stdout=subprocess.PIPE, stderr=subprocess.PIPE)
        except OSError:
            raise Bad("compressed stream: install python3-zstandard or the zstd program") from None
        self.feeder = threading.Thread(target=self.feed, args=(head, f), daemon=True)
        self.feeder.start()

    def feed(self, head, f):
        try:
            self.proc.stdin.write(head)
            shutil.copyfileobj(f, self.proc.stdin, CHUNK)
        except (BrokenPipeError, ValueError, OSError):
            pass                # zstd stopped (an error it reports) or we closed
        finally:
            try:
                self.proc.stdin.close()
            except OSError:
                pass

    def next_chunk(self):
        out = self.proc.stdout.read1(CHUNK)
        if not out and self.proc.wait() != 0:
            why = self.proc.stderr.read().decode(errors="replace").strip().split(" : ")[-1]
            raise Bad("truncated zstd frame" if "premature end" in why
                      else "corrupt zstd data: %s" % why)
        return out

    def close(self):
        if self.proc.poll() is None:
            self.proc.kill()
        self.proc.wait()
        self.proc.stdout.close()
        self.proc.stderr.close()


def open_content(f):
    """Decompressed content of f: zstd frames or plain bytes (as zstd -dcf)."""
    head = f.read(4)
    if head != ZSTD_MAGIC:
        return Plain(head, f)
    try:
        import zstandard
    except ImportError:
        return ZstdProgram(head, f)
    return ZstdModule(head, f, zstandard)


def import_numpy():
    try:
        import numpy
    except ImportError:
        raise Bad("NumPy is not installed (Debian: apt-get install python3-numpy)") from None
    return numpy


# ---- the stream ---------------------------------------------------------------

def take(f, n):
    b = f.read(n)
    if len(b) != n:
        raise Bad("stream ends inside the header (truncated)")
    return b


def string(buf, pos):
    if pos + 2 > len(buf):
        raise Bad("header: malformed string")
    (n,) = struct.unpack_from("<H", buf, pos)
    if n > MAX_STR or pos + 2 + n > len(buf):
        raise Bad("header: malformed string")
    return buf[pos + 2:pos + 2 + n].decode("utf-8", "surrogateescape"), pos + 2 + n


def read_header(f):
    magic, major, minor, bom, hlen = struct.unpack("<4sBBHI", take(f, 12))
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
    return Header(major, minor, lanes, entries, block_lanes, lane_bits, producer, version, meta)


class Stream:
    """An open stream: .header, then its records by iteration (Bad on an error).
    path "-" is standard input.  arrays=True: write masks and values as NumPy arrays."""

    def __init__(self, path="-", arrays=False):
        self.numpy = import_numpy() if arrays else None
        self.file = sys.stdin.buffer if path == "-" else open(path, "rb")
        self.content = None
        try:
            self.content = open_content(self.file)
            self.header = read_header(self.content)
        except BaseException:
            self.close()
            raise
        self.kernel_names = {}      # kernel index -> name, for B lines
        self.counts = {}            # kind code -> records read
        self.count = 0              # records read, the end record excluded

    def raw_records(self):
        """(kind code, payload bytes) of every record before the end record."""
        f = self.content
        while True:
            where = "record %d: " % (self.count + 1)
            prefix = f.read(5)
            if not prefix:
                raise Bad(where + "stream ends without an end record (truncated)")
            if len(prefix) < 5:
                raise Bad(where + "stream ends inside the kind and length (truncated)")
            code, n = struct.unpack("<BI", prefix)
            kind = KINDS.get(code, UNKNOWN)
            lo, hi = kind.lengths(self.header.lanes)
            if not lo <= n <= hi:
                raise Bad(where + "%s record of %d bytes (expected %s)" % (
                    kind.name, n, lo if lo == hi else "%d..%d" % (lo, hi)))
            p = f.read(n)
            if len(p) != n:
                raise Bad(where + "stream ends inside the record (truncated)")
            if code == 0x00:
                (count,) = struct.unpack("<Q", p)
                if count != self.count:
                    raise Bad(where + "end record counts %d records, stream has %d"
                              % (count, self.count))
                if f.read(1):
                    raise Bad(where + "data after the end record")
                return
            if code == 0x01 and struct.unpack_from("<H", p, 13)[0] != n - 15:
                raise Bad(where + "kernel name length does not match the record length")
            if kind.on_slice and p[12:16] == b"\xff\xff\xff\xff":
                raise Bad(where + "reserved wavefront id 4294967295")
            self.count += 1
            self.counts[code] = self.counts.get(code, 0) + 1
            yield code, p

    def kinds_and_records(self):
        lanes = self.header.lanes
        for code, p in self.raw_records():
            kind = KINDS.get(code, UNKNOWN)
            rec = kind.parse(p, lanes, self.numpy) if kind.parse else Other(kind.name, code, p)
            if code == 0x01:
                self.kernel_names[rec.index] = rec.name
            yield kind, rec

    def __iter__(self):
        return (rec for _, rec in self.kinds_and_records())

    def text_lines(self):
        """The canonical text lines (rft-view's, without annotations)."""
        for kind, rec in self.kinds_and_records():
            line = kind.text(rec, self.header.lanes, self.kernel_names) if kind.text else None
            if line is not None:
                yield line

    def close(self):
        if self.content is not None:
            self.content.close()
        if self.file is not sys.stdin.buffer:
            self.file.close()

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()



def open_stream(path="-", arrays=False):
    return Stream(path, arrays)


def write_arrays(path="-"):
    """All writes of a stream as NumPy columns: cycle, cu, simd, wf, vreg, phys,
    cls, bs, wc, flags, c0, de, db, on_bits (one value per write), mask (bool,
    writes x lanes) and values (uint32, writes x lanes)."""
    np = import_numpy()
    with Stream(path) as s:
        lanes = s.header.lanes
        payloads = bytearray()
        for code, p in s.raw_records():
            if code == 0x04:
                payloads += p
    mb = mask_bytes(lanes)
    dtype = np.dtype(list(WRITE_FIELDS) + [("mask", "u1", (mb,)), ("values", "<u4", (lanes,))])
    table = np.frombuffer(bytes(payloads), dtype)
    cols = {name: np.ascontiguousarray(table[name]) for name, _ in WRITE_FIELDS}
    bits = np.unpackbits(table["mask"].reshape(len(table), mb), axis=1, bitorder="little")
    cols["mask"] = bits[:, :lanes].astype(bool)
    cols["values"] = np.ascontiguousarray(table["values"]).reshape(len(table), lanes)
    return cols


USAGE = "usage: rft_reader.py [--text] [FILE]"


def main(argv):
    if argv == ["--help"]:
        print(USAGE)
        return 0
    args = [a for a in argv if a != "--text"]
    if len(args) > 1 or any(a.startswith("-") and a != "-" for a in args):
        sys.stderr.write(USAGE + "\n")
        return 2
    text = "--text" in argv
    path = args[0] if args else "-"
    signal.signal(signal.SIGPIPE, signal.SIG_DFL)   # die quietly when our reader goes away
    out = sys.stdout
    out.reconfigure(errors="surrogateescape")
    try:
        with Stream(path) as s:
            if text:
                for line in s.text_lines():
                    out.write(line + "\n")
            else:
                for _ in s.raw_records():
                    pass
    except (Bad, OSError) as e:
        out.flush()
        why = e.strerror if isinstance(e, OSError) and e.strerror else str(e)
        sys.stderr.write("rft_reader.py: %s%s\n" % ("" if path == "-" else path + ": ", why))
        return 1
    summary = sys.stderr if text else out
    for code in sorted(s.counts):
        name = KINDS[code].name if code in KINDS else "0x%02x" % code
        summary.write("%s\t%d\n" % (name, s.counts[code]))
    summary.write("records\t%d\n" % s.count)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
