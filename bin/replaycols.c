/* replaycols.c - the replay's columns in a table (replaycols.h). */
#include "replaycols.h"

#include <string.h>

void replay_cells(cli_table *t, const rft_stage *rp, const rft_replay_row *w)
{
    int timed = rp && w && rft_replay_timed(rp, NULL);
    if (!w) {
        for (int i = 0; i < REPLAY_NCOLS; i++)
            table_none(t);
        return;
    }
    table_u64(t, w->naive);
    if (timed) {
        table_u64(t, w->replayed);
        table_dbl(t, rft_replay_pct(w->naive, w->replayed), 2);
    } else {
        table_none(t);
        table_none(t);
    }
    table_u64(t, w->upper);
    table_dbl(t, rft_replay_pct(w->naive, w->upper), 2);
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

void replay_notes(FILE *out, const rft_stage *rp, const char *hint)
{
    const char *why;
    if (!rp) {
        fprintf(out, "note: not replayed (the warning above says why): no cycles columns\n");
        return;
    }
    if (!rft_replay_timed(rp, &why))
        fprintf(out, "note: not replayed: the trace's cycles are estimated (issue_model: %s); "
                "cycles_upper is the upper bound alone%s\n", why, hint ? hint : "");
    fprintf(out, "note: cycles_naive: the traced span; cycles_replayed: the replay (rft-replay(1)), "
            "%u extra pipeline cycles per result; cycles_upper: the upper bound, every added "
            "cycle delays its slice in full (kernel and total rows: the latest slice's end plus "
            "the cycles added to it)\n", rft_replay_stages(rp));
}
