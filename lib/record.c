/* record.c - the rft stream: header, length-prefixed records, end record.
 * Layout in rft(5).  A reader has three outcomes per call, as htslib's
 * bam_read1: a record, the clean end (the end record, count checked), or a
 * specific error (truncated, corrupt, invalid). */
#include <errno.h>
#include <stdarg.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>
#include <zstd.h>

#include "endian.h"
#include "rft.h"

#define FRAME_HDR 5u            /* u8 kind + u32 payload length */
#define RFT_STR_(x) #x
#define RFT_STR(x) RFT_STR_(x)  /* a number's macro as a string literal */
#define READ_CHUNK (1u << 20)

/* ---- geometry and header ---------------------------------------------------- */
void rft_geom_default(rft_geom *g)
{
    g->lanes = 64;
    g->entries = 256;
    g->block_lanes = 16;
    g->lane_bits = 32;
}

int rft_geom_check(const rft_geom *g, const char **why)
{
    if (g->lanes < 1 || g->lanes > RFT_MAX_LANES)
        *why = "lanes per register out of range 1..1024";
    else if (g->entries < 1 || g->entries > RFT_MAX_ENTRIES)
        *why = "entries per slice out of range 1..65535";
    else if (g->block_lanes < 1 || g->block_lanes > g->lanes || g->lanes % g->block_lanes)
        *why = "lanes per block must divide lanes per register";
    else if (g->lane_bits != 32)
        *why = "bits per lane must be 32";
    else
        return 0;
    return RFT_EFORMAT;
}

void rft_header_init(rft_header *h, const char *producer)
{
    memset(h, 0, sizeof *h);
    h->major = RFT_FORMAT_MAJOR;
    h->minor = RFT_FORMAT_MINOR;
    rft_geom_default(&h->geom);
    h->producer = strdup(producer);
    h->version = strdup(RFT_VERSION);
}

int rft_header_set(rft_header *h, const char *key, const char *val)
{
    if (strlen(key) > RFT_MAX_STR || strlen(val) > RFT_MAX_STR || !*key)
        return RFT_EFORMAT;
    for (int i = 0; i < h->nmeta; i++)
        if (strcmp(h->meta[i].key, key) == 0) {
            char *v = strdup(val);
            if (!v)
                return RFT_EMEM;
            free(h->meta[i].val);
            h->meta[i].val = v;
            return 0;
        }
    if (h->nmeta == RFT_MAX_META)
        return RFT_EFORMAT;
    char *k = strdup(key), *v = strdup(val);
    if (!k || !v) {
        free(k);
        free(v);
        return RFT_EMEM;
    }
    h->meta[h->nmeta].key = k;
    h->meta[h->nmeta++].val = v;
    return 0;
}

void rft_header_unset(rft_header *h, const char *key)
{
    for (int i = 0; i < h->nmeta; i++)
        if (strcmp(h->meta[i].key, key) == 0) {
            free(h->meta[i].key);
            free(h->meta[i].val);
            memmove(&h->meta[i], &h->meta[i + 1], (size_t)(h->nmeta - i - 1) * sizeof h->meta[0]);
            h->nmeta--;
            return;
        }
}

const char *rft_header_get(const rft_header *h, const char *key)
{
    for (int i = 0; i < h->nmeta; i++)
        if (strcmp(h->meta[i].key, key) == 0)
            return h->meta[i].val;
    return NULL;
}

int rft_header_copy(rft_header *dst, const rft_header *src)
{
    dst->geom = src->geom;
    for (int i = 0; i < src->nmeta; i++) {
        int e = rft_header_set(dst, src->meta[i].key, src->meta[i].val);
        if (e)
            return e;
    }
    return 0;
}

void rft_header_free(rft_header *h)
{
    for (int i = 0; i < h->nmeta; i++) {
        free(h->meta[i].key);
        free(h->meta[i].val);
    }
    h->nmeta = 0;
    free(h->producer);
    free(h->version);
    h->producer = h->version = NULL;
}

/* ---- names ------------------------------------------------------------------ */
const char *rft_class_name(int c)
{
    static const char *n[] = {"none", "constant", "single-delta", "double-delta", "other"};
    return c >= 0 && c <= RFT_CLS_OTHER ? n[c] : "?";
}

const char *rft_wc_name(int c)
{
    static const char *n[] = {"none", "base", "delta1", "delta2", "uncompressed"};
    return c >= 0 && c <= RFT_WC_UNCOMP ? n[c] : "?";
}

const char *rft_kind_name(int k)
{
    static const char *n[] = {"end", "kernel", "begin", "end-wf", "write", "read", "bundle",
                              "unit"};
    return k >= 0 && k <= RFT_UNITREC ? n[k] : "unknown";
}

/* ---- reader ------------------------------------------------------------------ */
struct rft_reader {
    rft_in *in;
    rft_header h;
    uint8_t *buf;
    size_t cap, start, end;
    size_t chunk;           /* bytes asked of the input at least at a time */
    int in_eof;
    uint64_t count;
    int done;
    int order;              /* RFT_READ_ORDER: rule 8 checked */
    uint64_t last;          /* cycle of the last trace record */
    rft_map live;           /* wavefronts begun and not ended */
    uint32_t shard_k, shard_n;  /* rft_reader_shard: shard k of n (n 0: every record) */
    uint32_t shard_simds;   /* SIMDs per CU of the slice index (0: the CU alone) */
    rft_whole whole;        /* what the shard's reader saw of the whole stream */
    uint8_t *cu_seen;       /* its compute units, a bit each */
    uint32_t split_k, split_n;  /* a split's shard: its keys (n 0: not one) */
    int split_by;
    int whole_read;         /* its whole record was read */
    char err[320];
};

static int rerr(rft_reader *r, int code, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
static int rerr(rft_reader *r, int code, const char *fmt, ...)
{
    va_list ap;
    int n = snprintf(r->err, sizeof r->err, "record %llu: ", (unsigned long long)r->count + 1);
    va_start(ap, fmt);
    vsnprintf(r->err + n, sizeof r->err - (size_t)n, fmt, ap);
    va_end(ap);
    return code;
}

/* Make at least need bytes available at buf+start.  0, or RFT_ETRUNC when
 * the input ends first (have tells how much there was), or an error. */
static int fill(rft_reader *r, size_t need)
{
    while (r->end - r->start < need) {
        if (r->in_eof)
            return RFT_ETRUNC;
        if (r->start > 0) {
            memmove(r->buf, r->buf + r->start, r->end - r->start);
            r->end -= r->start;
            r->start = 0;
        }
        if (r->cap - r->end < r->chunk / 2 || r->cap < need) {
            size_t ncap = r->cap;
            while (ncap < need + r->chunk)
                ncap *= 2;
            uint8_t *nb = realloc(r->buf, ncap);
            if (!nb)
                return RFT_EMEM;
            r->buf = nb;
            r->cap = ncap;
        }
        long n = rft_in_read(r->in, r->buf + r->end, r->cap - r->end);
        if (n < 0)
            return (int)n;
        if (n == 0)
            r->in_eof = 1;
        r->end += (size_t)n;
    }
    return 0;
}

static int take_str(const uint8_t **p, const uint8_t *e, char **out)
{
    if (e - *p < 2)
        return -1;
    uint16_t n = ld16(*p);
    /* a NUL byte would cut the string wherever it is used as one */
    if (n > RFT_MAX_STR || e - *p - 2 < n || memchr(*p + 2, 0, n))
        return -1;
    *out = malloc((size_t)n + 1);
    if (!*out)
        return -1;
    memcpy(*out, *p + 2, n);
    (*out)[n] = 0;
    *p += 2 + n;
    return 0;
}

char *rft_tmp_template(const char *path)
{
    /* the suffix must not push a legal name over the limit: the name's
     * end gives way (the folder, and so the rename, stay the same) */
    static const char suffix[] = ".tmpXXXXXX";
    const char *slash = strrchr(path, '/');
    size_t dir = slash ? (size_t)(slash - path) + 1 : 0, base = strlen(path) - dir;
    size_t keep = base + sizeof suffix - 1 > NAME_MAX ? NAME_MAX - (sizeof suffix - 1) : base;
    char *t = malloc(dir + keep + sizeof suffix);
    if (t) {
        memcpy(t, path, dir + keep);
        memcpy(t + dir + keep, suffix, sizeof suffix);
    }
    return t;
}

static int parse_header(rft_reader *r, char *err, size_t errlen)
{
    int e = fill(r, 12);
    if (e == RFT_ETRUNC) {
        snprintf(err, errlen, r->end == 0 ? "empty stream (no header)" : "truncated header");
        return e;
    }
    if (e) {
        snprintf(err, errlen, "%s", e == RFT_EMEM ? "out of memory" : rft_in_error(r->in));
        return e;
    }
    const uint8_t *p = r->buf;
    if (memcmp(p, RFT_MAGIC, 4) != 0) {
        /* a compressed text trace is the likely mistake */
        snprintf(err, errlen, "not an rft stream (bad magic)%s",
                 memchr(p, '\t', 12) || memchr(p, ' ', 12) ? ": text? a trace is decoded first "
                                                               "(rft-decode FILE | ...)" : "");
        return RFT_EFORMAT;
    }
    r->h.major = p[4];
    r->h.minor = p[5];
    if (r->h.major != RFT_FORMAT_MAJOR) {
        snprintf(err, errlen, "unsupported format version %u.%u (this reader knows %d.x)",
                 r->h.major, r->h.minor, RFT_FORMAT_MAJOR);
        return RFT_EFORMAT;
    }
    if (ld16(p + 6) != RFT_BOM) {
        snprintf(err, errlen, "bad byte-order mark");
        return RFT_EFORMAT;
    }
    uint32_t hlen = ld32(p + 8);
    if (hlen > (1u << 24) || hlen < 20) {
        snprintf(err, errlen, "header length %u out of range", hlen);
        return RFT_EFORMAT;
    }
    if ((e = fill(r, 12 + (size_t)hlen))) {
        snprintf(err, errlen, e == RFT_ETRUNC ? "truncated header" : "%s", rft_in_error(r->in));
        return e;
    }
    p = r->buf + 12;
    const uint8_t *end = p + hlen;
    r->h.geom.lanes = ld32(p);
    r->h.geom.entries = ld32(p + 4);
    r->h.geom.block_lanes = ld32(p + 8);
    r->h.geom.lane_bits = ld32(p + 12);
    p += 16;
    const char *why;
    if (rft_geom_check(&r->h.geom, &why)) {
        snprintf(err, errlen, "header: %s", why);
        return RFT_EFORMAT;
    }
    char *prod = NULL, *ver = NULL;
    if (take_str(&p, end, &prod) || take_str(&p, end, &ver) || end - p < 2) {
        free(prod);
        free(ver);
        snprintf(err, errlen, "header: malformed producer/version");
        return RFT_EFORMAT;
    }
    r->h.producer = prod;
    r->h.version = ver;
    unsigned nmeta = ld16(p);
    p += 2;
    if (nmeta > RFT_MAX_META) {
        snprintf(err, errlen, "header: %u metadata pairs (at most %d)", nmeta, RFT_MAX_META);
        return RFT_EFORMAT;
    }
    for (unsigned i = 0; i < nmeta; i++) {
        char *k = NULL, *v = NULL;
        if (take_str(&p, end, &k) || take_str(&p, end, &v)) {
            free(k);
            free(v);
            snprintf(err, errlen, "header: malformed metadata pair %u", i + 1);
            return RFT_EFORMAT;
        }
        r->h.meta[r->h.nmeta].key = k;
        r->h.meta[r->h.nmeta++].val = v;
    }
    if (p != end) {
        snprintf(err, errlen, "header: %zu unexpected bytes", (size_t)(end - p));
        return RFT_EFORMAT;
    }
    r->start = 12 + hlen;
    const char *sk = rft_header_get(&r->h, RFT_META_SPLIT);
    const char *sb = rft_header_get(&r->h, RFT_META_SPLIT_BY);
    if (sk || sb) {
        unsigned k, n;
        char c;
        if (!sk || !sb || sscanf(sk, "%u/%u%c", &k, &n, &c) != 2 || n == 0 || k >= n ||
            (strcmp(sb, "slice") != 0 && strcmp(sb, "cu") != 0)) {
            snprintf(err, errlen, "header: split %s by %s: not a shard of a split",
                     sk ? sk : "(none)", sb ? sb : "(none)");
            return RFT_EFORMAT;
        }
        r->split_k = k;
        r->split_n = n;
        r->split_by = strcmp(sb, "cu") == 0 ? RFT_SHARD_BY_CU : RFT_SHARD_BY_SLICE;
        rft_header_unset(&r->h, RFT_META_SPLIT);
        rft_header_unset(&r->h, RFT_META_SPLIT_BY);
    }
    return 0;
}

rft_reader *rft_reader_open(const char *path, char *err, size_t errlen)
{
    return rft_reader_open_flags(path, 0, err, errlen);
}

/* The reader of in (closed here on failure), asking it for chunk bytes at
 * least at a time; flags: RFT_READ_ORDER checks the ordering rules. */
static rft_reader *reader_start(rft_in *in, size_t chunk, int flags, char *err, size_t errlen)
{
    if (!in)
        return NULL;
    rft_reader *r = calloc(1, sizeof *r);
    if (!r || !(r->buf = malloc(2 * chunk))) {
        free(r);
        rft_in_close(in);
        snprintf(err, errlen, "out of memory");
        return NULL;
    }
    r->cap = 2 * chunk;
    r->chunk = chunk;
    r->in = in;
    if ((r->order = !!(flags & RFT_READ_ORDER)) && rft_map_init(&r->live, 64)) {
        r->order = 0;
        rft_reader_close(r);
        snprintf(err, errlen, "out of memory");
        return NULL;
    }
    if (parse_header(r, err, errlen)) {
        rft_reader_close(r);
        return NULL;
    }
    return r;
}

rft_reader *rft_reader_open_flags(const char *path, int flags, char *err, size_t errlen)
{
    return reader_start(rft_in_open(path, RFT_IN_ZSTD | (flags & RFT_IN_AHEAD), err, errlen),
                        READ_CHUNK, flags, err, errlen);
}

rft_reader *rft_reader_open_mem(const void *data, size_t n, int flags, char *err, size_t errlen)
{
    /* a small stream in memory (a test's) gets a small buffer first: it
     * grows as a file's does, by chunks of up to READ_CHUNK */
    size_t chunk = 4096;
    while (chunk < READ_CHUNK && chunk < 8 * n)
        chunk *= 2;
    return reader_start(rft_in_open_mem(data, n, RFT_IN_ZSTD | (flags & RFT_IN_AHEAD), err, errlen),
                        chunk, flags, err, errlen);
}

const rft_header *rft_reader_header(const rft_reader *r) { return &r->h; }
uint64_t rft_reader_count(const rft_reader *r) { return r->count; }
uint64_t rft_reader_bytes(const rft_reader *r) { return rft_in_bytes(r->in); }
const char *rft_reader_error(const rft_reader *r) { return r->err; }

/* Largest payload each known kind may have. */
static uint32_t max_len(const rft_reader *r, int kind)
{
    switch (kind) {
    case RFT_END: return 8;
    case RFT_KERNEL: return RFT_KERNEL_FIXED + RFT_MAX_STR;
    case RFT_WFBEGIN: return RFT_WFBEGIN_LEN;
    case RFT_WFEND: return RFT_WFEND_LEN;
    case RFT_WRITE: return rft_write_len(&r->h.geom);
    case RFT_READ: return RFT_READ_LEN;
    case RFT_BUNDLE: return rft_bundle_len(&r->h.geom);
    default: return RFT_MAX_RECORD;
    }
}

/* Wavefront records (begin, end, write, read, bundle) start alike: u64 cycle,
 * u16 cu, u16 simd, u32 wf (rft(5)). */
static void put_where(uint8_t *p, uint64_t cycle, uint16_t cu, uint16_t simd, uint32_t wf)
{
    st64(p, cycle);
    st16(p + 8, cu);
    st16(p + 10, simd);
    st32(p + 12, wf);
}

static void ld_where(const uint8_t *p, uint64_t *cycle, uint16_t *cu, uint16_t *simd, uint32_t *wf)
{
    *cycle = ld64(p);
    *cu = ld16(p + 8);
    *simd = ld16(p + 10);
    *wf = ld32(p + 12);
}

static void decode_write(const rft_geom *g, const uint8_t *p, rft_write *w)
{
    ld_where(p, &w->cycle, &w->cu, &w->simd, &w->wf);
    w->vreg = ld16(p + 16);
    w->phys = ld16(p + 18);
    w->cls = p[20];
    w->bs = p[21];
    w->wc = p[22];
    w->flags = p[23];
    w->c0 = ld32(p + 24);
    w->de = ld32(p + 28);
    w->db = ld32(p + 32);
    w->on_bits = ld32(p + 36);
    uint32_t mb = rft_mask_bytes(g);
    memcpy(w->mask, p + RFT_WRITE_FIXED, mb);
    const uint8_t *v = p + RFT_WRITE_FIXED + mb;
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
    memcpy(w->val, v, 4u * g->lanes);
#else
    for (uint32_t i = 0; i < g->lanes; i++)
        w->val[i] = ld32(v + 4 * i);
#endif
}

/* Unknown bits and flags that contradict the slots are refused: the
 * canonical text could not print them back (rft(5)). */
static int decode_bundle(rft_reader *r, const uint8_t *p, rft_bundle *b)
{
    ld_where(p, &b->cycle, &b->cu, &b->simd, &b->wf);
    b->slots = p[16];
    b->flags = p[17];
    memcpy(b->mask, p + RFT_BUNDLE_FIXED, rft_mask_bytes(&r->h.geom));
    if (b->slots & ~(RFT_SLOTS_XYZW | RFT_SLOT_T))
        return rerr(r, RFT_EFORMAT, "bundle record with unknown slot bits 0x%02x", b->slots);
    if (b->flags & ~(RFT_UF_TRANS | RFT_UF_VECTOR))
        return rerr(r, RFT_EFORMAT, "bundle record with unknown flag bits 0x%02x", b->flags);
    if ((b->flags & RFT_UF_TRANS) && !(b->slots & RFT_SLOT_T))
        return rerr(r, RFT_EFORMAT, "bundle record: a transcendental T instruction without slot T");
    if ((b->flags & RFT_UF_VECTOR) && !(b->slots & RFT_SLOTS_XYZW))
        return rerr(r, RFT_EFORMAT, "bundle record: a vector instruction without slots X..W");
    return 0;
}

/* Rule 8 of rft(5), one map look-up per wavefront record: cycles never go
 * back, and a wavefront's records lie between its begin and its end. */
static int cycle_order(rft_reader *r, int kind, uint64_t c)
{
    if (c < r->last)
        return rerr(r, RFT_EFORMAT, "%s record at cycle %llu after cycle %llu (out of cycle order)",
                    rft_kind_name(kind), (unsigned long long)c, (unsigned long long)r->last);
    r->last = c;
    return 0;
}

static int check_order(rft_reader *r, const rft_rec *rec)
{
    int e = cycle_order(r, rec->kind, rft_rec_cycle(rec));
    if (e)
        return e;
    uint16_t cu, simd;
    uint32_t wf;
    if (!rft_rec_wf(rec, &cu, &simd, &wf))
        return 0;
    uint64_t key = rft_wf_key(cu, simd, wf);
    int running = rft_map_get(&r->live, key) != NULL;
    if (rec->kind == RFT_WFBEGIN) {
        if (running)
            return rerr(r, RFT_EFORMAT, "wavefront %u on slice %u:%u begins again before its end",
                        wf, cu, simd);
        return rft_map_put(&r->live, key, 1) ? rerr(r, RFT_EMEM, "out of memory") : 0;
    }
    if (!running)
        return rerr(r, RFT_EFORMAT, "%s record of wavefront %u on slice %u:%u, which has not begun",
                    rft_kind_name(rec->kind), wf, cu, simd);
    if (rec->kind == RFT_WFEND)
        rft_map_del(&r->live, key);
    return 0;
}

/* ---- shards: the records of some slices only ---------------------------------- */
int rft_reader_shard(rft_reader *r, uint32_t k, uint32_t n)
{
    return rft_reader_shard_by(r, k, n, RFT_SHARD_BY_SLICE);
}

int rft_reader_shard_by(rft_reader *r, uint32_t k, uint32_t n, int by)
{
    if (n == 0 || k >= n) {
        snprintf(r->err, sizeof r->err, "shard %u of %u: not a shard", k, n);
        return RFT_EFORMAT;
    }
    if (r->split_n && (k != r->split_k || n != r->split_n || by != r->split_by)) {
        snprintf(r->err, sizeof r->err,
                 "shard %u/%u of a split by %s, not shard %u/%u by %s: read it with --shard "
                 "%u/%u --shard-by %s", r->split_k, r->split_n,
                 r->split_by == RFT_SHARD_BY_CU ? "cu" : "slice", k, n,
                 by == RFT_SHARD_BY_CU ? "cu" : "slice", r->split_k, r->split_n,
                 r->split_by == RFT_SHARD_BY_CU ? "cu" : "slice");
        return RFT_EFORMAT;
    }
    if (!r->cu_seen && !(r->cu_seen = calloc(1, 65536 / 8))) {
        snprintf(r->err, sizeof r->err, "out of memory");
        return RFT_EMEM;
    }
    const char *v = rft_header_get(&r->h, "simds");
    char *end;
    unsigned long x = v && *v >= '0' && *v <= '9' ? strtoul(v, &end, 10) : 0;
    r->shard_simds = by == RFT_SHARD_BY_CU                  ? 0
                     : x >= 1 && x <= 65535 && !*end ? (uint32_t)x
                                                     : RFT_SHARD_SIMDS;
    r->shard_k = k;
    r->shard_n = n;
    return 0;
}

const rft_whole *rft_reader_whole(const rft_reader *r) { return r->shard_n ? &r->whole : NULL; }

void rft_whole_encode(const rft_whole *w, uint8_t *p)
{
    for (int k = 1; k <= RFT_BUNDLE; k++, p += 17) {
        p[0] = w->seen[k];
        st64(p + 1, w->first[k]);
        st64(p + 9, w->last[k]);
    }
    st32(p, w->cus);
}

int rft_whole_parse(const uint8_t *p, uint32_t len, rft_whole *w)
{
    if (len != RFT_WHOLE_LEN)
        return RFT_EFORMAT;
    memset(w, 0, sizeof *w);
    for (int k = 1; k <= RFT_BUNDLE; k++, p += 17) {
        if (p[0] > 1)
            return RFT_EFORMAT;
        w->seen[k] = p[0];
        w->first[k] = ld64(p + 1);
        w->last[k] = ld64(p + 9);
    }
    w->cus = ld32(p);
    return 0;
}

/* The slice of a record of a kind tied to one (wavefront records, duty
 * maps, fault maps of one slice, allocation and patch records): 1 and
 * (cu, simd); 0 for the others, which every shard keeps. */
int rft_rec_slice(int kind, const uint8_t *p, uint32_t len, uint16_t *cu, uint16_t *simd)
{
    uint32_t at;
    switch (kind) {
    case RFT_WFBEGIN: case RFT_WFEND: case RFT_WRITE: case RFT_READ: case RFT_BUNDLE:
    case RFT_UNITREC: case RFT_ALLOC: case RFT_PATCH: at = 8; break;
    case RFT_DUTY: at = 4; break;
    case RFT_FAULTMAP: at = 0; break;
    default: return 0;
    }
    if (len < at + 4)
        return 0;       /* malformed: the stage that reads it says so */
    *cu = ld16(p + at);
    *simd = ld16(p + at + 2);
    return !(kind == RFT_FAULTMAP && *cu == 0xFFFF && *simd == 0xFFFF);    /* every slice's */
}

/* The shard of slice cu:simd: its index CU x SIMDs + SIMD, or the CU alone
 * (shard_simds 0), modulo the shards. */
static uint32_t shard_of(const rft_reader *r, uint16_t cu, uint16_t simd)
{
    return (r->shard_simds ? (uint32_t)cu * r->shard_simds + simd : cu) % r->shard_n;
}

/* A record of a shard's reader: noted in what it saw of the whole stream,
 * then 1 if it is another shard's (skipped: the cycle order is checked,
 * the rest is the other shard's), 0 if kept, or an error. */
static int shard_skip(rft_reader *r, int kind, const uint8_t *p, uint32_t len)
{
    rft_whole *w = &r->whole;
    uint16_t cu = 0, simd = 0;
    int tied = rft_rec_slice(kind, p, len, &cu, &simd);
    if (kind >= RFT_KERNEL && kind <= RFT_BUNDLE) {
        uint64_t c = ld64(p);
        if (!w->seen[kind])
            w->first[kind] = c;
        w->seen[kind] = 1;
        w->last[kind] = c;
        if (kind >= RFT_WFBEGIN && kind <= RFT_READ && !(r->cu_seen[cu >> 3] & 1 << (cu & 7))) {
            r->cu_seen[cu >> 3] |= (uint8_t)(1 << (cu & 7));
            w->cus++;
        }
        if (tied && shard_of(r, cu, simd) != r->shard_k) {
            return r->order && cycle_order(r, kind, c) ? RFT_EFORMAT : 1;
        }
        return 0;
    }
    return tied && shard_of(r, cu, simd) != r->shard_k;
}

int rft_read(rft_reader *r, rft_rec *rec)
{
    if (r->done)
        return RFT_EOF;
again:;
    int e = fill(r, FRAME_HDR);
    if (e == RFT_ETRUNC)
        return rerr(r, e, r->end == r->start ? "stream ends without an end record (truncated)"
                                            : "truncated record header");
    if (e)
        return rerr(r, e, "%s", e == RFT_EMEM ? "out of memory" : rft_in_error(r->in));
    const uint8_t *p = r->buf + r->start;
    int kind = p[0];
    uint32_t len = ld32(p + 1);
    uint32_t lim = max_len(r, kind);
    if (len > lim)
        return rerr(r, RFT_EFORMAT, "%s record of %u bytes (at most %u)", rft_kind_name(kind),
                    len, lim);
    if ((e = fill(r, FRAME_HDR + (size_t)len)))
        return rerr(r, e, "%s", e == RFT_ETRUNC ? "stream ends inside a record (truncated)"
                                 : e == RFT_EMEM ? "out of memory" : rft_in_error(r->in));
    p = r->buf + r->start + FRAME_HDR;
    rec->kind = kind;
    rec->raw = p;
    rec->len = len;
    /* every known kind has an exact (or, for kernels, a minimum) length */
    uint32_t want = kind == RFT_KERNEL ? RFT_KERNEL_FIXED : lim;
    if (kind <= RFT_BUNDLE && (kind == RFT_KERNEL ? len < want : len != want))
        return rerr(r, RFT_EFORMAT, "%s record of %u bytes (expected %u)", rft_kind_name(kind),
                    len, want);
    if (r->split_n && !r->shard_n)
        return rerr(r, RFT_EFORMAT, "shard %u/%u of a split by %s: read it with --shard %u/%u "
                    "--shard-by %s", r->split_k, r->split_n,
                    r->split_by == RFT_SHARD_BY_CU ? "cu" : "slice", r->split_k, r->split_n,
                    r->split_by == RFT_SHARD_BY_CU ? "cu" : "slice");
    if (kind == RFT_WHOLE) {
        /* a split's shard: what the whole stream held, kept by its reader */
        if (!r->split_n || r->whole_read)
            return rerr(r, RFT_EFORMAT, "whole record %s", r->split_n ? "twice" :
                        "outside a split's shard");
        if (rft_whole_parse(p, len, &r->whole))
            return rerr(r, RFT_EFORMAT, "malformed whole record");
        r->whole_read = 1;
        r->start += FRAME_HDR + len;
        r->count++;
        goto again;
    }
    if (r->split_n && kind == RFT_END && !r->whole_read)
        return rerr(r, RFT_EFORMAT, "split's shard without its whole record");
    if (r->split_n && r->whole_read && kind != RFT_END)
        return rerr(r, RFT_EFORMAT, "%s record after the whole record", rft_kind_name(kind));
    if (r->shard_n && !r->whole_read && kind != RFT_END) {
        /* a record of another shard's slice is skipped as it is, unbuilt */
        if ((e = shard_skip(r, kind, p, len)) < 0)
            return e;
        if (e) {
            r->start += FRAME_HDR + len;
            r->count++;
            goto again;
        }
    }
    switch (kind) {
    case RFT_END: {
        uint64_t n = ld64(p);
        if (n != r->count)
            return rerr(r, RFT_EFORMAT, "end record counts %llu records, stream has %llu",
                        (unsigned long long)n, (unsigned long long)r->count);
        r->start += FRAME_HDR + len;
        /* nothing may follow the end record, and its frame must be whole */
        e = fill(r, 1);
        if (e == 0)
            return rerr(r, RFT_EFORMAT, "data after the end record");
        if (e != RFT_ETRUNC)
            return rerr(r, e, "%s", e == RFT_EMEM ? "out of memory" : rft_in_error(r->in));
        r->done = 1;
        return RFT_EOF;
    }
    case RFT_KERNEL:
        rec->u.kernel.cycle = ld64(p);
        rec->u.kernel.index = ld32(p + 8);
        rec->u.kernel.flags = p[12];
        rec->u.kernel.name_len = ld16(p + 13);
        rec->u.kernel.name = (const char *)p + RFT_KERNEL_FIXED;
        if (RFT_KERNEL_FIXED + rec->u.kernel.name_len != len)
            return rerr(r, RFT_EFORMAT, "kernel name length does not match the record length");
        if (memchr(rec->u.kernel.name, 0, rec->u.kernel.name_len))  /* programs keep C strings */
            return rerr(r, RFT_EFORMAT, "kernel name contains a NUL byte");
        break;
    case RFT_WFBEGIN:
        ld_where(p, &rec->u.begin.cycle, &rec->u.begin.cu, &rec->u.begin.simd, &rec->u.begin.wf);
        rec->u.begin.nregs = ld16(p + 16);
        rec->u.begin.flags = p[18];
        rec->u.begin.wg = ld32(p + 19);
        rec->u.begin.kernel = ld32(p + 23);
        if (!rec->u.begin.nregs || rec->u.begin.nregs > r->h.geom.entries)
            return rerr(r, RFT_EFORMAT, "begin record of %u registers (rft(5): 1 to the %u entries)",
                        rec->u.begin.nregs, r->h.geom.entries);
        break;
    case RFT_WFEND:
        ld_where(p, &rec->u.end.cycle, &rec->u.end.cu, &rec->u.end.simd, &rec->u.end.wf);
        break;
    case RFT_WRITE:
        decode_write(&r->h.geom, p, &rec->w);
        if ((rec->w.flags & RFT_WF_UNIT) == RFT_WF_UNIT)   /* one unit made the result */
            return rerr(r, RFT_EFORMAT, "write record of both units, vmem and lds (flags 0x%02x)",
                        rec->w.flags);
        break;
    case RFT_READ:
        ld_where(p, &rec->u.read.cycle, &rec->u.read.cu, &rec->u.read.simd, &rec->u.read.wf);
        rec->u.read.vreg = ld16(p + 16);
        rec->u.read.phys = ld16(p + 18);
        break;
    case RFT_BUNDLE:
        if ((e = decode_bundle(r, p, &rec->u.bundle)))
            return e;
        break;
    default:
        break;
    }
    /* a well-formed unit record is a wavefront's record as a bundle is (a
     * malformed one: refused by the stages that read it, rft-replay) */
    rft_unitrec u;
    int wfrec = (kind >= RFT_WFBEGIN && kind <= RFT_BUNDLE) ||
                (kind == RFT_UNITREC && rft_unit_parse(p, len, &u) == 0);
    /* wavefront id 0xFFFFFFFF is reserved (hash maps use it as "empty") */
    if (wfrec && ld32(p + 12) == 0xFFFFFFFFu)
        return rerr(r, RFT_EFORMAT, "reserved wavefront id 4294967295");
    if (r->order && (kind <= RFT_BUNDLE || wfrec) && (e = check_order(r, rec)))
        return e;
    r->start += FRAME_HDR + len;
    r->count++;
    return 0;
}

void rft_reader_close(rft_reader *r)
{
    if (!r)
        return;
    rft_in_close(r->in);
    rft_header_free(&r->h);
    if (r->order)
        rft_map_free(&r->live);
    free(r->cu_seen);
    free(r->buf);
    free(r);
}

/* ---- writer ------------------------------------------------------------------ */
#define WBUF (256u << 10)

struct rft_writer {
    int fd;
    char *path, *tmp;         /* -o file and its temporary name */
    ZSTD_CCtx *cctx;
    uint8_t *buf;             /* raw records waiting for compression */
    size_t len, cap;
    uint8_t *zbuf;
    size_t zcap;
    int flush_each;
    int own_fd;               /* fd opened here without a temporary name */
    int failed;
    uint64_t count;
    rft_geom geom;
    char err[320];
};

static int werr(rft_writer *w, int code, const char *msg)
{
    if (!w->failed) {
        w->failed = code;
        snprintf(w->err, sizeof w->err, "%s", msg);
    }
    return w->failed;
}

static int write_all(rft_writer *w, const uint8_t *p, size_t n)
{
    while (n > 0) {
        ssize_t m = write(w->fd, p, n);
        if (m < 0) {
            if (errno == EINTR)
                continue;
            return werr(w, errno == EPIPE ? RFT_EPIPE : RFT_EIO, strerror(errno));
        }
        p += m;
        n -= (size_t)m;
    }
    return 0;
}

/* Compress everything buffered; end the frame when mode is ZSTD_e_end. */
static int compress(rft_writer *w, ZSTD_EndDirective mode)
{
    ZSTD_inBuffer in = {w->buf, w->len, 0};
    size_t left;
    do {
        ZSTD_outBuffer out = {w->zbuf, w->zcap, 0};
        left = ZSTD_compressStream2(w->cctx, &out, &in, mode);
        if (ZSTD_isError(left))
            return werr(w, RFT_EZSTD, ZSTD_getErrorName(left));
        if (out.pos && write_all(w, w->zbuf, out.pos))
            return w->failed;
    } while (mode == ZSTD_e_continue ? in.pos < in.size : left != 0);
    w->len = 0;
    return 0;
}

/* Room for n more bytes in the raw buffer. */
static uint8_t *room(rft_writer *w, size_t n)
{
    if (w->failed)
        return NULL;
    if (w->len + n > w->cap) {
        if (compress(w, w->flush_each ? ZSTD_e_flush : ZSTD_e_continue))
            return NULL;
        if (n > w->cap) {
            uint8_t *nb = realloc(w->buf, n);
            if (!nb) {
                werr(w, RFT_EMEM, "out of memory");
                return NULL;
            }
            w->buf = nb;
            w->cap = n;
        }
    }
    uint8_t *p = w->buf + w->len;
    w->len += n;
    return p;
}

static int put_header(rft_writer *w, const rft_header *h)
{
    size_t hlen = 16 + 2 + strlen(h->producer) + 2 + strlen(h->version) + 2;
    for (int i = 0; i < h->nmeta; i++)
        hlen += 4 + strlen(h->meta[i].key) + strlen(h->meta[i].val);
    uint8_t *p = room(w, 12 + hlen);
    if (!p)
        return w->failed;
    memcpy(p, RFT_MAGIC, 4);
    p[4] = RFT_FORMAT_MAJOR;
    p[5] = RFT_FORMAT_MINOR;
    st16(p + 6, RFT_BOM);
    st32(p + 8, (uint32_t)hlen);
    st32(p + 12, h->geom.lanes);
    st32(p + 16, h->geom.entries);
    st32(p + 20, h->geom.block_lanes);
    st32(p + 24, h->geom.lane_bits);
    p += 28;
    const char *strs[2] = {h->producer, h->version};
    for (int i = 0; i < 2 + 2 * h->nmeta; i++) {
        if (i == 2) {
            st16(p, (uint16_t)h->nmeta);
            p += 2;
        }
        const char *s = i < 2 ? strs[i] : (i % 2 ? h->meta[(i - 2) / 2].val : h->meta[(i - 2) / 2].key);
        size_t n = strlen(s);
        st16(p, (uint16_t)n);
        memcpy(p + 2, s, n);
        p += 2 + n;
    }
    if (h->nmeta == 0) {
        st16(p, 0);
    }
    return 0;
}

rft_writer *rft_writer_open(const char *path, const rft_header *h, const rft_writer_opts *o,
                            char *err, size_t errlen)
{
    const char *why;
    if (rft_geom_check(&h->geom, &why)) {
        snprintf(err, errlen, "%s", why);
        return NULL;
    }
    if (!h->producer || !h->version) {      /* rft_header_init could not copy them */
        snprintf(err, errlen, "out of memory");
        return NULL;
    }
    if (strlen(h->producer) > RFT_MAX_STR || strlen(h->version) > RFT_MAX_STR) {
        snprintf(err, errlen, "producer or version longer than %d bytes", RFT_MAX_STR);
        return NULL;
    }
    rft_writer *w = calloc(1, sizeof *w);
    if (!w) {
        snprintf(err, errlen, "out of memory");
        return NULL;
    }
    w->fd = -1;
    w->geom = h->geom;
    w->cap = WBUF;
    w->zcap = ZSTD_CStreamOutSize();
    w->buf = malloc(w->cap);
    w->zbuf = malloc(w->zcap);
    w->cctx = ZSTD_createCCtx();
    if (!w->buf || !w->zbuf || !w->cctx) {
        snprintf(err, errlen, "out of memory");
        goto fail;
    }
    int level = o ? o->level : RFT_DEFAULT_LEVEL;
    w->flush_each = o ? o->flush_each : 0;
    if (ZSTD_isError(ZSTD_CCtx_setParameter(w->cctx, ZSTD_c_compressionLevel, level)) ||
        ZSTD_isError(ZSTD_CCtx_setParameter(w->cctx, ZSTD_c_checksumFlag, 1))) {
        snprintf(err, errlen, "zstd level %d not supported", level);
        goto fail;
    }
    struct stat st;
    if (strcmp(path, "-") == 0) {
        w->fd = STDOUT_FILENO;
    } else if (stat(path, &st) == 0 && !S_ISREG(st.st_mode)) {
        /* a device or fifo (/dev/null, /dev/full): write to it directly */
        if ((w->fd = open(path, O_WRONLY)) < 0) {
            snprintf(err, errlen, "%s", strerror(errno));
            goto fail;
        }
        w->own_fd = 1;
    } else {
        w->path = strdup(path);
        w->tmp = rft_tmp_template(path);
        if (!w->path || !w->tmp) {
            snprintf(err, errlen, "out of memory");
            goto fail;
        }
        if ((w->fd = mkstemp(w->tmp)) < 0) {
            snprintf(err, errlen, "%s", strerror(errno));
            free(w->tmp);
            w->tmp = NULL;
            goto fail;
        }
        /* mkstemp makes the file 0600; give it the mode open(2) would */
        mode_t mask = umask(0);
        umask(mask);
        fchmod(w->fd, 0666 & ~mask);
    }
    if (put_header(w, h)) {
        snprintf(err, errlen, "%s", w->err);
        goto fail;
    }
    return w;
fail:
    rft_writer_close(w, 0, NULL, 0);
    return NULL;
}

static uint8_t *frame(rft_writer *w, int kind, uint32_t len)
{
    uint8_t *p = room(w, FRAME_HDR + len);
    if (!p)
        return NULL;
    p[0] = (uint8_t)kind;
    st32(p + 1, len);
    if (kind != RFT_END)
        w->count++;
    return p + FRAME_HDR;
}

int rft_write_raw(rft_writer *w, int kind, const void *payload, uint32_t len)
{
    if (len > RFT_MAX_RECORD)
        return werr(w, RFT_EFORMAT, "record too long");
    uint8_t *p = frame(w, kind, len);
    if (!p)
        return w->failed;
    if (len)        /* an empty record may come with no payload (NULL) */
        memcpy(p, payload, len);
    return 0;
}

int rft_write_kernel(rft_writer *w, const rft_kernel *k)
{
    uint16_t n = k->name_len;
    if (n > RFT_MAX_STR)
        return werr(w, RFT_EFORMAT, "kernel name longer than " RFT_STR(RFT_MAX_STR) " bytes");
    uint8_t *p = frame(w, RFT_KERNEL, RFT_KERNEL_FIXED + n);
    if (!p)
        return w->failed;
    st64(p, k->cycle);
    st32(p + 8, k->index);
    p[12] = k->flags;
    st16(p + 13, n);
    memcpy(p + RFT_KERNEL_FIXED, k->name, n);
    return 0;
}

int rft_write_begin(rft_writer *w, const rft_wfbegin *b)
{
    uint8_t *p = frame(w, RFT_WFBEGIN, RFT_WFBEGIN_LEN);
    if (!p)
        return w->failed;
    put_where(p, b->cycle, b->cu, b->simd, b->wf);
    st16(p + 16, b->nregs);
    p[18] = b->flags;
    st32(p + 19, b->wg);
    st32(p + 23, b->kernel);
    return 0;
}

int rft_write_end(rft_writer *w, const rft_wfend *e)
{
    uint8_t *p = frame(w, RFT_WFEND, RFT_WFEND_LEN);
    if (!p)
        return w->failed;
    put_where(p, e->cycle, e->cu, e->simd, e->wf);
    return 0;
}

int rft_write_write(rft_writer *w, const rft_write *x)
{
    uint32_t mb = rft_mask_bytes(&w->geom);
    uint8_t *p = frame(w, RFT_WRITE, rft_write_len(&w->geom));
    if (!p)
        return w->failed;
    put_where(p, x->cycle, x->cu, x->simd, x->wf);
    st16(p + 16, x->vreg);
    st16(p + 18, x->phys);
    p[20] = x->cls;
    p[21] = x->bs;
    p[22] = x->wc;
    p[23] = x->flags;
    st32(p + 24, x->c0);
    st32(p + 28, x->de);
    st32(p + 32, x->db);
    st32(p + 36, x->on_bits);
    memcpy(p + RFT_WRITE_FIXED, x->mask, mb);
    uint8_t *v = p + RFT_WRITE_FIXED + mb;
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
    memcpy(v, x->val, 4u * w->geom.lanes);
#else
    for (uint32_t i = 0; i < w->geom.lanes; i++)
        st32(v + 4 * i, x->val[i]);
#endif
    return 0;
}

int rft_write_regread(rft_writer *w, const rft_regread *x)
{
    uint8_t *p = frame(w, RFT_READ, RFT_READ_LEN);
    if (!p)
        return w->failed;
    put_where(p, x->cycle, x->cu, x->simd, x->wf);
    st16(p + 16, x->vreg);
    st16(p + 18, x->phys);
    return 0;
}

int rft_write_bundle(rft_writer *w, const rft_bundle *x)
{
    uint32_t mb = rft_mask_bytes(&w->geom);
    uint8_t *p = frame(w, RFT_BUNDLE, rft_bundle_len(&w->geom));
    if (!p)
        return w->failed;
    put_where(p, x->cycle, x->cu, x->simd, x->wf);
    p[16] = x->slots;
    p[17] = x->flags;
    memcpy(p + RFT_BUNDLE_FIXED, x->mask, mb);
    if (w->geom.lanes % 8)      /* padding bits stay zero */
        p[RFT_BUNDLE_FIXED + mb - 1] &= (uint8_t)((1u << (w->geom.lanes % 8)) - 1);
    return 0;
}

int rft_write_rec(rft_writer *w, const rft_rec *r)
{
    switch (r->kind) {
    case RFT_KERNEL: return rft_write_kernel(w, &r->u.kernel);
    case RFT_WFBEGIN: return rft_write_begin(w, &r->u.begin);
    case RFT_WFEND: return rft_write_end(w, &r->u.end);
    case RFT_WRITE: return rft_write_write(w, &r->w);
    case RFT_READ: return rft_write_regread(w, &r->u.read);
    case RFT_BUNDLE: return rft_write_bundle(w, &r->u.bundle);
    case RFT_END: return werr(w, RFT_EFORMAT, "end record written by hand");
    default: return rft_write_raw(w, r->kind, r->raw, r->len);
    }
}

int rft_writer_flush(rft_writer *w)
{
    return w->failed ? w->failed : compress(w, ZSTD_e_flush);
}

uint64_t rft_writer_count(const rft_writer *w) { return w->count; }
const char *rft_writer_tmp(const rft_writer *w) { return w->tmp; }
const char *rft_writer_error(const rft_writer *w) { return w->err; }

int rft_writer_close(rft_writer *w, int complete, char *err, size_t errlen)
{
    if (!w)
        return 0;
    if (complete && !w->failed) {
        uint8_t *p = frame(w, RFT_END, 8);
        if (p)
            st64(p, w->count);
    }
    /* an incomplete stream still ends its zstd frame cleanly: what is
     * missing is the end record, which every reader checks for */
    if (w->cctx && w->buf && w->fd >= 0 && w->failed != RFT_EPIPE && w->failed != RFT_EIO)
        compress(w, ZSTD_e_end);
    if (w->own_fd && close(w->fd) != 0 && !w->failed)
        werr(w, RFT_EIO, strerror(errno));
    if (w->tmp) {
        if (close(w->fd) != 0 && !w->failed)
            werr(w, RFT_EIO, strerror(errno));
        if (complete && !w->failed) {
            if (rename(w->tmp, w->path) != 0)
                werr(w, RFT_EIO, strerror(errno));
        } else {
            unlink(w->tmp);
        }
    }
    int ret = w->failed;
    if (ret && err)
        snprintf(err, errlen, "%s", w->err);
    ZSTD_freeCCtx(w->cctx);
    free(w->buf);
    free(w->zbuf);
    free(w->path);
    free(w->tmp);
    free(w);
    return ret;
}
