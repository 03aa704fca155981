/* classify.c - the value pattern of every register write (classify.h). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "classify.h"
#include "names.h"

#define NO_GROUP (~0u)

typedef struct {            /* a kernel, by name: launches of one kernel share it */
    char *name;
    unsigned bs;
    rft_classify_counts all, *reg;  /* reg: per logical register (by_reg) */
    unsigned nreg;
    uint64_t cover[2 * RFT_PATTERN_MAX_BS];  /* coverage: writes that fit, per rule */
} group;

typedef struct {            /* a live wavefront */
    unsigned group;
    int have_full;
    uint8_t full[RFT_MAX_LANES / 8];  /* its full exec mask: that of its first write */
    uint64_t *comp;         /* bit per logical register: content compressed now */
    unsigned ncomp;         /* words in comp */
} wave;

typedef struct classify {
    rft_stage st;
    rft_classify_opts o;
    rft_geom geom;
    group *groups;
    unsigned ngroups, gcap, cur_group;
    rft_map gbyname;        /* a name's key -> its group */
    unsigned *kgroup, nk;   /* kernel index -> group */
    rft_map wfs;            /* wavefront key -> index in waves */
    wave *waves;
    unsigned nwaves, wcap, *free_waves, nfree;
    rft_pattern_opts rule[2 * RFT_PATTERN_MAX_BS];  /* coverage rules */
    unsigned nrules;
} classify;

static int oom(classify *c) { return rft_stage_fail(&c->st, RFT_EMEM, "out of memory"); }

/* Array p of *n elements of size sz, grown to want elements (at least),
 * the new ones filled with byte fill; NULL when out of memory (p is left
 * as it was). */
static void *grow(void *p, unsigned *n, unsigned want, size_t sz, int fill)
{
    if (want <= *n)
        return p;
    void *np = realloc(p, (size_t)want * sz);
    if (np) {
        memset((char *)np + (size_t)*n * sz, fill, (size_t)(want - *n) * sz);
        *n = want;
    }
    return np;
}

/* The group of kernel name, created with the stage's block size if new;
 * NO_GROUP when out of memory.  O(1): the groups are searched in full only
 * when two names share a key. */
static unsigned group_of(classify *c, const char *name, size_t len)
{
    uint64_t key = rft_name_key(name, len);
    const uint64_t *v = rft_map_get(&c->gbyname, key);
    if (v) {
        const char *g = c->groups[*v].name;
        if (strlen(g) == len && memcmp(g, name, len) == 0)
            return (unsigned)*v;
        for (unsigned i = 0; i < c->ngroups; i++)
            if (strlen(c->groups[i].name) == len && memcmp(c->groups[i].name, name, len) == 0)
                return i;
    }
    if (c->ngroups == c->gcap) {
        unsigned n = c->gcap;
        group *ng = grow(c->groups, &n, c->gcap ? 2 * c->gcap : 16, sizeof *ng, 0);
        if (!ng)
            return NO_GROUP;
        c->groups = ng;
        c->gcap = n;
    }
    group *gr = memset(&c->groups[c->ngroups], 0, sizeof *gr);
    if (!(gr->name = malloc(len + 1)) || rft_map_put(&c->gbyname, key, c->ngroups)) {
        free(gr->name);
        gr->name = NULL;
        return NO_GROUP;
    }
    if (len)
        memcpy(gr->name, name, len);
    gr->name[len] = 0;
    gr->bs = c->o.po.bs;
    return c->ngroups++;
}

static int on_kernel(classify *c, const rft_kernel *k)
{
    if (k->index >= 1u << 24)   /* a table by index: kernels are numbered 0, 1, ... */
        return rft_stage_fail(&c->st, RFT_EFORMAT, "kernel index %u: rft-classify keeps kernels 0 to %u",
                              k->index, (1u << 24) - 1);
    /* doubled, not grown by one: a kernel a record costs no copy of them all */
    unsigned want = k->index + 1 > 2 * c->nk ? k->index + 1 : 2 * c->nk;
    unsigned *kg = k->index < c->nk ? c->kgroup
                                    : grow(c->kgroup, &c->nk, want, sizeof *kg, 0xff); /* NO_GROUP: unseen */
    if (!kg)
        return oom(c);
    c->kgroup = kg;
    if ((c->cur_group = c->kgroup[k->index] = group_of(c, k->name, k->name_len)) == NO_GROUP)
        return oom(c);
    return 0;
}

/* The wavefront's state, created (or reset, at its begin record b) on
 * demand; NULL when out of memory. */
static wave *wave_get(classify *c, uint16_t cu, uint16_t simd, uint32_t wf, const rft_wfbegin *b)
{
    uint64_t key = rft_wf_key(cu, simd, wf), *v = rft_map_get(&c->wfs, key);
    unsigned i;
    if (v && !b)
        return &c->waves[*v];
    if (v)
        i = (unsigned)*v;
    else if (c->nfree)
        i = c->free_waves[--c->nfree];
    else {
        if (c->nwaves == c->wcap) {     /* zeroed: no comp words yet */
            unsigned want = c->wcap ? 2 * c->wcap : 64, nw = c->wcap, nf = c->wcap;
            wave *ws = grow(c->waves, &nw, want, sizeof *ws, 0);
            if (ws)
                c->waves = ws;
            unsigned *fs = ws ? grow(c->free_waves, &nf, want, sizeof *fs, 0) : NULL;
            if (!fs)
                return NULL;
            c->free_waves = fs;
            c->wcap = want;
        }
        i = c->nwaves++;
    }
    if (!v && rft_map_put(&c->wfs, key, i))
        return NULL;
    wave *wv = &c->waves[i];
    if (b && b->kernel < c->nk && c->kgroup[b->kernel] != NO_GROUP)
        wv->group = c->kgroup[b->kernel];
    else {
        if (c->cur_group == NO_GROUP && (c->cur_group = group_of(c, "-", 1)) == NO_GROUP)
            return NULL;
        wv->group = c->cur_group;
    }
    wv->have_full = 0;
    if (wv->ncomp)
        memset(wv->comp, 0, wv->ncomp * sizeof *wv->comp);
    return wv;
}

static void wave_end(classify *c, const rft_wfend *e)
{
    uint64_t key = rft_wf_key(e->cu, e->simd, e->wf), *v = rft_map_get(&c->wfs, key);
    if (v) {
        c->free_waves[c->nfree++] = (unsigned)*v;
        rft_map_del(&c->wfs, key);
    }
}

/* Read and update the compressed bit of register r: the old bit, or -1
 * when out of memory. */
static int swap_comp(wave *wv, unsigned r, int now)
{
    unsigned word = r / 64;
    uint64_t *comp = grow(wv->comp, &wv->ncomp, word + 1, sizeof *comp, 0);
    if (!comp)
        return -1;
    wv->comp = comp;
    uint64_t bit = 1ull << (r % 64);
    int was = (wv->comp[word] & bit) != 0;
    wv->comp[word] = now ? wv->comp[word] | bit : wv->comp[word] & ~bit;
    return was;
}

static void count(rft_classify_counts *s, const rft_write *w, uint32_t on)
{
    s->n[RFT_CC_WRITES]++;
    s->n[RFT_CC_CONST + w->cls - RFT_CLS_CONST]++;
    s->n[RFT_CC_COMPR] += w->cls != RFT_CLS_OTHER && !(w->flags & RFT_WF_DIVERGENT);
    s->n[RFT_CC_MISP] += w->cls == RFT_CLS_OTHER && (w->flags & RFT_WF_FIRSTBLOCK) &&
                         !(w->flags & RFT_WF_DIVERGENT);
    s->n[RFT_CC_DIV] += (w->flags & RFT_WF_DIVERGENT) != 0;
    s->n[RFT_CC_MOV] += (w->flags & RFT_WF_MOV) != 0;
    s->n[RFT_CC_WC_BASE + w->wc - RFT_WC_BASE]++;
    s->n[RFT_CC_WC_ON_BITS] += on;
}

static int annotate(classify *c, rft_write *w)
{
    wave *wv = wave_get(c, w->cu, w->simd, w->wf, NULL);
    if (!wv)
        return oom(c);
    group *gr = &c->groups[wv->group];
    rft_pattern_opts o = c->o.po;
    rft_pattern p;
    uint32_t on, mb = rft_mask_bytes(&c->geom);

    o.bs = gr->bs;
    rft_pattern_classify(w->val, c->geom.lanes, c->geom.block_lanes, &o, &p);
    if (!wv->have_full) {
        memcpy(wv->full, w->mask, mb);
        wv->have_full = 1;
    }
    int div = memcmp(w->mask, wv->full, mb) != 0;
    /* the compressor is off for divergent writes: they leave the register
     * uncompressed, and a compressed one needs a decompressing MOV first */
    int was = swap_comp(wv, w->vreg, !div && p.cls != RFT_CLS_OTHER);
    if (was < 0)
        return oom(c);
    int mov = was && div;
    w->cls = (uint8_t)p.cls;
    w->bs = (uint8_t)o.bs;
    w->c0 = p.c0;
    w->de = p.de;
    w->db = p.db;
    w->wc = (uint8_t)rft_wc_classify(w->val, c->geom.lanes, &on);
    w->flags = (uint8_t)((w->flags & ~(RFT_WF_FIRSTBLOCK | RFT_WF_DIVERGENT | RFT_WF_MOV)) |
                         (p.firstblock ? RFT_WF_FIRSTBLOCK : 0) | (div ? RFT_WF_DIVERGENT : 0) |
                         (mov ? RFT_WF_MOV : 0));
    count(&gr->all, w, on);
    if (c->o.by_reg) {
        rft_classify_counts *reg = grow(gr->reg, &gr->nreg, w->vreg + 1u, sizeof *reg, 0);
        if (!reg)
            return oom(c);
        gr->reg = reg;
        count(&gr->reg[w->vreg], w, on);
    }
    return 0;
}

static int cover(classify *c, const rft_write *w)
{
    wave *wv = wave_get(c, w->cu, w->simd, w->wf, NULL);
    if (!wv)
        return oom(c);
    group *gr = &c->groups[wv->group];
    gr->all.n[RFT_CC_WRITES]++;
    for (unsigned r = 0; r < c->nrules; r++) {
        rft_pattern p;
        rft_pattern_classify(w->val, c->geom.lanes, c->geom.lanes, &c->rule[r], &p);
        gr->cover[r] += p.cls != RFT_CLS_OTHER;
    }
    return 0;
}

static int start(rft_stage *st, const rft_header *in, rft_header *out)
{
    classify *c = (classify *)st;
    c->geom = in->geom;
    if (c->o.cover)
        return 0;       /* nothing annotated */
    char meta[96], bs[8] = "auto";
    if (!c->o.bs_auto)
        snprintf(bs, sizeof bs, "%u", c->o.po.bs);
    if (c->o.po.any)
        snprintf(meta, sizeof meta, "bs=%s deltas=any", bs);
    else
        snprintf(meta, sizeof meta, "bs=%s deltas=pow2 max-delta=%u", bs, c->o.po.max_delta);
    const char *old = rft_header_get(in, "classify");
    if (old && strcmp(old, meta) != 0)
        rft_stage_warn(st, "warning: %s: re-classifying writes classified with %s", st->input, old);
    if (rft_header_set(out, "classify", meta))
        return rft_stage_fail(st, RFT_EFORMAT, "cannot copy the header");
    return 0;
}

static int feed(rft_stage *st, rft_rec *rec, const rft_sink *out)
{
    classify *c = (classify *)st;
    int e = 0;
    switch (rec->kind) {
    case RFT_KERNEL: e = on_kernel(c, &rec->u.kernel); break;
    case RFT_WFBEGIN: {
        const rft_wfbegin *b = &rec->u.begin;
        if (!wave_get(c, b->cu, b->simd, b->wf, b))
            e = oom(c);
        break;
    }
    case RFT_WFEND: wave_end(c, &rec->u.end); break;
    case RFT_WRITE: e = c->o.cover ? cover(c, &rec->w) : annotate(c, &rec->w); break;
    }
    return e ? e : out->put(out->ctx, rec);
}

static void classify_free(rft_stage *st)
{
    classify *c = (classify *)st;
    for (unsigned i = 0; i < c->ngroups; i++) {
        free(c->groups[i].name);
        free(c->groups[i].reg);
    }
    for (unsigned i = 0; i < c->nwaves; i++)
        free(c->waves[i].comp);
    free(c->groups);
    free(c->kgroup);
    free(c->waves);
    free(c->free_waves);
    rft_map_free(&c->wfs);
    rft_map_free(&c->gbyname);
    free(c);
}

static const rft_stage_ops ops = {"rft-classify", start, feed, NULL, classify_free, 0};

void rft_classify_opts_default(rft_classify_opts *o)
{
    memset(o, 0, sizeof *o);
    rft_pattern_opts_default(&o->po);
}

rft_stage *rft_classify_new(const rft_classify_opts *o)
{
    classify *c = rft_stage_alloc(sizeof *c, &ops);
    if (!c)
        return NULL;
    c->o = *o;
    c->cur_group = NO_GROUP;
    if (o->cover == RFT_COVER_POW2)
        for (unsigned bs = 1; bs <= RFT_PATTERN_MAX_BS; bs *= 2)
            c->rule[c->nrules++] = (rft_pattern_opts){bs, o->po.any, o->po.max_delta};
    if (o->cover == RFT_COVER_SWEEP)
        for (unsigned bs = 1; bs <= RFT_PATTERN_MAX_BS; bs++) {
            c->rule[c->nrules++] = (rft_pattern_opts){bs, 0, o->po.max_delta};
            c->rule[c->nrules++] = (rft_pattern_opts){bs, 1, o->po.max_delta};
        }
    if (rft_map_init(&c->wfs, 64) || rft_map_init(&c->gbyname, 64)) {
        classify_free(&c->st);
        return NULL;
    }
    return &c->st;
}

int rft_classify_choose_bs(rft_stage *s, const rft_stage *cover_stage)
{
    classify *c = (classify *)s;
    const classify *cv = (const classify *)cover_stage;
    if (cv->st.ops != &ops || cv->o.cover != RFT_COVER_POW2)
        return RFT_EFORMAT;
    for (unsigned i = 0; i < cv->ngroups; i++) {
        const group *gr = &cv->groups[i];
        unsigned best = 3;  /* rule[3] is bs 8 */
        for (unsigned r = 0; r < cv->nrules; r++)
            if (gr->cover[r] > gr->cover[best])
                best = r;
        unsigned k = group_of(c, gr->name, strlen(gr->name));
        if (k == NO_GROUP)
            return RFT_EMEM;
        c->groups[k].bs = cv->rule[best].bs;
    }
    return 0;
}

unsigned rft_classify_nkernels(const rft_stage *s) { return ((const classify *)s)->ngroups; }

void rft_classify_kernel_get(const rft_stage *s, unsigned i, rft_classify_kernel *k)
{
    const group *gr = &((const classify *)s)->groups[i];
    *k = (rft_classify_kernel){gr->name, gr->bs, &gr->all, gr->reg, gr->nreg, gr->cover};
}

unsigned rft_classify_nrules(const rft_stage *s) { return ((const classify *)s)->nrules; }

const rft_pattern_opts *rft_classify_rule(const rft_stage *s, unsigned c)
{
    return &((const classify *)s)->rule[c];
}

uint32_t rft_classify_lanes(const rft_stage *s) { return ((const classify *)s)->geom.lanes; }
