/* merge.h - the duty maps and counters of several rft streams added up
 * (rft-merge(1)): shards of one trace run in parallel, or runs one after
 * another.  Cells of equal slice and entry are summed, counters records of
 * equal stage, scope and name too (a "_peak" keeps the largest); records of
 * other kinds pass on at once.  The sums come out at the end: the cells by
 * slice and entry, then the counters by stage and scope.
 *
 * Errors are RFT_EFORMAT or RFT_EMEM with rft_merge_why() (which does not
 * name the input), or a sink's own code. */
#ifndef RFT_MERGE_H
#define RFT_MERGE_H

#include "rft.h"

typedef struct rft_merge rft_merge;

rft_merge *rft_merge_new(void);     /* NULL: out of memory */
/* The next input begins (name: for messages about it later): its geometry
 * must be the first input's. */
int rft_merge_input(rft_merge *m, const char *name, const rft_header *h);
/* One of its records; a trace record is an error of the whole input, at
 * its end. */
int rft_merge_feed(rft_merge *m, rft_rec *rec, const rft_sink *out);
/* The input ended: an error if it held trace records ("record N: ..."). */
int rft_merge_input_end(rft_merge *m);
/* The sums, to out. */
int rft_merge_finish(rft_merge *m, const rft_sink *out);
const char *rft_merge_why(const rft_merge *m);
void rft_merge_free(rft_merge *m);

#endif
