/* heal_report.h - the tables of rft-heal(1): the stress profile of the PEs
 * and SCs of a trace, what PE and SC healing (lib/heal.c) do to them, the
 * redundant work-items and the run-time cost of SC healing. */
#ifndef RFT_HEAL_REPORT_H
#define RFT_HEAL_REPORT_H

#include "cli.h"
#include "heal.h"
#include "replaycols.h"
#include "notes.h"

enum { HEAL_SUMMARY, HEAL_PROFILE, HEAL_SLICES, HEAL_UNITS, HEAL_GROUPS, HEAL_COST, HEAL_SERIES };

typedef struct heal_report {
    int scheme;                 /* 0 PE healing, 1 SC healing */
    int report;                 /* HEAL_* */
    int policy;                 /* enum rft_heal_policy */
    enum cli_fmt fmt;
    int counts;                 /* --counts: the profile or slices table in counts, not shares */
    const char *output;         /* -o FILE, or NULL: standard output */
    double hours, adapt, step, variation, packing, issue, rest;
    int have_profile, have_wi;
    double share[RFT_NSLOTS];   /* --profile */
    uint32_t work_items;
    rft_heal_opts o;
    rft_nbti p;
    const char *degraded;       /* SC healing: --degraded as given, */
    double threshold;           /* or --threshold (mV) */
    int have_threshold;
    const rft_heal *h;          /* the trace's profile, NULL without one */
    /* the cost table's replay (rft-replay --degraded-scs d, read in the same
       pass): its total row for d = 1..o.sweep (rp_total[d]), and what it says */
    int rp_want;
    rft_replay_row rp_total[RFT_HEAL_MAX_D];
    replay_info rp;
    const char *input;
    const char *params;         /* --params as given, NULL: seed 003's constants */
    rft_heal *taken;            /* the profile as the stage hands it over */
    notes nt;                   /* what the trace's header says */
} heal_report;

void heal_report_print(const heal_report *r);

#endif
