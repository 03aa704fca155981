/* cumodel.h - a trace-driven timing model of the GPU compute unit
 * (issue 32): the traced instruction stream is issued again through a
 * model of Multi2Sim 4.2's Southern Islands device, so that a change of
 * configuration (m2scfg.h) gives a run time the traced placement and
 * interleaving do not fix.
 *
 * What the trace gives, per wavefront: its ND-range, work-group, slice,
 * begin, its events (rft(5) TIMING: one vector instruction each, its unit
 * vector ALU, vector memory or LDS, a store when it is a unit record) and
 * its end.  What the trace cannot know (a memory access's latency, a
 * barrier's wait, the front end) is taken as observed: each event's own
 * part, its traced gap from its wavefront's previous event less the time
 * it waited on its SIMD (a vector ALU instruction issued right after
 * another wavefront's on its SIMD, within one issue interval, waited for
 * that one instruction at most).
 *
 * The model, per ND-range (the six mechanisms of issue 32; version 6):
 *   1. units and buffers: a vector ALU instruction holds its SIMD for
 *      max(issue, ReadExecWriteLatency / ReadExecWriteBufferSize) cycles
 *      (4.2 tracks no register: its wavefront goes on once it issued, so
 *      the knob is the SIMD's throughput); a vector memory (LDS)
 *      instruction completes (WriteLatency - traced) later and its compute
 *      unit's write stage takes one completion per ceil(WriteLatency /
 *      WriteBufferSize) cycles (a 1-entry buffer: one write-back per
 *      latency); the wavefront goes on once the stage took it;
 *      where the stream marks an access's completion (rft(5) done, 4.2's
 *      mem-w; version 4), the write stage takes a compute unit's accesses
 *      in the order they issued, each once it completed and the buffer has
 *      room, and the wait more than the traced buffer's delays its write,
 *      not its wavefront;
 *   waits, where 4.2 waits, as the stream marks them (rft(5): unit records
 *      wait and barrier): the instruction after an s_waitcnt is ready when
 *      the wavefront's last vector memory access is done (its write stage
 *      plus its traced distance), or one issue interval after the one
 *      before, whichever is later; where the access's completion is marked
 *      and the trace shows the instruction issued later after the release
 *      (the write stage + WriteLatency) than the ND-range's fewest cycles
 *      (its restart), the wavefront was not waiting for it then: that
 *      slack absorbs as much of a later write, the instruction no sooner
 *      than its traced distance after the access's issue (version 5); the
 *      one after an s_barrier when its work-group's last wavefront has
 *      arrived, plus its traced cycles after the release (a stream without
 *      wait marks holds a wavefront at a load until it completes); where
 *      the stream marks the scalar unit (rft(5) sload, sdone, shold, srel;
 *      version 13), a scalar instruction's wait behind the compute unit's
 *      scalar loads (4.2 writes them in issue order, the wavefront going
 *      on once its instruction is written) is a wait, not own time: the
 *      event after it is ready when the latest of the loads it waited for
 *      (its traced compute unit's issued before the wait began and written
 *      by its end, each written in the run at its issue plus its traced
 *      latency) is written, plus the traced cycles from there, or after
 *      the rest of its own part, whichever is later; a load issued
 *      before the load before it on its traced compute unit was written,
 *      and written at most 9 cycles after it, came in that one's burst
 *      (4.2 merges the wavefronts' loads of one line on one miss, and its
 *      write stage takes them in order): in a run it is written that many
 *      cycles after that load's run-time write, no sooner than the
 *      shortest traced scalar-load latency read so far (the stream up to
 *      the ND-range timed) after its own issue (version 14, which took
 *      loads written within 2 cycles; version 16);
 *   2. work-groups are dispatched as slots free, as 4.2 does: in the
 *      traced order of their first begin, each to the first compute unit of
 *      the list of those with a free slot (every one at the start; one that
 *      frees a slot goes to its end), in its first free slot (slots:
 *      NumWavefrontPools x MaxWorkGroupsPerWavefrontPool work-groups and as
 *      many x MaxWavefrontsPerWavefrontPool wavefronts, capped by the most
 *      work-groups the trace shows resident on one compute unit at once,
 *      which carries its register and LDS limits); its wavefronts issue on
 *      that slot's pool (slot mod NumWavefrontPools), and keep their
 *      offsets from its first begin;
 *   3. issue arbitration: the instructions ready on a SIMD issue oldest
 *      ready first (ties: the older wavefront), not in the traced order;
 *   4. a wavefront ends its traced gap after its last event and no sooner
 *      than that gap after its last store left the write stage (4.2 holds
 *      s_endpgm until the wavefront's stores are done; rft-decode stamps
 *      the end at that completion); a work-group ends with its last
 *      wavefront and frees its slot then;
 *   5. the LDS: its instructions complete in the order they are ready,
 *      one per LDS write-stage interval per compute unit; where the stream
 *      marks an access's arrival at its LDS (rft(5) arrive, 4.2's lds-d;
 *      version 6), the compute unit's LDS is a queue: the access completes
 *      its traced service after the later of its arrival and the unit's
 *      access before (a delay while the LDS is busy costs nothing);
 *   6. an ND-range starts when the previous one has ended on every compute
 *      unit, after the traced gap between them.
 * With the traced configuration the model gives back the traced cycles
 * (its baseline error, reported beside every prediction); it is monotone
 * in every latency added and a wavefront alone pays each in full (less
 * the slack its trace shows after a release, version 5).
 *
 * The schemes' own events (issue 32), charged in a third run at the
 * what-if configuration (rft_cm_scheme; rft-replay's options, meaning what
 * they mean in the shift replay, replay.h; read from the stream as it
 * reads them: gated writes flagged RFT_WF_WAKEUP / RFT_WF_MOV, and on a
 * patched stream mispredictions, MOVs of divergent writes to a register
 * stored compressed, reads of a register spilled to the LDS):
 *   - a wake-up delays its instruction's issue wakeup_cycles;
 *   - an injected MOV takes its wavefront's SIMD mov_cycles before the
 *     instruction (as soon as both are free: another wavefront's
 *     instruction on that SIMD waits for it);
 *   - a misprediction stalls the pipeline stall_cycles after the
 *     instruction: its SIMD and its wavefront go on that much later;
 *   - a read of a spilled register adds an LDS access before the
 *     instruction: ready lds_cycles later and no sooner than its compute
 *     unit's LDS write stage is free, which it holds one interval;
 *   - stages: every result stages cycles later, waited for by the
 *     wavefront's next instruction (4.2 tracks no register: every one);
 *   - SC healing: a work-group of n wavefronts needs k more
 *     (rft_heal_group_rule, with n x lanes work-items); its first k
 *     wavefronts in begin order have a redundant twin (the first more than
 *     one when k > n) whose instructions take the same SIMD (or vector
 *     memory or LDS write stage) once more each.
 * Every charge is a maximum of sums, never a cycle sooner: a wavefront
 * alone pays each event in full, and more cycles of an event never make a
 * run faster except where, as for any latency, a delayed wavefront lets
 * the others of its SIMD go first (the tests check monotone totals).
 *
 * Streaming (the stage): the own part of an event needs only the events of
 * its slice at its cycle and the one before, so each event is stored as it
 * is closed, encoded (1 to 3 bytes: its own part, unit, store bit and its
 * scheme counts).  An ND-range is timed as soon as every wavefront of it
 * ended and a wavefront of a later one began (or the stream ended), in
 * the order the stream begins them, and its events are freed.  What the
 * model took from the whole trace it takes from the ND-ranges timed so
 * far: the most work-groups resident on one compute unit at once, a
 * running maximum.  The ND-ranges timed stay encoded, up to 64 MiB, and
 * when at the end the stream's maximum is above the one an ND-range was
 * timed with, every one is timed again with it: the results are the
 * whole-trace model's (as before the stage streamed); past 64 MiB the
 * running maximum stands.
 *
 * Memory: the encoded events of the ND-ranges not yet timed and of those
 * kept (64 MiB at most), their wavefronts and their scalar loads; a result
 * per ND-range; the last 64 scalar loads of each traced compute unit that
 * had one, and 8192 loads' writes in a run (v13), counted in the stage's
 * budget.  No
 * I/O. */
#ifndef RFT_CUMODEL_H
#define RFT_CUMODEL_H

#include <stdint.h>

#include "m2scfg.h"
#include "rft.h"

#include "replay.h"

enum { RFT_CM_ALU, RFT_CM_VMEM, RFT_CM_LDS };

typedef struct rft_cm_ev {
    uint64_t cycle;         /* traced */
    uint8_t unit;           /* RFT_CM_* */
    uint8_t store;          /* a unit record (no register written) */
    uint8_t wake, mov, misp, lds;   /* its scheme events (rft_cm_scheme) */
    uint8_t mark;           /* RFT_WF_WAIT, RFT_WF_BARRIER: it came after an s_waitcnt,
                               an s_barrier (rft(5) unit records) */
    uint64_t done;          /* a vector memory access: the cycle it completed (a done
                               mark, rft(5): its write stage took it), after its
                               cycle; 0 none */
    uint64_t arrive;        /* an LDS access: the cycle it arrived at its LDS (an
                               arrive mark, rft(5)), before its cycle (its
                               completion); 0 none */
} rft_cm_ev;

typedef struct rft_cm_wf {
    uint32_t ndrange;       /* launch index */
    uint32_t wg;            /* work-group within the ND-range */
    uint16_t cu, simd;      /* traced placement */
    uint64_t begin, end;    /* traced */
    uint32_t first, n;      /* its events: ev[first .. first + n) */
    uint32_t twins;         /* SC healing: its redundant twins (scheme runs) */
} rft_cm_wf;

/* The traced run: wavefronts in order of their begins, their events. */
typedef struct rft_cm_trace {
    const rft_cm_wf *wf;
    uint32_t nwf;
    const rft_cm_ev *ev;
    uint64_t nev;
    uint32_t issue;         /* SIMD cycles per instruction (lanes / block_lanes: 4) */
} rft_cm_trace;

/* The cycles of the schemes' events */
typedef struct rft_cm_scheme {
    uint32_t wakeup_cycles, mov_cycles, stall_cycles, lds_cycles, stages;
} rft_cm_scheme;

/* The validation's bound on the baseline error (bench/m2s-model, issue 32):
 * the predictions were checked where the model at the traced configuration
 * is within this many percent of the traced span */
#define RFT_CM_BASELINE_PCT 3.0

/* The calibration (rft_replay_opts.cu_calibrate; model v7): an ND-range
 * whose model at the traced configuration is more than RFT_CM_CAL_PCT off
 * its traced span has the own parts of its ALU-unit events (vector ALU,
 * scalar and branch instructions: the traced gaps before them, less their
 * SIMD wait) scaled by the factor of [RFT_CM_CAL_LO, RFT_CM_CAL_HI] /
 * RFT_CM_CAL_ONE that brings it closest (bisection, RFT_CM_CAL_STEPS runs
 * at most); every run of it (traced, what-if, scheme) uses that factor, so
 * the what-if stays monotone in added latency.  The trace cannot say how
 * much of a gap was the wait for the other wavefronts on the SIMD; its
 * span can. */
#define RFT_CM_CAL_PCT 1.0
#define RFT_CM_CAL_ONE 1024u
#define RFT_CM_CAL_LO 512u
#define RFT_CM_CAL_HI 2048u
#define RFT_CM_CAL_STEPS 8
typedef struct rft_cm_cal {
    uint32_t nd, scaled;        /* ND-ranges timed; those scaled */
    uint32_t unreached;         /* those tried still past RFT_CM_CAL_PCT (a bound reached, or
                                   no factor closer than none) */
    uint32_t qmin, qmax;        /* the scaled ones' factors (/ RFT_CM_CAL_ONE) */
    uint64_t traced, before;    /* every ND-range's traced span, and the model's unscaled (its
                                   first run, from the state the scaled runs left) */
} rft_cm_cal;
/* The validation's reach (bench/m2s-model, model v7): the calibration was
 * checked on kernels the model, unscaled, timed up to 15.2 % off */
#define RFT_CM_CAL_VALID_PCT 16.0

/* Placements perturbed (rft_replay_opts.cu_placements, at most
 * RFT_CM_PLACE_MAX): each ND-range timed again at both configurations with
 * every work-group started 0 to RFT_CM_PLACE_IV SIMD issue intervals late
 * (a hash of the placement's number and the work-group's), from the same
 * state; which compute unit frees a slot first, and so where the last
 * work-groups go, can change as it does in 4.2 with a few cycles' change.
 * The range of the slowdowns is the prediction's sensitivity to it; their
 * mean (the unperturbed one's with them) the slowdown to expect when which
 * placement 4.2 gets is not known (model v9). */
#define RFT_CM_PLACE_MAX 16
#define RFT_CM_PLACE_IV 2

typedef struct rft_cm_result {
    uint64_t traced;        /* traced span: first begin to last end */
    uint64_t cycles;        /* the model's span */
    uint64_t instructions;
} rft_cm_result;

/* Time tr under cfg, its cycles observed under traced (the configuration
 * the trace was taken with), its events' scheme cycles charged when sch
 * (NULL: none; each wavefront's twins with it).  nd_out: NULL, or an array
 * of one result per ND-range (indices 0 .. max ndrange), filled.  cal:
 * NULL, no calibration (the mechanisms alone), else calibrated (the
 * stage's default, rft_replay_opts.cu_calibrate) and what it did there.
 * 0, or RFT_EMEM. */
int rft_cumodel_run(const rft_cm_trace *tr, const rft_m2scfg *traced, const rft_m2scfg *cfg,
                    const rft_cm_scheme *sch, rft_cm_result *total, rft_cm_result *nd_out,
                    uint32_t nnd, rft_cm_cal *cal);

/* One row of the stage's result: an ND-range (nd: its index) or the total
 * (nd RFT_NO_KERNEL), at the traced configuration, the what-if one, and
 * the what-if one with the scheme's events charged; the events counted. */
typedef struct rft_cm_row {
    uint32_t nd;
    rft_cm_result model, what_if, scheme;
    uint64_t wakeups, movs, mispredictions, lds_loads;
    /* the what-if slowdown's range (%, what_if against model) over the
     * placements perturbed and the unperturbed one (rft_replay_opts.
     * cu_placements; none: lo = hi = mean = the slowdown), and its mean
     * over them: the point prediction model v9 validated */
    double place_lo, place_hi, place_mean;
} rft_cm_row;

/* A stage (rft.h) that times the stream through the model as it goes, at
 * traced and at whatif, and at whatif with the scheme's events of o (its
 * scheme, wakeup_cycles, mov_cycles, stall_cycles, lds_cycles, stages,
 * degraded_scs, max_wg, wfrule; the rest unused).  Passes the records on
 * when pass. */
rft_stage *rft_cumodel_new(int pass, const rft_m2scfg *traced, const rft_m2scfg *whatif,
                           const rft_replay_opts *o);
/* After finish: the rows, ND-ranges by index (a row whose traced and model
 * spans are 0 left out), then the total. */
uint32_t rft_cumodel_nrows(const rft_stage *s);
const rft_cm_row *rft_cumodel_row(const rft_stage *s, uint32_t i);
/* The name of ND-range nd (NUL-terminated, "" if none) */
const char *rft_cumodel_ndname(const rft_stage *s, uint32_t nd);
/* After finish: 1 if the scheme run charged anything (an event counted,
 * stages, or degraded_scs), else 0: its columns are worth reporting. */
int rft_cumodel_schemed(const rft_stage *s);
/* After finish: 1 if the ND-ranges timed were no longer kept (past 64 MiB
 * of them, or memory refused) when a later one raised the resident
 * work-group cap: the earlier ones' rows, and the total, are the model's
 * with the lower cap, not the whole trace's. */
int rft_cumodel_approximate(const rft_stage *s);
/* After finish: 1 if the stream marks its s_waitcnt waits (unit records of
 * unit wait: rft-decode --cycles-from of a Multi2Sim run), else 0: its loads
 * were taken to hold their wavefronts until they completed. */
int rft_cumodel_marked(const rft_stage *s);
/* 1 when the stream marks its waits (a Multi2Sim 4.2 run decoded with its
 * pipeline trace) and has LDS accesses, none with an arrive mark (decoded
 * before the model's sixth version): its LDS is not queued */
int rft_cumodel_lds_unmarked(const rft_stage *s);
/* After finish: 1 + the highest compute unit the stream's wavefronts ran on,
 * and the traced configuration's NumComputeUnits in *configured. */
uint32_t rft_cumodel_cus_seen(const rft_stage *s, uint32_t *configured);
/* After finish: what the calibration did (all 0 when it was off) */
void rft_cumodel_calibration(const rft_stage *s, rft_cm_cal *out);

#endif
