/* vth_report.c - the tables of rft-vth(1) (vth_report.h). */
#include "vth_report.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

static void *zalloc(size_t n, size_t size) { return memset(xrealloc(NULL, n * size), 0, n * size); }

/* ---- the notes: what a table assumed (issue 22) ---------------------------------------- */
void vth_map_header(vth_report *r, size_t i, const rft_header *h)
{
    r->steady[i] = (unsigned char)notes_header(&r->nt, i, h);
    r->scheme[i] = notes_scheme(h);
    const char *unused = rft_header_get(h, "duty.unused");
    r->unused_on[i] = unused && strcmp(unused, "on") == 0;
}

/* The notes of the maps' figures (after they are read): the window each
 * spans, register demand filling the slice, the entries never allocated. */
static void map_notes(vth_report *r)
{
    for (int i = 0; i < r->nmaps; i++)
        notes_duty(&r->nt, (size_t)i, &rft_duty_cmp_map(r->cmp, (size_t)i)->all, r->scheme[i],
                   r->steady[i], r->unused_on[i]);
}

/* The notes onto table t: the NBTI model's with dvth (parameters,
 * lifetime, temperature), then the maps'. */
static void put_notes(const vth_report *r, cli_table *t, int dvth)
{
    if (dvth) {
        table_notef(t, "parameters: %s%s%s",
                    r->params ? r->params : "built in (the values of params/nbti.conf)",
                    r->sets ? ", --set " : "", r->sets ? r->sets : "");
        if (r->by != VTH_BY_YEAR)
            table_notef(t, "lifetime: %g years (--years): the dVth, delay and SNM loss rows "
                        "are at its end", r->years);
        table_notef(t, "temperature: %g K (the parameters' temperature)", r->p.temperature);
    }
    notes_put(&r->nt, t, NULL);
}

/* ---- --by cells: a row per run of equal cells of an entry ------------------------------ */
void vth_cells_open(vth_report *r)
{
    static const char *const cols[] = {"map", "slice", "entry", "bit_from", "bit_to", "t0",
                                       "t1", "toff", "cycles", "span", "first", "last", "use"};
    r->cells = table_new(r->fmt, stdout, 13, cols);
}

void vth_cell_rows(void *report, size_t map, const rft_duty_rec *d)
{
    const vth_report *r = report;
    cli_table *t = r->cells;
    char slice[32];
    snprintf(slice, sizeof slice, "%u:%u", d->cu, d->simd);
    for (uint32_t b = 0; b < d->bits;) {
        uint32_t e = b + 1;
        while (e < d->bits && d->t1[e] == d->t1[b] && d->toff[e] == d->toff[b])
            e++;
        table_str(t, r->label[map]);
        table_str(t, slice);
        table_u64(t, d->entry);
        table_u64(t, b);
        table_u64(t, e - 1);
        table_u64(t, d->cycles - d->t1[b] - d->toff[b]);
        table_u64(t, d->t1[b]);
        table_u64(t, d->toff[b]);
        table_u64(t, d->cycles);
        table_str(t, rft_span_name(d->span));
        table_u64(t, d->first);
        table_u64(t, d->last);
        table_str(t, d->flags & RFT_DUTY_UNUSED ? "unused" : "used");
        table_end_row(t);
        b = e;
    }
}

/* ---- the summary: one row per metric, one column per map ------------------------ */
enum { M_WINDOW, M_CYCLES, M_USED, M_AVGN, M_AVG0, M_AVG1, M_AVGOFF, M_STRESS, M_L0, M_L0CELL, M_L0_1,
       M_L0_OFF, M_L1, M_L1CELL, M_L1_0, M_L1_OFF, M_N0, M_N1, M_E0, M_E1, M_R0, M_R1, M_RREL, M_SNMRD,
       M_DELAY3, M_DELAYRD, M_LIFE3, M_LIFERD, NM };
static const char *const mname[NM] = {
    "window", "cycles", "entries_used", "entries_averaged", "avg_0%", "avg_1%", "avg_off%", "avg_stress%", "longest_0%",
    "longest_0_cell", "longest_0_cell_1%", "longest_0_cell_off%", "longest_1%",
    "longest_1_cell", "longest_1_cell_0%", "longest_1_cell_off%", "dvth_t0_norm",
    "dvth_t1_norm", "dvth_t0_eq3_mV", "dvth_t1_eq3_mV", "dvth_t0_rd_mV", "dvth_t1_rd_mV",
    "dvth_rd%", "snm_loss_rd%", "delay_eq3%", "delay_rd%", "snm_life_eq3_years",
    "snm_life_rd_years"};
static const int mdec[NM] = {0, 0, 0, 0, 2, 2, 2, 2, 2, 0, 2, 2, 2, 0, 2, 2, 4, 4, 3, 3, 3, 3, 2, 2,
                             3, 3, 3, 3};

typedef struct {
    double v[NM];
    char window[96], c0[48], c1[48];
} metrics;

static void window_text(char *w, size_t n, const rft_duty_stats *s)
{
    snprintf(w, n, "%s %llu..%llu", rft_span_name(s->span), (unsigned long long)s->first,
             (unsigned long long)s->last);
}

static void compute(const vth_report *r, const rft_duty_stats *s, metrics *m)
{
    double n = s->avg_cells;
    const rft_duty_cell *a = &s->max0, *b = &s->max1;
    double a0 = rft_duty_frac(a->t0, a->cycles), b1 = rft_duty_frac(b->t1, b->cycles);
    rft_nbti_worst w;
    rft_nbti_worst_of(&r->p, a0, b1, r->years * RFT_YEAR, &w);
    window_text(m->window, sizeof m->window, s);
    snprintf(m->c0, sizeof m->c0, "%u:%u r%u b%u", a->cu, a->simd, a->entry, a->bit);
    snprintf(m->c1, sizeof m->c1, "%u:%u r%u b%u", b->cu, b->simd, b->entry, b->bit);
    m->v[M_CYCLES] = (double)s->cyc_max;
    m->v[M_USED] = (double)s->used;
    m->v[M_AVGN] = s->avg_n;
    m->v[M_AVG0] = n ? 100 * s->s0 / n : 0;
    m->v[M_AVG1] = n ? 100 * s->s1 / n : 0;
    m->v[M_AVGOFF] = n ? 100 * s->soff / n : 0;
    m->v[M_STRESS] = n ? 100 * s->sstress / n : 0;
    m->v[M_L0] = 100 * a0;
    m->v[M_L0_1] = 100 * rft_duty_frac(a->t1, a->cycles);
    m->v[M_L0_OFF] = 100 * rft_duty_frac(a->toff, a->cycles);
    m->v[M_L1] = 100 * b1;
    m->v[M_L1_0] = 100 * rft_duty_frac(b->t0, b->cycles);
    m->v[M_L1_OFF] = 100 * rft_duty_frac(b->toff, b->cycles);
    m->v[M_N0] = w.norm[0];
    m->v[M_N1] = w.norm[1];
    m->v[M_E0] = 1e3 * w.eq3[0];
    m->v[M_E1] = 1e3 * w.eq3[1];
    m->v[M_R0] = 1e3 * w.rd[0];
    m->v[M_R1] = 1e3 * w.rd[1];
    m->v[M_RREL] = 100 * w.rd_max / r->p.vth0;
    m->v[M_SNMRD] = 100 * rft_nbti_snm_loss(&r->p, w.rd_max);
    m->v[M_DELAY3] = 100 * w.delay_eq3;
    m->v[M_DELAYRD] = 100 * w.delay_rd;
    m->v[M_LIFE3] = w.life_eq3 / RFT_YEAR;
    m->v[M_LIFERD] = w.life_rd / RFT_YEAR;
}

static void num(cli_table *t, double v, int dec)
{
    if (isinf(v))
        table_str(t, "inf");
    else
        table_dbl(t, v, dec);
}

/* What a change against the first map means for a metric: a reduction
 * (less stress, dVth, delay: better), an increase (a lifetime), or nothing
 * (what the window is, and parts of the time that are not a stress: the
 * time off, and the rest of the time of each map's own worst cell). */
enum { CHANGE_NONE, CHANGE_RED, CHANGE_INCREASE };
static int change_of(int k)
{
    switch (k) {
    case M_WINDOW: case M_CYCLES: case M_USED: case M_AVGN: case M_AVGOFF: case M_L0CELL:
    case M_L0_1: case M_L0_OFF: case M_L1CELL: case M_L1_0: case M_L1_OFF:
        return CHANGE_NONE;
    case M_LIFE3: case M_LIFERD:
        return CHANGE_INCREASE;
    default:
        return CHANGE_RED;
    }
}

/* 100 (x - base) / base (as a reduction: its opposite); empty where it is
 * not a number (a change from 0); lifetimes may be infinite (never fail). */
static void change_cell(cli_table *t, double base, double x, int red)
{
    if (isinf(base) || isinf(x))
        table_str(t, isinf(base) && isinf(x) ? "0.00" : isinf(x) ? "inf" : "-100.00");
    else if (base != 0)
        table_dbl(t, red ? 100 * (base - x) / base : 100 * (x - base) / base, 2);
    else if (x == 0)
        table_dbl(t, 0, 2);
    else
        table_none(t);
}

static void summary_rows(const vth_report *r, cli_table *t, const char *scope,
                         const rft_duty_stats *const *st)
{
    metrics *m = zalloc((size_t)r->nmaps, sizeof *m);
    for (int i = 0; i < r->nmaps; i++)
        if (st[i])
            compute(r, st[i], &m[i]);
    for (int k = 0; k < NM; k++) {
        table_str(t, scope);
        table_str(t, mname[k]);
        for (int i = 0; i < r->nmaps; i++) {
            if (!st[i])
                table_str(t, "-");
            else if (k == M_WINDOW)
                table_str(t, m[i].window);
            else if (k == M_L0CELL)
                table_str(t, m[i].c0);
            else if (k == M_L1CELL)
                table_str(t, m[i].c1);
            else
                num(t, m[i].v[k], mdec[k]);
            if (i == 0)
                continue;
            int change = st[0] && st[i] ? change_of(k) : CHANGE_NONE;
            for (int c = CHANGE_RED; c <= CHANGE_INCREASE; c++) {
                if (c == change)
                    change_cell(t, m[0].v[k], m[i].v[k], c == CHANGE_RED);
                else
                    table_none(t);
            }
        }
        table_end_row(t);
    }
    free(m);
}

/* The column names: first (if any), then per map LABEL_PER...; with change,
 * after each map but the first its change against the first, LABEL_red% and
 * LABEL_increase%. */
static const char **columns(const vth_report *r, const char *first, const char *const *per,
                            int nper, int change, int *ncols)
{
    int n = 0;
    const char **c = zalloc((size_t)(2 + r->nmaps * (nper + 2)), sizeof *c);
    if (first)
        c[n++] = first;
    for (int i = 0; i < r->nmaps; i++) {
        for (int j = 0; j < nper; j++)
            c[n++] = per[j][0] ? xasprintf("%s_%s", r->label[i], per[j]) : xasprintf("%s", r->label[i]);
        if (change && i > 0) {
            c[n++] = xasprintf("%s_red%%", r->label[i]);
            c[n++] = xasprintf("%s_increase%%", r->label[i]);
        }
    }
    *ncols = n;
    return c;
}

static void free_columns(const char **c, int from, int n)
{
    for (int i = from; i < n; i++)
        free((void *)c[i]);
    free(c);
}

/* A summary table: a scope column (named first), the metric, a column per
 * map and the change against the first. */
typedef struct {
    cli_table *t;
    const char **cols, **all;
    int n;
    const rft_duty_stats **st;  /* per map: the stats of the scope of a row */
} sumtab;

static void sumtab_open(const vth_report *r, sumtab *s, const char *first)
{
    static const char *const per[] = {""};
    s->cols = columns(r, NULL, per, 1, 1, &s->n);
    s->all = zalloc((size_t)s->n + 2, sizeof *s->all);
    s->all[0] = first;
    s->all[1] = "metric";
    memcpy(s->all + 2, s->cols, (size_t)s->n * sizeof *s->all);
    s->t = table_new(r->fmt, stdout, s->n + 2, s->all);
    put_notes(r, s->t, 1);
    s->st = zalloc((size_t)r->nmaps, sizeof *s->st);
}

static void sumtab_close(sumtab *s)
{
    table_free(s->t);
    free(s->st);
    free(s->all);
    free_columns(s->cols, 0, s->n);
}

static const rft_duty_stats *stats_or_null(const rft_duty_stats *s) { return s->records ? s : NULL; }

/* the summary for each class of cells of the fault maps, then for all */
static void fault_summary(const vth_report *r)
{
    static const char *const class_name[RFT_FC_N] = {"reliable", "faulty:usable", "faulty:dead"};
    sumtab tab;
    sumtab_open(r, &tab, "cells");
    for (int c = 0; c <= RFT_FC_N; c++) {
        int any = 0;
        for (int j = 0; j < r->nmaps; j++) {
            const rft_duty_map_stats *m = rft_duty_cmp_map(r->cmp, (size_t)j);
            tab.st[j] = stats_or_null(c < RFT_FC_N ? &m->cls[c] : &m->all);
            any |= tab.st[j] != NULL;
        }
        if (any)
            summary_rows(r, tab.t, c < RFT_FC_N ? class_name[c] : "all", tab.st);
    }
    sumtab_close(&tab);
}

/* The stats of slice cu:simd in map j, or NULL. */
static const rft_duty_stats *slice_of(const vth_report *r, int j, uint16_t cu, uint16_t simd)
{
    const rft_duty_map_stats *m = rft_duty_cmp_map(r->cmp, (size_t)j);
    for (size_t q = 0; q < m->nsl; q++)
        if (m->sl[q].cu == cu && m->sl[q].simd == simd)
            return &m->sl[q].st;
    return NULL;
}

static void summary(const vth_report *r)
{
    sumtab tab;
    char scope[32];
    sumtab_open(r, &tab, "scope");
    /* --per-slice: slices of the first map, then any the others add */
    for (int i = 0; r->per_slice && !r->slice_set && i < r->nmaps; i++) {
        const rft_duty_map_stats *m = rft_duty_cmp_map(r->cmp, (size_t)i);
        for (size_t k = 0; k < m->nsl; k++) {
            const rft_duty_slice_stats *s = &m->sl[k];
            int seen = 0;
            for (int j = 0; j < i && !seen; j++)
                seen = slice_of(r, j, s->cu, s->simd) != NULL;
            if (seen)
                continue;
            for (int j = 0; j < r->nmaps; j++)
                tab.st[j] = slice_of(r, j, s->cu, s->simd);
            snprintf(scope, sizeof scope, "%u:%u", s->cu, s->simd);
            summary_rows(r, tab.t, scope, tab.st);
        }
    }
    for (int j = 0; j < r->nmaps; j++)
        tab.st[j] = stats_or_null(&rft_duty_cmp_map(r->cmp, (size_t)j)->all);
    if (r->slice_set)
        snprintf(scope, sizeof scope, "%u:%u", r->cu, r->simd);
    else
        snprintf(scope, sizeof scope, "all");
    summary_rows(r, tab.t, scope, tab.st);
    sumtab_close(&tab);
}

/* ---- tables by bit, year and entry: a row each, columns per map ------------------------- */
typedef struct {
    cli_table *t;
    const char **cols;
    int n;
} bytab;

static void bytab_open(const vth_report *r, bytab *b, const char *first, const char *const *per,
                       int nper)
{
    b->cols = columns(r, first, per, nper, 0, &b->n);
    b->t = table_new(r->fmt, stdout, b->n, b->cols);
    put_notes(r, b->t, r->by == VTH_BY_YEAR);
}

static void bytab_close(bytab *b)
{
    table_free(b->t);
    free_columns(b->cols, 1, b->n);
}

/* the window of a map's scope, printed with every row */
static void window_cell(cli_table *t, const rft_duty_stats *s)
{
    char w[96];
    window_text(w, sizeof w, s);
    table_str(t, s->records ? w : "-");
}

static const rft_duty_stats *all_of(const vth_report *r, int i)
{
    return &rft_duty_cmp_map(r->cmp, (size_t)i)->all;
}

static void by_bit(const vth_report *r)
{
    static const char *const per[] = {"0%", "1%", "off%", "window"};
    bytab b;
    bytab_open(r, &b, "bit", per, 4);
    for (uint32_t bit = 0; bit < rft_duty_cmp_bits(r->cmp); bit++) {
        table_u64(b.t, bit);
        for (int i = 0; i < r->nmaps; i++) {
            const rft_duty_stats *s = all_of(r, i);
            double k = s->avg_n ? 100 / s->avg_n : 0;
            table_dbl(b.t, s->bit0 ? s->bit0[bit] * k : 0, 2);
            table_dbl(b.t, s->bit1 ? s->bit1[bit] * k : 0, 2);
            table_dbl(b.t, s->bitoff ? s->bitoff[bit] * k : 0, 2);
            window_cell(b.t, s);
        }
        table_end_row(b.t);
    }
    bytab_close(&b);
}

/* Seed 004 Figs. 7-9: dVth and SNM loss of the most stressed transistor of
 * each map's scope, every --step years up to --years (RD model). */
static void by_year(const vth_report *r)
{
    static const char *const per[] = {"stress%", "dvth_t0_rd_mV", "dvth_t1_rd_mV", "dvth_rd%",
                                      "snm_loss_rd%", "window"};
    bytab b;
    bytab_open(r, &b, "year", per, 6);
    /* years as multiples of the step, so that no step is lost to rounding */
    uint64_t steps = (uint64_t)floor(r->years / r->step + 1e-9);
    for (uint64_t k = 0; k <= steps + (r->years - (double)steps * r->step > 1e-9 * r->step); k++) {
        double y = k <= steps ? (double)k * r->step : r->years;
        table_dbl(b.t, y, 3);
        for (int i = 0; i < r->nmaps; i++) {
            const rft_duty_stats *s = all_of(r, i);
            double a0 = rft_duty_frac(s->max0.t0, s->max0.cycles);
            double b1 = rft_duty_frac(s->max1.t1, s->max1.cycles);
            double d0 = rft_nbti_rd(&r->p, a0, y * RFT_YEAR), d1 = rft_nbti_rd(&r->p, b1, y * RFT_YEAR);
            table_dbl(b.t, 100 * fmax(a0, b1), 2);
            table_dbl(b.t, 1e3 * d0, 3);
            table_dbl(b.t, 1e3 * d1, 3);
            table_dbl(b.t, 100 * fmax(d0, d1) / r->p.vth0, 2);
            table_dbl(b.t, 100 * rft_nbti_snm_loss(&r->p, fmax(d0, d1)), 2);
            window_cell(b.t, s);
        }
        table_end_row(b.t);
    }
    bytab_close(&b);
}

static void by_reg(const vth_report *r)
{
    static const char *const per[] = {"longest_0%", "0_cell_1%", "0_cell_off%",
                                      "longest_1%", "1_cell_0%", "1_cell_off%", "window"};
    static const rft_duty_cell none;
    bytab b;
    bytab_open(r, &b, "entry", per, 7);
    for (uint32_t e = 0; e < rft_duty_cmp_entries(r->cmp); e++) {
        int used = 0;
        for (int i = 0; i < r->nmaps; i++)
            used |= all_of(r, i)->reg_used && all_of(r, i)->reg_used[e];
        if (!used && !r->include_unused)
            continue;       /* never allocated in any map: off all the time */
        table_u64(b.t, e);
        for (int i = 0; i < r->nmaps; i++) {
            const rft_duty_stats *s = all_of(r, i);
            const rft_duty_cell *a = s->reg0 ? &s->reg0[e] : &none, *c = s->reg1 ? &s->reg1[e] : &none;
            if (!r->include_unused && !(s->reg_used && s->reg_used[e])) {
                for (int k = 0; k < 6; k++)     /* not this map's entry: no value, not 0 % */
                    table_none(b.t);
                window_cell(b.t, s);
                continue;
            }
            table_dbl(b.t, 100 * rft_duty_frac(a->t0, a->cycles), 2);
            table_dbl(b.t, 100 * rft_duty_frac(a->t1, a->cycles), 2);
            table_dbl(b.t, 100 * rft_duty_frac(a->toff, a->cycles), 2);
            table_dbl(b.t, 100 * rft_duty_frac(c->t1, c->cycles), 2);
            table_dbl(b.t, 100 * rft_duty_frac(c->t0, c->cycles), 2);
            table_dbl(b.t, 100 * rft_duty_frac(c->toff, c->cycles), 2);
            window_cell(b.t, s);
        }
        table_end_row(b.t);
    }
    bytab_close(&b);
}

void vth_print(vth_report *r)
{
    if (r->by != VTH_BY_CELLS)
        map_notes(r);
    switch (r->by) {
    case VTH_BY_CELLS: table_free(r->cells); break;
    case VTH_BY_BIT: by_bit(r); break;
    case VTH_BY_REG: by_reg(r); break;
    case VTH_BY_YEAR: by_year(r); break;
    case VTH_BY_FAULT: fault_summary(r); break;
    default: summary(r);
    }
}

void vth_show_params(const rft_nbti *p, enum cli_fmt fmt)
{
    static const char *const cols[] = {"constant", "value"};
    cli_table *t = table_new(fmt, stdout, 2, cols);
    for (size_t i = 0; rft_nbti_key(i); i++) {
        char b[64];
        snprintf(b, sizeof b, "%.10g", rft_nbti_get(p, rft_nbti_key(i)));
        table_str(t, rft_nbti_key(i));
        table_str(t, b);
        table_end_row(t);
    }
    table_free(t);
}
