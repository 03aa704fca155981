/* occupancy.c - register-file utilization and bank recovery (see occupancy.h).
 *
 * Integrals over time use one trick: a quantity x that changes by d at
 * cycle t keeps cur (its value) and sdt (the sum of d * t, mod 2^64); its
 * integral from 0 to any T at or after the last change is cur * T - sdt,
 * exact whenever the true value fits in 64 bits. */
#include "occupancy.h"

#include <stdlib.h>
#include <string.h>

#include "grow.h"
#include "names.h"
#include "rft.h"

#define NONE UINT32_MAX

typedef struct integral {
    uint64_t cur, sdt;
} integral;

static void change(integral *x, uint64_t to, uint64_t t)
{
    x->sdt += (to - x->cur) * t;    /* mod 2^64: a negative change wraps back */
    x->cur = to;
}

static uint64_t upto(const integral *x, uint64_t t) { return x->cur * t - x->sdt; }

typedef struct span {       /* a kernel (or all of them) on a slice */
    uint32_t row, slice;
    int open;
    uint64_t first, last;   /* the open span */
    uint64_t cycles;        /* closed spans */
    uint32_t live, max_live;
    integral occ;           /* entries in the kernel's windows */
    uint32_t max_occ;
    uint64_t ofirst, osum;  /* occ's integral at the open span's start; over closed spans */
    uint64_t *gfirst, *gsum;/* per bank: gated integral at the start; over closed spans */
    uint8_t *used;          /* per bank: a window of the kernel touched it */
} span;

typedef struct slice {
    uint16_t cu, simd;
    int gated;
    uint32_t cur, all;      /* the open kernel span (NONE), the span of all */
    uint32_t *inwin;        /* per bank: its entries in a window */
    integral *gate;         /* per bank: gated (cur 0 or 1) */
} slice;

struct rft_occ {
    uint32_t entries;
    int nbank;
    uint32_t size[RFT_OCC_MAX_BANKS], first[RFT_OCC_MAX_BANKS], nb;  /* banks of size j: first[j].. */
    char **names;           /* rows: kernels, then "all" at rft_occ_rows() - 1 */
    uint32_t nrows, crows;
    rft_map row_by_name;        /* a name's key -> its row */
    rft_map row_of;             /* stream kernel index -> row: as many as kernels met,
                                   whatever their indexes (no table by index) */
    uint32_t none_row;
    slice *s;
    uint32_t ns, cs;
    span *sp;
    uint32_t nsp, csp;
    uint64_t bytes;             /* held by slices and spans (rft_occ_bytes) */
    rft_slices slice_of;        /* index in s */
    rft_map span_of;            /* row << 32 | slice -> span */
    uint32_t *vmin, *vmax;      /* per row: window sizes */
    uint64_t t_first, t_last;   /* the cycles of the first and last record (rft_occ_span) */
    int any;
};

rft_occ *rft_occ_new(uint32_t entries, const uint32_t *banks, int nbank)
{
    if (entries < 1 || entries > RFT_MAX_ENTRIES || nbank < 1 || nbank > RFT_OCC_MAX_BANKS)
        return NULL;
    rft_occ *o = calloc(1, sizeof *o);
    if (!o)
        return NULL;
    o->entries = entries;
    o->nbank = nbank;
    o->none_row = NONE;
    for (int j = 0; j < nbank; j++) {
        if (banks[j] < 1) {
            free(o);
            return NULL;
        }
        o->size[j] = banks[j];
        o->first[j] = o->nb;
        o->nb += (entries + banks[j] - 1) / banks[j];
    }
    if (rft_slices_init(&o->slice_of) || rft_map_init(&o->span_of, 256) ||
        rft_map_init(&o->row_by_name, 64) ||
        rft_map_init(&o->row_of, 64)) {
        rft_occ_free(o);
        return NULL;
    }
    return o;
}

uint64_t rft_occ_bytes(const rft_occ *o) { return o->bytes; }

void rft_occ_free(rft_occ *o)
{
    if (!o)
        return;
    for (uint32_t i = 0; i < o->ns; i++) {
        free(o->s[i].inwin);
        free(o->s[i].gate);
    }
    for (uint32_t i = 0; i < o->nsp; i++) {
        free(o->sp[i].gfirst);
        free(o->sp[i].gsum);
        free(o->sp[i].used);
    }
    for (uint32_t i = 0; i < o->nrows; i++)
        free(o->names[i]);
    free(o->names);
    rft_map_free(&o->row_of);
    free(o->s);
    free(o->sp);
    free(o->vmin);
    free(o->vmax);
    rft_slices_free(&o->slice_of);
    rft_map_free(&o->span_of);
    rft_map_free(&o->row_by_name);
    free(o);
}

static uint32_t new_row(rft_occ *o, const char *name, size_t len)
{
    /* O(1): the names are searched in full only when two share a key */
    uint64_t key = rft_name_key(name, len);
    const uint64_t *v = rft_map_get(&o->row_by_name, key);
    if (v && strlen(o->names[*v]) == len && memcmp(o->names[*v], name, len) == 0)
        return (uint32_t)*v;
    for (uint32_t i = 0; v && i < o->nrows; i++)    /* two names share a key */
        if (strlen(o->names[i]) == len && memcmp(o->names[i], name, len) == 0)
            return i;
    if (o->nrows == o->crows) {     /* doubled: no copy of the rows per kernel */
        uint32_t cap = o->crows ? 2 * o->crows : 16, *a, *b;
        char **n = realloc(o->names, cap * sizeof *n);
        if (!n)
            return NONE;
        o->names = n;
        if (!(a = realloc(o->vmin, cap * sizeof *a)))
            return NONE;
        o->vmin = a;
        if (!(b = realloc(o->vmax, cap * sizeof *b)))
            return NONE;
        o->vmax = b;
        o->crows = cap;
    }
    if (!(o->names[o->nrows] = malloc(len + 1)) || rft_map_put(&o->row_by_name, key, o->nrows))
        return NONE;
    memcpy(o->names[o->nrows], name, len);
    o->names[o->nrows][len] = 0;
    o->vmin[o->nrows] = NONE;
    o->vmax[o->nrows] = 0;
    return o->nrows++;
}

int rft_occ_kernel(rft_occ *o, uint32_t index, const char *name, size_t len)
{
    uint32_t r = new_row(o, name, len);
    if (r == NONE || rft_map_put(&o->row_of, index, r))
        return RFT_EMEM;
    return 0;
}

static uint32_t row_of(rft_occ *o, uint32_t kernel)
{
    const uint64_t *v = rft_map_get(&o->row_of, kernel);
    if (v)
        return (uint32_t)*v;
    if (o->none_row == NONE)
        o->none_row = new_row(o, "(none)", 6);
    return o->none_row;
}

/* The span of row on slice si, made when first met; NONE when out of memory. */
static uint32_t span_get(rft_occ *o, uint32_t row, uint32_t si)
{
    uint64_t key = (uint64_t)row << 32 | si, *v = rft_map_get(&o->span_of, key);
    if (v)
        return (uint32_t)*v;
    if (rft_grow((void **)&o->sp, o->nsp, &o->csp, sizeof *o->sp, 64))
        return NONE;
    span *p = memset(&o->sp[o->nsp], 0, sizeof *p);
    p->row = row;
    p->slice = si;
    p->gfirst = calloc(o->nb, sizeof *p->gfirst);
    p->gsum = calloc(o->nb, sizeof *p->gsum);
    p->used = calloc(o->nb, 1);
    if (!p->gfirst || !p->gsum || !p->used || rft_map_put(&o->span_of, key, o->nsp)) {
        free(p->gfirst);
        free(p->gsum);
        free(p->used);
        return NONE;
    }
    o->bytes += sizeof *p + (uint64_t)o->nb * (2 * sizeof *p->gfirst + 1);
    return o->nsp++;
}

static void span_open(rft_occ *o, span *p, uint64_t t)
{
    const slice *s = &o->s[p->slice];
    p->open = 1;
    p->first = p->last = t;
    p->ofirst = upto(&p->occ, t);
    for (uint32_t b = 0; b < o->nb; b++)
        p->gfirst[b] = upto(&s->gate[b], t);
}

/* Close at its last record: nothing on the slice changed since. */
static void span_close(rft_occ *o, span *p)
{
    const slice *s = &o->s[p->slice];
    p->open = 0;
    p->cycles += p->last - p->first;
    p->osum += upto(&p->occ, p->last) - p->ofirst;
    for (uint32_t b = 0; b < o->nb; b++)
        p->gsum[b] += upto(&s->gate[b], p->last) - p->gfirst[b];
}

static uint32_t slice_get(rft_occ *o, uint16_t cu, uint16_t simd)
{
    long i = rft_slices_find(&o->slice_of, cu, simd);
    if (i >= 0)
        return (uint32_t)i;
    if (rft_grow((void **)&o->s, o->ns, &o->cs, sizeof *o->s, 16))
        return NONE;
    slice *s = memset(&o->s[o->ns], 0, sizeof *s);
    s->cu = cu;
    s->simd = simd;
    s->cur = NONE;
    s->inwin = calloc(o->nb, sizeof *s->inwin);
    s->gate = calloc(o->nb, sizeof *s->gate);
    if (!s->inwin || !s->gate || rft_slices_put(&o->slice_of, cu, simd, o->ns)) {
        free(s->inwin);
        free(s->gate);
        return NONE;
    }
    o->bytes += sizeof *s + (uint64_t)o->nb * (sizeof *s->inwin + sizeof *s->gate);
    uint32_t all = span_get(o, NONE, o->ns);
    if (all == NONE)
        return NONE;
    o->s[o->ns].all = all;
    return o->ns++;
}

/* The record of a kernel on a slice: its span opens (closing another's). */
static int record(rft_occ *o, uint16_t cu, uint16_t simd, uint32_t kernel, uint64_t t, uint32_t *si,
                  span **k, span **all)
{
    uint32_t row = row_of(o, kernel), i;
    if (row == NONE || (*si = slice_get(o, cu, simd)) == NONE || (i = span_get(o, row, *si)) == NONE)
        return RFT_EMEM;
    if (!o->any || t < o->t_first)
        o->t_first = t;
    if (!o->any || t > o->t_last)
        o->t_last = t;
    o->any = 1;
    slice *s = &o->s[*si];
    span *a = &o->sp[s->all];
    if (!a->open)
        span_open(o, a, t);
    a->last = t;
    if (s->cur != i) {
        if (s->cur != NONE)
            span_close(o, &o->sp[s->cur]);
        s->cur = i;
        span_open(o, &o->sp[i], t);
    }
    o->sp[i].last = t;
    *k = &o->sp[i];
    *all = a;
    return 0;
}

int rft_occ_record(rft_occ *o, uint16_t cu, uint16_t simd, uint32_t kernel, uint64_t cycle)
{
    uint32_t si;
    span *k, *a;
    return record(o, cu, simd, kernel, cycle, &si, &k, &a);
}

static void occupy(span *p, int alloc, uint32_t n, uint64_t t)
{
    if (alloc) {
        change(&p->occ, p->occ.cur + n, t);
        if (++p->live > p->max_live)
            p->max_live = p->live;
        if (p->occ.cur > p->max_occ)
            p->max_occ = (uint32_t)p->occ.cur;
    } else {
        change(&p->occ, p->occ.cur >= n ? p->occ.cur - n : 0, t);
        p->live -= p->live > 0;
    }
}

int rft_occ_window(rft_occ *o, uint16_t cu, uint16_t simd, uint32_t kernel, uint64_t t,
                   uint32_t base, uint32_t n, int alloc, int gated)
{
    uint32_t si;
    span *k, *a;
    int e = record(o, cu, simd, kernel, t, &si, &k, &a);
    if (e)
        return e;
    slice *s = &o->s[si];
    if (gated && !s->gated) {       /* free entries are off from here on */
        s->gated = 1;
        for (uint32_t b = 0; b < o->nb; b++)
            if (!s->inwin[b])
                change(&s->gate[b], 1, t);
    }
    if (n > o->entries)
        n = o->entries;
    if (alloc) {
        uint32_t r = k->row;
        if (n < o->vmin[r])
            o->vmin[r] = n;
        if (n > o->vmax[r])
            o->vmax[r] = n;
    }
    occupy(k, alloc, n, t);
    occupy(a, alloc, n, t);
    for (uint32_t i = 0; i < n; i++) {
        uint32_t entry = (base + i) % o->entries;
        for (int j = 0; j < o->nbank; j++) {
            uint32_t b = o->first[j] + entry / o->size[j];
            if (alloc) {
                k->used[b] = a->used[b] = 1;
                if (s->inwin[b]++ == 0 && s->gated)
                    change(&s->gate[b], 0, t);
            } else if (s->inwin[b] && --s->inwin[b] == 0 && s->gated) {
                change(&s->gate[b], 1, t);
            }
        }
    }
    return 0;
}

void rft_occ_finish(rft_occ *o)
{
    for (uint32_t i = 0; i < o->nsp; i++)
        if (o->sp[i].open)
            span_close(o, &o->sp[i]);
    for (uint32_t i = 0; i < o->ns; i++)
        o->s[i].cur = NONE;
}

size_t rft_occ_rows(const rft_occ *o) { return o->nrows + 1; }

int rft_occ_span(const rft_occ *o, uint64_t *first, uint64_t *last)
{
    *first = o->t_first;
    *last = o->t_last;
    return o->any;
}

/* Row i, its shares in r and the integers behind them in c. */
static void get(const rft_occ *o, size_t i, rft_occ_row *r, rft_occ_counts *c)
{
    uint32_t row = i < o->nrows ? (uint32_t)i : NONE;
    memset(r, 0, sizeof *r);
    memset(c, 0, sizeof *c);
    c->nbank = o->nbank;
    r->kernel = row == NONE ? "all" : o->names[row];
    r->nbank = o->nbank;
    for (int j = 0; j < o->nbank; j++) {
        r->bank[j].entries = o->size[j];
        r->bank[j].worst = 1;
    }
    for (uint32_t x = 0; x < o->nsp; x++) {
        const span *p = &o->sp[x];
        if (p->row != row)
            continue;
        r->slices++;
        if (p->max_live > r->max_wf)
            r->max_wf = p->max_live;
        if (p->max_occ > r->peak)
            r->peak = p->max_occ;
        r->cycles += p->cycles;
        c->entry_cycles += p->osum;
        const slice *s = &o->s[p->slice];
        for (int j = 0; j < o->nbank; j++) {
            rft_occ_bank *bk = &r->bank[j];
            rft_occ_bank_counts *bc = &c->bank[j];
            uint32_t nb = (o->entries + o->size[j] - 1) / o->size[j];
            for (uint32_t q = 0; q < nb; q++) {
                uint32_t b = o->first[j] + q, len = o->size[j];
                if ((q + 1) * o->size[j] > o->entries)
                    len = o->entries - q * o->size[j];
                bc->gated += p->gsum[b] * len;
                if (!p->used[b] || !p->cycles)
                    continue;
                double rec = (double)p->gsum[b] / (double)p->cycles;
                bk->mean += rec;
                if (!bk->used++ || rec < bk->worst) {
                    bk->worst = rec;
                    bk->worst_cu = s->cu;
                    bk->worst_simd = s->simd;
                    bk->worst_bank = q;
                    bc->worst_gated = p->gsum[b];
                    bc->worst_cycles = p->cycles;
                }
            }
        }
    }
    if (row == NONE) {
        r->vgprs_min = NONE;
        for (uint32_t k = 0; k < o->nrows; k++) {
            if (o->vmin[k] < r->vgprs_min)
                r->vgprs_min = o->vmin[k];
            if (o->vmax[k] > r->vgprs_max)
                r->vgprs_max = o->vmax[k];
        }
    } else {
        r->vgprs_min = o->vmin[row];
        r->vgprs_max = o->vmax[row];
    }
    if (r->vgprs_min == NONE)
        r->vgprs_min = 0;
    double cells = (double)o->entries * (double)r->cycles;
    r->mean = cells > 0 ? (double)c->entry_cycles / cells : 0;
    for (int j = 0; j < o->nbank; j++) {
        rft_occ_bank *bk = &r->bank[j];
        bk->mean = bk->used ? bk->mean / (double)bk->used : 1;
        bk->leak = cells > 0 ? (double)c->bank[j].gated / cells : 0;
    }
}

void rft_occ_get(const rft_occ *o, size_t i, rft_occ_row *r)
{
    rft_occ_counts c;
    get(o, i, r, &c);
}

void rft_occ_get_counts(const rft_occ *o, size_t i, rft_occ_counts *c)
{
    rft_occ_row r;
    get(o, i, &r, c);
}
