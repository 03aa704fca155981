/* rft.h - public API of librft, the rftrace record-stream library.
 *
 * A stream is a sequence of standard zstd frames whose content is a header,
 * typed length-prefixed records and an end record carrying the record count.
 * The byte layout is specified in rft(5); this header is the C view of it.
 *
 * Conventions: the library never prints and never exits.  Functions return 0
 * (or a positive value where documented) on success and a negative RFT_E*
 * code on failure; rft_reader_error()/rft_writer_error() then give a one-line
 * message that already names the place ("record 12: ...").
 *
 * Pointers: no argument may be NULL unless its comment says so; a function
 * that returns a pointer says when it returns NULL.  Error buffers (err,
 * errlen) may be NULL with errlen 0.
 *
 * Sizes: rft_rec and rft_write (a record, ~4.4 KB), rft_header (~4 KB),
 * rft_textdec (~9 KB) and rft_counters (~18 KB) are large: allocate them
 * (malloc, new) or make them static, never put them on a small stack (a
 * simulator's thread or fiber).
 *
 * Build: pkg-config --cflags --libs rft (shared library librft.so.1), or
 * pkg-config --static --cflags --libs rft with librft.a.  C++ includes this
 * header as it is.
 */
#ifndef RFT_H
#define RFT_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#ifdef __cplusplus
extern "C" {
#endif

#define RFT_VERSION "0.1.0"

/* ---- format constants (rft(5)) ------------------------------------------ */
#define RFT_MAGIC "RFTS"          /* 4 bytes at offset 0 of the content */
#define RFT_FORMAT_MAJOR 1        /* readers refuse another major */
#define RFT_FORMAT_MINOR 0        /* readers accept any minor */
#define RFT_BOM 0x0102u           /* stored LE: bytes 02 01 */

#define RFT_MAX_LANES 1024        /* geometry caps: anything above is absurd */
#define RFT_MAX_ENTRIES 65535
#define RFT_MAX_RECORD (16u << 20) /* no record payload may exceed 16 MiB */
#define RFT_MAX_META 256          /* metadata pairs in a header */
#define RFT_MAX_STR 4095          /* longest string (name, key, value) */

/* Record kinds.  Kinds a program does not know are passed through. */
enum rft_kind {
    RFT_END = 0x00,     /* u64 number of records before it */
    RFT_KERNEL = 0x01,  /* kernel begins */
    RFT_WFBEGIN = 0x02, /* wavefront begins on a slice */
    RFT_WFEND = 0x03,   /* wavefront ends */
    RFT_WRITE = 0x04,   /* vector register write: all lanes after the write */
    RFT_READ = 0x05,    /* vector register read */
    RFT_BUNDLE = 0x06,  /* executed VLIW ALU group (Evergreen): slots X Y Z W T */
    RFT_UNITREC = 0x07, /* the unit of a vector instruction that wrote no register (a store):
                           read from raw (rft_unit_parse); a reader that does not know it
                           skips it (a minor addition of format 1.0) */
    /* kinds added by analysis stages (layouts in rft(5)) */
    RFT_DUTY = 0x10,     /* rft-duty: duty map of one entry of a slice */
    RFT_COUNTERS = 0x11, /* any stage: named event counters (rft_counters) */
    RFT_FAULTMAP = 0x12, /* rft-faultmap: faulty blocks of a slice */
    RFT_ALLOC = 0x13,    /* rft-alloc: a window placed in or freed from a slice */
    RFT_PATCH = 0x14,
    RFT_WHOLE = 0x15,    /* rft-split: what the whole stream held (rft_whole), before the end
                            record of a split's shard; its reader keeps it, no stage sees it */    /* rft-dcpatch: where the write that follows goes */
};

/* Write classification (rft-classify), stored in rft_write.cls. */
enum rft_class {
    RFT_CLS_NONE = 0,   /* not classified */
    RFT_CLS_CONST = 1,  /* De = Db = 0 */
    RFT_CLS_SINGLE = 2, /* Db = BS * De, De != 0 */
    RFT_CLS_DOUBLE = 3, /* any other fitting De, Db */
    RFT_CLS_OTHER = 4,  /* not compressible */
};

/* Warped-Compression (BDI) class, stored in rft_write.wc. */
enum rft_wc {
    RFT_WC_NONE = 0,   /* not classified */
    RFT_WC_BASE = 1,   /* all deltas zero: only the base is kept */
    RFT_WC_DELTA1 = 2, /* deltas fit one signed byte */
    RFT_WC_DELTA2 = 3, /* deltas fit two signed bytes */
    RFT_WC_UNCOMP = 4, /* uncompressed */
};

/* rft_write.flags */
#define RFT_WF_FIRSTBLOCK 0x01 /* the first block alone fits the pattern */
#define RFT_WF_DIVERGENT 0x02  /* exec mask is not the wavefront's full mask */
#define RFT_WF_MOV 0x04        /* divergent write to a compressed register */
#define RFT_WF_WAKEUP 0x08     /* the write woke a switched-off entry */
/* the unit that produced the result (set by decoders that know it; neither: vector ALU) */
#define RFT_WF_VMEM 0x10       /* vector memory load, at its data's return */
#define RFT_WF_LDS 0x20        /* LDS (local data share) load */
#define RFT_WF_UNIT (RFT_WF_VMEM | RFT_WF_LDS)
/* a unit record's other values (never a write's flags): the wavefront waited,
 * before its instruction of this cycle, at an s_waitcnt for its memory
 * accesses, at an s_barrier for the other wavefronts of its work-group */
#define RFT_WF_WAIT 0x40
#define RFT_WF_BARRIER 0x80
#define RFT_WF_MARK (RFT_WF_WAIT | RFT_WF_BARRIER)
/* a unit record's fifth value, a mark too (so a reader of the four takes it
 * for one): a vector memory access of the wavefront, its oldest not yet
 * completed, completed at this cycle (entered its write stage) */
#define RFT_WF_DONE (RFT_WF_VMEM | RFT_WF_WAIT)
/* a sixth, a mark as well: the wavefront's next LDS access arrived at its
 * LDS unit at this cycle (its own record comes at its completion) */
#define RFT_WF_ARRIVE (RFT_WF_LDS | RFT_WF_WAIT)
/* four more marks, of the scalar unit (each with the barrier bit; sdone has
 * the wait bit too, so only a reader that checks the value, as every one
 * here does, tells them from the first four): a scalar memory load of the
 * wavefront issued at this cycle (sload), its oldest not yet written was
 * written at this one (sdone); one of its other scalar instructions began
 * waiting at this cycle to be written, behind older scalar loads of its
 * compute unit (shold), and was written at this one (srel): its wavefront
 * could go on no sooner */
#define RFT_WF_SLOAD (RFT_WF_LDS | RFT_WF_BARRIER)
#define RFT_WF_SDONE (RFT_WF_VMEM | RFT_WF_WAIT | RFT_WF_BARRIER)
#define RFT_WF_SHOLD (RFT_WF_VMEM | RFT_WF_LDS | RFT_WF_BARRIER)
#define RFT_WF_SREL (RFT_WF_VMEM | RFT_WF_BARRIER)
static inline int rft_unit_scalar(uint8_t flags)    /* one of the four */
{
    return flags == RFT_WF_SLOAD || flags == RFT_WF_SDONE || flags == RFT_WF_SHOLD ||
           flags == RFT_WF_SREL;
}

/* The unit record (kind 0x07, rft(5)): cycle u64, cu u16, simd u16, wf u32,
 * flags u8 (RFT_WF_VMEM or RFT_WF_LDS, or a mark: RFT_WF_WAIT, RFT_WF_BARRIER,
 * RFT_WF_DONE, RFT_WF_ARRIVE), little-endian, 17 bytes. */
#define RFT_UNITREC_LEN 17u
typedef struct rft_unitrec {
    uint64_t cycle;
    uint16_t cu, simd;
    uint32_t wf;
    uint8_t flags;
} rft_unitrec;
static inline void rft_unit_encode(uint8_t *b, const rft_unitrec *u)
{
    for (int i = 0; i < 8; i++)
        b[i] = (uint8_t)(u->cycle >> (8 * i));
    b[8] = (uint8_t)u->cu, b[9] = (uint8_t)(u->cu >> 8);
    b[10] = (uint8_t)u->simd, b[11] = (uint8_t)(u->simd >> 8);
    for (int i = 0; i < 4; i++)
        b[12 + i] = (uint8_t)(u->wf >> (8 * i));
    b[16] = u->flags;
}
/* its text name: vmem, lds, wait, barrier, done, arrive, sload, sdone, shold or srel */
static inline const char *rft_unit_name(uint8_t flags)
{
    return flags == RFT_WF_VMEM   ? "vmem"
           : flags == RFT_WF_LDS  ? "lds"
           : flags == RFT_WF_WAIT ? "wait"
           : flags == RFT_WF_DONE ? "done"
           : flags == RFT_WF_ARRIVE ? "arrive"
           : flags == RFT_WF_SLOAD ? "sload"
           : flags == RFT_WF_SDONE ? "sdone"
           : flags == RFT_WF_SHOLD ? "shold"
           : flags == RFT_WF_SREL ? "srel"
                                  : "barrier";
}
/* a unit record's values: one of these (two bits would print as one) */
#define RFT_UNIT_VALUES \
    RFT_WF_VMEM, RFT_WF_LDS, RFT_WF_WAIT, RFT_WF_BARRIER, RFT_WF_DONE, RFT_WF_ARRIVE, \
        RFT_WF_SLOAD, RFT_WF_SDONE, RFT_WF_SHOLD, RFT_WF_SREL
static inline int rft_unit_known(uint8_t flags)
{
    static const uint8_t v[] = {RFT_UNIT_VALUES};
    for (size_t i = 0; i < sizeof v; i++)
        if (flags == v[i])
            return 1;
    return 0;
}
/* 0, or -1 when the payload is not a unit record's (its length, its value) */
static inline int rft_unit_parse(const uint8_t *b, uint32_t len, rft_unitrec *u)
{
    if (len != RFT_UNITREC_LEN || !rft_unit_known(b[16]))
        return -1;
    u->cycle = 0;
    for (int i = 7; i >= 0; i--)
        u->cycle = u->cycle << 8 | b[i];
    u->cu = (uint16_t)(b[8] | b[9] << 8);
    u->simd = (uint16_t)(b[10] | b[11] << 8);
    u->wf = (uint32_t)b[12] | (uint32_t)b[13] << 8 | (uint32_t)b[14] << 16 | (uint32_t)b[15] << 24;
    u->flags = b[16];
    return 0;
}

/* rft_wfbegin.flags and rft_kernel.flags (how the text named things) */
#define RFT_KF_IMPLICIT 0x01   /* kernel record derived from a B line */
#define RFT_BF_KERNEL 0x01     /* the B line named its kernel */
#define RFT_BF_WG 0x02         /* the B line gave its work-group */

/* rft_bundle.slots: which VLIW slots (PEs) of the group hold an instruction */
#define RFT_SLOT_X 0x01
#define RFT_SLOT_Y 0x02
#define RFT_SLOT_Z 0x04
#define RFT_SLOT_W 0x08
#define RFT_SLOT_T 0x10
#define RFT_SLOTS_XYZW 0x0f    /* the four vector slots */
#define RFT_NSLOTS 5
/* rft_bundle.flags */
#define RFT_UF_TRANS 0x01      /* the T instruction is transcendental-only (stays on T) */
#define RFT_UF_VECTOR 0x02     /* the X..W instructions are one vector op (e.g. DOT4):
                                  they stay on X..W, never move to T */

#define RFT_NO_PHYS 0xFFFFu        /* no physical entry assigned yet */
#define RFT_NO_GATE 0xFFFFFFFFu    /* no power-state annotation */
#define RFT_NO_KERNEL 0xFFFFFFFFu
#define RFT_NO_WG 0xFFFFFFFFu

/* ---- error codes ---------------------------------------------------------- */
enum rft_err {
    RFT_EOF = -1,       /* clean end: the end record was read */
    RFT_EIO = -2,       /* read/write failure of the underlying file */
    RFT_EZSTD = -3,     /* corrupt zstd frame */
    RFT_ETRUNC = -4,    /* stream ends inside a record or before the end record */
    RFT_EFORMAT = -5,   /* invalid content: magic, version, lengths, geometry */
    RFT_EMEM = -6,      /* out of memory */
    RFT_EPIPE = -7,     /* the reader of our output went away */
};

/* ---- geometry and header ---------------------------------------------------- */
typedef struct rft_geom {
    uint32_t lanes;       /* lanes (components) per register, default 64 */
    uint32_t entries;     /* entries (physical registers) per slice, 256 */
    uint32_t block_lanes; /* lanes per block (subwavefront), 16 */
    uint32_t lane_bits;   /* bits per lane, 32 (the only value supported) */
} rft_geom;

void rft_geom_default(rft_geom *g);
/* 0 if g is usable, else a negative code and a message in *why */
int rft_geom_check(const rft_geom *g, const char **why);
static inline uint32_t rft_mask_bytes(const rft_geom *g) { return (g->lanes + 7) / 8; }

/* A register file by name (rft(5), "GEOMETRY BY NAME"): gcn, evergreen,
 * volta, ampere, hopper, blackwell; its geometry and slices (cus x simds: CUs or SMs,
 * SIMDs or sub-partitions).  NULL for another name. */
typedef struct rft_geom_name {
    const char *name;
    rft_geom geom;
    uint32_t cus, simds;
} rft_geom_name;
#define RFT_GEOM_NAMES "gcn|evergreen|volta|ampere|hopper|blackwell"
/* the most SMs or CUs of a GPU named (blackwell: 148) */
#define RFT_GEOM_MAX_CUS 148
const rft_geom_name *rft_geom_named(const char *name);

typedef struct rft_meta {
    char *key;
    char *val;
} rft_meta;

typedef struct rft_header {
    uint16_t major, minor;
    rft_geom geom;
    char *producer;     /* program that wrote this stream (allocated: whole, */
    char *version;      /* its version                 up to RFT_MAX_STR) */
    int nmeta;
    rft_meta meta[RFT_MAX_META];
} rft_header;

/* producer and this library's version are copied (rft_writer_open reports
 * "out of memory" if that failed); rft_header_free frees them. */
void rft_header_init(rft_header *h, const char *producer);
/* Copy src's geometry and metadata into dst, keeping dst's producer. */
int rft_header_copy(rft_header *dst, const rft_header *src);
/* Set (replace or append) a metadata pair; returns RFT_EFORMAT if full or too long. */
int rft_header_set(rft_header *h, const char *key, const char *val);
const char *rft_header_get(const rft_header *h, const char *key);   /* NULL if absent */
void rft_header_unset(rft_header *h, const char *key);              /* if present */
/* Header keys of a stream written by a stage that read shard K of N of its
 * input (rft(1) SHARDS): "K/N", "slice" or "cu", and the stages that ran
 * on the shard, comma-separated in pipeline order.  rft-merge reads them. */
#define RFT_META_SHARD "shard"
#define RFT_META_SHARD_BY "shard_by"
#define RFT_META_SHARD_STAGES "shard_stages"
void rft_header_free(rft_header *h);

/* ---- records -------------------------------------------------------------- */
typedef struct rft_kernel {
    uint64_t cycle;
    uint32_t index;     /* 0, 1, ... in order of appearance */
    uint8_t flags;      /* RFT_KF_* */
    const char *name;   /* not NUL-terminated in the buffer: use name_len;
                           NULL only with name_len 0 */
    uint16_t name_len;
} rft_kernel;

typedef struct rft_wfbegin {
    uint64_t cycle;
    uint16_t cu, simd;
    uint32_t wf;
    uint16_t nregs;     /* window size N */
    uint8_t flags;      /* RFT_BF_* */
    uint32_t wg;        /* work-group id or RFT_NO_WG */
    uint32_t kernel;    /* kernel index or RFT_NO_KERNEL */
} rft_wfbegin;

typedef struct rft_wfend {
    uint64_t cycle;
    uint16_t cu, simd;
    uint32_t wf;
} rft_wfend;

typedef struct rft_write {
    uint64_t cycle;
    uint16_t cu, simd;
    uint32_t wf;
    uint16_t vreg;
    uint16_t phys;      /* physical entry, RFT_NO_PHYS until rft-alloc */
    uint8_t cls;        /* enum rft_class */
    uint8_t bs;         /* block size of the classification, 0 if none */
    uint8_t wc;         /* enum rft_wc */
    uint8_t flags;      /* RFT_WF_* */
    uint32_t c0, de, db;
    uint32_t on_bits;   /* bits of the entry left powered, RFT_NO_GATE if ungated */
    uint8_t mask[RFT_MAX_LANES / 8];  /* exec mask, bit i of byte i/8 = lane i */
    uint32_t val[RFT_MAX_LANES];      /* lane values after the write */
} rft_write;

typedef struct rft_read {
    uint64_t cycle;
    uint16_t cu, simd;
    uint32_t wf;
    uint16_t vreg;
    uint16_t phys;
} rft_regread;

/* One executed VLIW ALU group of a wavefront (seed 003 §4.1): every active
 * work-item (exec mask) runs the group's instructions on its stream core,
 * one instruction per occupied slot (PE). */
typedef struct rft_bundle {
    uint64_t cycle;
    uint16_t cu, simd;
    uint32_t wf;
    uint8_t slots;      /* RFT_SLOT_* bits */
    uint8_t flags;      /* RFT_UF_* */
    uint8_t mask[RFT_MAX_LANES / 8];  /* exec mask, bit i of byte i/8 = lane i */
} rft_bundle;

/* A decoded record.  For known kinds the matching member is filled; for
 * every kind raw/len hold the payload bytes (valid until the next read).
 * Large (w holds RFT_MAX_LANES values): allocate it, one per reader. */
typedef struct rft_rec {
    int kind;
    const uint8_t *raw;
    uint32_t len;
    union {
        rft_kernel kernel;
        rft_wfbegin begin;
        rft_wfend end;
        rft_regread read;
        rft_bundle bundle;
    } u;
    rft_write w;        /* outside the union: large, reused */
} rft_rec;

static inline uint64_t rft_rec_cycle(const rft_rec *r)
{
    switch (r->kind) {
    case RFT_KERNEL: return r->u.kernel.cycle;
    case RFT_WFBEGIN: return r->u.begin.cycle;
    case RFT_WFEND: return r->u.end.cycle;
    case RFT_WRITE: return r->w.cycle;
    case RFT_READ: return r->u.read.cycle;
    case RFT_BUNDLE: return r->u.bundle.cycle;
    case RFT_UNITREC: {     /* raw only; a malformed one: 0, as other kinds */
        rft_unitrec u;
        return r->raw && rft_unit_parse(r->raw, r->len, &u) == 0 ? u.cycle : 0;
    }
    default: return 0;
    }
}

/* A record of the trace itself (kernel, begin, end-wf, write, read, bundle,
 * unit): 1; 0 for the records that analysis stages add. */
static inline int rft_trace_kind(int kind) { return kind >= RFT_KERNEL && kind <= RFT_UNITREC; }

/* The slice and wavefront of a wavefront record (begin, end-wf, write, read,
 * bundle, a well-formed unit record): 1 and the fields set; 0 for every
 * other kind. */
static inline int rft_rec_wf(const rft_rec *r, uint16_t *cu, uint16_t *simd, uint32_t *wf)
{
    switch (r->kind) {
    case RFT_WFBEGIN: *cu = r->u.begin.cu; *simd = r->u.begin.simd; *wf = r->u.begin.wf; return 1;
    case RFT_WFEND: *cu = r->u.end.cu; *simd = r->u.end.simd; *wf = r->u.end.wf; return 1;
    case RFT_WRITE: *cu = r->w.cu; *simd = r->w.simd; *wf = r->w.wf; return 1;
    case RFT_READ: *cu = r->u.read.cu; *simd = r->u.read.simd; *wf = r->u.read.wf; return 1;
    case RFT_BUNDLE: *cu = r->u.bundle.cu; *simd = r->u.bundle.simd; *wf = r->u.bundle.wf; return 1;
    case RFT_UNITREC: {
        rft_unitrec u;
        if (!r->raw || rft_unit_parse(r->raw, r->len, &u))
            return 0;
        *cu = u.cu, *simd = u.simd, *wf = u.wf;
        return 1;
    }
    default: return 0;
    }
}

/* Fixed payload sizes of the known kinds. */
#define RFT_WRITE_FIXED 40u     /* bytes before the exec mask */
#define RFT_READ_LEN 20u
#define RFT_WFEND_LEN 16u
#define RFT_WFBEGIN_LEN 27u
#define RFT_KERNEL_FIXED 15u    /* bytes before the name */
#define RFT_BUNDLE_FIXED 18u    /* bytes before the exec mask */
static inline uint32_t rft_bundle_len(const struct rft_geom *g)
{
    return RFT_BUNDLE_FIXED + (g->lanes + 7) / 8;
}
static inline uint32_t rft_write_len(const rft_geom *g)
{
    return RFT_WRITE_FIXED + rft_mask_bytes(g) + 4u * g->lanes;
}

static inline int rft_mask_lane(const uint8_t *mask, unsigned i)
{
    return (mask[i >> 3] >> (i & 7)) & 1;
}

static inline int rft_lane_active(const rft_write *w, unsigned i)
{
    return (w->mask[i >> 3] >> (i & 7)) & 1;
}

/* ---- reading -------------------------------------------------------------- */
typedef struct rft_reader rft_reader;

/* Open path ("-" = stdin) and read its header.  On failure returns NULL and,
 * if err is given, a message in err (size errlen).  The header stays valid
 * until rft_reader_close, which accepts NULL. */
rft_reader *rft_reader_open(const char *path, char *err, size_t errlen);
/* The same, with flags (0 or any of): RFT_IN_AHEAD, decompress in a second
 * thread, for consumers whose own work per record is heavy (rft-duty);
 * RFT_READ_ORDER, check rule 8 of rft(5) as well (records of kinds 0x01 to
 * 0x07 in cycle order, a wavefront's records between its begin and its end:
 * a map of the wavefronts running), an error naming the record otherwise. */
#define RFT_READ_ORDER 0x200
rft_reader *rft_reader_open_flags(const char *path, int flags, char *err, size_t errlen);
/* The same over a stream held in memory: the n bytes at data (rft_in_open_mem). */
rft_reader *rft_reader_open_mem(const void *data, size_t n, int flags, char *err, size_t errlen);
const rft_header *rft_reader_header(const rft_reader *r);
/* Keep shard k of n (k < n) of the stream: records tied to a slice
 * (begin, end-wf, write, read, bundle, duty map, fault map of one slice,
 * allocation, patch) only where the slice's index CU x SIMDS + SIMD is k
 * modulo n, SIMDS being the header's key simds or else RFT_SHARD_SIMDS;
 * every other record (kernels, counters, a fault map of every slice,
 * unknown kinds) is kept.  The others are skipped as they are, never
 * decoded (their length and cycle order are checked); the record count
 * and the place in messages stay the whole stream's.  Call before the
 * first rft_read.  0, or RFT_EFORMAT (k >= n) or RFT_EMEM. */
#define RFT_SHARD_SIMDS 4
int rft_reader_shard(rft_reader *r, uint32_t k, uint32_t n);
/* The same with the slices' index chosen by by: RFT_SHARD_BY_SLICE (as
 * rft_reader_shard), or RFT_SHARD_BY_CU, the index being the CU alone, so
 * that a compute unit's SIMDs are in one shard (for the stages whose state
 * is per compute unit: DC-Patch's LDS, SC healing's work-groups). */
enum { RFT_SHARD_BY_SLICE = 0, RFT_SHARD_BY_CU = 1 };
int rft_reader_shard_by(rft_reader *r, uint32_t k, uint32_t n, int by);
/* What a shard's reader saw of the whole stream, skipped records included,
 * for the stages whose result depends on it (the span of rft-duty's runs,
 * the energy scan): the cycles of the first and last record of each trace
 * kind (1 to 6, where seen) and the compute units named by begin, end-wf,
 * write and read records.  NULL when the reader keeps every record. */
typedef struct rft_whole {
    uint64_t first[RFT_BUNDLE + 1], last[RFT_BUNDLE + 1];
    uint8_t seen[RFT_BUNDLE + 1];
    uint32_t cus;
} rft_whole;
const rft_whole *rft_reader_whole(const rft_reader *r);
/* A shard cut from the whole stream by rft-split (rft-split(1)): its header
 * has the keys split ("K/N") and split_by (slice or cu), which its reader
 * takes off the header it gives, and a whole record before its end record.
 * Its reader must be given the same shard (rft_reader_shard_by, else an
 * error at the first rft_read); it then reads as that shard of the whole
 * stream, rft_reader_whole giving the whole stream's, from the whole record
 * once read (every record of a split's shard is kept). */
#define RFT_META_SPLIT "split"
#define RFT_META_SPLIT_BY "split_by"
#define RFT_WHOLE_LEN (RFT_BUNDLE * 17u + 4u)
/* The payload of a whole record (RFT_WHOLE_LEN bytes), and back: 0, or
 * RFT_EFORMAT when malformed. */
/* The slice of a record of a kind tied to one (wavefront records, duty
 * maps, fault maps of one slice, allocation and patch records): 1 and
 * (cu, simd); 0 for the others, which every shard keeps. */
int rft_rec_slice(int kind, const uint8_t *p, uint32_t len, uint16_t *cu, uint16_t *simd);
void rft_whole_encode(const rft_whole *w, uint8_t *p);
int rft_whole_parse(const uint8_t *p, uint32_t len, rft_whole *w);
/* The first and last cycles of w's records of kinds lo to hi: 1, or 0
 * when it saw none. */
static inline int rft_whole_span(const rft_whole *w, int lo, int hi, uint64_t *first, uint64_t *last)
{
    int any = 0;
    for (int k = lo; k <= hi; k++) {
        if (!w->seen[k])
            continue;
        if (!any || w->first[k] < *first)
            *first = w->first[k];
        if (!any || w->last[k] > *last)
            *last = w->last[k];
        any = 1;
    }
    return any;
}
/* 0 and a record in *rec; RFT_EOF at the end record; else an error. */
int rft_read(rft_reader *r, rft_rec *rec);
uint64_t rft_reader_count(const rft_reader *r); /* records read so far */
uint64_t rft_reader_bytes(const rft_reader *r); /* compressed bytes consumed */
const char *rft_reader_error(const rft_reader *r);
void rft_reader_close(rft_reader *r);

/* ---- writing -------------------------------------------------------------- */
typedef struct rft_writer rft_writer;

typedef struct rft_writer_opts {
    int level;          /* zstd level, default RFT_DEFAULT_LEVEL */
    int flush_each;     /* flush the zstd frame after every record batch (live pipes) */
} rft_writer_opts;
#define RFT_DEFAULT_LEVEL 1

/* Open path ("-" = stdout; a file is written under a temporary name and
 * renamed by rft_writer_close on success) and write the header.  o may be
 * NULL (defaults: RFT_DEFAULT_LEVEL, no flush); h is copied and may be freed
 * once this returns.  NULL on failure, with a message in err. */
rft_writer *rft_writer_open(const char *path, const rft_header *h,
                            const rft_writer_opts *o, char *err, size_t errlen);
int rft_write_rec(rft_writer *w, const rft_rec *rec);  /* known kinds re-encoded, others raw */
int rft_write_raw(rft_writer *w, int kind, const void *payload, uint32_t len);
int rft_write_kernel(rft_writer *w, const rft_kernel *k);
int rft_write_begin(rft_writer *w, const rft_wfbegin *b);
int rft_write_end(rft_writer *w, const rft_wfend *e);
int rft_write_write(rft_writer *w, const rft_write *x);
int rft_write_regread(rft_writer *w, const rft_regread *x);
int rft_write_bundle(rft_writer *w, const rft_bundle *x);
/* Flush buffered data through zstd to the file (for live pipelines). */
int rft_writer_flush(rft_writer *w);
/* complete=1: write the end record, end the frame, close (rename an -o file).
 * complete=0: the run failed: end the frame WITHOUT an end record so that no
 * later stage takes the stream as complete; a temporary file is removed.
 * Frees w (NULL is accepted: returns 0).  Returns 0 or the first error met
 * while writing or closing, with its message in err (if given). */
int rft_writer_close(rft_writer *w, int complete, char *err, size_t errlen);
/* The mkstemp template of the temporary name a file PATH is written under
 * before its rename: PATH.tmpXXXXXX in PATH's folder, PATH's name shortened
 * so that the name stays within NAME_MAX (allocated; NULL: out of memory). */
char *rft_tmp_template(const char *path);
/* The temporary name an -o file is being written under (rft_tmp_template's),
 * or NULL when the writer writes standard output or a device directly: a
 * program that dies by a signal removes it (rft_writer_close does otherwise).
 * Valid until rft_writer_close. */
const char *rft_writer_tmp(const rft_writer *w);
uint64_t rft_writer_count(const rft_writer *w);
const char *rft_writer_error(const rft_writer *w);

/* ---- byte streams (any file, plain or zstd) -------------------------------- */
typedef struct rft_in rft_in;
enum { RFT_IN_AUTO = 0, RFT_IN_ZSTD = 1, RFT_IN_AHEAD = 0x100 };
/* Open path ("-" = stdin).  RFT_IN_AUTO decompresses when the content starts
 * with a zstd frame magic and passes plain bytes through otherwise (gzip,
 * xz and bzip2 content is refused, the message naming what decompresses
 * it); RFT_IN_ZSTD refuses anything else.  Or'ed with RFT_IN_AHEAD, a second
 * thread reads and decompresses ahead of the caller (same bytes, same
 * errors); rft_in_close() stops it. */
rft_in *rft_in_open(const char *path, int mode, char *err, size_t errlen);
/* The same over the n bytes at data, which stay valid and unchanged until
 * rft_in_close (a stream or a trace a program holds in memory). */
rft_in *rft_in_open_mem(const void *data, size_t n, int mode, char *err, size_t errlen);
/* >0 bytes read, 0 at a clean end, <0 an error (a truncated zstd frame is
 * RFT_ETRUNC, a corrupt one RFT_EZSTD); message in rft_in_error(). */
long rft_in_read(rft_in *in, void *buf, size_t n);
int rft_in_is_zstd(const rft_in *in);
uint64_t rft_in_bytes(const rft_in *in);   /* bytes consumed from the file */
const char *rft_in_error(const rft_in *in);
void rft_in_close(rft_in *in);             /* accepts NULL */

/* ---- a small hash map (u64 -> u64) for per-wavefront and per-slice state --- */
typedef struct rft_map {
    struct rft_map_slot {
        uint64_t key, val;   /* key UINT64_MAX marks an empty slot; the key
                                UINT64_MAX itself lives in slot[mask + 1] (its
                                key 1 there when present, 0 when not) */
    } *slot;                 /* a key and its value share a cache line */
    size_t mask, count;
} rft_map;
int rft_map_init(rft_map *m, size_t expected);
/* Inline (stages look a key up for every record), and also in the
 * library (wfmap.c), as they were before: programs built against an
 * older rft.h still link. */
inline size_t rft_map_home(uint64_t k, size_t mask)
{
    k ^= k >> 33;
    k *= 0xff51afd7ed558ccdULL;
    k ^= k >> 33;
    return (size_t)k & mask;
}
/* NULL if absent. */
inline uint64_t *rft_map_get(const rft_map *m, uint64_t key)
{
    if (key == UINT64_MAX)
        return m->slot[m->mask + 1].key ? &m->slot[m->mask + 1].val : NULL;
    for (size_t i = rft_map_home(key, m->mask);; i = (i + 1) & m->mask) {
        if (m->slot[i].key == key)
            return &m->slot[i].val;
        if (m->slot[i].key == UINT64_MAX)
            return NULL;
    }
}
int rft_map_put(rft_map *m, uint64_t key, uint64_t val);
int rft_map_del(rft_map *m, uint64_t key);              /* 1 if it was there */
void rft_map_free(rft_map *m);
/* key of a wavefront on a slice */
static inline uint64_t rft_wf_key(uint16_t cu, uint16_t simd, uint32_t wf)
{
    return (uint64_t)cu << 48 | (uint64_t)simd << 32 | wf;
}
static inline uint32_t rft_slice_key(uint16_t cu, uint16_t simd) { return (uint32_t)cu << 16 | simd; }

/* ---- slice indices: the slices a stage has seen, numbered by the stage ---- */
/* Traces name few compute units, so the usual slices are found in a table
 * without hashing (a stage looks its slice up for every record); the
 * others go to a map. */
#define RFT_SLICES_CU 128
#define RFT_SLICES_SIMD 8
typedef struct rft_slices {
    uint32_t small[RFT_SLICES_CU * RFT_SLICES_SIMD];  /* index + 1; 0: not seen */
    rft_map more;
} rft_slices;
int rft_slices_init(rft_slices *x);
void rft_slices_free(rft_slices *x);
/* The index put for (cu, simd), or -1. */
static inline long rft_slices_find(const rft_slices *x, uint16_t cu, uint16_t simd)
{
    if (cu < RFT_SLICES_CU && simd < RFT_SLICES_SIMD)
        return (long)x->small[cu * RFT_SLICES_SIMD + simd] - 1;
    const uint64_t *v = rft_map_get(&x->more, rft_slice_key(cu, simd));
    return v ? (long)*v : -1;
}
/* Give (cu, simd) an index below 2^31; RFT_EMEM when out of memory. */
int rft_slices_put(rft_slices *x, uint16_t cu, uint16_t simd, uint32_t index);

/* ---- the canonical text grammar (rft-decode(1), rft-view(1)) ---------------- */
/* A kernel's wavefronts, begun and running: work-group 0 beginning when
 * none runs is the kernel launched again (rft-decode(1)). */
typedef struct { uint32_t begun, running; } rft_textkern;   /* begun: 0 or 1 */
/* Decoder state: kernels seen, wavefronts running, last cycle. */
typedef struct rft_textdec {
    rft_geom geom;
    uint64_t last_cycle;
    rft_map wfs;            /* wf key -> nregs | kernel << 16 */
    char **knames;          /* kernel index -> name */
    uint32_t nk, kcap, cur_kernel;
    rft_rec rec[2];         /* what the last line produced */
    char why[256];          /* what is wrong with the last line */
    rft_map kbyname;        /* a name's key -> its latest kernel index */
    uint8_t ubuf[RFT_UNITREC_LEN];  /* the payload of a U line's unit record */
    rft_textkern *kst;      /* kernel index -> its wavefronts begun and running */
} rft_textdec;
int rft_textdec_init(rft_textdec *d, const rft_geom *g);
/* Decode one line split into nf fields (f[i], not NUL-terminated, length
 * fl[i]).  Returns the number of records now in d->rec (0..2: a B line that
 * names a new kernel yields an implicit kernel record first), or a negative
 * code with the reason in d->why. */
int rft_textdec_line(rft_textdec *d, int nf, const char *const *f, const size_t *fl);
void rft_textdec_free(rft_textdec *d);

/* Format a record as one canonical text line (no newline) into buf, fields
 * separated by sep; knames resolves kernel indexes for B lines ("?" where it
 * has no name; NULL when nk is 0).  Returns the length, or 0 for records
 * without a text form (implicit kernels, unknown kinds).  buf must hold
 * RFT_TEXT_MAX bytes. */
#define RFT_TEXT_MAX (RFT_MAX_LANES * 9 + 2 * RFT_MAX_STR + 512)
size_t rft_text_format(const rft_geom *g, const rft_rec *r, const char *const *knames,
                       uint32_t nk, char sep, char *buf);

/* ---- counters records (rft_counters is large: ~18 KB) --------------------------
 * A counters record carries named u64 counters of one stage for one scope:
 *   str stage, str scope, u16 n, n x (str name, u64 value)
 * (str = u16 length + bytes).  Scope is "total", "slice CU:SIMD" or
 * "kernel NAME"; rft-merge adds the values of equal (stage, scope, name),
 * except maxima (names containing "_peak"), of which it keeps the largest. */
#define RFT_MAX_COUNTERS 256
#define RFT_MAX_SCOPE (RFT_MAX_STR + 7)    /* "kernel " and any kernel name */
typedef struct rft_counters {
    char stage[64];
    char scope[RFT_MAX_SCOPE + 1];
    int n;
    char name[RFT_MAX_COUNTERS][64];
    uint64_t value[RFT_MAX_COUNTERS];
} rft_counters;
/* c emptied, then stage's counters of scope: names[i] = v[i] for i < n
 * (names shorter than 64 bytes, n at most RFT_MAX_COUNTERS). */
void rft_counters_set(rft_counters *c, const char *stage, const char *scope,
                      const char *const *names, const uint64_t *v, int n);
/* Add v to counter name (created at the end if absent); RFT_EFORMAT if full. */
int rft_counters_add(rft_counters *c, const char *name, uint64_t v);
uint64_t rft_counters_get(const rft_counters *c, const char *name); /* 0 if absent */
/* Merge another run's value of a counter: a maximum (a name containing
 * "_peak") keeps the larger value, every other counter is added. */
int rft_counters_merge(rft_counters *c, const char *name, uint64_t v);
int rft_write_counters(rft_writer *w, const rft_counters *c);
/* Parse a RFT_COUNTERS payload; RFT_EFORMAT if malformed. */
int rft_counters_parse(const uint8_t *p, uint32_t len, rft_counters *c);

/* ---- little helpers shared by programs ------------------------------------ */
const char *rft_class_name(int cls);   /* "constant", "single-delta", ... */
const char *rft_wc_name(int wc);       /* "base", "delta1", ... */
const char *rft_kind_name(int kind);   /* "kernel", "begin", ... */

/* ---- stages: the one interface of every pipeline stage (rft-alloc, rft-gate,
 * rft-duty, ...): records in, records out, in memory.
 *
 * A stage module (gate.h, alloc.h, ...) has its own constructor taking its
 * options, e.g. rft_gate_new(&opts); everything after is common:
 *
 *   rft_stage_start(s, in, out)   the input header; out gets the output
 *                                 header (in's, with what the stage adds)
 *   rft_stage_feed(s, rec, sink)  one record; the stage may change it and
 *                                 hands zero or more records to sink (kinds
 *                                 it does not know: passed on unchanged)
 *   rft_stage_finish(s, sink)     end of input: the records a stage emits
 *                                 at the end (maps, counters)
 *   rft_stage_free(s)
 *
 * Errors are negative RFT_E* codes with a one-line message from
 * rft_stage_error() that does not name the place: a driver adds "FILE:
 * record N:" (N: records fed so far).  An error of the sink is returned as
 * it is and leaves rft_stage_error() empty.  Warnings go to the stage's
 * warn callback, if set (one line each, without the program's name).
 *
 * No I/O and no global state: a simulator can run several stages inline,
 * e.g. examples/gate-inline.c.  A sink that writes a file is
 * rft_sink_writer() below.
 */
/* Where a stage's records go.  put may change the record (the next stage
 * annotates it); the record is only valid during the call. */
typedef struct rft_sink {
    int (*put)(void *ctx, rft_rec *rec);
    void *ctx;
} rft_sink;

typedef struct rft_stage rft_stage;
typedef struct rft_stage_ops {
    const char *name;   /* the program: "rft-gate" */
    int (*start)(rft_stage *s, const rft_header *in, rft_header *out);
    int (*feed)(rft_stage *s, rft_rec *rec, const rft_sink *out);
    int (*finish)(rft_stage *s, const rft_sink *out);
    void (*free)(rft_stage *s);
    int readonly;       /* 1: never changes a record it is fed (a driver that
                           hands one record to several stages copies it
                           only for those that may) */
} rft_stage_ops;

#define RFT_STAGE_WHY 512
struct rft_stage {      /* the common head of every stage */
    const rft_stage_ops *ops;
    const char *input;  /* the input's name for warnings ("-" by default) */
    void (*warn)(void *ctx, const char *msg);   /* NULL: warnings dropped */
    void *warn_ctx;
    char why[RFT_STAGE_WHY];
    /* The state a stage keeps per slice (maps of its entries, a replay's
     * wavefronts) is counted against the process's memory budget
     * (rft_mem_limit, shared by every stage of the process), so that a
     * small stream with a large geometry or many slices is refused instead
     * of taking the machine's memory; mem_max bytes is the stage's own
     * limit besides (0 from rft_stage_alloc: none; a stage's --max-memory
     * in `rft run`), mem what it holds so far (rft_stage_reserve), given
     * back to the budget by rft_stage_free. */
    uint64_t mem_max, mem;
    /* The records fed are a shard of the input (rft_reader_shard): what its
     * reader saw of the whole input, set by the driver before finish, else
     * NULL.  A stage whose result depends on the input's span or compute
     * units reads them here, so that its shards add up to the whole. */
    const rft_whole *whole;
};
#define RFT_STAGE_MEM_DEFAULT (2048ull << 20)

/* The process's memory budget: what every stage holds (rft_stage_reserve),
 * together, is refused past max bytes (0: no limit; RFT_STAGE_MEM_DEFAULT
 * until set).  owner names the limit in messages ("rft run"; NULL: the
 * stage that reserves).  Set it before any stage runs. */
void rft_mem_limit(uint64_t max, const char *owner);
uint64_t rft_mem_limit_get(void);
uint64_t rft_mem_held(void);    /* bytes taken from the budget now */
/* Take bytes more for stage's what ("slice 3:1") from the budget: 0, or 1
 * and why (as rft_mem_over says it, the total being the process's) when
 * they would bring it past its limit.  Thread-safe. */
int rft_mem_take(const char *stage, const char *what, uint64_t bytes, char *why, size_t whylen);
void rft_mem_give(uint64_t bytes);

/* out is initialized here with the stage's program as producer; free it
 * with rft_header_free in any case. */
int rft_stage_start(rft_stage *s, const rft_header *in, rft_header *out);
int rft_stage_feed(rft_stage *s, rft_rec *rec, const rft_sink *out);
int rft_stage_finish(rft_stage *s, const rft_sink *out);
const char *rft_stage_error(const rft_stage *s);
const char *rft_stage_name(const rft_stage *s);
void rft_stage_free(rft_stage *s);      /* accepts NULL */

/* A sink writing to w (rft_write_rec). */
rft_sink rft_sink_writer(rft_writer *w);

/* For stage modules: a zeroed stage object of size bytes (the rft_stage
 * head first) with its ops, input "-"; NULL if out of memory. */
void *rft_stage_alloc(size_t size, const rft_stage_ops *ops);
/* For stage modules: bytes more of per-slice state about to be allocated
 * for what ("slice 3:1"): 0, or RFT_EMEM before any allocation when they
 * would bring the stage past s->mem_max or the process past its budget
 * (rft_mem_limit), with a message naming what, the total and the limit. */
int rft_stage_reserve(rft_stage *s, uint64_t bytes, const char *what);
/* At the start, from the header's geometry: RFT_EMEM and the message if
 * bytes (what one slice would take) could not be reserved now, so that a
 * stream whose first slice alone is over the budget is refused before any
 * record; else 0 (nothing taken). */
int rft_stage_fits(rft_stage *s, uint64_t bytes, const char *what);
/* bytes reserved before, given back (the state was freed). */
void rft_stage_release(rft_stage *s, uint64_t bytes);
/* The same for the state of slice cu:simd of entries entries, named
 * "slice CU:SIMD (N entries)", after the words of (NULL: none; "--util
 * on", at most 32 bytes). */
int rft_stage_reserve_slice(rft_stage *s, uint64_t bytes, const char *of, uint16_t cu,
                            uint16_t simd, uint32_t entries);
/* The same for the state of wavefront wf on slice cu:simd of nregs
 * registers, named "wavefront WF on slice CU:SIMD (N registers)". */
int rft_stage_reserve_wf(rft_stage *s, uint64_t bytes, uint32_t wf, uint16_t cu, uint16_t simd,
                         uint16_t nregs);
/* The message of rft_stage_reserve: 1 and why (stage and what named) if
 * held + more passes max (0: no limit), else 0. */
int rft_mem_over(const char *stage, const char *what, uint64_t held, uint64_t more, uint64_t max,
                 char *why, size_t whylen);
/* For stage modules: set the message (returns code) and warn. */
int rft_stage_fail(rft_stage *s, int code, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
void rft_stage_warn(rft_stage *s, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* Hand a record of a payload-only kind (counters, allocation, ...) on. */
int rft_sink_raw(const rft_sink *out, int kind, const uint8_t *payload, uint32_t len);
/* Encode a counters record into buf (RFT_COUNTERS_MAX bytes): its length. */
#define RFT_COUNTERS_MAX (4 + 64 + RFT_MAX_SCOPE + 1 + 2 + RFT_MAX_COUNTERS * (2 + 64 + 8))
uint32_t rft_counters_encode(const rft_counters *c, uint8_t *buf);

#ifdef __cplusplus
}
#endif
#endif
