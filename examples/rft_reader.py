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
    d = rft_reader.duty_arrays("base.rft")         # NumPy: a duty map, [slice, entry, lane, bit]
    d = rft_reader.duty_arrays("base.rft", slices=[(0, 1)])   # one slice only

Records are plain Python objects (ints, tuples, str).  With NumPy installed,
open_stream(..., arrays=True) gives each write's mask and values as arrays and
write_arrays() gives all writes as columns; nothing else needs NumPy.
duty_arrays() reads a duty map into NumPy a block of decompressed content at
a time (Stream.record_blocks: structured dtypes over the block, no Python
loop per record or per cell), its t0, t1, off of the narrowest unsigned type
that holds an entry's cycles (they were uint64 before issue 35; dtype= asks
for one); bench/pyreader measures it against zstd -dc.
Compressed streams are read through python3-zstandard when it is installed,
else through the zstd program.

It checks the magic, the format version, the header, every record length and
the end record's count, as librft does.  Exit status: 0 ok, 1 bad data, 2 usage.
"""
import collections
import mmap
import re
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
BLOCK = 4 << 20     # bytes of content a NumPy reader takes at a time
SLAB = 1 << 17      # cells of duty records decoded together (in cache)
RESERVE = 1 << 36   # bytes of address space (not memory) for each big array


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
# The results (rft(5) kinds 0x10-0x14).  Duty: one entry of a slice; t0, t1,
# off: the cycles of each of its 32 x lanes cells at '0', at '1' and off, a
# tuple in cell order (cell b: bit b % 32 of lane b // 32), or with
# arrays=True uint64 arrays of shape (lanes, 32), [lane, bit].
Duty = collections.namedtuple(
    "Duty", "kind version span flags cu simd entry entries lanes first last cycles t0 t1 off")
# Counters: values is a dict, name -> value, in the record's order
Counters = collections.namedtuple("Counters", "kind stage scope values")
# FaultMap: cu, simd 0xffff for every slice without its own map; bits: faulty
# bits per block, a bytes of entries x blocks (arrays=True: uint8 array [entry, block])
FaultMap = collections.namedtuple(
    "FaultMap", "kind cu simd entries blocks ecp seed origin bits")
# Alloc: event 1 allocated, 2 freed
Alloc = collections.namedtuple(
    "Alloc", "kind cycle cu simd wf base n rot free event flags bank")
# Patch: place 1 entry, 2 block, 3 LDS; entry, block 0xffff where the place has none
Patch = collections.namedtuple(
    "Patch", "kind cycle cu simd wf vreg entry block place c0 code")
SPANS = {1: "stream", 2: "slice", 3: "busy"}
PLACES = {1: "entry", 2: "block", 3: "lds"}
DUTY_FIXED = 40

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


def parse_duty(p, lanes, np):
    if len(p) < DUTY_FIXED:
        raise Bad("duty record of %d bytes (at least %d)" % (len(p), DUTY_FIXED))
    (version, span, flags, planes, cu, simd, entry, entries, rlanes, runs,
     first, last, cycles) = struct.unpack_from("<BBBBHHHHHHQQQ", p)
    if version != 1:
        raise Bad("duty record of version %d (this reader knows 1)" % version)
    if rlanes != lanes:
        raise Bad("duty record of %d lanes in a stream of %d" % (rlanes, lanes))
    if span not in SPANS or planes > 64 or not 1 <= runs <= 32 * lanes:
        raise Bad("malformed duty record")
    cells, pb = 32 * lanes, 4 * lanes
    if len(p) != DUTY_FIXED + planes * pb + 10 * runs:
        raise Bad("duty record of %d bytes (expected %d)"
                  % (len(p), DUTY_FIXED + planes * pb + 10 * runs))
    pos = DUTY_FIXED + planes * pb
    if np is None:
        counts, values = [], []
        for i in range(runs):
            c, v = struct.unpack_from("<HQ", p, pos + 10 * i)
            counts.append(c)
            values.append(v)
    else:
        r = np.frombuffer(p, np.dtype(list(RUN_FIELDS)), runs, pos)
        counts, values = r["count"].astype(np.int64), r["value"]
    if (min(counts) < 1 or sum(counts) != cells) if np is None else \
            (counts.min() < 1 or counts.sum() != cells):
        raise Bad("duty record: its runs of off time do not cover the %d cells" % cells)
    if np is None:
        t1 = [0] * cells
        for k in range(planes):
            x = int.from_bytes(p[DUTY_FIXED + k * pb:DUTY_FIXED + (k + 1) * pb], "little")
            for b in range(cells):
                t1[b] |= (x >> b & 1) << k
        off = [v for c, v in zip(counts, values) for _ in range(c)]
        if any(a + o > cycles for a, o in zip(t1, off)):
            raise Bad("duty record: a cell's time at '1' and off exceeds its cycles")
        t0 = tuple(cycles - a - o for a, o in zip(t1, off))
        t1, off = tuple(t1), tuple(off)
    else:
        t1 = np.zeros(cells, np.uint64)
        tb = t1.view(np.uint8).reshape(cells, 8)
        if sys.byteorder == "big":
            tb = tb[:, ::-1]
        rows = np.frombuffer(p, np.uint8, planes * pb, DUTY_FIXED).reshape(planes, pb)
        for k0 in range(0, planes, 8):     # 8 planes: byte k0 / 8 of every cell
            tb[:, k0 // 8] = np.packbits(np.unpackbits(rows[k0:k0 + 8], axis=1, bitorder="little"),
                                         axis=0, bitorder="little")[0]
        off = np.repeat(np.asarray(values, np.uint64), counts)
        if np.any(t1 > np.uint64(cycles) - np.minimum(off, np.uint64(cycles))) or \
                np.any(off > np.uint64(cycles)):
            raise Bad("duty record: a cell's time at '1' and off exceeds its cycles")
        t0 = np.uint64(cycles) - t1 - off
        t0, t1, off = (a.reshape(lanes, 32) for a in (t0, t1, off))
    return Duty("duty", version, SPANS[span], flags, cu, simd, entry, entries, lanes,
                first, last, cycles, t0, t1, off)


def record_string(p, pos, what):
    if pos + 2 > len(p):
        raise Bad("malformed %s" % what)
    (n,) = struct.unpack_from("<H", p, pos)
    if pos + 2 + n > len(p):
        raise Bad("malformed %s" % what)
    return p[pos + 2:pos + 2 + n].decode("utf-8", "surrogateescape"), pos + 2 + n


def parse_counters(p, lanes, np):
    stage, pos = record_string(p, 0, "counters record")
    scope, pos = record_string(p, pos, "counters record")
    if pos + 2 > len(p):
        raise Bad("malformed counters record")
    (count,) = struct.unpack_from("<H", p, pos)
    pos += 2
    values = {}
    for _ in range(count):
        name, pos = record_string(p, pos, "counters record")
        if pos + 8 > len(p):
            raise Bad("malformed counters record")
        values[name] = struct.unpack_from("<Q", p, pos)[0]
        pos += 8
    if pos != len(p):
        raise Bad("counters record: %d bytes after its last counter" % (len(p) - pos))
    return Counters("counters", stage, scope, values)


def parse_faultmap(p, lanes, np):
    if len(p) < 20:
        raise Bad("malformed fault map record")
    cu, simd, entries, blocks, ecp, _, seed, n = struct.unpack_from("<HHHHBBQH", p)
    if len(p) != 20 + n + entries * blocks:
        raise Bad("fault map record of %d bytes (expected %d)"
                  % (len(p), 20 + n + entries * blocks))
    origin = p[20:20 + n].decode("utf-8", "surrogateescape")
    bits = p[20 + n:]
    if np is not None:
        bits = np.frombuffer(p, np.uint8, entries * blocks, 20 + n).reshape(entries, blocks)
    return FaultMap("faultmap", cu, simd, entries, blocks, ecp, seed, origin, bits)


def parse_alloc(p, lanes, np):
    if len(p) < 26:
        raise Bad("malformed window allocation record")
    f = struct.unpack_from("<QHHIHHHHBB", p)
    bank = struct.unpack_from("<H", p, 26)[0] if len(p) >= 28 else 1
    if f[8] not in (1, 2) or bank == 0:
        raise Bad("malformed window allocation record")
    return Alloc("alloc", *f, bank)


def parse_patch(p, lanes, np):
    if len(p) < 32:
        raise Bad("malformed patch record")
    cycle, cu, simd, wf, vreg, entry, block, place, _, c0, code = \
        struct.unpack_from("<QHHIHHHBBII", p)
    if place not in PLACES:
        raise Bad("patch record of place %d (1 to 3)" % place)
    return Patch("patch", cycle, cu, simd, wf, vreg, entry, block, PLACES[place], c0, code)


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
    0x10: Kind("duty", any_length, parse_duty, None, False),
    0x11: Kind("counters", any_length, parse_counters, None, False),
    0x12: Kind("faultmap", any_length, parse_faultmap, None, False),
    0x13: Kind("alloc", any_length, parse_alloc, None, False),
    0x14: Kind("patch", any_length, parse_patch, None, False),
}
UNKNOWN = Kind("unknown", any_length, None, None, False)
RESULT_KINDS = (0x10, 0x11, 0x12, 0x14)    # summed up by main()


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
        raise Bad("NumPy is not installed for %s (Debian: apt-get install python3-numpy; "
                  "else: %s -m pip install numpy)" % (sys.executable, sys.executable)) from None
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

    def record_blocks(self, candidates, size=None):
        """The records of a stream block by block, for readers into NumPy:
        (a, starts, numbers, others) for each block of about size (BLOCK)
        bytes of the content.  a: the block, a uint8 array valid until the
        next block is asked for (one buffer serves them all: no new memory
        to fault in per block); starts: int64 array of the offsets in a of
        the records that candidates(np, a) found and that follow each other
        (the payload of one at start + 5); numbers: their numbers in the
        stream (from 1), as in messages; others: [(kind code, payload,
        number)] of the other records of the block, in order.  candidates
        gives the offsets of the well-formed records of the kinds it reads in
        a (sorted) and their lengths (the 5 bytes of kind and length
        included), as int64 arrays; they are taken only where the records
        before them lead to them, so a match inside another record's payload
        does no harm.  Records between them (other kinds, or one that
        candidates refused) are read one by one and checked as raw_records()
        does; the loop in Python is per block and per such record, never
        per record that candidates found."""
        np = import_numpy()
        size = size or BLOCK
        buf = bytearray(size + 2 * CHUNK)
        held = len(self.content.buf) - self.content.pos      # what read() buffered
        if held > len(buf):
            buf = bytearray(held + size)
        buf[:held] = self.content.buf[self.content.pos:]
        self.content.buf, self.content.pos = bytearray(), 0
        eof = ended = False
        fill = size             # fill the buffer to this many bytes
        while True:
            while held < fill and not eof:
                chunk = self.content.next_chunk()
                if not chunk:
                    eof = True
                    break
                if held + len(chunk) > len(buf):     # a record longer than a block
                    bigger = bytearray(2 * (held + len(chunk)))
                    bigger[:held] = buf[:held]
                    buf = bigger
                buf[held:held + len(chunk)] = chunk
                held += len(chunk)
            if ended:
                if held:
                    raise Bad("record %d: data after the end record" % (self.count + 1))
                return
            if not held:
                break
            n = held
            a = np.frombuffer(buf, np.uint8, n)
            cand, clen = candidates(np, a)
            cand = np.asarray(cand, np.int64)
            nxt = cand + np.asarray(clen, np.int64)
            brk = np.flatnonzero(nxt[:-1] != cand[1:])     # the chain breaks after these
            runs, numbers, others = [], [], []
            pos = 0
            while True:
                i = int(np.searchsorted(cand, pos))
                if i < len(cand) and cand[i] == pos:
                    b = int(np.searchsorted(brk, i))
                    j = int(brk[b]) if b < len(brk) else len(cand) - 1
                    k = i + int(np.searchsorted(nxt[i:j + 1], n, "right")) - 1
                    if k < i:
                        break               # its record goes on in the next block
                    runs.append(cand[i:k + 1])
                    numbers.append(np.arange(self.count + 1, self.count + 2 + k - i))
                    self.count += k + 1 - i
                    pos = int(nxt[k])
                    if k < j:
                        break
                    continue
                if pos + 5 > n:
                    break
                rcode, ln = struct.unpack_from("<BI", buf, pos)
                self.check_length(rcode, ln, self.count + 1)
                if pos + 5 + ln > n:
                    break
                p = bytes(buf[pos + 5:pos + 5 + ln])
                if rcode == 0x00:
                    self.check_end(p, self.count + 1)
                    if pos + 5 + ln != n:
                        raise Bad("record %d: data after the end record" % (self.count + 1))
                    pos, ended = n, True
                    break
                self.check_record(rcode, p, self.count + 1)
                self.count += 1
                self.counts[rcode] = self.counts.get(rcode, 0) + 1
                others.append((rcode, p, self.count))
                pos += 5 + ln
            if runs:
                starts = np.concatenate(runs)
                for c, k in enumerate(np.bincount(a[starts], minlength=256).tolist()):
                    if k:
                        self.counts[c] = self.counts.get(c, 0) + k
                yield a, starts, np.concatenate(numbers), others
            else:
                yield a, np.zeros(0, np.int64), np.zeros(0, np.int64), others
            del a
            buf[:n - pos] = buf[pos:n]          # the record cut at the block's end
            held = n - pos
            fill = size if pos else held + 1    # a record longer than a block: read on
            if eof and not ended:
                break
        where = "record %d: " % (self.count + 1)
        if not held:
            raise Bad(where + "stream ends without an end record (truncated)")
        if held < 5:
            raise Bad(where + "stream ends inside the kind and length (truncated)")
        self.check_length(*struct.unpack_from("<BI", buf), self.count + 1)
        raise Bad(where + "stream ends inside the record (truncated)")

    def check_length(self, code, n, number):
        kind = KINDS.get(code, UNKNOWN)
        lo, hi = kind.lengths(self.header.lanes)
        if not lo <= n <= hi:
            raise Bad("record %d: %s record of %d bytes (expected %s)" % (
                number, kind.name, n, lo if lo == hi else "%d..%d" % (lo, hi)))

    def check_end(self, p, number):
        (count,) = struct.unpack("<Q", p)
        if count != self.count:
            raise Bad("record %d: end record counts %d records, stream has %d"
                      % (number, count, self.count))

    def check_record(self, code, p, number):
        if code == 0x01 and struct.unpack_from("<H", p, 13)[0] != len(p) - 15:
            raise Bad("record %d: kernel name length does not match the record length" % number)
        if KINDS.get(code, UNKNOWN).on_slice and p[12:16] == b"\xff\xff\xff\xff":
            raise Bad("record %d: reserved wavefront id 4294967295" % number)

    def kinds_and_records(self):
        lanes = self.header.lanes
        for code, p in self.raw_records():
            kind = KINDS.get(code, UNKNOWN)
            try:
                rec = kind.parse(p, lanes, self.numpy) if kind.parse else Other(kind.name, code, p)
            except (Bad, struct.error) as e:
                raise Bad("record %d: %s" % (self.count, e)) from None
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


def fixed_candidates(lanes, kinds):
    """For Stream.record_blocks: the records of the kinds given, all of one
    length (begin, end-wf, write, read, bundle), that have it and no
    reserved wavefront id."""
    def find(np, a):
        n = len(a) - 21                 # kind, length, cycle, cu, simd, wf
        if n < 0:
            return np.zeros(0, np.int64), np.zeros(0, np.int64)
        is_kind = np.zeros(256, bool)
        length = np.zeros(256, np.int64)
        for k in kinds:
            is_kind[k] = True
            length[k] = KINDS[k].lengths(lanes)[0]
        c = np.flatnonzero(is_kind[a[:n + 1]])
        ln = _rows(np, a[1:], 4, c).view("<u4").ravel()
        c = c[ln == length[a[c]]]
        wf = _rows(np, a[17:], 4, c).view("<u4").ravel()
        c = c[wf != 0xffffffff]
        return c, 5 + length[a[c]]
    return find


def write_arrays(path="-"):
    """All writes of a stream as NumPy columns: cycle, cu, simd, wf, vreg, phys,
    cls, bs, wc, flags, c0, de, db, on_bits (one value per write), mask (bool,
    writes x lanes) and values (uint32, writes x lanes).  Read block by
    block (Stream.record_blocks), the writes of a block through a structured
    dtype, no Python loop per record (but per kernel record)."""
    np = import_numpy()
    with Stream(path) as s:
        lanes = s.header.lanes
        mb = mask_bytes(lanes)
        dtype = np.dtype(list(WRITE_FIELDS) + [("mask", "u1", (mb,)), ("values", "<u4", (lanes,))])
        parts = []
        for a, starts, numbers, others in s.record_blocks(
                fixed_candidates(lanes, (0x02, 0x03, 0x04, 0x05, 0x06))):
            w = starts[a[starts] == 0x04]
            if len(w):
                parts.append(_rows(np, a[5:], dtype.itemsize, w).view(dtype).ravel())
    table = np.concatenate(parts) if parts else np.zeros(0, dtype)
    del parts
    cols = {name: np.ascontiguousarray(table[name]) for name, _ in WRITE_FIELDS}
    bits = np.unpackbits(table["mask"].reshape(len(table), mb), axis=1, bitorder="little")
    cols["mask"] = bits[:, :lanes].astype(bool)
    cols["values"] = np.ascontiguousarray(table["values"]).reshape(len(table), lanes)
    return cols


def records_of(path, kind, arrays=False):
    """The records of one kind ("duty", "counters", ...) of a stream, parsed."""
    with Stream(path, arrays) as s:
        code = next(c for c, k in KINDS.items() if k.name == kind)
        for c, p in s.raw_records():
            if c == code:
                try:
                    yield KINDS[c].parse(p, s.header.lanes, s.numpy)
                except (Bad, struct.error) as e:
                    raise Bad("record %d: %s" % (s.count, e)) from None


DUTY_FIELDS = (("version", "u1"), ("span", "u1"), ("flags", "u1"), ("planes", "u1"),
               ("cu", "<u2"), ("simd", "<u2"), ("entry", "<u2"), ("entries", "<u2"),
               ("lanes", "<u2"), ("runs", "<u2"), ("first", "<u8"), ("last", "<u8"),
               ("cycles", "<u8"))     # the duty record's fixed part, DUTY_FIXED bytes
RUN_FIELDS = (("count", "<u2"), ("value", "<u8"))   # one run of off time


def narrowest(np, top):
    """The narrowest unsigned integer dtype that holds 0..top."""
    for t in (np.uint8, np.uint16, np.uint32):
        if top <= np.iinfo(t).max:
            return np.dtype(t)
    return np.dtype(np.uint64)


def _rows(np, a, width, at):
    """The width bytes of a from each offset of at: uint8 [len(at), width], a
    copy made without an index per byte (a strided view of a, then rows)."""
    if len(at) == 0:
        return np.zeros((0, width), np.uint8)
    return np.lib.stride_tricks.sliding_window_view(a, width)[at]


def duty_candidates(lanes, entries):
    """For Stream.record_blocks: the duty records of a block that look whole
    and well formed (kind 0x10, version 1, the stream's geometry, a length
    that agrees with their planes and runs)."""
    def find(np, a):
        n = len(a) - 5 - DUTY_FIXED
        if n < 0:
            return np.zeros(0, np.int64), np.zeros(0, np.int64)
        c = np.flatnonzero(a[:n + 1] == 0x10)
        c = c[a[c + 5] == 1]
        w = _rows(np, a, 5 + DUTY_FIXED, c)
        ln = np.ascontiguousarray(w[:, 1:5]).view("<u4").ravel().astype(np.int64)
        f = np.ascontiguousarray(w[:, 5:]).view(np.dtype(list(DUTY_FIELDS))).ravel()
        planes, runs = f["planes"].astype(np.int64), f["runs"].astype(np.int64)
        ok = ((f["span"] >= 1) & (f["span"] <= 3) & (planes <= 64) & (f["lanes"] == lanes)
              & (f["entries"] == entries) & (f["entry"] < entries) & (runs >= 1)
              & (runs <= 32 * lanes) & (ln == DUTY_FIXED + planes * 4 * lanes + 10 * runs))
        return c[ok], 5 + ln[ok]
    return find


_SPREAD = {}


def spread(np):
    """uint64 [256]: byte i of entry v is bit i of v (a byte's bits, one a byte)."""
    if "t" not in _SPREAD:
        v = np.arange(256, dtype=np.uint64)
        _SPREAD["t"] = sum((v >> np.uint64(i) & np.uint64(1)) << np.uint64(8 * i)
                           for i in range(8))
    return _SPREAD["t"]


def duty_block(np, a, starts, numbers, lanes, dtype, out=None):
    """The duty records at starts (offsets in a, as Stream.record_blocks gives
    them): their fixed parts (a structured array of DUTY_FIELDS) and t0, t1,
    off as dtype arrays [record, cell], written into out=(t0, t1, off) when
    given (t1 zero).  Vectorized over the records: the loops in Python are
    per bit plane and per number of planes."""
    m, cells, pb = len(starts), 32 * lanes, 4 * lanes
    f = _rows(np, a[5:], DUTY_FIXED, starts).view(np.dtype(list(DUTY_FIELDS))).ravel()
    if out is None:
        out = tuple(np.zeros((m, cells), dtype) for _ in range(3))
    t0, t1, off = out

    def refuse(bad, why):
        raise Bad("record %d: %s" % (numbers[np.flatnonzero(bad)[0]], why))
    cycles = f["cycles"]
    if (cycles > np.iinfo(dtype).max).any():
        refuse(cycles > np.iinfo(dtype).max, "duty record of %d cycles (more than %s holds)"
               % (cycles.max(), dtype))
    # t1: plane k of a record is bit k of its cells, 4 x lanes bytes (cell
    # 8j + i: bit i of byte j).  Spread to a byte a bit, 8 planes shifted
    # and or-ed give byte k0 / 8 of the cells' values, 8 cells a uint64,
    # written into those bytes of t1 (little-endian)
    planes = f["planes"]
    tb = t1.view(np.uint8).reshape(m, cells, dtype.itemsize)
    if sys.byteorder == "big":
        tb = tb[:, :, ::-1]
    body, table = a[5 + DUTY_FIXED:], spread(np)
    for p in np.unique(planes).tolist():
        if p == 0:
            continue
        idx = np.flatnonzero(planes == p)
        whole = len(idx) == m
        rows = _rows(np, body, p * pb, starts[idx]).reshape(len(idx), p, pb)
        for k0 in range(0, p, 8):
            acc = table[rows[:, k0]]
            for k in range(k0 + 1, min(k0 + 8, p)):
                acc |= table[rows[:, k]] << np.uint64(k - k0)
            byte = acc.view(np.uint8).reshape(len(idx), cells)
            if k0 // 8 >= dtype.itemsize:
                if byte.any():
                    refuse(planes == p, "duty record: a cell's time at '1' exceeds its cycles")
            elif whole:
                tb[:, :, k0 // 8] = byte
            else:
                tb[idx, :, k0 // 8] = byte
    # off: the runs (count, value) after the planes, repeated count times
    runs = f["runs"].astype(np.int64)
    first_run = np.cumsum(runs) - runs
    rec = np.repeat(np.arange(m), runs)
    at = (starts + 5 + DUTY_FIXED + planes.astype(np.int64) * pb)[rec] + \
        10 * (np.arange(len(rec)) - first_run[rec])
    r = _rows(np, a, 10, at).view(np.dtype(list(RUN_FIELDS))).ravel()
    del at
    counts = r["count"].astype(np.int64)
    if counts.min() < 1 or (np.add.reduceat(counts, first_run) != cells).any():
        bad = np.add.reduceat(np.minimum(counts, 1), first_run) != runs
        bad |= np.add.reduceat(counts, first_run) != cells
        refuse(bad, "duty record: its runs of off time do not cover the %d cells" % cells)
    values = r["value"]
    if (values > cycles[rec]).any():
        refuse(np.add.reduceat(values > cycles[rec], first_run) > 0,
               "duty record: a cell's time at '1' and off exceeds its cycles")
    del r, rec
    single = runs == 1                  # one run: the entry's cells all off as long
    if single.all():
        off[...] = values.astype(dtype)[:, None]
    else:
        off.reshape(-1)[:] = np.repeat(values.astype(dtype), counts)
    del values, counts
    np.subtract(cycles.astype(dtype)[:, None], off, out=t0)      # no wrap: off <= cycles
    if (t1 > t0).any():
        refuse((t1 > t0).any(axis=1),
               "duty record: a cell's time at '1' and off exceeds its cycles")
    t0 -= t1
    return f, t0, t1, off


def _noreserve():
    """mmap's MAP_NORESERVE where Python does not name it (0x4000 on Linux
    for x86, ARM and RISC-V; elsewhere none is known here: 0)."""
    import platform
    if hasattr(mmap, "MAP_NORESERVE"):
        return mmap.MAP_NORESERVE
    if sys.platform.startswith("linux") and \
            re.match(r"(x86_64|i.86|aarch64|arm|riscv)", platform.machine()):
        return 0x4000
    return 0


class Growing:
    """An array [n, *row] that grows along its first axis without a copy: its
    memory a private anonymous mmap whose pages are taken from the system
    only when written.  The map reserves RESERVE bytes of address space
    (MAP_NORESERVE: no memory is committed); where that is refused (a
    ulimit -v, strict overcommit) or not enough, it is enlarged with mremap
    (mmap.resize), still without a copy but with slower page faults.
    .array is a view of it (None while growing: no other view may be held
    then)."""

    def __init__(self, np, row, dtype):
        self.np, self.row, self.dtype = np, tuple(row), np.dtype(dtype)
        self.rowbytes = int(np.prod(self.row, dtype=np.int64)) * self.dtype.itemsize
        self.n = 0
        self.map = None
        flags = mmap.MAP_PRIVATE | mmap.MAP_ANONYMOUS
        if _noreserve():
            try:
                self.map = mmap.mmap(-1, RESERVE, flags=flags | _noreserve())
            except (OSError, OverflowError, ValueError):
                pass
        if self.map is None:
            self.map = mmap.mmap(-1, mmap.PAGESIZE, flags=flags)
        self._huge()
        self.array = self._view()

    def _huge(self):
        if hasattr(mmap, "MADV_HUGEPAGE"):
            try:
                self.map.madvise(mmap.MADV_HUGEPAGE)
            except OSError:
                pass

    def _view(self):
        a = self.np.frombuffer(self.map, self.dtype, self.n * self.rowbytes // self.dtype.itemsize)
        return a.reshape((self.n,) + self.row)

    def grow(self, n):
        self.array = None
        size = max(n * self.rowbytes, mmap.PAGESIZE)
        if size > len(self.map):
            self.map.resize(size)
            self._huge()
        self.n = n
        self.array = self._view()

    def widen(self, dtype):
        """The same values in a wider dtype (a new map, the old one freed)."""
        new = Growing(self.np, self.row, dtype)
        new.grow(self.n)
        new.array[...] = self.array
        self.array = None
        self.map.close()
        self.__dict__.update(new.__dict__)


class DutyArrays:
    """A duty map (rft-duty(1), rft-merge(1)) as NumPy arrays, slice by slice.

    slices: [(cu, simd), ...] sorted; t0, t1, off: [slice, entry, lane,
    bit], the cycles each cell spent at '0', at '1' and switched off, of
    dtype: the narrowest unsigned integer type that holds the most cycles of
    an entry (uint8 to uint64; dtype= asks for one, a map that needs more is
    refused); cycles, first, last: uint64 [slice, entry], the time counted
    for every cell of the entry and its window; used: bool [slice, entry]
    (False: the entry was never allocated, rft(5) flag 0x01, or has no
    record); span: "stream", "slice" or "busy".  slice_index[(cu, simd)]
    gives the index.  An entry found twice (maps not merged) is added up,
    its window the lowest first and the highest last.

    The records are read block by block (BLOCK bytes of content, one buffer)
    into NumPy, with no loop in Python per record or per cell (but per slab
    of records of about SLAB cells, decoded together in the processor's
    cache).  Memory: 3 x the dtype's bytes a cell (uint32: 12 bytes, 6 MB a
    slice of 256 x 64 x 32 cells), in maps that grow without a copy
    (Growing), plus the block and a slab's temporaries while reading (1.18x
    the arrays' bytes at the peak for 21M cells, bench/pyreader);
    slices=[(cu, simd), ...] keeps only those slices (one slice: the memory
    of one) and decodes no other slice's records (the whole stream is still
    decompressed).  A type found too narrow by a later entry is widened
    then (a copy).
    """

    def __init__(self, path="-", slices=None, dtype=None):
        np = import_numpy()
        want = None
        if slices is not None:
            want = np.array(sorted({int(c) << 16 | int(m) for c, m in slices}), np.int64)
        self.fixed_dtype = dtype is not None
        self.dtype = np.dtype(dtype if dtype is not None else np.uint8)
        if self.dtype.kind != "u":
            raise ValueError("dtype %s: an unsigned integer type is needed" % self.dtype)
        self.span = None
        self.slices = []
        self.slice_index = {}
        with Stream(path) as s:
            lanes, entries = s.header.lanes, s.header.entries
            self._big = {name: Growing(np, (entries, lanes, 32), self.dtype)
                         for name in ("t0", "t1", "off")}
            self._views()
            self.cycles, self.first, self.last = (np.zeros((0, entries), np.uint64)
                                                  for _ in range(3))
            self.used = np.zeros((0, entries), bool)
            seen = np.zeros((0, entries), bool)
            for a, starts, numbers, others in s.record_blocks(duty_candidates(lanes, entries)):
                for code, p, number in others:
                    if code == 0x10:        # one the candidates refused: say why
                        try:
                            d = parse_duty(p, lanes, np)
                        except (Bad, struct.error) as e:
                            raise Bad("record %d: %s" % (number, e)) from None
                        raise Bad("record %d: duty record of entry %d of %d in a stream of %d"
                                  % (number, d.entry, d.entries, entries))
                if not len(starts):
                    continue
                seen = self._add(np, a, starts, numbers, lanes, entries, want, seen)
        self.first[~seen] = 0
        del self._big
        order = sorted(range(len(self.slices)), key=lambda i: self.slices[i])
        if order != list(range(len(self.slices))):      # not sorted by cu, simd: a copy
            for name in ("t0", "t1", "off", "cycles", "first", "last", "used"):
                setattr(self, name, getattr(self, name)[order])
            self.slices = [self.slices[i] for i in order]
        self.slice_index = {sl: i for i, sl in enumerate(self.slices)}

    def _add(self, np, a, starts, numbers, lanes, entries, want, seen):
        f = _rows(np, a[5:], DUTY_FIXED, starts).view(np.dtype(list(DUTY_FIELDS))).ravel()
        key = f["cu"].astype(np.int64) << 16 | f["simd"]
        if want is not None:
            keep = np.isin(key, want)
            if not keep.all():
                starts, numbers, f, key = starts[keep], numbers[keep], f[keep], key[keep]
                if not len(starts):
                    return seen
        self.span = SPANS[int(f["span"][-1])]
        # the slices of the block; new ones grow the arrays (Growing: no copy)
        uk, inv = np.unique(key, return_inverse=True)
        new = [k for k in uk.tolist() if (k >> 16, k & 0xffff) not in self.slice_index]
        if new:
            n = len(self.slices) + len(new)
            for arr in (self.cycles, self.first, self.last, self.used, seen):
                arr.resize((n, entries), refcheck=False)
            for k in new:
                self.slice_index[(k >> 16, k & 0xffff)] = len(self.slices)
                self.slices.append((k >> 16, k & 0xffff))
        si = np.array([self.slice_index[(k >> 16, k & 0xffff)] for k in uk.tolist()])[inv]
        e = f["entry"].astype(np.int64)
        lin = si * entries + e
        once = len(np.unique(lin)) == len(lin)
        cyc = self.cycles.reshape(-1)
        total = cyc[lin] + f["cycles"] if once else None
        if total is None:
            tmp = cyc.copy()
            np.add.at(tmp, lin, f["cycles"])
            total = tmp[lin]
        need = narrowest(np, int(total.max()))
        if need.itemsize > self.dtype.itemsize:
            if self.fixed_dtype:
                raise Bad("record %d: an entry of %d cycles (more than %s holds)"
                          % (numbers[np.argmax(total)], total.max(), self.dtype))
            self.dtype = need
            self.t0 = self.t1 = self.off = None
            for g in self._big.values():
                g.widen(need)           # a copy of what was read (none at the start)
            self._views()
        if new:
            self.t0 = self.t1 = self.off = None
            for g in self._big.values():
                g.grow(len(self.slices))
            self._views()
        first, last = self.first.reshape(-1), self.last.reshape(-1)
        sflat, uflat = seen.reshape(-1), self.used.reshape(-1)
        fresh = ~sflat[lin]
        flats = [getattr(self, name).reshape(-1, 32 * lanes) for name in ("t0", "t1", "off")]
        # slabs of records of about SLAB cells: the steps of duty_block pass
        # over data in the processor's cache (4x faster for the bit planes)
        step = max(1, SLAB // (32 * lanes))
        if once and fresh.all() and lin[-1] - lin[0] == len(lin) - 1 and \
                (np.diff(lin) == 1).all():      # the usual: new entries in order, in place
            for i in range(0, len(lin), step):
                j = min(i + step, len(lin))
                duty_block(np, a, starts[i:j], numbers[i:j], lanes, self.dtype,
                           tuple(x[lin[0] + i:lin[0] + j] for x in flats))
        elif once:
            for i in range(0, len(lin), step):
                _, t0, t1, off = duty_block(np, a, starts[i:i + step], numbers[i:i + step],
                                            lanes, self.dtype)
                for flat, v in zip(flats, (t0, t1, off)):
                    flat[lin[i:i + step]] += v
        else:
            _, t0, t1, off = duty_block(np, a, starts, numbers, lanes, self.dtype)
            for flat, v in zip(flats, (t0, t1, off)):
                np.add.at(flat, lin, v)
        del flats
        first[lin[fresh]] = np.iinfo(np.uint64).max
        np.minimum.at(first, lin, f["first"])
        np.maximum.at(last, lin, f["last"])
        np.add.at(cyc, lin, f["cycles"])
        sflat[lin] = True
        uflat[lin[f["flags"] & 1 == 0]] = True
        return seen

    def _views(self):
        self.t0, self.t1, self.off = (self._big[name].array for name in ("t0", "t1", "off"))

    def shares(self):
        """t0, t1, off as shares of each entry's cycles (float64, NaN where it has none)."""
        np = import_numpy()
        c = self.cycles.astype(float)[:, :, None, None]
        with np.errstate(invalid="ignore", divide="ignore"):
            return tuple(np.where(c > 0, a / c, np.nan) for a in (self.t0, self.t1, self.off))


def duty_arrays(path="-", slices=None, dtype=None):
    """The duty map of a stream as NumPy arrays (DutyArrays); slices=[(cu,
    simd)] reads one slice only, dtype= the type of t0, t1, off."""
    return DutyArrays(path, slices, dtype)


def counters(path="-"):
    """The counters records of a stream: {(stage, scope): {name: value}}, in order."""
    out = {}
    for c in records_of(path, "counters"):
        out.setdefault((c.stage, c.scope), {}).update(c.values)
    return out


def fault_maps(path="-"):
    """The fault maps of a stream: {(cu, simd): uint8 array [entry, block] of faulty
    bits}; (0xffff, 0xffff) is the map of every slice without its own."""
    return {(m.cu, m.simd): m.bits for m in records_of(path, "faultmap", arrays=True)}


PATCH_FIELDS = (("cycle", "<u8"), ("cu", "<u2"), ("simd", "<u2"), ("wf", "<u4"),
                ("vreg", "<u2"), ("entry", "<u2"), ("block", "<u2"), ("place", "u1"),
                ("reserved", "u1"), ("c0", "<u4"), ("code", "<u4"))


def patch_arrays(path="-"):
    """DC-Patch's placements (rft-dcpatch(1) patch records) as NumPy columns:
    cycle, cu, simd, wf, vreg, entry, block, place (1 entry, 2 block, 3 LDS),
    c0, code, one value per write."""
    np = import_numpy()
    rows = bytearray()
    for p in records_of(path, "patch"):
        rows += struct.pack("<QHHIHHHBBII", p.cycle, p.cu, p.simd, p.wf, p.vreg, p.entry,
                            p.block, {v: k for k, v in PLACES.items()}[p.place], 0, p.c0, p.code)
    table = np.frombuffer(bytes(rows), np.dtype(list(PATCH_FIELDS)))
    return {name: np.ascontiguousarray(table[name]) for name, _ in PATCH_FIELDS
            if name != "reserved"}


def _aligned(rows):
    """Rows of a table aligned for people: each cell (a run of text with single
    spaces at most) goes to the column whose header it overlaps most (numbers
    end where their header ends, text starts where it starts); empty cells None."""
    import re

    def chunks(line):
        return [(m.start(), m.end(), m.group()) for m in re.finditer(r"\S+(?: \S+)*", line)]
    head = chunks(rows[0])
    out = []
    for line in rows[1:]:
        row = [None] * len(head)
        for cs, ce, text in chunks(line):
            best = max(range(len(head)), key=lambda i: (
                min(ce, head[i][1]) - max(cs, head[i][0]),
                -abs((cs + ce) - (head[i][0] + head[i][1]))))
            row[best] = text if row[best] is None else row[best] + " " + text
        out.append(row)
    return [h[2] for h in head], out


_NOTE_LINE = re.compile(r"^[A-Za-z][\w%.'+-]*( [\w%.'+-]+)*: [^\t]*$")


def read_tables(path):
    """Every table of a file of rftrace tables (rft-collect, rft-vth, rft-heal,
    ...: TSV, CSV, JSON lines, or aligned for people, several one after the
    other as in rft-heal's summary) as pandas DataFrames, in order; the '#'
    lines (titles, notes) before and after a table go to its
    df.attrs["notes"].  Numbers become numbers, empty cells NaN.  Needs pandas
    (Debian: python3-pandas)."""
    import io
    import json
    if path == "-":
        lines = sys.stdin.read().splitlines()
    else:
        with open(path, encoding="utf-8") as f:
            lines = f.read().splitlines()
    # the study scripts' text output for people ("== title" lines above
    # their tables) is not a table file: refuse it rather than misread it
    for line in lines:
        if line.startswith("== "):
            raise Bad("%s: text output for people ('%s'): run the script with --format tsv"
                      % (path, line[:60]))
    try:
        import pandas
    except ImportError:
        raise Bad("pandas is not installed for %s (Debian: apt-get install python3-pandas; "
                  "else: %s -m pip install pandas)" % (sys.executable, sys.executable)) from None
    parts, notes, rows = [], [], []     # a table: the notes before it and its rows
    for line in lines + [""]:
        if line.startswith("#") or not line.strip():
            if rows:
                parts.append((notes, rows))
                notes, rows = [], []
            if line.startswith("#"):
                notes.append(line)
        else:
            rows.append(line)
    if not parts:
        raise Bad("no table (only notes or nothing)")
    parts[-1][0].extend(notes)          # notes after the last table are its own
    # a table's notes for people: lines "what: ..." after it and a blank line
    # (rftrace's tables, rft(1) "NOTES ON EVERY TABLE") go with it
    kept = []
    for notes, rows in parts:
        if kept and all(_NOTE_LINE.match(r) for r in rows):
            kept[-1][0].extend(notes + ["# " + r for r in rows])
        else:
            kept.append((notes, rows))
    parts = kept
    tables = []
    for notes, rows in parts:
        if rows[0].lstrip().startswith("{"):
            objs = [json.loads(l) for l in rows]
            if list(objs[0]) == ["notes"]:      # rft-collect's header object
                notes = notes + ["# " + n for n in objs.pop(0)["notes"]]
            df = pandas.DataFrame(objs)
        elif "\t" in rows[0] or str(path).endswith(".csv") or \
                ("," in rows[0] and "  " not in rows[0]):
            df = pandas.read_csv(io.StringIO("\n".join(rows)), sep="\t" if "\t" in rows[0] else ",",
                                 keep_default_na=False, na_values=[""], dtype=str)
        else:
            cols, data = _aligned(rows)
            df = pandas.DataFrame(data, columns=cols)
        for col in df.columns:
            try:
                df[col] = pandas.to_numeric(df[col])
            except (ValueError, TypeError):
                pass
        df.attrs["notes"] = notes
        tables.append(df)
    return tables


def read_table(path, which=0):
    """One table of a file (read_tables), the first by default."""
    return read_tables(path)[which]


class Results:
    """The summary of the results records main() prints after the counts:
    per slice of a duty map, the mean share of '0', '1' and off over the
    cells of its used entries and the longest '0' and '1' of one cell (as
    rft-vth(1) --per-slice); every counter; per fault map its reliable
    entries and faulty blocks; DC-Patch's placements per place."""

    def __init__(self, lanes):
        self.lanes = lanes
        self.duty = {}          # (cu, simd) -> [used entries, sum of shares 0/1/off, max 0, max 1]
        self.counters = []
        self.maps = []
        self.places = {}
        self.np = None

    def add(self, code, p):
        kind = KINDS.get(code)
        if code == 0x10:
            if self.np is None:
                try:
                    self.np = import_numpy()
                except Bad:
                    self.np = False
            if self.np is False:
                return          # write() says why there is no summary
            d = parse_duty(p, self.lanes, self.np)
            if d.flags & 1 or d.cycles == 0:
                return
            a = self.duty.setdefault((d.cu, d.simd), [0, 0.0, 0.0, 0.0, 0.0, 0.0])
            c = float(d.cycles)
            a[0] += 1
            a[1] += float(d.t0.sum()) / c / d.t0.size
            a[2] += float(d.t1.sum()) / c / d.t1.size
            a[3] += float(d.off.sum()) / c / d.off.size
            a[4] = max(a[4], float(d.t0.max()) / c)
            a[5] = max(a[5], float(d.t1.max()) / c)
        elif code in (0x11, 0x12, 0x14):
            rec = kind.parse(p, self.lanes, None)
            if code == 0x11:
                self.counters.append(rec)
            elif code == 0x12:
                bad = [sum(rec.bits[e * rec.blocks:(e + 1) * rec.blocks]) > rec.ecp
                       for e in range(rec.entries)]
                blocks = sum(1 for e in range(rec.entries) if bad[e]
                             for b in range(rec.blocks) if rec.bits[e * rec.blocks + b])
                self.maps.append((rec, rec.entries - sum(bad), blocks))
            else:
                self.places[rec.place] = self.places.get(rec.place, 0) + 1

    def write(self, out):
        if self.np is False:
            try:
                import_numpy()
            except Bad as e:
                sys.stderr.write("rft_reader.py: no summary of the duty map: %s\n" % e)
        def sl(cu, simd):
            return "all" if cu == simd == 0xffff else "%d:%d" % (cu, simd)
        if self.duty:
            out.write("slice\tentries_used\tavg_0%\tavg_1%\tavg_off%\tlongest_0%\tlongest_1%\n")
            for (cu, simd), a in sorted(self.duty.items()):
                out.write("%s\t%d\t%.2f\t%.2f\t%.2f\t%.2f\t%.2f\n" % (
                    sl(cu, simd), a[0], 100 * a[1] / a[0], 100 * a[2] / a[0],
                    100 * a[3] / a[0], 100 * a[4], 100 * a[5]))
        if self.counters:
            out.write("stage\tscope\tcounter\tvalue\n")
            for c in self.counters:
                for name, v in c.values.items():
                    out.write("%s\t%s\t%s\t%d\n" % (c.stage, c.scope, name, v))
        if self.maps:
            out.write("faultmap\torigin\tentries\treliable_entries\tfaulty_blocks\n")
            for m, ok, blocks in self.maps:
                out.write("%s\t%s\t%d\t%d\t%d\n" % (sl(m.cu, m.simd), m.origin, m.entries,
                                                    ok, blocks))
        if self.places:
            out.write("patch_place\twrites\n")
            for place in ("entry", "block", "lds"):
                out.write("%s\t%d\n" % (place, self.places.get(place, 0)))


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
                results = Results(s.header.lanes)
                for code, p in s.raw_records():
                    if code in RESULT_KINDS:
                        try:
                            results.add(code, p)
                        except (Bad, struct.error) as e:
                            raise Bad("record %d: %s" % (s.count, e)) from None
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
    if not text:
        results.write(out)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
