/* dcpreport.h - rft-dcpatch --summary: the table of a finished DC-Patch
 * stage (lib/dcpatch.h), per kernel or slice and in total. */
#ifndef RFT_DCPREPORT_H
#define RFT_DCPREPORT_H

#include <stdio.h>

#include "cli.h"
#include "notes.h"
#include "rft.h"

enum { DCP_REPORT_PERF, DCP_REPORT_OCC, DCP_REPORT_EVENTS };   /* --report */

typedef struct dcp_report {
    int report;         /* DCP_REPORT_* */
    int by_slice;       /* --by slice (else kernel) */
    int counts;         /* --counts: counts, not shares */
    enum cli_fmt fmt;
    notes nt;           /* what the input's header says (runs, register file) */
    const char *label;
} dcp_report;

void dcp_report_print(const dcp_report *r, const rft_stage *st, FILE *out);

#endif
