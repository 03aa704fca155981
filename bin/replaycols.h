/* replaycols.h - the replay's columns in a table (rft-replay, rft-dcpatch
 * --report perf, rft-heal --report cost): cycles traced, replayed and the
 * upper bound, with the note lines saying which estimate each column is. */
#ifndef RFT_REPLAYCOLS_H
#define RFT_REPLAYCOLS_H

#include <stdio.h>

#include "cli.h"
#include "replay.h"

#define REPLAY_NCOLS 5
#define REPLAY_COLS "cycles_naive", "cycles_replayed", "slowdown%", "cycles_upper", \
                    "upper_slowdown%"

/* The REPLAY_NCOLS cells of row w of the replay rp (after finish); empty
 * cells where rp or w is NULL, and in the replayed columns where rp's
 * cycles are estimated. */
void replay_cells(cli_table *t, const rft_stage *rp, const rft_replay_row *w);
/* The row of rp of the given scope (RFT_RP_*): the slice cu:simd, the
 * kernel name, or the total; NULL if none (or rp NULL). */
const rft_replay_row *replay_row(const rft_stage *rp, int scope, uint16_t cu, uint16_t simd,
                                 const char *name);
/* The note lines under a table (format table): which estimate each column
 * is, and why a stream was not replayed; hint follows the estimated-cycles
 * note (NULL: none). */
void replay_notes(FILE *out, const rft_stage *rp, const char *hint);

#endif
