/* heal_trace.h - how rft-heal(1) reads its trace: the stress profile
 * (lib/heal.c's stage) and, for the cost table of SC healing, the replays
 * of 1..sweep degraded SCs (lib/replay.c), all in one pass over the input. */
#ifndef RFT_HEAL_TRACE_H
#define RFT_HEAL_TRACE_H

#include "heal_report.h"

/* The profile of r->input (also left in r->taken), with r->nt the notes
 * of its header; with r->rp_want, r->rp_total and r->rp filled from the
 * replays.  Dies, naming the input, on a trace with nothing to profile, or
 * without VLIW bundles for PE healing. */
rft_heal *heal_trace_read(heal_report *r);

#endif
