/* alloc.c - the RFT_ALLOC record and the slice allocators (see alloc.h). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "alloc.h"
#include "endian.h"
#include "grow.h"

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

/* ---- the stage ---------------------------------------------------------------- */
#define NONE UINT32_MAX

typedef struct {            /* a slice seen in the stream */
    uint16_t cu, simd;
    rft_salloc a;
    uint32_t *groups, ngroups, gcap;  /* live work-groups (work-group granularity) */
} slice;

typedef struct {            /* a window: of a live wavefront, or held by its work-group */
    uint32_t slice, group, next, wf, kernel;
    uint16_t base, n, rot;
} window;

typedef struct {            /* a work-group instance on a slice */
    uint32_t kernel, wg;
    uint32_t live;          /* wavefronts that have not ended */
    uint32_t first, last;   /* its windows, in placement order */
} group;

typedef struct alloc {
    rft_stage st;
    rft_alloc_opts o;
    rft_geom geom;
    char meta[96];                  /* the header's alloc= (rft_alloc_describe) */
    rft_occ *occ;
    rft_slices slice_of;            /* index in slices[] */
    rft_map wave_of;                /* wavefront key -> waves[] */
    slice *slices;
    uint32_t nslices, cslices;
    uint64_t occ_held;              /* rft_occ_bytes counted (rft_stage_reserve) */
    window *waves;
    uint32_t nwaves, wcap, wfree;   /* wfree: free list through window.next */
    group *groups;
    uint32_t ngr, grcap, grfree;    /* grfree: free list through group.first */
    uint8_t buf[RFT_ALLOC_LEN];
} alloc;

static int oom(alloc *a) { return rft_stage_fail(&a->st, RFT_EMEM, "out of memory"); }

/* Array p of *cap elements of size sz, grown (doubling, from first) to
 * hold element n; NULL when out of memory (p is left as it was). */
static void *reserve(void *p, uint32_t *cap, uint32_t n, size_t sz, uint32_t first)
{
    return rft_grow_to(&p, cap, (uint64_t)n + 1, sz, first) ? NULL : p;
}

static slice *slice_get(alloc *a, uint16_t cu, uint16_t simd)
{
    long i = rft_slices_find(&a->slice_of, cu, simd);
    if (i >= 0)
        return &a->slices[i];
    if (a->nslices == 1u << 20) {
        rft_stage_fail(&a->st, RFT_EFORMAT, "more than %u slices", 1u << 20);
        return NULL;
    }
    /* the allocator's arrays: used, rot, rotn */
    if (rft_stage_reserve_slice(&a->st, sizeof(slice) + (uint64_t)a->geom.entries * 5, NULL, cu, simd,
                                a->geom.entries))
        return NULL;
    if (rft_grow((void **)&a->slices, a->nslices, &a->cslices, sizeof *a->slices, 16))
        goto fail;
    slice *s = memset(&a->slices[a->nslices], 0, sizeof *s);
    s->cu = cu;
    s->simd = simd;
    if (rft_salloc_init(&s->a, a->geom.entries, a->o.scheme, a->o.wrap))
        goto fail;
    if (rft_slices_put(&a->slice_of, cu, simd, a->nslices)) {
        rft_salloc_destroy(&s->a);
        goto fail;
    }
    return &a->slices[a->nslices++];
fail:
    oom(a);
    return NULL;
}

static uint32_t wave_new(alloc *a)
{
    if (a->wfree != NONE) {
        uint32_t i = a->wfree;
        a->wfree = a->waves[i].next;
        return i;
    }
    window *w = reserve(a->waves, &a->wcap, a->nwaves, sizeof *w, 64);
    if (!w)
        return NONE;
    a->waves = w;
    return a->nwaves++;
}

static void wave_drop(alloc *a, uint32_t i)
{
    a->waves[i].next = a->wfree;
    a->wfree = i;
}

/* The live work-group (kernel, wg) of slice s, created if absent; NONE
 * when out of memory. */
static uint32_t group_get(alloc *a, slice *s, uint32_t kernel, uint32_t wg)
{
    if (wg != RFT_NO_WG)
        for (uint32_t k = 0; k < s->ngroups; k++) {
            group *gr = &a->groups[s->groups[k]];
            if (gr->kernel == kernel && gr->wg == wg)
                return s->groups[k];
        }
    uint32_t *live = reserve(s->groups, &s->gcap, s->ngroups, sizeof *live, 8), i;
    if (!live)
        return NONE;
    s->groups = live;
    if (a->grfree != NONE) {
        i = a->grfree;
        a->grfree = a->groups[i].first;
    } else {
        group *gs = reserve(a->groups, &a->grcap, a->ngr, sizeof *gs, 16);
        if (!gs)
            return NONE;
        a->groups = gs;
        i = a->ngr++;
    }
    a->groups[i] = (group){kernel, wg, 0, NONE, NONE};
    s->groups[s->ngroups++] = i;
    return i;
}

static void group_drop(alloc *a, slice *s, uint32_t i)
{
    for (uint32_t k = 0; k < s->ngroups; k++)
        if (s->groups[k] == i) {
            s->groups[k] = s->groups[--s->ngroups];
            break;
        }
    a->groups[i].first = a->grfree;
    a->grfree = i;
}

/* A window placed or freed: its record, the occupancy, the caller's hook. */
static int event(alloc *a, const slice *s, const window *wv, uint64_t cycle, int ev,
                 const rft_sink *out)
{
    rft_alloc_rec r = {cycle, s->cu, s->simd, wv->wf, wv->base, wv->n, wv->rot,
                       (uint16_t)s->a.nfree, (uint8_t)ev,
                       a->o.scheme == RFT_ALLOC_ARGO ? RFT_AF_GATED : 0, (uint16_t)a->o.bank};
    rft_alloc_encode(a->buf, &r);
    int e = rft_sink_raw(out, RFT_ALLOC, a->buf, RFT_ALLOC_LEN);
    if (e)
        return e;
    if (a->occ && rft_occ_window(a->occ, s->cu, s->simd, wv->kernel, cycle, wv->base, wv->n,
                                 ev == RFT_ALLOC_EV_ALLOC, r.flags & RFT_AF_GATED))
        return oom(a);
    if (a->o.on_event)
        a->o.on_event(a->o.event_ctx, &r);
    return 0;
}

static int begin(alloc *a, const rft_wfbegin *b, const rft_sink *out)
{
    uint64_t key = rft_wf_key(b->cu, b->simd, b->wf);
    if (rft_map_get(&a->wave_of, key))
        return rft_stage_fail(&a->st, RFT_EFORMAT,
                              "wavefront %u begins again on slice (%u,%u) before its end", b->wf,
                              b->cu, b->simd);
    slice *s = slice_get(a, b->cu, b->simd);
    if (!s)
        return RFT_EFORMAT;
    uint32_t gi = NONE, hint = RFT_SALLOC_NO_HINT;
    if (a->o.by_group) {
        if ((gi = group_get(a, s, b->kernel, b->wg)) == NONE)
            return oom(a);
        const group *gr = &a->groups[gi];
        if (gr->last != NONE)
            hint = (uint32_t)a->waves[gr->last].base + a->waves[gr->last].n;
    }
    uint16_t rot;
    long base = rft_salloc_place(&s->a, b->nregs, hint, &rot);
    if (base < 0)
        return rft_stage_fail(&a->st, RFT_EFORMAT,
                              "window of %u registers of wavefront %u does not fit in slice (%u,%u) "
                              "at cycle %llu (%u free entries, largest free run %u)",
                              b->nregs, b->wf, b->cu, b->simd, (unsigned long long)b->cycle,
                              s->a.nfree, rft_salloc_largest(&s->a));
    uint32_t i = wave_new(a);
    if (i == NONE || rft_map_put(&a->wave_of, key, i))
        return oom(a);
    window *wv = &a->waves[i];
    *wv = (window){(uint32_t)(s - a->slices), gi, NONE, b->wf, b->kernel, (uint16_t)base, b->nregs, rot};
    if (gi != NONE) {
        group *gr = &a->groups[gi];
        if (gr->last == NONE)
            gr->first = i;
        else
            a->waves[gr->last].next = i;
        gr->last = i;
        gr->live++;
    }
    return event(a, s, wv, b->cycle, RFT_ALLOC_EV_ALLOC, out);
}

static int release(alloc *a, slice *s, uint32_t i, uint64_t cycle, const rft_sink *out)
{
    window *wv = &a->waves[i];
    rft_salloc_release(&s->a, wv->base, wv->n);
    int e = event(a, s, wv, cycle, RFT_ALLOC_EV_FREE, out);
    wave_drop(a, i);
    return e;
}

/* The E record is already out: free window i, or all its work-group's
 * once the group's last wavefront has ended. */
static int end(alloc *a, uint64_t cycle, uint32_t i, const rft_sink *out)
{
    window *wv = &a->waves[i];
    slice *s = &a->slices[wv->slice];
    if (wv->group == NONE)
        return release(a, s, i, cycle, out);
    uint32_t gi = wv->group;
    if (--a->groups[gi].live)
        return 0;
    int e = 0;
    for (uint32_t k = a->groups[gi].first, next; k != NONE && !e; k = next) {
        next = a->waves[k].next;
        e = release(a, s, k, cycle, out);
    }
    group_drop(a, s, gi);
    return e;
}

/* The window of the wavefront a write or read names; NULL (failed) if none
 * or the register is outside it. */
static const window *window_of(alloc *a, uint16_t cu, uint16_t simd, uint32_t wf, uint16_t vreg,
                               const char *what)
{
    uint64_t *v = rft_map_get(&a->wave_of, rft_wf_key(cu, simd, wf));
    if (!v) {
        rft_stage_fail(&a->st, RFT_EFORMAT,
                       "%s of wavefront %u on slice (%u,%u), which has no window (no begin record)",
                       what, wf, cu, simd);
        return NULL;
    }
    const window *wv = &a->waves[*v];
    if (vreg >= wv->n) {
        rft_stage_fail(&a->st, RFT_EFORMAT,
                       "%s of register v%u outside the window of %u registers of wavefront %u", what,
                       vreg, wv->n, wf);
        return NULL;
    }
    return wv;
}

static uint16_t phys(const alloc *a, const window *wv, uint16_t vreg)
{
    return (uint16_t)rft_window_phys(a->geom.entries, wv->base, wv->n, wv->rot, vreg);
}

/* A record of a live wavefront: its kernel runs on the slice (occupancy).
 * What a new slice or kernel span took counts against the stage's limit
 * (past it by one span at most: a few bytes per bank). */
static int ran(alloc *a, uint16_t cu, uint16_t simd, uint32_t kernel, uint64_t cycle)
{
    if (!a->occ)
        return 0;
    if (rft_occ_record(a->occ, cu, simd, kernel, cycle))
        return oom(a);
    uint64_t held = rft_occ_bytes(a->occ);
    if (held == a->occ_held)
        return 0;
    if (rft_stage_reserve_slice(&a->st, held - a->occ_held, "--util on", cu, simd, a->geom.entries))
        return RFT_EMEM;
    a->occ_held = held;
    return 0;
}

void rft_alloc_opts_default(rft_alloc_opts *o)
{
    memset(o, 0, sizeof *o);
    o->scheme = RFT_ALLOC_FIRSTFIT;
    o->wrap = RFT_WRAP_RING;
    o->bank = 1;
}

int rft_alloc_opts_check(const rft_alloc_opts *o, const rft_geom *g, char *why, size_t len)
{
    if (o->bank > g->entries) {
        snprintf(why, len, "--bank: %u entries is more than the %u of a slice", o->bank, g->entries);
        return RFT_EFORMAT;
    }
    for (int j = 0; j < o->nbanks; j++)
        if (o->banks[j] > g->entries) {
            snprintf(why, len, "--banks: %u entries is more than the %u of a slice", o->banks[j],
                     g->entries);
            return RFT_EFORMAT;
        }
    return 0;
}

static int start(rft_stage *st, const rft_header *in, rft_header *out)
{
    alloc *a = (alloc *)st;
    a->geom = in->geom;
    if (rft_alloc_opts_check(&a->o, &a->geom, st->why, sizeof st->why))
        return RFT_EFORMAT;
    if (a->o.steady && a->o.scheme == RFT_ALLOC_ARGO && a->o.wrap != RFT_WRAP_RING)
        return rft_stage_fail(st, RFT_EFORMAT, "--runs steady: ARGO with --wrap restart does not "
                              "repeat as a rotation of the slice");
    char *meta = a->meta, bank[24] = "";
    if (a->o.bank > 1)
        snprintf(bank, sizeof bank, " bank=%u", a->o.bank);
    snprintf(meta, sizeof a->meta, "scheme=%s granularity=%s%s%s", rft_alloc_scheme_name(a->o.scheme),
             a->o.by_group ? "work-group" : "wavefront",
             a->o.scheme != RFT_ALLOC_ARGO      ? ""
             : a->o.wrap == RFT_WRAP_RING ? " wrap=ring"
                                          : " wrap=restart",
             bank);
    if (rft_header_set(out, "alloc", meta) ||
        ((a->o.steady || rft_header_get(in, "runs")) &&
         rft_header_set(out, "runs", a->o.steady ? "steady" : "once")))
        return rft_stage_fail(st, RFT_EFORMAT, "header: more than %d metadata keys", RFT_MAX_META);
    if (!a->o.occupancy)
        return 0;
    /* by default banks of 1, 2, 4 and 8 KB (seed 004 Table 3): at least an
     * entry, at most the slice */
    uint32_t entry_bytes = a->geom.lanes * 4;
    for (uint32_t kb = 1, given = a->o.nbanks > 0; !given && kb <= 8; kb *= 2) {
        uint32_t n = kb * 1024 / entry_bytes;
        n = n < 1 ? 1 : n > a->geom.entries ? a->geom.entries : n;
        if (!a->o.nbanks || n != a->o.banks[a->o.nbanks - 1])
            a->o.banks[a->o.nbanks++] = n;
    }
    if (!(a->occ = rft_occ_new(a->geom.entries, a->o.banks, a->o.nbanks)))
        return oom(a);
    return 0;
}

static int feed(rft_stage *st, rft_rec *rec, const rft_sink *out)
{
    alloc *a = (alloc *)st;
    const window *wv;
    uint64_t *v;
    int e;
    switch (rec->kind) {
    case RFT_KERNEL:
        if (a->occ && rft_occ_kernel(a->occ, rec->u.kernel.index, rec->u.kernel.name,
                                     rec->u.kernel.name_len))
            return rft_stage_fail(st, RFT_EMEM, "out of memory (kernel %u)", rec->u.kernel.index);
        break;
    case RFT_WFBEGIN: {
        rft_wfbegin b = rec->u.begin;   /* the next stage may change rec */
        if ((e = out->put(out->ctx, rec)))
            return e;
        return begin(a, &b, out);
    }
    case RFT_WFEND: {
        rft_wfend x = rec->u.end;
        uint64_t key = rft_wf_key(x.cu, x.simd, x.wf);
        if (!(v = rft_map_get(&a->wave_of, key)))
            return rft_stage_fail(st, RFT_EFORMAT,
                                  "end of wavefront %u on slice (%u,%u), which has no window "
                                  "(no begin record)", x.wf, x.cu, x.simd);
        uint32_t i = (uint32_t)*v;
        rft_map_del(&a->wave_of, key);
        if ((e = ran(a, x.cu, x.simd, a->waves[i].kernel, x.cycle)) ||
            (e = out->put(out->ctx, rec)))
            return e;
        return end(a, x.cycle, i, out);
    }
    case RFT_WRITE:
        if (!(wv = window_of(a, rec->w.cu, rec->w.simd, rec->w.wf, rec->w.vreg, "write")))
            return RFT_EFORMAT;
        rec->w.phys = phys(a, wv, rec->w.vreg);
        if ((e = ran(a, rec->w.cu, rec->w.simd, wv->kernel, rec->w.cycle)))
            return e;
        break;
    case RFT_READ: {
        rft_regread *x = &rec->u.read;
        if (!(wv = window_of(a, x->cu, x->simd, x->wf, x->vreg, "read")))
            return RFT_EFORMAT;
        x->phys = phys(a, wv, x->vreg);
        if ((e = ran(a, x->cu, x->simd, wv->kernel, x->cycle)))
            return e;
        break;
    }
    case RFT_BUNDLE: {
        const rft_bundle *x = &rec->u.bundle;
        if ((v = rft_map_get(&a->wave_of, rft_wf_key(x->cu, x->simd, x->wf))) &&
            (e = ran(a, x->cu, x->simd, a->waves[*v].kernel, x->cycle)))
            return e;
        break;
    }
    case RFT_ALLOC:
        return 0;       /* an earlier placement: replaced by ours */
    }
    return out->put(out->ctx, rec);
}

static int finish(rft_stage *st, const rft_sink *out)
{
    alloc *a = (alloc *)st;
    if (a->occ)
        rft_occ_finish(a->occ);
    return 0;
}

static void alloc_free(rft_stage *st)
{
    alloc *a = (alloc *)st;
    for (uint32_t i = 0; i < a->nslices; i++) {
        rft_salloc_destroy(&a->slices[i].a);
        free(a->slices[i].groups);
    }
    free(a->slices);
    free(a->waves);
    free(a->groups);
    rft_slices_free(&a->slice_of);
    rft_map_free(&a->wave_of);
    rft_occ_free(a->occ);
    free(a);
}

static const rft_stage_ops ops = {"rft-alloc", start, feed, finish, alloc_free, 0};

rft_stage *rft_alloc_new(const rft_alloc_opts *o)
{
    alloc *a = rft_stage_alloc(sizeof *a, &ops);
    if (!a)
        return NULL;
    a->o = *o;
    a->wfree = a->grfree = NONE;
    if (rft_slices_init(&a->slice_of) || rft_map_init(&a->wave_of, 256)) {
        alloc_free(&a->st);
        return NULL;
    }
    return &a->st;
}

const rft_geom *rft_alloc_geom(const rft_stage *s) { return &((const alloc *)s)->geom; }
const rft_occ *rft_alloc_occupancy(const rft_stage *s) { return ((const alloc *)s)->occ; }
const char *rft_alloc_describe(const rft_stage *s) { return ((const alloc *)s)->meta; }
const rft_alloc_opts *rft_alloc_options(const rft_stage *s) { return &((const alloc *)s)->o; }
