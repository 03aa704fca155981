/* occreport.h - the register-file occupancy tables of rft-alloc(1), from
 * the figures of lib/occupancy.c: utilization (--util: seed 004 Table 1,
 * seed 002 Table 5) and bank recovery (--recovery: seed 004 Table 3). */
#ifndef RFT_OCCREPORT_H
#define RFT_OCCREPORT_H

#include "cli.h"
#include "occupancy.h"
#include "rft.h"

/* One row per kernel, then "all"; entries per slice; counts (--counts): the
 * integers behind the percentages, with their denominators. */
void occ_util_table(enum cli_fmt fmt, FILE *out, const rft_occ *occ, uint32_t entries, int counts);
/* One row per kernel and bank size; g: the slice (entries, lanes). */
void occ_recovery_table(enum cli_fmt fmt, FILE *out, const rft_occ *occ, const rft_geom *g,
                        int counts);

#endif
