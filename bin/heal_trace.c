/* heal_trace.c - rft-heal(1)'s trace, read once through the stage driver
 * (pipeline.c): the stress profile, and the cost table's replays beside it
 * so that the input (maybe standard input) is read a single time. */
#include <stdlib.h>

#include "heal_trace.h"
#include "pipeline.h"

/* ctx: the report; the profile into r->taken, taken from the stage before
 * the driver frees it */
static void take_profile(cli_job *j)
{
    heal_report *r = j->ctx;
    r->taken = rft_heal_stage_take(j->st);
}

/* The trace's header: the tables' notes (runs, its arch).  Seed 003 is of
 * execution units on Evergreen: its register file is no seed's GCN SIMD. */
static void header_notes(cli_job *j, const rft_header *in)
{
    heal_report *r = j->ctx;
    r->nt.units_only = 1;
    notes_header(&r->nt, 0, in);
}

/* ctx: the report; the total row of the replay of j->ctx's degraded SCs */
typedef struct {
    heal_report *r;
    uint32_t d;
} heal_rp;

static void take_replay(cli_job *j)
{
    heal_rp *c = j->ctx;
    const rft_replay_row *w = replay_row(j->st, RFT_RP_TOTAL, 0, 0, NULL);
    char *old = (char *)c->r->rp.why;     /* each replay of the sweep tells the same */
    c->r->rp = replay_info_of(j->st);
    free(old);
    if (c->r->rp.why)
        c->r->rp.why = xasprintf("%s", c->r->rp.why);   /* outlives the stage */
    if (w)
        c->r->rp_total[c->d] = *w;
}

/* Pipeline 0 profiles; pipeline d (1..sweep) replays d degraded SCs. */
rft_heal *heal_trace_read(heal_report *r)
{
    rft_heal *h = NULL;
    int n = r->rp_want ? 1 + r->o.sweep : 1, len[RFT_HEAL_MAX_D];
    cli_job j[RFT_HEAL_MAX_D], *pipe[RFT_HEAL_MAX_D];
    heal_rp rc[RFT_HEAL_MAX_D];
    j[0] = (cli_job){.input = r->input, .prog = prog, .read_flags = RFT_IN_AHEAD,
                     .st = rft_heal_stage_new(&r->o), .report = take_profile,
                     .check = header_notes, .ctx = r, .free_ctx = cli_ctx_borrowed};
    if (!j[0].st)
        die("out of memory");
    for (int d = 0; d < n; d++) {
        pipe[d] = &j[d];
        len[d] = 1;
        if (!d)
            continue;
        rft_replay_opts o;
        rft_replay_opts_default(&o);
        o.pass = o.emit = 0;
        o.degraded_scs = (uint32_t)d;
        o.degraded_sweep = 1;   /* the table stops below the slice's SCs */
        o.max_wg = r->o.max_wg;
        o.wfrule = r->o.wfrule;
        rc[d] = (heal_rp){r, (uint32_t)d};
        j[d] = (cli_job){.input = r->input, .prog = prog, .st = rft_replay_new(&o),
                         .report = take_replay, .ctx = &rc[d], .free_ctx = cli_ctx_borrowed};
        if (!j[d].st)
            die("out of memory");
    }
    cli_pipelines_run(pipe, len, n, NULL);
    h = r->taken;
    if (!rft_heal_span(h))
        die("%s: no records with a cycle: nothing to profile", r->input);
    if (r->scheme == 0 && !rft_heal_bundles(h))
        die("%s: no bundle records: PE healing needs VLIW bundles (rft-decode --input-format evg, "
            "or a VLIW model of rft-synth), or --profile", r->input);
    return h;
}
