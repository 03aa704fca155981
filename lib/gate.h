/* gate.h - power-gating register-file entries by their contents (seed 002):
 * RC, Register Compression (5.1: a compressible write switches its entry
 * off, the compression table keeps the pattern; 5.1.3: the compression unit
 * stops at the first block that does not fit) and WC, Warped-Compression
 * (5.3: BDI, the cells beyond the stored bytes off).  The stage behind
 * rft-gate(1): it annotates each write with the bits left powered
 * (rft_write.on_bits) and counts the events an energy model prices, per
 * slice and in total, emitted as counters records at the end.
 *
 * A stage (rft.h, "stages"): no I/O, no globals. */
#ifndef RFT_GATE_H
#define RFT_GATE_H

#include "pattern.h"
#include "rft.h"

#ifdef __cplusplus
extern "C" {
#endif

enum { RFT_GATE_NONE = 0, RFT_GATE_RC = 1, RFT_GATE_WC = 2 };

typedef struct rft_gate_opts {
    int scheme;             /* RFT_GATE_RC or RFT_GATE_WC */
    rft_pattern_opts po;    /* RC's pattern rule for writes rft-classify did not annotate */
    int po_set;             /* po was given: warn when annotations override it */
} rft_gate_opts;
void rft_gate_opts_default(rft_gate_opts *o);   /* RC with the hardware rule */

/* Counters, in the order they are written (documented in rft-gate(1)). */
enum { RFT_GC_WRITES, RFT_GC_READS, RFT_GC_DIV, RFT_GC_COMPR, RFT_GC_OFF, RFT_GC_WAKE,
       RFT_GC_MOV, RFT_GC_BW, RFT_GC_BW_X, RFT_GC_BR, RFT_GC_BR_X, RFT_GC_CT_R, RFT_GC_CT_W,
       RFT_GC_CT_INV, RFT_GC_COMP, RFT_GC_COMP_B, RFT_GC_DECOMP, RFT_GC_DECOMP_B, RFT_GC_N };
extern const char *const rft_gate_counter_names[RFT_GC_N];

/* The stage.  The header gets gate=<scheme and rule>; the input's own
 * rft-gate counters records (an earlier run) are dropped. */
rft_stage *rft_gate_new(const rft_gate_opts *o);

/* After finish: the slices in order (cu, simd), then the total (i ==
 * nslices, cu = simd = 0xFFFF): their counters, RFT_GC_N values. */
uint32_t rft_gate_nslices(const rft_stage *s);
const uint64_t *rft_gate_counts(const rft_stage *s, uint32_t i, uint16_t *cu, uint16_t *simd);

#ifdef __cplusplus
}
#endif
#endif
