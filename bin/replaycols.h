/* replaycols.h - the replay's columns in a table (rft-replay, rft-dcpatch
 * --report perf, rft-heal --report cost): cycles traced, replayed and the
 * upper bound, with the note lines saying which estimate each column is. */
#ifndef RFT_REPLAYCOLS_H
#define RFT_REPLAYCOLS_H

#include <stdio.h>

#include "cli.h"
#include "replay.h"

#define REPLAY_NCOLS 5
#define REPLAY_COLS "cycles_naive", "cycles_replayed", "slowdown_replay%", "cycles_upper", \
                    "slowdown_bound%"

/* The REPLAY_NCOLS cells of row w (NULL: every cell empty); the replayed
 * cells empty unless timed (the stream's cycles are not estimated). */
void replay_cells(cli_table *t, int timed, const rft_replay_row *w);
/* The row of rp (after finish) of the given scope (RFT_RP_*): the slice
 * cu:simd, the kernel name, or the total; NULL if none (or rp NULL). */
const rft_replay_row *replay_row(const rft_stage *rp, int scope, uint16_t cu, uint16_t simd,
                                 const char *name);
/* What a finished replay says of its stream. */
typedef struct replay_info {
    int ok;                 /* replayed at all (0: a warning said why not) */
    int timed;              /* rft_replay_timed */
    const char *why;        /* its issue_model, when not timed */
    uint32_t stages;        /* rft_replay_stages */
} replay_info;
replay_info replay_info_of(const rft_stage *rp);     /* rp NULL: not ok */
/* The notes of table t (cli.h table_note, every format): which estimate
 * each column is (traced: the name of the traced span's column), and why a
 * stream was not replayed; hint follows the estimated-cycles note (NULL:
 * none). */
void replay_notes(cli_table *t, const replay_info *in, const char *traced, const char *hint);

#endif
