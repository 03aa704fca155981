/* dutycmp.c - duty maps side by side (rft-vth(1)): the statistics of
 * several maps over the same register file, each map's averages per slice
 * and per fault class, an entry one map left unused joining another's
 * averages (rft_duty_cmp, duty.h).  Split from duty.c (issue 36): the
 * accounting engine there, the comparison here. */
#include "duty.h"

#include <stdlib.h>
#include <string.h>

/* An entry a map left unused, held until every map is read: if another map
 * uses it, it joins this map's averages.  Its cells are runs of equal
 * times (an unused entry's cells are alike, as a rule). */
typedef struct held {
    size_t map;
    uint64_t key;                   /* entry_key() */
    uint16_t cu, simd;
    uint64_t cycles;
    size_t run0, nruns;             /* its runs[] */
} held;
typedef struct held_run {
    uint32_t from, n;               /* cells from .. from + n - 1 */
    uint64_t t1, toff;
} held_run;

struct rft_duty_cmp {
    rft_duty_cmp_opts o;
    rft_duty_map_stats *maps;
    size_t nmaps;
    uint32_t bits, entries;         /* geometry of the first duty record */
    rft_duty_rec d;                 /* the record being read */
    uint8_t sel[RFT_FC_N][RFT_MAX_LANES];   /* by_fault: the blocks of each class */
    rft_map used;                   /* entries (entry_key) used in some map */
    held *held;
    size_t nheld, cheld;
    held_run *runs;
    size_t nruns, cruns;
};

static uint64_t entry_key(const rft_duty_rec *d)
{
    return (uint64_t)rft_slice_key(d->cu, d->simd) << 16 | d->entry;
}

typedef struct cmp_stage {          /* reads one map */
    rft_stage st;
    rft_duty_cmp *c;
    rft_duty_map_stats *m;
    uint64_t count;                 /* records fed */
} cmp_stage;

static int stats_init(const rft_duty_cmp *c, rft_duty_stats *s)
{
    memset(s, 0, sizeof *s);
    s->include_unused = c->o.include_unused;
    if (c->o.per_bit && (!(s->bit0 = calloc(c->bits, sizeof *s->bit0)) ||
                         !(s->bit1 = calloc(c->bits, sizeof *s->bit1)) ||
                         !(s->bitoff = calloc(c->bits, sizeof *s->bitoff))))
        return RFT_EMEM;
    if (c->o.per_reg) {
        s->nreg = c->entries;
        if (!(s->reg0 = calloc(c->entries, sizeof *s->reg0)) ||
            !(s->reg1 = calloc(c->entries, sizeof *s->reg1)) || !(s->reg_used = calloc(c->entries, 1)))
            return RFT_EMEM;
    }
    return 0;
}

static void stats_free(rft_duty_stats *s)
{
    free(s->bit0);
    free(s->bit1);
    free(s->bitoff);
    free(s->reg0);
    free(s->reg1);
    free(s->reg_used);
}

rft_duty_cmp *rft_duty_cmp_new(const rft_duty_cmp_opts *o, size_t nmaps)
{
    rft_duty_cmp *c = calloc(1, sizeof *c);
    if (!c || !(c->maps = calloc(nmaps ? nmaps : 1, sizeof *c->maps)) ||
        !(c->d.t1 = malloc(RFT_MAX_LANES * 32 * sizeof *c->d.t1)) ||
        !(c->d.toff = malloc(RFT_MAX_LANES * 32 * sizeof *c->d.toff)) ||
        rft_map_init(&c->used, 1024)) {
        rft_duty_cmp_free(c);
        return NULL;
    }
    c->o = *o;
    c->nmaps = nmaps;
    for (size_t i = 0; i < nmaps; i++)
        rft_fmset_init(&c->maps[i].fm);
    return c;
}

void rft_duty_cmp_free(rft_duty_cmp *c)
{
    if (!c)
        return;
    for (size_t i = 0; c->maps && i < c->nmaps; i++) {
        rft_duty_map_stats *m = &c->maps[i];
        for (size_t k = 0; k < m->nsl; k++)
            stats_free(&m->sl[k].st);
        free(m->sl);
        stats_free(&m->all);
        for (int k = 0; k < RFT_FC_N; k++)
            stats_free(&m->cls[k]);
        rft_fmset_free(&m->fm);
    }
    free(c->maps);
    free(c->d.t1);
    free(c->d.toff);
    rft_map_free(&c->used);
    free(c->held);
    free(c->runs);
    free(c);
}

const rft_duty_map_stats *rft_duty_cmp_map(const rft_duty_cmp *c, size_t i) { return &c->maps[i]; }
uint32_t rft_duty_cmp_bits(const rft_duty_cmp *c) { return c->bits; }
uint32_t rft_duty_cmp_entries(const rft_duty_cmp *c) { return c->entries; }

/* The first map's name in a message, or its place where the name would not
 * fit the stage's message. */
static const char *first_name(const rft_duty_cmp *c)
{
    return strlen(c->maps[0].name) < RFT_STAGE_WHY / 2 ? c->maps[0].name : "the first map";
}

static int same_faultmap(const rft_faultmap *a, const rft_faultmap *b)
{
    return a->entries == b->entries && a->blocks == b->blocks && a->ecp == b->ecp &&
           memcmp(a->bits, b->bits, (size_t)a->entries * a->blocks) == 0;
}

/* An entry's cells into the classes of its slice's fault map. */
static int by_class(cmp_stage *s, const rft_duty_rec *d)
{
    rft_duty_cmp *c = s->c;
    rft_duty_map_stats *m = s->m;
    const rft_faultmap *fm = rft_fmset_find(&m->fm, d->cu, d->simd), *f0;
    if (!fm)
        return rft_stage_fail(&s->st, RFT_EFORMAT, "no fault map for slice %u:%u before its duty "
                              "map: put rft-faultmap(1) before the placement in every pipeline "
                              "compared", d->cu, d->simd);
    if (fm->entries != d->entries || d->bits % fm->blocks)
        return rft_stage_fail(&s->st, RFT_EFORMAT, "the fault map of slice %u:%u is %u entries x "
                              "%u blocks, the duty map %u entries of %u cells", d->cu, d->simd,
                              fm->entries, fm->blocks, d->entries, d->bits);
    /* one table compares placements on the same cells */
    if (m != c->maps && (!(f0 = rft_fmset_find(&c->maps[0].fm, d->cu, d->simd)) ||
                         !same_faultmap(f0, fm)))
        return rft_stage_fail(&s->st, RFT_EFORMAT, "the fault map of slice %u:%u differs from "
                              "that of %s: compare placements on one undervolted register file",
                              d->cu, d->simd, first_name(c));
    memset(c->sel, 0, sizeof c->sel);
    int faulty = rft_faultmap_entry_faulty(fm, d->entry);
    for (uint32_t b = 0; b < fm->blocks; b++)
        c->sel[!faulty ? RFT_FC_RELIABLE : rft_faultmap_block_faulty(fm, d->entry, b) ? RFT_FC_DEAD
                                                                                    : RFT_FC_USABLE][b] = 1;
    for (int k = 0; k < RFT_FC_N; k++) {
        if (!memchr(c->sel[k], 1, fm->blocks))
            continue;
        if (!m->cls[k].records && stats_init(c, &m->cls[k]))
            return rft_stage_fail(&s->st, RFT_EMEM, "out of memory");
        if (rft_duty_stats_add_blocks(&m->cls[k], d, fm->blocks, c->sel[k]))
            return rft_stage_fail(&s->st, RFT_EFORMAT, "a duty map of another span mixed in");
    }
    return 0;
}

/* p if it has room for n + 1 items of size bytes (*cap of them), else a
 * larger copy; NULL (p kept) if out of memory. */
static void *room(void *p, size_t n, size_t *cap, size_t size)
{
    if (n < *cap)
        return p;
    size_t c = *cap ? 2 * *cap : 16;
    void *q = realloc(p, c * size);
    if (q)
        *cap = c;
    return q;
}

/* The statistics of d's slice in m, created on first sight (NULL: no memory). */
static rft_duty_stats *slice_stats(const rft_duty_cmp *c, rft_duty_map_stats *m, const rft_duty_rec *d)
{
    rft_duty_slice_stats *sl = m->nsl ? &m->sl[m->nsl - 1] : NULL;   /* records come by slice */
    if (sl && sl->cu == d->cu && sl->simd == d->simd)
        return &sl->st;
    for (size_t i = 0; i < m->nsl; i++)
        if (m->sl[i].cu == d->cu && m->sl[i].simd == d->simd)
            return &m->sl[i].st;
    if (!(sl = room(m->sl, m->nsl, &m->csl, sizeof *sl)))
        return NULL;
    m->sl = sl;
    sl = &m->sl[m->nsl++];
    sl->cu = d->cu;
    sl->simd = d->simd;
    return stats_init(c, &sl->st) ? NULL : &sl->st;
}

/* Without include_unused: note that d's entry is used, or hold it. */
static int note_use(rft_duty_cmp *c, size_t map, const rft_duty_rec *d)
{
    if (!(d->flags & RFT_DUTY_UNUSED))
        return rft_map_get(&c->used, entry_key(d)) ? 0 : rft_map_put(&c->used, entry_key(d), 1);
    held *h = room(c->held, c->nheld, &c->cheld, sizeof *h);
    if (!h)
        return RFT_EMEM;
    c->held = h;
    h = &c->held[c->nheld++];
    *h = (held){map, entry_key(d), d->cu, d->simd, d->cycles, c->nruns, 0};
    for (uint32_t b = 0; b < d->bits; h->nruns++) {
        uint32_t e = b + 1;
        while (e < d->bits && d->t1[e] == d->t1[b] && d->toff[e] == d->toff[b])
            e++;
        held_run *r = room(c->runs, c->nruns, &c->cruns, sizeof *r);
        if (!r)
            return RFT_EMEM;
        c->runs = r;
        c->runs[c->nruns++] = (held_run){b, e - b, d->t1[b], d->toff[b]};
        b = e;
    }
    return 0;
}

/* A held entry's cells into the averages of s (as rft_duty_stats_add does
 * with the cells of an averaged entry). */
static void add_held(rft_duty_stats *s, const held *h, const held_run *runs)
{
    double inv = h->cycles ? 1.0 / (double)h->cycles : 0.0;
    s->avg_n++;
    for (size_t k = 0; k < h->nruns; k++) {
        const held_run *r = &runs[h->run0 + k];
        double f0 = (double)(h->cycles - r->t1 - r->toff) * inv, f1 = (double)r->t1 * inv;
        double fo = (double)r->toff * inv;
        s->avg_cells += r->n;
        s->s0 += r->n * f0;
        s->s1 += r->n * f1;
        s->soff += r->n * fo;
        s->sstress += r->n * (f0 > f1 ? f0 : f1);
        for (uint32_t b = r->from; s->bit0 && b < r->from + r->n; b++) {
            s->bit0[b] += f0;
            s->bit1[b] += f1;
            s->bitoff[b] += fo;
        }
    }
}

void rft_duty_cmp_finish(rft_duty_cmp *c)
{
    for (size_t i = 0; i < c->nheld; i++) {
        const held *h = &c->held[i];
        if (!rft_map_get(&c->used, h->key))
            continue;
        rft_duty_map_stats *m = &c->maps[h->map];
        rft_duty_rec at = {.cu = h->cu, .simd = h->simd};
        add_held(slice_stats(c, m, &at), h, c->runs);
        add_held(&m->all, h, c->runs);
    }
    c->nheld = c->nruns = 0;
}

static int cmp_record(cmp_stage *s, const rft_rec *rec)
{
    rft_duty_cmp *c = s->c;
    rft_duty_map_stats *m = s->m;
    rft_duty_rec *d = &c->d;
    if (rft_trace_kind(rec->kind)) {
        if (!m->trace)          /* refused once the stream is read */
            m->trace = s->count;
        return 0;
    }
    if (rec->kind == RFT_FAULTMAP && c->o.by_fault) {
        rft_faultmap fm;
        char why[RFT_FM_WHY];
        int e = rft_faultmap_decode(rec->raw, rec->len, &fm, why, sizeof why);
        if (e)
            return rft_stage_fail(&s->st, e, "%s", why);
        if (rft_fmset_put(&m->fm, &fm))
            return rft_stage_fail(&s->st, RFT_EMEM, "out of memory");
        return 0;
    }
    if (rec->kind != RFT_DUTY)
        return 0;
    const char *why;
    if (rft_duty_parse(rec->raw, rec->len, d, &why))
        return rft_stage_fail(&s->st, RFT_EFORMAT, "%s", why);
    if (!c->bits) {
        c->bits = d->bits;
        c->entries = d->entries;
    } else if (d->bits != c->bits || d->entries != c->entries) {
        return rft_stage_fail(&s->st, RFT_EFORMAT, "geometry %u lanes x %u entries differs from "
                              "%s (%u x %u)", d->lanes, d->entries, first_name(c), c->bits / 32,
                              c->entries);
    }
    m->nduty++;
    if (c->o.slice_set && (d->cu != c->o.cu || d->simd != c->o.simd))
        return 0;
    if (c->o.each) {
        c->o.each(c->o.each_ctx, (size_t)(m - c->maps), d);
        return 0;
    }
    int e;
    if (c->o.by_fault && (e = by_class(s, d)))
        return e;
    rft_duty_stats *st = slice_stats(c, m, d);
    if (!st || (!m->all.records && stats_init(c, &m->all)))
        return rft_stage_fail(&s->st, RFT_EMEM, "out of memory");
    if (rft_duty_stats_add(st, d) || rft_duty_stats_add(&m->all, d))
        return rft_stage_fail(&s->st, RFT_EFORMAT, "a duty map of another span mixed in");
    if (!c->o.include_unused && note_use(c, (size_t)(m - c->maps), d))
        return rft_stage_fail(&s->st, RFT_EMEM, "out of memory");
    return 0;
}

static int cmp_start(rft_stage *st, const rft_header *in, rft_header *out)
{
    cmp_stage *s = (cmp_stage *)st;
    s->m->name = st->input;
    return 0;
}

static int cmp_feed(rft_stage *st, rft_rec *rec, const rft_sink *out)
{
    cmp_stage *s = (cmp_stage *)st;
    s->count++;
    int e = cmp_record(s, rec);
    return e ? e : out->put(out->ctx, rec);
}

static void cmp_free(rft_stage *st) { free(st); }

static const rft_stage_ops cmp_ops = {"rft-vth", cmp_start, cmp_feed, NULL, cmp_free, 1};

rft_stage *rft_duty_cmp_stage(rft_duty_cmp *c, size_t i)
{
    cmp_stage *s = rft_stage_alloc(sizeof *s, &cmp_ops);
    if (!s)
        return NULL;
    s->c = c;
    s->m = &c->maps[i];
    return &s->st;
}
