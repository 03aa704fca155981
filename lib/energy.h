/* energy.h - energy and first-order performance cost of the register-file
 * schemes, from the events the stages counted (rft-energy(1)).
 *
 * Two models, each with its own technology parameter file (params.h):
 *
 *  undervolt (seed 001, 28 nm): Conv (nominal Vdd, every access B blocks),
 *    Smooth (slice at 600 mV) and DC-Patch at a fault scenario's Vdd, from
 *    the counters of rft-dcpatch; energy split as Fig. 8: static, read,
 *    write, Com/Dec, Patching, LDS.
 *  gating (seed 002, 32 nm): the baseline (every cell always on), WC, ARGO,
 *    RC+RAR and any other placement/gating, from the counters of rft-gate
 *    and the powered cells over time (rft_power below); split as Fig. 21:
 *    slice leakage, logic leakage, slice dynamic, logic dynamic, wake-ups.
 *
 * Units: energies in pJ, powers in mW, cycles at clock_mhz: a power P mW
 * over c cycles is P * c * 1000 / clock_mhz pJ.
 *
 * Pure computation: no I/O, nothing printed.
 */
#ifndef RFT_ENERGY_H
#define RFT_ENERGY_H

#include <stddef.h>
#include <stdint.h>

#include "params.h"
#include "rft.h"

enum rft_emodel { RFT_EM_UNDERVOLT = 1, RFT_EM_GATING = 2 };

/* ---- parameters ------------------------------------------------------------ */
#define RFT_EPOINTS 16
#define RFT_ENOTE_KEYS 8        /* note.* keys of a file (more are refused) */
/* a note per derived point, the LDS note and the note.* keys: never more */
#define RFT_ENOTES (RFT_EPOINTS + 1 + RFT_ENOTE_KEYS)
#define RFT_ENOTE_LEN 2048      /* holds any note (energy.c checks it) */

/* An operating point of the slice (a column of seed 001 Table 2). */
typedef struct rft_epoint {
    char name[32];
    double vdd_mv, read_pj, write_pj, static_mw;
    int from;           /* point it was derived from (Vdd^2, Vdd rules), -1 if given */
    unsigned derived;   /* bit 0, 1, 2: read_pj, write_pj, static_mw derived from it */
} rft_epoint;

typedef struct rft_eparams {
    int model;                      /* enum rft_emodel */
    double clock_mhz;
    uint32_t lanes, entries, block_lanes;
    /* performance (both models) */
    double mov_cycles;              /* an injected MOV */
    double wakeup_cycles;           /* gating: waking a switched-off entry */
    double lds_load_cycles;         /* undervolt: an extra LDS load of a spilled register */
    double added_static;            /* share of the added cycles that leak (1: all) */
    /* undervolt: slice points and the DC-Patch components (nominal Vdd) */
    rft_epoint pt[RFT_EPOINTS];
    int npt, conv, smooth;          /* indexes of the Conv and Smooth points */
    double com_pj, com_mw, com_units;       /* per block; per unit */
    double dec_pj, dec_mw, dec_units;
    double ptab_read_pj, ptab_write_pj, ptab_mw;
    double psu_pj, psu_mw;                  /* per encoder search */
    double lds_load_pj, lds_store_pj;       /* per register */
    /* gating: the slice (per block), table, units, wake-up */
    double slice_read_pj, slice_write_pj, slice_leak_mw, off_leak;
    double ct_read_pj, ct_write_pj, ct_leak_mw;
    double rc_comp_pj, rc_comp_mw, rc_decomp_pj, rc_decomp_mw;
    double wc_comp_pj, wc_comp_mw, wc_decomp_pj, wc_decomp_mw;
    double comp_units, decomp_units;        /* per slice */
    double wakeup_pj;
    uint32_t bank_entries;          /* power-gating granularity of free entries */
    /* gating, optional: the register allocators per compute unit (seed 004
     * 5.4), priced apart from the energy (alloc_given: both keys given) */
    double alloc_base_mw, alloc_argo_mw;
    int alloc_given;
    /* what was derived or assumed, one line each, for the reader */
    char note[RFT_ENOTES][RFT_ENOTE_LEN];
    int nnotes;
} rft_eparams;

/* Read the numbers of ps (rft-energy(1) lists the keys); derive what the
 * rules allow and note it.  Every key of ps must be known: a misspelt key
 * is an error.  0, or RFT_EFORMAT with one line naming the file, line and
 * key in why. */
int rft_eparams_load(rft_eparams *e, rft_params *ps, char *why, size_t whylen);
/* The parameter set a stream of register file g is priced with when none
 * is named: model RFT_EM_UNDERVOLT or RFT_EM_GATING.  GCN's 64-lane slices
 * (and any geometry no set prices) take the seeds' sets, seed001-28nm and
 * seed002-32nm; NVIDIA's 32-lane sub-partitions (volta ... blackwell: 512
 * entries of 8-lane blocks) nvidia-undervolt-28nm and nvidia-gating-32nm,
 * the seeds' figures rescaled to a 32-byte block (params/nvidia-*.conf). */
const char *rft_eparams_default_set(const rft_geom *g, int model);
/* "read_pj", "write_pj", "static_mw": the fields of a point (slice.NAME.FIELD). */
extern const char *const rft_epoint_field[3];
/* Index of the point called name, -1 if none. */
int rft_eparams_point(const rft_eparams *e, const char *name);
/* Blocks (subwavefronts) per register. */
static inline uint32_t rft_eparams_blocks(const rft_eparams *e) { return e->lanes / e->block_lanes; }

/* ---- results -----------------------------------------------------------------
 * Categories: undervolt as seed 001 Fig. 8, gating as seed 002 Fig. 21. */
enum { RFT_EU_STATIC, RFT_EU_READ, RFT_EU_WRITE, RFT_EU_COMDEC, RFT_EU_PATCH, RFT_EU_LDS,
       RFT_EU_NCAT };
enum { RFT_EG_LEAK_SLICE, RFT_EG_LEAK_LOGIC, RFT_EG_DYN_SLICE, RFT_EG_DYN_LOGIC, RFT_EG_WAKEUP,
       RFT_EG_NCAT };
#define RFT_ECATS 6

typedef struct rft_eresult {
    double cat[RFT_ECATS];  /* pJ per category of the model */
    double total;           /* pJ */
    double cycles;          /* slice-cycles of the trace (span x slices) */
    double added;           /* slice-cycles the scheme adds (upper bound: the replay's when
                               the input is bounded, never below replayed; else the
                               first-order count) */
    double vdd_mv;          /* undervolt: Vdd of the slice */
    double powered;         /* gating: mean powered share of the slice cells, 0..1 */
    double slowdown_leak;   /* gating: pJ the slice and its logic leak over the added
                               cycles (perf.added_static of them); in cat and total
                               only when priced with the slowdown */
    int replay;             /* 1: replayed (rft-replay(1)): the leakage is priced over
                               cycles + replayed */
    double replayed;        /* slice-cycles the scheme adds, replayed */
} rft_eresult;

/* How the leakage is priced: over the replayed cycles where the stream
 * was replayed (RFT_LEAK_REPLAYED, the default; else as RFT_LEAK_TRACE),
 * over the trace's cycles only, or over the upper bound's. */
enum { RFT_LEAK_REPLAYED = 0, RFT_LEAK_TRACE = 1, RFT_LEAK_UPPER = 2 };

/* ---- undervolt (seed 001) ------------------------------------------------------- */
/* What rft-dcpatch counted over a trace (its counters, scope total). */
typedef struct rft_dcp_in {
    uint64_t reads, writes, slice_cycles;
    uint64_t block_reads, block_writes; /* DC-Patch slice blocks, MOVs and mispredictions in */
    uint64_t com_blocks, dec_blocks, pt_reads, pt_writes, psu_searches;
    uint64_t lds_loads, lds_stores, stall_cycles, movs;
    int replay;                 /* 1: replayed, replayed slice-cycles added */
    double replayed;
    int bounded;                /* 1: bound holds the replay's upper bound (rft-replay(1):
                                   every cycle the scheme adds, extra pipeline stages
                                   included, delays its slice in full), taken for added;
                                   0: added is the first-order count of the counters */
    double bound;
    int leak;                   /* RFT_LEAK_* */
} rft_dcp_in;
/* Fill in from a counters record; RFT_EFORMAT with *missing = the first
 * counter name absent. */
int rft_dcp_in_from(const rft_counters *c, rft_dcp_in *in, const char **missing);
/* A conventional slice at point pt (Conv, Smooth): every read and write
 * accesses every block; static power over the trace's cycles. */
void rft_energy_conv(const rft_eparams *e, const rft_dcp_in *in, int pt, rft_eresult *r);
/* DC-Patch with the slice at point pt and its components at nominal Vdd;
 * static power over the cycles plus those the scheme adds: replayed
 * (in->leak RFT_LEAK_REPLAYED and in->replay), else perf.added_static of
 * the upper bound (RFT_LEAK_TRACE: none). */
void rft_energy_dcpatch(const rft_eparams *e, const rft_dcp_in *in, int pt, rft_eresult *r);

/* ---- gating (seed 002) ------------------------------------------------------------ */
#include "gate.h"  /* RFT_GATE_RC, RFT_GATE_WC */
typedef struct rft_gate_in {
    int gate;                   /* RFT_GATE_*: which units and table exist */
    uint64_t reads, writes, slice_cycles;
    double powered_cell_cycles; /* sum over slices of powered cells x cycles */
    uint64_t alloc_wakeups;     /* entries switched on by window placements */
    /* rft-gate counters (gate != RFT_GATE_NONE) */
    uint64_t block_reads, block_writes, ct_reads, ct_writes, ct_inval;
    uint64_t comp_blocks, decomp_blocks, wakeups, movs;
    int replay;                 /* 1: replayed, replayed slice-cycles added */
    double replayed;
    int bounded;                /* 1: bound holds the replay's upper bound (rft-replay(1):
                                   every cycle the scheme adds, extra pipeline stages
                                   included, delays its slice in full), taken for added;
                                   0: added is the first-order count of the counters */
    double bound;
    int leak;                   /* RFT_LEAK_* (with slowdown: RFT_LEAK_UPPER) */
} rft_gate_in;
/* Fill in the rft-gate counters; RFT_EFORMAT with *missing as above. */
int rft_gate_in_from(const rft_counters *c, rft_gate_in *in, const char **missing);
/* The baseline of seed 002 6.6: every cell on for the whole trace, every
 * access every block, no extra logic. */
void rft_energy_baseline(const rft_eparams *e, const rft_gate_in *in, rft_eresult *r);
/* A scheme: slice leakage in proportion to its powered cells; its units,
 * table and wake-ups.  The leakage over the cycles it adds (an upper
 * bound: other wavefronts hide most of them) is r->slowdown_leak; with
 * slowdown set it is counted in the categories too (leakage over the
 * trace's cycles and perf.added_static of the added ones, at the same
 * mean share), else they price the trace's cycles only; a replayed input
 * with in->leak RFT_LEAK_REPLAYED prices the replayed cycles instead. */
void rft_energy_gating(const rft_eparams *e, const rft_gate_in *in, int slowdown, rft_eresult *r);
/* The mean power (mW) per compute unit of pj spent over slice_cycles, with
 * slices_per_cu slices to a compute unit; 0 without cycles. */
double rft_energy_mw_per_cu(const rft_eparams *e, double pj, double slice_cycles,
                            double slices_per_cu);

/* ---- powered cells of a slice over time ---------------------------------------------
 * Follows the power of every entry of one slice from t0 through window
 * records (rft-alloc(1)) and the on_bits annotations of rft-gate(1), with
 * the rules of rft-gate and rft-duty:
 *  - an entry is on with every cell until a write's on_bits says how many
 *    of its bits stay powered (rft-gate: every entry starts powered);
 *  - an entry no window takes during the whole stream is off all along
 *    (seed 002: registers a kernel does not use are switched off);
 *  - under gated placement (ARGO, RFT_AF_GATED on the slice's first window
 *    record) an entry in no window is off, from t0 on; placing a window
 *    wakes its entries (every cell on, counted in wakeups);
 *  - power is switched per bank of `bank` entries (seed 004 Table 3): a
 *    bank is off only when all its entries may be.
 * Cycles must not decrease; an earlier cycle counts as the last one. */
typedef struct rft_power {
    uint32_t entries, full, bank;
    uint32_t *off;      /* per entry: bits not powered while its bank is on
                           (full minus those powered; 0 at first: all on) */
    uint8_t *st;        /* per entry: RFT_PW_* (0 at first) */
    int gated;          /* free entries are power-gated (ARGO) */
    uint64_t t0;        /* start of the span */
    uint64_t on;        /* bits powered now */
    uint64_t t;         /* cycle of the last change */
    uint64_t acc;       /* powered bit-cycles from t0 up to t */
    uint64_t wakeups;   /* entries switched on by window placements */
} rft_power;
#define RFT_PW_WINDOW 0x01
#define RFT_PW_TAKEN 0x02
#define RFT_PW_BANKOFF 0x04  /* its bank is switched off */

/* entries 1..RFT_MAX_ENTRIES, full = bits per entry, bank >= 1; 0 or RFT_EMEM. */
int rft_power_init(rft_power *p, uint32_t entries, uint32_t full, uint32_t bank, uint64_t t0);
void rft_power_free(rft_power *p);
/* A window of n entries at base (wrapping) placed (alloc = 1) or freed;
 * gated: its RFT_AF_GATED flag. */
void rft_power_window(rft_power *p, uint64_t t, uint32_t base, uint32_t n, int alloc, int gated);
/* A read of an entry, and a write with its on_bits (RFT_NO_GATE: the
 * power is unchanged): the entry is in use. */
void rft_power_use(rft_power *p, uint64_t t, uint32_t entry);
void rft_power_write(rft_power *p, uint64_t t, uint32_t entry, uint32_t on_bits);
/* Powered bit-cycles from t0 up to t_end. */
uint64_t rft_power_total(const rft_power *p, uint64_t t_end);
/* The slice counted from t0 (earlier than rft_power_init's) instead, as if
 * made then: its entries on until then under an ungated placement (a
 * gated one has them off until its first window).  For a shard of a
 * stream, whose slices start at the whole stream's first cycle. */
void rft_power_rebase(rft_power *p, uint64_t t0);

#endif
