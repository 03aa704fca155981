/* clsreport.h - the tables of rft-classify(1) from the figures of its
 * stage (lib/classify.c): --summary and --sweep. */
#ifndef RFT_CLSREPORT_H
#define RFT_CLSREPORT_H

#include "classify.h"
#include "cli.h"
#include "notes.h"

typedef struct cls_table_opts {
    enum cli_fmt fmt;
    int counts;         /* counts, not percentages */
    int by_reg;         /* a row per logical register before each kernel's */
    unsigned bs;        /* block size of the total row when no kernel ran */
    rft_pattern_opts po;        /* the pattern's rule (the notes) */
    int bs_auto;                /* --bs auto */
    notes nt;           /* what the input's header says (notes_input), or none */
    const char *label;
} cls_table_opts;

/* A row per kernel (and register), then the total: an annotating stage. */
void cls_summary_table(const cls_table_opts *o, FILE *out, const rft_stage *st);
/* A row per kernel and block size, under both rules: an RFT_COVER_SWEEP stage. */
void cls_sweep_table(const cls_table_opts *o, FILE *out, const rft_stage *st);

#endif
