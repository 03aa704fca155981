/* dcpatch.h - the DC-Patch mechanism of one register-file slice (seed 001
 * section IV): a Patching Table (PT) row per register of every window and a
 * Patching Selection Unit (PSU) over the entries x blocks of the slice,
 * preset with the faulty blocks of a fault map (dcpatch.c); and the stage
 * behind rft-dcpatch(1) that runs one per slice over a stream (at the end,
 * dcpatch_stage.c).
 *
 * Pure computation: no I/O, no globals; a slice allocates nothing after
 * rft_dcp_init, the stage only for new slices, kernels and wavefront slots.
 * O(1) per write apart from the PSU searches, which are find-first-set over
 * 64-bit words with a summary word per 64 words (a 256 x 4 slice: one
 * summary word).
 *
 * Rows: the PT has one row per slice entry, arranged in windows placed
 * first-fit as the register base table places them (seed 001 II-A): row =
 * window base + register index.  A row's natural entry (the one a
 * conventional register file would use) is the row number; Fig. 3 of the
 * seed classifies those.
 */
#ifndef RFT_DCPATCH_H
#define RFT_DCPATCH_H

#include <stddef.h>
#include <stdint.h>

#include "faultmap.h"
#include "rft.h"

typedef struct rft_dcp_opts {
    int pick_high;      /* encoders pick the highest free index (default 0: lowest) */
    int share_reliable; /* compressed registers share reliable entries, up to one per
                         * block (default 1); 0: a compressed register in a reliable
                         * entry holds the whole entry */
    int release_first;  /* release the old patch before the search (default 0: the
                         * preventive search runs while the old patch is held; the
                         * register falls back to its own place if it fits) */
} rft_dcp_opts;
void rft_dcp_opts_default(rft_dcp_opts *o);

/* Where a write went (seed 001 Fig. 5). */
enum rft_dcp_place {
    RFT_DCP_NORMAL = 0,   /* no new patch */
    RFT_DCP_FAULTY = 1,   /* new patch: a block of a faulty entry */
    RFT_DCP_RELIABLE = 2, /* new patch: a reliable entry (whole, or one block) */
    RFT_DCP_LDS = 3,      /* the register is (or stays) spilled to the LDS */
};

/* What a read touched. */
enum rft_dcp_read {
    RFT_DCP_R_UNWRITTEN = 0, /* no patch: the register was never written */
    RFT_DCP_R_COMP = 1,      /* one block, through a Dec unit */
    RFT_DCP_R_UNC = 2,       /* every block */
    RFT_DCP_R_LDS = 3,       /* an extra LDS load */
};

/* PT row flags */
#define RFT_DCP_WINDOW 0x01   /* the row belongs to a live window */
#define RFT_DCP_VALID 0x02    /* v: the register has a patch */
#define RFT_DCP_COMP 0x04     /* c: its content is compressed */
#define RFT_DCP_SPILLED 0x08  /* m: it lives in the LDS spill partition */

typedef struct rft_dcp_row {
    uint16_t entry, block;    /* patch (block: compressed registers only) */
    uint8_t flags;
} rft_dcp_row;

/* Occupancy categories, counted in entries (SPILLED: in registers). */
enum {
    RFT_DCP_CONV_REL_COMP,   /* natural entry reliable, content compressed (Fig. 3) */
    RFT_DCP_CONV_REL_UNC,    /* natural entry reliable, uncompressed */
    RFT_DCP_CONV_FLT_COMP,   /* natural entry faulty, compressed */
    RFT_DCP_CONV_FLT_UNC,    /* natural entry faulty, uncompressed */
    RFT_DCP_CONV_UNWRITTEN,  /* in a window, not written yet */
    RFT_DCP_USED_REL_UNC,    /* reliable entries holding an uncompressed register */
    RFT_DCP_USED_REL_COMP,   /* reliable entries holding compressed registers */
    RFT_DCP_USED_FLT_COMP,   /* faulty entries holding compressed registers */
    RFT_DCP_SPILLED_REGS,    /* registers in the LDS */
    RFT_DCP_NCAT
};

/* Time integrals of the categories: on every change by d at cycle t,
 * cur += d and sdt += d * t (mod 2^64).  The integral up to T >= every t is
 * cur * T - sdt (exact: it fits in 64 bits, so the modular sum gives it). */
typedef struct rft_dcp_acc {
    int64_t cur[RFT_DCP_NCAT];
    uint64_t sdt[RFT_DCP_NCAT];
} rft_dcp_acc;
static inline uint64_t rft_dcp_integral(const rft_dcp_acc *a, int cat, uint64_t T)
{
    return (uint64_t)a->cur[cat] * T - a->sdt[cat];
}

/* What a write did, beyond its place. */
typedef struct rft_dcp_event {
    int place;            /* enum rft_dcp_place */
    uint8_t first;        /* first write of the register (v was 0) */
    uint8_t change;       /* the compression state changed */
    uint8_t from_lds;     /* a spilled register came back into the slice */
    uint8_t spill;        /* the register went to the LDS (it was not there) */
    uint8_t released;     /* an old slice patch was released */
    uint8_t searches;     /* PSU encoder activations (2 on first and spilled writes) */
    uint16_t entry, block;/* the patch now (place != RFT_DCP_LDS) */
} rft_dcp_event;

typedef struct rft_dcp_slice {
    uint32_t entries, blocks, nblk;
    rft_dcp_opts o;
    uint8_t *ent_faulty;      /* entry has more faulty bits than ECP repairs */
    uint8_t *blk_bad;         /* block cannot hold data */
    uint16_t *ent_used;       /* compressed registers in the entry, or RFT_DCP_UNC */
    uint64_t *free_flt, *sum_flt;   /* blocks: free reliable block of a faulty entry */
    uint64_t *free_part, *sum_part; /* blocks: free block of a shared reliable entry */
    uint64_t *free_ent, *sum_ent;   /* entries: wholly free reliable entry */
    uint32_t wblk, went, sblk, sent; /* words in the bitmaps and their summaries */
    rft_dcp_row *pt;          /* one row per entry */
    uint32_t *tag;            /* per row: the caller's tag of its window (a wavefront) */
    uint32_t *owner;          /* scratch for rft_dcp_check */
    uint32_t live_rows;       /* rows in live windows */
    rft_dcp_acc acc;          /* the slice's integrals */
    /* set for the duration of a call */
    uint64_t t;
    rft_dcp_acc *x;
} rft_dcp_slice;
#define RFT_DCP_UNC 0xFFFFu

/* Set up a slice for map m (its geometry is the slice's).  RFT_EMEM. */
int rft_dcp_init(rft_dcp_slice *s, const rft_faultmap *m, const rft_dcp_opts *o);
/* The bytes rft_dcp_init allocates for a slice of entries x blocks. */
uint64_t rft_dcp_bytes(uint32_t entries, uint32_t blocks);
void rft_dcp_free(rft_dcp_slice *s);

/* A window of n rows for a wavefront (tag): first-fit.  Returns the base
 * row, or -1 if no n consecutive rows are free. */
int rft_dcp_begin(rft_dcp_slice *s, uint32_t n, uint32_t tag, uint64_t t, rft_dcp_acc *x);
/* The wavefront of the window [base, base+n) ends: every patch is released.
 * Returns the number of registers that had a patch (PT rows invalidated). */
uint32_t rft_dcp_end(rft_dcp_slice *s, uint32_t base, uint32_t n, uint64_t t, rft_dcp_acc *x);
/* A write of row with compressed (1) or uncompressed (0) content. */
void rft_dcp_write(rft_dcp_slice *s, uint32_t row, int compressed, uint64_t t, rft_dcp_acc *x,
                   rft_dcp_event *ev);
/* A read of row: enum rft_dcp_read. */
static inline int rft_dcp_read(const rft_dcp_slice *s, uint32_t row)
{
    uint8_t f = s->pt[row].flags;
    if (!(f & RFT_DCP_VALID))
        return RFT_DCP_R_UNWRITTEN;
    if (f & RFT_DCP_SPILLED)
        return RFT_DCP_R_LDS;
    return f & RFT_DCP_COMP ? RFT_DCP_R_COMP : RFT_DCP_R_UNC;
}

/* ---- the RFT_PATCH record ------------------------------------------------------
 * Where the write record right after it is stored under DC-Patch, so that
 * rft-duty(1) can follow the cells of an undervolted register file.
 * Payload, little-endian, 32 bytes (a longer payload is accepted and the
 * extra bytes ignored, for later minor versions):
 *   0  u64 cycle   cycle of the write
 *   8  u16 cu
 *  10  u16 simd
 *  12  u32 wf
 *  16  u16 vreg
 *  18  u16 entry   entry of the slice, 0xffff in the LDS
 *  20  u16 block   block holding a compressed register, 0xffff otherwise
 *  22  u8  place   1 = a whole reliable entry (uncompressed), 2 = one block
 *                  (compressed), 3 = the LDS spill partition (no cell)
 *  23  u8  zero
 *  24  u32 c0      compressed: what the block's first lane holds (C0) ...
 *  28  u32 code    ... and its second: log2 De in bits 0-2 (7: De = 0),
 *                  log2 Db in bits 3-5, the valid bit 6 (seed 001 II-C, 39
 *                  bits); the block's other lanes are written zero */
#define RFT_PATCH_LEN 32u
#define RFT_PATCH_NONE 0xFFFFu
enum { RFT_PATCH_ENTRY = 1, RFT_PATCH_BLOCK = 2, RFT_PATCH_LDS = 3 };

typedef struct rft_patch_rec {
    uint64_t cycle;
    uint16_t cu, simd;
    uint32_t wf;
    uint16_t vreg, entry, block;
    uint8_t place;
    uint32_t c0, code;
} rft_patch_rec;

/* The stored code of the deltas of a compressed register: a delta that is 0
 * is 7, a power of two up to 64 its log2; any other (a relaxed
 * classification the hardware cannot store) keeps its low 3 bits. */
uint32_t rft_dcp_code(uint32_t de, uint32_t db);
void rft_patch_encode(uint8_t *buf, const rft_patch_rec *p);   /* RFT_PATCH_LEN bytes */
int rft_write_patch(rft_writer *w, const rft_patch_rec *p);
/* 0, or RFT_EFORMAT if short or inconsistent (place and entry/block). */
int rft_patch_parse(const uint8_t *buf, uint32_t len, rft_patch_rec *p);
/* "# patch" then cycle=, slice=CU:SIMD, wf=, vreg=, place=entry|block|lds,
 * entry=, block=, c0= (hex), code= (hex), separated by sep (no newline);
 * buf holds RFT_PATCH_TEXT_MAX bytes; returns the length. */
#define RFT_PATCH_TEXT_MAX 192
size_t rft_patch_format(const rft_patch_rec *p, char sep, char *buf);

/* What the write x after a patch record (its place *pend, not 0) costs on
 * the patched stream, as the replays charge it (lib/replay.c, the
 * compute-unit model): a compression misprediction (*misp + 1: a value
 * rft-dcpatch classed other whose first block it did not foresee, the
 * whole wavefront writing) or a MOV that moves a block-placed register
 * (*mov + 1: a divergent write); place[vreg] becomes *pend (vreg below
 * nregs) and *pend 0.  The wavefront's first full mask is kept in full
 * (*have_full), its bytes those of geometry g, for a write that carries no
 * class (x->cls RFT_CLS_NONE: classified here with po). */
struct rft_pattern_opts;
void rft_patch_write_cost(const rft_geom *g, const struct rft_pattern_opts *po, const rft_write *x,
                          uint8_t *pend, uint8_t *place, uint32_t nregs, uint8_t *full,
                          uint8_t *have_full, uint32_t *mov, uint32_t *misp);

/* Check the invariants: no two live registers share a block, none sits on a
 * faulty block, uncompressed registers hold whole reliable entries, and the
 * PSU bitmaps agree with the PT.  0, or -1 with a message in why. */
int rft_dcp_check(rft_dcp_slice *s, char *why, size_t whylen);


/* ---- the stage behind rft-dcpatch(1) (rft.h, "stages") --------------------------
 * DC-Patch over a stream, one rft_dcp_slice per slice: every write placed
 * (an RFT_PATCH record before it; phys of writes and reads set, RFT_NO_PHYS
 * in the LDS), the events an energy model prices counted per kernel, per
 * slice and in total, emitted as counters records at the end.  The maps
 * come from the stream (rft-faultmap) or from maps, which then replace the
 * stream's: the map used goes into the stream before its slice's first
 * record.  Placement records of an earlier stage (alloc, patch) are dropped
 * with a warning.  The header gets dcpatch=<options> (and dcpatch.maps). */

/* Counters, in the order they are written (names in rft-dcpatch(1)). */
enum {
    RFT_DCPC_WRITES, RFT_DCPC_NORMAL, RFT_DCPC_PFAULTY, RFT_DCPC_PRELIABLE, RFT_DCPC_WLDS,
    RFT_DCPC_FIRST, RFT_DCPC_CHANGE, RFT_DCPC_BACK, RFT_DCPC_COMPW, RFT_DCPC_DIV, RFT_DCPC_MISP,
    RFT_DCPC_MOV, RFT_DCPC_SPILLS, RFT_DCPC_READS, RFT_DCPC_RCOMP, RFT_DCPC_RUNC, RFT_DCPC_RLDS,
    RFT_DCPC_RUNW, RFT_DCPC_BR_COMP, RFT_DCPC_BR_UNC, RFT_DCPC_BR_MOV, RFT_DCPC_BW_COMP,
    RFT_DCPC_BW_UNC, RFT_DCPC_BW_MISP, RFT_DCPC_BW_MOV, RFT_DCPC_COM, RFT_DCPC_COMB,
    RFT_DCPC_DEC, RFT_DCPC_DECB, RFT_DCPC_PTR, RFT_DCPC_PTW, RFT_DCPC_PSU_S, RFT_DCPC_PSU_P,
    RFT_DCPC_PSU_R, RFT_DCPC_LDS_LOAD, RFT_DCPC_LDS_STORE, RFT_DCPC_STALL, RFT_DCPC_WAVES,
    /* filled at the end */
    RFT_DCPC_SLICE_CYC, RFT_DCPC_CU_CYC, RFT_DCPC_ENTRY_CYC, RFT_DCPC_CONV_RC,
    RFT_DCPC_CONV_RU, RFT_DCPC_CONV_FC, RFT_DCPC_CONV_FU, RFT_DCPC_CONV_NEW, RFT_DCPC_USED_RU,
    RFT_DCPC_USED_RC, RFT_DCPC_USED_FC, RFT_DCPC_LDS_BC, RFT_DCPC_LDS_PEAK, RFT_DCPC_N
};
extern const char *const rft_dcpatch_counter_names[RFT_DCPC_N];

typedef struct rft_dcpatch_opts {
    rft_dcp_opts dcp;       /* pick, share-reliable, repatch */
    unsigned stall_cycles;  /* cycles a misprediction costs (default 4) */
    int check;              /* rft_dcp_check after every record of a slice */
    rft_fm_source maps;     /* maps given here; none (no csv, no generator): the stream's */
    /* One line of the decision log (rft-dcpatch(1) --log, with its newline)
     * per wavefront begin and end, write and read; NULL: none. */
    void (*log)(void *ctx, const char *line);
    void *log_ctx;
    uint64_t test_corrupt_at;   /* tests only: break the PT after record N (see --check) */
    int replay;             /* 1: replay the patched stream in the same pass (replay.h):
                               rft_dcpatch_replay after finish */
    uint32_t stages;        /* the replay's extra pipeline cycles per result (seed 001
                               IV-E; default RFT_REPLAY_AUTO: 2) */
} rft_dcpatch_opts;
void rft_dcpatch_opts_default(rft_dcpatch_opts *o);
/* The header line of the log (with its newline). */
extern const char rft_dcpatch_log_header[];

rft_stage *rft_dcpatch_new(const rft_dcpatch_opts *o);

/* After finish: the counters (RFT_DCPC_N values) of kernel i (in order of
 * appearance; its name in *name), of slice i (in order of appearance) and
 * in total. */
uint32_t rft_dcpatch_nkernels(const rft_stage *s);
const uint64_t *rft_dcpatch_kernel(const rft_stage *s, uint32_t i, const char **name);
uint32_t rft_dcpatch_nslices(const rft_stage *s);
const uint64_t *rft_dcpatch_slice(const rft_stage *s, uint32_t i, uint16_t *cu, uint16_t *simd);
const uint64_t *rft_dcpatch_total(const rft_stage *s);
/* After finish, with opts.replay: the replay of the patched stream (its
 * records, patch records included, fed as they leave the stage; the
 * stall of a misprediction is opts.stall_cycles), for rft_replay_timed,
 * rft_replay_get...; NULL without opts.replay or if the stream could not be
 * replayed (then a warning said why). */
const rft_stage *rft_dcpatch_replay(const rft_stage *s);

#endif
