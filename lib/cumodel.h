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
 * The model, per ND-range (the six mechanisms of issue 32):
 *   1. units and buffers: a vector ALU instruction holds its SIMD for
 *      max(issue, ReadExecWriteLatency / ReadExecWriteBufferSize) cycles
 *      (4.2 tracks no register: its wavefront goes on once it issued, so
 *      the knob is the SIMD's throughput); a vector
 *      memory (LDS) instruction completes (WriteLatency - traced) later and
 *      its compute unit's write stage takes one completion per
 *      ceil(WriteLatency / WriteBufferSize) cycles (a 1-entry buffer: one
 *      write-back per latency); a load holds its wavefront until it
 *      completes, a store or an LDS instruction only while the write stage
 *      is busy (4.2 waits on them at an s_waitcnt the trace does not show);
 *   2. work-groups are dispatched to compute units as slots free: in the
 *      traced order of their first begin, each to the compute unit with a
 *      free slot that frees first (slots: NumWavefrontPools x
 *      MaxWorkGroupsPerWavefrontPool work-groups and as many x
 *      MaxWavefrontsPerWavefrontPool wavefronts, capped by the most
 *      work-groups the trace shows resident on one compute unit at once,
 *      which carries its register and LDS limits); its wavefronts keep
 *      their traced SIMD index and their offsets from its first begin;
 *   3. issue arbitration: the instructions ready on a SIMD issue oldest
 *      ready first (ties: the older wavefront), not in the traced order;
 *   4. a work-group ends when its last wavefront ends and its stores have
 *      drained (the ND-range's longest observed vector-memory load latency
 *      after its last store), and frees its slot then;
 *   5. the LDS: its instructions complete in the order they are ready,
 *      one per LDS write-stage interval per compute unit;
 *   6. an ND-range starts when the previous one has ended on every compute
 *      unit, after the traced gap between them.
 * With the traced configuration the model gives back the traced cycles
 * (its baseline error, reported beside every prediction); it is monotone
 * in every latency added and a wavefront alone pays each in full.
 *
 * Memory: the events of one ND-range (16 bytes each) until it is timed.
 * No I/O. */
#ifndef RFT_CUMODEL_H
#define RFT_CUMODEL_H

#include <stdint.h>

#include "m2scfg.h"
#include "rft.h"

enum { RFT_CM_ALU, RFT_CM_VMEM, RFT_CM_LDS };

typedef struct rft_cm_ev {
    uint64_t cycle;         /* traced */
    uint8_t unit;           /* RFT_CM_* */
    uint8_t store;          /* a unit record (no register written) */
} rft_cm_ev;

typedef struct rft_cm_wf {
    uint32_t ndrange;       /* launch index: ND-ranges are timed in this order */
    uint32_t wg;            /* work-group within the ND-range */
    uint16_t cu, simd;      /* traced placement */
    uint64_t begin, end;    /* traced */
    uint32_t first, n;      /* its events: ev[first .. first + n) */
} rft_cm_wf;

/* The traced run: wavefronts in order of their begins, their events. */
typedef struct rft_cm_trace {
    const rft_cm_wf *wf;
    uint32_t nwf;
    const rft_cm_ev *ev;
    uint64_t nev;
    uint32_t issue;         /* SIMD cycles per instruction (lanes / block_lanes: 4) */
} rft_cm_trace;

typedef struct rft_cm_result {
    uint64_t traced;        /* traced span: first begin to last end */
    uint64_t cycles;        /* the model's span */
    uint64_t instructions;
} rft_cm_result;

/* Time tr under cfg, its cycles observed under traced (the configuration
 * the trace was taken with).  nd_out: NULL, or an array of one result per
 * ND-range (indices 0 .. max ndrange), filled.  0, or RFT_EMEM. */
int rft_cumodel_run(const rft_cm_trace *tr, const rft_m2scfg *traced, const rft_m2scfg *cfg,
                    rft_cm_result *total, rft_cm_result *nd_out, uint32_t nnd);

/* A stage (rft.h) that collects the stream's wavefronts and events; after
 * finish, rft_cumodel_trace gives them for rft_cumodel_run.  Passes the
 * records on when pass. */
rft_stage *rft_cumodel_new(int pass);
const rft_cm_trace *rft_cumodel_trace(const rft_stage *s);
/* ND-ranges seen, and the name of one (NUL-terminated, "" if none) */
uint32_t rft_cumodel_nndranges(const rft_stage *s);
const char *rft_cumodel_ndname(const rft_stage *s, uint32_t nd);

#endif
