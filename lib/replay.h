/* replay.h - run time as the GPU sees it: a trace-driven replay of each
 * slice's schedule in which other wavefronts hide a stalled wavefront's
 * cycles (rft-replay(1)).
 *
 * What the records mean for timing (rft(5), "TIMING"): the records of one
 * wavefront at one cycle are one event.  A begin record starts the
 * wavefront (writes at its cycle are presets, no instruction); a group with
 * a write, a read or a bundle is one vector instruction (a write and the
 * reads of its instruction share a cycle: a vector ALU instruction is
 * stamped when it executes, a bundle when it issues, a memory or LDS
 * result when its data returns, and each of those is taken as the
 * wavefront's event at that cycle); an end record ends the wavefront.
 *
 * The replay.  Each slice's SIMD issues one instruction per `issue` cycles
 * (lanes / block_lanes: 4 on GCN, one VLIW bundle per 4 cycles on
 * Evergreen), or sooner where the trace shows it did (a traced instruction
 * holds the SIMD until the slice's next traced instruction if that comes
 * within `issue` cycles).  The gap between two events of a wavefront is
 * split in two, from the trace alone:
 *   - the SIMD's part: when the slice's traced instructions right before
 *     the later event follow one another back to back (each within `issue`
 *     cycles of the one before), the wavefront is taken as ready from the
 *     start of that run of other wavefronts' instructions (or from its own
 *     previous event, if later): that time it waited on the SIMD;
 *   - its own part: the rest, from its previous event to when it was ready
 *     (its dependencies, memory, its own issue).
 * The replay keeps each wavefront's own part, adds the scheme's latency
 * where its events happen, and issues the instructions of a slice in their
 * traced order: an instruction issues once it is ready (as late against
 * the trace as its wavefront's previous event, or as the latest result it
 * reads) and the SIMD is done with the slice's previous instruction.  A
 * wavefront's delay is hidden as far as it waited on the SIMD anyway (other
 * wavefronts' ready work filled those cycles); beyond that it delays the
 * instructions after it until the SIMD idles.  A wavefront alone pays every
 * added cycle.  Every constraint is a maximum of sums, so the replay is
 * monotone in every latency added and a slice never ends later than its
 * traced end plus every cycle added to it (the upper bound).
 * With nothing added every event replays at its traced cycle, so every
 * slice and kernel keeps its traced span exactly.
 *
 * The LDS.  An LDS instruction (its writes flagged RFT_WF_LDS, or a unit
 * record, rft.h RFT_UNITREC: a store) is not the SIMD's but its compute
 * unit's LDS's, shared by the unit's SIMDs as in Multi2Sim 4.2
 * (lds-unit.c: one instruction a cycle through one-entry buffers into a
 * memory stage of 32 in flight, whose per-work-item accesses share the LDS
 * module's two ports).  Its record is the LDS's completion (rft-decode
 * stamps lds-w).  The LDS completes one instruction per lds_issue cycles
 * (lanes / 2: 64 accesses on two ports; 4.2's Reduction run, busy,
 * completes one every 28 to 32 cycles), or sooner where the trace shows it
 * did; the same split as the SIMD's: in a run of the unit's completions
 * back to back (each within lds_issue of the one before), an instruction
 * waited on the LDS from the run's start, but not before lds_issue after
 * its wavefront's previous event (its own access); the rest is its own.
 * Replayed, it completes once ready and lds_issue (or the traced gap) after
 * the unit's previous completion.  A request late against the LDS's
 * schedule gives its place to the ones after it (the LDS's schedule goes on
 * at the later of its own and the trace's; lds_inorder: it holds them up).
 * Since the LDS passes lateness between slices, an LDS instruction's
 * replayed cycle is capped at its traced cycle plus every cycle added to
 * its slice so far: the cap and the rest are maxima and minima of sums, so
 * the replay stays monotone, never above the upper bound, and exact with
 * nothing added (every completion then at its traced cycle: not back to
 * back, it is ready at its own cycle; back to back, the LDS frees at it).
 * lds_issue 0: no LDS unit (LDS instructions take the SIMD, as before).
 *
 * A wavefront begins at its traced cycle plus the lateness of the latest
 * wavefront that ended on its slice before it (a slot freed late is taken
 * late); it ends its own traced gap after its last instruction, plus that
 * instruction's added latency.
 *
 * Scheme latency (options below), where the stream's annotations put it:
 *   - gated streams (rft-gate: on_bits set): a write flagged RFT_WF_WAKEUP
 *     gets its result wakeup_cycles later (seed 002 5.1.3, 10 cycles); one
 *     flagged RFT_WF_MOV has an injected MOV before it, one more
 *     instruction of its wavefront (mov_cycles of the SIMD);
 *   - patched streams (rft-dcpatch: header key dcpatch, RFT_PATCH records):
 *     a misprediction (a non-divergent write whose first block alone fits
 *     the pattern) stalls the pipeline stall_cycles (seed 001 IV-C: the
 *     SIMD, not only the wavefront); a divergent write to a register stored
 *     compressed has an injected MOV; a read of a register spilled to the
 *     LDS waits lds_cycles for the LDS load; every instruction's result
 *     comes `stages` cycles later (seed 001 IV-E: two extra stages);
 *   - SC healing (degraded_scs): a work-group of n wavefronts needs k more
 *     (rft_heal_group_rule with n x lanes work-items, the seed's rule, 256
 *     work-items at most); its first k wavefronts each have a redundant
 *     twin whose instructions take the SIMD right after theirs (the same
 *     dependencies: an issue slot more per instruction);
 *   - any stream: add_latency cycles on the result of every instruction of
 *     the units in latency_unit (by the writes' unit flags; vector ALU by
 *     default, what a register-file scheme's extra stages lengthen), and
 *     with hold the SIMD held as long too for a vector ALU instruction
 *     (Multi2Sim 4.2's read-exec-write stage with a one-instruction buffer);
 *     a vector memory or LDS instruction's result only comes later, the
 *     SIMD is not held (its unit, not the SIMD, waits); an instruction's
 *     unit is its writes' flags' or its unit record's.
 * The upper bound beside it adds every one of those cycles to its slice in
 * full (the first-order estimate of rft-energy before the replay); a
 * kernel or the total ends at the latest of its slices' traced ends plus
 * the cycles added there (to the kernel).
 *
 * A stream whose header says its cycles are estimated (issue_model, written
 * by the decoders of logs without cycles) is not replayed: the result says
 * so and carries the traced spans and the upper bound only.
 *
 * A stage (rft.h, "stages"): records pass unchanged (when opts.pass); at
 * finish it may emit counters records (stage "rft-replay", scopes "slice
 * CU:SIMD", "kernel NAME", "total").  Memory: per wavefront alive (its
 * registers' lateness, and places on a patched stream) and per slice, never
 * per record.  No I/O. */
#ifndef RFT_REPLAY_H
#define RFT_REPLAY_H

#include <stdint.h>

#include "rft.h"

#ifdef __cplusplus
extern "C" {
#endif

/* The last cycle the replay counts, traced or replayed: its sums of cycles
 * stay below 2^63, its signed lateness never overflows (issue 31). */
#define RFT_REPLAY_MAX_CYCLE (1ull << 62)
#define RFT_REPLAY_AUTO 0xFFFFFFFFu     /* stages: 2 on a patched stream, else 0 */
/* latency_unit: an instruction's unit is that of its writes' RFT_WF_VMEM /
 * RFT_WF_LDS flags or of its unit record (vector memory wins over LDS),
 * vector ALU when none is set (an instruction with no write and no unit
 * record, or a stream whose decoder does not mark) */
#define RFT_REPLAY_U_ALU 0x1u
#define RFT_REPLAY_U_VMEM 0x2u
#define RFT_REPLAY_U_LDS 0x4u
#define RFT_REPLAY_U_ALL 0x7u

/* deps: the results of the registers an instruction reads (the default),
 * every earlier result of its wavefront (a pipeline without forwarding), or
 * none (Multi2Sim 4.2's Southern Islands model tracks no register: a
 * wavefront fetches its next instruction once the last one executes) */
enum { RFT_REPLAY_DEPS_REG, RFT_REPLAY_DEPS_ALL, RFT_REPLAY_DEPS_NONE };

typedef struct rft_replay_opts {
    uint32_t issue;         /* SIMD cycles per instruction; 0: lanes / block_lanes */
    uint32_t add_latency;   /* every vector instruction's result of latency_unit this much later */
    int hold;               /* add_latency also holds the SIMD (vector ALU instructions only) */
    unsigned latency_unit;  /* RFT_REPLAY_U_* mask: the instructions add_latency applies to
                               (default RFT_REPLAY_U_ALU) */
    int scheme;             /* 1: latency of the stream's scheme events (default) */
    uint32_t wakeup_cycles; /* 10 */
    uint32_t mov_cycles;    /* 4: SIMD cycles of an injected MOV */
    uint32_t stall_cycles;  /* 4: pipeline stall of a misprediction */
    uint32_t lds_cycles;    /* 4: an extra LDS load of a spilled register */
    uint32_t stages;        /* extra pipeline cycles per result; RFT_REPLAY_AUTO */
    uint32_t lds_issue;     /* the LDS unit: cycles a compute unit's LDS takes per
                               instruction (its throughput); 0: no LDS unit (LDS
                               instructions on the SIMD like the others);
                               RFT_REPLAY_AUTO (the default): lanes / 2 (32 on GCN) */
    int lds_inorder;        /* the LDS completes its instructions in the traced order,
                               a late one holding up those after it (default 0: a late
                               one gives its place to the ones after it) */
    int deps;               /* what an instruction waits for: RFT_REPLAY_DEPS_* */
    uint32_t degraded_scs;  /* SC healing (seed 003 5.3): SCs 0..N-1 of every slice rest;
                               each work-group's redundant wavefronts (rft_heal_group_rule,
                               heal.h) issue the instructions of as many of its
                               wavefronts once more on the SIMD (0: none) */
    int degraded_sweep;     /* one of a sweep of degraded_scs (rft-heal's cost table): at or
                               past the slice's SCs it replays nothing, where alone it is an
                               error */
    uint32_t max_wg;        /* SC healing: work-items a work-group holds at most (256) */
    int wfrule;             /* SC healing: enum rft_heal_wfrule (heal.h; default seed) */
    int trust;              /* replay even a stream whose cycles are estimated */
    uint64_t cu_keep;       /* the compute-unit model (cumodel.h): the most bytes of timed
                               ND-ranges kept, to be timed again when a later one raises the
                               resident work-group cap (0: 64 MiB) */
    int cu_calibrate;       /* the compute-unit model: each ND-range's vector ALU and scalar
                               own parts scaled so that the traced configuration gives back
                               its traced span (RFT_CM_CAL_PCT; default 1; 0: as traced) */
    uint32_t cu_placements; /* the compute-unit model: placements perturbed, each ND-range
                               timed again with its work-groups started a few cycles late,
                               for the slowdown's range (RFT_CM_PLACE_*; default 0: none; at
                               most RFT_CM_PLACE_MAX, more taken as that many; none without a
                               what-if, where every one's slowdown is 0) */
    int pass;               /* pass the records on (default 1) */
    int emit;               /* counters records at finish (default 0) */
} rft_replay_opts;
void rft_replay_opts_default(rft_replay_opts *o);

enum { RFT_RP_SLICE, RFT_RP_KERNEL, RFT_RP_TOTAL };

/* One row of the result.  Cycles: naive is the traced span (first to last
 * record), replayed the span replayed with the scheme (0 when the stream
 * is not replayed), upper the traced span plus every added cycle.  Kernel
 * rows add up the launches of one name (spans one after another). */
typedef struct rft_replay_row {
    int scope;              /* RFT_RP_* */
    uint16_t cu, simd;      /* slice rows */
    const char *name;       /* kernel rows: the kernel's name (NUL-terminated) */
    uint64_t naive, replayed, upper;
    uint64_t instructions;  /* vector instructions (events with a write, read or bundle) */
    uint64_t added;         /* cycles the scheme added (the upper bound's share) */
    uint64_t wakeups, movs, mispredictions, lds_loads;
} rft_replay_row;

rft_stage *rft_replay_new(const rft_replay_opts *o);
/* A replay riding inside another stage (escan, dcpatch): passes and emits
 * nothing, started on in.  0 with *rp the rider; RFT_EMEM with *rp NULL; or
 * the start's error with *rp the replay (rft_stage_error says why; the
 * caller frees it). */
int rft_replay_rider(const rft_replay_opts *o, const rft_header *in, rft_stage **rp);
/* The rider sees rec / the end of the stream: 0, or the replay's error
 * (rft_stage_error(s) says why; the caller goes on without it). */
int rft_replay_ride(rft_stage *s, rft_rec *rec);
int rft_replay_ride_end(rft_stage *s);
/* After start: 1 if the stream is replayed, 0 if its cycles are estimated
 * (then why says so: the header's issue_model). */
int rft_replay_timed(const rft_stage *s, const char **why);
/* The stages in effect (after start). */
uint32_t rft_replay_stages(const rft_stage *s);
/* After finish: the rows, slices in order of appearance, then kernels in
 * order of appearance, then the total. */
uint32_t rft_replay_nrows(const rft_stage *s);
const rft_replay_row *rft_replay_get(const rft_stage *s, uint32_t i);

/* slowdown of replayed or upper against naive, in percent (0 if naive is 0) */
static inline double rft_replay_pct(uint64_t naive, uint64_t c)
{
    return naive ? 100.0 * ((double)c - (double)naive) / (double)naive : 0;
}

#ifdef __cplusplus
}
#endif
#endif
