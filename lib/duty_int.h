/* duty_int.h - the duty-map engine's state, shared by duty.c (the
 * accounting) and dutysteady.c (the steady state of a trace run over and
 * over, rft_duty_opts.steady).  Internal to librft: not installed. */
#ifndef RFT_DUTY_INT_H
#define RFT_DUTY_INT_H

#include <stdarg.h>

#include "alloc.h"
#include "dcpatch.h"
#include "duty.h"

#define PLANES 32           /* the counters hold up to 2^32 - 1 cycles ... */
#define LOW 16              /* ... planes LOW.. are allocated when needed */
#define BATCH 8             /* intervals added to the planes together */
#define VW 8                /* rows are padded to 64 bytes, a vector of AVX-512 */

struct part {               /* time spent with `on` powered bits (on < bits) */
    uint32_t on;
    uint64_t t;
};

/* Per entry, in rows of pw words: the content now (in the slice's array of
 * contents, dense so that writes find it in cache) and, in a block of the
 * slice's arena, BATCH contents held before it (waiting to be added to the
 * counters, for rt[] cycles each) and the LOW low planes of the counters. */
typedef struct ent {
    uint64_t last;          /* clock since which content and power state hold */
    uint64_t acc;           /* time added to the counters since they were emptied */
    uint64_t *hi;           /* planes LOW..PLANES-1 */
    uint64_t *t1;           /* per-bit time at '1' moved out of full planes (rare) */
    struct part *part;
    uint64_t rt[BATCH];
    uint32_t nring;         /* contents waiting */
    uint32_t on;            /* powered low-order bits */
    uint32_t npart, cpart;
    uint8_t born;           /* allocated or written in the window */
    uint8_t nz;             /* the content now has a '1' */
    uint8_t set;            /* steady: written or gated in the window ... */
    uint64_t pre;           /* ... first at this clock (before it: what the last run left) */
} ent;

typedef struct slice {
    uint16_t cu, simd;
    uint64_t first, last;   /* cycles of its first and last event */
    uint64_t start, end;    /* clock at the window's start and end */
    uint64_t live, busy_acc, busy_since;
    int gated;              /* ARGO: unallocated entries are switched off ... */
    uint32_t bank;          /* ... per bank of this many entries (0 until gated) */
    uint8_t *inwin;         /* per entry: in a window now */
    uint8_t *bank_on;       /* per bank: switched on */
    void *mem;              /* the arena as allocated ... */
    uint64_t *arena;        /* ... and aligned: entries blocks of blk words */
    uint64_t *now;          /* entries x pw words: the contents now */
    ent *e;
    /* steady (runs.c part below): RAR's window positions, ARGO's head */
    uint16_t *bn;           /* per base: entries of the windows placed there, 0 none */
    uint32_t *br;           /* per base: windows placed there */
    uint16_t *own;          /* per entry: base + 1 of the position covering it, 0 none */
    uint32_t head;          /* ARGO: base + n of the last window */
    uint32_t *tau;          /* after finish: entry e of a run is entry tau[e] of the next */
    uint64_t period;        /* after finish: runs before every window is back in place */
} slice;

struct runs {               /* steady: the slice being emitted, composed */
    size_t slice;           /* its index + 1, 0 none */
    uint32_t *orb, *src;    /* per entry: its orbit; whose last state it starts a run with */
    uint32_t *len;          /* per orbit: entries */
    uint8_t *born;          /* per orbit: some entry allocated */
    uint64_t *t1, *toff;    /* per orbit: bits values each */
    uint8_t *enc;           /* the record of the orbit last encoded ... */
    uint32_t enc_orb, enc_len;  /* ... its orbit (NO_SRC none) and length */
};

struct rft_duty {
    rft_duty_opts o;
    uint32_t lanes, entries, bits, words, pw;  /* pw: words padded to VW */
    uint32_t block_lanes;
    int pending;            /* a patch record waits for its write ... */
    rft_patch_rec patch;    /* ... this one */
    size_t blk;             /* words per entry block */
    uint64_t held;          /* bytes the slices' state takes (new_slice) */
    slice **s;
    size_t ns, cs;
    rft_slices idx;         /* index in s */
    int any;
    uint64_t sfirst, slast; /* first and last cycle of the stream */
    int finished;
    uint64_t *tmp1, *tmp2;  /* bits values, for the rare records built by value */
    uint64_t period;        /* steady: K runs */
    struct runs *rn;        /* steady: the composition, at emit */
    char err[256];
};

static inline uint64_t *now_of(const rft_duty *d, const slice *s, uint32_t k)
{
    return s->now + (size_t)k * d->pw;
}
/* the entry's block, from its content now */
static inline uint64_t *blk_of(const rft_duty *d, const slice *s, const uint64_t *now)
{
    return s->arena + (size_t)(now - s->now) / d->pw * d->blk;
}
static inline uint64_t *pend_of(const rft_duty *d, uint64_t *blk, uint32_t i)
{
    return blk + (size_t)i * d->pw;
}
static inline uint64_t *plane_of(const rft_duty *d, const ent *e, uint64_t *blk, unsigned k)
{
    return k < LOW ? blk + (size_t)(BATCH + k) * d->pw : e->hi + (size_t)(k - LOW) * d->pw;
}

/* duty.c's engine, for the steady state */
int duty_fail(rft_duty *d, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
int duty_oom(rft_duty *d);
int duty_add_part(ent *e, uint32_t on, uint64_t t);
int duty_account(const rft_duty *d, const slice *s, ent *e, uint64_t *now, uint64_t c);
void duty_flush(const rft_duty *d, ent *e, uint64_t *blk);
void duty_planes_to_values(const rft_duty *d, const ent *e, uint64_t *blk, uint64_t *out);
int duty_cmp_part(const void *a, const void *b);

/* dutysteady.c: cycles of one run of slice s; where the windows of a run go
 * (an allocation record, as fed); at finish, each slice's permutation and
 * period; the record of cell i of a slice whose period is over 1 */
uint64_t duty_run_len(const rft_duty *d, const slice *s);
int duty_runs_alloc(rft_duty *d, slice *s, const rft_alloc_rec *a);
int duty_runs_finish(rft_duty *d);
uint32_t duty_runs_emit(const rft_duty *d, size_t i, uint8_t *buf);

#endif
