/* clsreport.c - rft-classify's tables (clsreport.h). */
#include "clsreport.h"

#include <string.h>

/* Summary columns, in the order of the RFT_CC_* counters. */
static const char *const cols[2][RFT_CC_N] = {
    {"writes", "const%", "single%", "double%", "other%", "compr%", "mispred%", "diverg%",
     "mov%", "wc_base%", "wc_d1%", "wc_d2%", "wc_unc%", "wc_on%"},
    {"writes", "const", "single", "double", "other", "compr", "mispred", "diverg",
     "mov", "wc_base", "wc_d1", "wc_d2", "wc_unc", "wc_on_bits"}};

static void row(const cls_table_opts *o, cli_table *t, const char *kernel, const char *reg,
                unsigned bs, const rft_classify_counts *s, uint32_t lanes)
{
    double writes = (double)s->n[RFT_CC_WRITES];
    table_str(t, kernel);
    if (o->by_reg)
        table_str(t, reg);
    table_u64(t, bs);
    table_u64(t, s->n[RFT_CC_WRITES]);
    for (int k = RFT_CC_WRITES + 1; k < RFT_CC_N; k++)
        table_share(t, o->counts, s->n[k], k == RFT_CC_WC_ON_BITS ? writes * 32 * lanes : writes);
    table_end_row(t);
}

/* The notes of both tables (issue 22): the input's, the writes counted,
 * the pattern's rule (sweep: the pow2 rule's largest delta), what a share
 * is of (shares: the text for the percentages; counts: for the counts). */
static void put_notes(const cls_table_opts *o, cli_table *t, const rft_stage *st, int sweep,
                      const char *shares, const char *counts)
{
    uint64_t writes = 0;
    rft_classify_kernel k;
    for (unsigned i = 0, n = rft_classify_nkernels(st); i < n; i++) {
        rft_classify_kernel_get(st, i, &k);
        writes += k.all->n[RFT_CC_WRITES];
    }
    notes_put(&o->nt, t, NULL);
    table_notef(t, "window: the %llu register writes of the stream, each counted once (the shares "
                "are the same for the kernel run again and again)", (unsigned long long)writes);
    if (sweep)
        table_notef(t, "pattern: every BS from 1 to %d; pow2: deltas 0 or powers of two up to %u, "
                    "any: any 32-bit delta", RFT_PATTERN_MAX_BS, o->po.max_delta);
    else if (o->po.any)
        table_notef(t, "pattern: BS %s, any 32-bit delta (--deltas any; the hardware's deltas are "
                    "powers of two up to 64, seed 002 5.1.1)",
                    o->bs_auto ? "per kernel (--bs auto: the bs column)" : "of the bs column");
    else
        table_notef(t, "pattern: BS %s, deltas 0 or powers of two up to %u (--max-delta; 64: the "
                    "3-bit logarithms of seed 002 5.1.1)",
                    o->bs_auto ? "per kernel (--bs auto: the bs column)" : "of the bs column",
                    o->po.max_delta);
    table_note(t, o->counts ? counts : shares);
}

void cls_summary_table(const cls_table_opts *o, FILE *out, const rft_stage *st)
{
    const char *names[3 + RFT_CC_N] = {"kernel", "reg"};
    int off = 1 + o->by_reg;
    names[off] = "bs";
    memcpy(names + off + 1, cols[o->counts], sizeof cols[0]);
    cli_table *t = table_new(o->fmt, out, off + 1 + RFT_CC_N, names);
    put_notes(o, t, st, 0, "shares: every % column is of its row's writes; wc_on%: the bits WC "
              "keeps on, of the bits written (writes x 32 x lanes)", "counts: the writes of each "
              "class; wc_on_bits: the bits WC keeps on");
    rft_classify_counts total = {{0}};
    rft_classify_kernel k;
    unsigned n = rft_classify_nkernels(st), bs = o->bs;
    uint32_t lanes = rft_classify_lanes(st);
    char num[16];
    for (unsigned i = 0; i < n; i++) {
        rft_classify_kernel_get(st, i, &k);
        for (unsigned r = 0; r < k.nreg; r++)
            if (k.reg[r].n[RFT_CC_WRITES]) {
                snprintf(num, sizeof num, "%u", r);
                row(o, t, k.name, num, k.bs, &k.reg[r], lanes);
            }
        row(o, t, k.name, "all", k.bs, k.all, lanes);
        for (int c = 0; c < RFT_CC_N; c++)
            total.n[c] += k.all->n[c];
        if (i == 0)
            bs = k.bs;
        else if (k.bs != bs)
            bs = 0;         /* --bs auto chose differently per kernel */
    }
    row(o, t, "total", "all", bs, &total, lanes);
    table_free(t);
}

void cls_sweep_table(const cls_table_opts *o, FILE *out, const rft_stage *st)
{
    static const char *const names[2][5] = {{"kernel", "bs", "writes", "pow2%", "any%"},
                                            {"kernel", "bs", "writes", "pow2", "any"}};
    unsigned nk = rft_classify_nkernels(st), nrules = rft_classify_nrules(st);
    uint64_t total[2 * RFT_PATTERN_MAX_BS] = {0}, writes = 0;
    rft_classify_kernel k = {0};
    cli_table *t = table_new(o->fmt, out, 5, names[o->counts]);
    put_notes(o, t, st, 1, "shares: pow2% and any%: the writes that fit the pattern under the "
              "row's BS, of the row's writes", "counts: pow2 and any: the writes that fit the "
              "pattern under the row's BS");
    for (unsigned i = 0; i <= nk; i++) {
        int last = i == nk;
        if (!last)
            rft_classify_kernel_get(st, i, &k);
        const uint64_t *cv = last ? total : k.cover;
        uint64_t n = last ? writes : k.all->n[RFT_CC_WRITES];
        for (unsigned r = 0; r < nrules; r += 2) {   /* rules r, r + 1: pow2, any */
            table_str(t, last ? "total" : k.name);
            table_u64(t, rft_classify_rule(st, r)->bs);
            table_u64(t, n);
            table_share(t, o->counts, cv[r], (double)n);
            table_share(t, o->counts, cv[r + 1], (double)n);
            table_end_row(t);
            total[r] += last ? 0 : cv[r];
            total[r + 1] += last ? 0 : cv[r + 1];
        }
        writes += last ? 0 : n;
    }
    table_free(t);
}
