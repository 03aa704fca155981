/* dutysteady.c - the steady state of a duty map (rft_duty_opts.steady):
 * the trace run over and over, its windows placed again each run (RAR's
 * rotation, ARGO's head), composed exactly over the period after which
 * every window is back in place, instead of repeating the trace. */
#include <stdlib.h>
#include <string.h>

#include "alloc.h"
#include "duty_int.h"
#include "endian.h"

/* Steady: where the windows of a run go (see rft_duty_opts). */
int duty_runs_alloc(rft_duty *d, slice *s, const rft_alloc_rec *a)
{
    if (a->event != RFT_ALLOC_EV_ALLOC || a->n == 0)
        return 0;
    if (d->o.alloc_scheme == RFT_ALLOC_ARGO) {
        s->head = (a->base + a->n) % d->entries;
        return 0;
    }
    if (d->o.alloc_scheme != RFT_ALLOC_RAR)
        return 0;
    if (!s->bn && (!(s->bn = calloc(d->entries, sizeof *s->bn)) ||
                   !(s->br = calloc(d->entries, sizeof *s->br)) ||
                   !(s->own = calloc(d->entries, sizeof *s->own))))
        return duty_oom(d);
    if (s->bn[a->base] && s->bn[a->base] != a->n)
        return duty_fail(d, "steady state: RAR windows of %u and %u entries at entry %u of slice %u:%u "
                    "(the rotation restarts; repeat the trace with rft-repeat instead)",
                    s->bn[a->base], a->n, a->base, a->cu, a->simd);
    if (!s->bn[a->base]) {
        if (a->base + a->n > d->entries)
            return duty_fail(d, "steady state: RAR window past the end of slice %u:%u", a->cu, a->simd);
        for (uint32_t i = a->base; i < a->base + a->n; i++) {
            if (s->own[i] && s->own[i] != a->base + 1u)
                return duty_fail(d, "steady state: RAR windows at entries %u and %u of slice %u:%u "
                            "overlap (their rotations do not permute the entries; repeat the "
                            "trace with rft-repeat instead)", s->own[i] - 1u, a->base, a->cu,
                            a->simd);
            s->own[i] = (uint16_t)(a->base + 1u);
        }
        s->bn[a->base] = a->n;
    }
    s->br[a->base]++;
    return 0;
}

#define NO_SRC UINT32_MAX

static uint64_t gcd64(uint64_t a, uint64_t b)
{
    while (b) {
        uint64_t t = a % b;
        a = b;
        b = t;
    }
    return a;
}

/* Cycles of one run of slice s: what rft-repeat puts between two copies'
 * first cycles, or the busy cycles. */
uint64_t duty_run_len(const rft_duty *d, const slice *s)
{
    return d->o.span == RFT_SPAN_BUSY ? s->end - s->start : d->slast - d->sfirst + 1;
}

/* A slice of period 1 (tau the identity: first-fit): each entry starts a
 * run with its own last state, held from the run's start to its first
 * write and from the end to the next run: added to its counters, which
 * are then emitted as they are. */
static int runs_still(rft_duty *d, slice *s)
{
    uint64_t tail = duty_run_len(d, s) - (s->end - s->start);
    for (uint32_t k = 0; k < d->entries; k++) {
        ent *e = &s->e[k];
        uint64_t T = (e->set ? e->pre : s->end) - s->start + tail;
        uint32_t cold_on = (e->born && !s->gated) || d->o.unused_on ? d->bits : 0;
        if (e->set) {
            uint64_t *now = now_of(d, s, k);
            e->last -= T;
            if (duty_account(d, s, e, now, e->last + T))
                return RFT_EMEM;
            duty_flush(d, e, blk_of(d, s, now));
        } else if (cold_on < d->bits && duty_add_part(e, cold_on, T)) {
            return RFT_EMEM;
        }
        if (e->npart > 1)
            qsort(e->part, e->npart, sizeof *e->part, duty_cmp_part);
    }
    return 0;
}

/* Each slice's permutation tau and period (the least common multiple of
 * its orbits), the buffers of the composition. */
int duty_runs_finish(rft_duty *d)
{
    uint32_t E = d->entries;
    if (d->o.window_set)
        return duty_fail(d, "steady state: --window selects cycles of one run");
    if (d->o.alloc_scheme == RFT_ALLOC_ARGO && !d->o.alloc_ring)
        return duty_fail(d, "steady state: ARGO without the ring (--wrap restart) does not repeat as a "
                       "rotation of the slice");
    if (!(d->rn = calloc(1, sizeof *d->rn)) || !(d->rn->orb = malloc(E * sizeof(uint32_t))) ||
        !(d->rn->src = malloc(2 * E * sizeof(uint32_t))) ||
        !(d->rn->len = malloc(E * sizeof(uint32_t))) || !(d->rn->born = malloc(E)) ||
        !(d->rn->t1 = malloc((size_t)E * d->bits * sizeof(uint64_t))) ||
        !(d->rn->toff = malloc((size_t)E * d->bits * sizeof(uint64_t))) ||
        !(d->rn->enc = malloc(rft_duty_max_len(d->bits))))
        return duty_oom(d);
    uint64_t all = 1;
    uint8_t *seen = d->rn->born;    /* scratch until the first composition */
    for (size_t i = 0; i < d->ns; i++) {
        slice *s = d->s[i];
        for (uint32_t k = 0; k < E; k++)
            if (s->inwin[k])
                return duty_fail(d, "steady state: slice %u:%u: a window is still open at the end of "
                            "the trace (the next run could not place its own)", s->cu, s->simd);
        if (!(s->tau = malloc(E * sizeof *s->tau)))
            return duty_oom(d);
        uint32_t h = d->o.alloc_scheme == RFT_ALLOC_ARGO ? s->head : 0;
        if (s->gated && s->bank > 1 && h % s->bank)
            return duty_fail(d, "steady state: slice %u:%u: ARGO's head moves %u entries a run, not a "
                        "whole number of its banks of %u entries", s->cu, s->simd, h, s->bank);
        for (uint32_t p = 0; p < E; p++)
            s->tau[p] = (p + h) % E;
        for (uint32_t b = 0; s->bn && b < E; b++)
            for (uint32_t q = 0, n = s->bn[b]; q < n; q++)
                s->tau[b + q] = b + (q + s->br[b]) % n;
        memset(seen, 0, E);
        uint64_t K = 1;
        for (uint32_t p = 0; p < E; p++) {
            uint64_t L = 0;
            for (uint32_t x = p; !seen[x]; x = s->tau[x], L++)
                seen[x] = 1;
            if (L && (K = K / gcd64(K, L) * L) > (1u << 20))
                return duty_fail(d, "steady state: a period of more than 2^20 runs");
        }
        if (K > UINT64_MAX / (duty_run_len(d, s) + 1))
            return duty_fail(d, "steady state: %llu runs pass 2^64 cycles", (unsigned long long)K);
        s->period = K;
        if (K == 1 && runs_still(d, s))
            return duty_oom(d);
        all = all / gcd64(all, K) * K;
        if (all > (1u << 30))
            all = 0;    /* too long to say */
    }
    d->period = all;
    return 0;
}

/* Add T cycles of the state of entry src (NO_SRC: zeros, cold_on bits
 * powered) to the values t1, toff. */
static void runs_hold(const rft_duty *d, const slice *s, uint32_t src, uint32_t cold_on, uint64_t T,
                      uint64_t *t1, uint64_t *toff)
{
    if (!T)
        return;
    uint32_t on = src == NO_SRC ? cold_on : s->e[src].on;
    for (uint32_t b = on; b < d->bits; b++)
        toff[b] += T;
    if (src == NO_SRC)
        return;
    const uint64_t *now = now_of(d, s, src);
    for (uint32_t w = 0; w < d->words; w++)
        for (uint64_t x = now[w]; x; x &= x - 1)
            t1[64u * w + (unsigned)__builtin_ctzll(x)] += T;
}

/* The steady map of slice si: per orbit of tau, K / |orbit| times the sum
 * of its entries' runs, each started with what the run before left. */
static void runs_compose(const rft_duty *d, size_t si)
{
    struct runs *rn = d->rn;
    const slice *s = d->s[si];
    uint32_t E = d->entries, B = d->bits, norb = 0, *inv = rn->src + E;
    for (uint32_t p = 0; p < E; p++) {
        rn->orb[p] = NO_SRC;
        inv[s->tau[p]] = p;
    }
    for (uint32_t p = 0; p < E; p++) {
        if (rn->orb[p] != NO_SRC)
            continue;
        uint32_t L = 0, j = NO_SRC, x = p;
        rn->born[norb] = 0;
        do {
            rn->orb[x] = norb;
            rn->born[norb] |= s->e[x].born;
            if (j == NO_SRC && s->e[x].set)
                j = x;
            x = s->tau[x];
            L++;
        } while (x != p);
        rn->len[norb++] = L;
        /* backwards from a written entry: a run starts entry x with the
         * last state of tau(x), or what tau(x) started with if unwritten */
        uint32_t cur = j;
        x = j == NO_SRC ? p : inv[j];
        for (uint32_t i = 0; i < L; i++, x = inv[x]) {
            rn->src[x] = cur;
            if (s->e[x].set)
                cur = x;
        }
    }
    memset(rn->t1, 0, (size_t)norb * B * sizeof *rn->t1);
    memset(rn->toff, 0, (size_t)norb * B * sizeof *rn->toff);
    uint64_t span = s->end - s->start, tail = duty_run_len(d, s) - span;
    for (uint32_t p = 0; p < E; p++) {
        const ent *e = &s->e[p];
        uint32_t o = rn->orb[p], src = rn->src[p];
        uint32_t cold_on = (rn->born[o] && !s->gated) || d->o.unused_on ? B : 0;
        uint64_t *t1 = rn->t1 + (size_t)o * B, *toff = rn->toff + (size_t)o * B;
        if (e->t1)
            for (uint32_t b = 0; b < B; b++)
                t1[b] += e->t1[b];
        duty_planes_to_values(d, e, blk_of(d, s, now_of(d, s, p)), t1);
        uint64_t acc = 0;
        for (uint32_t b = 0, q = 0; b < B; b++) {
            while (q < e->npart && e->part[q].on <= b)
                acc += e->part[q++].t;
            toff[b] += acc;
        }
        runs_hold(d, s, src, cold_on, (e->set ? e->pre : s->end) - s->start, t1, toff);
        runs_hold(d, s, e->set ? p : src, cold_on, tail, t1, toff);
    }
    for (uint32_t o = 0; o < norb; o++)
        for (uint64_t m = s->period / rn->len[o], b = 0; m > 1 && b < B; b++) {
            rn->t1[(size_t)o * B + b] *= m;
            rn->toff[(size_t)o * B + b] *= m;
        }
    rn->slice = si + 1;
    rn->enc_orb = NO_SRC;
}

/* A record of the steady map. */
uint32_t duty_runs_emit(const rft_duty *d, size_t i, uint8_t *buf)
{
    struct runs *rn = d->rn;
    if (rn->slice != i / d->entries + 1)
        runs_compose(d, i / d->entries);
    const slice *s = d->s[i / d->entries];
    uint32_t k = (uint32_t)(i % d->entries), o = rn->orb[k];
    uint64_t L = duty_run_len(d, s);
    rft_duty_rec r;
    r.span = (uint8_t)d->o.span;
    r.flags = (uint8_t)((rn->born[o] ? 0 : RFT_DUTY_UNUSED) | (d->o.unused_on ? RFT_DUTY_UNUSED_ON : 0));
    r.cu = s->cu;
    r.simd = s->simd;
    r.entry = (uint16_t)k;
    r.entries = (uint16_t)d->entries;
    r.lanes = (uint16_t)d->lanes;
    r.first = d->o.span == RFT_SPAN_STREAM ? d->sfirst : s->first;
    r.last = (d->o.span == RFT_SPAN_STREAM ? d->slast : s->last) +
             (s->period - 1) * (d->slast - d->sfirst + 1);
    r.cycles = s->period * L;
    r.bits = d->bits;
    r.t1 = rn->t1 + (size_t)o * d->bits;
    r.toff = rn->toff + (size_t)o * d->bits;
    /* the entries of an orbit differ in their number alone (and in
     * UNUSED, the same for all): encode once */
    if (rn->enc_orb != o) {
        rn->enc_len = rft_duty_encode(&r, rn->enc);
        rn->enc_orb = o;
    }
    memcpy(buf, rn->enc, rn->enc_len);
    st16(buf + 8, r.entry);
    return rn->enc_len;
}
