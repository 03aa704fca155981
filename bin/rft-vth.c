/* rft-vth - duty-cycle and NBTI report from duty maps (rft-duty(1)): average
 * duty per bit position, longest '0' and '1' duty cycles, threshold-voltage
 * degradation, switching delay, SNM loss and lifetime, and their course over
 * the years; several maps side by side. */
#include <errno.h>
#include <getopt.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "duty.h"
#include "faultmap.h"
#include "nbti.h"
#include "rft.h"

static const char usage[] =
    "usage: rft-vth [--params FILE] [--set KEY=VALUE]... [--years Y] [--step Y]\n"
    "               [--by summary|bit|reg|cells|year|fault]\n"
    "               [--slice CU:SIMD] [--per-slice] [--include-unused] [--show-params]\n"
    "               [--format table|tsv|csv|json] [[LABEL=]FILE...]\n"
    "Report duty cycles and NBTI degradation (seeds 002, 003, 004) from duty maps;\n"
    "several maps, labelled by scheme, side by side with the change against the first.\n";

enum { BY_SUMMARY, BY_BIT, BY_REG, BY_CELLS, BY_YEAR, BY_FAULT };

/* --by fault: the cells of an undervolted register file by what its fault
 * map makes of them (seed 001 II-B) */
enum { C_RELIABLE, C_USABLE, C_DEAD, NCLASS };
static const char *const class_name[NCLASS] = {"reliable", "faulty:usable", "faulty:dead"};

typedef struct {
    uint16_t cu, simd;
    rft_duty_stats st;
} sstat;

typedef struct {
    const char *label, *path;
    char *own;              /* label as allocated, if given */
    sstat *sl;              /* per slice, in order of appearance */
    size_t nsl, csl;
    rft_duty_stats all;
    rft_fmset fm;           /* --by fault: its fault maps ... */
    rft_duty_stats cls[NCLASS];   /* ... and its cells by class */
} map;

static struct {
    int by, per_slice, include_unused, slice_set;
    uint16_t cu, simd;
    double years, step;
    rft_nbti p;
    enum cli_fmt fmt;
    map *maps;
    int nmaps;
    uint32_t bits, entries;     /* geometry of the first record */
    const char *first_path;
    cli_table *cells;           /* --by cells: rows as the records come */
} g = {.years = 3, .step = 1, .fmt = FMT_TABLE};

static void *xcalloc(size_t n, size_t s)
{
    void *p = calloc(n ? n : 1, s);
    if (!p)
        die("out of memory");
    return p;
}

static void stats_init(rft_duty_stats *s)
{
    memset(s, 0, sizeof *s);
    s->include_unused = g.include_unused;
    if (g.by == BY_BIT) {
        s->bit0 = xcalloc(g.bits, sizeof *s->bit0);
        s->bit1 = xcalloc(g.bits, sizeof *s->bit1);
        s->bitoff = xcalloc(g.bits, sizeof *s->bitoff);
    }
    if (g.by == BY_REG) {
        s->nreg = g.entries;
        s->reg0 = xcalloc(g.entries, sizeof *s->reg0);
        s->reg1 = xcalloc(g.entries, sizeof *s->reg1);
        s->reg_used = xcalloc(g.entries, 1);
    }
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

static void cell_rows(const map *m, const rft_duty_rec *d)
{
    char slice[32];
    snprintf(slice, sizeof slice, "%u:%u", d->cu, d->simd);
    for (uint32_t b = 0; b < d->bits;) {
        uint32_t e = b + 1;
        while (e < d->bits && d->t1[e] == d->t1[b] && d->toff[e] == d->toff[b])
            e++;
        table_str(g.cells, m->label);
        table_str(g.cells, slice);
        table_u64(g.cells, d->entry);
        table_u64(g.cells, b);
        table_u64(g.cells, e - 1);
        table_u64(g.cells, d->cycles - d->t1[b] - d->toff[b]);
        table_u64(g.cells, d->t1[b]);
        table_u64(g.cells, d->toff[b]);
        table_u64(g.cells, d->cycles);
        table_str(g.cells, rft_span_name(d->span));
        table_u64(g.cells, d->first);
        table_u64(g.cells, d->last);
        table_str(g.cells, d->flags & RFT_DUTY_UNUSED ? "unused" : "used");
        table_end_row(g.cells);
        b = e;
    }
}

static int same_map(const rft_faultmap *a, const rft_faultmap *b)
{
    return a->entries == b->entries && a->blocks == b->blocks && a->ecp == b->ecp &&
           memcmp(a->bits, b->bits, (size_t)a->entries * a->blocks) == 0;
}

/* An entry's cells into the classes of its slice's fault map. */
static void by_class(map *m, const rft_duty_rec *d)
{
    const rft_faultmap *fm = rft_fmset_find(&m->fm, d->cu, d->simd), *f0;
    if (!fm)
        stage_fail("no fault map for slice %u:%u before its duty map: put rft-faultmap(1) before "
                   "the placement in every pipeline compared", d->cu, d->simd);
    if (fm->entries != d->entries || d->bits % fm->blocks)
        stage_fail("the fault map of slice %u:%u is %u entries x %u blocks, the duty map %u entries "
                   "of %u cells", d->cu, d->simd, fm->entries, fm->blocks, d->entries, d->bits);
    /* one table compares placements on the same cells */
    if (m != &g.maps[0] && (!(f0 = rft_fmset_find(&g.maps[0].fm, d->cu, d->simd)) || !same_map(f0, fm)))
        stage_fail("the fault map of slice %u:%u differs from that of %s: compare placements on one "
                   "undervolted register file", d->cu, d->simd, g.maps[0].path);
    static uint8_t sel[NCLASS][RFT_MAX_LANES];
    memset(sel, 0, sizeof sel);
    int faulty = rft_faultmap_entry_faulty(fm, d->entry);
    for (uint32_t b = 0; b < fm->blocks; b++)
        sel[!faulty ? C_RELIABLE : rft_faultmap_block_faulty(fm, d->entry, b) ? C_DEAD : C_USABLE][b] = 1;
    for (int c = 0; c < NCLASS; c++) {
        if (!memchr(sel[c], 1, fm->blocks))
            continue;
        if (!m->cls[c].records)
            stats_init(&m->cls[c]);
        if (rft_duty_stats_add_blocks(&m->cls[c], d, fm->blocks, sel[c]))
            stage_fail("a duty map of another span mixed in");
    }
}

static void load(map *m)
{
    rft_reader *r = stage_open(m->path);
    static rft_duty_rec d;
    if (!d.t1) {
        d.t1 = xcalloc(RFT_MAX_LANES * 32, sizeof *d.t1);
        d.toff = xcalloc(RFT_MAX_LANES * 32, sizeof *d.toff);
    }
    rft_rec rec;
    int e;
    uint64_t nduty = 0, trace = 0;
    while ((e = rft_read(r, &rec)) == 0) {
        if (rec.kind >= RFT_KERNEL && rec.kind <= RFT_BUNDLE) {
            if (!trace)             /* refused once the stream is read */
                trace = rft_reader_count(r);
            continue;
        }
        if (rec.kind == RFT_FAULTMAP && g.by == BY_FAULT) {
            rft_faultmap fm;
            char why[RFT_FM_WHY];
            if (rft_faultmap_decode(rec.raw, rec.len, &fm, why, sizeof why))
                stage_fail("%s", why);
            if (rft_fmset_put(&m->fm, &fm))
                die("out of memory");
            continue;
        }
        if (rec.kind != RFT_DUTY)
            continue;
        const char *why;
        if (rft_duty_parse(rec.raw, rec.len, &d, &why))
            stage_fail("%s", why);
        if (!g.bits) {
            g.bits = d.bits;
            g.entries = d.entries;
            g.first_path = m->path;
        } else if (d.bits != g.bits || d.entries != g.entries) {
            stage_fail("geometry %u lanes x %u entries differs from %s (%u x %u)", d.lanes,
                       d.entries, g.first_path, g.bits / 32, g.entries);
        }
        nduty++;
        if (g.slice_set && (d.cu != g.cu || d.simd != g.simd))
            continue;
        if (g.by == BY_CELLS) {
            cell_rows(m, &d);
            continue;
        }
        if (g.by == BY_FAULT)
            by_class(m, &d);
        if (!m->all.records)
            stats_init(&m->all);
        sstat *s = m->nsl ? &m->sl[m->nsl - 1] : NULL;
        if (!s || s->cu != d.cu || s->simd != d.simd) {
            s = NULL;
            for (size_t i = 0; i < m->nsl && !s; i++)
                if (m->sl[i].cu == d.cu && m->sl[i].simd == d.simd)
                    s = &m->sl[i];
        }
        if (!s) {
            if (m->nsl == m->csl) {
                m->csl = m->csl ? 2 * m->csl : 16;
                if (!(m->sl = realloc(m->sl, m->csl * sizeof *m->sl)))
                    die("out of memory");
            }
            s = &m->sl[m->nsl++];
            s->cu = d.cu;
            s->simd = d.simd;
            stats_init(&s->st);
        }
        if (rft_duty_stats_add(&s->st, &d) || rft_duty_stats_add(&m->all, &d))
            stage_fail("a duty map of another span mixed in");
    }
    stage_read_end(e);
    rft_reader_close(r);
    stage.r = NULL;
    if (trace)
        die("%s: record %llu: a trace, not a duty map: run rft-duty(1) first", m->path,
            (unsigned long long)trace);
    if (!nduty)
        die("%s: no duty map in the stream: run rft-duty(1) first", m->path);
}

/* ---- the summary: one row per metric, one column per map ------------------------ */
enum { M_WINDOW, M_CYCLES, M_USED, M_AVG0, M_AVG1, M_AVGOFF, M_STRESS, M_L0, M_L0CELL, M_L0_1, M_L0_OFF,
       M_L1, M_L1CELL, M_L1_0, M_L1_OFF, M_N0, M_N1, M_E0, M_E1, M_R0, M_R1, M_RREL, M_SNMRD,
       M_DELAY3, M_DELAYRD, M_LIFE3, M_LIFERD, NM };
static const char *const mname[NM] = {
    "window", "cycles", "entries_used", "avg_0%", "avg_1%", "avg_off%", "avg_stress%", "longest_0%",
    "longest_0_cell", "longest_0_cell_1%", "longest_0_cell_off%", "longest_1%",
    "longest_1_cell", "longest_1_cell_0%", "longest_1_cell_off%", "dvth_t0_norm",
    "dvth_t1_norm", "dvth_t0_eq3_mV", "dvth_t1_eq3_mV", "dvth_t0_rd_mV", "dvth_t1_rd_mV",
    "dvth_rd%", "snm_loss_rd%", "delay_eq3%", "delay_rd%", "snm_life_eq3_years",
    "snm_life_rd_years"};
static const int mdec[NM] = {0, 0, 0, 2, 2, 2, 2, 2, 0, 2, 2, 2, 0, 2, 2, 4, 4, 3, 3, 3, 3, 2, 2,
                             3, 3, 3, 3};

typedef struct {
    double v[NM];
    char window[96], c0[48], c1[48];
} metrics;

static void compute(const rft_duty_stats *s, metrics *m)
{
    double n = s->avg_cells;
    const rft_duty_cell *a = &s->max0, *b = &s->max1;
    double a0 = rft_duty_frac(a->t0, a->cycles), b1 = rft_duty_frac(b->t1, b->cycles);
    double t = g.years * RFT_YEAR;
    snprintf(m->window, sizeof m->window, "%s %llu..%llu", rft_span_name(s->span),
             (unsigned long long)s->first, (unsigned long long)s->last);
    snprintf(m->c0, sizeof m->c0, "%u:%u r%u b%u", a->cu, a->simd, a->entry, a->bit);
    snprintf(m->c1, sizeof m->c1, "%u:%u r%u b%u", b->cu, b->simd, b->entry, b->bit);
    m->v[M_CYCLES] = (double)s->cyc_max;
    m->v[M_USED] = (double)s->used;
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
    /* the most stressed T0 is the cell with the longest '0' duty, T1 the
     * longest '1': both models grow with the stress share */
    m->v[M_N0] = rft_nbti_eq3_norm(&g.p, a0);
    m->v[M_N1] = rft_nbti_eq3_norm(&g.p, b1);
    m->v[M_E0] = 1e3 * rft_nbti_eq3(&g.p, a0 * t, (1 - a0) * t);
    m->v[M_E1] = 1e3 * rft_nbti_eq3(&g.p, b1 * t, (1 - b1) * t);
    m->v[M_R0] = 1e3 * rft_nbti_rd(&g.p, a0, t);
    m->v[M_R1] = 1e3 * rft_nbti_rd(&g.p, b1, t);
    /* the SNM of a cell goes with its more degraded PMOS */
    double rd = 1e-3 * fmax(m->v[M_R0], m->v[M_R1]);
    m->v[M_RREL] = 100 * rd / g.p.vth0;
    m->v[M_SNMRD] = 100 * rft_nbti_snm_loss(&g.p, rd);
    double w = a0 > b1 ? a0 : b1;
    m->v[M_DELAY3] = 100 * rft_nbti_delay(&g.p, 1e-3 * fmax(m->v[M_E0], m->v[M_E1]));
    m->v[M_DELAYRD] = 100 * rft_nbti_delay(&g.p, 1e-3 * fmax(m->v[M_R0], m->v[M_R1]));
    m->v[M_LIFE3] = rft_nbti_lifetime(&g.p, w, 0) / RFT_YEAR;
    m->v[M_LIFERD] = rft_nbti_lifetime(&g.p, w, 1) / RFT_YEAR;
}

static void num(cli_table *t, double v, int dec)
{
    if (isinf(v))
        table_str(t, "inf");
    else
        table_dbl(t, v, dec);
}

static void summary_rows(cli_table *t, const char *scope, const rft_duty_stats *const *st)
{
    metrics *m = xcalloc((size_t)g.nmaps, sizeof *m);
    for (int i = 0; i < g.nmaps; i++)
        if (st[i])
            compute(st[i], &m[i]);
    for (int k = 0; k < NM; k++) {
        table_str(t, scope);
        table_str(t, mname[k]);
        for (int i = 0; i < g.nmaps; i++) {
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
            double base = m[0].v[k], x = m[i].v[k];
            if (!st[0] || !st[i] || k == M_WINDOW || k == M_CYCLES || k == M_USED ||
                k == M_L0CELL || k == M_L1CELL)
                table_str(t, "");       /* not a figure of merit */
            else if (isinf(base) || isinf(x))
                table_str(t, isinf(base) && isinf(x) ? "0.00" : isinf(x) ? "-inf" : "100.00");
            else
                table_dbl(t, base != 0 ? 100 * (base - x) / base : x == 0 ? 0 : NAN, 2);
        }
        table_end_row(t);
    }
    free(m);
}

static const char **columns(const char *first, const char *const *per, int nper, int red,
                            int *ncols)
{
    int n = 0, cap = 2 + g.nmaps * (nper + 1);
    const char **c = xcalloc((size_t)cap, sizeof *c);
    if (first)
        c[n++] = first;
    for (int i = 0; i < g.nmaps; i++)
        for (int j = 0; j < nper + (red && i > 0); j++) {
            char *s = malloc(strlen(g.maps[i].label) + 24);
            if (!s)
                die("out of memory");
            if (j == nper)
                sprintf(s, "%s_red%%", g.maps[i].label);
            else if (per[j][0])
                sprintf(s, "%s_%s", g.maps[i].label, per[j]);
            else
                sprintf(s, "%s", g.maps[i].label);
            c[n++] = s;
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

static void sumtab_open(sumtab *s, const char *first)
{
    static const char *const per[] = {""};
    s->cols = columns(NULL, per, 1, 1, &s->n);
    s->all = xcalloc((size_t)s->n + 2, sizeof *s->all);
    s->all[0] = first;
    s->all[1] = "metric";
    memcpy(s->all + 2, s->cols, (size_t)s->n * sizeof *s->all);
    s->t = table_new(g.fmt, stdout, s->n + 2, s->all);
    s->st = xcalloc((size_t)g.nmaps, sizeof *s->st);
}

static void sumtab_close(sumtab *s)
{
    table_free(s->t);
    free(s->st);
    free(s->all);
    free_columns(s->cols, 0, s->n);
}

/* the summary for each class of cells of the fault maps, then for all */
static void fault_summary(void)
{
    sumtab tab;
    sumtab_open(&tab, "cells");
    cli_table *t = tab.t;
    const rft_duty_stats **st = tab.st;
    for (int c = 0; c <= NCLASS; c++) {
        int any = 0;
        for (int j = 0; j < g.nmaps; j++) {
            const rft_duty_stats *x = c < NCLASS ? &g.maps[j].cls[c] : &g.maps[j].all;
            st[j] = x->records ? x : NULL;
            any |= st[j] != NULL;
        }
        if (any)
            summary_rows(t, c < NCLASS ? class_name[c] : "all", st);
    }
    sumtab_close(&tab);
}

static void summary(void)
{
    sumtab tab;
    sumtab_open(&tab, "scope");
    cli_table *t = tab.t;
    const rft_duty_stats **st = tab.st;
    if (g.per_slice && !g.slice_set) {
        /* slices of the first map, then any the others add */
        for (int i = 0; i < g.nmaps; i++)
            for (size_t k = 0; k < g.maps[i].nsl; k++) {
                const sstat *s = &g.maps[i].sl[k];
                int seen = 0;
                for (int j = 0; j < i && !seen; j++)
                    for (size_t q = 0; q < g.maps[j].nsl && !seen; q++)
                        seen = g.maps[j].sl[q].cu == s->cu && g.maps[j].sl[q].simd == s->simd;
                if (seen)
                    continue;
                for (int j = 0; j < g.nmaps; j++) {
                    st[j] = NULL;
                    for (size_t q = 0; q < g.maps[j].nsl; q++)
                        if (g.maps[j].sl[q].cu == s->cu && g.maps[j].sl[q].simd == s->simd)
                            st[j] = &g.maps[j].sl[q].st;
                }
                char scope[32];
                snprintf(scope, sizeof scope, "%u:%u", s->cu, s->simd);
                summary_rows(t, scope, st);
            }
    }
    for (int j = 0; j < g.nmaps; j++)
        st[j] = g.maps[j].all.records ? &g.maps[j].all : NULL;
    char scope[32];
    if (g.slice_set)
        snprintf(scope, sizeof scope, "%u:%u", g.cu, g.simd);
    else
        snprintf(scope, sizeof scope, "all");
    summary_rows(t, scope, st);
    sumtab_close(&tab);
}

/* the window of a map's scope, printed with every row */
static void window_cell(cli_table *t, const rft_duty_stats *s)
{
    char w[96];
    snprintf(w, sizeof w, "%s %llu..%llu", rft_span_name(s->span), (unsigned long long)s->first,
             (unsigned long long)s->last);
    table_str(t, s->records ? w : "-");
}

static void by_bit(void)
{
    static const char *const per[] = {"0%", "1%", "off%", "window"};
    int n;
    const char **cols = columns("bit", per, 4, 0, &n);
    cli_table *t = table_new(g.fmt, stdout, n, cols);
    for (uint32_t b = 0; b < g.bits; b++) {
        table_u64(t, b);
        for (int i = 0; i < g.nmaps; i++) {
            const rft_duty_stats *s = &g.maps[i].all;
            double k = s->avg_n ? 100 / s->avg_n : 0;
            table_dbl(t, s->bit0 ? s->bit0[b] * k : 0, 2);
            table_dbl(t, s->bit1 ? s->bit1[b] * k : 0, 2);
            table_dbl(t, s->bitoff ? s->bitoff[b] * k : 0, 2);
            window_cell(t, s);
        }
        table_end_row(t);
    }
    table_free(t);
    free_columns(cols, 1, n);
}

/* Seed 004 Figs. 7-9: dVth and SNM loss of the most stressed transistor of
 * each map's scope, every --step years up to --years (RD model). */
static void by_year(void)
{
    static const char *const per[] = {"stress%", "dvth_t0_rd_mV", "dvth_t1_rd_mV", "dvth_rd%",
                                      "snm_loss_rd%", "window"};
    int n;
    const char **cols = columns("year", per, 6, 0, &n);
    cli_table *t = table_new(g.fmt, stdout, n, cols);
    /* years as multiples of the step, so that no step is lost to rounding */
    uint64_t steps = (uint64_t)floor(g.years / g.step + 1e-9);
    for (uint64_t k = 0; k <= steps + (g.years - (double)steps * g.step > 1e-9 * g.step); k++) {
        double y = k <= steps ? (double)k * g.step : g.years;
        table_dbl(t, y, 3);
        for (int i = 0; i < g.nmaps; i++) {
            const rft_duty_stats *s = &g.maps[i].all;
            double a0 = rft_duty_frac(s->max0.t0, s->max0.cycles);
            double b1 = rft_duty_frac(s->max1.t1, s->max1.cycles);
            double d0 = rft_nbti_rd(&g.p, a0, y * RFT_YEAR), d1 = rft_nbti_rd(&g.p, b1, y * RFT_YEAR);
            table_dbl(t, 100 * fmax(a0, b1), 2);
            table_dbl(t, 1e3 * d0, 3);
            table_dbl(t, 1e3 * d1, 3);
            table_dbl(t, 100 * fmax(d0, d1) / g.p.vth0, 2);
            table_dbl(t, 100 * rft_nbti_snm_loss(&g.p, fmax(d0, d1)), 2);
            window_cell(t, s);
        }
        table_end_row(t);
    }
    table_free(t);
    free_columns(cols, 1, n);
}

static void by_reg(void)
{
    static const char *const per[] = {"longest_0%", "0_cell_1%", "0_cell_off%",
                                      "longest_1%", "1_cell_0%", "1_cell_off%", "window"};
    int n;
    const char **cols = columns("entry", per, 7, 0, &n);
    cli_table *t = table_new(g.fmt, stdout, n, cols);
    for (uint32_t r = 0; r < g.entries; r++) {
        int used = 0;
        for (int i = 0; i < g.nmaps; i++)
            used |= g.maps[i].all.reg_used && g.maps[i].all.reg_used[r];
        if (!used && !g.include_unused)
            continue;       /* never allocated in any map: off all the time */
        table_u64(t, r);
        for (int i = 0; i < g.nmaps; i++) {
            const rft_duty_stats *s = &g.maps[i].all;
            static const rft_duty_cell none;
            const rft_duty_cell *a = s->reg0 ? &s->reg0[r] : &none, *b = s->reg1 ? &s->reg1[r] : &none;
            if (!g.include_unused && !(s->reg_used && s->reg_used[r])) {
                for (int k = 0; k < 6; k++)     /* not this map's entry: no value, not 0 % */
                    table_none(t);
                window_cell(t, s);
                continue;
            }
            table_dbl(t, 100 * rft_duty_frac(a->t0, a->cycles), 2);
            table_dbl(t, 100 * rft_duty_frac(a->t1, a->cycles), 2);
            table_dbl(t, 100 * rft_duty_frac(a->toff, a->cycles), 2);
            table_dbl(t, 100 * rft_duty_frac(b->t1, b->cycles), 2);
            table_dbl(t, 100 * rft_duty_frac(b->t0, b->cycles), 2);
            table_dbl(t, 100 * rft_duty_frac(b->toff, b->cycles), 2);
            window_cell(t, s);
        }
        table_end_row(t);
    }
    table_free(t);
    free_columns(cols, 1, n);
}


int main(int argc, char **argv)
{
    static const struct option opts[] = {
        {"params", required_argument, 0, 'p'}, {"years", required_argument, 0, 'y'},
        {"by", required_argument, 0, 'b'},     {"slice", required_argument, 0, 'S'},
        {"per-slice", no_argument, 0, 'P'},    {"include-unused", no_argument, 0, 'u'},
        {"show-params", no_argument, 0, 'w'},  {"format", required_argument, 0, 'f'},
        {"set", required_argument, 0, 's'},    {"step", required_argument, 0, 't'},
        {0, 0, 0, 0}};
    const char *params = NULL;
    int c, show = 0, step_set = 0;
    rft_params set;
    char why[RFT_PARAM_WHY];
    cli_init(argc, argv, usage);
    rft_nbti_defaults(&g.p);
    rft_params_init(&set);
    while ((c = getopt_long(argc, argv, "f:", opts, NULL)) != -1) {
        switch (c) {
        case 'p': params = optarg; break;
        case 's':
            if (rft_params_set_arg(&set, optarg, "--set", why, sizeof why))
                usage_error("%s", why);
            break;
        case 'y':
            g.years = cli_double("--years", optarg, -1e300, 1e300);
            if (!(g.years > 0))
                usage_error("--years: the lifetime must be more than 0 years");
            if (g.years > 1e6)
                usage_error("--years: %g is out of range (at most 1e6)", g.years);
            break;
        case 'b': g.by = cli_choice("--by", optarg, "summary|bit|reg|cells|year|fault"); break;  /* BY_* */
        case 't':
            step_set = 1;
            g.step = cli_double("--step", optarg, -1e300, 1e300);
            if (!(g.step > 0) || g.step > 1e6)
                usage_error("--step: %s years is not in (0, 1e6]", optarg);
            break;
        case 'S':
            cli_slice("--slice", optarg, 65535, "CU:SIMD", &g.cu, &g.simd);
            g.slice_set = 1;
            break;
        case 'P': g.per_slice = 1; break;
        case 'u': g.include_unused = 1; break;
        case 'w': show = 1; break;
        case 'f': g.fmt = cli_format(optarg); break;
        default: cli_bad_option(argv);
        }
    }
    if (step_set && g.by != BY_YEAR)
        usage_error("--step applies to --by year only");
    if (g.by == BY_FAULT)       /* every cell of a class: the same cells in every map */
        g.include_unused = 1;
    if (g.by == BY_YEAR && g.years / g.step > 100000)
        usage_error("--step: more than 100000 rows to --years %g", g.years);
    if (params || set.n)
        cli_nbti_params(&g.p, params, &set);
    rft_params_free(&set);
    if (show) {
        static const char *const cols[] = {"constant", "value"};
        cli_table *t = table_new(g.fmt, stdout, 2, cols);
        for (size_t i = 0; rft_nbti_key(i); i++) {
            char b[64];
            snprintf(b, sizeof b, "%.10g", rft_nbti_get(&g.p, rft_nbti_key(i)));
            table_str(t, rft_nbti_key(i));
            table_str(t, b);
            table_end_row(t);
        }
        table_free(t);
        return cli_close_stdout();
    }
    g.nmaps = argc - optind ? argc - optind : 1;
    g.maps = xcalloc((size_t)g.nmaps, sizeof *g.maps);
    for (int i = 0; i < g.nmaps; i++) {
        map *m = &g.maps[i];
        const char *a = optind + i < argc ? argv[optind + i] : "-";
        const char *eq = strchr(a, '=');
        size_t k = eq ? (size_t)(eq - a) : 0;
        if (eq && k > 0 && strspn(a, "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz"
                                     "0123456789_.+-") == k) {
            char *l = xcalloc(k + 1, 1);
            memcpy(l, a, k);
            m->label = m->own = l;
            m->path = eq + 1;
        } else {
            const char *slash = strrchr(a, '/');
            m->label = strcmp(a, "-") == 0 ? "map" : slash ? slash + 1 : a;
            m->path = a;
        }
        if (!*m->path)
            usage_error("'%s': no file after the label", a);
    }
    if (g.by == BY_CELLS) {
        static const char *const cols[] = {"map", "slice", "entry", "bit_from", "bit_to", "t0",
                                           "t1", "toff", "cycles", "span", "first", "last",
                                           "use"};
        g.cells = table_new(g.fmt, stdout, 13, cols);
    }
    for (int i = 0; i < g.nmaps; i++)
        load(&g.maps[i]);
    if (g.by == BY_CELLS)
        table_free(g.cells);
    else if (g.by == BY_BIT)
        by_bit();
    else if (g.by == BY_REG)
        by_reg();
    else if (g.by == BY_YEAR)
        by_year();
    else if (g.by == BY_FAULT)
        fault_summary();
    else
        summary();
    for (int i = 0; i < g.nmaps; i++) {
        for (size_t k = 0; k < g.maps[i].nsl; k++)
            stats_free(&g.maps[i].sl[k].st);
        free(g.maps[i].sl);
        stats_free(&g.maps[i].all);
        for (int k = 0; k < NCLASS; k++)
            stats_free(&g.maps[i].cls[k]);
        rft_fmset_free(&g.maps[i].fm);
        free(g.maps[i].own);
    }
    free(g.maps);
    return cli_close_stdout();
}
