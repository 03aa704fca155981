/* occreport.h - the register-file occupancy tables of rft-alloc(1), from
 * the figures of lib/occupancy.c: utilization (--util: seed 004 Table 1,
 * seed 002 Table 5) and bank recovery (--recovery: seed 004 Table 3). */
#ifndef RFT_OCCREPORT_H
#define RFT_OCCREPORT_H

#include "alloc.h"
#include "cli.h"
#include "notes.h"
#include "occupancy.h"
#include "rft.h"

/* What both tables assumed (issue 22): nt, the notes of the input
 * (notes_input), with those of the allocator o and the trace's window
 * added by occ_notes; repeated: the input is a trace run again and again
 * (rft-repeat).  Each table adds what its columns are of. */
void occ_notes(notes *nt, const rft_stage *alloc, const rft_occ *occ, int repeated);

/* One row per kernel, then "all"; entries per slice; counts (--counts): the
 * integers behind the percentages, with their denominators. */
void occ_util_table(enum cli_fmt fmt, FILE *out, const rft_occ *occ, uint32_t entries, int counts,
                    const notes *nt);
/* One row per kernel and bank size; g: the slice (entries, lanes); o: the
 * allocator's options (scheme, bank sizes). */
void occ_recovery_table(enum cli_fmt fmt, FILE *out, const rft_occ *occ, const rft_geom *g,
                        int counts, const rft_alloc_opts *o, const notes *nt);

#endif
