/* alloc.h - register windows in a slice: the RFT_ALLOC record (kind 0x13),
 * the slice allocators first-fit (seed 004 Fig. 5), RAR (seed 002 section
 * 5.2) and ARGO (seed 004 Fig. 6), and the stage of rft-alloc(1) that
 * places every wavefront's window with them.
 *
 * A window of n entries placed at base with rotation rot covers the entries
 * (base + i) mod entries, 0 <= i < n, and maps logical register idx to
 *     phys = (base + (rot + idx) mod n) mod entries
 * (rot is 0 except under RAR; the outer mod matters only for ARGO windows
 * that wrap past the last entry of the slice).
 *
 * Pure computation and record coding: no I/O, no global state.
 */
#ifndef RFT_ALLOC_H
#define RFT_ALLOC_H

#include <stddef.h>
#include <stdint.h>

#include "occupancy.h"
#include "rft.h"

/* ---- the RFT_ALLOC record -------------------------------------------------
 * Payload, little-endian, 28 bytes (a longer payload is accepted and the
 * extra bytes ignored, for later minor versions; a 26-byte payload, written
 * before the bank field, has banks of one entry):
 *   0  u64 cycle   cycle of the B or E record it follows
 *   8  u16 cu
 *  10  u16 simd
 *  12  u32 wf      wavefront owning the window
 *  16  u16 base    first entry of the window
 *  18  u16 n       window size (the B record's nregs)
 *  20  u16 rot     RAR rotation s (0 unless --scheme rar)
 *  22  u16 nfree   entries of the slice in no window after this event
 *  24  u8  event   1 = window allocated, 2 = window freed
 *  25  u8  flags   bit 0: entries in no window are power-gated from now on
 *  26  u16 bank    entries per power-gating bank (>= 1): a bank is off only
 *                  while none of its entries is in a window
 */
#define RFT_ALLOC_LEN 28u
#define RFT_ALLOC_MIN 26u   /* the payload before the bank field */
enum { RFT_ALLOC_EV_ALLOC = 1, RFT_ALLOC_EV_FREE = 2 };
#define RFT_AF_GATED 0x01

typedef struct rft_alloc_rec {
    uint64_t cycle;
    uint16_t cu, simd;
    uint32_t wf;
    uint16_t base, n, rot, nfree;
    uint8_t event, flags;
    uint16_t bank;      /* entries per gating bank; 0 is written as 1 */
} rft_alloc_rec;

/* buf must hold RFT_ALLOC_LEN bytes. */
void rft_alloc_encode(uint8_t *buf, const rft_alloc_rec *a);
int rft_write_alloc(rft_writer *w, const rft_alloc_rec *a);
/* 0, or RFT_EFORMAT if the payload is short, names an unknown event or
 * has a bank of 0 entries. */
int rft_alloc_parse(const uint8_t *p, uint32_t len, rft_alloc_rec *a);

/* The record as one line for people, as rft-view(1) shows analysis
 * records (no newline): "# alloc" then cycle=, slice=CU:SIMD, wf=,
 * event=alloc|free, base=, n=, rot=, free=, gated=0|1 and, for banks of
 * more than one entry, bank=, separated by sep.
 * buf must hold RFT_ALLOC_TEXT_MAX bytes; returns the length. */
#define RFT_ALLOC_TEXT_MAX 160
size_t rft_alloc_format(const rft_alloc_rec *a, char sep, char *buf);

/* x mod m, for x almost always below 2m: a subtraction instead of a
 * division, which is most of the cost of placing a register. */
static inline uint32_t rft_mod_near(uint32_t x, uint32_t m)
{
    return x < m ? x : x - m < m ? x - m : x % m;
}

/* Physical entry of logical register idx (< n) of a window. */
static inline uint32_t rft_window_phys(uint32_t entries, uint32_t base, uint32_t n, uint32_t rot,
                                       uint32_t idx)
{
    return rft_mod_near(base + rft_mod_near(rot + idx, n), entries);
}

/* ---- slice allocators ------------------------------------------------------ */
enum rft_alloc_scheme {
    RFT_ALLOC_FIRSTFIT = 1, /* lowest free base (seed 004 Fig. 5) */
    RFT_ALLOC_RAR = 2,      /* first-fit, rotation s per (base, n) (seed 002 5.2) */
    RFT_ALLOC_ARGO = 3,     /* next fit from a head that follows the last window (seed 004 Fig. 6) */
};
/* ARGO: how a window meets the last entry of the slice. */
enum { RFT_WRAP_RING = 0,   /* windows wrap to entry 0 (the slice is a ring) */
       RFT_WRAP_RESTART = 1 /* a window never wraps: the search goes on at entry 0 */ };

typedef struct rft_salloc {
    uint32_t entries;   /* entries in the slice */
    int scheme, wrap;
    uint32_t head;      /* ARGO: next allocation candidate */
    uint32_t nfree;     /* entries in no window */
    uint8_t *used;      /* entries[]: 1 if in a window */
    uint16_t *rot;      /* entries[]: RAR rotation last used at this base */
    uint16_t *rotn;     /* entries[]: size of the window last placed at this base, 0 = none */
} rft_salloc;

/* 0 or RFT_EMEM; entries in 1..RFT_MAX_ENTRIES. */
int rft_salloc_init(rft_salloc *s, uint32_t entries, int scheme, int wrap);
void rft_salloc_destroy(rft_salloc *s);

#define RFT_SALLOC_NO_HINT UINT32_MAX
/* Place a window of n entries.  If hint is a base where the window fits,
 * it is taken (work-group contiguity); otherwise the scheme decides.
 * Returns the base (and the rotation in *rot), or -1 if no run of n free
 * entries exists.  A window of 0 entries is placed at the scheme's next
 * base without taking any entry. */
long rft_salloc_place(rft_salloc *s, uint32_t n, uint32_t hint, uint16_t *rot);
/* Give back the window of n entries at base. */
void rft_salloc_release(rft_salloc *s, uint32_t base, uint32_t n);
/* Longest run of free entries a window could take (wrapping under ARGO ring). */
uint32_t rft_salloc_largest(const rft_salloc *s);

const char *rft_alloc_scheme_name(int scheme); /* "first-fit", "rar", "argo" */

/* ---- the stage behind rft-alloc(1) ------------------------------------------
 * Places the window of every wavefront (B record) in its slice, frees it at
 * the wavefront's end (E) or, by work-group, at the end of the group's last
 * wavefront; sets the physical entry of every write and read; hands an
 * RFT_ALLOC record on after each B or E record that placed or freed a
 * window; drops the RFT_ALLOC records of an earlier placement.  The header
 * gets alloc=<scheme, granularity, ARGO's wrap and bank>.  With occupancy
 * set it also measures utilization and bank recovery (occupancy.h). */
typedef struct rft_alloc_opts {
    int scheme;             /* RFT_ALLOC_*: first-fit by default */
    int wrap;               /* ARGO: RFT_WRAP_RING (default) or RFT_WRAP_RESTART */
    int by_group;           /* hold windows until their work-group ends */
    uint32_t bank;          /* ARGO: entries per power-gating bank (>= 1) */
    int occupancy;          /* measure utilization and recovery (rft_alloc_occupancy) */
    int steady;             /* header runs=steady: the duty map of the trace run again and
                             * again (rft_duty_opts.steady), else runs=once */
    uint32_t banks[RFT_OCC_MAX_BANKS];  /* bank sizes studied by the recovery; */
    int nbanks;             /* none: 1, 2, 4 and 8 KB banks, within the slice */
    /* Called for every window placed or freed, after its record went on
     * (may be NULL). */
    void (*on_event)(void *ctx, const rft_alloc_rec *a);
    void *event_ctx;
} rft_alloc_opts;
void rft_alloc_opts_default(rft_alloc_opts *o);

/* 0 if the bank sizes of o fit a slice of g, else RFT_EFORMAT and why
 * ("--bank: 9 entries is more than the 8 of a slice"). */
int rft_alloc_opts_check(const rft_alloc_opts *o, const rft_geom *g, char *why, size_t len);

/* NULL when out of memory. */
rft_stage *rft_alloc_new(const rft_alloc_opts *o);
/* After start: the input's geometry; after finish: the occupancy figures
 * (NULL unless o->occupancy). */
const rft_geom *rft_alloc_geom(const rft_stage *s);
const rft_occ *rft_alloc_occupancy(const rft_stage *s);
/* After start: the scheme and its options as the output header's alloc=
 * says them ("scheme=argo granularity=wavefront wrap=ring"); the options,
 * with the bank sizes of the occupancy figures (default ones filled in). */
const char *rft_alloc_describe(const rft_stage *s);
const rft_alloc_opts *rft_alloc_options(const rft_stage *s);

#endif
