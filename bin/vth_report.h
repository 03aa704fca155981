/* vth_report.h - the tables of rft-vth(1) over duty maps read side by side
 * (duty.h, rft_duty_cmp): the NBTI summary by scope or by class of cells,
 * and the tables by bit, entry, year and cell. */
#ifndef RFT_VTH_REPORT_H
#define RFT_VTH_REPORT_H

#include "cli.h"
#include "duty.h"
#include "nbti.h"
#include "notes.h"

enum { VTH_BY_SUMMARY, VTH_BY_BIT, VTH_BY_REG, VTH_BY_CELLS, VTH_BY_YEAR, VTH_BY_FAULT };

typedef struct vth_report {
    int by;                     /* VTH_BY_* */
    int per_slice, include_unused, slice_set;
    uint16_t cu, simd;          /* --slice */
    double years, step;
    rft_nbti p;
    const char *params;         /* --params as given, or NULL: the built-in values */
    char *sets;                 /* the --set pairs, "KEY=VALUE ...", or NULL */
    enum cli_fmt fmt;
    const char **label;         /* per map */
    int nmaps;
    const rft_duty_cmp *cmp;
    cli_table *cells;           /* --by cells: rows as the records come */
    notes nt;                   /* what each map's header says (vth_map_header) */
    char **scheme;              /* per map: its allocator (header alloc=scheme=), or NULL */
    unsigned char *steady;      /* per map: the steady state (header runs=steady) */
    unsigned char *unused_on;   /* per map: unused entries on (header duty.unused=on) */
} vth_report;

/* Map i's header: its notes (runs, register file) and allocator. */
void vth_map_header(vth_report *r, size_t i, const rft_header *h);

/* --by cells: the table, and the rows of one record of map i (rft_duty_cmp's each). */
void vth_cells_open(vth_report *r);
void vth_cell_rows(void *report, size_t map, const rft_duty_rec *d);
/* After every map is read: the table of r->by (--by cells: the rows left). */
void vth_print(vth_report *r);
/* --show-params: the constants in effect. */
void vth_show_params(const rft_nbti *p, enum cli_fmt fmt);

#endif
