/* classify.h - the value pattern of every register write (seed 002 5.1,
 * seed 001 II-C): its RC/DC-Patch class under a block size and delta rule
 * (pattern.h), whether its first block alone fits (speculation, 5.1.3),
 * whether it is divergent (its exec mask is not the wavefront's full one)
 * and then needs a decompressing MOV, and its WC (BDI) class.  The stage
 * behind rft-classify(1): it annotates each write (rft_write.cls, bs, c0,
 * de, db, wc, flags) and counts, per kernel (launches of a kernel share its
 * name) and optionally per logical register, what rft-classify --summary
 * shows.
 *
 * A coverage stage classifies every write under several rules and only
 * counts, per kernel, the writes that fit each (records pass unchanged):
 * the first pass of --bs auto, and --sweep.
 *
 * A stage (rft.h, "stages"): no I/O, no globals. */
#ifndef RFT_CLASSIFY_H
#define RFT_CLASSIFY_H

#include "pattern.h"
#include "rft.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Counters of a kernel or register; the class and WC blocks follow the
 * order of enum rft_class and enum rft_wc. */
enum { RFT_CC_WRITES, RFT_CC_CONST, RFT_CC_SINGLE, RFT_CC_DOUBLE, RFT_CC_OTHER,
       RFT_CC_COMPR,    /* compressible and not divergent: compressed */
       RFT_CC_MISP,     /* not compressible, but the first block fit: mispredicted */
       RFT_CC_DIV, RFT_CC_MOV, RFT_CC_WC_BASE, RFT_CC_WC_D1, RFT_CC_WC_D2, RFT_CC_WC_UNC,
       RFT_CC_WC_ON_BITS, /* bits WC leaves powered, added up */
       RFT_CC_N };
typedef struct rft_classify_counts {
    uint64_t n[RFT_CC_N];
} rft_classify_counts;

/* Coverage rules (opts.cover) */
enum { RFT_COVER_NONE = 0,  /* annotate */
       RFT_COVER_POW2 = 1,  /* block sizes 1, 2, 4, ... 64 under po's delta rule */
       RFT_COVER_SWEEP = 2  /* block sizes 1..64, each under pow2 then any deltas */ };

typedef struct rft_classify_opts {
    rft_pattern_opts po;    /* the rule; po.bs for kernels without a chosen size */
    int bs_auto;            /* sizes chosen per kernel (rft_classify_choose_bs): bs=auto in the header */
    int by_reg;             /* count per logical register too */
    int cover;              /* RFT_COVER_*: a coverage stage */
} rft_classify_opts;
void rft_classify_opts_default(rft_classify_opts *o);  /* the hardware rule, annotating */

/* The stage.  Annotating, the header gets classify=<bs and rule> and a
 * warning tells when the input was classified with another.  NULL when
 * out of memory. */
rft_stage *rft_classify_new(const rft_classify_opts *o);

/* --bs auto: give every kernel counted by cover (an RFT_COVER_POW2 stage
 * after its finish) to s (before its start) with the power of two that fits
 * most of its writes (ties: 8, the hardware's, then the smaller).  0 or
 * RFT_EMEM. */
int rft_classify_choose_bs(rft_stage *s, const rft_stage *cover);

/* A kernel's figures; valid until the stage is freed. */
typedef struct rft_classify_kernel {
    const char *name;       /* "-" for wavefronts of no kernel */
    unsigned bs;            /* its block size */
    const rft_classify_counts *all;
    const rft_classify_counts *reg; /* per logical register (by_reg), nreg of them */
    unsigned nreg;
    const uint64_t *cover;  /* coverage: writes that fit, per rule */
} rft_classify_kernel;
/* Kernels in order of appearance. */
unsigned rft_classify_nkernels(const rft_stage *s);
void rft_classify_kernel_get(const rft_stage *s, unsigned i, rft_classify_kernel *k);
/* Coverage: the rules, in order. */
unsigned rft_classify_nrules(const rft_stage *s);
const rft_pattern_opts *rft_classify_rule(const rft_stage *s, unsigned c);
/* After start: lanes per register (WC bits are out of 32 per lane). */
uint32_t rft_classify_lanes(const rft_stage *s);

#ifdef __cplusplus
}
#endif
#endif
