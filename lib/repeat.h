/* repeat.h - a trace run again and again (rft-repeat(1)): copies of a
 * stream back to back, each copy's cycles shifted past the end of the one
 * before (plus a gap) and its kernel indexes past the previous copy's.  The
 * seeds report lifetimes over kernels run many times, while a simulator
 * trace is one short run: window reassignments (RAR, ARGO) and the weight of
 * ramp-up and drain depend on how often the kernel runs.
 *
 * The caller reads the same stream once per copy and feeds each record of
 * it; the first copy measures the stream (its cycles, its kernels), so
 * memory stays flat.  Errors are RFT_EFORMAT with rft_repeat_why(), or a
 * sink's own code. */
#ifndef RFT_REPEAT_H
#define RFT_REPEAT_H

#include "rft.h"

typedef struct rft_repeat rft_repeat;

rft_repeat *rft_repeat_new(uint64_t copies, uint64_t gap);     /* NULL: out of memory */
/* A record of the copy being read, shifted, to out (a fault map: in the
 * first copy only; a duty map is refused: repeat first, then map). */
int rft_repeat_feed(rft_repeat *r, rft_rec *rec, const rft_sink *out);
/* The copy ended.  After the first: whether that many copies fit (their
 * cycles in 64 bits, their kernel indexes in 32). */
int rft_repeat_next(rft_repeat *r);
const char *rft_repeat_why(const rft_repeat *r);
void rft_repeat_free(rft_repeat *r);

#endif
