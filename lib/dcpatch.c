/* dcpatch.c - the DC-Patch Patching Table and Patching Selection Unit of one
 * slice (seed 001), its patch record and its invariants (see dcpatch.h);
 * dcpatch_stage.c runs them over a stream. */
#include "dcpatch.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "endian.h"
#include "pattern.h"
#include "rft.h"

void rft_dcp_opts_default(rft_dcp_opts *o)
{
    o->pick_high = 0;
    o->share_reliable = 1;
    o->release_first = 0;
}

/* ---- bitmaps with a summary word per 64 words ------------------------------------ */
static inline void bset(uint64_t *bm, uint64_t *sum, uint32_t i)
{
    uint32_t w = i >> 6;
    bm[w] |= 1ull << (i & 63);
    sum[w >> 6] |= 1ull << (w & 63);
}

static inline void bclr(uint64_t *bm, uint64_t *sum, uint32_t i)
{
    uint32_t w = i >> 6;
    bm[w] &= ~(1ull << (i & 63));
    if (!bm[w])
        sum[w >> 6] &= ~(1ull << (w & 63));
}

static inline int btest(const uint64_t *bm, uint32_t i) { return (bm[i >> 6] >> (i & 63)) & 1; }

/* The lowest (or highest) set bit: the priority encoder.  -1 if none. */
static inline long bpick(const uint64_t *bm, const uint64_t *sum, uint32_t nsum, int high)
{
    if (!high) {
        for (uint32_t s = 0; s < nsum; s++)
            if (sum[s]) {
                uint32_t w = s * 64 + (uint32_t)__builtin_ctzll(sum[s]);
                return (long)w * 64 + __builtin_ctzll(bm[w]);
            }
    } else {
        for (uint32_t s = nsum; s-- > 0;)
            if (sum[s]) {
                uint32_t w = s * 64 + 63 - (uint32_t)__builtin_clzll(sum[s]);
                return (long)w * 64 + 63 - __builtin_clzll(bm[w]);
            }
    }
    return -1;
}

/* ---- setup ---------------------------------------------------------------------- */
void rft_dcp_free(rft_dcp_slice *s)
{
    free(s->ent_faulty);
    free(s->blk_bad);
    free(s->ent_used);
    free(s->free_flt);
    free(s->pt);
    free(s->tag);
    free(s->owner);
    memset(s, 0, sizeof *s);
}

uint64_t rft_dcp_bytes(uint32_t entries, uint32_t blocks)
{
    uint64_t E = entries, nblk = E * blocks, wblk = (nblk + 63) / 64, went = (E + 63) / 64;
    uint64_t words = 2 * (wblk + (wblk + 63) / 64) + went + (went + 63) / 64;
    rft_dcp_slice *s = NULL;
    return E * (1 + sizeof *s->ent_used + sizeof *s->pt + sizeof *s->tag) +
           nblk * (1 + sizeof *s->owner) + words * sizeof *s->free_flt;
}

int rft_dcp_init(rft_dcp_slice *s, const rft_faultmap *m, const rft_dcp_opts *o)
{
    memset(s, 0, sizeof *s);
    uint32_t E = m->entries, NB = m->blocks, nblk = E * NB;
    s->entries = E;
    s->blocks = NB;
    s->nblk = nblk;
    s->o = *o;
    s->wblk = (nblk + 63) / 64;
    s->went = (E + 63) / 64;
    s->sblk = (s->wblk + 63) / 64;
    s->sent = (s->went + 63) / 64;
    size_t words = 2 * ((size_t)s->wblk + s->sblk) + s->went + s->sent;
    s->ent_faulty = calloc(E, 1);
    s->blk_bad = calloc(nblk, 1);
    s->ent_used = calloc(E, sizeof *s->ent_used);
    s->free_flt = calloc(words, sizeof *s->free_flt);
    s->pt = calloc(E, sizeof *s->pt);
    s->tag = calloc(E, sizeof *s->tag);
    s->owner = calloc(nblk, sizeof *s->owner);
    if (!s->ent_faulty || !s->blk_bad || !s->ent_used || !s->free_flt || !s->pt || !s->tag ||
        !s->owner) {
        rft_dcp_free(s);
        return RFT_EMEM;
    }
    s->sum_flt = s->free_flt + s->wblk;
    s->free_part = s->sum_flt + s->sblk;
    s->sum_part = s->free_part + s->wblk;
    s->free_ent = s->sum_part + s->sblk;
    s->sum_ent = s->free_ent + s->went;
    for (uint32_t e = 0; e < E; e++) {
        s->ent_faulty[e] = (uint8_t)rft_faultmap_entry_faulty(m, e);
        for (uint32_t b = 0; b < NB; b++) {
            s->blk_bad[e * NB + b] = (uint8_t)rft_faultmap_block_faulty(m, e, b);
            if (s->ent_faulty[e] && !s->blk_bad[e * NB + b])
                bset(s->free_flt, s->sum_flt, e * NB + b);
        }
        if (!s->ent_faulty[e])
            bset(s->free_ent, s->sum_ent, e);
    }
    return 0;
}

/* ---- occupancy categories ---------------------------------------------------------- */
static inline void cat(rft_dcp_slice *s, int c, int d)
{
    s->acc.cur[c] += d;
    s->acc.sdt[c] += (uint64_t)(int64_t)d * s->t;
    if (s->x) {
        s->x->cur[c] += d;
        s->x->sdt[c] += (uint64_t)(int64_t)d * s->t;
    }
}

static inline int conv_cat(const rft_dcp_slice *s, uint32_t row)
{
    uint8_t f = s->pt[row].flags;
    if (!(f & RFT_DCP_VALID))
        return RFT_DCP_CONV_UNWRITTEN;
    if (s->ent_faulty[row])
        return f & RFT_DCP_COMP ? RFT_DCP_CONV_FLT_COMP : RFT_DCP_CONV_FLT_UNC;
    return f & RFT_DCP_COMP ? RFT_DCP_CONV_REL_COMP : RFT_DCP_CONV_REL_UNC;
}

/* ---- the PSU: take and give patches ------------------------------------------------ */
/* A new patch for content comp: its place (0 if nothing is free), *e, *b. */
static int take(rft_dcp_slice *s, int comp, uint16_t *e, uint16_t *b)
{
    uint32_t NB = s->blocks;
    int high = s->o.pick_high;
    long i;
    if (!comp) {    /* a whole free reliable entry */
        if ((i = bpick(s->free_ent, s->sum_ent, s->sent, high)) < 0)
            return 0;
        bclr(s->free_ent, s->sum_ent, (uint32_t)i);
        s->ent_used[i] = RFT_DCP_UNC;
        cat(s, RFT_DCP_USED_REL_UNC, 1);
        *e = (uint16_t)i;
        *b = 0;
        return RFT_DCP_RELIABLE;
    }
    /* one block: of a faulty entry first */
    if ((i = bpick(s->free_flt, s->sum_flt, s->sblk, high)) >= 0) {
        bclr(s->free_flt, s->sum_flt, (uint32_t)i);
        *e = (uint16_t)(i / NB);
        *b = (uint16_t)(i % NB);
        if (s->ent_used[*e]++ == 0)
            cat(s, RFT_DCP_USED_FLT_COMP, 1);
        return RFT_DCP_FAULTY;
    }
    /* then a free block of a reliable entry other compressed registers use */
    if (s->o.share_reliable && (i = bpick(s->free_part, s->sum_part, s->sblk, high)) >= 0) {
        bclr(s->free_part, s->sum_part, (uint32_t)i);
        *e = (uint16_t)(i / NB);
        *b = (uint16_t)(i % NB);
        s->ent_used[*e]++;
        return RFT_DCP_RELIABLE;
    }
    /* then a wholly free reliable entry */
    if ((i = bpick(s->free_ent, s->sum_ent, s->sent, high)) < 0)
        return 0;
    bclr(s->free_ent, s->sum_ent, (uint32_t)i);
    *e = (uint16_t)i;
    *b = (uint16_t)(high ? NB - 1 : 0);
    s->ent_used[i] = 1;
    cat(s, RFT_DCP_USED_REL_COMP, 1);
    if (s->o.share_reliable)
        for (uint32_t k = 0; k < NB; k++)
            if (k != *b)
                bset(s->free_part, s->sum_part, (uint32_t)i * NB + k);
    return RFT_DCP_RELIABLE;
}

/* Release the slice patch of row r (valid, not spilled). */
static void give(rft_dcp_slice *s, const rft_dcp_row *r)
{
    uint32_t NB = s->blocks, e = r->entry, blk = e * NB + r->block;
    if (!(r->flags & RFT_DCP_COMP)) {
        s->ent_used[e] = 0;
        bset(s->free_ent, s->sum_ent, e);
        cat(s, RFT_DCP_USED_REL_UNC, -1);
        return;
    }
    if (s->ent_faulty[e]) {
        bset(s->free_flt, s->sum_flt, blk);
        if (--s->ent_used[e] == 0)
            cat(s, RFT_DCP_USED_FLT_COMP, -1);
        return;
    }
    if (--s->ent_used[e] == 0) {
        if (s->o.share_reliable)
            for (uint32_t k = 0; k < NB; k++)
                bclr(s->free_part, s->sum_part, e * NB + k);
        bset(s->free_ent, s->sum_ent, e);
        cat(s, RFT_DCP_USED_REL_COMP, -1);
    } else {
        bset(s->free_part, s->sum_part, blk);
    }
}

/* ---- windows, writes -------------------------------------------------------------- */
int rft_dcp_begin(rft_dcp_slice *s, uint32_t n, uint32_t tag, uint64_t t, rft_dcp_acc *x)
{
    if (n == 0 || n > s->entries - s->live_rows)
        return -1;
    s->t = t;
    s->x = x;
    for (uint32_t i = 0, run = 0; i < s->entries; i++) {
        run = s->pt[i].flags & RFT_DCP_WINDOW ? 0 : run + 1;
        if (run == n) {
            uint32_t base = i + 1 - n;
            for (uint32_t k = base; k <= i; k++) {
                s->pt[k].flags = RFT_DCP_WINDOW;
                s->tag[k] = tag;
            }
            s->live_rows += n;
            cat(s, RFT_DCP_CONV_UNWRITTEN, (int)n);
            return (int)base;
        }
    }
    return -1;
}

uint32_t rft_dcp_end(rft_dcp_slice *s, uint32_t base, uint32_t n, uint64_t t, rft_dcp_acc *x)
{
    uint32_t valid = 0;
    s->t = t;
    s->x = x;
    for (uint32_t k = base; k < base + n; k++) {
        rft_dcp_row *r = &s->pt[k];
        cat(s, conv_cat(s, k), -1);
        if (r->flags & RFT_DCP_VALID) {
            valid++;
            if (r->flags & RFT_DCP_SPILLED)
                cat(s, RFT_DCP_SPILLED_REGS, -1);
            else
                give(s, r);
        }
        r->flags = 0;
    }
    s->live_rows -= n;
    return valid;
}

void rft_dcp_write(rft_dcp_slice *s, uint32_t row, int comp, uint64_t t, rft_dcp_acc *x,
                   rft_dcp_event *ev)
{
    rft_dcp_row *r = &s->pt[row];
    int old_conv = conv_cat(s, row), place;
    uint16_t e = r->entry, b = r->block;
    s->t = t;
    s->x = x;
    comp = comp != 0;
    memset(ev, 0, sizeof *ev);
    if (!(r->flags & RFT_DCP_VALID)) {
        ev->first = 1;
        ev->searches = 2;               /* both encoders: no state to invert */
        place = take(s, comp, &e, &b);
    } else if (r->flags & RFT_DCP_SPILLED) {
        ev->searches = 2;               /* as a first write: try to come back */
        if ((place = take(s, comp, &e, &b)) != 0) {
            ev->from_lds = 1;
            cat(s, RFT_DCP_SPILLED_REGS, -1);
        }
    } else if (((r->flags & RFT_DCP_COMP) != 0) == comp) {
        ev->searches = 1;               /* the preventive patch goes unused */
        place = RFT_DCP_NORMAL;
        ev->place = place;
        ev->entry = r->entry;
        ev->block = r->block;
        return;
    } else {
        ev->change = 1;
        ev->searches = 1;
        ev->released = 1;
        if (s->o.release_first) {
            give(s, r);
            place = take(s, comp, &e, &b);
        } else if ((place = take(s, comp, &e, &b)) != 0) {
            give(s, r);
        } else {                        /* nothing else: its own place, if it fits */
            give(s, r);
            place = take(s, comp, &e, &b);
        }
    }
    if (place) {
        r->entry = e;
        r->block = b;
        r->flags = RFT_DCP_WINDOW | RFT_DCP_VALID | (comp ? RFT_DCP_COMP : 0);
    } else {
        if ((r->flags & (RFT_DCP_VALID | RFT_DCP_SPILLED)) != (RFT_DCP_VALID | RFT_DCP_SPILLED)) {
            ev->spill = 1;
            cat(s, RFT_DCP_SPILLED_REGS, 1);
        }
        r->flags = RFT_DCP_WINDOW | RFT_DCP_VALID | RFT_DCP_SPILLED | (comp ? RFT_DCP_COMP : 0);
        place = RFT_DCP_LDS;
    }
    int new_conv = conv_cat(s, row);
    if (new_conv != old_conv) {
        cat(s, old_conv, -1);
        cat(s, new_conv, 1);
    }
    ev->place = place;
    ev->entry = r->entry;
    ev->block = r->block;
}

/* ---- the RFT_PATCH record ------------------------------------------------------------ */
static uint32_t delta_code(uint32_t d)
{
    if (d == 0)
        return 7;
    if ((d & (d - 1)) == 0 && d <= 64)
        return (uint32_t)__builtin_ctz(d);
    return d & 7;
}

uint32_t rft_dcp_code(uint32_t de, uint32_t db)
{
    return delta_code(de) | delta_code(db) << 3 | 1u << 6;
}

void rft_patch_encode(uint8_t *b, const rft_patch_rec *p)
{
    st64(b, p->cycle);
    st16(b + 8, p->cu);
    st16(b + 10, p->simd);
    st32(b + 12, p->wf);
    st16(b + 16, p->vreg);
    st16(b + 18, p->entry);
    st16(b + 20, p->block);
    b[22] = p->place;
    b[23] = 0;
    st32(b + 24, p->c0);
    st32(b + 28, p->code);
}

int rft_write_patch(rft_writer *w, const rft_patch_rec *p)
{
    uint8_t buf[RFT_PATCH_LEN];
    rft_patch_encode(buf, p);
    return rft_write_raw(w, RFT_PATCH, buf, RFT_PATCH_LEN);
}

int rft_patch_parse(const uint8_t *b, uint32_t len, rft_patch_rec *p)
{
    if (len < RFT_PATCH_LEN)
        return RFT_EFORMAT;
    p->cycle = ld64(b);
    p->cu = ld16(b + 8);
    p->simd = ld16(b + 10);
    p->wf = ld32(b + 12);
    p->vreg = ld16(b + 16);
    p->entry = ld16(b + 18);
    p->block = ld16(b + 20);
    p->place = b[22];
    p->c0 = ld32(b + 24);
    p->code = ld32(b + 28);
    switch (p->place) {
    case RFT_PATCH_ENTRY: return p->entry != RFT_PATCH_NONE && p->block == RFT_PATCH_NONE ? 0 : RFT_EFORMAT;
    case RFT_PATCH_BLOCK: return p->entry != RFT_PATCH_NONE && p->block != RFT_PATCH_NONE ? 0 : RFT_EFORMAT;
    case RFT_PATCH_LDS: return p->entry == RFT_PATCH_NONE && p->block == RFT_PATCH_NONE ? 0 : RFT_EFORMAT;
    default: return RFT_EFORMAT;
    }
}

size_t rft_patch_format(const rft_patch_rec *p, char sep, char *buf)
{
    static const char *const place[] = {"?", "entry", "block", "lds"};
    char e[8] = "-", b[8] = "-";
    if (p->entry != RFT_PATCH_NONE)
        snprintf(e, sizeof e, "%u", p->entry);
    if (p->block != RFT_PATCH_NONE)
        snprintf(b, sizeof b, "%u", p->block);
    int n = snprintf(buf, RFT_PATCH_TEXT_MAX,
                     "# patch%ccycle=%llu%cslice=%u:%u%cwf=%u%cvreg=%u%cplace=%s%centry=%s%cblock=%s"
                     "%cc0=%08x%ccode=%02x",
                     sep, (unsigned long long)p->cycle, sep, p->cu, p->simd, sep, p->wf, sep, p->vreg,
                     sep, place[p->place <= RFT_PATCH_LDS ? p->place : 0], sep, e, sep, b, sep, p->c0,
                     sep, p->code);
    return n < 0 ? 0 : (size_t)n;
}

/* ---- invariants ------------------------------------------------------------------- */
static int bad(char *why, size_t n, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
static int bad(char *why, size_t n, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(why, n, fmt, ap);
    va_end(ap);
    return -1;
}

/* "v3 of wavefront 7": the window of a row is the run of rows with its tag. */
static const char *who(const rft_dcp_slice *s, uint32_t row, char *buf, size_t n)
{
    uint32_t base = row;
    while (base > 0 && (s->pt[base - 1].flags & RFT_DCP_WINDOW) && s->tag[base - 1] == s->tag[row])
        base--;
    snprintf(buf, n, "v%u of wavefront %u", row - base, s->tag[row]);
    return buf;
}

#define NONE UINT32_MAX

int rft_dcp_check(rft_dcp_slice *s, char *why, size_t n)
{
    uint32_t E = s->entries, NB = s->blocks;
    char a[64], b[64];
    int64_t used[RFT_DCP_NCAT] = {0};
    for (uint32_t i = 0; i < s->nblk; i++)
        s->owner[i] = NONE;
    for (uint32_t row = 0; row < E; row++) {
        const rft_dcp_row *r = &s->pt[row];
        if (!(r->flags & RFT_DCP_VALID))
            continue;
        if (!(r->flags & RFT_DCP_WINDOW))
            return bad(why, n, "PT row %u has a patch outside a live window", row);
        if (r->flags & RFT_DCP_SPILLED) {
            used[RFT_DCP_SPILLED_REGS]++;
            continue;
        }
        if (r->entry >= E || r->block >= NB)
            return bad(why, n, "%s has a patch outside the slice", who(s, row, a, sizeof a));
        if (r->flags & RFT_DCP_COMP) {
            uint32_t k = r->entry * NB + r->block;
            if (s->blk_bad[k])
                return bad(why, n, "%s sits on faulty block %u of entry %u",
                           who(s, row, a, sizeof a), r->block, r->entry);
            if (s->owner[k] != NONE)
                return bad(why, n, "%s and %s share block %u of entry %u",
                           who(s, s->owner[k], a, sizeof a), who(s, row, b, sizeof b), r->block,
                           r->entry);
            s->owner[k] = row;
            continue;
        }
        if (s->ent_faulty[r->entry])
            return bad(why, n, "uncompressed %s sits on faulty entry %u", who(s, row, a, sizeof a),
                       r->entry);
        for (uint32_t k = r->entry * NB; k < (r->entry + 1u) * NB; k++) {
            if (s->owner[k] != NONE)
                return bad(why, n, "uncompressed %s shares entry %u with %s",
                           who(s, row, a, sizeof a), r->entry, who(s, s->owner[k], b, sizeof b));
            s->owner[k] = row;
        }
    }
    /* the PSU state must follow from the PT */
    for (uint32_t e = 0; e < E; e++) {
        uint32_t ncomp = 0, nown = 0;
        int unc = 0;
        for (uint32_t k = e * NB; k < (e + 1) * NB; k++)
            if (s->owner[k] != NONE) {
                nown++;
                if (s->pt[s->owner[k]].flags & RFT_DCP_COMP)
                    ncomp++;
                else
                    unc = 1;
            }
        uint16_t want = unc ? RFT_DCP_UNC : (uint16_t)ncomp;
        if (s->ent_used[e] != want)
            return bad(why, n, "PSU counts %u registers in entry %u, the PT %u", s->ent_used[e], e,
                       unc ? 1 : ncomp);
        if (unc)
            used[RFT_DCP_USED_REL_UNC]++;
        else if (ncomp)
            used[s->ent_faulty[e] ? RFT_DCP_USED_FLT_COMP : RFT_DCP_USED_REL_COMP]++;
        if (btest(s->free_ent, e) != (!s->ent_faulty[e] && nown == 0))
            return bad(why, n, "PSU marks entry %u %s", e,
                       btest(s->free_ent, e) ? "free, but it is not" : "in use, but it is free");
        for (uint32_t k = e * NB; k < (e + 1) * NB; k++) {
            int flt = s->ent_faulty[e] && !s->blk_bad[k] && s->owner[k] == NONE;
            int part = s->o.share_reliable && !s->ent_faulty[e] && ncomp && s->owner[k] == NONE;
            if (btest(s->free_flt, k) != flt || btest(s->free_part, k) != part)
                return bad(why, n, "PSU bitmap disagrees with the PT at block %u of entry %u",
                           k - e * NB, e);
        }
    }
    for (uint32_t w = 0; w < s->wblk; w++)
        if (((s->sum_flt[w >> 6] >> (w & 63)) & 1) != (s->free_flt[w] != 0) ||
            ((s->sum_part[w >> 6] >> (w & 63)) & 1) != (s->free_part[w] != 0))
            return bad(why, n, "PSU summary word out of date (block word %u)", w);
    for (uint32_t w = 0; w < s->went; w++)
        if (((s->sum_ent[w >> 6] >> (w & 63)) & 1) != (s->free_ent[w] != 0))
            return bad(why, n, "PSU summary word out of date (entry word %u)", w);
    for (int c = RFT_DCP_USED_REL_UNC; c < RFT_DCP_NCAT; c++)
        if (used[c] != s->acc.cur[c])
            return bad(why, n, "occupancy count %d is %lld, the PT gives %lld", c,
                       (long long)s->acc.cur[c], (long long)used[c]);
    return 0;
}

void rft_patch_write_cost(const rft_geom *g, const struct rft_pattern_opts *po, const rft_write *x,
                          uint8_t *pend, uint8_t *place, uint32_t nregs, uint8_t *full,
                          uint8_t *have_full, uint32_t *mov, uint32_t *misp)
{
    uint32_t mb = rft_mask_bytes(g);
    int cls, fb, div;
    if (x->cls != RFT_CLS_NONE) {       /* as rft-dcpatch reads it */
        cls = x->cls;
        fb = (x->flags & RFT_WF_FIRSTBLOCK) != 0;
        div = (x->flags & RFT_WF_DIVERGENT) != 0;
    } else {
        rft_pattern p;
        rft_pattern_classify(x->val, g->lanes, g->block_lanes, po, &p);
        cls = p.cls;
        fb = p.firstblock;
        if (!*have_full) {
            memcpy(full, x->mask, mb);
            *have_full = 1;
        }
        div = memcmp(x->mask, full, mb) != 0;
    }
    *misp += !div && cls == RFT_CLS_OTHER && fb;
    if (x->vreg < nregs) {
        *mov += div && place[x->vreg] == RFT_PATCH_BLOCK;
        place[x->vreg] = *pend;
    }
    *pend = 0;
}
