/* alloc.c - the RFT_ALLOC record and the slice allocators (see alloc.h). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "alloc.h"
#include "endian.h"

void rft_alloc_encode(uint8_t *p, const rft_alloc_rec *a)
{
    st64(p, a->cycle);
    st16(p + 8, a->cu);
    st16(p + 10, a->simd);
    st32(p + 12, a->wf);
    st16(p + 16, a->base);
    st16(p + 18, a->n);
    st16(p + 20, a->rot);
    st16(p + 22, a->nfree);
    p[24] = a->event;
    p[25] = a->flags;
    st16(p + 26, a->bank ? a->bank : 1);
}

int rft_write_alloc(rft_writer *w, const rft_alloc_rec *a)
{
    uint8_t buf[RFT_ALLOC_LEN];
    rft_alloc_encode(buf, a);
    return rft_write_raw(w, RFT_ALLOC, buf, RFT_ALLOC_LEN);
}

int rft_alloc_parse(const uint8_t *p, uint32_t len, rft_alloc_rec *a)
{
    if (len < RFT_ALLOC_MIN)
        return RFT_EFORMAT;
    a->cycle = ld64(p);
    a->cu = ld16(p + 8);
    a->simd = ld16(p + 10);
    a->wf = ld32(p + 12);
    a->base = ld16(p + 16);
    a->n = ld16(p + 18);
    a->rot = ld16(p + 20);
    a->nfree = ld16(p + 22);
    a->event = p[24];
    a->flags = p[25];
    a->bank = len >= RFT_ALLOC_LEN ? ld16(p + 26) : 1;
    if (a->bank == 0)
        return RFT_EFORMAT;
    if (a->event != RFT_ALLOC_EV_ALLOC && a->event != RFT_ALLOC_EV_FREE)
        return RFT_EFORMAT;
    if (a->n && a->rot >= a->n)
        return RFT_EFORMAT;
    return 0;
}

size_t rft_alloc_format(const rft_alloc_rec *a, char sep, char *buf)
{
    int n = snprintf(buf, RFT_ALLOC_TEXT_MAX,
                     "# alloc%ccycle=%llu%cslice=%u:%u%cwf=%u%cevent=%s%cbase=%u%cn=%u%crot=%u"
                     "%cfree=%u%cgated=%u",
                     sep, (unsigned long long)a->cycle, sep, a->cu, a->simd, sep, a->wf, sep,
                     a->event == RFT_ALLOC_EV_ALLOC ? "alloc" : "free", sep, a->base, sep, a->n,
                     sep, a->rot, sep, a->nfree, sep, (unsigned)(a->flags & RFT_AF_GATED));
    if (n >= 0 && a->bank > 1)
        n += snprintf(buf + n, RFT_ALLOC_TEXT_MAX - (size_t)n, "%cbank=%u", sep, a->bank);
    return n < 0 ? 0 : (size_t)n;
}

const char *rft_alloc_scheme_name(int scheme)
{
    switch (scheme) {
    case RFT_ALLOC_FIRSTFIT: return "first-fit";
    case RFT_ALLOC_RAR: return "rar";
    case RFT_ALLOC_ARGO: return "argo";
    default: return "unknown";
    }
}

int rft_salloc_init(rft_salloc *s, uint32_t entries, int scheme, int wrap)
{
    memset(s, 0, sizeof *s);
    if (entries < 1 || entries > RFT_MAX_ENTRIES)
        return RFT_EFORMAT;
    s->entries = entries;
    s->scheme = scheme;
    s->wrap = wrap;
    s->nfree = entries;
    s->used = calloc(entries, 1);
    s->rot = calloc(entries, sizeof *s->rot);
    s->rotn = calloc(entries, sizeof *s->rotn);
    if (!s->used || !s->rot || !s->rotn) {
        rft_salloc_destroy(s);
        return RFT_EMEM;
    }
    return 0;
}

void rft_salloc_destroy(rft_salloc *s)
{
    free(s->used);
    free(s->rot);
    free(s->rotn);
    s->used = NULL;
    s->rot = s->rotn = NULL;
}

static int ring(const rft_salloc *s) { return s->scheme == RFT_ALLOC_ARGO && s->wrap == RFT_WRAP_RING; }

/* Does a window of n entries fit at base b? */
static int fits(const rft_salloc *s, uint32_t b, uint32_t n)
{
    if (b >= s->entries || (!ring(s) && n > s->entries - b))
        return 0;
    for (uint32_t i = 0, e = b; i < n; i++, e = e + 1 == s->entries ? 0 : e + 1)
        if (s->used[e])
            return 0;
    return 1;
}

/* First base b in [from, to] (to < entries) with n free entries from b,
 * not wrapping; -1 if none. */
static long scan(const rft_salloc *s, uint32_t from, uint32_t to, uint32_t n)
{
    uint32_t run = 0;
    for (uint32_t i = from; i < s->entries; i++) {
        run = s->used[i] ? 0 : run + 1;
        if (run == n)
            return (long)(i + 1 - n);
        if (i + 1 - run > to)   /* the current run starts past to */
            break;
    }
    return -1;
}

/* ARGO ring: first base at or after head (circularly) with n free entries,
 * the window wrapping past the last entry; -1 if none. */
static long scan_ring(const rft_salloc *s, uint32_t n)
{
    uint32_t E = s->entries, run = 0;
    for (uint32_t j = s->head; j < s->head + E - 1 + n; j++) {
        run = s->used[j % E] ? 0 : run + 1;
        if (run == n)
            return (long)((j + 1 - n) % E);
    }
    return -1;
}

long rft_salloc_place(rft_salloc *s, uint32_t n, uint32_t hint, uint16_t *rot)
{
    long b;
    *rot = 0;
    if (n > s->nfree)
        return -1;
    if (n == 0)
        return s->scheme == RFT_ALLOC_ARGO ? (long)s->head : 0;
    if (hint != RFT_SALLOC_NO_HINT && hint >= s->entries && ring(s))
        hint -= s->entries;
    if (hint != RFT_SALLOC_NO_HINT && fits(s, hint, n))
        b = (long)hint;
    else if (s->scheme != RFT_ALLOC_ARGO)
        b = scan(s, 0, s->entries - 1, n);
    else if (ring(s))
        b = scan_ring(s, n);
    else if ((b = scan(s, s->head, s->entries - 1, n)) < 0 && s->head > 0)
        b = scan(s, 0, s->head - 1, n);
    if (b < 0)
        return -1;
    for (uint32_t i = 0, e = (uint32_t)b; i < n; i++, e = e + 1 == s->entries ? 0 : e + 1)
        s->used[e] = 1;
    s->nfree -= n;
    if (s->scheme == RFT_ALLOC_ARGO)
        s->head = ((uint32_t)b + n) % s->entries;
    if (s->scheme == RFT_ALLOC_RAR) {
        /* s = (s + 1) mod N on each reassignment of the window at this base;
         * a window of another size starts again at s = 0 */
        uint16_t r = s->rotn[b] == n ? (uint16_t)((s->rot[b] + 1u) % n) : 0;
        s->rot[b] = r;
        s->rotn[b] = (uint16_t)n;
        *rot = r;
    }
    return b;
}

void rft_salloc_release(rft_salloc *s, uint32_t base, uint32_t n)
{
    for (uint32_t i = 0, e = base % s->entries; i < n; i++, e = e + 1 == s->entries ? 0 : e + 1)
        if (s->used[e]) {
            s->used[e] = 0;
            s->nfree++;
        }
}

uint32_t rft_salloc_largest(const rft_salloc *s)
{
    uint32_t best = 0, run = 0, lead = 0, E = s->entries;
    if (s->nfree == E)
        return E;
    for (uint32_t i = 0; i < E; i++) {
        run = s->used[i] ? 0 : run + 1;
        if (run > best)
            best = run;
        if (run == i + 1)
            lead = run;
    }
    if (ring(s) && lead + run > best)   /* a run across the end joins the leading one */
        best = lead + run;
    return best;
}
