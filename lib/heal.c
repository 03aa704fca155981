/* heal.c - PE and SC healing of seed 003: stress profile of a trace, duty
 * cycles under healing, dVth over time, redundant work-items and the
 * run-time replay of SC healing.  See heal.h. */
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "heal.h"

#define MAX_NSC 64                  /* degraded sets are 64-bit masks */

typedef struct {                    /* a wavefront alive */
    uint64_t group;                 /* index + 1 in the group pool */
    uint64_t begin;
    uint32_t lanes;                 /* most active lanes seen: its work-items */
} wave;

typedef struct {                    /* a work-group alive (or waiting to be replayed) */
    uint64_t key;
    uint32_t slice;
    uint64_t start, end;
    uint32_t wi, nwf, ended;
    uint16_t nregs;
    uint64_t instr_b, instr_w;      /* bundles and writes of its wavefronts */
    uint64_t wfdur;                 /* sum of its wavefronts' durations */
    uint32_t next;                  /* next in its slice's queue, index + 1 */
} group;

typedef struct {                    /* replay of one scenario on one slice */
    uint64_t *end;                  /* running units: end cycle and slots */
    uint32_t *slots;
    uint32_t n, used;
    uint64_t last_start, makespan;
    double extra_b, extra_w;        /* instructions of the extra wavefronts */
} replay;

typedef struct {
    uint64_t *sc_b, *sc_w;          /* SC busy cycles from bundles, from writes */
    uint32_t qhead, qtail;          /* queue of groups in start order, index + 1 */
    uint64_t first_release;
    int released;
    uint64_t instr_b, instr_w;
    replay *rp;                     /* [sweep + 1] */
} slice_state;

struct rft_heal {
    rft_geom g;
    rft_heal_opts o;
    uint32_t nsc, quarters;
    uint8_t full[RFT_MAX_LANES / 8];    /* the exec mask of every lane */
    rft_slices slice_ix;            /* index in sl */
    rft_heal_slice *sl;
    slice_state *ss;
    size_t nsl, csl;
    size_t *order;                  /* slices sorted by cu, simd */
    uint64_t first, last;
    int any, source;
    uint64_t shapes[RFT_HEAL_SHAPES], bundles;
    rft_map wfs;                    /* wf key -> index + 1 in waves */
    wave *waves;
    size_t nwaves, cwaves, *wfree, nwfree;
    rft_map gix;                    /* group key -> index + 1 in groups */
    group *groups;
    size_t ngroups, cgroups, *gfree, ngfree;
    uint64_t done_groups;
    uint32_t gmax, gmin;
    struct { size_t slice; uint64_t mask; } *rest;  /* SC healing: resting SCs per slice */
    size_t nrest;
    rft_heal_over *over;            /* SCs busier than the window, before the clamp */
    size_t nover;
    char err[256];
};

static int fail(rft_heal *h, int code, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
static int fail(rft_heal *h, int code, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(h->err, sizeof h->err, fmt, ap);
    va_end(ap);
    return code;
}

void rft_heal_opts_default(rft_heal_opts *o)
{
    o->source = RFT_HEAL_AUTO;
    o->max_wg = 256;
    o->max_wf = 16;
    o->wfrule = RFT_HEAL_WF_SEED;
    o->sweep = 8;
    o->sweep_fit = 0;
}

rft_heal *rft_heal_new(const rft_geom *g, const rft_heal_opts *o, const char **why)
{
    if (g->block_lanes > MAX_NSC) {
        *why = "more than 64 lanes per block (stream cores per slice): not supported";
        return NULL;
    }
    rft_heal_opts fit = *o;
    if (fit.sweep_fit && (uint32_t)fit.sweep >= g->block_lanes)
        fit.sweep = (int)g->block_lanes - 1;    /* a narrow slice: sweep what it has */
    o = &fit;
    if (o->sweep < 0 || (uint32_t)o->sweep >= g->block_lanes || o->sweep > RFT_HEAL_MAX_D) {
        *why = "the sweep of degraded SCs must leave a healthy SC in a slice";
        return NULL;
    }
    rft_heal *h = calloc(1, sizeof *h);
    if (!h || rft_slices_init(&h->slice_ix) || rft_map_init(&h->wfs, 64) ||
        rft_map_init(&h->gix, 64)) {
        if (h) {
            rft_slices_free(&h->slice_ix);
            rft_map_free(&h->wfs);
            free(h);
        }
        *why = "out of memory";
        return NULL;
    }
    h->g = *g;
    h->o = *o;
    h->nsc = g->block_lanes;
    h->quarters = g->lanes / g->block_lanes;
    for (uint32_t i = 0; i < g->lanes; i++)
        h->full[i >> 3] |= (uint8_t)(1u << (i & 7));
    h->gmin = UINT32_MAX;
    return h;
}

void rft_heal_free(rft_heal *h)
{
    if (!h)
        return;
    for (size_t i = 0; i < h->nsl; i++) {
        free(h->ss[i].sc_b);
        free(h->ss[i].sc_w);
        free(h->sl[i].pe_busy);
        for (int d = 0; h->ss[i].rp && d <= h->o.sweep; d++) {
            free(h->ss[i].rp[d].end);
            free(h->ss[i].rp[d].slots);
        }
        free(h->ss[i].rp);
        free(h->sl[i].cost);
    }
    free(h->sl);
    free(h->ss);
    free(h->order);
    free(h->waves);
    free(h->wfree);
    free(h->groups);
    free(h->gfree);
    free(h->rest);
    free(h->over);
    rft_slices_free(&h->slice_ix);
    rft_map_free(&h->wfs);
    rft_map_free(&h->gix);
    free(h);
}

const char *rft_heal_error(const rft_heal *h) { return h->err; }

static void *grow(void *p, size_t *cap, size_t need, size_t size)
{
    if (need <= *cap)
        return p;
    if (need > SIZE_MAX / 2 / size)
        return NULL;    /* no doubling that wraps */
    size_t n = *cap ? *cap : 16;
    while (n < need)
        n *= 2;
    void *q = realloc(p, n * size);
    if (q)
        *cap = n;
    return q;
}

/* The slice's index, created on first sight; -1 if out of memory. */
static long slice_of(rft_heal *h, uint16_t cu, uint16_t simd)
{
    long i = rft_slices_find(&h->slice_ix, cu, simd);
    if (i >= 0)
        return i;
    size_t c = h->csl;
    rft_heal_slice *sl = grow(h->sl, &c, h->nsl + 1, sizeof *sl);
    if (!sl)
        return -1;
    h->sl = sl;
    size_t c2 = h->csl;
    slice_state *ss = grow(h->ss, &c2, h->nsl + 1, sizeof *ss);
    if (!ss)
        return -1;
    h->ss = ss;
    h->csl = c;
    rft_heal_slice *s = &h->sl[h->nsl];
    slice_state *t = &h->ss[h->nsl];
    memset(s, 0, sizeof *s);
    memset(t, 0, sizeof *t);
    s->cu = cu;
    s->simd = simd;
    int nd = h->o.sweep + 1;
    t->sc_b = calloc(h->nsc, sizeof *t->sc_b);
    t->sc_w = calloc(h->nsc, sizeof *t->sc_w);
    s->pe_busy = calloc((size_t)h->nsc * RFT_NSLOTS, sizeof *s->pe_busy);
    s->cost = calloc((size_t)nd, sizeof *s->cost);
    t->rp = calloc((size_t)nd, sizeof *t->rp);
    int ok = t->sc_b && t->sc_w && s->pe_busy && s->cost && t->rp;
    for (int d = 0; ok && d < nd; d++) {
        t->rp[d].end = calloc(h->o.max_wf, sizeof *t->rp[d].end);
        t->rp[d].slots = calloc(h->o.max_wf, sizeof *t->rp[d].slots);
        ok = t->rp[d].end && t->rp[d].slots;
    }
    h->nsl++;   /* counted even on failure, so rft_heal_free frees it */
    if (!ok || rft_slices_put(&h->slice_ix, cu, simd, h->nsl - 1))
        return -1;
    return (long)(h->nsl - 1);
}

/* Active lanes of each SC (lane i on SC i mod nsc) into cnt; total returned. */
static uint32_t sc_counts(const rft_heal *h, const uint8_t *mask, uint32_t *cnt)
{
    uint32_t total = 0;
    if (memcmp(mask, h->full, rft_mask_bytes(&h->g)) == 0) {   /* the common case */
        for (uint32_t j = 0; j < h->nsc; j++)
            cnt[j] = h->quarters;
        return h->g.lanes;
    }
    memset(cnt, 0, h->nsc * sizeof *cnt);
    for (uint32_t q = 0; q < h->quarters; q++)
        for (uint32_t j = 0; j < h->nsc; j++) {
            uint32_t b = rft_mask_lane(mask, q * h->nsc + j);
            cnt[j] += b;
            total += b;
        }
    return total;
}

/* ---- work-groups and the replay -------------------------------------------------- */
/* SC s rests (bit s of the mask; a slice of more SCs than the mask's 64,
 * which a hostile stream may state, has its others healthy) */
static int sc_rests(uint64_t degraded, uint32_t s) { return s < 64 && (degraded >> s & 1); }

int rft_heal_group_rule(uint32_t wi, uint64_t degraded, uint32_t nsc, uint32_t wf_lanes,
                        uint32_t max_wg, int wfrule, rft_heal_group *g)
{
    uint32_t nd = 0;
    for (uint32_t s = 0; s < nsc; s++)
        nd += (uint32_t)sc_rests(degraded, s);
    if (nd >= nsc && wi > 0)
        return RFT_EFORMAT;
    memset(g, 0, sizeof *g);
    /* the naive group and its healthy version(s): halve while too large */
    uint32_t stack[64], n = 0;
    stack[n++] = wi;
    g->wf_naive = (wi + wf_lanes - 1) / wf_lanes;
    while (n) {
        uint32_t w = stack[--n];
        uint32_t rwi = 0;
        for (uint32_t s = 0; s < nsc; s++)
            if (sc_rests(degraded, s))
                rwi += w / nsc + (s < w % nsc);
        if (w + rwi > max_wg && w > 1 && n + 2 <= 64) {
            stack[n++] = w / 2;
            stack[n++] = w - w / 2;
            continue;
        }
        uint32_t all = w + rwi;
        uint32_t wf = (all + wf_lanes - 1) / wf_lanes;
        if (wfrule == RFT_HEAL_WF_SEED && rwi && all % wf_lanes == 0)
            wf++;
        g->rwi += rwi;
        g->groups++;
        g->wf_healthy += wf;
        if (all > g->wi_max) {
            g->wi_max = all;
            g->wf_one = wf;
            g->wf_one_naive = (w + wf_lanes - 1) / wf_lanes;
        }
    }
    return 0;
}

/* Place a unit needing `need` slots for `dur` cycles, released at `rel`. */
static void replay_place(replay *r, uint32_t cap, uint64_t rel, uint32_t need, uint64_t dur)
{
    uint64_t t = rel > r->last_start ? rel : r->last_start;
    while (r->used + need > cap && r->n) {
        uint32_t k = 0;
        for (uint32_t i = 1; i < r->n; i++)
            if (r->end[i] < r->end[k])
                k = i;
        if (r->end[k] > t)
            t = r->end[k];
        r->used -= r->slots[k];
        r->n--;
        r->end[k] = r->end[r->n];
        r->slots[k] = r->slots[r->n];
    }
    r->end[r->n] = t + dur;
    r->slots[r->n] = need;
    r->n++;
    r->used += need;
    r->last_start = t;
    if (t + dur > r->makespan)
        r->makespan = t + dur;
}

static uint64_t waves_of(uint64_t n, uint32_t cap) { return (n + cap - 1) / cap; }

/* Feed a finished work-group to its slice's replays: the naive group, and
 * for d = 1..sweep its healthy version with SCs 0..d-1 resting. */
static void replay_group(rft_heal *h, const group *gr)
{
    slice_state *t = &h->ss[gr->slice];
    uint32_t cap = h->o.max_wf;
    if (gr->nregs && h->g.entries / gr->nregs < cap)
        cap = h->g.entries / gr->nregs;
    if (cap == 0)
        cap = 1;
    if (!t->released || gr->start < t->first_release)
        t->first_release = gr->start;
    t->released = 1;
    t->instr_b += gr->instr_b;
    t->instr_w += gr->instr_w;
    uint64_t dur = gr->end - gr->start;
    uint32_t n = gr->nwf ? gr->nwf : 1;
    uint64_t mean = gr->wfdur / n;
    for (int d = 0; d <= h->o.sweep; d++) {
        uint64_t wf = n;
        if (d > 0) {
            rft_heal_group hg;
            if (rft_heal_group_rule(gr->wi, (1ull << d) - 1, h->nsc, h->g.lanes, h->o.max_wg,
                                    h->o.wfrule, &hg) == 0 && hg.wf_healthy > hg.wf_naive)
                wf = n + (hg.wf_healthy - hg.wf_naive);
        }
        uint64_t extra = wf - n;
        uint64_t d_dur = dur + (waves_of(wf, cap) - waves_of(n, cap)) * mean;
        replay_place(&t->rp[d], cap, gr->start, (uint32_t)(wf < cap ? wf : cap), d_dur);
        t->rp[d].extra_b += (double)extra * (double)gr->instr_b / n;
        t->rp[d].extra_w += (double)extra * (double)gr->instr_w / n;
    }
    h->done_groups++;
    if (gr->wi > h->gmax)
        h->gmax = gr->wi;
    if (gr->wi < h->gmin)
        h->gmin = gr->wi;
}

/* Replay the complete groups at the head of slice s's queue (all of them at the end). */
static void drain(rft_heal *h, uint32_t s, int all)
{
    slice_state *t = &h->ss[s];
    while (t->qhead) {
        group *gr = &h->groups[t->qhead - 1];
        if (!all && gr->ended < gr->nwf)
            break;
        replay_group(h, gr);
        if (gr->key != UINT64_MAX)
            rft_map_del(&h->gix, gr->key);
        size_t gi = t->qhead - 1;
        t->qhead = gr->next;
        if (!t->qhead)
            t->qtail = 0;
        h->gfree[h->ngfree++] = gi;
    }
}

/* A slot of a pool (items of size bytes, n used, cap allocated) and its
 * free list (indexes given back): a free one, else a new one; -1 if out of
 * memory.  The free list grows with the pool, so giving back never fails. */
static long pool_take(void **items, size_t size, size_t *n, size_t *cap, size_t **free_ix,
                      size_t *nfree)
{
    if (*nfree)
        return (long)(*free_ix)[--*nfree];
    size_t c = *cap, c2 = *cap;
    void *p = grow(*items, &c, *n + 1, size);
    if (!p)
        return -1;
    *items = p;
    size_t *f = grow(*free_ix, &c2, *n + 1, sizeof *f);
    if (!f)
        return -1;
    *free_ix = f;
    *cap = c;
    return (long)(*n)++;
}

static int on_begin(rft_heal *h, const rft_wfbegin *b)
{
    long s = slice_of(h, b->cu, b->simd);
    if (s < 0)
        return fail(h, RFT_EMEM, "out of memory");
    uint64_t key = b->wg != RFT_NO_WG ? (uint64_t)b->kernel << 32 | b->wg
                                      : rft_wf_key(b->cu, b->simd, b->wf) | 1ull << 63;
    uint64_t *gv = rft_map_get(&h->gix, key);
    /* a work-group's wavefronts all begin before any of them ends (they are
       dispatched together): a begin for a group whose wavefronts have all
       ended is a new launch reusing its id (ids restart at every launch) */
    if (gv && h->groups[*gv - 1].ended == h->groups[*gv - 1].nwf) {
        h->groups[*gv - 1].key = UINT64_MAX;   /* replayed with its slice's queue */
        rft_map_del(&h->gix, key);
        gv = NULL;
    }
    if (!gv) {
        /* a new group: the groups before it on this slice that are complete are done */
        drain(h, (uint32_t)s, 0);
        long gi = pool_take((void **)&h->groups, sizeof *h->groups, &h->ngroups, &h->cgroups,
                            &h->gfree, &h->ngfree);
        if (gi < 0)
            return fail(h, RFT_EMEM, "out of memory");
        group *g = &h->groups[gi];
        memset(g, 0, sizeof *g);
        g->key = key;
        g->slice = (uint32_t)s;
        g->start = g->end = b->cycle;
        if (rft_map_put(&h->gix, key, gi + 1))
            return fail(h, RFT_EMEM, "out of memory");
        slice_state *t = &h->ss[s];
        if (t->qtail)
            h->groups[t->qtail - 1].next = (uint32_t)(gi + 1);
        else
            t->qhead = (uint32_t)(gi + 1);
        t->qtail = (uint32_t)(gi + 1);
        gv = rft_map_get(&h->gix, key);
    }
    group *g = &h->groups[*gv - 1];
    g->nwf++;
    if (b->nregs > g->nregs)
        g->nregs = b->nregs;
    long wi = pool_take((void **)&h->waves, sizeof *h->waves, &h->nwaves, &h->cwaves, &h->wfree,
                        &h->nwfree);
    if (wi < 0)
        return fail(h, RFT_EMEM, "out of memory");
    h->waves[wi] = (wave){.group = *gv, .begin = b->cycle, .lanes = 0};
    if (rft_map_put(&h->wfs, rft_wf_key(b->cu, b->simd, b->wf), wi + 1))
        return fail(h, RFT_EMEM, "out of memory");
    return 0;
}

static wave *wave_of(rft_heal *h, uint16_t cu, uint16_t simd, uint32_t wf)
{
    uint64_t *v = rft_map_get(&h->wfs, rft_wf_key(cu, simd, wf));
    return v ? &h->waves[*v - 1] : NULL;
}

static void on_end(rft_heal *h, const rft_wfend *e)
{
    uint64_t key = rft_wf_key(e->cu, e->simd, e->wf);
    uint64_t *v = rft_map_get(&h->wfs, key);
    if (!v)
        return;
    size_t wi = *v - 1;
    wave *w = &h->waves[wi];
    group *g = &h->groups[w->group - 1];
    g->ended++;
    g->wi += w->lanes;
    g->wfdur += e->cycle - w->begin;
    if (e->cycle > g->end)
        g->end = e->cycle;
    rft_map_del(&h->wfs, key);
    h->wfree[h->nwfree++] = wi;
}

int rft_heal_feed(rft_heal *h, const rft_rec *r)
{
    uint32_t cnt[MAX_NSC];
    switch (r->kind) {
    case RFT_KERNEL: case RFT_WFBEGIN: case RFT_WFEND: case RFT_WRITE: case RFT_READ:
    case RFT_BUNDLE: {
        uint64_t c = rft_rec_cycle(r);
        if (!h->any || c < h->first)
            h->first = c;
        if (!h->any || c > h->last)
            h->last = c;
        h->any = 1;
        break;
    }
    default:
        return 0;
    }
    if (r->kind == RFT_WFBEGIN)
        return on_begin(h, &r->u.begin);
    if (r->kind == RFT_WFEND) {
        on_end(h, &r->u.end);
        return 0;
    }
    const uint8_t *mask;
    uint16_t cu, simd;
    uint32_t wf;
    if (r->kind == RFT_WRITE)
        mask = r->w.mask, cu = r->w.cu, simd = r->w.simd, wf = r->w.wf;
    else if (r->kind == RFT_BUNDLE)
        mask = r->u.bundle.mask, cu = r->u.bundle.cu, simd = r->u.bundle.simd,
        wf = r->u.bundle.wf;
    else
        return 0;
    long s = slice_of(h, cu, simd);
    if (s < 0)
        return fail(h, RFT_EMEM, "out of memory");
    uint32_t lanes = sc_counts(h, mask, cnt);
    wave *w = wave_of(h, cu, simd, wf);
    if (w) {
        if (lanes > w->lanes)
            w->lanes = lanes;
        group *g = &h->groups[w->group - 1];
        if (r->kind == RFT_WRITE)
            g->instr_w++;
        else
            g->instr_b++;
    }
    slice_state *t = &h->ss[s];
    rft_heal_slice *sl = &h->sl[s];
    if (r->kind == RFT_WRITE) {
        sl->writes++;
        for (uint32_t j = 0; j < h->nsc; j++)
            t->sc_w[j] += cnt[j];
        return 0;
    }
    const rft_bundle *b = &r->u.bundle;
    sl->bundles++;
    if (!(b->slots & 31))
        return 0;               /* an empty bundle (no slot) stresses nothing (rft(5)), and
                                 * makes no stream a VLIW one: rft-decode --cycles-from gives
                                 * one to a GCN compare of scalars, which only held the SIMD */
    h->bundles++;
    h->shapes[(b->slots & 31) | (b->flags & 3) << 5] += lanes;
    for (int p = 0; p < RFT_NSLOTS; p++) {
        if (!(b->slots >> p & 1))
            continue;
        sl->instr[p]++;
        for (uint32_t j = 0; j < h->nsc; j++)
            sl->pe_busy[j * RFT_NSLOTS + p] += cnt[j];
    }
    for (uint32_t j = 0; j < h->nsc; j++)
        t->sc_b[j] += cnt[j];
    return 0;
}

static int u64_cmp(const void *a, const void *b)
{
    uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
    return x < y ? -1 : x > y;
}

/* A unit busy longer than the window is busy all of it: SC j's busy cycles
 * and its PEs' clamped to the span, the SC noted in h->over. */
static int clamp_busy(rft_heal *h, rft_heal_slice *s)
{
    uint64_t span = rft_heal_span(h);
    for (uint32_t j = 0; j < h->nsc; j++) {
        for (int p = 0; p < RFT_NSLOTS; p++)
            if (s->pe_busy[j * RFT_NSLOTS + p] > span)
                s->pe_busy[j * RFT_NSLOTS + p] = span;
        if (s->sc_busy[j] <= span)
            continue;
        rft_heal_over *o = realloc(h->over, (h->nover + 1) * sizeof *o);   /* rare */
        if (!o)
            return RFT_EMEM;
        h->over = o;
        h->over[h->nover++] = (rft_heal_over){s->cu, s->simd, j, s->sc_busy[j]};
        s->sc_busy[j] = span;
    }
    return 0;
}

int rft_heal_finish(rft_heal *h)
{
    for (size_t s = 0; s < h->nsl; s++)
        drain(h, (uint32_t)s, 1);
    h->source = h->o.source != RFT_HEAL_AUTO ? h->o.source
                : h->bundles ? RFT_HEAL_BUNDLES : RFT_HEAL_WRITES;
    /* slices in (cu, simd) order: sort slice key << 32 | index */
    uint64_t *keyed = malloc((h->nsl ? h->nsl : 1) * sizeof *keyed);
    h->order = malloc((h->nsl ? h->nsl : 1) * sizeof *h->order);
    if (!keyed || !h->order) {
        free(keyed);
        return fail(h, RFT_EMEM, "out of memory");
    }
    for (size_t i = 0; i < h->nsl; i++)
        keyed[i] = (uint64_t)rft_slice_key(h->sl[i].cu, h->sl[i].simd) << 32 | i;
    qsort(keyed, h->nsl, sizeof *keyed, u64_cmp);
    for (size_t i = 0; i < h->nsl; i++)
        h->order[i] = (size_t)(keyed[i] & 0xffffffffu);
    free(keyed);
    /* a slice's time: its replayed schedule, or its issue bound (one vector
     * instruction occupies the slice's SCs for lanes / block_lanes cycles) */
    for (size_t i = 0; i < h->nsl; i++) {
        slice_state *t = &h->ss[i];
        h->sl[i].sc_busy = h->source == RFT_HEAL_BUNDLES ? t->sc_b : t->sc_w;
        double instr = (double)(h->source == RFT_HEAL_BUNDLES ? t->instr_b : t->instr_w);
        for (int d = 0; d <= h->o.sweep; d++) {
            replay *r = &t->rp[d];
            double extra = h->source == RFT_HEAL_BUNDLES ? r->extra_b : r->extra_w;
            uint64_t sched = t->released ? r->makespan - t->first_release : 0;
            uint64_t issue = (uint64_t)llround((instr + extra) * h->quarters);
            h->sl[i].cost[d] = t->first_release + (sched > issue ? sched : issue);
        }
    }
    for (size_t i = 0; i < h->nsl; i++)
        if (clamp_busy(h, &h->sl[h->order[i]]))
            return fail(h, RFT_EMEM, "out of memory");
    return 0;
}

/* ---- accessors -------------------------------------------------------------------- */
uint32_t rft_heal_nsc(const rft_heal *h) { return h->nsc; }
uint32_t rft_heal_lanes(const rft_heal *h) { return h->g.lanes; }
size_t rft_heal_nslices(const rft_heal *h) { return h->nsl; }
const rft_heal_slice *rft_heal_slice_at(const rft_heal *h, size_t i)
{
    return &h->sl[h->order ? h->order[i] : i];
}
uint64_t rft_heal_first(const rft_heal *h) { return h->first; }
uint64_t rft_heal_span(const rft_heal *h) { return h->any ? h->last - h->first + 1 : 0; }
int rft_heal_source(const rft_heal *h) { return h->source; }
uint64_t rft_heal_bundles(const rft_heal *h) { return h->bundles; }
const uint64_t *rft_heal_shapes(const rft_heal *h) { return h->shapes; }
uint64_t rft_heal_groups(const rft_heal *h) { return h->done_groups; }
uint32_t rft_heal_group_max(const rft_heal *h) { return h->gmax; }
uint32_t rft_heal_group_min(const rft_heal *h) { return h->done_groups ? h->gmin : 0; }
double rft_heal_alpha(const rft_heal *h, uint64_t busy)
{
    uint64_t span = rft_heal_span(h);
    return span ? (double)busy / (double)span : 0;
}

uint32_t rft_heal_ncus(const rft_heal *h)
{
    uint32_t n = 0;
    for (size_t i = 0; i < h->nsl; i++)
        if (i == 0 || rft_heal_slice_at(h, i)->cu != rft_heal_slice_at(h, i - 1)->cu)
            n++;
    return n;
}

size_t rft_heal_nover(const rft_heal *h) { return h->nover; }
const rft_heal_over *rft_heal_over_at(const rft_heal *h, size_t i) { return &h->over[i]; }

uint64_t rft_heal_cost(const rft_heal *h, int d, uint32_t cus)
{
    uint64_t end = h->first;
    uint32_t rank = 0;
    for (size_t i = 0; i < h->nsl; i++) {
        const rft_heal_slice *s = rft_heal_slice_at(h, i);
        if (i > 0 && s->cu != rft_heal_slice_at(h, i - 1)->cu)
            rank++;
        int dd = cus == 0 || rank < cus ? d : 0;
        if (s->cost[dd] > end)
            end = s->cost[dd];
    }
    return end > h->first ? end - h->first + 1 : 0;     /* 0: nothing ran */
}

int rft_heal_sweep(const rft_heal *h) { return h->o.sweep; }

/* ---- SC healing: the resting SCs ------------------------------------------------------------ */
const rft_heal_slice *rft_heal_slice_find(const rft_heal *h, uint16_t cu, uint16_t simd)
{
    long i = rft_slices_find(&h->slice_ix, cu, simd);
    return i >= 0 ? &h->sl[i] : NULL;
}

int rft_heal_rest(rft_heal *h, const rft_heal_slice *s, uint32_t j)
{
    size_t slice = (size_t)(s - h->sl), i = 0;
    while (i < h->nrest && h->rest[i].slice != slice)
        i++;
    if (i == h->nrest) {
        void *n = realloc(h->rest, (h->nrest + 1) * sizeof *h->rest);
        if (!n)
            return fail(h, RFT_EMEM, "out of memory");
        h->rest = n;
        h->rest[h->nrest].slice = slice;
        h->rest[h->nrest++].mask = 0;
    }
    h->rest[i].mask |= 1ull << j;
    return 0;
}

double rft_heal_sc_alpha(const rft_heal *h, const rft_heal_slice *s, uint32_t j)
{
    return rft_heal_alpha(h, s->sc_busy[j]);
}

int rft_heal_rest_over(rft_heal *h, const rft_nbti *p, double t, double mv)
{
    for (size_t i = 0; i < h->nsl; i++) {
        const rft_heal_slice *s = rft_heal_slice_at(h, i);
        for (uint32_t j = 0; j < h->nsc; j++)
            if (1e3 * rft_heal_dvth(p, rft_heal_sc_alpha(h, s, j), t, 0) >= mv &&
                rft_heal_rest(h, s, j))
                return RFT_EMEM;
    }
    return 0;
}

size_t rft_heal_most_stressed(const rft_heal *h, const rft_heal_slice **best, uint32_t *bj)
{
    size_t ties = 0;
    *best = NULL;
    *bj = 0;
    for (size_t i = 0; i < h->nsl; i++) {
        const rft_heal_slice *s = rft_heal_slice_at(h, i);
        for (uint32_t j = 0; j < h->nsc; j++) {
            double a = rft_heal_sc_alpha(h, s, j);
            if (!*best || a > rft_heal_sc_alpha(h, *best, *bj))
                *best = s, *bj = j, ties = 1;
            else if (a == rft_heal_sc_alpha(h, *best, *bj))
                ties++;
        }
    }
    return ties;
}

int rft_heal_rest_most(rft_heal *h)
{
    const rft_heal_slice *best;
    uint32_t bj;
    return rft_heal_most_stressed(h, &best, &bj) ? rft_heal_rest(h, best, bj) : 0;
}

size_t rft_heal_nresting(const rft_heal *h) { return h->nrest; }

const rft_heal_slice *rft_heal_resting(const rft_heal *h, size_t i, uint64_t *mask)
{
    *mask = h->rest[i].mask;
    return &h->sl[h->rest[i].slice];
}

double rft_heal_sc_healed(const rft_heal *h, const rft_heal_slice *s, uint64_t mask, double rest,
                          uint32_t j, double *over)
{
    uint32_t nd = 0;
    double moved = 0, a;
    for (uint32_t k = 0; k < h->nsc; k++)
        if (mask >> k & 1)
            nd++, moved += (1 - rest) * rft_heal_sc_alpha(h, s, k);
    if (mask >> j & 1)
        a = rest * rft_heal_sc_alpha(h, s, j);
    else
        a = rft_heal_sc_alpha(h, s, j) + moved / (h->nsc - nd);
    if (over)
        *over = a > 1 ? a - 1 : 0;
    return a > 1 ? 1 : a;   /* a unit is busy at most the whole window */
}

/* ---- duty cycles of the PEs --------------------------------------------------------------- */
void rft_heal_work_of_trace(const rft_heal *h, rft_heal_work *w)
{
    memset(w, 0, sizeof *w);
    for (int i = 0; i < RFT_HEAL_SHAPES; i++)
        w->shape[i] = (double)h->shapes[i];
    w->total = (double)rft_heal_span(h) * h->nsc * (double)h->nsl;
}

void rft_heal_work_of_profile(const double share[RFT_NSLOTS], double packing, double issue,
                              rft_heal_work *w)
{
    memset(w, 0, sizeof *w);
    for (int p = 0; p < RFT_NSLOTS; p++)
        w->shape[1 << p] = share[p] * RFT_NSLOTS * packing * issue;
    w->total = 1;
}

void rft_heal_pe_alpha(const rft_heal_work *w, int policy, int perm_t, const int rank[RFT_NSLOTS],
                       double alpha[RFT_NSLOTS])
{
    double load[RFT_NSLOTS] = {0};
    for (int p = 0; p < RFT_NSLOTS; p++)
        alpha[p] = 0;
    for (int s = 0; s < RFT_HEAL_SHAPES; s++) {
        double wt = w->shape[s];
        if (wt == 0)
            continue;
        int slots = s & 31, flags = s >> 5;
        if (!rank || policy == RFT_HEAL_PERMUTE) {
            for (int p = 0; p < RFT_NSLOTS; p++)
                if (slots >> p & 1)
                    load[p] += wt;
            continue;
        }
        int taken = 0, nfree = 0;
        if (flags & RFT_UF_TRANS && slots & RFT_SLOT_T)
            taken |= RFT_SLOT_T;
        else if (slots & RFT_SLOT_T)
            nfree++;
        int nxw = __builtin_popcount(slots & 15);
        if (flags & RFT_UF_VECTOR) {
            for (int i = 0; i < RFT_NSLOTS && nxw; i++)
                if (rank[i] < 4 && !(taken >> rank[i] & 1))
                    taken |= 1 << rank[i], nxw--;
        } else
            nfree += nxw;
        for (int i = 0; i < RFT_NSLOTS && nfree; i++)
            if (!(taken >> rank[i] & 1))
                taken |= 1 << rank[i], nfree--;
        for (int p = 0; p < RFT_NSLOTS; p++)
            if (taken >> p & 1)
                alpha[p] += wt;
    }
    if (!rank || policy == RFT_HEAL_PERMUTE) {
        int pe[RFT_NSLOTS], sl[RFT_NSLOTS], n = 0;
        for (int p = 0; p < RFT_NSLOTS; p++)
            alpha[p] = load[p];
        if (rank) {
            /* the permuted PEs, youngest first, and their slots by load, heaviest first */
            for (int i = 0; i < RFT_NSLOTS; i++)
                if (rank[i] < 4 || perm_t)
                    pe[n] = rank[i], sl[n] = rank[i], n++;
            for (int i = 1; i < n; i++)
                for (int j = i; j > 0 && load[sl[j]] > load[sl[j - 1]]; j--) {
                    int x = sl[j];
                    sl[j] = sl[j - 1];
                    sl[j - 1] = x;
                }
            for (int i = 0; i < n; i++)
                alpha[pe[i]] = load[sl[i]];
        }
    }
    for (int p = 0; p < RFT_NSLOTS; p++)
        alpha[p] = w->total > 0 ? alpha[p] / w->total : 0;
}

/* ---- dVth over time ------------------------------------------------------------------------ */
double rft_heal_dvth(const rft_nbti *p, double alpha, double t, double dv0)
{
    double a = alpha > 1 ? 1 : alpha;
    double k = 2 * p->rd_n;
    double x = pow(rft_nbti_rd(p, a, t), 1 / k);
    double x0 = dv0 > 0 ? pow(dv0, 1 / k) : 0;
    return pow(x + x0, k);
}

void rft_heal_pe_run(const rft_nbti *p, const rft_heal_work *w, int policy, int perm_t,
                     const double dv0[RFT_NSLOTS], double horizon, double adapt, double step,
                     rft_heal_series_fn series, void *user, double dvth[RFT_NSLOTS],
                     double alpha[RFT_NSLOTS])
{
    double acc[RFT_NSLOTS] = {0}, t = 0;
    uint64_t k = 1;             /* the next row of the series: k step */
    for (int i = 0; i < RFT_NSLOTS; i++)
        dvth[i] = dv0[i];
    if (series && step > 0)
        series(0, dvth, user);
    while (t < horizon) {
        double dt = horizon - t < adapt ? horizon - t : adapt;
        int rank[RFT_NSLOTS];
        for (int i = 0; i < RFT_NSLOTS; i++)
            rank[i] = i;
        for (int i = 1; i < RFT_NSLOTS; i++)  /* youngest (lowest dVth) first, stable */
            for (int j = i; j > 0 && dvth[rank[j]] < dvth[rank[j - 1]]; j--) {
                int x = rank[j];
                rank[j] = rank[j - 1];
                rank[j - 1] = x;
            }
        double a[RFT_NSLOTS];
        rft_heal_pe_alpha(w, policy, perm_t, rank, a);
        /* the rows of the series inside this period, at their own time */
        for (double x; series && step > 0 && (x = (double)k * step) < horizon - 1e-6 &&
                       x <= t + dt + 1e-6; k++) {
            double dx[RFT_NSLOTS];
            for (int i = 0; i < RFT_NSLOTS; i++)
                dx[i] = rft_heal_dvth(p, (acc[i] + a[i] * (x - t)) / x, x, dv0[i]);
            series(x, dx, user);
        }
        t += dt;
        for (int i = 0; i < RFT_NSLOTS; i++) {
            acc[i] += a[i] * dt;
            dvth[i] = rft_heal_dvth(p, acc[i] / t, t, dv0[i]);
        }
    }
    if (series && step > 0)
        series(horizon, dvth, user);
    for (int i = 0; i < RFT_NSLOTS; i++)
        alpha[i] = horizon > 0 ? acc[i] / horizon : 0;
}

/* ---- the stage (rft-heal) -------------------------------------------------------------------- */
typedef struct heal_stage {
    rft_stage st;
    rft_heal_opts o;
    rft_heal *h;
} heal_stage;

static int hs_start(rft_stage *st, const rft_header *in, rft_header *out)
{
    heal_stage *s = (heal_stage *)st;
    const char *why = "";
    if (!(s->h = rft_heal_new(&in->geom, &s->o, &why)))
        return rft_stage_fail(st, RFT_EFORMAT, "%s", why);
    return 0;
}

static int hs_feed(rft_stage *st, rft_rec *rec, const rft_sink *out)
{
    heal_stage *s = (heal_stage *)st;
    int e = rft_heal_feed(s->h, rec);
    return e ? rft_stage_fail(st, e, "%s", rft_heal_error(s->h)) : out->put(out->ctx, rec);
}

static int hs_finish(rft_stage *st, const rft_sink *out)
{
    heal_stage *s = (heal_stage *)st;
    uint64_t first = 0, last = 0;
    if (st->whole && rft_whole_span(st->whole, RFT_KERNEL, RFT_BUNDLE, &first, &last)) {
        /* a shard (rft_reader_shard_by): the window of the whole input, and
         * its source, so that the shards' slices are the whole's */
        s->h->first = first;
        s->h->last = last;
        s->h->any = 1;
        if (st->whole->seen[RFT_BUNDLE] && !s->h->bundles && s->h->o.source == RFT_HEAL_AUTO)
            s->h->o.source = RFT_HEAL_BUNDLES;
    }
    int e = rft_heal_finish(s->h);
    return e ? rft_stage_fail(st, e, "%s", rft_heal_error(s->h)) : 0;
}

static void hs_free(rft_stage *st)
{
    rft_heal_free(((heal_stage *)st)->h);
    free(st);
}

static const rft_stage_ops heal_ops = {"rft-heal", hs_start, hs_feed, hs_finish, hs_free, 0};

rft_stage *rft_heal_stage_new(const rft_heal_opts *o)
{
    heal_stage *s = rft_stage_alloc(sizeof *s, &heal_ops);
    if (!s)
        return NULL;
    s->o = *o;
    return &s->st;
}

rft_heal *rft_heal_stage_take(rft_stage *st)
{
    heal_stage *s = (heal_stage *)st;
    rft_heal *h = s->h;
    s->h = NULL;
    return h;
}
