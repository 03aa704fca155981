/* replaycols.c - the replay's columns in a table (replaycols.h). */
#include "replaycols.h"

#include <string.h>

/* a slowdown: none where the traced span is empty (no time to compare with) */
static void pct_cell(cli_table *t, uint64_t naive, uint64_t c)
{
    if (naive)
        table_dbl(t, rft_replay_pct(naive, c), 2);
    else
        table_none(t);
}

void replay_cells(cli_table *t, int timed, const rft_replay_row *w)
{
    if (!w) {
        for (int i = 0; i < REPLAY_NCOLS; i++)
            table_none(t);
        return;
    }
    table_u64(t, w->naive);
    if (timed) {
        table_u64(t, w->replayed);
        pct_cell(t, w->naive, w->replayed);
    } else {
        table_none(t);
        table_none(t);
    }
    table_u64(t, w->upper);
    pct_cell(t, w->naive, w->upper);
}

const rft_replay_row *replay_row(const rft_stage *rp, int scope, uint16_t cu, uint16_t simd,
                                 const char *name)
{
    for (uint32_t i = 0, n = rp ? rft_replay_nrows(rp) : 0; i < n; i++) {
        const rft_replay_row *w = rft_replay_get(rp, i);
        if (w->scope == scope &&
            (scope != RFT_RP_SLICE || (w->cu == cu && w->simd == simd)) &&
            (scope != RFT_RP_KERNEL || strcmp(w->name, name) == 0))
            return w;
    }
    return NULL;
}

replay_info replay_info_of(const rft_stage *rp)
{
    replay_info in = {0};
    if (rp) {
        in.ok = 1;
        in.timed = rft_replay_timed(rp, &in.why);
        in.stages = rft_replay_stages(rp);
    }
    return in;
}

void replay_notes(cli_table *t, const replay_info *in, const char *traced, const char *hint)
{
    if (!in->ok) {
        table_note(t, "note: not replayed (the warning above says why): the replay's columns "
                   "are empty");
        return;
    }
    if (!in->timed)
        table_notef(t, "note: not replayed: the trace's cycles are estimated (issue_model: %s); "
                    "cycles_upper is the upper bound alone%s", in->why, hint ? hint : "");
    table_notef(t, "note: %s: the traced span; cycles_replayed: the replay (rft-replay(1)), %u "
                "extra pipeline cycles per result; cycles_upper: the upper bound, every added "
                "cycle delays its slice in full (kernel and total rows: the latest slice's end "
                "plus the cycles added to it)", traced, in->stages);
    table_note(t, "estimate: slowdown_replay% is the replayed run time, the slowdown to cite; "
               "slowdown_bound% its upper bound (never below it)");
}
