/* cumodel.c - a trace-driven timing model of the compute unit (cumodel.h). */
#include <stdarg.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "cumodel.h"
#include "dcpatch.h"
#include "grow.h"
#include "heal.h"
#include "pattern.h"

#define NONE 0xFFFFFFFFu
/* the bytes of timed ND-ranges kept to be timed again (col.keep) */
#define RFT_CM_KEEP (64ull << 20)

static uint64_t umax(uint64_t a, uint64_t b) { return a > b ? a : b; }
static uint32_t ceil_div(uint32_t a, uint32_t b) { return b ? (a + b - 1) / b : a; }
static uint32_t simd_interval(const rft_m2scfg *c, uint32_t issue)
{
    uint32_t r = ceil_div(c->rew_latency, c->rew_buffer);
    return r > issue ? r : issue;
}

/* ---- a 4-ary heap of (time, kind, id): a total order, so the pops come in
 * one order whatever the heap's shape ------------------------------------ */
typedef struct { uint64_t t, k; } hent;     /* k: kind << 32 | id; kind 0: a slot frees, 1: an instruction */
#define HENT(t, kind, id) ((hent){(t), (uint64_t)(kind) << 32 | (id)})
typedef struct { hent *a; size_t n, cap; } heap;
static inline int hless(const hent *x, const hent *y)
{
    return x->t < y->t || (x->t == y->t && x->k < y->k);
}
static int hpush(heap *h, hent e)
{
    if (h->n == h->cap) {
        size_t c = h->cap ? 2 * h->cap : 64;
        hent *a = realloc(h->a, c * sizeof *a);
        if (!a)
            return -1;
        h->a = a, h->cap = c;
    }
    size_t i = h->n++;
    while (i && hless(&e, &h->a[(i - 1) / 4])) {
        h->a[i] = h->a[(i - 1) / 4];
        i = (i - 1) / 4;
    }
    h->a[i] = e;
    return 0;
}
/* e put at the top and sifted down: the top replaced (a pop and a push) */
static void hreplace(heap *h, hent e)
{
    size_t i = 0, n = h->n;
    for (;;) {
        size_t l = 4 * i + 1, m = i, end = l + 4 < n ? l + 4 : n;
        const hent *best = &e;
        for (size_t k = l; k < end; k++)
            if (hless(&h->a[k], best))
                best = &h->a[k], m = k;
        if (m == i)
            break;
        h->a[i] = h->a[m];
        i = m;
    }
    h->a[i] = e;
}
static hent hpop(heap *h)
{
    hent top = h->a[0], last = h->a[--h->n];
    if (h->n)
        hreplace(h, last);
    return top;
}

/* ---- the model --------------------------------------------------------- */
typedef struct {
    uint32_t first_wf, nwf;     /* its wavefronts: order[first_wf ..] */
    uint64_t first_begin;       /* traced */
    uint32_t cu, left;          /* placed on; wavefronts not ended */
    uint32_t nd;                /* its ND-range */
    uint64_t end;
    uint32_t slot, pool;        /* its slot on its compute unit; its wavefront pool (SIMD) */
    uint32_t bar_n;             /* wavefronts at its barrier; the latest arrival */
    uint64_t bar_t;
} wgrp;

typedef struct { uint64_t t; int d; uint32_t cu; } iv;
static int ivcmp(const void *a, const void *b)
{
    const iv *x = a, *y = b;
    if (x->t != y->t)
        return x->t < y->t ? -1 : 1;
    return x->d - y->d;     /* ends (-1) first */
}

static int wg_cmp(const void *a, const void *b)
{
    const wgrp *x = a, *y = b;
    if (x->nd != y->nd)
        return x->nd < y->nd ? -1 : 1;
    if (x->first_begin != y->first_begin)
        return x->first_begin < y->first_begin ? -1 : 1;
    return x->first_wf < y->first_wf ? -1 : x->first_wf > y->first_wf;
}

static int64_t delta(uint32_t a, uint32_t b) { return (int64_t)a - (int64_t)b; }
static uint64_t add_d(uint64_t t, int64_t d, uint64_t floor)
{
    int64_t r = (int64_t)t + d;
    return r < (int64_t)floor ? floor : (uint64_t)r;
}

/* ---- events, encoded: 1 to 3 bytes each ---------------------------------
 * byte 0: unit (2 bits), store, more follows, own part's low 3 bits, more
 * of the own part; then the own part's other bits 7 a byte (LEB128), then,
 * when flagged, what follows (LEB128): 1 the scheme's counts follow (the
 * wake-ups, MOVs, mispredictions and LDS loads), 2 a wait at an s_waitcnt
 * follows (the traced cycles since the access it waited for), 4 a barrier
 * follows (the traced cycles since its release), 8 an LDS access's service
 * follows (+ 1: the traced cycles from the later of its arrival, an arrive
 * mark's, and its compute unit's LDS access before, to its completion), 16
 * a vector ALU instruction's holds follow (the SIMD's instructions, its
 * wavefront's own last first, that its own part waited behind; v11), 32
 * the wavefront's scalar loads since the event before follow (their
 * number, then each one's serial and its traced cycles after that event,
 * + 1), 64 a wait behind scalar loads follows (the number of the loads
 * it waited for, their serials, the latest first, then each one's
 * distance before the one before, the traced cycles from the last one's
 * write to the wait's end, 1 + those from there to the event's ready, and
 * the cycles of its own part the waits took; v13). */
/* the most bytes one event takes: byte 0, the own part's high bits (10),
 * what follows (1), the scheme's four counts (5 each), wait, bar, svc, hold,
 * the scalar loads' and the waited-for loads' numbers, and the wait's three
 * distances (10 each); the loads themselves are added per event (col_close:
 * 20 a scalar load, 10 a load waited for) */
#define DEV_MAX (1 + 10 + 1 + 4 * 5 + 9 * 10)
typedef struct {
    uint64_t own, wait, bar;    /* wait: 0, or 1 + the traced cycles since the access
                                   waited for; bar: 0, or 1 + those since the barrier's
                                   release (its work-group's last arrival) */
    uint64_t svc;               /* an LDS access: 0, or 1 + its service (above) */
    uint64_t hold;              /* a vector ALU instruction: its holds (above), or 0 */
    uint64_t nsl;               /* v13, the scalar unit's marks (above): its scalar loads */
    const uint8_t *sl;          /* in the encoding (serial, cycles after + 1 each) */
    uint64_t nblk;              /* its wait behind scalar loads (above): the loads, 0 none */
    const uint8_t *blk;         /* in the encoding */
    uint64_t sbd, sdist, sst;
    uint8_t unit, store;
    uint32_t wake, mov, misp, lds;
} dev;

static uint8_t *put_leb(uint8_t *p, uint64_t v)
{
    do {
        uint8_t b = v & 0x7f;
        v >>= 7;
        *p++ = v ? b | 0x80 : b;
    } while (v);
    return p;
}
static const uint8_t *get_leb(const uint8_t *p, uint64_t *v)
{
    uint64_t x = 0;
    unsigned sh = 0;
    for (;;) {
        uint8_t b = *p++;
        x |= (uint64_t)(b & 0x7f) << sh;
        if (!(b & 0x80))
            break;
        sh += 7;
    }
    *v = x;
    return p;
}
static const uint8_t *dev_get(const uint8_t *p, dev *d)
{
    uint8_t b = *p++;
    d->unit = b & 3;
    d->store = (b >> 2) & 1;
    d->own = (b >> 4) & 7;
    if (b & 0x80) {
        uint64_t hi;
        p = get_leb(p, &hi);
        d->own |= hi << 3;
    }
    d->wake = d->mov = d->misp = d->lds = 0;
    d->wait = d->bar = d->svc = d->hold = 0;
    d->nsl = d->nblk = d->sbd = d->sdist = d->sst = 0;
    if (b & 8) {
        uint64_t v, more;
        p = get_leb(p, &more);
        if (more & 1) {
            p = get_leb(p, &v), d->wake = (uint32_t)v;
            p = get_leb(p, &v), d->mov = (uint32_t)v;
            p = get_leb(p, &v), d->misp = (uint32_t)v;
            p = get_leb(p, &v), d->lds = (uint32_t)v;
        }
        if (more & 2)
            p = get_leb(p, &d->wait);
        if (more & 4)
            p = get_leb(p, &d->bar);
        if (more & 8)
            p = get_leb(p, &d->svc);
        if (more & 16)
            p = get_leb(p, &d->hold);
        if (more & 32) {
            p = get_leb(p, &d->nsl);
            d->sl = p;
            for (uint64_t i = 0; i < 2 * d->nsl; i++)
                p = get_leb(p, &v);
        }
        if (more & 64) {
            p = get_leb(p, &d->nblk);
            d->blk = p;
            for (uint64_t i = 0; i < d->nblk; i++)
                p = get_leb(p, &v);
            p = get_leb(p, &d->sbd);
            p = get_leb(p, &d->sdist), p = get_leb(p, &d->sst);
        }
    }
    return p;
}

/* ---- the collector: wavefronts, their events, the slices --------------- */
/* a scalar load (cwf.sld); v16: its burst (the loads merged on one miss):
 * the first load written of it (its root: its serial + 1, 0 not known), the
 * traced cycles from that load's write to its own, and that load's traced
 * latency (the miss's) */
typedef struct { uint64_t root1; uint32_t v, slot, off, rlat; } sload_t;
/* a compute unit's last scalar loads as traced (a ring of CRING): slot + 1,
 * serial, issue, write (0 not yet) */
#define CRING 64
typedef struct { uint64_t slot1, ser, issue, write; } cload;
/* v16: the last write (+ 1) and its load's burst (sload_t's root1, off, rlat) */
typedef struct { uint64_t n, lw, lroot1; uint32_t loff, lrlat; cload e[CRING]; } cring;
/* v16: a load issued before the one before it on its compute unit was
 * written, and written at most this many cycles after it, came in that
 * one's burst (merged on its miss; 4.2's in-order write stage).  9: where
 * the base traces' gaps fall to a flat tail of separate misses
 * (bench/m2s-model/v16/CRITERION) */
#define BURST_GAP 9
typedef struct cwf {
    uint64_t key, seq;          /* its slice and id; its order of begin */
    uint32_t nd, wg, pid;       /* ND-range, work-group, its pending ND-range's id */
    uint32_t sli;               /* its slice in the collector's sl */
    uint16_t cu, simd;
    uint64_t begin, end, last;  /* traced; last: its last event's cycle */
    uint64_t prev;              /* own parts: its previous event's cycle (or begin) */
    uint8_t *buf;               /* its events, encoded */
    uint32_t len, cap, n;
    /* its vector memory events in order: the first ndone their completion's
     * distance after their issue (a done mark's, rft(5)) + 1, the others
     * their issue's low 32 bits until their mark comes */
    uint32_t *vmd, nvm, capvm, ndone;
    uint32_t twins;
    int ended;
    /* the open event, at the collector's cycle */
    int open;
    uint8_t o_unit, o_store, last_wrote;
    /* marks: an s_waitcnt, an s_barrier before its next event (unit records
     * wait, barrier); the traced cycle of its last vector memory access
     * since its last wait (+ 1; 0 none) */
    uint8_t wait, bar;
    uint64_t vm_at;
    uint64_t lds_arr;           /* its next LDS access's arrival (an arrive mark; + 1, 0 none) */
    uint64_t alu_i;             /* its last event a vector ALU instruction: 1 + its
                                   index among its slice's (cslice.nalu), else 0 */
    uint32_t nbar;              /* barriers passed */
    /* v13, the scalar unit's marks: its scalar loads in order (sld: the
     * first nsdone their write's distance after their issue + 1, an sdone
     * mark's, the others their issue's low 32 bits; each one's slot in its
     * compute unit's ring); those since its last event (snew:
     * serial, cycle pairs); the start of a wait behind scalar loads not yet
     * released (+ 1), the cycles waited since its last event, and the last
     * wait's release (+ 1; 0 none), the loads it waited for (serials, the
     * latest first) and the last one's write */
    sload_t *sld;
    uint32_t nsld, capsld, nsdone;
    uint64_t *snew, *sbl;
    uint32_t nsnew, capsnew, nsbl, capsbl;
    uint64_t sh_at, s_st, s_rel, s_bw;
    uint32_t wgi;               /* its work-group's barrier state: the collector's wgs */
    uint32_t o_wake, o_mov, o_misp, o_lds;
    /* a patched stream's scheme state (replay.c's write_events) */
    uint8_t *place;
    uint16_t nregs;
    uint8_t pend, have_full;
    uint8_t *full;
} cwf;

typedef struct {
    int has_prev, cur_set;
    uint64_t prev_c, prev_wmax;     /* its last cycle with a vector ALU event, the latest
                                       wavefront (order of begin) of that cycle's */
    uint64_t cur_c, cur_min, cur_max;
    uint64_t nalu;              /* its cycles with a vector ALU instruction so far */
} cslice;

typedef struct { uint32_t nd, id, alive; } pnd;     /* an ND-range not yet timed */

/* A work-group's barriers as traced: the cycle of its wavefronts' latest
 * event, and the release of its last barrier passed (its nbar-th), the
 * latest event before the first wavefront's event after that barrier */
typedef struct { uint64_t last, rel; uint32_t nbar; } cwgs;

/* One run of the model: a configuration, the scheme's events or not, and
 * its state between ND-ranges. */
typedef struct {
    const rft_m2scfg *cfg;
    int scheme;
    int timed;                  /* an ND-range timed already */
    uint64_t clock, prev_traced_end;
    /* the units' free times, one block (run_times() of them, reset, copied
     * and freed as one): per compute unit its SIMDs' (num_pools each), then
     * per compute unit its write stage's, the traced write stage's, its
     * LDS's write stage's and its LDS free for the next access */
    uint64_t *times;
    uint64_t *simd_free, *vm_free, *vm_free_tr, *lds_free, *lds_srv;    /* in times */
    /* 2: 4.2's list of compute units with a free slot, in the order they
     * freed one (a ring; in it or not) */
    uint32_t *cuq, qh, qn;
    uint8_t *inq;
} mrun;

/* 4.2's list of compute units with a free slot: every one, in order, at the
 * start; one that frees a slot goes to its end unless it is in it */
static void run_reset(mrun *R)
{
    uint32_t n = R->cfg->num_cu;
    for (uint32_t i = 0; i < n; i++)
        R->cuq[i] = i, R->inq[i] = 1;
    R->qh = 0, R->qn = n;
}
static void cu_enqueue(mrun *R, uint32_t cu)
{
    uint32_t n = R->cfg->num_cu;
    if (R->inq[cu])
        return;
    R->cuq[(R->qh + R->qn) % n] = cu;
    R->qn++, R->inq[cu] = 1;
}

/* the free times of a run's units (mrun.times) */
static size_t run_times(const rft_m2scfg *g) { return (size_t)g->num_cu * (g->num_pools + 4); }

/* an ND-range's result; pb, pw: its spans at the traced and what-if
 * configurations with placement k + 1 perturbed (col.nplace of them) */
typedef struct {
    uint32_t nd;
    uint64_t traced, cyc[3], instr, ev[4];
    uint64_t pb[RFT_CM_PLACE_MAX], pw[RFT_CM_PLACE_MAX];
} ndrow;

/* v13: a scalar load's write in a run (col.mr, by serial modulo MRING):
 * 1 + its serial, the run_nd call, its write (v17: in a burst, no sooner
 * than that; its burst's root's serial + 1 and its traced distance after
 * the root's write, sload_w); where it is a burst's root, the burst's
 * miss return in the run (1 + the serial, the call, the return: the
 * earliest issue of its loads put so far plus the miss's latency) */
#define MRING 8192
typedef struct { uint64_t ser1, gen, w, root1, gser1, ggen, ret; uint32_t off; } mload;

/* RC, PW: runs B's and W's states before an ND-range, kept to calibrate it
 * (RC) and to time it with placements perturbed (col.nplace) in XB, XW */
enum { RB, RW, RS, RC, PW, XB, XW, NRUNS };

typedef struct col {
    rft_m2scfg traced, whatif;
    rft_cm_scheme sc;
    int scheme;                 /* run S made */
    int events;                 /* the stream's scheme events read */
    int waits;                  /* the stream marks its s_waitcnt waits (wait unit records) */
    uint64_t *lds_last;         /* per traced compute unit: its LDS's last completion (+ 1) */
    uint32_t caplds;
    rft_map crmap;              /* v13: traced compute unit -> its ring in cr */
    cring *cr;                  /* the last scalar loads of the compute units that had one */
    uint32_t ncr, capcr;
    uint64_t nser;              /* scalar loads so far (their serials) */
    uint64_t slat1;             /* v14: their shortest traced latency + 1 (0 none yet) */
    mload *mr;                  /* the runs' scalar loads' writes, by serial (MRING) */
    uint64_t mgen;              /* run_nd's calls so far: an entry of mr is the call's */
    uint64_t lds_seen, lds_marked;  /* LDS accesses, those with an arrive mark */
    uint32_t cus_seen;          /* 1 + the highest compute unit a wavefront began on */
    int counted;                /* the scheme run charges something */
    uint32_t degraded, max_wg;
    int wfrule;
    uint32_t issue, i0;
    rft_geom geom;
    int patched;
    rft_stage *st;              /* the stage whose memory budget the wavefronts count in */
    int refused;                /* the budget refused them: the stage has said why */
    rft_pattern_opts po;
    int same;                   /* what-if = traced: run W is run B */
    mrun run[NRUNS];            /* B: traced, W: what-if, S: what-if with the scheme,
                                   the others above */
    int calibrate;              /* rft_replay_opts.cu_calibrate */
    uint32_t nplace;            /* rft_replay_opts.cu_placements */
    rft_cm_cal cal;
    int diverged;               /* S's state is no longer W's */
    /* wavefronts alive (not timed), in order of begin */
    cwf *wf;
    uint32_t nwf, capwf;
    uint64_t seq;
    rft_map wmap;               /* wavefront key (rft_wf_key) -> index in wf */
    rft_map wgmap;              /* ND-range id << 32 | work-group -> index in wgs */
    cwgs *wgs;
    uint32_t nwgs, capwgs;
    rft_slices smap;            /* slice -> index in sl */
    cslice *sl;
    uint32_t nsl, capsl;
    uint32_t *open, nopen, capopen, *touched, ntouched, captouched;
    uint64_t now;
    int started;
    pnd *pend;
    uint32_t npend, cappend, nextid;
    /* what the model takes from the ND-ranges timed so far */
    uint32_t tmax;
    /* the ND-ranges timed, kept (encoded) while they take no more than
     * RFT_CM_KEEP bytes, to be timed again at the end with the whole
     * stream's cap if theirs was lower */
    int keep;
    uint64_t keep_max;          /* RFT_CM_KEEP, or the option's */
    int approximate;            /* not kept, and the cap rose after an ND-range was timed */
    cwf *kept;
    uint32_t nkept, capkept;
    pnd *kpend;
    uint32_t nkpend, capkpend;
    uint64_t kept_bytes;
    uint32_t tmax_low;          /* the lowest tmax an ND-range was timed with */
    uint64_t first, trace_end, instr;
    int any;
    ndrow *rows;
    uint32_t nrows, caprows;
    uint64_t evs[4];
} col;

static int col_init(col *c, const rft_m2scfg *traced, const rft_m2scfg *whatif, int scheme,
                    uint32_t issue)
{
    c->traced = *traced, c->whatif = *whatif;
    c->scheme = c->events = scheme;
    c->issue = issue ? issue : 4;
    c->i0 = simd_interval(&c->traced, c->issue);
    /* the keys the model does not use (other[], last) do not make a what-if
     * run of their own: it would time the same as the traced one */
    c->same = memcmp(&c->traced, &c->whatif, offsetof(rft_m2scfg, other)) == 0;
    c->keep = 1;
    c->keep_max = RFT_CM_KEEP;
    if (rft_map_init(&c->wmap, 256) || rft_map_init(&c->wgmap, 64) || rft_map_init(&c->crmap, 16) ||
        rft_slices_init(&c->smap))
        return -1;
    c->tmax_low = UINT32_MAX;
    rft_pattern_opts_default(&c->po);
    return 0;
}

/* bytes of the model's state about to be allocated, counted in the stage's
 * memory budget (none without a stage) as what fmt names: 0, or -1 with
 * c->refused set and the stage's message.  fmt is one of this file's
 * literals with numbers only (72 bytes at most with every %u at
 * UINT32_MAX), never a user's string: what[] holds it whole, as
 * rft_stage_reserve_slice's own name does. */
static int col_reserve(col *c, uint64_t bytes, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
static int col_reserve(col *c, uint64_t bytes, const char *fmt, ...)
{
    if (!c->st)
        return 0;
    char what[96];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(what, sizeof what, fmt, ap);
    va_end(ap);
    if (rft_stage_reserve(c->st, bytes, what)) {
        c->refused = 1;
        return -1;
    }
    return 0;
}

static const rft_m2scfg *run_cfg(const col *c, int r)
{
    return r == RB || r == RC || r == XB ? &c->traced : &c->whatif;
}

/* run C only to calibrate or perturb placements, PW to XW only for the latter */
static int run_used(const col *c, int r)
{
    return r < RC || (r == RC && (c->calibrate || c->nplace)) || (r > RC && c->nplace);
}

/* The runs' (three; four to calibrate) compute units (their SIMDs', write stages' and LDS's
 * free times, the dispatcher's list): NumComputeUnits of the ini, which
 * may ask for any number, so counted in the stage's memory budget first
 * (rft_stage_reserve: the message names the configuration): 0, or -1
 * (refused set when the budget refused them). */
static int col_runs(col *c)
{
    uint64_t bytes = 0;
    for (int r = 0; r < NRUNS; r++) {
        if (!run_used(c, r))
            continue;
        const rft_m2scfg *g = run_cfg(c, r);
        const mrun *R = &c->run[r];     /* its arrays' element sizes, as allocated below */
        bytes += (uint64_t)run_times(g) * sizeof *R->times +
                 (uint64_t)g->num_cu * (sizeof *R->cuq + sizeof *R->inq);
    }
    if (col_reserve(c, bytes, "the compute units of the configuration (%u, of %u pools)",
                    c->whatif.num_cu > c->traced.num_cu ? c->whatif.num_cu : c->traced.num_cu,
                    c->whatif.num_pools > c->traced.num_pools ? c->whatif.num_pools
                                                              : c->traced.num_pools))
        return -1;
    for (int r = 0; r < NRUNS; r++) {
        if (!run_used(c, r))
            continue;
        const rft_m2scfg *g = run_cfg(c, r);
        mrun *R = &c->run[r];
        R->cfg = g;
        R->scheme = r == RS;
        R->times = calloc(run_times(g), sizeof *R->times);
        R->cuq = malloc(g->num_cu * sizeof *R->cuq);
        R->inq = malloc(g->num_cu);
        if (!R->times || !R->cuq || !R->inq)
            return -1;
        R->simd_free = R->times;
        R->vm_free = R->simd_free + (size_t)g->num_cu * g->num_pools;
        R->vm_free_tr = R->vm_free + g->num_cu;
        R->lds_free = R->vm_free_tr + g->num_cu;
        R->lds_srv = R->lds_free + g->num_cu;
        run_reset(R);
    }
    return 0;
}

/* The ND-ranges timed no longer kept */
static void col_unkeep(col *c)
{
    for (uint32_t i = 0; i < c->nkept; i++)
        free(c->kept[i].buf), free(c->kept[i].vmd), free(c->kept[i].sld);
    free(c->kept), free(c->kpend);
    c->kept = NULL, c->kpend = NULL;
    c->nkept = c->capkept = c->nkpend = c->capkpend = 0;
    c->kept_bytes = 0;
    c->keep = 0;
}

static void col_free(col *c)
{
    for (uint32_t i = 0; i < c->nwf; i++) {
        cwf *f = &c->wf[i];
        free(f->buf), free(f->vmd), free(f->place), free(f->full);
        free(f->sld), free(f->snew), free(f->sbl);
    }
    free(c->wf);
    col_unkeep(c);
    rft_map_free(&c->wmap), rft_map_free(&c->wgmap), rft_map_free(&c->crmap);
    rft_slices_free(&c->smap);
    free(c->wgs), free(c->sl), free(c->open), free(c->touched), free(c->pend), free(c->rows);
    free(c->lds_last), free(c->cr), free(c->mr);
    for (int r = 0; r < NRUNS; r++)
        free(c->run[r].times), free(c->run[r].cuq), free(c->run[r].inq);
}

static cwf *col_find(col *c, uint64_t key)
{
    uint64_t *v = rft_map_get(&c->wmap, key);
    return v ? &c->wf[*v] : NULL;
}

static cslice *col_slice(col *c, uint16_t cu, uint16_t simd)
{
    long i = rft_slices_find(&c->smap, cu, simd);
    if (i >= 0)
        return &c->sl[i];
    if (rft_grow((void **)&c->sl, c->nsl, &c->capsl, sizeof *c->sl, 64) ||
        rft_slices_put(&c->smap, cu, simd, c->nsl))
        return NULL;
    memset(&c->sl[c->nsl], 0, sizeof *c->sl);
    return &c->sl[c->nsl++];
}

/* A patched stream's per-register state of a wavefront of nregs registers */
static uint64_t patch_bytes(uint16_t nregs) { return (nregs ? nregs : 1) + RFT_MAX_LANES / 8; }

/* f's work-group's barrier state (a new one, *fresh set, for its first
 * wavefront): 0, or -1 out of memory.  At most one a wavefront alive, 20
 * bytes against a wavefront's 200: not counted apart in the budget. */
static int col_wg(col *c, cwf *f, int *fresh)
{
    uint64_t k = (uint64_t)f->pid << 32 | f->wg;
    const uint64_t *v = rft_map_get(&c->wgmap, k);
    *fresh = !v;
    if (v) {
        f->wgi = (uint32_t)*v;
        return 0;
    }
    if (rft_grow((void **)&c->wgs, c->nwgs, &c->capwgs, sizeof *c->wgs, 64) ||
        rft_map_put(&c->wgmap, k, c->nwgs))
        return -1;
    c->wgs[c->nwgs] = (cwgs){0, 0, 0};
    f->wgi = c->nwgs++;
    return 0;
}

/* The wavefronts' state, bytes more for the one of key, counted in the
 * process's memory budget before it is allocated, as the replay's
 * (rft_stage_reserve, issue 31 item 6): 0, or -1 with the stage's message. */
static int col_charge(col *c, uint64_t bytes, uint64_t key, uint16_t nregs)
{
    if (!c->st)
        return 0;
    if (rft_stage_reserve_wf(c->st, bytes, (uint32_t)key, (uint16_t)(key >> 48),
                             (uint16_t)(key >> 32), nregs)) {
        c->refused = 1;
        return -1;
    }
    return 0;
}

static int col_begin(col *c, uint64_t key, uint32_t nd, uint32_t wg, uint16_t cu, uint16_t simd,
                     uint64_t cycle, uint16_t nregs)
{
    if (c->nwf + 1 > c->capwf &&
        col_charge(c, (uint64_t)(c->capwf ? c->capwf : 256) * sizeof *c->wf, key, nregs))
        return -1;
    if (rft_grow((void **)&c->wf, c->nwf, &c->capwf, sizeof *c->wf, 256))
        return -1;
    if (!c->seq)
        c->first = cycle;
    pnd *p = NULL;
    for (uint32_t i = c->npend; i-- > 0;)
        if (c->pend[i].nd == nd) {
            p = &c->pend[i];
            break;
        }
    if (!p) {
        if (rft_grow((void **)&c->pend, c->npend, &c->cappend, sizeof *c->pend, 4))
            return -1;
        p = &c->pend[c->npend++];
        *p = (pnd){nd, c->nextid++, 0};
    }
    p->alive++;
    if ((uint32_t)cu + 1 > c->cus_seen)
        c->cus_seen = (uint32_t)cu + 1;
    cwf *f = &c->wf[c->nwf];
    *f = (cwf){.key = key, .seq = c->seq++, .nd = nd, .wg = wg, .pid = p->id, .cu = cu,
               .simd = simd, .begin = cycle, .end = cycle, .prev = cycle};
    if (c->patched && c->events) {
        if (col_charge(c, patch_bytes(nregs), key, nregs))
            return -1;
        f->place = calloc(nregs ? nregs : 1, 1);
        f->full = calloc(RFT_MAX_LANES / 8, 1);
        if (!f->place || !f->full) {
            free(f->place), free(f->full);
            return -1;
        }
        f->nregs = nregs;
    }
    cslice *sl = col_slice(c, cu, simd);
    int fresh;
    if (!sl || rft_map_put(&c->wmap, key, c->nwf) || col_wg(c, f, &fresh))
        return -1;
    f->sli = (uint32_t)(sl - c->sl);
    c->nwf++;
    return 0;
}

static void col_end(col *c, cwf *f, uint64_t cycle)
{
    if (f->ended)
        return;
    f->end = cycle, f->ended = 1;
    for (uint32_t i = 0; i < c->npend; i++)
        if (c->pend[i].id == f->pid) {
            c->pend[i].alive--;
            break;
        }
}

/* A record of f's at the collector's cycle c (cm_event's rules) */
static int col_event(col *c, cwf *f, uint8_t unit, int store, int write, const uint32_t *sch)
{
    uint64_t t = c->now;
    if (f->ended)
        return 0;
    if (!f->n && !f->open && t == f->begin && write && !store)
        return 0;                       /* presets */
    if (f->open) {                      /* another record of the same instruction */
        if (unit == RFT_CM_VMEM || (unit == RFT_CM_LDS && f->o_unit == RFT_CM_ALU))
            f->o_unit = unit;
        /* a store is an instruction with a unit record and no register
         * written, whichever of its records (R, U, W) comes first */
        if (write && !store)
            f->o_store = 0, f->last_wrote = 1;
        else if (store && !f->last_wrote)
            f->o_store = 1;
    } else {
        if (rft_grow((void **)&c->open, c->nopen, &c->capopen, sizeof *c->open, 64))
            return -1;
        c->open[c->nopen++] = (uint32_t)(f - c->wf);
        f->open = 1;
        f->o_unit = unit, f->o_store = store != 0;
        f->last_wrote = write && !store;
        f->o_wake = f->o_mov = f->o_misp = f->o_lds = 0;
    }
    if (sch)
        f->o_wake += sch[0], f->o_mov += sch[1], f->o_misp += sch[2], f->o_lds += sch[3];
    return 0;
}

/* v13: f's traced compute unit's ring of scalar loads, NULL if it has none;
 * with make, a new one counted in the stage's memory budget (a stream's
 * compute unit may be any of 65536: only those with a scalar load have
 * one), and the runs' writes of the loads with the first: NULL, out of
 * memory or refused */
static cring *col_cring(col *c, const cwf *f, int make)
{
    uint64_t *i = rft_map_get(&c->crmap, f->cu);
    if (i || !make)
        return i ? &c->cr[*i] : NULL;
    if (!c->mr && (col_charge(c, MRING * sizeof *c->mr, f->key, f->nregs) ||
                   !(c->mr = calloc(MRING, sizeof *c->mr))))
        return NULL;
    if (col_charge(c, sizeof *c->cr, f->key, f->nregs) ||
        rft_grow((void **)&c->cr, c->ncr, &c->capcr, sizeof *c->cr, 4) ||
        rft_map_put(&c->crmap, f->cu, c->ncr))
        return NULL;
    memset(&c->cr[c->ncr], 0, sizeof *c->cr);
    return &c->cr[c->ncr++];
}

/* v13, the scalar unit's marks (rft(5)) at the collector's cycle: a scalar
 * load of f's issued (sload; its serial, in its compute unit's ring) or its
 * oldest not yet written written (sdone); an instruction of f's began
 * waiting behind scalar loads (shold) or was written (srel: the loads it
 * waited for) */
static int col_scalar(col *c, cwf *f, uint8_t mark)
{
    uint64_t now = c->now;
    if (mark == RFT_WF_SHOLD) {
        f->sh_at = now + 1;
        return 0;
    }
    /* no ring: its load refused, or no load on its compute unit (none done, none
     * waited for) */
    cring *r = col_cring(c, f, mark == RFT_WF_SLOAD);
    if (!r && mark == RFT_WF_SLOAD)
        return -1;
    if (mark == RFT_WF_SLOAD) {
        if (rft_grow((void **)&f->sld, f->nsld, &f->capsld, sizeof *f->sld, 4) ||
            rft_grow((void **)&f->snew, f->nsnew, &f->capsnew, 2 * sizeof *f->snew, 4))
            return -1;
        uint64_t ser = c->nser++, slot = r->n++;
        r->e[slot % CRING] = (cload){slot + 1, ser, now, 0};
        f->sld[f->nsld++] = (sload_t){0, (uint32_t)now, (uint32_t)slot, 0, 0};
        f->snew[2 * f->nsnew] = ser, f->snew[2 * f->nsnew + 1] = now, f->nsnew++;
    } else if (mark == RFT_WF_SDONE) {
        if (r && f->nsdone < f->nsld) {
            sload_t *l = &f->sld[f->nsdone++];
            uint32_t d = (uint32_t)now - l->v;      /* modulo 2^32: the low bits */
            l->v = d < UINT32_MAX ? d + 1 : UINT32_MAX;
            if (!c->slat1 || (uint64_t)d + 1 < c->slat1)
                c->slat1 = (uint64_t)d + 1;
            cload *e = &r->e[l->slot % CRING];
            int kept = (uint32_t)e->slot1 == l->slot + 1;  /* its ring entry not reused */
            if (kept)
                e->write = now;
            /* v14, v16: written in the burst of the load before it (merged
             * on that one's miss or queued behind it: issued before its
             * write, r->lw - 1); else the root of its own */
            uint64_t issue = now - d, gap = now - (r->lw - 1);
            if (r->lroot1 && gap <= BURST_GAP && issue < r->lw - 1) {
                uint64_t o = r->loff + gap;
                l->root1 = r->lroot1, l->rlat = r->lrlat;
                l->off = o < UINT32_MAX ? (uint32_t)o : UINT32_MAX;
            } else {
                l->root1 = kept ? e->ser + 1 : 0, l->off = 0, l->rlat = d;
            }
            r->lw = now + 1, r->lroot1 = l->root1, r->loff = l->off, r->lrlat = l->rlat;
        }
    } else if (mark == RFT_WF_SREL && f->sh_at) {
        /* the loads it waited for: its compute unit's issued before it
         * began waiting and written from then to now (4.2 writes them in
         * the order they issued), of the last CRING */
        uint64_t h = f->sh_at - 1, best = 0;
        f->nsbl = 0;
        for (uint64_t k = r ? r->n : 0, i = 0; k-- > 0 && i < CRING; i++) {
            const cload *e = &r->e[k % CRING];
            if (e->issue < h && e->write >= h && e->write <= now) {
                if (rft_grow((void **)&f->sbl, f->nsbl, &f->capsbl, sizeof *f->sbl, 8))
                    return -1;
                f->sbl[f->nsbl++] = e->ser;     /* the latest first */
                best = umax(best, e->write);
            }
        }
        f->s_st += now - h, f->sh_at = 0;
        f->s_rel = f->nsbl ? now + 1 : 0, f->s_bw = best;
    }
    return 0;
}

/* A mark (RFT_WF_WAIT, RFT_WF_BARRIER: no instruction): f's next event
 * came after an s_waitcnt, an s_barrier */
static void col_mark(col *c, cwf *f, uint8_t mark)
{
    if (mark == RFT_WF_ARRIVE) {
        f->lds_arr = c->now + 1;
        return;
    }

    if (mark & RFT_WF_WAIT)
        f->wait = 1, c->waits = 1;
    if (mark & RFT_WF_BARRIER)
        f->bar = 1;
}

/* A done mark: f's oldest vector memory access not yet completed completed
 * at cycle t (its distance kept, + 1; a mark with none pending: ignored) */
static void col_done(cwf *f, uint64_t t)
{
    if (f->ndone < f->nvm) {
        uint32_t d = (uint32_t)t - f->vmd[f->ndone];    /* modulo 2^32: the low bits */
        f->vmd[f->ndone++] = d < UINT32_MAX ? d + 1 : UINT32_MAX;
    }
}

/* The events open at the collector's cycle closed: each one's own part,
 * its traced gap less its SIMD wait (a vector ALU instruction issued right
 * after another wavefront's on its slice, within one issue interval, waited
 * for that one at most: the first of its cycle's, in order of begin, after
 * the latest of the slice's previous cycle with one) */
static int col_close(col *c)
{
    uint64_t now = c->now;
    c->ntouched = 0;
    for (uint32_t k = 0; k < c->nopen; k++) {
        cwf *f = &c->wf[c->open[k]];
        if (f->o_unit != RFT_CM_ALU)
            continue;
        cslice *s = &c->sl[f->sli];
        if (!s->cur_set) {
            if (rft_grow((void **)&c->touched, c->ntouched, &c->captouched, sizeof *c->touched, 64))
                return -1;
            c->touched[c->ntouched++] = (uint32_t)(s - c->sl);
            s->cur_set = 1, s->cur_c = now, s->cur_min = s->cur_max = f->seq;
        } else {
            s->cur_min = f->seq < s->cur_min ? f->seq : s->cur_min;
            s->cur_max = f->seq > s->cur_max ? f->seq : s->cur_max;
        }
    }
    for (uint32_t k = 0; k < c->nopen; k++) {
        cwf *f = &c->wf[c->open[k]];
        uint64_t waited = now;
        if (f->o_unit == RFT_CM_ALU) {
            const cslice *s = &c->sl[f->sli];
            if (f->seq == s->cur_min && s->has_prev && now - s->prev_c <= c->i0 &&
                s->prev_wmax != f->seq)
                waited = s->prev_c;
        }
        uint64_t ready = umax(f->prev, waited);
        if (f->o_unit == RFT_CM_LDS && f->lds_arr)     /* its arrival at its LDS */
            ready = umax(f->prev, f->lds_arr - 1);
        if (ready > now)
            ready = now;
        uint64_t own = ready - f->prev;
        if (rft_grow_to((void **)&f->buf, &f->cap,
                        (uint64_t)f->len + DEV_MAX + 20ull * f->nsnew + 10ull * f->nsbl, 1, 16))
            return -1;
        uint8_t *p = f->buf + f->len;
        int sch = (f->o_wake | f->o_mov | f->o_misp | f->o_lds) != 0;
        /* a wait counts only after a vector memory access, the one it
         * waited for (hundreds of cycles in 4.2's memory system); one at an
         * s_waitcnt for scalar loads or LDS accesses alone keeps its whole
         * gap as its own part (4.2 held the wavefront until its LDS access
         * was done, and its write latency passes before an s_waitcnt) */
        uint64_t at = f->vm_at;
        uint64_t wait = f->wait && at ? 1 + (now - (at - 1)) : 0;
        /* an s_barrier: released at its work-group's last arrival (a
         * wavefront's last event before it), traced */
        cwgs *W = &c->wgs[f->wgi];
        uint64_t bar = 0;
        if (f->bar) {
            if (W->nbar == f->nbar)     /* the work-group's first past it: every */
                W->rel = umax(W->last, f->prev), W->nbar++;    /* event so far was before */
            bar = 1 + (now - (W->rel < now ? W->rel : now));
            f->nbar++, f->bar = 0;
        }
        /* an LDS access with an arrive mark: its completion's cycles after
         * the later of its arrival and its compute unit's LDS access before,
         * the LDS's service of it, queued behind that one (4.2's LDS takes a
         * compute unit's accesses one after another); its own part ends at
         * its arrival */
        uint64_t svc = 0;
        if (f->o_unit == RFT_CM_LDS) {
            if (f->cu >= c->caplds) {
                uint32_t was = c->caplds;
                if (rft_grow_to((void **)&c->lds_last, &c->caplds, (uint64_t)f->cu + 1,
                                sizeof *c->lds_last, 16))
                    return -1;
                memset(c->lds_last + was, 0, (c->caplds - was) * sizeof *c->lds_last);
            }
            uint64_t *ll = &c->lds_last[f->cu];
            uint64_t from = umax(ready, *ll ? *ll - 1 : 0);
            svc = f->lds_arr ? 1 + (now - (from < now ? from : now)) : 0;
            *ll = now + 1, f->lds_arr = 0;
            c->lds_seen++, c->lds_marked += svc != 0;
        }
        /* a vector ALU instruction after its wavefront's own, its own part
         * no longer than the SIMD's instructions from that one to the one
         * it waited for (its SIMD wait's, or itself) at the traced interval
         * and a quarter: it waited behind them (a lone wavefront's go one
         * per ReadExecWriteLatency, its own last holding the SIMD), and a
         * SIMD that takes them sooner takes that much off (v11) */
        uint64_t hold = 0;
        if (f->o_unit == RFT_CM_ALU && f->alu_i) {
            const cslice *s = &c->sl[f->sli];
            uint64_t nh = s->nalu - (f->alu_i - 1) - (ready < now);
            uint64_t held = c->i0 + (c->i0 / 4 ? c->i0 / 4 : 1);
            if (nh && own <= nh * held)     /* nalu >= alu_i: its last was counted */
                hold = nh;
        }
        f->alu_i = f->o_unit == RFT_CM_ALU ? c->sl[f->sli].nalu + 1 : 0;
        /* v13: the scalar loads since the event before (serials, cycles
         * after it); a wait behind scalar loads released since: the loads
         * it waited for, the cycles from the latest one's write to its
         * release and on to this event's ready, and the cycles of its own
         * part the waits took */
        uint64_t sdist = 0, sst = 0, sbd = 0;
        if (f->s_rel && ready >= f->s_rel - 1 && !bar) {
            sdist = 1 + (ready - (f->s_rel - 1));
            sbd = f->s_rel - 1 - f->s_bw;
            sst = f->s_st < own ? f->s_st : own;
        }
        f->s_rel = f->s_st = 0;
        uint64_t more = (uint64_t)sch | (uint64_t)(wait != 0) << 1 | (uint64_t)(bar != 0) << 2 |
                        (uint64_t)(svc != 0) << 3 | (uint64_t)(hold != 0) << 4 |
                        (uint64_t)(f->nsnew != 0) << 5 | (uint64_t)(sdist != 0) << 6;
        uint8_t b0 = (uint8_t)(f->o_unit | f->o_store << 2 | (more != 0) << 3 | (own & 7) << 4);
        *p++ = own >> 3 ? b0 | 0x80 : b0;
        if (own >> 3)
            p = put_leb(p, own >> 3);
        if (more)
            p = put_leb(p, more);
        if (sch) {
            p = put_leb(p, f->o_wake), p = put_leb(p, f->o_mov);
            p = put_leb(p, f->o_misp), p = put_leb(p, f->o_lds);
        }
        if (wait)
            p = put_leb(p, wait);
        if (bar)
            p = put_leb(p, bar);
        if (svc)
            p = put_leb(p, svc);
        if (hold)
            p = put_leb(p, hold);
        if (f->nsnew) {
            p = put_leb(p, f->nsnew);
            for (uint32_t i = 0; i < f->nsnew; i++)
                p = put_leb(p, f->snew[2 * i]), p = put_leb(p, 1 + (f->snew[2 * i + 1] - f->prev));
            f->nsnew = 0;
        }
        if (sdist) {
            p = put_leb(p, f->nsbl);
            for (uint32_t i = 0; i < f->nsbl; i++)
                p = put_leb(p, i ? f->sbl[i - 1] - f->sbl[i] : f->sbl[0]);
            p = put_leb(p, sbd);
            p = put_leb(p, sdist), p = put_leb(p, sst);
        }
        if (f->wait)
            f->wait = 0, f->vm_at = 0;
        if (f->o_unit == RFT_CM_VMEM) {
            f->vm_at = now + 1;
            if (rft_grow((void **)&f->vmd, f->nvm, &f->capvm, sizeof *f->vmd, 4))
                return -1;
            f->vmd[f->nvm++] = (uint32_t)now;
        }
        W->last = now;
        f->len = (uint32_t)(p - f->buf);
        f->n++;
        f->prev = f->last = now;
        f->open = 0;
    }
    for (uint32_t k = 0; k < c->ntouched; k++) {
        cslice *s = &c->sl[c->touched[k]];
        s->prev_c = s->cur_c, s->prev_wmax = s->cur_max, s->has_prev = 1, s->cur_set = 0;
        s->nalu++;
    }
    c->nopen = 0;
    return 0;
}

/* ---- the model, one ND-range -------------------------------------------- */
/* a wavefront's state in a run: its stores' latest write stage; its last
 * vector memory access's write stage since its last wait (0 none), that
 * access's issue and its completion's traced distance (+ 1; 0 no done
 * mark); at a barrier, its ready time otherwise and its traced cycles after
 * the release (+ 1; 0 not at one); its scalar loads timed, and its next
 * event's time without the anchor of its wait behind scalar loads (+ 1; 0
 * none) (v13) */
typedef struct { uint64_t stored, anchor, a_issue, park, pdist, sa; uint32_t vmk, a_dd, slk; } wst;

typedef struct {
    uint32_t nl;
    cwf **w;                    /* its wavefronts, in order of begin */
    uint32_t *order, *wgof, *next, ng;
    wst *s;                     /* per wavefront */
    uint64_t *slots;            /* per compute unit, sw words: its slots taken */
    uint32_t sw;
    const uint8_t **pos;
    dev *cur;
    wgrp *g;
    uint64_t tb, te, drain;
    /* the fewest traced cycles from a waited-for access's release (its
     * write stage + the traced WriteLatency) to the instruction after the
     * s_waitcnt: the pipeline's restart; UINT64_MAX: none seen */
    uint64_t restart;
    uint32_t *res_wg, *res_wf;
    heap h;
    /* v12: the traced accesses' mean latency where the traced buffer did
     * not pace them (run B's last, lf_sum / lf_n; lfree 0: none), which
     * the runs after B's use */
    uint64_t lf_sum, lf_n, lfree;
    uint32_t q;                 /* the calibration's factor of ALU own parts (RFT_CM_CAL_ONE: 1) */
    uint32_t seed, jit;         /* placement seed's perturbation: a work-group starts up to jit
                                   cycles late (place_delay); seed 0 none */
    /* v22: the memory as a queue (queue_fit), v24: one for the device (the
     * L2 and memory are shared: an access that comes later waits less
     * behind the other compute units').  Run B records its accesses with a
     * done mark in the order they issued: issue qr, completion qc, id qo
     * (vmo[its wavefront] + its index among the wavefront's); then the
     * service qs (1/256 cycles) and each access's wait at B's times, wref;
     * the other runs move a completion by their own wait (mq: the queue
     * free, 1/256 cycles) less that one, no nearer its issue than lmin, B's
     * shortest latency (qs 0: no queue) */
    uint32_t *vmo, *wref, *qo, nq, nqrec;
    uint64_t *qr, *qc, mq, qs, lmin;
} ndw;

/* The first free slot of a compute unit's (words with room for every
 * work-group it may hold), taken */
static uint32_t slot_take(uint64_t *w)
{
    uint32_t i = 0;
    while (!~w[i])
        i++;
    uint32_t b = (uint32_t)__builtin_ctzll(~w[i]);
    w[i] |= 1ull << b;
    return i * 64 + b;
}

/* A barrier of work-group G releases its wavefronts once every one not
 * ended has arrived: each is ready at the latest arrival plus its traced
 * cycles after the release, and no sooner than it would have been. */
static int barrier_release(ndw *D, wgrp *G, heap *h)
{
    if (!G->bar_n || G->bar_n < G->left)
        return 0;
    for (uint32_t j = 0; j < G->nwf; j++) {
        uint32_t ww = D->order[G->first_wf + j];
        if (D->s[ww].pdist) {
            uint64_t nr = umax(D->s[ww].park, G->bar_t + (D->s[ww].pdist - 1));
            D->s[ww].pdist = 0;
            if (hpush(h, HENT(nr, 1, ww)))
                return -1;
        }
    }
    G->bar_n = 0, G->bar_t = 0;
    return 0;
}

/* The traced cycles from the release of an access (dd: 1 + its completion's
 * distance after its issue, 0 no done mark) to the instruction dist after
 * its issue, waiting at an s_waitcnt (WriteLatency wl): 1 + them, 0 when
 * not known (an access with no mark, or an instruction before the release) */
static uint64_t post_release(uint64_t dist, uint32_t dd, uint32_t wl)
{
    uint64_t rel = dd ? (uint64_t)(dd - 1) + wl : 0;
    return dd && dist >= rel ? 1 + (dist - rel) : 0;
}

/* When the instruction after an s_waitcnt may issue, for the release of
 * its wavefront's last vector memory access (s): its traced distance dist
 * after that access's issue, kept after the access's write (v4); but where
 * the trace shows it issued later than the release (the write stage + the
 * traced WriteLatency wl) by more than the ND-range's restart, it was not
 * waiting for the access then, and that slack absorbs as much of a later
 * write, no sooner than its traced distance after the issue less what a
 * what-if took off the write (v10: what held it there, 4.2's in-order
 * scalar unit behind memory operations, comes sooner too) */
static uint64_t released(const ndw *D, const wst *s, uint64_t dist, uint32_t wl)
{
    uint64_t at = s->anchor + dist, post = post_release(dist, s->a_dd, wl);
    if (!post || post - 1 <= D->restart)    /* none seen: UINT64_MAX */
        return at;
    uint64_t floor = s->a_issue + dist;
    if (s->anchor && s->anchor < s->a_issue)   /* written sooner than traced */
        floor -= s->a_issue - s->anchor;
    return umax(at - (post - 1 - D->restart), floor);
}

/* v13: load ser's write in this run_nd call, NULL where it was not timed
 * in it (its ring entry another's or an earlier call's) */
static const mload *sload_timed(const col *c, uint64_t ser)
{
    const mload *m = &c->mr[ser % MRING];
    return m->ser1 == ser + 1 && m->gen == c->mgen ? m : NULL;
}

/* v17: the miss return of the burst whose root is load root1 - 1, NULL
 * where none of its loads was put in this run_nd call (kept in the root's
 * ring entry, tagged apart: the root itself may be put later, or not) */
static const mload *burst_timed(const col *c, uint64_t root1)
{
    const mload *g = &c->mr[(root1 - 1) % MRING];
    return g->gser1 == root1 && g->ggen == c->mgen ? g : NULL;
}

/* v13: the scalar loads of event ev of f's (base: the run's time of the
 * event before, or of f's begin) written in the run's ring at their issue
 * plus their traced latency (a load not written as traced: none) */
static void sload_put(col *c, const cwf *f, wst *s, const dev *ev, uint64_t base)
{
    const uint8_t *p = ev->sl;
    for (uint64_t i = 0; i < ev->nsl; i++) {
        uint64_t ser, off;
        p = get_leb(p, &ser), p = get_leb(p, &off);
        uint32_t k = s->slk++;
        if (k >= f->nsdone)
            continue;
        const sload_t *l = &f->sld[k];
        uint64_t at = base + (off - 1), w = at + (l->v - 1);
        /* v17: its burst's miss returns the miss's latency after the
         * earliest issue of its loads in this run (whichever wavefront
         * issued first): the burst's return, lowered by each load put */
        if (l->root1) {
            const mload *g0 = burst_timed(c, l->root1);
            uint64_t ret = g0 && g0->ret < at + l->rlat ? g0->ret : at + l->rlat;
            mload *g = &c->mr[(l->root1 - 1) % MRING];
            g->gser1 = l->root1, g->ggen = c->mgen, g->ret = ret;
            w = at + (c->slat1 - 1);
        }
        mload *m = &c->mr[ser % MRING];
        m->ser1 = ser + 1, m->gen = c->mgen, m->w = w, m->root1 = l->root1, m->off = l->off;
    }
}

/* v17: load m's write in the run, read when a wait reads it (every load
 * that issued before the wait put by then): in a burst, its traced
 * distance after the burst's first write, the burst's return as it
 * stands, no sooner than the shortest latency after its own issue (one
 * issued after the return hits, m->w) */
static uint64_t sload_w(const col *c, const mload *m)
{
    const mload *g = m->root1 ? burst_timed(c, m->root1) : NULL;
    return g ? umax(m->w, g->ret + m->off) : m->w;
}

/* v13: when the event after a wait behind scalar loads is ready, for the
 * run's writes of the loads it waited for (the latest of them): 0, none
 * timed in this call (their ring entries gone or others') */
static uint64_t sload_rel(const col *c, const dev *nx)
{
    const uint8_t *p = nx->blk;
    uint64_t ser = 0, w = 0, d;
    for (uint64_t i = 0; i < nx->nblk; i++) {
        p = get_leb(p, &d);
        ser = i ? ser - d : d;
        const mload *m = sload_timed(c, ser);
        if (m)
            w = umax(w, sload_w(c, m));
    }
    return w ? w + nx->sbd + (nx->sdist - 1) : 0;
}

/* A wavefront's next event in a run: its ALU-unit own part scaled by the
 * ND-range's calibration (RFT_CM_CAL_ONE: as traced) */
static void next_ev(ndw *D, uint32_t w)
{
    dev *d = &D->cur[w];
    D->pos[w] = dev_get(D->pos[w], d);
    if (d->unit == RFT_CM_ALU && D->q != RFT_CM_CAL_ONE)
        d->own = (d->own * D->q + RFT_CM_CAL_ONE / 2) / RFT_CM_CAL_ONE;
}

/* Placement k (seed, 1 ..): work-group i starts 0 to jit cycles late, a
 * hash of both; seed 0: on time */
static uint32_t place_delay(uint32_t seed, uint32_t jit, uint32_t i)
{
    if (!seed || !jit)
        return 0;
    uint64_t x = seed * 0x9E3779B97F4A7C15ull ^ (i + 1) * 0xBF58476D1CE4E5B9ull;
    x ^= x >> 31, x *= 0x94D049BB133111EBull, x ^= x >> 29;
    return (uint32_t)(x % ((uint64_t)jit + 1));
}

/* v24: an access issued at r: its wait in the device's memory queue
 * (FIFO, served every qs / 256 cycles), the queue taken */
static uint64_t queue_wait(ndw *D, uint64_t r)
{
    uint64_t r8 = r << 8, st = umax(r8, D->mq);
    D->mq = st + D->qs;
    return (st - r8) >> 8;
}

static int cmp_u64(const void *a, const void *b)
{
    uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
    return (x > y) - (x < y);
}

/* v22, after run B's last run (col_time): its accesses' mean latency T; the
 * device's most completions in any T cycles (its busiest stretch; v22
 * counted them a compute unit), m; the service T / m; each access's wait in
 * the queue at B's issues (recorded in issue order).  Fewer than 2 a
 * stretch: no queue. */
static void queue_fit(ndw *D)
{
    uint64_t n = D->nqrec, sum = 0, lmin = UINT64_MAX, m = 0;
    D->qs = 0;
    if (n < 2)
        return;
    for (uint64_t i = 0; i < n; i++) {
        uint64_t l = D->qc[i] - D->qr[i];
        sum += l, lmin = l < lmin ? l : lmin;
    }
    uint64_t T = sum / n;
    qsort(D->qc, n, sizeof *D->qc, cmp_u64);   /* the completions by time (qr, qo keep issue order) */
    for (uint64_t i = 0, j = 0; i < n; i++) {
        j = j < i ? i : j;
        while (j < n && D->qc[j] <= D->qc[i] + T)
            j++;
        m = j - i > m ? j - i : m;
    }
    if (!T || m < 2)
        return;
    D->qs = (T << 8) / m, D->lmin = lmin;
    D->mq = 0;
    for (uint64_t i = 0; i < n; i++) {
        uint64_t wt = queue_wait(D, D->qr[i]);
        D->wref[D->qo[i]] = wt < UINT32_MAX ? (uint32_t)wt : UINT32_MAX;
    }
}

static uint64_t run_nd(col *c, mrun *R, ndw *D)
{
    const rft_m2scfg *cfg = R->cfg, *traced = &c->traced;
    const rft_cm_scheme *S = R->scheme ? &c->sc : NULL;
    uint32_t issue = c->issue;
    uint32_t i1 = simd_interval(cfg, issue);
    /* v11: a SIMD that takes an instruction sooner than traced (cut
     * cycles) takes that much off each hold an event waited behind */
    uint32_t cut = i1 < c->i0 ? c->i0 - i1 : 0;
    int64_t d_vm = delta(cfg->vm_write_latency, traced->vm_write_latency);
    int64_t d_lds = delta(cfg->lds_write_latency, traced->lds_write_latency);
    uint32_t vm_int = ceil_div(cfg->vm_write_latency, cfg->vm_write_buffer);
    uint32_t vm_int_tr = ceil_div(traced->vm_write_latency, traced->vm_write_buffer);
    uint32_t wl_tr = traced->vm_write_latency;
    uint32_t lds_int = ceil_div(cfg->lds_write_latency, cfg->lds_write_buffer);
    uint32_t npools = cfg->num_pools, ncu = cfg->num_cu;
    uint32_t cap_wg = npools * cfg->max_wg_per_pool, cap_wf = npools * cfg->max_wf_per_pool;
    if (c->tmax && c->tmax < cap_wg)
        cap_wg = c->tmax;
    uint64_t *simd_free = R->simd_free, *vm_free = R->vm_free, *lds_free = R->lds_free;
    uint64_t *lds_srv = R->lds_srv;
    uint32_t *res_wg = D->res_wg, *res_wf = D->res_wf, *order = D->order, *next = D->next;
    wgrp *g = D->g;
    heap *h = &D->h;
    uint64_t tb = D->tb;
    /* 6: this ND-range starts once the previous ended everywhere */
    if (R->timed && tb > R->prev_traced_end)
        R->clock += tb - R->prev_traced_end;
    uint64_t start = R->timed ? R->clock : tb, end = start;
    c->mgen++;      /* c->mr: allocated with the first scalar load (col_cring) */
    memset(res_wg, 0, ncu * sizeof *res_wg);
    memset(res_wf, 0, ncu * sizeof *res_wf);
    memset(D->slots, 0, (size_t)ncu * D->sw * sizeof *D->slots);
    for (size_t i = 0; i < (size_t)ncu * npools; i++)
        simd_free[i] = umax(simd_free[i], start);
    uint32_t pend = 0, q1 = D->ng;
    int refb = R == &c->run[RB];
    if (refb)
        D->lf_sum = D->lf_n = 0, D->nqrec = 0;
    D->mq = 0;
    h->n = 0;
    uint64_t now = start;
#define DISPATCH()                                                                        \
    while (pend < q1 && R->qn) {                                                          \
        uint32_t best = R->cuq[R->qh];  /* the list's first: 4.2's dispatcher */          \
        R->qh = (R->qh + 1) % ncu, R->qn--, R->inq[best] = 0;                             \
        if (res_wg[best] && res_wf[best] + g[pend].nwf > cap_wf)                          \
            continue;               /* no room for its wavefronts: back when one ends */  \
        wgrp *G0 = &g[pend];                                                              \
        G0->cu = best, G0->left = G0->nwf, G0->end = now, G0->bar_n = 0, G0->bar_t = 0;   \
        G0->slot = slot_take(D->slots + (size_t)best * D->sw); /* its first free slot */  \
        G0->pool = G0->slot % npools;                          /* and that slot's pool */ \
        res_wg[best]++, res_wf[best] += G0->nwf;                                          \
        if (res_wg[best] < cap_wg)  /* room left: back at the list's end */               \
            cu_enqueue(R, best);                                                          \
        uint32_t late = place_delay(D->seed, D->jit, pend); /* a perturbed placement's */ \
        for (uint32_t j = 0; j < G0->nwf; j++) {                                          \
            uint32_t ww = order[G0->first_wf + j];                                        \
            const cwf *fw = D->w[ww];                                                     \
            uint64_t bb = now + (fw->begin - G0->first_begin) +                           \
                          (now == start ? G0->first_begin - tb : 0) + late;               \
            next[ww] = 0, D->s[ww] = (wst){0, 0, 0, 0, 0, 0, 0, 0, 0};                    \
            D->pos[ww] = fw->buf;                                                         \
            uint64_t rr = bb;                                                             \
            if (fw->n) {                                                                  \
                next_ev(D, ww);                                                           \
                rr = bb + D->cur[ww].own;                                                 \
                if (D->cur[ww].nsl)                                                       \
                    sload_put(c, fw, &D->s[ww], &D->cur[ww], bb);                         \
            }                                                                             \
            if (hpush(h, HENT(rr, 1, ww)))                                              \
                return UINT64_MAX;                                                        \
        }                                                                                 \
        pend++;                                                                           \
    }
    DISPATCH();
    while (h->n) {
        hent x = h->a[0];       /* popped below, or replaced by its successor */
        now = x.t;
        if (x.k >> 32 == 0) {      /* a work-group ends: its slot frees */
            hpop(h);
            wgrp *G = &g[(uint32_t)x.k];
            res_wg[G->cu]--, res_wf[G->cu] -= G->nwf;
            D->slots[(size_t)G->cu * D->sw + G->slot / 64] &= ~(1ull << (G->slot % 64));
            cu_enqueue(R, G->cu);
            end = umax(end, x.t);
            DISPATCH();
            continue;
        }
        uint32_t w = (uint32_t)x.k;
        const cwf *f = D->w[w];
        wgrp *G = &g[D->wgof[w]];
        if (next[w] < f->n && D->s[w].sa) {
            /* v13: 4.2's in-order scalar unit wrote the instruction before
             * this event once the scalar loads it waited for were written:
             * its traced distance after the latest of their writes, however
             * the wavefront's own time before changed (a slower SIMD's
             * cycles there are absorbed, as in 4.2); none of them timed,
             * the wait as traced */
            uint64_t a = sload_rel(c, &D->cur[w]), nr = a ? umax(x.t, a) : D->s[w].sa - 1;
            D->s[w].sa = 0;
            if (nr > x.t) {
                hreplace(h, HENT(nr, 1, w));
                continue;
            }
        }
        if (next[w] < f->n) {
            const dev *ev = &D->cur[w];
            uint64_t r = x.t, t, done = 0;
            uint32_t cu = G->cu, rep = 1;
            uint64_t *sf = &simd_free[(size_t)cu * npools + G->pool];
            if (S) {    /* the scheme's events before the instruction */
                r += (uint64_t)ev->wake * S->wakeup_cycles;
                if (ev->lds) {          /* the spilled registers' LDS loads */
                    uint64_t l = umax(r + S->lds_cycles, lds_free[cu]);
                    lds_free[cu] = l + (uint64_t)ev->lds * lds_int;
                    r = l;
                }
                if (ev->mov) {          /* the injected MOVs, on its SIMD */
                    uint64_t m = umax(r, *sf) + (uint64_t)ev->mov * S->mov_cycles;
                    *sf = r = m;
                }
                rep = 1 + f->twins;     /* the redundant twins' instructions after it */
            }
            if (ev->unit == RFT_CM_ALU) {       /* 1, 3: the SIMD, oldest ready first */
                uint64_t s = umax(r, *sf);
                *sf = s + (uint64_t)rep * i1;
                t = s;      /* 4.2 tracks no register: the wavefront goes on once it issued */
            } else if (ev->unit == RFT_CM_VMEM) {   /* 1: the write stage and its buffer */
                /* a shorter WriteLatency writes sooner than traced: a goes
                 * below the issue, never to 0 (anchor 0: none) */
                uint64_t a = d_vm < 0 ? add_d(r, d_vm, 1) : r + (uint64_t)d_vm;
                uint32_t k = D->s[w].vmk++, dd = k < f->ndone ? f->vmd[k] : 0;
                uint64_t wt;        /* its write, which the wavefront waits for at an
                                     * s_waitcnt and at its end */
                if (dd) {
                    /* completed dd - 1 cycles after its issue (a done mark):
                     * 4.2's write stage takes the accesses of a compute unit
                     * in the order they issued (only the oldest leaves the
                     * memory stage), each once it completed and the buffer
                     * has room; what it waits more than the traced buffer
                     * would have made it wait delays its write, not its
                     * wavefront at its issue; what it waits less (a
                     * faster buffer) brings it sooner */
                    uint64_t cpl = r + (dd - 1), cw = cpl;
                    /* its done mark is its write stage's: where the traced
                     * buffer paced it (it came within a cycle of that
                     * buffer's room), a faster buffer's write goes no
                     * later than the unpaced accesses' mean latency after
                     * its issue (v12) */
                    int paced = vm_int_tr > 1 && cpl <= R->vm_free_tr[cu] + 1;
                    if (refb && !paced)
                        D->lf_sum += dd - 1, D->lf_n++;
                    if (paced && vm_int < vm_int_tr && D->lfree && r + D->lfree < cpl)
                        cw = r + D->lfree;
                    uint32_t id = D->vmo[w] + k;
                    if (refb && D->nqrec < D->nq) {
                        D->qr[D->nqrec] = r, D->qc[D->nqrec] = cpl;
                        D->qo[D->nqrec++] = id;
                    } else if (D->qs && !refb) {    /* v22: its wait now, less B's */
                        int64_t dq = (int64_t)queue_wait(D, r) - D->wref[id];
                        cw = add_d(cw, dq, r + D->lmin);
                    }
                    uint64_t at = umax(cw, vm_free[cu]), a0 = umax(cpl, R->vm_free_tr[cu]);
                    vm_free[cu] = at + (uint64_t)rep * vm_int;
                    R->vm_free_tr[cu] = a0 + (uint64_t)rep * vm_int_tr;
                    wt = at >= a0 ? a + (at - a0) : add_d(a, -(int64_t)(a0 - at), 1);
                    t = r;
                } else {    /* no done mark: taken at its issue plus the latency's change;
                             * the wavefront goes on once the stage took a store, or a
                             * load it waits for at an s_waitcnt, else once it is done */
                    wt = umax(a, vm_free[cu]);
                    vm_free[cu] = wt + (uint64_t)rep * vm_int;
                    t = ev->store || c->waits ? r + (wt - a) : umax(r, wt);
                }
                D->s[w].anchor = wt, D->s[w].a_issue = r, D->s[w].a_dd = dd;
                if (ev->store)
                    D->s[w].stored = umax(D->s[w].stored, wt), done = wt;
            } else {                                /* 5: the LDS, in ready order */
                if (ev->svc) {  /* an arrive mark's access (col_close): its service after
                                 * the later of its arrival and the LDS's access before */
                    uint64_t st = umax(r, lds_srv[cu]);
                    lds_srv[cu] = st + (uint64_t)rep * (ev->svc - 1);
                    r = st + (ev->svc - 1);
                } else {                /* done at its own part: the next served after it */
                    lds_srv[cu] = umax(lds_srv[cu], r);
                }
                uint64_t a = add_d(r, d_lds, r);
                t = umax(a, lds_free[cu]);
                lds_free[cu] = t + (uint64_t)rep * lds_int;
                t = r + (t - a);    /* as a store: waited on only at an s_waitcnt */
            }
            if (S) {
                if (ev->misp) {         /* the pipeline stalls: the SIMD and the wavefront */
                    uint64_t st = (uint64_t)ev->misp * S->stall_cycles;
                    *sf = umax(*sf, t) + st;
                    t += st;
                }
                t += S->stages;         /* its result later, waited for */
            }
            next[w]++;
            uint64_t nr;
            if (next[w] < f->n) {
                const dev *nx = &D->cur[w];
                next_ev(D, w);
                nr = t + nx->own;
                if (cut && nx->hold) {
                    uint64_t off = nx->hold * cut;
                    nr = t + (nx->own > off ? nx->own - off : 0);
                }
                if (nx->nsl)    /* v13: its scalar loads after this event */
                    sload_put(c, f, &D->s[w], nx, t);
                /* v13: after a wait behind scalar loads, that wait is no
                 * longer part of the chain: the event is looked at again
                 * then (below), when every load that issued before it has
                 * been timed */
                uint64_t nr_s = nx->nblk ? (nr - t > nx->sst ? nr - nx->sst : t) : nr;
                uint64_t an = D->s[w].anchor;
                if (nx->wait && an) {
                    /* an s_waitcnt: ready when its last memory access is done
                     * (its traced distance after that access's write stage),
                     * or, done sooner, one issue interval after the event
                     * before: the rest of its traced gap was the wait */
                    uint64_t fe = nx->own < c->i0 ? nx->own : c->i0;
                    nr = nr_s = umax(t + fe, released(D, &D->s[w], nx->wait - 1, wl_tr));
                }
                if (nx->wait)
                    D->s[w].anchor = 0;
                if (nx->nblk)
                    D->s[w].sa = nr + 1, nr = nr_s;
                if (nx->bar) {  /* an s_barrier: it arrived at t; released at the
                                 * work-group's last arrival, then its traced
                                 * cycles after the release (the rest of its
                                 * own part was the wait for the others) */
                    uint64_t after = nx->bar - 1;
                    D->s[w].park = t + (nx->own < after ? nx->own : after);
                    if (nx->wait && an)
                        D->s[w].park = umax(D->s[w].park, released(D, &D->s[w], nx->wait - 1, wl_tr));
                    D->s[w].pdist = nx->bar;
                    G->bar_n++, G->bar_t = umax(G->bar_t, t);
                    hpop(h);
                    if (barrier_release(D, G, h))
                        return UINT64_MAX;
                    continue;
                }
            } else {    /* 4: s_endpgm completes after the wavefront's stores: the
                         * traced gap after the last event, a store's own
                         * latency in it; an earlier store's is not known */
                nr = umax(umax(t, done) + (f->end - f->last), D->s[w].stored);
            }
            hreplace(h, HENT(nr, 1, w));
            continue;
        }
        /* the wavefront ends at x.t */
        G->end = umax(G->end, x.t);
        if (--G->left == 0) {           /* 4: the work-group ends with its last wavefront */
            hreplace(h, HENT(G->end, 0, D->wgof[w]));
        } else {
            hpop(h);
            if (barrier_release(D, G, h))   /* it no longer holds the others */
                return UINT64_MAX;
        }
    }
#undef DISPATCH
    if (refb)
        D->lfree = D->lf_n ? D->lf_sum / D->lf_n : 0;
    R->clock = end;
    R->prev_traced_end = D->te;
    R->timed = 1;
    return end - start;
}

static void copy_run(col *c, mrun *to, const mrun *from)
{
    const rft_m2scfg *g = from->cfg;
    to->timed = from->timed, to->clock = from->clock, to->prev_traced_end = from->prev_traced_end;
    memcpy(to->times, from->times, run_times(g) * sizeof *to->times);
    memcpy(to->cuq, from->cuq, g->num_cu * sizeof *to->cuq);
    memcpy(to->inq, from->inq, g->num_cu);
    to->qh = from->qh, to->qn = from->qn;
    (void)c;
}

static uint64_t dist(uint64_t a, uint64_t b) { return a > b ? a - b : b - a; }
/* a span within RFT_CM_CAL_PCT of the traced one */
static int cal_close(uint64_t cyc, uint64_t traced)
{
    return (double)dist(cyc, traced) <= traced * (RFT_CM_CAL_PCT / 100);
}

/* Run B over ND-range D, its ALU own parts scaled (D->q) so that its span
 * comes within RFT_CM_CAL_PCT of the traced one (cumodel.h): as traced
 * first; past it, a bisection of the factor from B's state before (run C,
 * which the caller set), the closest kept.  Run B's span, or UINT64_MAX
 * (out of memory). */
static uint64_t calibrate(col *c, ndw *D, uint64_t traced)
{
    mrun *B = &c->run[RB], *K = &c->run[RC];
    uint64_t cyc = run_nd(c, B, D);
    c->cal.nd++;
    if (cyc != UINT64_MAX)
        c->cal.traced += traced, c->cal.before += cyc;
    if (cyc == UINT64_MAX || !traced || cal_close(cyc, traced))
        return cyc;
    uint64_t before = cyc, best = cyc;
    uint32_t qbest = RFT_CM_CAL_ONE, lo = RFT_CM_CAL_LO, hi = RFT_CM_CAL_HI;
    if (cyc > traced)   /* the span grows with the own parts */
        hi = RFT_CM_CAL_ONE;
    else
        lo = RFT_CM_CAL_ONE;
    for (int k = 0; k < RFT_CM_CAL_STEPS; k++) {
        /* the bounds first (where even they do not reach, no step between
         * does), then halves */
        uint32_t q = k == 0 ? (cyc > traced ? lo : hi) : lo + (hi - lo) / 2;
        copy_run(c, B, K);
        D->q = q;
        if ((cyc = run_nd(c, B, D)) == UINT64_MAX)
            return cyc;
        if (dist(cyc, traced) < dist(best, traced))
            best = cyc, qbest = q;
        if (cal_close(cyc, traced) || (k == 0 && (cyc > traced) == (before > traced)))
            break;
        if (cyc > traced)
            hi = q;
        else
            lo = q;
    }
    if (D->q != qbest) {    /* the closest was an earlier step: run again with it */
        copy_run(c, B, K);
        D->q = qbest;
        if ((cyc = run_nd(c, B, D)) == UINT64_MAX)
            return cyc;
    }
    if (qbest != RFT_CM_CAL_ONE) {
        rft_cm_cal *a = &c->cal;
        a->qmin = !a->scaled || qbest < a->qmin ? qbest : a->qmin;
        a->qmax = !a->scaled || qbest > a->qmax ? qbest : a->qmax;
        a->scaled++;
    }
    /* still off, scaled or not: every factor may move it further, and
     * then none is kept, but the note must still say it is off */
    c->cal.unreached += !cal_close(cyc, traced);
    return cyc;
}

typedef struct { uint32_t wg, w; } lkey;
static int lkey_cmp(const void *a, const void *b)
{
    const lkey *x = a, *y = b;
    if (x->wg != y->wg)
        return x->wg < y->wg ? -1 : 1;
    return x->w < y->w ? -1 : x->w > y->w;
}

/* SC healing (replay.c's twins): the redundant twins of the k-th of n
 * wavefronts of a work-group */
static uint32_t twins_of(const col *c, uint32_t n, uint32_t k)
{
    rft_heal_group hg;
    uint32_t nsc = c->geom.block_lanes;
    uint64_t deg = c->degraded >= 64 ? ~0ull : (1ull << c->degraded) - 1;
    if (rft_heal_group_rule(n * c->geom.lanes, deg, nsc, c->geom.lanes, c->max_wg, c->wfrule,
                            &hg) || hg.wf_healthy <= hg.wf_naive)
        return 0;
    uint32_t x = hg.wf_healthy - hg.wf_naive;
    return k < x ? 1 + (k == 0 && x > n ? x - n : 0) : 0;
}

/* Time pending ND-range p (its wavefronts all ended, or the stream over)
 * and free its wavefronts. */
static int col_time(col *c, uint32_t pi)
{
    pnd p = c->pend[pi];
    ndw D = {0};
    int rc = -1;
    uint64_t qbytes = 0;    /* v22's queue records, in the budget */
    uint32_t nl = 0;
    for (uint32_t i = 0; i < c->nwf; i++)
        nl += c->wf[i].pid == p.id;
    size_t n1 = nl ? nl : 1;
    uint32_t ncu = c->traced.num_cu > c->whatif.num_cu ? c->traced.num_cu : c->whatif.num_cu;
    lkey *kk = malloc(n1 * sizeof *kk);
    D.w = malloc(n1 * sizeof *D.w);
    D.order = malloc(n1 * sizeof *D.order);
    D.wgof = malloc(n1 * sizeof *D.wgof);
    D.next = malloc(n1 * sizeof *D.next);
    D.s = malloc(n1 * sizeof *D.s);
    D.pos = malloc(n1 * sizeof *D.pos);
    D.cur = malloc(n1 * sizeof *D.cur);
    D.g = malloc(n1 * sizeof *D.g);
    D.res_wg = calloc(ncu, sizeof *D.res_wg);
    D.res_wf = calloc(ncu, sizeof *D.res_wf);
    /* slots: as many as a compute unit may hold, no more than the
     * ND-range's work-groups (no more than its wavefronts), and one spare */
    uint64_t capmax = 0;
    for (int r = 0; r < 2; r++) {
        const rft_m2scfg *g = r ? &c->whatif : &c->traced;
        uint64_t cm = (uint64_t)g->num_pools * g->max_wg_per_pool;
        capmax = cm > capmax ? cm : capmax;
    }
    D.sw = (uint32_t)(((capmax < n1 ? capmax : n1) + 1 + 63) / 64);
    /* every compute unit's slot words: counted in the budget while it is timed */
    uint64_t sbytes = (uint64_t)ncu * D.sw * sizeof *D.slots;
    if (col_reserve(c, sbytes, "an ND-range's slots (%u compute units x %u words)", ncu, D.sw))
        sbytes = 0;
    D.slots = c->refused ? NULL : calloc((size_t)ncu * D.sw, sizeof *D.slots);
    iv *v = malloc(2 * n1 * sizeof *v);
    uint32_t *cnt = NULL;
    if (!kk || !D.w || !D.order || !D.wgof || !D.next || !D.s || !D.pos || !D.cur || !D.g ||
        !D.res_wg || !D.res_wf || !D.slots || !v)
        goto out;
    D.nl = nl;
    for (uint32_t i = 0, k = 0; i < c->nwf; i++)
        if (c->wf[i].pid == p.id)
            D.w[k++] = &c->wf[i];
    if (!c->started || !nl) {
        rc = 0;
        goto drop;
    }
    /* work-groups: wavefronts by (work-group, begin); a run of one is a
     * work-group (a wavefront without one is alone); groups then by first
     * begin */
    for (uint32_t i = 0; i < nl; i++)
        kk[i] = (lkey){D.w[i]->wg, i};
    qsort(kk, nl, sizeof *kk, lkey_cmp);
    for (uint32_t i = 0; i < nl; i++)
        D.order[i] = kk[i].w;
    uint32_t ng = 0;
    for (uint32_t i = 0; i < nl; i++) {
        const cwf *f = D.w[D.order[i]], *pf = i ? D.w[D.order[i - 1]] : NULL;
        if (!pf || pf->wg != f->wg || f->wg == RFT_NO_WG)
            D.g[ng++] = (wgrp){.first_wf = i, .nwf = 0, .first_begin = f->begin, .nd = 0};
        D.g[ng - 1].nwf++;
        if (f->begin < D.g[ng - 1].first_begin)
            D.g[ng - 1].first_begin = f->begin;
    }
    qsort(D.g, ng, sizeof *D.g, wg_cmp);
    {
        uint32_t k = 0;
        for (uint32_t q = 0; q < ng; q++) {
            for (uint32_t j = 0; j < D.g[q].nwf; j++) {
                D.wgof[k + j] = D.order[D.g[q].first_wf + j];
                D.next[D.order[D.g[q].first_wf + j]] = q;
            }
            D.g[q].first_wf = k;
            k += D.g[q].nwf;
        }
        memcpy(D.order, D.wgof, nl * sizeof *D.order);
        memcpy(D.wgof, D.next, nl * sizeof *D.wgof);
    }
    D.ng = ng;
    /* SC healing: each work-group's redundant wavefronts */
    if (c->degraded)
        for (uint32_t q = 0; q < ng; q++)
            for (uint32_t j = 0; j < D.g[q].nwf; j++) {
                cwf *f = D.w[D.order[D.g[q].first_wf + j]];
                f->twins = f->wg == RFT_NO_WG ? 0 : twins_of(c, D.g[q].nwf, j);
            }
    /* the most work-groups resident on one compute unit at once, traced:
     * it carries the register and LDS limits the trace cannot name */
    {
        uint16_t maxcu = 0;
        for (uint32_t q = 0; q < ng; q++) {
            uint64_t b = UINT64_MAX, e = 0;
            const cwf *f0 = D.w[D.order[D.g[q].first_wf]];
            for (uint32_t j = 0; j < D.g[q].nwf; j++) {
                const cwf *f = D.w[D.order[D.g[q].first_wf + j]];
                b = f->begin < b ? f->begin : b;
                e = umax(e, f->end);
            }
            v[2 * q] = (iv){b, 1, f0->cu};
            v[2 * q + 1] = (iv){e, -1, f0->cu};
            maxcu = f0->cu > maxcu ? f0->cu : maxcu;
        }
        cnt = calloc((size_t)maxcu + 1, sizeof *cnt);
        if (!cnt)
            goto out;
        size_t n = 2 * (size_t)ng;
        qsort(v, n, sizeof *v, ivcmp);       /* by time, ends before begins */
        for (size_t i = 0; i < n; i++) {
            if (v[i].d > 0) {
                if (++cnt[v[i].cu] > c->tmax)
                    c->tmax = cnt[v[i].cu];
            } else {
                cnt[v[i].cu]--;
            }
        }
    }
    /* its span, instructions, events */
    uint64_t tb = UINT64_MAX, te = 0, ninst = 0, evn[4] = {0};
    int need_s = c->degraded != 0 || c->sc.stages != 0;
    uint32_t wl = c->traced.vm_write_latency;
    D.restart = UINT64_MAX;
    for (uint32_t i = 0; i < nl; i++) {
        const cwf *f = D.w[i];
        tb = f->begin < tb ? f->begin : tb;
        te = umax(te, f->end);
        ninst += f->n;
        const uint8_t *q = f->buf;
        uint32_t nvm = 0, a_dd = 0;     /* its last access's since a wait: 1 + its distance */
        for (uint32_t k = 0; k < f->n; k++) {
            dev d;
            q = dev_get(q, &d);
            evn[0] += d.wake, evn[1] += d.mov, evn[2] += d.misp, evn[3] += d.lds;
            /* the restart: the fewest cycles after a release to the next issue */
            uint64_t post = d.wait ? post_release(d.wait - 1, a_dd, wl) : 0;
            if (post && post - 1 < D.restart)
                D.restart = post - 1;
            if (d.wait)
                a_dd = 0;
            if (d.unit == RFT_CM_VMEM) {
                a_dd = nvm < f->ndone ? f->vmd[nvm] : 0;
                nvm++;
            }
        }
    }
    /* v22: the accesses' ids, and the queue's records (in the budget) */
    D.vmo = malloc(n1 * sizeof *D.vmo);
    if (!D.vmo)
        goto out;
    uint64_t tot = 0;   /* more than 2^32 - 1 accesses in one ND-range: the ids would
                         * wrap (their 16 GiB of distances alone would not fit) */
    for (uint32_t i = 0; i < nl; i++)
        D.vmo[i] = (uint32_t)tot, tot += D.w[i]->nvm;
    if (tot > UINT32_MAX - 1)
        goto out;
    D.nq = (uint32_t)tot;
    size_t nq = D.nq ? D.nq : 1;
    qbytes = nq * (2 * sizeof *D.qr + sizeof *D.wref + sizeof *D.qo);
    if (col_reserve(c, qbytes, "an ND-range's memory queue (%u accesses)", D.nq)) {
        qbytes = 0;
        goto out;
    }
    D.wref = calloc(nq, sizeof *D.wref), D.qo = malloc(nq * sizeof *D.qo);
    D.qr = malloc(nq * sizeof *D.qr), D.qc = malloc(nq * sizeof *D.qc);
    if (!D.wref || !D.qo || !D.qr || !D.qc)
        goto out;
    c->trace_end = umax(c->trace_end, te);
    if (c->tmax < c->tmax_low)
        c->tmax_low = c->tmax;
    D.tb = tb, D.te = te;
    need_s |= (evn[0] | evn[1] | evn[2] | evn[3]) != 0;
    if (!c->degraded)
        for (uint32_t i = 0; i < nl; i++)
            need_s |= D.w[i]->twins != 0;
    ndrow row = {.nd = p.nd, .traced = te - tb, .instr = ninst};
    memcpy(row.ev, evn, sizeof evn);
    if (c->scheme && need_s && !c->diverged) {  /* S leaves W here: W's state before it */
        copy_run(c, &c->run[RS], c->same ? &c->run[RB] : &c->run[RW]);
        c->diverged = 1;
    }
    if (run_used(c, RC))    /* B's state before it; W's too, for its perturbed runs */
        copy_run(c, &c->run[RC], &c->run[RB]);
    if (c->nplace)
        copy_run(c, &c->run[PW], &c->run[RW]);
    /* run B first: its calibration's factor holds for the others */
    D.q = RFT_CM_CAL_ONE;
    if ((row.cyc[RB] = c->calibrate ? calibrate(c, &D, row.traced) : run_nd(c, &c->run[RB], &D)) ==
        UINT64_MAX)
        goto out;
    queue_fit(&D);      /* v22: from run B's last run, the calibration's steps aside */
    if (c->scheme && need_s) {
        if ((row.cyc[RS] = run_nd(c, &c->run[RS], &D)) == UINT64_MAX)
            goto out;
        c->counted = 1;
    }
    row.cyc[RW] = row.cyc[RB];
    if (!c->same && (row.cyc[RW] = run_nd(c, &c->run[RW], &D)) == UINT64_MAX)
        goto out;
    if (c->scheme && !need_s) {
        if (c->diverged) {
            if ((row.cyc[RS] = run_nd(c, &c->run[RS], &D)) == UINT64_MAX)
                goto out;
        } else {
            row.cyc[RS] = row.cyc[RW];
        }
    }
    /* the placements perturbed (a what-if's only: col.nplace): each from B's
     * and W's states before it, its work-groups started up to 2 issue
     * intervals late (place_delay) */
    D.jit = RFT_CM_PLACE_IV * c->i0;
    for (uint32_t k = 0; k < c->nplace; k++) {
        D.seed = k + 1;
        copy_run(c, &c->run[XB], &c->run[RC]);
        copy_run(c, &c->run[XW], &c->run[PW]);
        if ((row.pb[k] = run_nd(c, &c->run[XB], &D)) == UINT64_MAX ||
            (row.pw[k] = run_nd(c, &c->run[XW], &D)) == UINT64_MAX)
            goto out;
    }
    c->instr += ninst;
    for (int k = 0; k < 4; k++)
        c->evs[k] += evn[k];
    if (rft_grow((void **)&c->rows, c->nrows, &c->caprows, sizeof *c->rows, 16))
        goto out;
    c->rows[c->nrows++] = row;
    c->any = 1;
    rc = 0;
drop:   /* its wavefronts kept or freed, the others left in order; the map rebuilt */
    {
        uint32_t k = 0;
        if (c->keep && (rft_grow((void **)&c->kpend, c->nkpend, &c->capkpend, sizeof *c->kpend, 16) ||
                        rft_grow_to((void **)&c->kept, &c->capkept, (uint64_t)c->nkept + nl,
                                    sizeof *c->kept, 256)))
            col_unkeep(c);
        for (uint32_t i = 0; i < c->nwf; i++) {
            cwf *f = &c->wf[i];
            if (f->pid == p.id) {
                if (f->place && c->st)
                    rft_stage_release(c->st, patch_bytes(f->nregs));
                free(f->place), free(f->full);
                f->place = f->full = NULL;
                if (c->keep) {
                    if (f->len < f->cap) {
                        uint8_t *b = realloc(f->buf, f->len ? f->len : 1);
                        if (b)
                            f->buf = b, f->cap = f->len;
                    }
                    free(f->snew), free(f->sbl);    /* what its events encoded */
                    f->snew = f->sbl = NULL, f->nsnew = f->capsnew = f->nsbl = f->capsbl = 0;
                    c->kept[c->nkept++] = *f;
                    c->kept_bytes += sizeof *f + f->cap + (uint64_t)f->capvm * sizeof *f->vmd +
                                     (uint64_t)f->capsld * sizeof *f->sld;
                } else {
                    free(f->buf), free(f->vmd), free(f->sld), free(f->snew), free(f->sbl);
                }
                continue;
            }
            c->wf[k++] = *f;
        }
        c->nwf = k;
        if (c->keep) {
            c->kpend[c->nkpend++] = p;
            if (c->kept_bytes > c->keep_max)
                col_unkeep(c);
        }
        rft_map_free(&c->wmap), rft_map_free(&c->wgmap);
        int bad = rft_map_init(&c->wmap, c->nwf) || rft_map_init(&c->wgmap, 64);
        cwgs *old = c->wgs;     /* (a kept wavefront timed again has none: its events
                                   are encoded, its work-group's barriers with them) */
        uint32_t oldn = c->nwgs;
        c->wgs = NULL, c->nwgs = c->capwgs = 0;
        for (uint32_t i = 0; i < c->nwf && !bad; i++) {   /* the work-groups left */
            cwf *f = &c->wf[i];
            uint32_t was = f->wgi;
            int fresh;
            bad = rft_map_put(&c->wmap, f->key, i) || col_wg(c, f, &fresh);
            if (!bad && fresh && was < oldn)
                c->wgs[f->wgi] = old[was];
        }
        free(old);
        if (bad)
            rc = -1;
        memmove(&c->pend[pi], &c->pend[pi + 1], (c->npend - pi - 1) * sizeof *c->pend);
        c->npend--;
    }
out:
    if (c->st)
        rft_stage_release(c->st, sbytes + qbytes);
    free(D.vmo), free(D.wref), free(D.qo), free(D.qr), free(D.qc);
    free(kk), free(D.w), free(D.order), free(D.wgof), free(D.next), free(D.s), free(D.pos);
    free(D.cur);
    free(D.g), free(D.res_wg), free(D.res_wf), free(D.slots), free(v), free(cnt), free(D.h.a);
    return rc;
}

/* Move on to cycle t: the open events closed, then every ND-range the
 * stream has moved past timed (every wavefront of it ended, a later one
 * begun), in order */
static int col_at(col *c, uint64_t t)
{
    if (c->started && t <= c->now)
        return 0;
    if (c->started) {
        if (col_close(c))
            return -1;
        while (c->npend > 1 && c->pend[0].alive == 0)
            if (col_time(c, 0))
                return -1;
    }
    c->now = t;
    c->started = 1;
    return 0;
}

static int col_finish(col *c)
{
    if (c->started && col_close(c))
        return -1;
    for (uint32_t i = 0; i < c->nwf; i++) {
        cwf *f = &c->wf[i];
        if (f->n && f->end < f->last)
            f->end = f->last;         /* a wavefront without its end record */
    }
    while (c->npend)
        if (col_time(c, 0))
            return -1;
    int lower = c->tmax_low != c->tmax;
    c->approximate = lower && !c->keep;
    if (!c->keep || !lower)
        return 0;
    /* an ND-range was timed with a lower cap than the whole stream's:
     * every one timed again (the runs from the start) with the stream's */
    uint32_t tm = c->tmax;
    for (int r = 0; r < 3; r++) {
        mrun *R = &c->run[r];
        const rft_m2scfg *g = R->cfg;
        R->timed = 0, R->clock = R->prev_traced_end = 0;
        memset(R->times, 0, run_times(g) * sizeof *R->times);
        run_reset(R);
    }
    c->diverged = c->counted = c->any = 0;
    c->cal = (rft_cm_cal){0};
    c->nrows = 0;
    c->instr = c->trace_end = 0;
    memset(c->evs, 0, sizeof c->evs);
    free(c->wf), free(c->pend);
    c->wf = c->kept, c->nwf = c->nkept, c->capwf = c->capkept;
    c->pend = c->kpend, c->npend = c->nkpend, c->cappend = c->capkpend;
    c->kept = NULL, c->kpend = NULL, c->nkept = c->nkpend = 0;
    col_unkeep(c);
    c->tmax = tm;
    while (c->npend)
        if (col_time(c, 0))
            return -1;
    return 0;
}

/* ---- the whole trace at once ------------------------------------------- */
typedef struct { uint64_t t; uint32_t kind, w, j; } item;   /* kind 0 begin, 1 event, 2 end,
                                                                3 a done mark, 4 an arrive
                                                                mark */
static int item_cmp(const void *a, const void *b)
{
    const item *x = a, *y = b;
    if (x->t != y->t)
        return x->t < y->t ? -1 : 1;
    if (x->kind != y->kind)
        return x->kind < y->kind ? -1 : 1;
    if (x->w != y->w)
        return x->w < y->w ? -1 : 1;
    return x->j < y->j ? -1 : x->j > y->j;
}

int rft_cumodel_run(const rft_cm_trace *tr, const rft_m2scfg *traced, const rft_m2scfg *cfg,
                    const rft_cm_scheme *sch, rft_cm_result *total, rft_cm_result *nd_out,
                    uint32_t nnd_out, rft_cm_cal *cal)
{
    memset(total, 0, sizeof *total);
    if (nd_out)
        memset(nd_out, 0, nnd_out * sizeof *nd_out);
    if (!tr->nwf)
        return 0;
    col c = {0};
    int rc = -1;
    size_t ni = 2 * (size_t)tr->nwf + 2 * (size_t)tr->nev;
    item *it = malloc(ni * sizeof *it);
    c.calibrate = cal != NULL;
    if (!it || col_init(&c, traced, cfg, sch != NULL, tr->issue) || col_runs(&c))
        goto out;
    if (sch)
        c.sc = *sch;
    size_t k = 0;
    for (uint32_t w = 0; w < tr->nwf; w++) {
        it[k++] = (item){tr->wf[w].begin, 0, w, 0};
        for (uint32_t j = 0; j < tr->wf[w].n; j++) {
            const rft_cm_ev *e = &tr->ev[tr->wf[w].first + j];
            it[k++] = (item){e->cycle, 1, w, j};
            if (e->unit == RFT_CM_VMEM && e->done > e->cycle)
                it[k++] = (item){e->done, 3, w, j};
            else if (e->unit == RFT_CM_LDS && e->arrive && e->arrive < e->cycle)
                it[k++] = (item){e->arrive, 4, w, j};
        }
        it[k++] = (item){tr->wf[w].end, 2, w, 0};
    }
    qsort(it, k, sizeof *it, item_cmp);
    for (size_t i = 0; i < k; i++) {
        const rft_cm_wf *f = &tr->wf[it[i].w];
        if (col_at(&c, it[i].t))
            goto out;
        if (it[i].kind == 0) {
            if (col_begin(&c, it[i].w, f->ndrange, f->wg, f->cu, f->simd, f->begin, 0))
                goto out;
            c.wf[c.nwf - 1].twins = f->twins;
            continue;
        }
        cwf *x = col_find(&c, it[i].w);
        if (it[i].kind == 2) {
            col_end(&c, x, f->end);
            continue;
        }
        if (it[i].kind == 3) {
            col_done(x, it[i].t);
            continue;
        }
        if (it[i].kind == 4) {
            col_mark(&c, x, RFT_WF_ARRIVE);
            continue;
        }
        const rft_cm_ev *e = &tr->ev[f->first + it[i].j];
        uint32_t s4[4] = {e->wake, e->mov, e->misp, e->lds};
        col_mark(&c, x, e->mark);
        if (col_event(&c, x, e->unit, e->store, 0, s4))
            goto out;
    }
    if (col_finish(&c))
        goto out;
    int r = sch ? RS : RW;
    for (uint32_t i = 0; i < c.nrows; i++) {
        const ndrow *w = &c.rows[i];
        if (nd_out && w->nd < nnd_out) {
            nd_out[w->nd].traced += w->traced;
            nd_out[w->nd].cycles += w->cyc[r];
            nd_out[w->nd].instructions += w->instr;
        }
    }
    total->traced = c.trace_end - c.first;
    total->cycles = c.run[r].timed ? c.run[r].clock - c.first : 0;
    if (r == RW && c.same)
        total->cycles = c.run[RB].clock - c.first;
    if (r == RS && !c.diverged)
        total->cycles = (c.same ? c.run[RB] : c.run[RW]).clock - c.first;
    total->instructions = c.instr;
    if (cal)
        *cal = c.cal;
    rc = 0;
out:
    free(it);
    col_free(&c);
    return rc ? RFT_EMEM : 0;
}

/* ---- the stage: the stream timed as it goes ----------------------------- */
typedef struct {
    rft_stage head;
    int pass;
    rft_replay_opts o;
    col c;
    rft_map kname;              /* kernel index -> its name in names (first seen) */
    char **names;
    uint32_t nnames, capnames;
    rft_cm_row *rows;
    uint32_t nrows;
} cm_stage;

static uint8_t unit_of(uint8_t flags)
{
    return flags & RFT_WF_VMEM ? RFT_CM_VMEM : flags & RFT_WF_LDS ? RFT_CM_LDS : RFT_CM_ALU;
}

/* The scheme events of a write (replay.c's write_events): s4 wake-ups,
 * MOVs, mispredictions */
static void write_events(col *c, cwf *w, const rft_write *x, uint32_t *s4)
{
    if (x->on_bits != RFT_NO_GATE) {    /* rft-gate */
        s4[0] += (x->flags & RFT_WF_WAKEUP) != 0;
        s4[1] += (x->flags & RFT_WF_MOV) != 0;
    }
    if (c->patched && w->pend && w->full)
        rft_patch_write_cost(&c->geom, &c->po, x, &w->pend, w->place, w->nregs, w->full, &w->have_full,
                             &s4[1], &s4[2]);
}

static int cm_feed(rft_stage *st, rft_rec *rec, const rft_sink *out)
{
    cm_stage *s = (cm_stage *)st;
    col *c = &s->c;
    int rc = 0;
    uint16_t cu, simd;
    uint32_t wf;
    switch (rec->kind) {
    case RFT_KERNEL: {
        const rft_kernel *k = &rec->u.kernel;
        /* by a map, not a table by index: an index of 2^31 costs one name
         * (issue 31, item 1) */
        if (rft_map_get(&s->kname, k->index))
            break;
        char *nm = malloc((size_t)k->name_len + 1);
        if (!nm || rft_grow((void **)&s->names, s->nnames, &s->capnames, sizeof *s->names, 8) ||
            rft_map_put(&s->kname, k->index, s->nnames)) {
            free(nm);
            return rft_stage_fail(st, RFT_EMEM, "out of memory");
        }
        if (k->name_len)
            memcpy(nm, k->name, k->name_len);
        nm[k->name_len] = 0;
        s->names[s->nnames++] = nm;
        break;
    }
    case RFT_WFBEGIN: {
        const rft_wfbegin *b = &rec->u.begin;
        rc = col_at(c, b->cycle) ||
             col_begin(c, rft_wf_key(b->cu, b->simd, b->wf), b->kernel == RFT_NO_KERNEL ? 0 : b->kernel,
                       b->wg, b->cu, b->simd, b->cycle, b->nregs);
        break;
    }
    case RFT_WFEND: {
        rc = col_at(c, rec->u.end.cycle);
        cwf *f = col_find(c, rft_wf_key(rec->u.end.cu, rec->u.end.simd, rec->u.end.wf));
        if (f)
            col_end(c, f, rec->u.end.cycle);
        break;
    }
    case RFT_PATCH: {
        rft_patch_rec p;
        if (c->patched && c->events && rec->raw && rft_patch_parse(rec->raw, rec->len, &p) == 0) {
            cwf *f = col_find(c, rft_wf_key(p.cu, p.simd, p.wf));
            if (f)
                f->pend = p.place;
        }
        break;
    }
    case RFT_UNITREC: {
        rft_unitrec u;
        if (rec->raw && rft_unit_parse(rec->raw, rec->len, &u) == 0) {
            rc = col_at(c, u.cycle);
            cwf *f = col_find(c, rft_wf_key(u.cu, u.simd, u.wf));
            if (f && !rc && u.flags == RFT_WF_DONE)
                col_done(f, u.cycle);
            else if (f && !rc && rft_unit_scalar(u.flags))
                rc = col_scalar(c, f, u.flags);
            else if (f && !rc && (u.flags & RFT_WF_MARK))
                col_mark(c, f, u.flags);
            else if (f && !rc)
                rc = col_event(c, f, unit_of(u.flags), 1, 0, NULL);
        }
        break;
    }
    case RFT_WRITE: case RFT_READ: case RFT_BUNDLE:
        if (rft_rec_wf(rec, &cu, &simd, &wf)) {
            rc = col_at(c, rft_rec_cycle(rec));
            cwf *f = col_find(c, rft_wf_key(cu, simd, wf));
            if (f && !rc) {
                uint32_t s4[4] = {0};
                uint8_t unit = RFT_CM_ALU;
                if (rec->kind == RFT_WRITE) {
                    if (c->events)
                        write_events(c, f, &rec->w, s4);
                    unit = unit_of(rec->w.flags);
                } else if (rec->kind == RFT_READ && c->patched && c->events &&
                           rec->u.read.vreg < f->nregs && f->place &&
                           f->place[rec->u.read.vreg] == RFT_PATCH_LDS) {
                    s4[3] = 1;
                }
                rc = col_event(c, f, unit, 0, rec->kind == RFT_WRITE, s4);
            }
        }
        break;
    default:
        break;
    }
    if (rc)
        return c->refused ? RFT_EMEM : rft_stage_fail(st, RFT_EMEM, "out of memory");
    return s->pass ? out->put(out->ctx, rec) : 0;
}

static int cm_start(rft_stage *st, const rft_header *in, rft_header *out)
{
    cm_stage *s = (cm_stage *)st;
    col *c = &s->c;
    (void)out;
    if (col_runs(c))
        return c->refused ? RFT_EMEM : rft_stage_fail(st, RFT_EMEM, "out of memory");
    c->geom = in->geom;
    c->issue = in->geom.block_lanes ? in->geom.lanes / in->geom.block_lanes : 4;
    if (!c->issue)
        c->issue = 4;
    c->i0 = simd_interval(&c->traced, c->issue);
    c->patched = rft_header_get(in, "dcpatch") != NULL;
    const rft_replay_opts *o = &s->o;
    c->sc.stages = o->stages != RFT_REPLAY_AUTO ? o->stages : c->patched && o->scheme ? 2 : 0;
    if (o->degraded_scs && o->degraded_scs >= in->geom.block_lanes)
        return rft_stage_fail(st, RFT_EFORMAT, "--degraded-scs %u: a slice of this stream has %u "
                              "SCs (its block lanes): at most %u can rest", o->degraded_scs,
                              in->geom.block_lanes, in->geom.block_lanes ? in->geom.block_lanes - 1 : 0);
    return 0;
}

typedef struct { ndrow r; uint32_t i; } srow;
static int srow_cmp(const void *a, const void *b)
{
    const srow *x = a, *y = b;
    if (x->r.nd != y->r.nd)
        return x->r.nd < y->r.nd ? -1 : 1;
    return x->i < y->i ? -1 : x->i > y->i;
}

static uint64_t col_span(const col *c, int r)
{
    const mrun *R = &c->run[r];
    if (r == RW && c->same)
        R = &c->run[RB];
    if (r == RS && !c->diverged)
        R = c->same ? &c->run[RB] : &c->run[RW];
    return R->timed ? R->clock - c->first : 0;
}

static void result_of(rft_cm_row *w, uint64_t traced, const uint64_t *cyc, uint64_t instr,
                      const uint64_t *ev)
{
    w->model = (rft_cm_result){traced, cyc[RB], instr};
    w->what_if = (rft_cm_result){traced, cyc[RW], instr};
    w->scheme = (rft_cm_result){traced, cyc[RS], instr};
    w->wakeups = ev[0], w->movs = ev[1], w->mispredictions = ev[2], w->lds_loads = ev[3];
}

/* The slowdown's range and mean over the perturbed placements (of the
 * ND-ranges' spans summed) and the unperturbed one */
static void place_stats(rft_cm_row *w, uint32_t n, const uint64_t *pb, const uint64_t *pw)
{
    double x0 = rft_replay_pct(w->model.cycles, w->what_if.cycles), sum = x0;
    w->place_lo = w->place_hi = x0;
    for (uint32_t k = 0; k < n; k++) {
        double x = rft_replay_pct(pb[k], pw[k]);
        w->place_lo = x < w->place_lo ? x : w->place_lo;
        w->place_hi = x > w->place_hi ? x : w->place_hi;
        sum += x;
    }
    w->place_mean = sum / (n + 1);
}

static int cm_finish(rft_stage *st, const rft_sink *out)
{
    cm_stage *s = (cm_stage *)st;
    col *c = &s->c;
    uint64_t pb[RFT_CM_PLACE_MAX] = {0}, pw[RFT_CM_PLACE_MAX] = {0};
    (void)out;
    if (col_finish(c))
        return c->refused ? RFT_EMEM : rft_stage_fail(st, RFT_EMEM, "out of memory");
    srow *v = malloc((c->nrows ? c->nrows : 1) * sizeof *v);
    s->rows = calloc((size_t)c->nrows + 1, sizeof *s->rows);
    if (!v || !s->rows) {
        free(v);
        return rft_stage_fail(st, RFT_EMEM, "out of memory");
    }
    for (uint32_t i = 0; i < c->nrows; i++)
        v[i] = (srow){c->rows[i], i};
    qsort(v, c->nrows, sizeof *v, srow_cmp);
    for (uint32_t i = 0; i < c->nrows;) {
        ndrow a = v[i].r;
        for (i++; i < c->nrows && v[i].r.nd == a.nd; i++) {
            a.traced += v[i].r.traced, a.instr += v[i].r.instr;
            for (int k = 0; k < 3; k++)
                a.cyc[k] += v[i].r.cyc[k];
            for (int k = 0; k < 4; k++)
                a.ev[k] += v[i].r.ev[k];
            for (uint32_t k = 0; k < c->nplace; k++)
                a.pb[k] += v[i].r.pb[k], a.pw[k] += v[i].r.pw[k];
        }
        if (!a.traced && !a.cyc[RB])
            continue;
        rft_cm_row *w = &s->rows[s->nrows++];
        result_of(w, a.traced, a.cyc, a.instr, a.ev);
        place_stats(w, c->nplace, a.pb, a.pw);
        w->nd = a.nd;
        for (uint32_t k = 0; k < c->nplace; k++)
            pb[k] += a.pb[k], pw[k] += a.pw[k];
    }
    free(v);
    uint64_t cyc[3] = {col_span(c, RB), col_span(c, RW), col_span(c, RS)};
    rft_cm_row *w = &s->rows[s->nrows++];
    result_of(w, c->any ? c->trace_end - c->first : 0, cyc, c->instr, c->evs);
    place_stats(w, c->nplace, pb, pw);
    w->nd = RFT_NO_KERNEL;
    if (!c->any)
        w->model.cycles = w->what_if.cycles = w->scheme.cycles = 0;
    return 0;
}

static void cm_free(rft_stage *st)
{
    cm_stage *s = (cm_stage *)st;
    for (uint32_t i = 0; i < s->nnames; i++)
        free(s->names[i]);
    free(s->names), free(s->rows);
    rft_map_free(&s->kname);
    col_free(&s->c);
    free(s);
}

static const rft_stage_ops cm_ops = {"rft-replay", cm_start, cm_feed, cm_finish, cm_free, 1};

rft_stage *rft_cumodel_new(int pass, const rft_m2scfg *traced, const rft_m2scfg *whatif,
                           const rft_replay_opts *o)
{
    cm_stage *s = rft_stage_alloc(sizeof *s, &cm_ops);
    if (!s)
        return NULL;
    s->pass = pass;
    s->o = *o;
    col *c = &s->c;
    c->st = &s->head;
    if (rft_map_init(&s->kname, 16) || col_init(c, traced, whatif, o->scheme || o->degraded_scs, 4)) {
        cm_free(&s->head);
        return NULL;
    }
    c->events = o->scheme;
    if (o->cu_keep)
        c->keep_max = o->cu_keep;
    c->degraded = o->degraded_scs;
    c->calibrate = o->cu_calibrate;
    /* without a what-if every placement's slowdown is 0: none timed */
    c->nplace = c->same                               ? 0
                : o->cu_placements < RFT_CM_PLACE_MAX ? o->cu_placements
                                                      : RFT_CM_PLACE_MAX;
    c->max_wg = o->max_wg;
    c->wfrule = o->wfrule;
    c->sc = (rft_cm_scheme){o->wakeup_cycles, o->mov_cycles, o->stall_cycles, o->lds_cycles, 0};
    return &s->head;
}

uint32_t rft_cumodel_nrows(const rft_stage *st) { return ((const cm_stage *)st)->nrows; }
const rft_cm_row *rft_cumodel_row(const rft_stage *st, uint32_t i)
{
    const cm_stage *s = (const cm_stage *)st;
    return i < s->nrows ? &s->rows[i] : NULL;
}
const char *rft_cumodel_ndname(const rft_stage *st, uint32_t nd)
{
    const cm_stage *s = (const cm_stage *)st;
    const uint64_t *i = rft_map_get(&s->kname, nd);
    return i ? s->names[*i] : "";
}
int rft_cumodel_approximate(const rft_stage *st)
{
    return ((const cm_stage *)st)->c.approximate;
}
int rft_cumodel_marked(const rft_stage *st)
{
    return ((const cm_stage *)st)->c.waits;
}
int rft_cumodel_lds_unmarked(const rft_stage *st)
{
    const col *c = &((const cm_stage *)st)->c;
    return c->waits && c->lds_seen && !c->lds_marked;
}
uint32_t rft_cumodel_cus_seen(const rft_stage *st, uint32_t *configured)
{
    const col *c = &((const cm_stage *)st)->c;
    *configured = c->traced.num_cu;
    return c->cus_seen;
}
int rft_cumodel_schemed(const rft_stage *st)
{
    const col *c = &((const cm_stage *)st)->c;
    return c->scheme && (c->degraded || c->sc.stages || c->evs[0] || c->evs[1] || c->evs[2] ||
                         c->evs[3]);
}

void rft_cumodel_calibration(const rft_stage *st, rft_cm_cal *out)
{
    *out = ((const cm_stage *)st)->c.cal;
}
