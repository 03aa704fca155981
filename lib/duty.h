/* duty.h - duty maps: for every cell (slice, entry, bit) of a register file
 * the cycles spent holding '0', holding '1' and switched off (seed 002 §2.2,
 * §6).  The RFT_DUTY record, the accounting engine behind rft-duty(1), and
 * the statistics shared by rft-duty --summary and rft-vth(1).
 *
 * Computation only: no I/O, no printing; errors are negative RFT_E* codes
 * with a message from rft_duty_error(). */
#ifndef RFT_DUTY_H
#define RFT_DUTY_H

#include <stdint.h>

#include "faultmap.h"
#include "rft.h"

/* ---- the RFT_DUTY record (layout in rft(5), man/rft5-duty.inc) ------------ */
#define RFT_DUTY_VERSION 1
#define RFT_DUTY_FIXED 40u          /* bytes before the bit planes of t1 */

enum rft_span {                     /* which cycles a cell's time covers */
    RFT_SPAN_STREAM = 1,            /* first to last cycle of the stream (or --window) */
    RFT_SPAN_SLICE = 2,             /* the slice's first to its last event */
    RFT_SPAN_BUSY = 3,              /* only cycles where the slice holds a wavefront */
};

/* rft_duty_rec.flags */
#define RFT_DUTY_UNUSED 0x01        /* entry never allocated in the window */
#define RFT_DUTY_WINDOW 0x02        /* the stream window was given (--window) */
#define RFT_DUTY_UNUSED_ON 0x04     /* policy: never-allocated entries count as on */
#define RFT_DUTY_SEMANTICS RFT_DUTY_UNUSED_ON   /* flags that must agree to add maps */

typedef struct rft_duty_rec {       /* one entry of one slice */
    uint8_t span;                   /* enum rft_span */
    uint8_t flags;                  /* RFT_DUTY_* */
    uint16_t cu, simd, entry;
    uint16_t entries, lanes;        /* geometry: entries per slice, lanes per entry */
    uint64_t first, last;           /* the window, in cycles */
    uint64_t cycles;                /* time counted for every cell: t0 + t1 + toff */
    uint32_t bits;                  /* 32 * lanes; bit b = lane b/32, bit b%32 */
    uint64_t *t1, *toff;            /* bits values each; t0 = cycles - t1 - toff */
} rft_duty_rec;

/* Largest payload of a record with `bits` cells. */
uint32_t rft_duty_max_len(uint32_t bits);
/* Encode d into buf (rft_duty_max_len(d->bits) bytes); returns the length.
 * The encoding is canonical: equal records give equal bytes. */
uint32_t rft_duty_encode(const rft_duty_rec *d, uint8_t *buf);
/* Parse a payload into d, whose t1/toff must hold RFT_MAX_LANES * 32 values.
 * 0, or RFT_EFORMAT with a reason in *why. */
int rft_duty_parse(const uint8_t *p, uint32_t len, rft_duty_rec *d, const char **why);
/* Add b into a (same slice, entry, geometry, semantics); 0 or RFT_EFORMAT. */
int rft_duty_add(rft_duty_rec *a, const rft_duty_rec *b, const char **why);
const char *rft_span_name(int span);   /* "stream", "slice", "busy" */
int rft_span_parse(const char *s);     /* enum rft_span, or 0 */

/* ---- the accounting engine ------------------------------------------------------ */
typedef struct rft_duty_opts {
    int span;                       /* enum rft_span */
    int unused_on;                  /* never-allocated entries: on holding zeros */
    int window_set;                 /* stream span from..to instead of the stream's */
    uint64_t from, to;
    /* The steady state: the map of the trace run again and again without
     * end, over one period of K runs (below), from one pass.  The windows
     * must come from rft-alloc with the allocator given here. */
    int steady;
    int alloc_scheme;               /* steady: RFT_ALLOC_FIRSTFIT, _RAR or _ARGO (alloc.h) */
    int alloc_ring;                 /* steady, ARGO: windows wrap around the slice */
    uint64_t max_mem;               /* bytes the slices' state may take, 0: no limit
                                       (the stage: its rft_stage mem_max) */
} rft_duty_opts;

/* The steady state (opts.steady).  Run k of a trace repeated back to back
 * (rft-repeat(1)) places every window as run 0 did, moved by a
 * permutation tau^k of each slice's entries: first-fit the identity; RAR
 * the rotation of each window position [b, b+n) by the R_b reassignments
 * it sees per run (q -> (q + R_b) mod n, so the offsets cycle through the
 * multiples of gcd(R_b, n)); ARGO (ring) the rotation of the slice by the
 * head's advance h per run.  So the entry tau^k(e) of run k lives entry
 * e's run 0, except that before e's first write (or gating) it holds what
 * the previous run left in it: the last state of tau(e) (or, if tau(e) was
 * not written either, of tau^2(e), and so on).  The map is that of K
 * runs, K the least common multiple of the lengths of the slice's orbits
 * (its period; each slice its own), in the periodic regime, a run lasting
 * from the stream's first cycle to the cycle after its last, as rft-repeat
 * puts copies (a slice idle in between holds its state): an entry's time
 * is K / |orbit| times the sum of its orbit's runs, exact integers, cycles
 * = K x the run's cycles.  For K a multiple of every slice's period it
 * equals, cell by cell and scaled by K / the slice's period, rft-repeat
 * -n 2K | rft-alloc | ... | rft-duty --span stream --window over runs K to
 * 2K - 1.  Refused (rft_duty_finish): RAR windows of two sizes at one base
 * or overlapping positions, ARGO without the ring or with banks the head's
 * advance does not keep, windows open at the end, DC-Patch placements, a
 * --window. */

typedef struct rft_duty rft_duty;
/* After finish: the least common multiple of the slices' periods (0 if
 * above 2^30); 1 unless steady. */
uint64_t rft_duty_period(const rft_duty *d);
rft_duty *rft_duty_new(const rft_geom *g, const rft_duty_opts *o);
/* Feed the records of a stream in order.  Trace kinds and RFT_ALLOC change
 * the map; anything else is ignored (return 1).  0 when used, <0 on bad data. */
int rft_duty_feed(rft_duty *d, const rft_rec *r);
/* End of the stream: close every window.  Then the records, sorted by slice
 * (cu, simd) and entry: rft_duty_count() of them, the i-th encoded into buf
 * (rft_duty_max_len(bits) bytes) by rft_duty_emit, which returns its length
 * (the same bytes rft_duty_encode gives for the same values). */
int rft_duty_finish(rft_duty *d);
/* Before rft_duty_finish, for a shard of a stream (rft_reader_shard): the
 * whole stream's first and last cycles, which a run's length (--runs
 * steady) and the span stream's end are taken from instead of the
 * shard's own, so that the shards' maps add up to the whole's. */
void rft_duty_span(rft_duty *d, uint64_t first, uint64_t last);
size_t rft_duty_count(const rft_duty *d);
uint32_t rft_duty_emit(const rft_duty *d, size_t i, uint8_t *buf);
const char *rft_duty_error(const rft_duty *d);
void rft_duty_free(rft_duty *d);

/* ---- the stage behind rft-duty(1) (rft.h, "stages") ------------------------------
 * Feeds the engine; at the end emits the map, then the counters records it
 * read, added up and sorted (rft_counter_set).  With summary, it keeps the
 * statistics of each slice and of all ("all", last) for the report. */
typedef struct rft_duty_row rft_duty_row;
rft_stage *rft_duty_stage_new(const rft_duty_opts *o, int summary);
const rft_duty_row *rft_duty_stage_rows(const rft_stage *s, size_t *n);

/* ---- statistics over records (rft-duty --summary, rft-vth) ------------------------ */
typedef struct rft_duty_cell {      /* one cell and its breakdown */
    uint16_t cu, simd, entry;
    uint32_t bit;
    uint64_t t0, t1, toff, cycles;
} rft_duty_cell;

typedef struct rft_duty_stats {
    uint32_t bits;                  /* 0 until the first record */
    int span;
    int include_unused;             /* averages over never-allocated entries too */
    uint64_t records, used;         /* entries seen, of which allocated */
    uint64_t slices;                /* distinct slices seen (records arrive by slice) */
    uint16_t last_cu, last_simd;
    uint64_t first, last;           /* union of the windows */
    uint64_t cyc_min, cyc_max;      /* shortest and longest window */
    double avg_n;                   /* entries averaged */
    double avg_cells;               /* cells averaged */
    double s0, s1, soff;            /* sums of per-cell duty fractions (averaged entries) */
    double sstress;                 /* sum of each cell's larger of its '0' and '1' duty */
    rft_duty_cell max0, max1;       /* longest '0' and '1' duty among all cells */
    int have_max;
    /* optional (set the pointers to bits / entries sized arrays of zeros) */
    double *bit0, *bit1, *bitoff;   /* per bit position: sums of fractions */
    uint32_t nreg;                  /* entries per slice, for reg0/reg1 */
    rft_duty_cell *reg0, *reg1;     /* per entry index: longest '0' / '1' cell */
    uint8_t *reg_used;              /* per entry index: allocated in some slice */
} rft_duty_stats;

struct rft_duty_row {               /* a slice's statistics, or all slices' */
    char name[32];
    rft_duty_stats st;
};

/* Account one record; RFT_EFORMAT if its geometry differs from earlier ones. */
int rft_duty_stats_add(rft_duty_stats *s, const rft_duty_rec *d);
/* The same for some blocks of the entry only: the record's cells in nblocks
 * equal blocks, those k with sel[k] != 0 counted (sel NULL: all); the
 * entry counts once.  RFT_EFORMAT also if nblocks does not divide the
 * cells or sel selects none. */
int rft_duty_stats_add_blocks(rft_duty_stats *s, const rft_duty_rec *d, uint32_t nblocks,
                              const uint8_t *sel);
static inline double rft_duty_frac(uint64_t t, uint64_t cycles)
{
    return cycles ? (double)t / (double)cycles : 0.0;
}

/* ---- a sorted set of counters records (rft-duty, rft-merge) --------------------- */
typedef struct rft_counter_set {
    rft_counters **c;
    size_t n, cap;
} rft_counter_set;
/* Add c into the set: values of equal (stage, scope, name) are summed. */
int rft_counter_set_add(rft_counter_set *s, const rft_counters *c);
/* Sort by (stage, scope); then s->c[0..n-1] in order. */
void rft_counter_set_sort(rft_counter_set *s);
void rft_counter_set_free(rft_counter_set *s);

/* ---- duty maps side by side (rft-vth(1)) --------------------------------------------
 * The statistics of several duty maps of one geometry, read one after the
 * other (map i through the stage rft_duty_cmp_stage(c, i)), per slice and
 * for all slices; with by_fault also per class of cells of the fault maps
 * each stream carries (seed 001 II-B), which must be the same in every map
 * so that the maps compare the same cells.  The maps' averages are over the
 * same cells too: without include_unused, over the entries some map uses
 * (rft_duty_cmp_finish). */
enum { RFT_FC_RELIABLE, RFT_FC_USABLE, RFT_FC_DEAD, RFT_FC_N };  /* reliable entries, the
                                                  usable and the dead blocks of faulty ones */
typedef struct rft_duty_cmp_opts {
    int per_bit, per_reg;           /* keep rft_duty_stats' per-bit and per-entry arrays */
    int include_unused;             /* average never-allocated entries too */
    int by_fault;                   /* statistics per class of cells (cls) */
    int slice_set;                  /* only the records of slice cu:simd */
    uint16_t cu, simd;
    /* if set, each duty record (of the slice) goes to each instead of the
     * statistics; map is the index of its map */
    void (*each)(void *ctx, size_t map, const rft_duty_rec *d);
    void *each_ctx;
} rft_duty_cmp_opts;

typedef struct rft_duty_slice_stats {
    uint16_t cu, simd;
    rft_duty_stats st;
} rft_duty_slice_stats;

typedef struct rft_duty_map_stats {
    const char *name;               /* its input, for messages */
    rft_duty_slice_stats *sl;       /* per slice, in order of appearance */
    size_t nsl, csl;
    rft_duty_stats all;             /* records 0 if none */
    rft_fmset fm;                   /* by_fault: its fault maps */
    rft_duty_stats cls[RFT_FC_N];   /* by_fault: its cells by class */
    uint64_t nduty;                 /* duty records read (of any slice) */
    uint64_t trace;                 /* number of its first trace record, 0 if none */
} rft_duty_map_stats;

typedef struct rft_duty_cmp rft_duty_cmp;
rft_duty_cmp *rft_duty_cmp_new(const rft_duty_cmp_opts *o, size_t nmaps);   /* NULL: no memory */
/* The stage that reads map i (every record passed on unchanged).  Errors:
 * a bad record, a geometry or a fault map other than the first map's. */
rft_stage *rft_duty_cmp_stage(rft_duty_cmp *c, size_t i);
const rft_duty_map_stats *rft_duty_cmp_map(const rft_duty_cmp *c, size_t i);
/* After the last map: an entry unused in a map but used in another joins
 * that map's averages (per slice and for all; by_fault: include_unused). */
void rft_duty_cmp_finish(rft_duty_cmp *c);
/* The geometry of the first duty record: cells per entry (0 before any), entries. */
uint32_t rft_duty_cmp_bits(const rft_duty_cmp *c);
uint32_t rft_duty_cmp_entries(const rft_duty_cmp *c);
void rft_duty_cmp_free(rft_duty_cmp *c);

#endif
