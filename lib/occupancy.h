/* occupancy.h - how much of each slice the register windows take, and how
 * long power-gating banks stay off: register-file utilization (seed 004
 * Table 1, seed 002 Table 5) and worst-case recovery per bank size (seed 004
 * section 6.2.5, Table 3), per kernel, from the windows an allocator places.
 *
 * Time is attributed by kernel and slice: a kernel's span on a slice runs
 * from its first to its last record there (a record of another kernel on
 * the slice closes the span, a later one of the kernel opens another, and
 * the spans add up).  Every figure is over those spans:
 *
 *   utilization, peak   most entries the kernel's windows held at once on a
 *                       slice, over the slice's entries
 *   utilization, mean   entry-cycles in the kernel's windows over entries x
 *                       the kernel's slice-cycles
 *   recovery of a bank  cycles it was gated within the spans over the spans'
 *                       cycles; a bank is gated while the slice gates free
 *                       entries (ARGO) and none of its entries is in a window
 *   worst recovery      the least of the banks some window of the kernel
 *                       touched ("used"), over every slice
 *   leakage saving      gated bank-entry-cycles over entries x slice-cycles,
 *                       every bank counted (seed 004 6.2.6: leakage in
 *                       proportion to the powered size)
 *
 * A row "all" takes every record and window of every kernel.  Computation
 * only: no I/O; errors are negative RFT_E* codes (RFT_EMEM). */
#ifndef RFT_OCCUPANCY_H
#define RFT_OCCUPANCY_H

#include <stddef.h>
#include <stdint.h>

#define RFT_OCC_MAX_BANKS 16    /* bank sizes studied at once */

typedef struct rft_occ rft_occ;

/* entries per slice (1..RFT_MAX_ENTRIES); nbank sizes (1..RFT_OCC_MAX_BANKS)
 * of at least one entry each.  NULL when out of memory or given nonsense. */
rft_occ *rft_occ_new(uint32_t entries, const uint32_t *banks, int nbank);
void rft_occ_free(rft_occ *o);

/* Kernel record: stream kernel index -> the row of its name (launches of
 * one kernel share a row).  0 or RFT_EMEM. */
int rft_occ_kernel(rft_occ *o, uint32_t index, const char *name, size_t len);
/* A record of a wavefront of kernel index (RFT_NO_KERNEL: none) on slice
 * (cu, simd) at cycle: the kernel runs there.  Cycles of a slice must not
 * decrease.  0 or RFT_EMEM. */
int rft_occ_record(rft_occ *o, uint16_t cu, uint16_t simd, uint32_t kernel, uint64_t cycle);
/* A window of n entries at base (wrapping) placed (alloc 1) or freed, by a
 * wavefront of kernel, right after rft_occ_record of its record; gated: the
 * slice power-gates entries in no window (RFT_AF_GATED).  0 or RFT_EMEM. */
int rft_occ_window(rft_occ *o, uint16_t cu, uint16_t simd, uint32_t kernel, uint64_t cycle,
                   uint32_t base, uint32_t n, int alloc, int gated);
/* Bytes the slices and the spans of kernels on them hold so far (each
 * takes a few bytes per bank: a caller keeps them within its limit). */
uint64_t rft_occ_bytes(const rft_occ *o);
/* End of the stream: close every span.  Then the rows. */
void rft_occ_finish(rft_occ *o);

typedef struct rft_occ_bank {       /* one bank size of a row */
    uint32_t entries;               /* bank size */
    uint64_t used;                  /* (slice, bank) pairs a window touched */
    double worst;                   /* least recovery of a used bank, 0..1 (1 if none used) */
    uint16_t worst_cu, worst_simd;  /* ... where */
    uint32_t worst_bank;            /* ... bank index (entries bank*size ..) */
    double mean;                    /* mean recovery of the used banks */
    double leak;                    /* leakage saving, 0..1 */
} rft_occ_bank;

typedef struct rft_occ_row {
    const char *kernel;             /* "all" for the last row */
    uint32_t vgprs_min, vgprs_max;  /* window sizes (0, 0: no window) */
    uint32_t slices;                /* slices it ran on */
    uint32_t max_wf;                /* most windows of the kernel on a slice at once */
    uint32_t peak;                  /* most entries in them at once */
    uint64_t cycles;                /* slice-cycles: its spans added over slices */
    double mean;                    /* mean utilization, 0..1 */
    int nbank;
    rft_occ_bank bank[RFT_OCC_MAX_BANKS];
} rft_occ_row;

/* The cycles of the first and last record of any slice: 1, or 0 (none). */
int rft_occ_span(const rft_occ *o, uint64_t *first, uint64_t *last);

/* Rows: the kernels in order of appearance, then "all"; i < rft_occ_rows(). */
size_t rft_occ_rows(const rft_occ *o);
void rft_occ_get(const rft_occ *o, size_t i, rft_occ_row *r);

/* The integers behind a row's shares (tables of counts), exact while they
 * fit in 64 bits; with entries and the row's cycles they give the shares
 * back. */
typedef struct rft_occ_bank_counts {
    uint64_t worst_gated;           /* cycles the worst bank was gated, */
    uint64_t worst_cycles;          /* ... of the row's spans on its slice: worst */
    uint64_t gated;                 /* gated bank-entry-cycles: leak x entries x cycles */
} rft_occ_bank_counts;

typedef struct rft_occ_counts {
    uint64_t entry_cycles;          /* in the row's windows: mean x entries x cycles */
    int nbank;
    rft_occ_bank_counts bank[RFT_OCC_MAX_BANKS];
} rft_occ_counts;

void rft_occ_get_counts(const rft_occ *o, size_t i, rft_occ_counts *c);

#endif
