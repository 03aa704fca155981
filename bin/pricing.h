/* pricing.h - rft-energy's pricing: the parameter file, the inputs (each
 * a stream scanned by lib/escan.c through the driver, or a scan stream of
 * rft-energy --scan), the tables of the two models of lib/energy.c with
 * their notes, and --show-params.  These print and die (cli.h). */
#ifndef RFT_PRICING_H
#define RFT_PRICING_H

#include "cli.h"
#include "energy.h"
#include "escan.h"
#include "notes.h"

typedef struct price_input {
    const char *path, *label;   /* label given as LABEL=FILE, or NULL */
    char *name;                 /* the row's name */
    /* header values of the stream ("" when absent); scenario: the first
     * word of the fault maps' source */
    char *gate, *alloc, *scenario, *clock;
    int gate_scheme;            /* RFT_GATE_* from the header */
    rft_geom geom;
    rft_escan scan;
} price_input;

typedef struct pricing {
    price_input *in;
    int n;
    const char *params;         /* --params, or NULL: the first input's header chooses */
    int model;                  /* --model: RFT_EM_*, or 0: the first input's header chooses */
    char *params_path;          /* the file loaded (NULL until then) */
    rft_params ps;              /* the --set pairs, then every value */
    rft_eparams e;
    const char *scenario;       /* --scenario */
    int absolute, clock_assumed;
    int slowdown;               /* --with-slowdown: the added cycles' leakage in the categories */
    int leak;                   /* --leak-over: RFT_LEAK_* */
    enum cli_fmt fmt;
    const char *self;           /* the program's directory, or "" */
    notes nt;                   /* what the inputs' headers say (runs, register file) */
    const char **labels;        /* per input, for the notes */
} pricing;

/* Load the parameters: p->params, else the file the first input's header h
 * (NULL: none) chooses; then the usage errors of options of the other model. */
void pricing_load(pricing *p, const rft_header *h);
/* Scan input i (the parameters loaded from its header first if they are
 * not) and check it against the parameters. */
void pricing_read(pricing *p, int i);
/* The table of the model, then (table format) the parameter file and notes. */
void pricing_table(pricing *p);
/* Every parameter with its source, derived ones too. */
void pricing_show(pricing *p);
void pricing_free(pricing *p);

#endif
