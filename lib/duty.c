/* duty.c - duty maps: the RFT_DUTY record, the accounting engine of
 * rft-duty(1) and the statistics of rft-vth(1); the steady state of a trace
 * run over and over is dutysteady.c, the engine's state duty_int.h.
 *
 * Accounting.  Per entry we keep its content (only the powered bits: the
 * others hold nothing), the number of powered low-order bits `on`, and the
 * clock since which both hold.  When either changes, the elapsed time goes
 * to the bits that were '1' and, if some bits were off, to the off time of
 * that power state.  Time at '1' lives in bit-sliced counters: plane k holds
 * bit k of the counters of 64 cells per word, so adding t to every cell
 * that held '1' is a ripple-carry add of the constant t over the planes, a
 * few word operations per 64 cells, never a loop over bits.  The planes are
 * also the record's encoding of time at '1', so emitting a record copies
 * them.  Switched-off time depends only on `on`, a prefix length, and is
 * kept per distinct value of `on`.  Time at '0' is what remains:
 * t0 = cycles - t1 - toff, exactly. */
#include "duty_int.h"

#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "alloc.h"
#include "dcpatch.h"
#include "endian.h"

/* ---- the record -------------------------------------------------------------- */
const char *rft_span_name(int span)
{
    switch (span) {
    case RFT_SPAN_STREAM: return "stream";
    case RFT_SPAN_SLICE: return "slice";
    case RFT_SPAN_BUSY: return "busy";
    default: return "?";
    }
}

int rft_span_parse(const char *s)
{
    for (int i = RFT_SPAN_STREAM; i <= RFT_SPAN_BUSY; i++)
        if (strcmp(s, rft_span_name(i)) == 0)
            return i;
    return 0;
}

uint32_t rft_duty_max_len(uint32_t bits)
{
    return RFT_DUTY_FIXED + 64u * (bits / 8) + 10u * bits;
}

static void put_fixed(const rft_duty_rec *d, uint8_t *buf, unsigned planes, unsigned runs)
{
    buf[0] = RFT_DUTY_VERSION;
    buf[1] = d->span;
    buf[2] = d->flags;
    buf[3] = (uint8_t)planes;
    st16(buf + 4, d->cu);
    st16(buf + 6, d->simd);
    st16(buf + 8, d->entry);
    st16(buf + 10, d->entries);
    st16(buf + 12, d->lanes);
    st16(buf + 14, (uint16_t)runs);
    st64(buf + 16, d->first);
    st64(buf + 24, d->last);
    st64(buf + 32, d->cycles);
}

/* The transpose of an 8x8 bit matrix, row r in byte r (bit c: column c). */
static inline uint64_t transpose8(uint64_t x)
{
    uint64_t t;
    t = (x ^ (x >> 7)) & 0x00AA00AA00AA00AAull;
    x ^= t ^ (t << 7);
    t = (x ^ (x >> 14)) & 0x0000CCCC0000CCCCull;
    x ^= t ^ (t << 14);
    t = (x ^ (x >> 28)) & 0x00000000F0F0F0F0ull;
    x ^= t ^ (t << 28);
    return x;
}

uint32_t rft_duty_encode(const rft_duty_rec *d, uint8_t *buf)
{
    uint64_t all = 0;
    for (uint32_t b = 0; b < d->bits; b++)
        all |= d->t1[b];
    unsigned planes = all ? 64u - (unsigned)__builtin_clzll(all) : 0;
    uint32_t row = d->bits / 8;
    uint8_t *p = buf + RFT_DUTY_FIXED;
    /* 8 planes at a time: byte i of m holds 8 bits of cell 8j+i; its
     * transpose, byte q the cells' bits of plane k0+q (as parse reads) */
    for (unsigned k0 = 0; k0 < planes; k0 += 8) {
        unsigned n = planes - k0 < 8 ? planes - k0 : 8;
        for (uint32_t j = 0; j < row; j++) {
            const uint64_t *t = d->t1 + 8u * j;
            uint64_t m = 0;
            for (unsigned i = 0; i < 8; i++)
                m |= (t[i] >> k0 & 0xff) << (8 * i);
            m = transpose8(m);
            for (unsigned q = 0; q < n; q++)
                p[(size_t)(k0 + q) * row + j] = (uint8_t)(m >> (8 * q));
        }
    }
    p += (size_t)planes * row;
    unsigned runs = 0;
    for (uint32_t i = 0; i < d->bits; runs++) {
        uint32_t j = i + 1;
        while (j < d->bits && d->toff[j] == d->toff[i])
            j++;
        st16(p, (uint16_t)(j - i));
        st64(p + 2, d->toff[i]);
        p += 10;
        i = j;
    }
    put_fixed(d, buf, planes, runs);
    return (uint32_t)(p - buf);
}

int rft_duty_parse(const uint8_t *p, uint32_t len, rft_duty_rec *d, const char **why)
{
    if (len < RFT_DUTY_FIXED)
        return *why = "duty record shorter than its fixed part", RFT_EFORMAT;
    if (p[0] != RFT_DUTY_VERSION)
        return *why = "duty record of an unknown version", RFT_EFORMAT;
    d->span = p[1];
    d->flags = p[2];
    unsigned planes = p[3], runs = ld16(p + 14);
    d->cu = ld16(p + 4);
    d->simd = ld16(p + 6);
    d->entry = ld16(p + 8);
    d->entries = ld16(p + 10);
    d->lanes = ld16(p + 12);
    d->first = ld64(p + 16);
    d->last = ld64(p + 24);
    d->cycles = ld64(p + 32);
    if (d->span < RFT_SPAN_STREAM || d->span > RFT_SPAN_BUSY)
        return *why = "duty record with an unknown span", RFT_EFORMAT;
    if (d->lanes == 0 || d->lanes > RFT_MAX_LANES || d->entries == 0 || d->entry >= d->entries)
        return *why = "duty record with an impossible geometry", RFT_EFORMAT;
    if (d->first > d->last)
        return *why = "duty record whose window ends before it starts", RFT_EFORMAT;
    d->bits = 32u * d->lanes;
    uint32_t row = d->bits / 8;
    if (planes > 64 || (uint64_t)len != RFT_DUTY_FIXED + (uint64_t)planes * row + 10ull * runs)
        return *why = "duty record of the wrong length", RFT_EFORMAT;
    memset(d->t1, 0, d->bits * sizeof *d->t1);
    p += RFT_DUTY_FIXED;
    /* 8 planes at a time: the byte j of each is a row of an 8x8 bit matrix
     * whose transpose holds 8 bits of each of the cells 8j..8j+7 */
    for (unsigned k0 = 0; k0 < planes; k0 += 8) {
        unsigned n = planes - k0 < 8 ? planes - k0 : 8;
        for (uint32_t j = 0; j < row; j++) {
            uint64_t m = 0;
            for (unsigned q = 0; q < n; q++)
                m |= (uint64_t)p[(size_t)q * row + j] << (8 * q);
            if (!m)
                continue;
            m = transpose8(m);
            for (unsigned i = 0; i < 8; i++)
                d->t1[8u * j + i] |= (m >> (8 * i) & 0xff) << k0;
        }
        p += (size_t)n * row;
    }
    uint32_t b = 0;
    for (unsigned r = 0; r < runs; r++, p += 10) {
        uint32_t n = ld16(p);
        uint64_t v = ld64(p + 2);
        if (n == 0 || n > d->bits - b || v > d->cycles)
            return *why = "malformed runs in a duty record", RFT_EFORMAT;
        while (n--)
            d->toff[b++] = v;
    }
    if (b != d->bits)
        return *why = "malformed runs in a duty record", RFT_EFORMAT;
    for (b = 0; b < d->bits; b++)
        if (d->t1[b] > d->cycles - d->toff[b])
            return *why = "duty record with more time than its window", RFT_EFORMAT;
    return 0;
}

int rft_duty_add(rft_duty_rec *a, const rft_duty_rec *b, const char **why)
{
    if (a->lanes != b->lanes || a->entries != b->entries)
        return *why = "different geometry", RFT_EFORMAT;
    if (a->span != b->span || (a->flags & RFT_DUTY_SEMANTICS) != (b->flags & RFT_DUTY_SEMANTICS))
        return *why = "different window semantics", RFT_EFORMAT;
    if (a->cycles > UINT64_MAX - b->cycles)
        return *why = "cycle counts overflow", RFT_EFORMAT;
    for (uint32_t i = 0; i < a->bits; i++) {
        a->t1[i] += b->t1[i];
        a->toff[i] += b->toff[i];
    }
    a->cycles += b->cycles;
    a->first = a->first < b->first ? a->first : b->first;
    a->last = a->last > b->last ? a->last : b->last;
    a->flags = (uint8_t)((a->flags & b->flags & RFT_DUTY_UNUSED) |
                         ((a->flags | b->flags) & ~RFT_DUTY_UNUSED));
    return 0;
}

int duty_fail(rft_duty *d, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
int duty_fail(rft_duty *d, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(d->err, sizeof d->err, fmt, ap);
    va_end(ap);
    return RFT_EFORMAT;
}

int duty_oom(rft_duty *d)
{
    snprintf(d->err, sizeof d->err, "out of memory");
    return RFT_EMEM;
}

const char *rft_duty_error(const rft_duty *d) { return d->err; }

rft_duty *rft_duty_new(const rft_geom *g, const rft_duty_opts *o)
{
    rft_duty *d = calloc(1, sizeof *d);
    if (!d)
        return NULL;
    d->o = *o;
    d->lanes = g->lanes;
    d->entries = g->entries;
    d->block_lanes = g->block_lanes;
    d->bits = 32u * g->lanes;
    d->words = (g->lanes + 1) / 2;
    d->pw = (d->words + VW - 1) / VW * VW;
    d->blk = (size_t)(BATCH + LOW) * d->pw;

    d->tmp1 = malloc((size_t)d->pw * 64 * sizeof *d->tmp1);
    d->tmp2 = malloc((size_t)d->pw * 64 * sizeof *d->tmp2);
    if (!d->tmp1 || !d->tmp2 || rft_slices_init(&d->idx)) {
        free(d->tmp1);
        free(d->tmp2);
        free(d);
        return NULL;
    }
    return d;
}

void rft_duty_free(rft_duty *d)
{
    if (!d)
        return;
    rft_mem_give(d->held);
    for (size_t i = 0; i < d->ns; i++) {
        slice *s = d->s[i];
        for (uint32_t k = 0; k < d->entries; k++) {
            free(s->e[k].hi);
            free(s->e[k].t1);
            free(s->e[k].part);
        }
        free(s->e);
        free(s->mem);
        free(s->now);
        free(s->inwin);
        free(s->bank_on);
        free(s->bn);
        free(s->br);
        free(s->own);
        free(s->tau);
        free(s);
    }
    if (d->rn) {
        free(d->rn->orb);
        free(d->rn->src);
        free(d->rn->len);
        free(d->rn->born);
        free(d->rn->t1);
        free(d->rn->toff);
        free(d->rn->enc);
        free(d->rn);
    }
    free(d->s);
    free(d->tmp1);
    free(d->tmp2);
    rft_slices_free(&d->idx);
    free(d);
}

static uint64_t clock_of(const rft_duty *d, const slice *s, uint64_t cyc)
{
    switch (d->o.span) {
    case RFT_SPAN_BUSY:
        return s->busy_acc + (s->live ? cyc - s->busy_since : 0);
    case RFT_SPAN_STREAM:
        if (d->o.window_set)
            return cyc < d->o.from ? d->o.from : cyc > d->o.to ? d->o.to : cyc;
        return cyc;
    default:
        return cyc;
    }
}

/* The state of one slice (new_slice) */
static uint64_t slice_bytes(const rft_duty *d)
{
    return sizeof(slice) + d->entries * d->blk * sizeof(uint64_t) + 64 +
           (uint64_t)d->entries * (d->pw * sizeof(uint64_t) + sizeof(ent) + 2);
}

static slice *new_slice(rft_duty *d, uint16_t cu, uint16_t simd, uint64_t cyc)
{
    if (d->ns == d->cs) {
        size_t cap = d->cs ? 2 * d->cs : 16;
        slice **n = realloc(d->s, cap * sizeof *n);
        if (!n) {
            duty_oom(d);
            return NULL;
        }
        d->s = n;
        d->cs = cap;
    }
    /* what a slice takes, checked against the limit before any of it is */
    uint64_t bytes = slice_bytes(d);
    char what[96];
    snprintf(what, sizeof what, "slice %u:%u (%u entries of %u lanes)", cu, simd, d->entries, d->lanes);
    if (rft_mem_over("rft-duty", what, d->held, bytes, d->o.max_mem, d->err, sizeof d->err) ||
        rft_mem_take("rft-duty", what, bytes, d->err, sizeof d->err))
        return NULL;
    /* calloc: a large block comes as fresh zero pages, paid for when touched */
    slice *s = calloc(1, sizeof *s);
    if (!s || !(s->mem = calloc(d->entries * d->blk * sizeof(uint64_t) + 64, 1)) ||
        !(s->now = calloc((size_t)d->entries * d->pw, sizeof *s->now)) ||
        !(s->e = calloc(d->entries, sizeof *s->e)) || !(s->inwin = calloc(d->entries, 1)) ||
        !(s->bank_on = calloc(d->entries, 1)) ||
        rft_slices_put(&d->idx, cu, simd, (uint32_t)d->ns)) {
        if (s) {
            free(s->mem);
            free(s->now);
            free(s->e);
            free(s->inwin);
            free(s->bank_on);
        }
        free(s);
        rft_mem_give(bytes);
        duty_oom(d);
        return NULL;
    }
    s->arena = (uint64_t *)(void *)(((uintptr_t)s->mem + 63) & ~(uintptr_t)63);
    s->cu = cu;
    s->simd = simd;
    s->first = s->last = cyc;
    s->start = d->o.span == RFT_SPAN_STREAM ? (d->o.window_set ? d->o.from : d->sfirst)
               : d->o.span == RFT_SPAN_SLICE ? cyc
                                             : 0;
    for (uint32_t k = 0; k < d->entries; k++) {
        s->e[k].last = s->start;
        s->e[k].on = d->bits;
    }
    d->s[d->ns++] = s;
    d->held += bytes;
    return s;
}

static inline slice *find_slice(const rft_duty *d, uint16_t cu, uint16_t simd)
{
    long i = rft_slices_find(&d->idx, cu, simd);
    return i >= 0 ? d->s[i] : NULL;
}

static slice *get_slice(rft_duty *d, uint16_t cu, uint16_t simd, uint64_t cyc)
{
    slice *s = find_slice(d, cu, simd);
    return s ? s : new_slice(d, cu, simd, cyc);
}

int duty_add_part(ent *e, uint32_t on, uint64_t t)
{
    if (t == 0)
        return 0;
    for (uint32_t i = 0; i < e->npart; i++)
        if (e->part[i].on == on) {
            e->part[i].t += t;
            return 0;
        }
    if (e->npart == e->cpart) {
        uint32_t cap = e->cpart ? 2 * e->cpart : 2;
        struct part *n = realloc(e->part, cap * sizeof *n);
        if (!n)
            return RFT_EMEM;
        e->part = n;
        e->cpart = cap;
    }
    e->part[e->npart++] = (struct part){on, t};
    return 0;
}

/* Add the planes into out[] (bits values). */
void duty_planes_to_values(const rft_duty *d, const ent *e, uint64_t *blk, uint64_t *out)
{
    /* 8 planes at a time: byte q of m holds 8 cells' bits of plane k0+q;
     * its transpose, byte i the 8 planes' bits of cell i */
    for (unsigned k0 = 0; k0 < PLANES && (k0 < LOW || e->hi); k0 += 8) {
        const uint64_t *p[8];
        uint64_t any = 0;
        for (unsigned q = 0; q < 8; q++) {
            p[q] = plane_of(d, e, blk, k0 + q);
            for (uint32_t w = 0; w < d->words; w++)
                any |= p[q][w];
        }
        if (!any)
            continue;
        for (uint32_t w = 0; w < d->words; w++)
            for (unsigned j = 0; j < 8; j++) {
                uint64_t m = 0;
                for (unsigned q = 0; q < 8; q++)
                    m |= (p[q][w] >> (8 * j) & 0xff) << (8 * q);
                if (!m)
                    continue;
                m = transpose8(m);
                uint64_t *o = out + 64u * w + 8u * j;
                for (unsigned i = 0; i < 8; i++)
                    o[i] += (m >> (8 * i) & 0xff) << k0;
            }
    }
}

/* Add the waiting contents into the bit-sliced counters: for each plane a
 * ripple-carry add of each one's duration, masked by the content, a row of
 * 64 bytes per operation.  Batching keeps a plane in cache while all of
 * them go through it; one leaves once its duration has no more bits and its
 * carries are gone.  The compiler splits the 64-byte vectors into what the
 * target has; on x86-64 Linux with GCC the function is built for AVX-512,
 * AVX2 and the baseline, and the loader picks one (about 1.4x faster on
 * AVX-512 than SSE2 on Sobel's map). */
#if defined(__GNUC__) && !defined(__clang__) && defined(__x86_64__) && defined(__linux__) && \
    !defined(__SANITIZE_THREAD__)   /* TSan instruments the resolver, which runs before it */
__attribute__((target_clones("avx512f", "avx2", "default")))
#endif
void duty_flush(const rft_duty *d, ent *e, uint64_t *blk)
{
    typedef uint64_t vec __attribute__((vector_size(8 * VW)));
    uint32_t nv = d->pw / VW, n = e->nring;
    if (!n)
        return;
    e->nring = 0;
    vec carry[BATCH][RFT_MAX_LANES / 2 / VW];
    uint8_t live[BATCH] = {0};
    for (unsigned k = 0; k < PLANES; k++) {
        vec *p = (vec *)(void *)plane_of(d, e, blk, k);
        int more = 0;
        for (uint32_t i = 0; i < n; i++) {
            const vec *m = (const vec *)(const void *)pend_of(d, blk, i);
            int tk = (e->rt[i] >> k) & 1;
            vec *cy = carry[i], any = {0};
            if (!tk && !live[i])
                continue;
            if (!live[i]) {             /* add m at this plane */
                for (uint32_t v = 0; v < nv; v++) {
                    vec a = p[v], b = m[v];
                    p[v] = a ^ b;
                    cy[v] = a & b;
                    any |= cy[v];
                }
            } else if (!tk) {           /* carries only */
                for (uint32_t v = 0; v < nv; v++) {
                    vec a = p[v], c = cy[v];
                    p[v] = a ^ c;
                    cy[v] = a & c;
                    any |= cy[v];
                }
            } else {                    /* m and the carries */
                for (uint32_t v = 0; v < nv; v++) {
                    vec a = p[v], b = m[v], c = cy[v], x = a ^ b;
                    p[v] = x ^ c;
                    cy[v] = (a & b) | (x & c);
                    any |= cy[v];
                }
            }
            uint64_t l = 0;
            for (unsigned j = 0; j < VW; j++)
                l |= any[j];
            live[i] = l != 0;
            more |= live[i];
        }
        for (uint32_t i = 0; i < n && !more; i++)
            more = e->rt[i] >> k >> 1 != 0;
        if (!more)
            break;
    }
}

/* Planes full: move them into the per-bit counts (once per 2^32 cycles). */
static int drain(const rft_duty *d, ent *e, uint64_t *blk)
{
    if (!e->t1 && !(e->t1 = calloc((size_t)d->pw * 64, sizeof *e->t1)))
        return RFT_EMEM;
    duty_planes_to_values(d, e, blk, e->t1);
    memset(plane_of(d, e, blk, 0), 0, (size_t)LOW * d->pw * sizeof *blk);
    if (e->hi)
        memset(e->hi, 0, (size_t)(PLANES - LOW) * d->pw * sizeof *blk);
    e->acc = 0;
    return 0;
}

/* Account the time since e->last, with the content and power state held. */
int duty_account(const rft_duty *d, const slice *s, ent *e, uint64_t *now, uint64_t c)
{
    uint64_t t = c - e->last;
    if (!t)
        return 0;
    e->last = c;
    if (e->on < d->bits && duty_add_part(e, e->on, t))
        return RFT_EMEM;
    if (!e->nz)
        return 0;
    uint64_t *blk = blk_of(d, s, now);
    if (e->acc + t > 0xffffffffu) {
        duty_flush(d, e, blk);
        if (drain(d, e, blk))
            return RFT_EMEM;
        if (t > 0xffffffffu) {  /* a gap of more than 2^32 cycles */
            for (uint32_t w = 0; w < d->words; w++)
                for (uint64_t x = now[w]; x; x &= x - 1)
                    e->t1[64u * w + (unsigned)__builtin_ctzll(x)] += t;
            return 0;
        }
    }
    e->acc += t;
    if (e->acc >> LOW && !e->hi) {
        size_t n = (size_t)(PLANES - LOW) * d->pw * sizeof *now;
        if (!(e->hi = aligned_alloc(64, n)))
            return RFT_EMEM;
        memset(e->hi, 0, n);
    }
    memcpy(pend_of(d, blk, e->nring), now, d->pw * sizeof *now);
    e->rt[e->nring++] = t;
    if (e->nring == BATCH)
        duty_flush(d, e, blk);
    return 0;
}

/* Steady: the entry's state is set (written, gated) at clock c; the time
 * before the first such event is the last run's, added at emit. */
static void mark(const rft_duty *d, ent *e, uint64_t c)
{
    if (d->o.steady && !e->set) {
        e->set = 1;
        e->pre = c;
        e->last = c;
    }
}

/* First allocation or write of an entry: before it the entry was on holding
 * zeros, or off when the slice gates unallocated entries (ARGO). */
static void mark(const rft_duty *d, ent *e, uint64_t c);
static int birth(const rft_duty *d, slice *s, ent *e, uint64_t c)
{
    e->born = 1;
    if (s->gated && d->o.steady) {
        mark(d, e, c);      /* switched on: a run starts it off, as the last left it */
    } else if (s->gated) {
        if (duty_add_part(e, 0, c - e->last))
            return RFT_EMEM;
        e->last = c;
    }
    return 0;
}

static inline uint64_t word_mask(uint32_t on, uint32_t w)
{
    uint32_t lo = 64u * w;
    if (on >= lo + 64)
        return ~0ull;
    if (on <= lo)
        return 0;
    return (1ull << (on - lo)) - 1;
}

static inline uint64_t lane_pair(const rft_duty *d, const rft_write *w, uint32_t k, uint32_t on)
{
    uint32_t l = 2 * k;
    uint64_t x = w->val[l] | (l + 1 < d->lanes ? (uint64_t)w->val[l + 1] << 32 : 0);
    return on == d->bits ? x : x & word_mask(on, k);
}

static int do_write(rft_duty *d, slice *s, const rft_write *w, uint32_t phys, uint64_t c)
{
    if (phys == RFT_NO_PHYS)
        return duty_fail(d, "no physical entries: run rft-alloc first");
    if (phys >= d->entries)
        return duty_fail(d, "physical entry %u out of range (slice has %u entries)", phys, d->entries);
    ent *e = &s->e[phys];
    uint64_t *now = now_of(d, s, phys);
    if (!e->born && birth(d, s, e, c))
        return duty_oom(d);
    mark(d, e, c);
    uint32_t on = w->on_bits == RFT_NO_GATE || w->on_bits > d->bits ? d->bits : w->on_bits;
#if __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
    /* fully powered (the common case): a row of `now` has the bytes of the
     * lanes, so comparing and copying are memcmp and memcpy */
    if (on == d->bits && e->on == on) {
        size_t n = (size_t)d->lanes * sizeof *w->val;
        if (memcmp(now, w->val, n) == 0)
            return 0;
        if (duty_account(d, s, e, now, c))
            return duty_oom(d);
        memcpy(now, w->val, n);
        uint64_t nz = 0;
        for (uint32_t k = 0; k < d->words; k++)
            nz |= now[k];
        e->nz = nz != 0;
        return 0;
    }
#endif
    uint64_t diff = on != e->on, nz = 0;
    for (uint32_t k = 0; k < d->words; k++) {
        uint64_t x = lane_pair(d, w, k, on);
        diff |= x ^ now[k];
        nz |= x;
    }
    if (!diff)                  /* nothing changes: the interval goes on */
        return 0;
    if (duty_account(d, s, e, now, c))
        return duty_oom(d);
    for (uint32_t k = 0; k < d->words; k++)
        now[k] = lane_pair(d, w, k, on);
    e->nz = nz != 0;
    e->on = on;
    return 0;
}

/* DC-Patch: a compressed register written into one block of an entry; the
 * block's first lanes hold its code, the others zeros, and the entry's
 * other blocks keep what they hold (rft-dcpatch(1)). */
static int do_block(rft_duty *d, slice *s, const rft_patch_rec *p, uint64_t c)
{
    ent *e = &s->e[p->entry];
    uint64_t *now = now_of(d, s, p->entry), *next = d->tmp1;
    if (!e->born && birth(d, s, e, c))
        return duty_oom(d);
    memcpy(next, now, d->pw * sizeof *now);
    uint32_t l0 = p->block * d->block_lanes;
    for (uint32_t l = l0; l < l0 + d->block_lanes && l < d->lanes; l++) {
        uint64_t v = l == l0 ? p->c0 : l == l0 + 1 ? p->code : 0, half = 32u * (l & 1);
        next[l / 2] = (next[l / 2] & ~(0xffffffffull << half)) | v << half;
    }
    uint64_t nz = 0;
    for (uint32_t k = 0; k < d->words; k++) {
        next[k] &= word_mask(e->on, k);     /* cells switched off hold nothing */
        nz |= next[k];
    }
    if (memcmp(next, now, d->words * sizeof *now) == 0)
        return 0;
    if (duty_account(d, s, e, now, c))
        return duty_oom(d);
    memcpy(now, next, d->words * sizeof *now);
    e->nz = nz != 0;
    return 0;
}

static int do_patch(rft_duty *d, const rft_rec *r)
{
    if (d->pending)
        return duty_fail(d, "a patch record of v%u follows another instead of its write", d->patch.vreg);
    if (rft_patch_parse(r->raw, r->len, &d->patch))
        return duty_fail(d, "malformed patch record");
    if (d->o.steady)
        return duty_fail(d, "steady state: DC-Patch placements are not supported (repeat the trace "
                    "with rft-repeat)");
    const rft_patch_rec *p = &d->patch;
    if (p->place != RFT_PATCH_LDS &&
        (p->entry >= d->entries ||
         (p->place == RFT_PATCH_BLOCK && p->block >= (d->lanes + d->block_lanes - 1) / d->block_lanes)))
        return duty_fail(d, "patch of v%u of wavefront %u outside the slice (entry %u, block %u)", p->vreg,
                    p->wf, p->entry, p->block);
    d->pending = 1;
    return 0;
}

/* The write a patch record placed. */
static int do_patched(rft_duty *d, slice *s, const rft_write *w, uint64_t c)
{
    const rft_patch_rec *p = &d->patch;
    d->pending = 0;
    if (p->cycle != w->cycle || p->cu != w->cu || p->simd != w->simd || p->wf != w->wf ||
        p->vreg != w->vreg)
        return duty_fail(d, "the patch record before it names v%u of wavefront %u at cycle %llu", p->vreg,
                    p->wf, (unsigned long long)p->cycle);
    switch (p->place) {
    case RFT_PATCH_ENTRY: return do_write(d, s, w, p->entry, c);
    case RFT_PATCH_BLOCK: return do_block(d, s, p, c);
    default: return 0;      /* in the LDS: no cell of the slice */
    }
}

static int do_alloc(rft_duty *d, const rft_rec *r)
{
    rft_alloc_rec a;
    if (rft_alloc_parse(r->raw, r->len, &a))
        return duty_fail(d, "malformed allocation record");
    if (!d->any)
        d->sfirst = a.cycle;
    d->any = 1;
    if (a.cycle > d->slast)
        d->slast = a.cycle;
    slice *s = get_slice(d, a.cu, a.simd, a.cycle);
    if (!s)
        return RFT_EMEM;        /* the message is new_slice's */
    if (a.cycle < s->last)
        return duty_fail(d, "cycle %llu goes back in time on slice %u:%u (last %llu)",
                    (unsigned long long)a.cycle, a.cu, a.simd, (unsigned long long)s->last);
    s->last = a.cycle;
    if (a.base >= d->entries || a.n > d->entries)
        return duty_fail(d, "window of wavefront %u (base %u, %u entries) does not fit in slice %u:%u",
                    a.wf, a.base, a.n, a.cu, a.simd);
    s->gated = a.flags & RFT_AF_GATED;
    if (s->gated && s->bank && a.bank != s->bank)
        return duty_fail(d, "slice %u:%u: banks of %u entries, then of %u", a.cu, a.simd, s->bank, a.bank);
    if (s->gated)
        s->bank = a.bank;
    if (d->o.steady) {
        int e = duty_runs_alloc(d, s, &a);
        if (e)
            return e;
    }
    uint64_t c = clock_of(d, s, a.cycle);
    for (uint32_t i = 0; i < a.n; i++) {
        uint32_t k = (a.base + i) % d->entries;
        if (!s->e[k].born && birth(d, s, &s->e[k], c))
            return duty_oom(d);
        s->inwin[k] = a.event == RFT_ALLOC_EV_ALLOC;
    }
    if (!s->gated)
        return 0;
    /* every bank the window touches: switched on (every entry powered, the
     * content lost: zeros) when one of its entries enters a window, off when
     * none is left in one; while it stays on, its entries keep their state */
    for (uint32_t i = 0; i < a.n; i++) {
        uint32_t k = (a.base + i) % d->entries;
        if (i > 0 && k % s->bank != 0)
            continue;
        uint32_t b0 = k / s->bank * s->bank, b1 = b0 + s->bank < d->entries ? b0 + s->bank : d->entries;
        uint8_t want = 0;
        for (uint32_t j = b0; j < b1 && !want; j++)
            want = s->inwin[j];
        if (want == s->bank_on[k / s->bank])
            continue;
        s->bank_on[k / s->bank] = want;
        uint32_t on = want ? d->bits : 0;
        for (uint32_t j = b0; j < b1; j++) {
            ent *e = &s->e[j];
            if (!e->born && birth(d, s, e, c))
                return duty_oom(d);
            mark(d, e, c);
            if (on == e->on)
                continue;
            uint64_t *now = now_of(d, s, j);
            if (duty_account(d, s, e, now, c))
                return duty_oom(d);
            memset(now, 0, d->pw * sizeof *now);    /* the content is lost */
            e->nz = 0;
            e->on = on;
        }
    }
    return 0;
}

int rft_duty_feed(rft_duty *d, const rft_rec *r)
{
    uint16_t cu, simd;
    switch (r->kind) {
    case RFT_WFBEGIN: cu = r->u.begin.cu; simd = r->u.begin.simd; break;
    case RFT_WFEND: cu = r->u.end.cu; simd = r->u.end.simd; break;
    case RFT_WRITE: cu = r->w.cu; simd = r->w.simd; break;
    case RFT_READ: cu = r->u.read.cu; simd = r->u.read.simd; break;
    case RFT_BUNDLE: cu = r->u.bundle.cu; simd = r->u.bundle.simd; break;
    case RFT_KERNEL: cu = simd = 0; break;
    case RFT_ALLOC: return do_alloc(d, r);
    case RFT_PATCH: return do_patch(d, r);
    case RFT_UNITREC: return 0;     /* timing (a store's unit, a wait): no register, and a
                                       map has no wavefront for it to name */
    default: return 1;
    }
    if (d->pending && r->kind != RFT_WRITE)
        return duty_fail(d, "a patch record of v%u not followed by its write", d->patch.vreg);
    uint64_t cyc = rft_rec_cycle(r);
    if (!d->any)
        d->sfirst = cyc;
    d->any = 1;
    if (cyc > d->slast)
        d->slast = cyc;
    if (r->kind == RFT_KERNEL)
        return 0;
    slice *s = get_slice(d, cu, simd, cyc);
    if (!s)
        return RFT_EMEM;        /* the message is new_slice's */
    if (cyc < s->last)
        return duty_fail(d, "cycle %llu goes back in time on slice %u:%u (last %llu)",
                    (unsigned long long)cyc, cu, simd, (unsigned long long)s->last);
    s->last = cyc;
    switch (r->kind) {
    case RFT_WFBEGIN:
        if (s->live++ == 0)
            s->busy_since = cyc;
        return 0;
    case RFT_WFEND:
        if (s->live && --s->live == 0)
            s->busy_acc += cyc - s->busy_since;
        return 0;
    case RFT_WRITE:
        if (d->pending)
            return do_patched(d, s, &r->w, clock_of(d, s, cyc));
        return do_write(d, s, &r->w, r->w.phys, clock_of(d, s, cyc));
    default:
        return 0;
    }
}

static int cmp_slice(const void *a, const void *b)
{
    const slice *x = *(slice *const *)a, *y = *(slice *const *)b;
    uint32_t kx = rft_slice_key(x->cu, x->simd), ky = rft_slice_key(y->cu, y->simd);
    return kx < ky ? -1 : kx > ky;
}

int duty_cmp_part(const void *a, const void *b)
{
    const struct part *x = a, *y = b;
    return x->on < y->on ? -1 : x->on > y->on;
}

uint64_t rft_duty_period(const rft_duty *d) { return d->rn ? d->period : 1; }

void rft_duty_span(rft_duty *d, uint64_t first, uint64_t last)
{
    if (d->any) {
        d->sfirst = first;
        d->slast = last;
    }
}

int rft_duty_finish(rft_duty *d)
{
    if (d->finished)
        return 0;
    if (d->pending)
        return duty_fail(d, "the stream ends after a patch record, before its write");
    d->finished = 1;
    if (d->ns > 1)
        qsort(d->s, d->ns, sizeof *d->s, cmp_slice);
    for (size_t i = 0; i < d->ns; i++) {
        slice *s = d->s[i];
        uint64_t end = d->o.span == RFT_SPAN_STREAM ? (d->o.window_set ? d->o.to : d->slast)
                                                    : clock_of(d, s, s->last);
        s->end = end;
        for (uint32_t k = 0; k < d->entries; k++) {
            ent *e = &s->e[k];
            if (!e->born) {     /* never allocated: off, or on holding zeros */
                if (!d->o.unused_on && !d->o.steady && duty_add_part(e, 0, end - e->last))
                    return duty_oom(d);
                e->last = end;
            } else {
                uint64_t *now = now_of(d, s, k);
                if (duty_account(d, s, e, now, end))
                    return duty_oom(d);
                duty_flush(d, e, blk_of(d, s, now));
            }
            if (e->npart > 1)
                qsort(e->part, e->npart, sizeof *e->part, duty_cmp_part);
        }
    }
    return d->o.steady ? duty_runs_finish(d) : 0;
}

size_t rft_duty_count(const rft_duty *d) { return d->ns * d->entries; }

uint32_t rft_duty_emit(const rft_duty *d, size_t i, uint8_t *buf)
{
    const slice *s = d->s[i / d->entries];
    if (d->rn && s->period > 1)
        return duty_runs_emit(d, i, buf);
    uint32_t k = (uint32_t)(i % d->entries);
    const ent *e = &s->e[k];
    uint64_t *blk = blk_of(d, s, now_of(d, s, k));
    rft_duty_rec r;
    r.span = (uint8_t)d->o.span;
    r.flags = (uint8_t)((e->born ? 0 : RFT_DUTY_UNUSED) |
                        (d->o.span == RFT_SPAN_STREAM && d->o.window_set ? RFT_DUTY_WINDOW : 0) |
                        (d->o.unused_on ? RFT_DUTY_UNUSED_ON : 0));
    r.cu = s->cu;
    r.simd = s->simd;
    r.entry = (uint16_t)k;
    r.entries = (uint16_t)d->entries;
    r.lanes = (uint16_t)d->lanes;
    if (d->o.span == RFT_SPAN_STREAM) {
        r.first = d->o.window_set ? d->o.from : d->sfirst;
        r.last = d->o.window_set ? d->o.to : d->slast;
    } else {
        r.first = s->first;
        r.last = s->last;
    }
    r.cycles = d->rn ? duty_run_len(d, s) : s->end - s->start;   /* steady: runs_still */
    r.bits = d->bits;
    if (e->t1) {                /* planes drained on the way: encode by value */
        r.t1 = d->tmp1;
        r.toff = d->tmp2;
        memcpy(r.t1, e->t1, d->bits * sizeof *r.t1);
        duty_planes_to_values(d, e, blk, r.t1);
        uint64_t acc = 0;
        for (uint32_t b = 0, p = 0; b < d->bits; b++) {
            while (p < e->npart && e->part[p].on <= b)
                acc += e->part[p++].t;
            r.toff[b] = acc;
        }
        return rft_duty_encode(&r, buf);
    }
    /* the planes are the encoding: copy the nonzero ones */
    unsigned planes = 0;
    uint32_t row = d->bits / 8;
    for (unsigned p = 0; e->born && p < PLANES && (p < LOW || e->hi); p++) {
        const uint64_t *x = plane_of(d, e, blk, p);
        uint64_t any = 0;
        for (uint32_t w = 0; w < d->words; w++)
            any |= x[w];
        if (any)
            planes = p + 1;
    }
    uint8_t *o = buf + RFT_DUTY_FIXED;
    for (unsigned p = 0; p < planes; p++, o += row) {
        const uint64_t *x = plane_of(d, e, blk, p);
        for (uint32_t w = 0; w < row / 8; w++)
            st64(o + 8 * w, x[w]);
        if (row % 8)            /* an odd number of lanes: half a word */
            st32(o + row - 4, (uint32_t)x[row / 8]);
    }
    /* off time by powered prefix: runs start at each distinct `on` */
    unsigned runs = 0;
    uint64_t acc = 0;
    uint32_t from = 0, p = 0;
    while (p < e->npart && e->part[p].on == 0)
        acc += e->part[p++].t;
    while (from < d->bits) {
        uint32_t to = p < e->npart ? e->part[p].on : d->bits;
        st16(o, (uint16_t)(to - from));
        st64(o + 2, acc);
        o += 10;
        runs++;
        from = to;
        while (p < e->npart && e->part[p].on == to)
            acc += e->part[p++].t;
    }
    put_fixed(&r, buf, planes, runs);
    return (uint32_t)(o - buf);
}

/* ---- statistics ------------------------------------------------------------------- */
static void cell(rft_duty_cell *c, const rft_duty_rec *d, uint32_t b, uint64_t t0)
{
    *c = (rft_duty_cell){d->cu, d->simd, d->entry, b, t0, d->t1[b], d->toff[b], d->cycles};
}

static void mul64(uint64_t a, uint64_t b, uint64_t *hi, uint64_t *lo)
{
    uint64_t a0 = a & 0xffffffffu, a1 = a >> 32, b0 = b & 0xffffffffu, b1 = b >> 32;
    uint64_t p00 = a0 * b0, p01 = a0 * b1, p10 = a1 * b0, p11 = a1 * b1;
    uint64_t mid = (p00 >> 32) + (p01 & 0xffffffffu) + (p10 & 0xffffffffu);
    *lo = mid << 32 | (p00 & 0xffffffffu);
    *hi = p11 + (p01 >> 32) + (p10 >> 32) + (mid >> 32);
}

/* a/b > c/dd exactly (fractions of windows; an empty window is 0) */
static int frac_gt(uint64_t a, uint64_t b, uint64_t c, uint64_t dd)
{
    if (!b)
        return 0;
    if (!dd)
        return a > 0;
    uint64_t h1, l1, h2, l2;
    mul64(a, dd, &h1, &l1);
    mul64(c, b, &h2, &l2);
    return h1 > h2 || (h1 == h2 && l1 > l2);
}

int rft_duty_stats_add(rft_duty_stats *s, const rft_duty_rec *d)
{
    return rft_duty_stats_add_blocks(s, d, 1, NULL);
}

int rft_duty_stats_add_blocks(rft_duty_stats *s, const rft_duty_rec *d, uint32_t nblocks,
                              const uint8_t *sel)
{
    uint32_t per = nblocks ? d->bits / nblocks : 0, cells = 0;
    if (!per || per * nblocks != d->bits)
        return RFT_EFORMAT;
    for (uint32_t k = 0; k < nblocks; k++)
        cells += !sel || sel[k] ? per : 0;
    if (!cells)
        return RFT_EFORMAT;
    if (s->bits && (s->bits != d->bits || s->span != d->span))
        return RFT_EFORMAT;
    if (!s->records || s->last_cu != d->cu || s->last_simd != d->simd)
        s->slices++;
    s->last_cu = d->cu;
    s->last_simd = d->simd;
    if (!s->bits || d->first < s->first)
        s->first = d->first;
    if (!s->bits || d->last > s->last)
        s->last = d->last;
    if (!s->bits || d->cycles < s->cyc_min)
        s->cyc_min = d->cycles;
    if (!s->bits || d->cycles > s->cyc_max)
        s->cyc_max = d->cycles;
    s->bits = d->bits;
    s->span = d->span;
    s->records++;
    int used = !(d->flags & RFT_DUTY_UNUSED);
    s->used += used;
    int avg = used || s->include_unused;
    s->avg_n += avg;
    s->avg_cells += avg ? cells : 0;
    rft_duty_cell *r0 = NULL, *r1 = NULL;
    if (s->reg0 && d->entry < s->nreg) {
        r0 = &s->reg0[d->entry];
        r1 = &s->reg1[d->entry];
        s->reg_used[d->entry] |= (uint8_t)used;
    }
    double inv = d->cycles ? 1.0 / (double)d->cycles : 0.0;
    uint64_t best0 = 0, best1 = 0;
    uint32_t b0 = UINT32_MAX, b1 = UINT32_MAX;
    for (uint32_t b = 0; b < d->bits; b++) {
        if (sel && !sel[b / per]) {
            b += per - 1;       /* the block is not counted */
            continue;
        }
        if (b0 == UINT32_MAX)
            b0 = b1 = b;
        uint64_t t1 = d->t1[b], toff = d->toff[b], t0 = d->cycles - t1 - toff;
        if (avg) {
            double f0 = (double)t0 * inv, f1 = (double)t1 * inv, fo = (double)toff * inv;
            s->s0 += f0;
            s->s1 += f1;
            s->soff += fo;
            s->sstress += f0 > f1 ? f0 : f1;
            if (s->bit0) {
                s->bit0[b] += f0;
                s->bit1[b] += f1;
                s->bitoff[b] += fo;
            }
        }
        /* the record's cells share one window: compare times, not fractions */
        if (t0 > best0)
            best0 = t0, b0 = b;
        if (t1 > best1)
            best1 = t1, b1 = b;
    }
    /* the first cell of the record with the longest time, if it beats the
     * longest so far (exact fractions of possibly different windows) */
    uint64_t c0 = d->cycles - d->t1[b0] - d->toff[b0], c1 = d->cycles - d->t1[b1] - d->toff[b1];
    if (!s->have_max || frac_gt(best0, d->cycles, s->max0.t0, s->max0.cycles))
        cell(&s->max0, d, b0, c0);
    if (!s->have_max || frac_gt(best1, d->cycles, s->max1.t1, s->max1.cycles))
        cell(&s->max1, d, b1, c1);
    s->have_max = 1;
    if (r0) {
        if (!r0->cycles || frac_gt(best0, d->cycles, r0->t0, r0->cycles))
            cell(r0, d, b0, c0);
        if (!r1->cycles || frac_gt(best1, d->cycles, r1->t1, r1->cycles))
            cell(r1, d, b1, c1);
    }
    return 0;
}

/* ---- counters ----------------------------------------------------------------------- */
int rft_counter_set_add(rft_counter_set *s, const rft_counters *c)
{
    rft_counters *t = NULL;
    for (size_t i = 0; i < s->n && !t; i++)
        if (strcmp(s->c[i]->stage, c->stage) == 0 && strcmp(s->c[i]->scope, c->scope) == 0)
            t = s->c[i];
    if (!t) {
        if (s->n == s->cap) {
            size_t cap = s->cap ? 2 * s->cap : 8;
            rft_counters **n = realloc(s->c, cap * sizeof *n);
            if (!n)
                return RFT_EMEM;
            s->c = n;
            s->cap = cap;
        }
        if (!(t = calloc(1, sizeof *t)))
            return RFT_EMEM;
        memcpy(t->stage, c->stage, sizeof t->stage);
        memcpy(t->scope, c->scope, sizeof t->scope);
        s->c[s->n++] = t;
    }
    for (int i = 0; i < c->n; i++)
        if (rft_counters_merge(t, c->name[i], c->value[i]))
            return RFT_EFORMAT;
    return 0;
}

static int cmp_counters(const void *a, const void *b)
{
    const rft_counters *x = *(rft_counters *const *)a, *y = *(rft_counters *const *)b;
    int c = strcmp(x->stage, y->stage);
    return c ? c : strcmp(x->scope, y->scope);
}

void rft_counter_set_sort(rft_counter_set *s)
{
    if (s->n)
        qsort(s->c, s->n, sizeof *s->c, cmp_counters);
}

void rft_counter_set_free(rft_counter_set *s)
{
    for (size_t i = 0; i < s->n; i++)
        free(s->c[i]);
    free(s->c);
    s->c = NULL;
    s->n = s->cap = 0;
}

/* ---- the stage (rft-duty) ------------------------------------------------------- */
typedef struct duty_stage {
    rft_stage st;
    rft_duty_opts o;
    int summary;
    rft_duty *d;
    rft_geom geom;
    rft_counter_set cs;             /* counters records: added up, emitted after the map */
    rft_counters cnt;
    rft_duty_rec dr;                /* a record of the map, parsed back for the summary */
    uint8_t *buf;
    rft_duty_row *rows;
    size_t nrows;
    uint8_t cbuf[RFT_COUNTERS_MAX];
} duty_stage;

/* runs=steady (rft-alloc --runs): the allocator from alloc=scheme=... wrap=... */
static int runs_opts(rft_duty_opts *o, const rft_header *in, char *why, size_t len)
{
    const char *runs = rft_header_get(in, "runs"), *al = rft_header_get(in, "alloc");
    if (!runs || strcmp(runs, "steady") != 0)
        return 0;
    static const char *const name[] = {"first-fit", "rar", "argo"};
    o->steady = 1;
    for (int i = 0; al && i < 3 && !o->alloc_scheme; i++) {
        size_t n = strlen(name[i]);
        const char *p = strstr(al, "scheme=");
        if (p && strncmp(p + 7, name[i], n) == 0 && (p[7 + n] == ' ' || !p[7 + n]))
            o->alloc_scheme = i + 1;
    }
    o->alloc_ring = al && !strstr(al, "wrap=restart");
    if (!o->alloc_scheme) {
        /* the header's value is quoted whole, or named by its length if the
         * message cannot hold it (a header value may be RFT_MAX_STR bytes) */
        if (al && strlen(al) + 80 > len)
            snprintf(why, len, "runs=steady: the windows were not placed by rft-alloc "
                               "(alloc: a value of %zu bytes)", strlen(al));
        else
            snprintf(why, len, "runs=steady: the windows were not placed by rft-alloc (alloc=%s)",
                     al ? al : "none");
        return RFT_EFORMAT;
    }
    return 0;
}

static int ds_start(rft_stage *st, const rft_header *in, rft_header *out)
{
    duty_stage *s = (duty_stage *)st;
    char win[64];
    snprintf(win, sizeof win, "%llu:%llu", (unsigned long long)s->o.from, (unsigned long long)s->o.to);
    if (rft_header_set(out, "duty.span", rft_span_name(s->o.span)) ||
        rft_header_set(out, "duty.unused", s->o.unused_on ? "on" : "off") ||
        (s->o.window_set && rft_header_set(out, "duty.window", win)))
        return rft_stage_fail(st, RFT_EFORMAT, "header: too much metadata");
    if (in->geom.lane_bits != 32)
        return rft_stage_fail(st, RFT_EFORMAT, "%u bits per lane: only 32 is supported",
                              in->geom.lane_bits);
    s->geom = in->geom;
    if (runs_opts(&s->o, in, st->why, sizeof st->why))
        return RFT_EFORMAT;
    uint32_t bits = 32u * in->geom.lanes;
    s->o.max_mem = st->mem_max;
    if (!(s->d = rft_duty_new(&in->geom, &s->o)) || !(s->buf = malloc(rft_duty_max_len(bits))) ||
        !(s->dr.t1 = malloc(bits * sizeof *s->dr.t1)) ||
        !(s->dr.toff = malloc(bits * sizeof *s->dr.toff)))
        return rft_stage_fail(st, RFT_EMEM, "out of memory");
    /* the header's geometry alone: a slice over the budget is refused now */
    char what[96];
    snprintf(what, sizeof what, "header: one slice (%u entries of %u lanes)", in->geom.entries,
             in->geom.lanes);
    return rft_stage_fits(st, slice_bytes(s->d), what);
}

static int ds_feed(rft_stage *st, rft_rec *rec, const rft_sink *out)
{
    duty_stage *s = (duty_stage *)st;
    int e;
    if (rec->kind == RFT_COUNTERS) {
        if (rft_counters_parse(rec->raw, rec->len, &s->cnt))
            return rft_stage_fail(st, RFT_EFORMAT, "malformed counters record");
        if ((e = rft_counter_set_add(&s->cs, &s->cnt)))
            return rft_stage_fail(st, e, "%s", e == RFT_EMEM ? "out of memory" : "too many counters");
        return 0;
    }
    if (rec->kind == RFT_DUTY)
        return rft_stage_fail(st, RFT_EFORMAT, "the input is a duty map already (rft-merge(1) adds maps)");
    if ((e = rft_duty_feed(s->d, rec)) < 0)
        return rft_stage_fail(st, e, "%s", rft_duty_error(s->d));
    return e == 1 ? out->put(out->ctx, rec) : 0;    /* a kind we do not know: passed on */
}

static int ds_finish(rft_stage *st, const rft_sink *out)
{
    duty_stage *s = (duty_stage *)st;
    int e;
    uint64_t first = 0, last = 0;
    /* a shard's runs and stream span are the whole input's */
    if (st->whole && rft_whole_span(st->whole, RFT_KERNEL, RFT_BUNDLE, &first, &last))
        rft_duty_span(s->d, first, last);
    if ((e = rft_duty_finish(s->d)))
        return rft_stage_fail(st, e, "%s", rft_duty_error(s->d));
    /* the map, by slice and entry; the summary's statistics on the way */
    size_t nrec = rft_duty_count(s->d), nent = s->geom.entries;
    if (s->summary && !(s->rows = calloc(nrec / nent + 1, sizeof *s->rows)))
        return rft_stage_fail(st, RFT_EMEM, "out of memory");
    for (size_t i = 0; i < nrec; i++) {
        uint32_t len = rft_duty_emit(s->d, i, s->buf);
        if ((e = rft_sink_raw(out, RFT_DUTY, s->buf, len)))
            return e;
        if (!s->summary)
            continue;
        const char *why;
        if (rft_duty_parse(s->buf, len, &s->dr, &why))
            return rft_stage_fail(st, RFT_EFORMAT, "%s", why);    /* cannot happen: our own encoding */
        if (i % nent == 0)
            snprintf(s->rows[s->nrows++].name, sizeof s->rows[0].name, "%u:%u", s->dr.cu, s->dr.simd);
        rft_duty_stats_add(&s->rows[s->nrows - 1].st, &s->dr);
        rft_duty_stats_add(&s->rows[nrec / nent].st, &s->dr);
    }
    if (s->summary)
        snprintf(s->rows[s->nrows++].name, sizeof s->rows[0].name, "all");
    rft_counter_set_sort(&s->cs);
    for (size_t i = 0; i < s->cs.n; i++)
        if ((e = rft_sink_raw(out, RFT_COUNTERS, s->cbuf, rft_counters_encode(s->cs.c[i], s->cbuf))))
            return e;
    return 0;
}

static void ds_free(rft_stage *st)
{
    duty_stage *s = (duty_stage *)st;
    rft_duty_free(s->d);
    rft_counter_set_free(&s->cs);
    free(s->buf);
    free(s->dr.t1);
    free(s->dr.toff);
    free(s->rows);
    free(s);
}

static const rft_stage_ops duty_ops = {"rft-duty", ds_start, ds_feed, ds_finish, ds_free, 1};

rft_stage *rft_duty_stage_new(const rft_duty_opts *o, int summary)
{
    duty_stage *s = rft_stage_alloc(sizeof *s, &duty_ops);
    if (!s)
        return NULL;
    s->o = *o;
    s->summary = summary;
    return &s->st;
}

const rft_duty_row *rft_duty_stage_rows(const rft_stage *st, size_t *n)
{
    const duty_stage *s = (const duty_stage *)st;
    *n = s->nrows;
    return s->rows;
}
