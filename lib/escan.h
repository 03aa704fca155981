/* escan.h - the energy scan of a stream: what the energy models of
 * energy.h price, counted in one pass over a placed, gated or patched
 * stream (rft-energy(1)): its reads and writes, its span, slices and
 * compute units, its powered cells over time (rft_power, energy.h) and the
 * last total counters of rft-dcpatch and rft-gate.
 *
 * A stage (rft.h, "stages"): it passes the records on unchanged (or none)
 * and has its result at finish.  It can emit that result as one counters
 * record (stage "rft-energy", scope "scan", below) so that a scan travels
 * in a stream; a stream holding such a record is taken as that scan, so a
 * scan stream and the stream it was made from give the same result.
 * No I/O, no globals. */
#ifndef RFT_ESCAN_H
#define RFT_ESCAN_H

#include "replay.h"
#include "rft.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct rft_escan_opts {
    /* Entries per power-gating bank of free entries, 1..RFT_MAX_ENTRIES
     * (gating.bank_entries of the gating model): with 1, banks of the
     * stream's own (rft-alloc --bank); a stream gated in other banks than
     * a bank above 1 is an error naming bank_from ("the scan" if NULL). */
    uint32_t bank;
    const char *bank_from;
    int pass;               /* pass the records on (else none) */
    int emit;               /* emit the result as a counters record at finish */
    int replay;             /* replay the stream (replay.h) with replay_opts (default 1) */
    rft_replay_opts replay_opts;
} rft_escan_opts;
void rft_escan_opts_default(rft_escan_opts *o);     /* bank 1, records passed, no record */

typedef struct rft_escan {
    uint32_t bank;              /* the bank it was scanned in */
    uint64_t reads, writes;
    int timed;                  /* begin, end, write or read records seen */
    uint64_t first, last;       /* the cycles of the first and last of them */
    int gated;                  /* on_bits annotations or gated windows seen */
    uint32_t slices, cus;       /* slices and compute units seen */
    double powered_cell_cycles; /* sum over slices of powered cells x cycles, first to last */
    uint64_t alloc_wakeups;     /* entries switched on by window placements */
    int ndcpatch, ngate;        /* counters records of rft-dcpatch, rft-gate (scope total) */
    /* the replay (replay.h): RFT_ESCAN_REPLAYED, or why not */
    int replay;
    uint64_t replay_naive;      /* sum over slices of their traced spans */
    uint64_t replay_cycles;     /* ... and of their replayed spans with the scheme */
    uint64_t replay_upper;      /* ... and of their upper bounds (traced span plus every
                                   cycle the scheme adds to the slice, replay.h; 0: a scan
                                   record made before it was recorded) */
    rft_counters dcpatch, gate; /* the last of each */
} rft_escan;

/* The scan record (stage "rft-energy", scope "scan"): the fields above as
 * counters bank_entries, reads, writes, timed, first_cycle, last_cycle,
 * gated, slices, compute_units, powered_cell_cycles (the IEEE bits of the
 * double: exact), alloc_wakeups, dcpatch_records, gate_records, then the
 * counters of rft-dcpatch and of rft-gate, named rft-dcpatch.NAME and
 * rft-gate.NAME (rft(5)); replay, replay_naive, replay_cycles and replay_upper
 * (a scan record without them: not replayed; without replay_upper alone: the
 * bound is the first-order one, rft-energy(1)). */

enum { RFT_ESCAN_NOREPLAY = 0, RFT_ESCAN_REPLAYED = 1, RFT_ESCAN_ESTIMATED = 2 };

rft_stage *rft_escan_new(const rft_escan_opts *o);
/* After finish: the result. */
const rft_escan *rft_escan_result(const rft_stage *s);

/* The scans of the shards of one stream (rft-energy --scan --shard K/N,
 * each with the whole stream's span and compute units: rft_stage.whole),
 * added up: sum becomes the scan of both, the one scan of the whole
 * stream when every shard is added once.  Reads, writes, slices, powered
 * cell-cycles, wakeups and the replayed spans add; the counters of
 * rft-dcpatch and rft-gate merge as rft-merge's (a "_peak" the largest);
 * scans of other spans, compute units or banks are refused.  0, or
 * RFT_EFORMAT (RFT_EMEM) and why. */
int rft_escan_merge(rft_counters *sum, const rft_counters *add, char *why, size_t whylen);
/* The same, add being the scan of a shard on which only the stages in
 * stages (comma-separated, RFT_META_SHARD_STAGES) ran: the counters it keeps
 * of a stage before the shard (rft-gate, rft-dcpatch of the whole stream)
 * are every shard's, taken once, not added. */
int rft_escan_merge_shard(rft_counters *sum, const rft_counters *add, const char *stages,
                          char *why, size_t whylen);

#ifdef __cplusplus
}
#endif
#endif
