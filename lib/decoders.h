/* decoders.h - rft-decode's readers of simulator logs (rft-decode(1)).
 *
 * Each format is one module (dec_m2s.c, dec_evg.c, dec_gem5.c, dec_nvbit.c,
 * dec_colmap.c, dec_cutracer.c) behind this interface: rft_dec_new() with the geometry and
 * the options, then every line of the input in order through rft_dec_line(),
 * then rft_dec_finish() at the end of the input.  Records go out through the
 * emit callback as soon as they are known; the decoders keep only the state
 * of the wavefronts that are running, so memory does not grow with the input.
 *
 * Like the rest of librft the decoders never print and never exit: a line that
 * does not fit the grammar makes rft_dec_line() return RFT_EFORMAT with the
 * reason (naming the offending token) in rft_dec_why(); the decoder's state is
 * then as if the line had not been there, so a caller may skip it and go on.
 */
#ifndef RFT_DECODERS_H
#define RFT_DECODERS_H

#include <stddef.h>
#include <stdint.h>

#include "rft.h"

enum rft_fmt {
    RFT_FMT_NONE = -1,
    RFT_FMT_TEXT = 0,   /* the canonical grammar (lib/text.c, not through this interface) */
    RFT_FMT_CSV,        /* the canonical grammar in CSV (idem) */
    RFT_FMT_M2S,        /* Multi2Sim 4.x/5.x Southern Islands --si-debug-isa */
    RFT_FMT_GEM5,       /* gem5 AMD GPU, --debug-flags=GPUVRF,GPUExec */
    RFT_FMT_NVBIT,      /* NVBit record_reg_vals */
    RFT_FMT_COLUMNS,    /* CSV/TSV with a column map */
    RFT_FMT_EVG,        /* Multi2Sim 4.x Evergreen --evg-debug-isa */
    RFT_FMT_CUTRACER,   /* CUTracer reg_trace NDJSON */
};

/* "text", "csv", "m2s", ...; NULL for an unknown value */
const char *rft_fmt_name(int fmt);
/* the format named s, or RFT_FMT_NONE */
int rft_fmt_parse(const char *s);

/* Guess the format from the start of an input (len bytes, any number of
 * lines; the last may be cut).  Returns the format, RFT_FMT_TEXT when
 * nothing else fits.  *line (if given) gets the line number that decided
 * (0 when nothing decided). */
int rft_fmt_detect(const char *buf, size_t len, uint64_t *line);
/* When the first line of an input that nothing was detected in is a header
 * row of the column-map format that lacks one of its two needed columns
 * (cycle, wf): a message naming the missing one, and its line in *line. */
const char *rft_fmt_header_missing(const char *buf, size_t len, uint64_t *line);

/* An instruction of a Multi2Sim Southern Islands pipeline trace (m2s_trace.c):
 * where and when the detailed model fetched it. */
typedef struct rft_m2s_inst {
    uint64_t cycle;             /* the cycle it was fetched (and run by the emulator) */
    uint16_t cu, simd;          /* compute unit, wavefront pool (the SIMD it issues to) */
    uint32_t wg, wf;            /* work-group and wavefront ids of its ND-Range */
    char mnem[48];              /* its mnemonic, as the ISA log prints it */
    uint64_t done;              /* execute stamping: a vector memory access's write stage
                                   (mem-w, its completion); 0 none */
    uint64_t arrived;           /* execute stamping: an LDS access's decode stage in the
                                   LDS unit (lds-d, its arrival there); 0 none */
    /* execute stamping, a scalar instruction: a scalar memory load (su-m),
     * rel its write stage (su-w); one of the scalar unit's others that
     * waited between its execute and its write stage (4.2's write stage
     * takes only the oldest instruction of the compute unit's, so it waits
     * behind older scalar loads): the first cycle it waited (its first "s"
     * line after su-e) and its write stage (su-w); 0 none */
    int smem;
    uint64_t hold, rel;
} rft_m2s_inst;

typedef struct rft_m2s_trace rft_m2s_trace;
rft_m2s_trace *rft_m2s_trace_new(void);
void rft_m2s_trace_free(rft_m2s_trace *t);
/* One line of the trace without its newline: 1 and *out filled when it is an
 * instruction's fetch (si.new_inst), 0 for any other line, RFT_EFORMAT with
 * the reason in rft_m2s_trace_why() for a cycle or an instruction it cannot
 * read. */
int rft_m2s_trace_line(rft_m2s_trace *t, const char *s, size_t n, rft_m2s_inst *out);
const char *rft_m2s_trace_why(const rft_m2s_trace *t);
uint64_t rft_m2s_trace_insts(const rft_m2s_trace *t);   /* instructions read so far */
/* Execute stamping (rft-decode --cycles-at execute): each instruction gets the
 * cycle of its unit's execute stage (simd-e, mem-m, lds-w, su-e, su-m, bu-e),
 * or its fetch cycle where the trace prints none before its si.end_inst (or
 * its end), counted in rft_m2s_trace_fetch_kept.  rft_m2s_trace_line then
 * returns 0 for every line and holds fetched instructions, at most bound (0:
 * 65536) at a time (RFT_EFORMAT beyond); rft_m2s_trace_pop gives the oldest
 * one once its execute stage was read (any, at_end set: the trace ended):
 * 1 and *out, or 0. */
void rft_m2s_trace_at_exec(rft_m2s_trace *t, size_t bound);
int rft_m2s_trace_pop(rft_m2s_trace *t, int at_end, rft_m2s_inst *out);
uint64_t rft_m2s_trace_fetch_kept(const rft_m2s_trace *t);
/* s_endpgm is at its completion (si.end_inst); those the trace ends before
 * completing keep their execute stage, counted here */
uint64_t rft_m2s_trace_end_kept(const rft_m2s_trace *t);
/* vector memory accesses with no completion (mem-w) before their end or the
 * trace's: no done mark made for them */
uint64_t rft_m2s_trace_mem_kept(const rft_m2s_trace *t);
/* The trace's clock ("c clk=N") is esim's fastest clock domain, trace_mhz
 * (1000 in 4.2: the x86 model's default), not the GPU's (gpu_mhz: [Device]
 * Frequency, 925 in 4.2): with both given and different, instructions get
 * the GPU's cycle of each trace cycle (esim's truncated picosecond cycle
 * times); call before the first line.  Without: the trace's clock as is. */
void rft_m2s_trace_clock(rft_m2s_trace *t, uint32_t gpu_mhz, uint32_t trace_mhz);
/* the most instructions held at once (fetched, not yet executed) */
uint64_t rft_m2s_trace_max_wait(const rft_m2s_trace *t);

typedef struct rft_dec_opts {
    rft_geom geom;
    uint32_t cus, simds;        /* slice mapping (m2s, evg, nvbit): CUs and SIMDs per CU */
    uint32_t issue_cycles;      /* issue model (m2s, evg, nvbit): cycles per instruction */
    uint32_t nvgprs;            /* window size for every kernel; 0 = from the input */
    uint32_t local[3];          /* m2s work-group shape; local[0] == 0: not given */
    uint64_t ticks_per_cycle;   /* gem5: ticks per GPU cycle */
    const char *kernel;         /* kernel name where the log has none (m2s, gem5, columns) */
    const char *columns;        /* columns: NAME=INDEX,... ; NULL = header row */
    int radix;                  /* columns: 0 auto, 16 hex, 10 decimal */
    /* Filled by a pre-scan (rft_dec_kernel_regs of a first pass): the window
     * size of kernel i is nregs[i]; kernels beyond n take the last value. */
    const uint16_t *nregs;
    uint32_t n_nregs;
    int prescan;                /* this is the pre-scan: no window sizes known yet */
    /* m2s: the pipeline trace of the same detailed run (--cycles-from): fills
     * *out with its next instruction and returns 1, 0 at its end, or an error
     * (<0, then the caller has said why); NULL: no trace, time is estimated */
    int (*m2s_next)(void *ctx, rft_m2s_inst *out);
    void *m2s_ctx;
    const char *m2s_trace;      /* its name, for the header */
    uint32_t m2s_mhz[2];        /* --cycles-mhz GPU,TRACE (0,0: the trace's clock), for the header */
    int m2s_exec;               /* its cycles are execute stages (--cycles-at execute): records
                                   are sorted in a window of `reorder` records (0: 4096) */
    int all_lanes;              /* cutracer: a record without active_mask takes all 32 lanes
                                   as active (--assume-all-lanes-active); 0: refused */
    int ipoint_after;           /* cutracer: values recorded after the instruction
                                   (--cutracer-ipoint after); 0: before, NVBit's default */
    uint64_t reorder;           /* cutracer: records held to stamp a write at its
                                   instruction; 0: 65536 */
    uint32_t clause_temps;      /* evg: GPRs from this one up (to R123) are the compiler's
                                   clause temporaries, not the kernel's registers; 124: none */
} rft_dec_opts;

/* Defaults: GCN geometry, 10 CUs x 4 SIMDs (an HD 7770), 4 cycles an
 * instruction, 1000 ticks a cycle (gem5's 1 ps ticks at 1 GHz). */
void rft_dec_opts_default(rft_dec_opts *o);

/* Receives each record; a non-zero return stops decoding and is returned by
 * the rft_dec_* call that emitted (callers usually exit instead). */
typedef int (*rft_dec_emit)(void *ctx, const rft_rec *r);

typedef struct rft_dec rft_dec;

/* NULL on failure with a message in err (bad options, out of memory). */
/* Room for rft_dec_new's message: it may quote a kernel name (RFT_MAX_STR). */
#define RFT_DEC_ERRLEN (RFT_MAX_STR + 256)
rft_dec *rft_dec_new(int fmt, const rft_dec_opts *o, rft_dec_emit emit, void *ctx, char *err,
                     size_t errlen);
/* One line without its newline (a trailing CR is ignored); the decoder may
 * modify the bytes.  0, RFT_EFORMAT (see rft_dec_why), RFT_EMEM, or the
 * emit callback's non-zero value. */
int rft_dec_line(rft_dec *d, char *line, size_t len);
/* The start of the input (len bytes, before rft_dec_line sees it), where
 * a format may say its window sizes: rft_dec_needs_prescan may then be 0. */
void rft_dec_peek(rft_dec *d, const char *buf, size_t len);
/* End of input: complete the last instruction, end running wavefronts. */
int rft_dec_finish(rft_dec *d);
const char *rft_dec_why(const rft_dec *d);
/* Whether window sizes must come from a pre-scan (none in the options and
 * none in the input's own grammar). */
int rft_dec_needs_prescan(const rft_dec *d);
/* After a pre-scan: highest register named per kernel, plus one (at least 1),
 * for the first max kernels; returns how many kernels there are (call with
 * max 0 to size nregs). */
uint32_t rft_dec_kernel_regs(const rft_dec *d, uint16_t *nregs, uint32_t max);
/* The event counters of the run so far (stage "rft-decode", scope "total"). */
void rft_dec_counters(const rft_dec *d, rft_counters *c);
/* Header metadata describing the decoding (models and mappings used):
 * call f(ctx, key, value) for each. */
void rft_dec_describe(const rft_dec *d, void (*f)(void *ctx, const char *k, const char *v),
                      void *ctx);
void rft_dec_free(rft_dec *d);
/* cutracer: one line of CUTracer's kernel events file (NDJSON), before the
 * trace's first line: its kernel_launch records give each launch's kernel
 * name, grid, block and registers a thread (then no pre-scan is needed);
 * other records are skipped.  0 or RFT_EFORMAT (rft_dec_why). */
int rft_dec_events_line(rft_dec *d, const char *line, size_t len);

#endif
