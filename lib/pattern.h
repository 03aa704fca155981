/* pattern.h - register value patterns: RC/DC-Patch (base + two deltas) and
 * WC (BDI).  Pure computation: no I/O, no allocation, no global state.
 *
 * RC/DC-Patch (seed 002 sections 3-4, seed 001 section II-C): lane i of a
 * register is C_i = c0 + (i / bs) * db + (i % bs) * de, in 32-bit
 * wrap-around arithmetic, with de = C_1 - C_0 and db = C_bs - C_0.
 */
#ifndef RFT_PATTERN_H
#define RFT_PATTERN_H

#include <stdint.h>

#define RFT_PATTERN_MAX_BS 64u       /* largest block size accepted */
#define RFT_PATTERN_HW_MAX_DELTA 64u /* largest delta a 3-bit logarithm encodes */
#define RFT_PATTERN_LOG2_ZERO 7      /* 3-bit code "111": the delta is zero */

typedef struct rft_pattern_opts {
    unsigned bs;        /* block size, 1..RFT_PATTERN_MAX_BS (hardware: 8) */
    int any;            /* 0: deltas 0 or a power of two <= max_delta; 1: any 32-bit delta */
    uint32_t max_delta; /* power of two; used when !any (hardware: 64) */
} rft_pattern_opts;

typedef struct rft_pattern {
    int cls;            /* enum rft_class: CONST, SINGLE, DOUBLE or OTHER */
    uint32_t c0, de, db; /* for OTHER: the candidate deltas that failed */
    int firstblock;     /* lanes 0..block_lanes-1 alone fit (speculation) */
} rft_pattern;

/* The hardware rule: bs 8, deltas 0 or a power of two <= 64. */
void rft_pattern_opts_default(rft_pattern_opts *o);

/* Classify the lane values v[0..lanes-1] (lanes >= 1); block_lanes is the
 * speculation block (16 on GCN).  A delta no lane uses (de when bs is 1,
 * db when lanes <= bs) is not checked and is reported as the value that
 * makes the class read single-delta or constant (de = db, db = bs * de).
 * Pass block_lanes = lanes when the speculation result is not needed. */
void rft_pattern_classify(const uint32_t *v, unsigned lanes, unsigned block_lanes,
                          const rft_pattern_opts *o, rft_pattern *p);

/* Unwind a pattern: out[i] = c0 + (i / bs) * db + (i % bs) * de. */
void rft_pattern_decompress(uint32_t c0, uint32_t de, uint32_t db, unsigned bs,
                            unsigned lanes, uint32_t *out);

/* 3-bit hardware code of a delta: log2 for 1..64, 7 ("111") for zero,
 * -1 if the delta has no code.  rft_pattern_delta is the inverse. */
int rft_pattern_log2(uint32_t delta);
uint32_t rft_pattern_delta(int code);

/* WC / BDI with base v[0] and deltas v[i] - v[0] as signed integers:
 * returns enum rft_wc and, if on_bits, the bits left powered:
 * 32, 32 + 8 (lanes-1), 32 + 16 (lanes-1) or 32 lanes. */
int rft_wc_classify(const uint32_t *v, unsigned lanes, uint32_t *on_bits);

#endif
