/* heal.h - PE healing and SC healing, the aging-aware compilation of seed 003
 * (Lotfi et al., ACM TACO 2015, sections 3, 5 and 6).
 *
 * Three parts, computation only (no I/O, no printing):
 *  - the stress profile of a trace: how busy each stream core (SC, a lane
 *    position of a slice: lane i runs on SC i mod block_lanes) and each
 *    processing element (PE, a VLIW slot X Y Z W T of an SC) is, fed record by
 *    record (rft_heal_feed), in memory bounded by the slices and the work-groups
 *    alive at once, never by the trace's length;
 *  - PE healing (section 5.2) and SC healing (section 5.3) as duty cycles, and
 *    the threshold-voltage shift they lead to over months of use with the
 *    reaction-diffusion model of nbti.h (Eqs. 1-4);
 *  - the redundant work-items and extra wavefronts of SC healing (section 5.3,
 *    6.2) and a first-order estimate of its run-time cost, replaying the
 *    trace's own per-slice schedule (rft-heal(1) says what it ignores).
 *
 * A unit (PE or SC) is stressed while it executes and recovers while idle
 * (seed 003 section 3: every internal node at '0' under stress), so its duty
 * cycle alpha is the fraction of the window's cycles it is busy. */
#ifndef RFT_HEAL_H
#define RFT_HEAL_H

#include <stddef.h>
#include <stdint.h>

#include "nbti.h"
#include "rft.h"

#define RFT_HEAL_SHAPES 128         /* slots (5 bits) x flags (2 bits) */
#define RFT_HEAL_MAX_D 16           /* degraded SCs per slice in the cost sweep */

enum rft_heal_source { RFT_HEAL_AUTO, RFT_HEAL_BUNDLES, RFT_HEAL_WRITES };
enum rft_heal_policy { RFT_HEAL_YOUNG, RFT_HEAL_PERMUTE };
enum rft_heal_wfrule { RFT_HEAL_WF_SEED, RFT_HEAL_WF_CEIL };

typedef struct rft_heal_opts {
    int source;                     /* enum rft_heal_source: what makes a unit busy */
    uint32_t max_wg;                /* work-items per work-group limit (256, section 5.3) */
    uint32_t max_wf;                /* wavefronts a slice holds at most (16) */
    int wfrule;                     /* enum rft_heal_wfrule */
    int sweep;                      /* cost for 1..sweep degraded SCs per slice (8) */
    int sweep_fit;                  /* 1: a sweep past a narrow slice's SCs is cut to leave
                                       one healthy SC (0: refused) */
} rft_heal_opts;
void rft_heal_opts_default(rft_heal_opts *o);

/* Per slice: busy cycles of each SC and of each PE of each SC. */
typedef struct rft_heal_slice {
    uint16_t cu, simd;
    uint64_t *sc_busy;              /* [nsc] */
    uint64_t *pe_busy;              /* [nsc * RFT_NSLOTS] */
    uint64_t bundles, writes;
    uint64_t instr[RFT_NSLOTS];     /* ALU instructions per slot (per bundle, not lane) */
    uint64_t *cost;                 /* replay: [sweep + 1] busy-until cycle per scenario */
    void *sched;                    /* replay state (heal.c) */
} rft_heal_slice;

typedef struct rft_heal rft_heal;

/* Create for streams of geometry g; NULL if out of memory or g has more
 * lanes per block than rft_heal supports (message in *why). */
rft_heal *rft_heal_new(const rft_geom *g, const rft_heal_opts *o, const char **why);
void rft_heal_free(rft_heal *h);
/* Feed one record (kinds other than begin, end, write and bundle are
 * ignored).  0, or RFT_EFORMAT / RFT_EMEM with a message in rft_heal_error(). */
int rft_heal_feed(rft_heal *h, const rft_rec *r);
/* After the last record: completes the replay.  0 or an error. */
int rft_heal_finish(rft_heal *h);
const char *rft_heal_error(const rft_heal *h);

/* ---- what the trace says ------------------------------------------------------ */
uint32_t rft_heal_nsc(const rft_heal *h);           /* SCs per slice (block_lanes) */
/* lanes of a wavefront (the geometry's lanes per register) */
uint32_t rft_heal_lanes(const rft_heal *h);
size_t rft_heal_nslices(const rft_heal *h);
const rft_heal_slice *rft_heal_slice_at(const rft_heal *h, size_t i);  /* sorted by cu, simd */
/* The window: first and last cycle of any record; span = last - first + 1. */
uint64_t rft_heal_first(const rft_heal *h);
uint64_t rft_heal_span(const rft_heal *h);
/* The source in effect: bundles if the stream had any (auto), else writes. */
int rft_heal_source(const rft_heal *h);
uint64_t rft_heal_bundles(const rft_heal *h);
/* Bundle shapes (slots | flags << 5), weighted by active lanes: the PE work
 * PE healing redistributes. */
const uint64_t *rft_heal_shapes(const rft_heal *h);
/* Work-groups seen and their sizes: the most and the fewest work-items of a
 * complete work-group, wavefronts of the largest. */
uint64_t rft_heal_groups(const rft_heal *h);
uint32_t rft_heal_group_max(const rft_heal *h);
uint32_t rft_heal_group_min(const rft_heal *h);
/* Busy fraction of a count of busy cycles over the window. */
double rft_heal_alpha(const rft_heal *h, uint64_t busy);
/* Duty cycle of SC j of slice s: its busy fraction. */
double rft_heal_sc_alpha(const rft_heal *h, const rft_heal_slice *s, uint32_t j);
/* SCs the records make busier than the window (writes count memory results
 * too): rft_heal_finish clamps their busy cycles, and those of their PEs, to
 * the window, so that every table, the work their neighbours take under SC
 * healing and the dVth see one duty of 100 %.  The i-th of them (i <
 * rft_heal_nover), in slice order, with its busy cycles before the clamp. */
typedef struct rft_heal_over {
    uint16_t cu, simd;
    uint32_t sc;
    uint64_t busy;
} rft_heal_over;
size_t rft_heal_nover(const rft_heal *h);
const rft_heal_over *rft_heal_over_at(const rft_heal *h, size_t i);

/* ---- duty cycles ------------------------------------------------------------------ */
/* The work of the PEs: for each bundle shape (index slots | flags << 5) the
 * busy SC-cycles it makes, and the SC-cycles available (window x SCs), so
 * alpha of a PE = its share of the work / total. */
typedef struct rft_heal_work {
    double shape[RFT_HEAL_SHAPES];
    double total;
} rft_heal_work;
void rft_heal_work_of_trace(const rft_heal *h, rft_heal_work *w);
/* A profile given by hand: shares of ALU instructions per PE (sum 1),
 * packing ratio (filled slots / 5) and the share of cycles an SC issues a
 * bundle: PE p is busy share[p] * 5 * packing * issue of the cycles.  A
 * profile has no bundles: PE healing permutes whole slots. */
void rft_heal_work_of_profile(const double share[RFT_NSLOTS], double packing, double issue,
                              rft_heal_work *w);

/* Duty cycle of each PE when the instructions of every bundle go to the
 * slots given by rank (rank[0] the youngest PE ... rank[4] the oldest):
 *  - YOUNG (section 5.2, bundle by bundle): a transcendental-only T
 *    instruction stays on T; the X..W instructions of a vector op go to the
 *    youngest of X..W; every other instruction to the youngest free slot.
 *  - PERMUTE: the slots' loads are permuted, the heaviest load to the
 *    youngest PE (X..W among themselves; T too when perm_t).
 * rank NULL: the naive assignment (every instruction on its own slot). */
void rft_heal_pe_alpha(const rft_heal_work *w, int policy, int perm_t, const int rank[RFT_NSLOTS],
                       double alpha[RFT_NSLOTS]);

/* ---- threshold voltage over time ------------------------------------------------------ */
/* dVth (V) of a unit after t seconds whose duty cycle averaged alpha over
 * them, starting from dv0 (initial variation, Eq. 1): the RD model's
 * long-term form, with dv0 under the 2n-th root as in Eqs. 1 and 3. */
double rft_heal_dvth(const rft_nbti *p, double alpha, double t, double dv0);

/* PE healing over time: every adapt seconds the PEs are ranked by their
 * dVth so far (the NBTI sensors of section 5.1) and the next period's
 * instructions assigned with rft_heal_pe_alpha.  Fills dvth[] (V) and
 * alpha[] (mean duty) at the horizon; if step > 0, series(t, dvth, user)
 * is called at t = 0, step, 2 step, ... (inside an adaptation period too:
 * the dVth of the duty averaged up to t) and at the horizon. */
typedef void (*rft_heal_series_fn)(double t, const double dvth[RFT_NSLOTS], void *user);
void rft_heal_pe_run(const rft_nbti *p, const rft_heal_work *w, int policy, int perm_t,
                     const double dv0[RFT_NSLOTS], double horizon, double adapt, double step,
                     rft_heal_series_fn series, void *user, double dvth[RFT_NSLOTS],
                     double alpha[RFT_NSLOTS]);

/* ---- SC healing: redundant work-items and wavefronts (section 5.3, 6.2) --------------- */
typedef struct rft_heal_group {
    uint32_t rwi;                   /* redundant work-items of the naive group */
    uint32_t groups;                /* healthy groups one naive group becomes (halving) */
    uint32_t wi_max;                /* work-items of the largest healthy group, with RWIs */
    uint32_t wf_naive, wf_healthy;  /* wavefronts: naive group, all its healthy groups */
    uint32_t wf_one, wf_one_naive;  /* wavefronts of the largest healthy group, and of
                                       its naive work-items alone */
} rft_heal_group;
/* A naive work-group of wi work-items on a slice whose SCs in `degraded`
 * (bit s = SC s) rest: every work-item i (lane i mod wf_lanes, SC lane mod
 * nsc) of a degraded SC is redone by one redundant work-item; when the group
 * would pass max_wg work-items it is halved (the non-tuned healthy kernel),
 * again if need be.  Wavefronts: RFT_HEAL_WF_CEIL counts ceil(n / wf_lanes);
 * RFT_HEAL_WF_SEED one more when the redundant work-items end exactly on a
 * wavefront boundary, as seed 003 measures (section 6.2.1: 128 + 64 RWIs
 * take four wavefronts).  0, or RFT_EFORMAT if every SC is degraded. */
int rft_heal_group_rule(uint32_t wi, uint64_t degraded, uint32_t nsc, uint32_t wf_lanes,
                        uint32_t max_wg, int wfrule, rft_heal_group *g);

/* Run-time estimate of the healthy kernel with d degraded SCs (SCs 0..d-1 of
 * every slice of the first `cus` CUs in cu order; cus 0 = every CU), in
 * cycles, d = 0 the naive kernel replayed by the same model: the first
 * record's cycle to the last busy cycle of the latest slice, both counted,
 * as the window (rft_heal_span) is; 0 when no slice is busy past the
 * first cycle. */
uint64_t rft_heal_cost(const rft_heal *h, int d, uint32_t cus);
uint32_t rft_heal_ncus(const rft_heal *h);
int rft_heal_sweep(const rft_heal *h);             /* the sweep in effect (sweep_fit) */

/* ---- SC healing: the resting SCs (section 5.3) ------------------------------------------- */
/* The slice cu:simd of the trace, or NULL. */
const rft_heal_slice *rft_heal_slice_find(const rft_heal *h, uint16_t cu, uint16_t simd);
/* SC j of slice s rests.  0 or RFT_EMEM. */
int rft_heal_rest(rft_heal *h, const rft_heal_slice *s, uint32_t j);
/* Every SC whose naive dVth after t seconds reaches mv millivolts rests. */
int rft_heal_rest_over(rft_heal *h, const rft_nbti *p, double t, double mv);
/* The most stressed SC of the trace (the highest busy share; the first in
 * slice and SC order among equals) into *s and *j, and how many SCs share
 * its busy share: 0 when the trace has no SC (*s NULL). */
size_t rft_heal_most_stressed(const rft_heal *h, const rft_heal_slice **s, uint32_t *j);
/* The one most stressed SC of the trace rests (seed 003 Fig. 8). */
int rft_heal_rest_most(rft_heal *h);
/* The slices with resting SCs, in the order their first SC was set to rest,
 * and the mask of their resting SCs (bit j = SC j). */
size_t rft_heal_nresting(const rft_heal *h);
const rft_heal_slice *rft_heal_resting(const rft_heal *h, size_t i, uint64_t *mask);
/* Duty cycle of SC j of slice s when the SCs of mask rest: a resting SC runs
 * rest x its duty; the healthy SCs share the rest of the resting SCs' work
 * evenly.  A duty is at most 1: what a healthy SC would run beyond the
 * window is stored in *over (a share of the window; may be NULL). */
double rft_heal_sc_healed(const rft_heal *h, const rft_heal_slice *s, uint64_t mask, double rest,
                          uint32_t j, double *over);

/* ---- the stage behind rft-heal(1) (rft.h, "stages") ---------------------------------------- */
/* Feeds a profile made for the input's geometry (rft_heal_new: its error
 * fails the start) and finishes it; every record passed on unchanged.
 * After the finish rft_heal_stage_take hands the profile over: the stage
 * no longer frees it. */
rft_stage *rft_heal_stage_new(const rft_heal_opts *o);
rft_heal *rft_heal_stage_take(rft_stage *s);

#endif
