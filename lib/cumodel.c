/* cumodel.c - a trace-driven timing model of the compute unit (cumodel.h). */
#include <stdlib.h>
#include <string.h>

#include "cumodel.h"
#include "grow.h"

#define NONE 0xFFFFFFFFu

static uint64_t umax(uint64_t a, uint64_t b) { return a > b ? a : b; }
static uint32_t ceil_div(uint32_t a, uint32_t b) { return b ? (a + b - 1) / b : a; }
static uint32_t simd_interval(const rft_m2scfg *c, uint32_t issue)
{
    uint32_t r = ceil_div(c->rew_latency, c->rew_buffer);
    return r > issue ? r : issue;
}

/* ---- a binary heap of (time, kind, id) ---------------------------------- */
typedef struct { uint64_t t; uint32_t kind, id; } hent;   /* kind 0: a slot frees; 1: an instruction */
typedef struct { hent *a; size_t n, cap; } heap;
static int hless(const hent *x, const hent *y)
{
    if (x->t != y->t)
        return x->t < y->t;
    if (x->kind != y->kind)
        return x->kind < y->kind;
    return x->id < y->id;
}
static int hpush(heap *h, hent e)
{
    if (h->n == h->cap) {
        size_t c = h->cap ? 2 * h->cap : 64;
        hent *a = realloc(h->a, c * sizeof *a);
        if (!a)
            return -1;
        h->a = a, h->cap = c;
    }
    size_t i = h->n++;
    while (i && hless(&e, &h->a[(i - 1) / 2])) {
        h->a[i] = h->a[(i - 1) / 2];
        i = (i - 1) / 2;
    }
    h->a[i] = e;
    return 0;
}
static hent hpop(heap *h)
{
    hent top = h->a[0], last = h->a[--h->n];
    size_t i = 0;
    for (;;) {
        size_t l = 2 * i + 1, m = i;
        const hent *best = &last;
        if (l < h->n && hless(&h->a[l], best))
            best = &h->a[l], m = l;
        if (l + 1 < h->n && hless(&h->a[l + 1], best))
            m = l + 1;
        if (m == i)
            break;
        h->a[i] = h->a[m];
        i = m;
    }
    if (h->n)
        h->a[i] = last;
    return top;
}

/* ---- the own part of each event: its traced gap less its SIMD wait ----- */
typedef struct { uint64_t c; uint32_t slice, e, w; } sev;
static int sev_cmp(const void *a, const void *b)
{
    const sev *x = a, *y = b;
    if (x->slice != y->slice)
        return x->slice < y->slice ? -1 : 1;
    if (x->c != y->c)
        return x->c < y->c ? -1 : 1;
    return x->e < y->e ? -1 : x->e > y->e;
}

static int own_parts(const rft_cm_trace *tr, uint32_t i0, uint64_t *own)
{
    uint64_t nalu = 0;
    for (uint64_t e = 0; e < tr->nev; e++)
        nalu += tr->ev[e].unit == RFT_CM_ALU;
    sev *s = nalu ? malloc(nalu * sizeof *s) : NULL;
    uint64_t *waited = malloc((tr->nev ? tr->nev : 1) * sizeof *waited);
    if ((nalu && !s) || !waited) {
        free(s), free(waited);
        return -1;
    }
    uint64_t k = 0;
    for (uint32_t w = 0; w < tr->nwf; w++)
        for (uint32_t j = 0; j < tr->wf[w].n; j++) {
            uint32_t e = tr->wf[w].first + j;
            waited[e] = tr->ev[e].cycle;
            if (tr->ev[e].unit == RFT_CM_ALU)
                s[k++] = (sev){tr->ev[e].cycle, (uint32_t)tr->wf[w].cu << 16 | tr->wf[w].simd, e, w};
        }
    if (nalu)   /* qsort(NULL, 0, ...) is undefined */
        qsort(s, nalu, sizeof *s, sev_cmp);
    for (k = 1; k < nalu; k++)      /* right after another wavefront's instruction on
                                     * its SIMD: it waited for that one at most */
        if (s[k - 1].slice == s[k].slice && s[k].c - s[k - 1].c <= i0 && s[k - 1].w != s[k].w)
            waited[s[k].e] = s[k - 1].c;
    for (uint32_t w = 0; w < tr->nwf; w++) {
        uint64_t prev = tr->wf[w].begin;
        for (uint32_t j = 0; j < tr->wf[w].n; j++) {
            uint32_t e = tr->wf[w].first + j;
            uint64_t c = tr->ev[e].cycle, ready = umax(prev, waited[e]);
            if (ready > c)
                ready = c;
            own[e] = ready - prev;
            prev = c;
        }
    }
    free(s);
    free(waited);
    return 0;
}

/* ---- the model --------------------------------------------------------- */
typedef struct {
    uint32_t first_wf, nwf;     /* its wavefronts: order[first_wf ..] */
    uint64_t first_begin;       /* traced */
    uint32_t cu, left;          /* placed on; wavefronts not ended */
    uint32_t nd;                /* its ND-range */
    uint64_t end, last_store;
} wgrp;

typedef struct { uint64_t t; int d; uint32_t cu; } iv;
static int ivcmp(const void *a, const void *b)
{
    const iv *x = a, *y = b;
    if (x->t != y->t)
        return x->t < y->t ? -1 : 1;
    return x->d - y->d;     /* ends (-1) first */
}

typedef struct { uint32_t nd, wg, w; } wkey;
static int wf_cmp(const void *a, const void *b)
{
    const wkey *x = a, *y = b;
    if (x->nd != y->nd)
        return x->nd < y->nd ? -1 : 1;
    if (x->wg != y->wg)
        return x->wg < y->wg ? -1 : 1;
    return x->w < y->w ? -1 : x->w > y->w;
}
static int wg_cmp(const void *a, const void *b)
{
    const wgrp *x = a, *y = b;
    if (x->nd != y->nd)
        return x->nd < y->nd ? -1 : 1;
    if (x->first_begin != y->first_begin)
        return x->first_begin < y->first_begin ? -1 : 1;
    return x->first_wf < y->first_wf ? -1 : x->first_wf > y->first_wf;
}

static int64_t delta(uint32_t a, uint32_t b) { return (int64_t)a - (int64_t)b; }
static uint64_t add_d(uint64_t t, int64_t d, uint64_t floor)
{
    int64_t r = (int64_t)t + d;
    return r < (int64_t)floor ? floor : (uint64_t)r;
}

int rft_cumodel_run(const rft_cm_trace *tr, const rft_m2scfg *traced, const rft_m2scfg *cfg,
                    rft_cm_result *total, rft_cm_result *nd_out, uint32_t nnd_out)
{
    memset(total, 0, sizeof *total);
    if (nd_out)
        memset(nd_out, 0, nnd_out * sizeof *nd_out);
    if (!tr->nwf)
        return 0;
    uint32_t issue = tr->issue ? tr->issue : 4;
    uint32_t i0 = simd_interval(traced, issue), i1 = simd_interval(cfg, issue);
    int64_t d_vm = delta(cfg->vm_write_latency, traced->vm_write_latency);
    int64_t d_lds = delta(cfg->lds_write_latency, traced->lds_write_latency);
    uint32_t vm_int = ceil_div(cfg->vm_write_latency, cfg->vm_write_buffer);
    uint32_t lds_int = ceil_div(cfg->lds_write_latency, cfg->lds_write_buffer);
    uint32_t npools = cfg->num_pools, ncu = cfg->num_cu;
    int rc = -1;

    uint64_t *own = malloc((tr->nev ? tr->nev : 1) * sizeof *own);
    uint64_t *simd_free = calloc((size_t)ncu * npools, sizeof *simd_free);
    uint64_t *vm_free = calloc(ncu, sizeof *vm_free), *lds_free = calloc(ncu, sizeof *lds_free);
    uint32_t *res_wg = calloc(ncu, sizeof *res_wg), *res_wf = calloc(ncu, sizeof *res_wf);
    uint32_t *order = malloc(tr->nwf * sizeof *order), *wgof = malloc(tr->nwf * sizeof *wgof);
    uint32_t *next = malloc(tr->nwf * sizeof *next);     /* next event of each wavefront */
    uint64_t *t_last = malloc(tr->nwf * sizeof *t_last);
    wgrp *g = malloc(tr->nwf * sizeof *g);
    heap h = {0};
    if (!own || !simd_free || !vm_free || !lds_free || !res_wg || !res_wf || !order || !wgof ||
        !next || !t_last || !g || own_parts(tr, i0, own))
        goto out;

    /* work-groups: consecutive runs of wavefronts of one (ND-range, wg) in
     * order of begin; a wavefront without a work-group is one alone */
    uint32_t ng = 0;
    {
        /* wavefronts by (ND-range, work-group, begin); a run of one key is a
         * work-group (a wavefront without one is alone); groups then by
         * (ND-range, first begin) */
        wkey *kk = malloc(tr->nwf * sizeof *kk);
        if (!kk)
            goto out;
        for (uint32_t w = 0; w < tr->nwf; w++)
            kk[w] = (wkey){tr->wf[w].ndrange, tr->wf[w].wg, w};
        qsort(kk, tr->nwf, sizeof *kk, wf_cmp);
        for (uint32_t w = 0; w < tr->nwf; w++)
            order[w] = kk[w].w;
        free(kk);
        for (uint32_t i = 0; i < tr->nwf; i++) {
            const rft_cm_wf *f = &tr->wf[order[i]];
            const rft_cm_wf *p = i ? &tr->wf[order[i - 1]] : NULL;
            if (!p || p->ndrange != f->ndrange || p->wg != f->wg || f->wg == RFT_NO_WG)
                g[ng++] = (wgrp){.first_wf = i, .nwf = 0, .first_begin = f->begin, .nd = f->ndrange};
            g[ng - 1].nwf++;
            g[ng - 1].first_begin = f->begin < g[ng - 1].first_begin ? f->begin : g[ng - 1].first_begin;
        }
        qsort(g, ng, sizeof *g, wg_cmp);
        for (uint32_t q = 0; q < ng; q++)
            for (uint32_t j = 0; j < g[q].nwf; j++)
                next[order[g[q].first_wf + j]] = q;
        /* order[] again, groups in their new order */
        uint32_t k = 0;
        for (uint32_t q = 0; q < ng; q++) {
            for (uint32_t j = 0; j < g[q].nwf; j++)
                wgof[k + j] = order[g[q].first_wf + j];
            g[q].first_wf = k;
            k += g[q].nwf;
        }
        memcpy(order, wgof, tr->nwf * sizeof *order);
        for (uint32_t w = 0; w < tr->nwf; w++)
            wgof[w] = next[w];
    }

    /* the most work-groups resident on one compute unit at once, traced:
     * it carries the register and LDS limits the trace cannot name */
    uint32_t cap_wg = npools * cfg->max_wg_per_pool, cap_wf = npools * cfg->max_wf_per_pool;
    {
        uint32_t tmax = 0;
        iv *v = malloc(2 * (size_t)ng * sizeof *v);
        if (!v)
            goto out;
        uint16_t maxcu = 0;
        for (uint32_t q = 0; q < ng; q++) {
            uint64_t b = UINT64_MAX, e = 0;
            const rft_cm_wf *f0 = &tr->wf[order[g[q].first_wf]];
            for (uint32_t j = 0; j < g[q].nwf; j++) {
                const rft_cm_wf *f = &tr->wf[order[g[q].first_wf + j]];
                b = f->begin < b ? f->begin : b;
                e = umax(e, f->end);
            }
            v[2 * q] = (iv){b, 1, f0->cu};
            v[2 * q + 1] = (iv){e, -1, f0->cu};
            maxcu = f0->cu > maxcu ? f0->cu : maxcu;
        }
        uint32_t *cnt = calloc((size_t)maxcu + 1, sizeof *cnt);
        if (!cnt) {
            free(v);
            goto out;
        }
        size_t n = 2 * (size_t)ng;
        qsort(v, n, sizeof *v, ivcmp);       /* by time, ends before begins */
        for (size_t i = 0; i < n; i++) {
            if (v[i].d > 0) {
                if (++cnt[v[i].cu] > tmax)
                    tmax = cnt[v[i].cu];
            } else {
                cnt[v[i].cu]--;
            }
        }
        free(cnt);
        free(v);
        if (tmax && tmax < cap_wg)
            cap_wg = tmax;
    }

    /* ND-ranges in order; their wavefront groups are in order of first begin */
    uint64_t clock = tr->wf[0].begin, first = clock, prev_traced_end = 0;
    uint64_t trace_end = 0;
    for (uint32_t w = 0; w < tr->nwf; w++)
        trace_end = umax(trace_end, tr->wf[w].end);
    uint32_t q0 = 0;
    uint64_t maxlat_all = 0;    /* the longest vector-memory load latency seen */
    for (uint64_t e = 0; e < tr->nev; e++)
        if (tr->ev[e].unit == RFT_CM_VMEM && !tr->ev[e].store)
            maxlat_all = umax(maxlat_all, own[e]);
    while (q0 < ng) {
        uint32_t nd = tr->wf[order[g[q0].first_wf]].ndrange, q1 = q0;
        uint64_t tb = UINT64_MAX, te = 0, nlat = 0, ninst = 0, maxlat = 0;
        while (q1 < ng && tr->wf[order[g[q1].first_wf]].ndrange == nd)
            q1++;
        for (uint32_t q = q0; q < q1; q++)
            for (uint32_t j = 0; j < g[q].nwf; j++) {
                const rft_cm_wf *f = &tr->wf[order[g[q].first_wf + j]];
                tb = f->begin < tb ? f->begin : tb;
                te = umax(te, f->end);
                ninst += f->n;
                for (uint32_t k = 0; k < f->n; k++)
                    if (tr->ev[f->first + k].unit == RFT_CM_VMEM && !tr->ev[f->first + k].store)
                        nlat++, maxlat = umax(maxlat, own[f->first + k]);
            }
        /* 4: a store drains in the longest load latency of its ND-range (a
         * load's own part may be a cache hit; a store goes to memory) */
        uint64_t drain = nlat ? maxlat : maxlat_all;
        /* 6: this ND-range starts once the previous ended everywhere */
        if (q0 > 0 && tb > prev_traced_end)
            clock += tb - prev_traced_end;
        uint64_t start = q0 > 0 ? clock : tb, end = start;
        memset(res_wg, 0, ncu * sizeof *res_wg);
        memset(res_wf, 0, ncu * sizeof *res_wf);
        for (size_t i = 0; i < (size_t)ncu * npools; i++)
            simd_free[i] = umax(simd_free[i], start);
        uint32_t pend = q0;
        h.n = 0;
        uint64_t now = start;
#define DISPATCH()                                                                        \
        while (pend < q1) {                                                              \
            uint32_t best = NONE;                                                        \
            for (uint32_t c = 0; c < ncu; c++)                                           \
                if ((res_wg[c] < cap_wg && res_wf[c] + g[pend].nwf <= cap_wf) || !res_wg[c]) \
                    if (best == NONE || res_wg[c] < res_wg[best])                        \
                        best = c;                                                        \
            if (best == NONE)                                                            \
                break;                                                                   \
            wgrp *D = &g[pend];                                                          \
            D->cu = best, D->left = D->nwf, D->end = now, D->last_store = 0;              \
            res_wg[best]++, res_wf[best] += D->nwf;                                      \
            for (uint32_t j = 0; j < D->nwf; j++) {                                      \
                uint32_t ww = order[D->first_wf + j];                                     \
                uint64_t bb = now + (tr->wf[ww].begin - D->first_begin) +                  \
                              (now == start ? D->first_begin - tb : 0);                  \
                next[ww] = 0;                                                             \
                t_last[ww] = bb;                                                           \
                uint64_t rr = tr->wf[ww].n ? bb + own[tr->wf[ww].first] : bb;                 \
                if (hpush(&h, (hent){rr, 1, ww}))                                          \
                    goto out;                                                            \
            }                                                                            \
            pend++;                                                                      \
        }
        DISPATCH();
        while (h.n) {
            hent x = hpop(&h);
            now = x.t;
            if (x.kind == 0) {      /* a work-group ends: its slot frees */
                wgrp *G = &g[x.id];
                res_wg[G->cu]--, res_wf[G->cu] -= G->nwf;
                end = umax(end, x.t);
                DISPATCH();
                continue;
            }
            uint32_t w = x.id;
            const rft_cm_wf *f = &tr->wf[w];
            wgrp *G = &g[wgof[w]];
            if (next[w] < f->n) {
                uint32_t e = f->first + next[w];
                const rft_cm_ev *ev = &tr->ev[e];
                uint64_t r = x.t, t;
                uint32_t cu = G->cu;
                if (ev->unit == RFT_CM_ALU) {       /* 1, 3: the SIMD, oldest ready first */
                    uint64_t *sf = &simd_free[(size_t)cu * npools + f->simd % npools];
                    uint64_t s = umax(r, *sf);
                    *sf = s + i1;
                    t = s;      /* 4.2 tracks no register: the wavefront goes on once it issued */
                } else if (ev->unit == RFT_CM_VMEM) {   /* 1: the write stage and its buffer */
                    uint64_t a = add_d(r, d_vm, r);
                    t = umax(a, vm_free[cu]);
                    vm_free[cu] = t + vm_int;
                    if (ev->store)
                        G->last_store = umax(G->last_store, t);
                    if (ev->store)      /* the wavefront goes on once the stage took it */
                        t = r + (t - a);
                } else {                                /* 5: the LDS, in ready order */
                    uint64_t a = add_d(r, d_lds, r);
                    t = umax(a, lds_free[cu]);
                    lds_free[cu] = t + lds_int;
                    t = r + (t - a);    /* as a store: waited on only at an s_waitcnt */
                }
                t_last[w] = t;
                next[w]++;
                uint64_t nr = next[w] < f->n ? t + own[f->first + next[w]]
                                             : t + (f->end - tr->ev[f->first + f->n - 1].cycle);
                if (hpush(&h, (hent){nr, 1, w}))
                    goto out;
                continue;
            }
            /* the wavefront ends at x.t */
            G->end = umax(G->end, x.t);
            if (--G->left == 0) {           /* 4: the work-group ends when its stores drain */
                uint64_t ge = G->end;
                if (G->last_store)
                    ge = umax(ge, G->last_store + drain);
                if (hpush(&h, (hent){ge, 0, wgof[w]}))
                    goto out;
            }
        }
#undef DISPATCH
        if (nd_out && nd < nnd_out) {
            nd_out[nd].traced += te - tb;
            nd_out[nd].cycles += end - start;
            nd_out[nd].instructions += ninst;
        }
        total->instructions += ninst;
        clock = end;
        prev_traced_end = te;
        q0 = q1;
    }
    total->traced = trace_end - first;
    total->cycles = clock - first;
    rc = 0;
out:
    free(own), free(simd_free), free(vm_free), free(lds_free), free(res_wg), free(res_wf);
    free(order), free(wgof), free(next), free(t_last), free(g), free(h.a);
    return rc ? RFT_EMEM : 0;
}

/* ---- the stage: the stream's wavefronts and events, collected ---------- */
typedef struct {
    rft_cm_wf w;
    rft_cm_ev *ev;
    uint32_t n, cap;
    uint64_t last;      /* cycle of its last event */
    int ended;
    int last_wrote;     /* a register write is among its last event's records */
} cwf;

typedef struct {
    rft_stage head;
    int pass;
    cwf *wf;
    uint32_t nwf, capwf;
    uint64_t *key;      /* open addressing: slice and wavefront -> index + 1 */
    uint32_t *val;
    size_t hcap, hn;
    char **names;
    uint32_t nnames;
    rft_cm_ev *ev;
    rft_cm_wf *flat;
    rft_cm_trace tr;
} cm_stage;

static size_t hslot(const cm_stage *s, uint64_t k)
{
    size_t i = (size_t)((k * 0x9E3779B97F4A7C15ull) >> 20) & (s->hcap - 1);
    while (s->val[i] && s->key[i] != k)
        i = (i + 1) & (s->hcap - 1);
    return i;
}

static int hput(cm_stage *s, uint64_t k, uint32_t v)
{
    if (2 * (s->hn + 1) > s->hcap) {
        size_t oc = s->hcap, nc = oc ? 2 * oc : 1024;
        uint64_t *ok = s->key;
        uint32_t *ov = s->val;
        s->key = calloc(nc, sizeof *s->key);
        s->val = calloc(nc, sizeof *s->val);
        if (!s->key || !s->val) {
            free(s->key), free(s->val);
            s->key = ok, s->val = ov;
            return -1;
        }
        s->hcap = nc, s->hn = 0;
        for (size_t i = 0; i < oc; i++)
            if (ov[i]) {
                size_t j = hslot(s, ok[i]);
                s->key[j] = ok[i], s->val[j] = ov[i], s->hn++;
            }
        free(ok), free(ov);
    }
    size_t j = hslot(s, k);
    if (!s->val[j])
        s->hn++;
    s->key[j] = k, s->val[j] = v;
    return 0;
}

static cwf *find(cm_stage *s, uint16_t cu, uint16_t simd, uint32_t wf)
{
    if (!s->hcap)
        return NULL;
    uint64_t k = (uint64_t)cu << 48 | (uint64_t)simd << 32 | wf;
    size_t j = hslot(s, k);
    return s->val[j] ? &s->wf[s->val[j] - 1] : NULL;
}

static int cm_event(cm_stage *s, cwf *f, uint64_t c, uint8_t unit, int store, int write)
{
    if (f->ended)
        return 0;
    if (!f->n && c == f->w.begin && write && !store)
        return 0;                       /* presets */
    if (f->n && f->last == c) {         /* another record of the same instruction */
        rft_cm_ev *e = &f->ev[f->n - 1];
        if (unit == RFT_CM_VMEM || (unit == RFT_CM_LDS && e->unit == RFT_CM_ALU))
            e->unit = unit;
        /* a store is an instruction with a unit record and no register
         * written, whichever of its records (R, U, W) comes first */
        if (write && !store)
            e->store = 0, f->last_wrote = 1;
        else if (store && !f->last_wrote)
            e->store = 1;
        return 0;
    }
    if (rft_grow((void **)&f->ev, f->n, &f->cap, sizeof *f->ev, 16))
        return rft_stage_fail(&s->head, RFT_EMEM, "out of memory");
    f->ev[f->n++] = (rft_cm_ev){c, unit, (uint8_t)(store != 0)};
    f->last = c;
    f->last_wrote = write && !store;
    return 0;
}

static uint8_t unit_of(uint8_t flags)
{
    return flags & RFT_WF_VMEM ? RFT_CM_VMEM : flags & RFT_WF_LDS ? RFT_CM_LDS : RFT_CM_ALU;
}

static int cm_feed(rft_stage *st, rft_rec *rec, const rft_sink *out)
{
    cm_stage *s = (cm_stage *)st;
    int rc = 0;
    uint16_t cu, simd;
    uint32_t wf;
    switch (rec->kind) {
    case RFT_KERNEL: {
        const rft_kernel *k = &rec->u.kernel;
        if (k->index >= s->nnames && k->index < (1u << 24)) {
            char **a = realloc(s->names, (k->index + 1) * sizeof *a);
            if (!a)
                return rft_stage_fail(st, RFT_EMEM, "out of memory");
            for (uint32_t i = s->nnames; i <= k->index; i++)
                a[i] = NULL;
            s->names = a, s->nnames = k->index + 1;
        }
        if (k->index < s->nnames && !s->names[k->index]) {
            s->names[k->index] = malloc((size_t)k->name_len + 1);
            if (!s->names[k->index])
                return rft_stage_fail(st, RFT_EMEM, "out of memory");
            if (k->name_len)
                memcpy(s->names[k->index], k->name, k->name_len);
            s->names[k->index][k->name_len] = 0;
        }
        break;
    }
    case RFT_WFBEGIN: {
        const rft_wfbegin *b = &rec->u.begin;
        if (rft_grow((void **)&s->wf, s->nwf, &s->capwf, sizeof *s->wf, 256))
            return rft_stage_fail(st, RFT_EMEM, "out of memory");
        cwf *f = &s->wf[s->nwf];
        *f = (cwf){.w = {.ndrange = b->kernel == RFT_NO_KERNEL ? 0 : b->kernel, .wg = b->wg,
                         .cu = b->cu, .simd = b->simd, .begin = b->cycle, .end = b->cycle}};
        if (hput(s, (uint64_t)b->cu << 48 | (uint64_t)b->simd << 32 | b->wf, s->nwf + 1))
            return rft_stage_fail(st, RFT_EMEM, "out of memory");
        s->nwf++;
        break;
    }
    case RFT_WFEND: {
        cwf *f = find(s, rec->u.end.cu, rec->u.end.simd, rec->u.end.wf);
        if (f && !f->ended)
            f->w.end = rec->u.end.cycle, f->ended = 1;
        break;
    }
    case RFT_UNITREC: {
        rft_unitrec u;
        if (rec->raw && rft_unit_parse(rec->raw, rec->len, &u) == 0) {
            cwf *f = find(s, u.cu, u.simd, u.wf);
            if (f)
                rc = cm_event(s, f, u.cycle, unit_of(u.flags), 1, 0);
        }
        break;
    }
    case RFT_WRITE: case RFT_READ: case RFT_BUNDLE:
        if (rft_rec_wf(rec, &cu, &simd, &wf)) {
            cwf *f = find(s, cu, simd, wf);
            if (f)
                rc = cm_event(s, f, rft_rec_cycle(rec),
                              rec->kind == RFT_WRITE ? unit_of(rec->w.flags) : RFT_CM_ALU, 0,
                              rec->kind == RFT_WRITE);
        }
        break;
    default:
        break;
    }
    if (rc)
        return rc;
    return s->pass ? out->put(out->ctx, rec) : 0;
}

static int cm_start(rft_stage *st, const rft_header *in, rft_header *out)
{
    cm_stage *s = (cm_stage *)st;
    (void)out;
    s->tr.issue = in->geom.block_lanes ? in->geom.lanes / in->geom.block_lanes : 4;
    return 0;
}

static int cm_finish(rft_stage *st, const rft_sink *out)
{
    cm_stage *s = (cm_stage *)st;
    (void)out;
    uint64_t nev = 0;
    for (uint32_t i = 0; i < s->nwf; i++)
        nev += s->wf[i].n;
    s->ev = malloc((nev ? nev : 1) * sizeof *s->ev);
    s->flat = malloc((s->nwf ? s->nwf : 1) * sizeof *s->flat);
    if (!s->ev || !s->flat)
        return rft_stage_fail(st, RFT_EMEM, "out of memory");
    uint64_t k = 0;
    for (uint32_t i = 0; i < s->nwf; i++) {
        cwf *f = &s->wf[i];
        if (f->n && f->w.end < f->last)
            f->w.end = f->last;         /* a wavefront without its end record */
        s->flat[i] = f->w;
        s->flat[i].first = (uint32_t)k, s->flat[i].n = f->n;
        if (f->n)
            memcpy(s->ev + k, f->ev, f->n * sizeof *f->ev);
        k += f->n;
        free(f->ev);
        f->ev = NULL;
    }
    s->tr.wf = s->flat, s->tr.nwf = s->nwf, s->tr.ev = s->ev, s->tr.nev = nev;
    return 0;
}

static void cm_free(rft_stage *st)
{
    cm_stage *s = (cm_stage *)st;
    for (uint32_t i = 0; i < s->nwf; i++)
        free(s->wf[i].ev);
    for (uint32_t i = 0; i < s->nnames; i++)
        free(s->names[i]);
    free(s->names), free(s->wf), free(s->key), free(s->val), free(s->ev), free(s->flat);
    free(s);
}

static const rft_stage_ops cm_ops = {"rft-replay", cm_start, cm_feed, cm_finish, cm_free, 1};

rft_stage *rft_cumodel_new(int pass)
{
    cm_stage *s = rft_stage_alloc(sizeof *s, &cm_ops);
    if (s)
        s->pass = pass;
    return &s->head;
}

const rft_cm_trace *rft_cumodel_trace(const rft_stage *st) { return &((const cm_stage *)st)->tr; }
uint32_t rft_cumodel_nndranges(const rft_stage *st)
{
    const cm_stage *s = (const cm_stage *)st;
    uint32_t n = s->nnames;
    for (uint32_t i = 0; i < s->tr.nwf; i++)
        if (s->tr.wf[i].ndrange >= n)
            n = s->tr.wf[i].ndrange + 1;
    return n;
}
const char *rft_cumodel_ndname(const rft_stage *st, uint32_t nd)
{
    const cm_stage *s = (const cm_stage *)st;
    return nd < s->nnames && s->names[nd] ? s->names[nd] : "";
}
