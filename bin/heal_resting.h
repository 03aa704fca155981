/* heal_resting.h - which SCs rest under SC healing in rft-heal(1): those of
 * --degraded, those --threshold picks, or the most stressed one. */
#ifndef RFT_HEAL_RESTING_H
#define RFT_HEAL_RESTING_H

#include "heal_report.h"

/* Sets h's resting SCs from r's options; dies (naming r->input) on a
 * --degraded SC the trace lacks, a --threshold that selects none, or a
 * slice left without a healthy SC, and warns when the most stressed SC
 * was chosen among equals. */
void heal_resting_choose(const heal_report *r, rft_heal *h);

#endif
