/* synth.h - seeded synthetic register-write workloads: named kernel models
 * run on a simple issue model of a GPU, as the records of an rft stream.
 *
 * Two architectures: GCN (vector instructions on SIMDs of 16-wide lanes,
 * SIMD s of every CU issuing at cycles t with t % 4 == s % 4) and AMD
 * Evergreen (VLIW ALU groups, bundles, filling the slots X Y Z W T with the
 * skew of seed 003 Fig. 4, one SIMD engine per CU).  Every wavefront runs a
 * short program of instructions (a prologue, a loop body run a fixed number
 * of times, an epilogue); values are formulas of the work-item ids, the loop
 * iteration and a seeded PRNG, so the records depend on the options alone,
 * never on time or addresses.  Register contents are kept per slice, so lanes
 * outside an exec mask keep what the entry held, whoever wrote it.
 *
 * The generator behind rft-synth(1): no I/O, no globals; its records go to an
 * rft_sink (rft.h, "stages"), e.g. a writer or the first stage of a pipeline. */
#ifndef RFT_SYNTH_H
#define RFT_SYNTH_H

#include <stdint.h>

#include "rft.h"

#ifdef __cplusplus
extern "C" {
#endif

enum { RFT_SYNTH_GCN = 0, RFT_SYNTH_EVERGREEN = 1 };

#define RFT_SYNTH_MAX_KERNELS 64   /* kernels of one run */
#define RFT_SYNTH_MAX_WAVES 16     /* wavefronts a slice holds */

typedef struct rft_synth_opts {
    int arch;               /* RFT_SYNTH_GCN or RFT_SYNTH_EVERGREEN */
    const char *kernels;    /* "a,b,a": models of arch run in turn; NULL: each model once */
    uint64_t size;          /* writes (gcn) or bundles (evergreen) to make, about */
    unsigned cus, simds;    /* slices: cus x simds (evergreen: simds 1) */
    unsigned lanes;         /* per wavefront, a multiple of 8 */
    unsigned entries;       /* per slice; 0: 256 */
    unsigned block_lanes;   /* lanes per block; 0: 16, 8 when lanes is no multiple of 16 */
    unsigned wg_size;       /* work-items per work-group; 0: each model's own */
    unsigned reg_gran;      /* a work-item's registers allocated in units of this many
                               (NVIDIA: 8, 256 a warp; rft(5)); 0 or 1: the model's count */
    uint64_t seed;
} rft_synth_opts;

/* gcn: 2 CUs x 4 SIMDs; evergreen: an HD 5870's 20 CUs of one SIMD engine;
 * both 64 lanes, 100000 writes or bundles, seed 1. */
void rft_synth_opts_default(rft_synth_opts *o, int arch);

/* The models of an architecture, in their order (rft-synth --list). */
typedef struct rft_synth_model {
    const char *name, *desc;
    unsigned nregs;         /* VGPRs per work-item: the window */
    unsigned wg_items;      /* evergreen: work-items per work-group (seed 003 Table I); gcn 0 */
    const double *share;    /* evergreen: % of the ALU instructions on X Y Z W T; gcn NULL */
    double packing;         /* evergreen: filled slots / 5 on average */
} rft_synth_model;
unsigned rft_synth_nmodels(int arch);
void rft_synth_model_info(int arch, unsigned i, rft_synth_model *m);

typedef struct rft_synth rft_synth;

/* A generator for o into *s.  0; RFT_EFORMAT for options it cannot run (an
 * unknown model, a work-group larger than a slice holds), with a message in
 * rft_synth_error(*s) naming the option of rft-synth(1); any other code when
 * it cannot be made (out of memory: *s NULL, else the message).  Free *s in
 * every case. */
int rft_synth_new(rft_synth **s, const rft_synth_opts *o);
const char *rft_synth_error(const rft_synth *s);

/* The stream's geometry and metadata (source, seed, kernels, size, ...) into
 * h, initialized by the caller.  0 or RFT_EMEM. */
int rft_synth_header(const rft_synth *s, rft_header *h);

/* Writes (gcn) or bundles (evergreen) the run makes: the size asked,
 * rounded to whole work-groups. */
uint64_t rft_synth_size(const rft_synth *s);

/* Make every record, in order, into out (a record is valid during the call
 * only; out may change it).  Once per generator.  0, or the first nonzero
 * return of out->put (no record is handed on after it). */
int rft_synth_run(rft_synth *s, const rft_sink *out);

void rft_synth_free(rft_synth *s);     /* accepts NULL */

#ifdef __cplusplus
}
#endif
#endif
