/* dec_int.h - what the decoder modules (dec_*.c) share; not public. */
#ifndef RFT_DEC_INT_H
#define RFT_DEC_INT_H

#include <stdarg.h>

#include "decoders.h"

/* event counters of a run (rft_dec_counters) */
enum dec_counter {
    DC_LINES, DC_INSTS, DC_WAVES, DC_WRITES, DC_READS, DC_FLOAT_LANES, DC_INEXACT_LANES,
    DC_DOUBLE_LANES, DC_IGNORED, DC_UNATTRIBUTED, DC_PRESETS, DC_UNRECOVERED, DC_UNTRACED,
    DC_NO_END, DC_UNPLACED, DC_N
};

/* A running wavefront (warp) and the content of its registers. */
typedef struct dec_wave {
    uint64_t key;          /* the format's identity of the wavefront */
    uint32_t wf;           /* its id in the stream */
    uint16_t cu, simd, nregs;
    uint32_t kernel, wg;
    uint32_t *vals;        /* nregs x lanes, lane-major per register (NULL in a pre-scan) */
    uint8_t *bits;         /* per register flags of the format (nvbit: write pending) */
    uint32_t id;           /* the format's own number (m2s wavefront id, gem5 slot) */
    int64_t base;          /* gem5: physical index of virtual register 0, -1 unknown */
    uint8_t barrier;       /* m2s: waiting at a barrier */
    uint8_t waited;        /* m2s: RFT_WF_WAIT, RFT_WF_BARRIER: an s_waitcnt, an s_barrier
                              since its last vector instruction */
    uint64_t begun;        /* m2s: the cycle of its begin record */
    uint64_t pc, pc2;      /* m2s: 1 + the address of its next instruction (either, after
                              a branch whose outcome is not printed); 0 none */
    uint32_t *word;        /* per register, the format's (cutracer: a pending write's lanes) */
    uint32_t seen, exited; /* cutracer: lanes seen active, lanes past EXIT */
} dec_wave;

struct dec_ops {
    int (*init)(rft_dec *d);
    int (*line)(rft_dec *d, char *s, size_t n);
    int (*finish)(rft_dec *d);
    void (*describe)(const rft_dec *d, void (*f)(void *, const char *, const char *), void *ctx);
    void (*free)(rft_dec *d);
    int needs_regs;        /* window sizes come from a pre-scan unless given */
    /* more counters of the format (NULL: none) */
    void (*counters)(const rft_dec *d, rft_counters *c);
    int reg_words;         /* a wavefront has a word per register (dec_wave.word) */
    /* a look at the start of the input (NULL: none), see rft_dec_peek */
    void (*peek)(rft_dec *d, const char *buf, size_t len);
};

struct rft_dec {
    int fmt;
    rft_dec_opts o;
    const struct dec_ops *ops;
    void *priv;
    rft_dec_emit emit;
    void *ctx;
    char why[RFT_DEC_ERRLEN];       /* a kernel name (RFT_MAX_STR at most) and the rest */
    rft_rec rec;
    uint8_t ubuf[RFT_UNITREC_LEN];  /* a unit record's payload (dec_unit) */
    uint64_t line;          /* lines seen (1-based number of the current one) */
    uint64_t last_cycle;
    char **knames;          /* kernels by index */
    uint16_t *kmax;         /* highest register named + 1, per kernel */
    uint32_t nk, kcap;
    rft_map kbyname;        /* a name's key -> its latest kernel index */
    rft_map wmap;           /* key -> index in waves */
    dec_wave **waves;
    uint32_t nwaves, wcap;
    uint32_t next_wf;
    uint16_t next_nregs;
    int no_prescan;          /* the input gives every window itself */
    int unordered;           /* records reach emit out of cycle order, to be sorted there */     /* window of the next wavefront to begin, 0: the kernel's */
    uint64_t c[DC_N];
};

int dec_bad(rft_dec *d, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* a token in messages: at most 24 bytes of it */
#define DEC_TOK(s, n) (int)((n) > 24 ? 24 : (n)), (s)

/* 0 if name (len bytes) can be a kernel's, else RFT_EFORMAT with the reason:
 * longer than RFT_MAX_STR, or holding a NUL byte */
int dec_kernel_name(rft_dec *d, const char *name, size_t len);
/* kernels: add one (emitting its K record at cycle); returns its index or <0 */
int dec_kernel(rft_dec *d, uint64_t cycle, const char *name, size_t len);
/* The latest kernel named name (len bytes): its index, or -1 (O(1)). */
long dec_find_kernel(const rft_dec *d, const char *name, size_t len);
/* the kernel of an ND-Range of a log that names none: --kernel, else ndrangeN */
int dec_ndrange_kernel(rft_dec *d, uint64_t cycle);
/* note that kernel k names register reg (for the pre-scan); check it fits the
 * window nregs of a wavefront (when not pre-scanning) */
int dec_reg(rft_dec *d, uint32_t kernel, uint32_t reg, const dec_wave *w, const char *tok,
            size_t toklen);
/* window size of kernel k */
uint16_t dec_nregs(const rft_dec *d, uint32_t k);

/* wavefronts */
dec_wave *dec_wave_get(rft_dec *d, uint64_t key);
/* create, assign the next stream id, emit B (nregs from dec_nregs) */
dec_wave *dec_wave_begin(rft_dec *d, uint64_t key, uint64_t cycle, uint16_t cu, uint16_t simd,
                         uint32_t kernel, uint32_t wg, int *err);
int dec_wave_end(rft_dec *d, dec_wave *w, uint64_t cycle);
/* end every running wavefront (in stream-id order) */
int dec_end_all(rft_dec *d, uint64_t cycle);

/* records: a write of register vreg with the lanes in mask set to val[lane]
 * (other lanes keep their content); phys may be RFT_NO_PHYS */
int dec_write(rft_dec *d, dec_wave *w, uint64_t cycle, uint32_t vreg, uint16_t phys,
              const uint8_t *mask, const uint32_t *val);
/* the same when val holds every lane's content after the write (mask only says
 * which lanes the instruction ran on) */
int dec_write_all(rft_dec *d, dec_wave *w, uint64_t cycle, uint32_t vreg, uint16_t phys,
                  const uint8_t *mask, const uint32_t *val);
/* dec_write with the unit that produced the result (RFT_WF_VMEM, RFT_WF_LDS or
 * 0: vector ALU) in the write's flags */
int dec_write_unit(rft_dec *d, dec_wave *w, uint64_t cycle, uint32_t vreg, uint16_t phys,
                   const uint8_t *mask, const uint32_t *val, uint8_t unit);
int dec_read(rft_dec *d, dec_wave *w, uint64_t cycle, uint32_t vreg, uint16_t phys);
/* the unit record (rft(5), kind 0x07) of an instruction of unit (RFT_WF_VMEM or
 * RFT_WF_LDS) that wrote no register: a store */
int dec_unit(rft_dec *d, dec_wave *w, uint64_t cycle, uint8_t unit);
/* a VLIW ALU group (bundle) of the wavefront under exec mask mask */
int dec_bundle(rft_dec *d, dec_wave *w, uint64_t cycle, uint8_t slots, uint8_t flags,
               const uint8_t *mask);

/* numbers */
int dec_u64(const char *s, size_t n, uint64_t *v);       /* decimal digits only */
/* The next operand of an instruction s[*at..end), operands split at commas
 * outside brackets: its start in *o and length in *len (untrimmed, maybe
 * empty); *at moves past it.  0 once the operands are used up. */
int dec_operand(const char *s, size_t *at, size_t end, size_t *o, size_t *len);
int dec_hex32(const char *s, size_t n, uint32_t *v);     /* hex, optional 0x */
/* a printed 32-bit value: 0x hex, decimal (negative: two's complement), or
 * %g float with or without a trailing 'f'; *exact = 0 when a float's bits
 * cannot be told for sure (counted by the caller).  Returns 0 or -1. */
int dec_value32(const char *s, size_t n, uint32_t *v, int *isfloat, int *exact);
/* a %g double ("%lgf"): the two halves; exact as above */
int dec_value64(const char *s, size_t n, uint64_t *v, int *exact);

/* SASS text (dec_sass.c) */
#define DEC_SASS_MAXR 16
#define DEC_SASS_RZ 255
typedef struct dec_sass {
    int pred;                   /* predicated by something other than PT */
    char op[32];
    int nreg;                   /* general-register operands */
    uint32_t reg[DEC_SASS_MAXR];
    int first_is_reg, second_is_reg, first_is_pred, first_is_ureg;
    int nreg_norz;
    int nall;                   /* reg[] with the address registers of memory operands */
    uint32_t all[DEC_SASS_MAXR];
} dec_sass;
/* s (n bytes): 0, or RFT_EFORMAT for text that is no instruction */
int dec_sass_parse(rft_dec *d, const char *s, size_t n, dec_sass *x);
/* 1 with the first register the instruction writes and how many (its first
 * operand; 2 for .64 and .WIDE, 4 for .128), else 0 */
int dec_sass_dests(const dec_sass *x, uint32_t *first, int *count);

extern const struct dec_ops dec_m2s_ops, dec_gem5_ops, dec_nvbit_ops, dec_colmap_ops,
    dec_evg_ops, dec_cutracer_ops;

#endif
