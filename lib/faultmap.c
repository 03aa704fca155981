/* faultmap.c - fault maps: Table 1 generation, RFT_FAULTMAP records, CSV
 * (see faultmap.h and rft-faultmap(1)). */
#include "faultmap.h"

#include <csv.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "endian.h"
#include "rft.h"

/* Maps must be the same on every host: no fused multiply-add (GCC does not
 * contract in ISO C mode; clang needs to be told). */
#if defined(__clang__)
#pragma STDC FP_CONTRACT OFF
#endif

static int fail(char *why, size_t n, int code, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));
static int fail(char *why, size_t n, int code, const char *fmt, ...)
{
    if (why && n) {
        va_list ap;
        va_start(ap, fmt);
        int k = vsnprintf(why, n, fmt, ap);
        va_end(ap);
        if (k >= 0 && (size_t)k >= n && n > 4)  /* a caller's buffer too small: say so */
            memcpy(why + n - 4, "...", 4);
    }
    return code;
}

/* ---- maps ----------------------------------------------------------------------- */
int rft_faultmap_init(rft_faultmap *m, uint32_t entries, uint32_t blocks)
{
    memset(m, 0, sizeof *m);
    if (entries < 1 || entries > RFT_MAX_ENTRIES || blocks < 1 || blocks > RFT_MAX_LANES)
        return RFT_EFORMAT;
    m->entries = entries;
    m->blocks = blocks;
    m->ecp = RFT_FM_ECP;
    if (!(m->bits = calloc((size_t)entries * blocks, 1)))
        return RFT_EMEM;
    return 0;
}

void rft_faultmap_free(rft_faultmap *m)
{
    free(m->bits);
    m->bits = NULL;
}

int rft_faultmap_copy(rft_faultmap *dst, const rft_faultmap *src)
{
    size_t n = (size_t)src->entries * src->blocks;
    *dst = *src;
    if (!(dst->bits = malloc(n)))
        return RFT_EMEM;
    memcpy(dst->bits, src->bits, n);
    return 0;
}

unsigned rft_faultmap_entry_bits(const rft_faultmap *m, uint32_t e)
{
    unsigned t = 0;
    const uint8_t *p = m->bits + (size_t)e * m->blocks;
    for (uint32_t b = 0; b < m->blocks; b++)
        t += p[b];
    return t > RFT_FM_MAX_BITS ? RFT_FM_MAX_BITS : t;
}

int rft_faultmap_entry_faulty(const rft_faultmap *m, uint32_t e)
{
    return rft_faultmap_entry_bits(m, e) > m->ecp;
}

int rft_faultmap_block_faulty(const rft_faultmap *m, uint32_t e, uint32_t b)
{
    return m->bits[(size_t)e * m->blocks + b] && rft_faultmap_entry_faulty(m, e);
}

uint32_t rft_faultmap_classes(const rft_faultmap *m, uint32_t counts[RFT_FM_CLASSES])
{
    uint32_t faulty = 0;
    memset(counts, 0, RFT_FM_CLASSES * sizeof *counts);
    for (uint32_t e = 0; e < m->entries; e++) {
        unsigned t = rft_faultmap_entry_bits(m, e);
        counts[t < RFT_FM_CLASSES - 1 ? t : RFT_FM_CLASSES - 1]++;
        if (t > m->ecp)
            for (uint32_t b = 0; b < m->blocks; b++)
                faulty += m->bits[(size_t)e * m->blocks + b] != 0;
    }
    return faulty;
}

/* ---- scenarios (seed 001 Table 1) --------------------------------------------------
 * The weight of the systematic (spatially correlated) part: clustered is
 * dominated by systematic variation, dispersed by random variation, common
 * treats both equally (seed 001 II-B). */
const rft_fm_scenario rft_fm_scenarios[3] = {
    {"common", 419, {34, 33, 20, 10, 3}, 0.5},
    {"clustered", 497, {43, 20, 12, 10, 15}, 0.9},
    {"dispersed", 371, {26, 35, 23, 12, 4}, 0.0},
};

const rft_fm_scenario *rft_fm_scenario_find(const char *name)
{
    for (size_t i = 0; i < sizeof rft_fm_scenarios / sizeof rft_fm_scenarios[0]; i++)
        if (strcmp(name, rft_fm_scenarios[i].name) == 0)
            return &rft_fm_scenarios[i];
    return NULL;
}

int rft_fm_gen_scenario(rft_fm_gen *g, const char *name, char *why, size_t whylen)
{
    const rft_fm_scenario *s = rft_fm_scenario_find(name);
    if (!s)
        return fail(why, whylen, RFT_EFORMAT,
                    "unknown scenario '%s' (common, clustered or dispersed)", name);
    memset(g, 0, sizeof *g);
    snprintf(g->name, sizeof g->name, "%s", s->name);
    memcpy(g->share, s->share, sizeof g->share);
    g->systematic = s->systematic;
    g->corr_length = RFT_FM_CORR_LENGTH;
    return 0;
}

int rft_fm_gen_options(rft_fm_gen *g, const char *scenario, const char *shares, uint64_t seed,
                       double systematic, uint32_t corr_length, char *why, size_t whylen)
{
    int e;
    if (scenario && (e = rft_fm_gen_scenario(g, scenario, why, whylen)))
        return e;
    if (!scenario) {
        memset(g, 0, sizeof *g);
        snprintf(g->name, sizeof g->name, "custom");
        g->systematic = 0.5;
        g->corr_length = RFT_FM_CORR_LENGTH;
    }
    if (shares && (e = rft_fm_parse_shares(shares, g->share, why, whylen)))
        return e;
    if (!scenario && !shares)
        return fail(why, whylen, RFT_EFORMAT, "no scenario and no shares");
    g->seed = seed;
    if (systematic >= 0)
        g->systematic = systematic;
    if (corr_length)
        g->corr_length = corr_length;
    return 0;
}

int rft_fm_parse_shares(const char *s, double share[RFT_FM_CLASSES], char *why, size_t whylen)
{
    const char *p = s;
    double sum = 0;
    for (int i = 0; i < RFT_FM_CLASSES; i++) {
        char *end;
        if (!(*p >= '0' && *p <= '9') && *p != '.')
            return fail(why, whylen, RFT_EFORMAT, "'%s' is not five percentages A/B/C/D/E", s);
        share[i] = strtod(p, &end);
        if (end == p || !(share[i] >= 0 && share[i] <= 100))
            return fail(why, whylen, RFT_EFORMAT, "'%s' is not five percentages A/B/C/D/E", s);
        sum += share[i];
        p = end;
        if (i < RFT_FM_CLASSES - 1 && *p++ != '/')
            return fail(why, whylen, RFT_EFORMAT, "'%s' is not five percentages A/B/C/D/E", s);
    }
    if (*p)
        return fail(why, whylen, RFT_EFORMAT, "'%s' is not five percentages A/B/C/D/E", s);
    if (fabs(sum - 100) > 1e-6)
        return fail(why, whylen, RFT_EFORMAT, "shares '%s' sum to %g, not 100", s, sum);
    return 0;
}

void rft_fm_counts(const double share[RFT_FM_CLASSES], uint32_t entries,
                   uint32_t counts[RFT_FM_CLASSES])
{
    double rem[RFT_FM_CLASSES];
    uint32_t given = 0;
    for (int i = 0; i < RFT_FM_CLASSES; i++) {
        double x = share[i] * entries / 100.0;
        counts[i] = (uint32_t)floor(x + 1e-9);
        rem[i] = x - counts[i];
        given += counts[i];
    }
    while (given < entries) {
        int best = 0;
        for (int i = 1; i < RFT_FM_CLASSES; i++)
            if (rem[i] > rem[best] + 1e-9)
                best = i;
        counts[best]++;
        rem[best] = -1;
        given++;
    }
    /* shares summing to a bit over 100 (rounding in the input) */
    for (int i = RFT_FM_CLASSES - 1; given > entries && i >= 0; i--)
        while (counts[i] && given > entries) {
            counts[i]--;
            given--;
        }
}

/* splitmix64 (Steele, Lea, Flood 2014): integer-only, the same on every host */
static uint64_t splitmix64(uint64_t *x)
{
    uint64_t z = (*x += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
}

static double uniform(uint64_t *x) { return (double)(splitmix64(x) >> 11) * 0x1.0p-53; }

static uint32_t below(uint64_t *x, uint32_t n)  /* 0 .. n-1, unbiased */
{
    uint64_t lim = UINT64_MAX - UINT64_MAX % n, v;
    do
        v = splitmix64(x);
    while (v >= lim);
    return (uint32_t)(v % n);
}

typedef struct {
    double s;
    uint32_t e;
} ranked;

static int by_severity(const void *a, const void *b)
{
    const ranked *x = a, *y = b;
    if (x->s != y->s)
        return x->s < y->s ? -1 : 1;
    return x->e < y->e ? -1 : x->e > y->e;
}

void rft_faultmap_generate(rft_faultmap *m, const rft_fm_gen *g, uint16_t cu, uint16_t simd)
{
    uint32_t E = m->entries, NB = m->blocks, L = g->corr_length ? g->corr_length : 1;
    uint32_t counts[RFT_FM_CLASSES];
    uint64_t st = g->seed;
    st = splitmix64(&st) ^ ((uint64_t)cu << 32 | (uint64_t)simd << 16 | 0x5eedu);
    rft_fm_counts(g->share, E, counts);

    /* Severity of each entry: a moving sum of L uniforms (spatially
     * correlated over about L neighbouring entries) and an independent
     * uniform, both scaled to unit variance, weighted sqrt(w) and sqrt(1-w). */
    ranked *r = malloc(E * sizeof *r);
    double *pre = malloc(((size_t)E + L) * sizeof *pre);
    uint32_t *pick = malloc(NB * sizeof *pick);
    if (!r || !pre || !pick) {
        /* out of memory: leave the map fault-free (callers size tiny maps) */
        free(r);
        free(pre);
        free(pick);
        return;
    }
    pre[0] = 0;
    for (uint32_t i = 0; i < E + L - 1; i++)
        pre[i + 1] = pre[i] + uniform(&st);
    double ws = sqrt(g->systematic), wr = sqrt(1 - g->systematic);
    double sd_sys = sqrt(L / 12.0), sd_rand = sqrt(1 / 12.0);
    for (uint32_t e = 0; e < E; e++) {
        double sys = (pre[e + L] - pre[e] - L / 2.0) / sd_sys;
        double rnd = (uniform(&st) - 0.5) / sd_rand;
        r[e].s = ws * sys + wr * rnd;
        r[e].e = e;
    }
    qsort(r, E, sizeof *r, by_severity);

    /* The least severe entries get 0 faulty bits, the most severe >= 4. */
    memset(m->bits, 0, (size_t)E * NB);
    uint32_t k = 0;
    uint8_t *cls = malloc(E);
    if (!cls) {
        free(r);
        free(pre);
        free(pick);
        return;
    }
    for (int c = 0; c < RFT_FM_CLASSES; c++)
        for (uint32_t i = 0; i < counts[c]; i++)
            cls[r[k++].e] = (uint8_t)c;
    for (uint32_t e = 0; e < E; e++) {
        unsigned nbits = cls[e] < RFT_FM_CLASSES - 1 ? cls[e] : (NB > 4 ? NB : 4);
        unsigned nblk = nbits < NB ? nbits : NB;
        uint8_t *p = m->bits + (size_t)e * NB;
        for (uint32_t b = 0; b < NB; b++)
            pick[b] = b;
        for (unsigned i = 0; i < nblk; i++) {  /* nblk distinct blocks, uniformly */
            uint32_t j = i + below(&st, NB - i), t = pick[i];
            pick[i] = pick[j];
            pick[j] = t;
        }
        for (unsigned i = 0; i < nbits; i++)
            p[pick[i % nblk]]++;
    }
    m->cu = cu;
    m->simd = simd;
    m->seed = g->seed;
    m->ecp = RFT_FM_ECP;
    snprintf(m->origin, sizeof m->origin, "%s", g->name);
    free(cls);
    free(r);
    free(pre);
    free(pick);
}

/* ---- records ------------------------------------------------------------------ */
size_t rft_faultmap_record_len(const rft_faultmap *m)
{
    return RFT_FM_FIXED + strlen(m->origin) + (size_t)m->entries * m->blocks;
}

void rft_faultmap_encode(const rft_faultmap *m, uint8_t *p)
{
    size_t n = strlen(m->origin);
    st16(p, m->cu);
    st16(p + 2, m->simd);
    st16(p + 4, (uint16_t)m->entries);
    st16(p + 6, (uint16_t)m->blocks);
    p[8] = m->ecp;
    p[9] = 0;
    st64(p + 10, m->seed);
    st16(p + 18, (uint16_t)n);
    memcpy(p + RFT_FM_FIXED, m->origin, n);
    memcpy(p + RFT_FM_FIXED + n, m->bits, (size_t)m->entries * m->blocks);
}

int rft_faultmap_decode(const uint8_t *p, uint32_t len, rft_faultmap *m, char *why, size_t whylen)
{
    memset(m, 0, sizeof *m);
    if (len < RFT_FM_FIXED)
        return fail(why, whylen, RFT_EFORMAT, "fault map record of %u bytes (at least %u)", len,
                    RFT_FM_FIXED);
    uint32_t entries = ld16(p + 4), blocks = ld16(p + 6), n = ld16(p + 18);
    uint64_t want = (uint64_t)RFT_FM_FIXED + n + (uint64_t)entries * blocks;
    if (entries == 0 || blocks == 0)
        return fail(why, whylen, RFT_EFORMAT, "fault map of %u entries x %u blocks", entries,
                    blocks);
    if (want != len)
        return fail(why, whylen, RFT_EFORMAT, "fault map record of %u bytes (expected %llu)",
                    len, (unsigned long long)want);
    if ((ld16(p) == RFT_FM_ALL) != (ld16(p + 2) == RFT_FM_ALL))
        return fail(why, whylen, RFT_EFORMAT, "fault map for slice %u:%u", ld16(p), ld16(p + 2));
    /* the origin is kept whole, as a string, or refused */
    if (n > RFT_FM_ORIGIN_MAX || memchr(p + RFT_FM_FIXED, 0, n))
        return fail(why, whylen, RFT_EFORMAT,
                    "fault map origin of %u bytes (at most %d, and no NUL byte)", n,
                    RFT_FM_ORIGIN_MAX);
    int e = rft_faultmap_init(m, entries, blocks);
    if (e)
        return fail(why, whylen, e, "out of memory");
    m->cu = ld16(p);
    m->simd = ld16(p + 2);
    m->ecp = p[8];
    m->seed = ld64(p + 10);
    memcpy(m->origin, p + RFT_FM_FIXED, n);
    m->origin[n] = 0;
    memcpy(m->bits, p + RFT_FM_FIXED + n, (size_t)entries * blocks);
    return 0;
}

/* ---- sets ------------------------------------------------------------------------- */
void rft_fmset_init(rft_fmset *s) { memset(s, 0, sizeof *s); }

void rft_fmset_free(rft_fmset *s)
{
    for (size_t i = 0; i < s->n; i++)
        rft_faultmap_free(&s->maps[i]);
    free(s->maps);
    rft_map_free(&s->at);
    memset(s, 0, sizeof *s);
}

/* O(1): a stage looks a slice's map up for every slice or duty record */
const rft_faultmap *rft_fmset_get(const rft_fmset *s, uint16_t cu, uint16_t simd)
{
    const uint64_t *i = s->n ? rft_map_get(&s->at, rft_slice_key(cu, simd)) : NULL;
    return i ? &s->maps[*i] : NULL;
}

const rft_faultmap *rft_fmset_find(const rft_fmset *s, uint16_t cu, uint16_t simd)
{
    const rft_faultmap *m = rft_fmset_get(s, cu, simd);
    return m ? m : rft_fmset_get(s, RFT_FM_ALL, RFT_FM_ALL);
}

int rft_fmset_check_slices(const rft_fmset *s, const rft_slices *slices, const char *csv, char *why,
                           size_t whylen)
{
    for (size_t i = 0; i < s->n; i++) {
        const rft_faultmap *m = &s->maps[i];
        if (m->cu != RFT_FM_ALL && rft_slices_find(slices, m->cu, m->simd) < 0) {
            snprintf(why, whylen, "%s: rows for slice %u:%u, which the trace does not have", csv,
                     m->cu, m->simd);
            return RFT_EFORMAT;
        }
    }
    return 0;
}

int rft_fmset_put(rft_fmset *s, rft_faultmap *m)
{
    rft_faultmap *old = (rft_faultmap *)rft_fmset_get(s, m->cu, m->simd);
    if (old) {
        rft_faultmap_free(old);
        *old = *m;
        m->bits = NULL;
        return 0;
    }
    if (s->n == s->cap) {
        size_t cap = s->cap ? 2 * s->cap : 8;
        rft_faultmap *p = realloc(s->maps, cap * sizeof *p);
        if (!p)
            return RFT_EMEM;
        s->maps = p;
        s->cap = cap;
    }
    if ((!s->at.slot && rft_map_init(&s->at, 8)) || rft_map_put(&s->at, rft_slice_key(m->cu, m->simd), s->n))
        return RFT_EMEM;
    s->maps[s->n++] = *m;
    m->bits = NULL;
    return 0;
}

int rft_fm_for_slice(const rft_fmset *s, const rft_fm_gen *g, int same, uint32_t entries,
                     uint32_t blocks, uint16_t cu, uint16_t simd, rft_faultmap *tmp,
                     const rft_faultmap **out)
{
    if ((*out = rft_fmset_find(s, cu, simd)) || !g)
        return 0;
    int e = rft_faultmap_init(tmp, entries, blocks);
    if (e)
        return e;
    rft_faultmap_generate(tmp, g, same ? RFT_FM_ALL : cu, same ? RFT_FM_ALL : simd);
    *out = tmp;
    return 0;
}

/* ---- sources of maps ------------------------------------------------------------- */
int rft_fm_source_load(const rft_fm_source *src, uint32_t entries, uint32_t blocks, rft_fmset *s,
                       char *why, size_t whylen)
{
    if (!src->csv)
        return 0;
    if (src->read_csv)
        return src->read_csv(src->read_ctx, src->csv, entries, blocks, s, why, whylen);
    return rft_faultmap_csv_read(src->csv, entries, blocks, s, why, whylen);
}

int rft_fm_source_map(const rft_fm_source *src, const rft_fmset *s, uint32_t entries,
                      uint32_t blocks, uint16_t cu, uint16_t simd, rft_faultmap *tmp,
                      const rft_faultmap **out)
{
    return rft_fm_for_slice(s, src->have_gen ? &src->gen : NULL, src->same, entries, blocks, cu,
                            simd, tmp, out);
}

int rft_fm_source_header(rft_stage *st, const rft_fm_source *src, rft_header *h, const char *key)
{
    char gen[128] = "";     /* a scenario name (at most 31 bytes) and numbers */
    if (src->have_gen)
        snprintf(gen, sizeof gen, "%s seed=%llu %s", src->gen.name,
                 (unsigned long long)src->gen.seed, src->same ? "same" : "per-slice");
    const char *csv = src->csv ? src->csv : "";
    size_t n = (src->csv ? 4 : 0) + strlen(csv) + 1 + strlen(gen) + 1;
    char *val = malloc(n);
    if (!val)
        return rft_stage_fail(st, RFT_EMEM, "out of memory");
    snprintf(val, n, "%s%s%s%s", src->csv ? "csv:" : "", csv, src->csv && gen[0] ? " " : "", gen);
    int e = rft_header_set(h, key, val);
    size_t len = strlen(val);
    free(val);
    if (e == RFT_EMEM)
        return rft_stage_fail(st, e, "out of memory");
    if (e && len > RFT_MAX_STR)
        return rft_stage_fail(st, e, "header value of %s longer than %d bytes", key, RFT_MAX_STR);
    if (e)
        return rft_stage_fail(st, e, "header: more than %d metadata keys", RFT_MAX_META);
    return 0;
}

int rft_faultmap_put(rft_stage *st, const rft_faultmap *m, uint16_t cu, uint16_t simd,
                     const rft_sink *out, uint8_t **buf, size_t *cap)
{
    size_t n = rft_faultmap_record_len(m);
    if (n > RFT_MAX_RECORD)
        return rft_stage_fail(st, RFT_EFORMAT, "a fault map of %u x %u blocks is too large for a "
                              "record", m->entries, m->blocks);
    if (n > *cap) {
        uint8_t *p = realloc(*buf, n);
        if (!p)
            return rft_stage_fail(st, RFT_EMEM, "out of memory");
        *buf = p;
        *cap = n;
    }
    rft_faultmap_encode(m, *buf);
    st16(*buf, cu);
    st16(*buf + 2, simd);
    return rft_sink_raw(out, RFT_FAULTMAP, *buf, (uint32_t)n);
}

/* ---- the stage ---------------------------------------------------------------------- */
typedef struct fmstage {
    rft_stage st;
    rft_fm_source src;
    uint32_t entries, blocks;
    rft_fmset set;              /* the CSV's maps */
    int started;                /* the maps known up front are out */
    int have_all;               /* one of them is for all slices */
    rft_slices seen;            /* slices of the trace (each has its map) */
    uint32_t last;              /* slice key of the last wavefront record */
    uint64_t replaced;          /* map records of the input dropped */
    uint8_t *buf;
    size_t cap;
    uint64_t out, out_max;      /* bytes of map records written, their limit */
} fmstage;

/* A limit of max bytes in words: "64 MiB", or "100000 bytes" */
static const char *size_words(uint64_t max, char *buf, size_t n)
{
    if (max % (1u << 20) == 0)
        snprintf(buf, n, "%llu MiB", (unsigned long long)(max >> 20));
    else
        snprintf(buf, n, "%llu bytes", (unsigned long long)max);
    return buf;
}

/* A map's record counted against the limit on what the stage writes:
 * 0, or the error before any of it is written. */
static int fm_put(fmstage *f, const rft_faultmap *m, const rft_sink *out)
{
    uint64_t n = rft_faultmap_record_len(m) + 5;
    if (f->out_max && (n > f->out_max || f->out > f->out_max - n)) {
        char at[40];
        if (m->cu == RFT_FM_ALL)
            snprintf(at, sizeof at, "every slice");
        else
            snprintf(at, sizeof at, "slice %u:%u", m->cu, m->simd);
        char lim[48];
        return rft_stage_fail(&f->st, RFT_EFORMAT, "the fault map of %s (%u entries of %u blocks) "
                              "would bring the maps written to %.1f MiB, over the limit of %s "
                              "(--max-output SIZE raises it)", at, m->entries, m->blocks,
                              (f->out + n) / 1048576.0, size_words(f->out_max, lim, sizeof lim));
    }
    f->out += n;
    return rft_faultmap_put(&f->st, m, m->cu, m->simd, out, &f->buf, &f->cap);
}

static int fm_start(rft_stage *st, const rft_header *in, rft_header *out)
{
    fmstage *f = (fmstage *)st;
    char why[RFT_FM_WHY];
    if (!f->src.csv && !f->src.have_gen)
        return rft_stage_fail(st, RFT_EFORMAT, "no fault maps: neither a CSV map nor a generator");
    f->entries = in->geom.entries;
    f->blocks = in->geom.lanes / in->geom.block_lanes;
    /* the header's geometry alone: one map past the limit is refused now */
    uint64_t one = RFT_FM_FIXED + (uint64_t)f->entries * f->blocks + 5;
    char lim[48];
    if (f->out_max && one > f->out_max)
        return rft_stage_fail(st, RFT_EFORMAT, "header: one fault map (%u entries of %u blocks) "
                              "would bring the maps written to %.1f MiB, over the limit of %s "
                              "(--max-output SIZE raises it)", f->entries, f->blocks,
                              one / 1048576.0, size_words(f->out_max, lim, sizeof lim));
    int e = rft_fm_source_load(&f->src, f->entries, f->blocks, &f->set, why, sizeof why);
    if (e)
        return rft_stage_fail(st, e, "%s", why);
    return rft_fm_source_header(st, &f->src, out, "faultmap");
}

/* A slice met for the first time: its map, if none went out, before its
 * first record. */
static int fm_slice(fmstage *f, uint16_t cu, uint16_t simd, const rft_sink *out)
{
    if (rft_slices_put(&f->seen, cu, simd, 0))
        return rft_stage_fail(&f->st, RFT_EMEM, "out of memory");
    if (f->have_all)            /* its map went out up front */
        return 0;
    rft_faultmap tmp = {0};
    const rft_faultmap *m;
    int e = rft_fm_source_map(&f->src, &f->set, f->entries, f->blocks, cu, simd, &tmp, &m);
    if (e)
        return rft_stage_fail(&f->st, e, "out of memory");
    if (!m)
        return rft_stage_fail(&f->st, RFT_EFORMAT, "no fault map for slice %u:%u (%s has neither "
                              "its rows nor '*' rows; add --scenario)", cu, simd, f->src.csv);
    if (m == &tmp)  /* a CSV map went out up front */
        e = fm_put(f, m, out);
    rft_faultmap_free(&tmp);
    return e;
}

/* The maps known up front go before the first record. */
static int fm_upfront(fmstage *f, const rft_sink *out)
{
    int e = 0;
    f->started = 1;
    for (size_t i = 0; i < f->set.n && !e; i++) {
        const rft_faultmap *m = &f->set.maps[i];
        e = fm_put(f, m, out);
        f->have_all |= m->cu == RFT_FM_ALL;
    }
    if (!e && f->src.have_gen && f->src.same && !f->have_all) {
        rft_faultmap tmp = {0};
        const rft_faultmap *m;
        e = rft_fm_source_map(&f->src, &f->set, f->entries, f->blocks, RFT_FM_ALL, RFT_FM_ALL,
                              &tmp, &m);
        if (e)
            return rft_stage_fail(&f->st, e, "out of memory");
        e = fm_put(f, m, out);
        rft_faultmap_free(&tmp);
        f->have_all = 1;
    }
    return e;
}

static int fm_feed(rft_stage *st, rft_rec *rec, const rft_sink *out)
{
    fmstage *f = (fmstage *)st;
    uint16_t cu, simd;
    uint32_t wf;
    int e;
    if (!f->started && (e = fm_upfront(f, out)))
        return e;
    if (rec->kind == RFT_FAULTMAP) {
        f->replaced++;
        return 0;
    }
    if (rft_rec_wf(rec, &cu, &simd, &wf) && rft_slice_key(cu, simd) != f->last) {
        f->last = rft_slice_key(cu, simd);
        if (rft_slices_find(&f->seen, cu, simd) < 0 && (e = fm_slice(f, cu, simd, out)))
            return e;
    }
    return out->put(out->ctx, rec);
}

static int fm_finish(rft_stage *st, const rft_sink *out)
{
    fmstage *f = (fmstage *)st;
    int e;
    if (!f->started && (e = fm_upfront(f, out)))
        return e;
    char why[RFT_FM_WHY];
    if ((e = rft_fmset_check_slices(&f->set, &f->seen, f->src.csv, why, sizeof why)))
        return rft_stage_fail(st, e, "%s", why);
    if (f->replaced)
        rft_stage_warn(st, "warning: %s: %llu fault map records of the input replaced", st->input,
                       (unsigned long long)f->replaced);
    return 0;
}

static void fm_free(rft_stage *st)
{
    fmstage *f = (fmstage *)st;
    rft_fmset_free(&f->set);
    rft_slices_free(&f->seen);
    free(f->buf);
    free(f);
}

static const rft_stage_ops fm_ops = {"rft-faultmap", fm_start, fm_feed, fm_finish, fm_free, 0};

rft_stage *rft_faultmap_stage_new(const rft_fm_source *src)
{
    fmstage *f = rft_stage_alloc(sizeof *f, &fm_ops);
    if (!f)
        return NULL;
    f->src = *src;
    f->last = UINT32_MAX;
    f->out_max = RFT_FM_MAX_OUTPUT;
    if (rft_slices_init(&f->seen)) {
        free(f);
        return NULL;
    }
    return &f->st;
}

void rft_faultmap_stage_max_output(rft_stage *st, uint64_t max)
{
    ((fmstage *)st)->out_max = max;
}

/* ---- CSV ------------------------------------------------------------------------ */
enum { COL_CU, COL_SIMD, COL_ENTRY, COL_BLOCK, COL_BITS, COL_FAULTY, NCOL };
static const char *const col_names[NCOL] = {"cu", "simd", "entry", "block", "bits", "faulty"};

typedef struct {
    uint32_t cu, simd, entry, block, bits, line;   /* cu = simd = RFT_FM_ALL: all slices */
} csv_row_t;

typedef struct {
    int col[NCOL];          /* field index of each column, -1 if absent */
    int ncols;              /* fields in the header */
    int header_done, failed;
    uint32_t line, ecp;
    char field[NCOL][32];   /* the fields of the current row we keep */
    size_t field_len[NCOL]; /* a longer field than field[] holds is no valid value */
    int nf;
    csv_row_t *rows;
    size_t n, cap;
    char *why;
    size_t whylen;
} csv_ctx;

static void on_field(void *s, size_t n, void *data)
{
    csv_ctx *c = data;
    if (c->failed)
        return;
    int i = c->nf++;
    if (!c->header_done) {
        if (i >= 256) {
            c->failed = fail(c->why, c->whylen, RFT_EFORMAT, "line %u: too many columns", c->line);
            return;
        }
        for (int k = 0; k < NCOL; k++)
            if (n == strlen(col_names[k]) && memcmp(s, col_names[k], n) == 0) {
                if (c->col[k] >= 0) {
                    c->failed = fail(c->why, c->whylen, RFT_EFORMAT,
                                     "line %u: column '%s' twice", c->line, col_names[k]);
                    return;
                }
                c->col[k] = i;
            }
        return;
    }
    for (int k = 0; k < NCOL; k++)
        if (c->col[k] == i) {
            size_t keep = n < sizeof c->field[k] ? n : sizeof c->field[k] - 1;
            memcpy(c->field[k], s, keep);
            c->field[k][keep] = 0;
            c->field_len[k] = n;
        }
}

/* decimal in 0..hi; "*" gives RFT_FM_ALL when star is allowed */
static int num(csv_ctx *c, int k, uint32_t hi, int star, uint32_t *out)
{
    const char *s = c->field[k];
    if (c->field_len[k] >= sizeof c->field[k])  /* its start is shown, marked as such */
        return c->failed = fail(c->why, c->whylen, RFT_EFORMAT,
                                "line %u: %s '%s...' (%zu bytes) is not %s", c->line, col_names[k],
                                s, c->field_len[k], star ? "a number or '*'" : "a number");
    if (star && strcmp(s, "*") == 0) {
        *out = RFT_FM_ALL;
        return 0;
    }
    uint64_t v = 0;
    const char *p = s;
    for (; *p >= '0' && *p <= '9' && v <= 0xffffffffu; p++)
        v = v * 10 + (uint64_t)(*p - '0');
    if (p == s || *p)
        return c->failed = fail(c->why, c->whylen, RFT_EFORMAT, "line %u: %s '%s' is not %s",
                                c->line, col_names[k], s, star ? "a number or '*'" : "a number");
    if (v > hi)
        return c->failed = fail(c->why, c->whylen, RFT_EFORMAT,
                                "line %u: %s %llu out of range 0..%u", c->line, col_names[k],
                                (unsigned long long)v, hi);
    *out = (uint32_t)v;
    return 0;
}

static void on_row(int term, void *data)
{
    (void)term;
    csv_ctx *c = data;
    int nf = c->nf;
    c->nf = 0;
    if (c->failed)
        return;
    if (!c->header_done) {
        c->header_done = 1;
        c->ncols = nf;
        if (c->col[COL_ENTRY] < 0 || c->col[COL_BLOCK] < 0)
            c->failed = fail(c->why, c->whylen, RFT_EFORMAT,
                             "line %u: the header needs columns 'entry' and 'block'", c->line);
        else if ((c->col[COL_BITS] < 0) == (c->col[COL_FAULTY] < 0))
            c->failed = fail(c->why, c->whylen, RFT_EFORMAT,
                             "line %u: the header needs one of the columns 'bits' and 'faulty'",
                             c->line);
        else if ((c->col[COL_CU] < 0) != (c->col[COL_SIMD] < 0))
            c->failed = fail(c->why, c->whylen, RFT_EFORMAT,
                             "line %u: columns 'cu' and 'simd' go together", c->line);
        return;
    }
    if (nf != c->ncols) {
        c->failed = fail(c->why, c->whylen, RFT_EFORMAT, "line %u: %d field%s, the header has %d",
                         c->line, nf, nf == 1 ? "" : "s", c->ncols);
        return;
    }
    csv_row_t r = {RFT_FM_ALL, RFT_FM_ALL, 0, 0, 0, c->line};
    int has_slice = c->col[COL_CU] >= 0;
    if ((has_slice && (num(c, COL_CU, 65534, 1, &r.cu) || num(c, COL_SIMD, 65534, 1, &r.simd))) ||
        num(c, COL_ENTRY, 65535, 0, &r.entry) || num(c, COL_BLOCK, 65535, 0, &r.block))
        return;
    if ((r.cu == RFT_FM_ALL) != (r.simd == RFT_FM_ALL)) {
        c->failed = fail(c->why, c->whylen, RFT_EFORMAT,
                         "line %u: cu and simd are both '*' (all slices) or both numbers",
                         c->line);
        return;
    }
    if (c->col[COL_BITS] >= 0) {
        if (num(c, COL_BITS, 65535, 0, &r.bits))
            return;
        if (r.bits > RFT_FM_MAX_BITS)
            r.bits = RFT_FM_MAX_BITS;
    } else {
        if (num(c, COL_FAULTY, 1, 0, &r.bits))
            return;
        r.bits = r.bits ? c->ecp + 1 : 0;
    }
    if (c->n == c->cap) {
        size_t cap = c->cap ? 2 * c->cap : 1024;
        csv_row_t *p = realloc(c->rows, cap * sizeof *p);
        if (!p) {
            c->failed = fail(c->why, c->whylen, RFT_EMEM, "out of memory");
            return;
        }
        c->rows = p;
        c->cap = cap;
    }
    c->rows[c->n++] = r;
}

static int by_place(const void *a, const void *b)
{
    const csv_row_t *x = a, *y = b;
    uint64_t kx = (uint64_t)x->cu << 48 | (uint64_t)x->simd << 32 | x->entry << 16 | x->block;
    uint64_t ky = (uint64_t)y->cu << 48 | (uint64_t)y->simd << 32 | y->entry << 16 | y->block;
    if (kx != ky)
        return kx < ky ? -1 : 1;
    return x->line < y->line ? -1 : x->line > y->line;
}

static void slice_name(char *buf, size_t n, uint32_t cu, uint32_t simd)
{
    if (cu == RFT_FM_ALL)
        snprintf(buf, n, "all slices (*)");
    else
        snprintf(buf, n, "slice %u:%u", cu, simd);
}

/* Check the rows of one slice, [a, b) sorted by place, and build its map. */
static int one_slice(const csv_row_t *rows, size_t a, size_t b, const char *name, uint32_t E,
                     uint32_t NB, rft_fmset *s, char *why, size_t whylen)
{
    uint32_t max_e = 0, max_b = 0, bad_line = 0, bad_e = 0, bad_b = 0;
    char sl[48];
    slice_name(sl, sizeof sl, rows[a].cu, rows[a].simd);
    for (size_t i = a; i < b; i++) {
        if (rows[i].entry > max_e)
            max_e = rows[i].entry;
        if (rows[i].block > max_b)
            max_b = rows[i].block;
        if ((rows[i].entry >= E || rows[i].block >= NB) && (!bad_line || rows[i].line < bad_line)) {
            bad_line = rows[i].line;
            bad_e = rows[i].entry;
            bad_b = rows[i].block;
        }
    }
    uint64_t own = ((uint64_t)max_e + 1) * (max_b + 1), n = b - a;
    if ((max_e + 1 != E || max_b + 1 != NB) && n == own)
        return fail(why, whylen, RFT_EFORMAT,
                    "%s: the map of %s is %u entries x %u blocks, not %u x %u", name, sl,
                    max_e + 1, max_b + 1, E, NB);
    if (bad_line && bad_e >= E)
        return fail(why, whylen, RFT_EFORMAT, "%s: line %u: entry %u out of range 0..%u", name,
                    bad_line, bad_e, E - 1);
    if (bad_line)
        return fail(why, whylen, RFT_EFORMAT, "%s: line %u: block %u out of range 0..%u", name,
                    bad_line, bad_b, NB - 1);
    if (n != (uint64_t)E * NB) {
        /* the first place without a row */
        uint32_t e = 0, k = 0;
        for (size_t i = a; i < b; i++, k++) {
            if (rows[i].entry * NB + rows[i].block != k)
                break;
        }
        e = k / NB;
        return fail(why, whylen, RFT_EFORMAT, "%s: %s has no row for entry %u block %u", name,
                    sl, e, k % NB);
    }
    rft_faultmap m;
    int err = rft_faultmap_init(&m, E, NB);
    if (err)
        return fail(why, whylen, err, "out of memory");
    m.cu = (uint16_t)rows[a].cu;
    m.simd = (uint16_t)rows[a].simd;
    snprintf(m.origin, sizeof m.origin, "csv:%s", name);
    for (size_t i = a; i < b; i++)
        m.bits[rows[i].entry * NB + rows[i].block] = (uint8_t)rows[i].bits;
    if ((err = rft_fmset_put(s, &m))) {
        rft_faultmap_free(&m);
        return fail(why, whylen, err, "out of memory");
    }
    return 0;
}

int rft_faultmap_csv_parse(const char *buf, size_t len, const char *name, uint32_t entries,
                           uint32_t blocks, rft_fmset *s, char *why, size_t whylen)
{
    struct csv_parser p;
    csv_ctx c;
    if (strlen(name) > RFT_FM_NAME_MAX)
        return fail(why, whylen, RFT_EFORMAT, "fault-map file name longer than %d bytes",
                    RFT_FM_NAME_MAX);
    memset(&c, 0, sizeof c);
    for (int k = 0; k < NCOL; k++)
        c.col[k] = -1;
    c.ecp = RFT_FM_ECP;
    c.why = why;
    c.whylen = whylen;
    if (csv_init(&p, CSV_APPEND_NULL) != 0)
        return fail(why, whylen, RFT_EMEM, "out of memory");
    /* line by line, so that errors can name the line */
    for (size_t pos = 0; pos < len && !c.failed;) {
        const char *nl = memchr(buf + pos, '\n', len - pos);
        size_t end = nl ? (size_t)(nl - buf) : len;
        c.line++;
        size_t k = pos;
        while (k < end && (buf[k] == ' ' || buf[k] == '\t' || buf[k] == '\r'))
            k++;
        if (k < end &&
            (csv_parse(&p, buf + pos, end - pos, on_field, on_row, &c) != end - pos ||
             csv_parse(&p, "\n", 1, on_field, on_row, &c) != 1) &&
            !c.failed)
            c.failed = fail(why, whylen, RFT_EFORMAT, "line %u: %s", c.line,
                            csv_strerror(csv_error(&p)));
        pos = nl ? end + 1 : len;
    }
    if (!c.failed && csv_fini(&p, on_field, on_row, &c) != 0 && !c.failed)
        c.failed = fail(why, whylen, RFT_EFORMAT, "line %u: %s", c.line,
                        csv_strerror(csv_error(&p)));
    csv_free(&p);
    if (!c.failed && !c.header_done)
        c.failed = fail(why, whylen, RFT_EFORMAT, "%s: empty map (no header line)", name);
    if (!c.failed && c.n == 0)
        c.failed = fail(why, whylen, RFT_EFORMAT, "%s: no rows after the header", name);
    if (c.failed) {
        /* messages from the callbacks name the line but not the file */
        if (why && strncmp(why, "line ", 5) == 0) {
            char line[512];     /* a line message: a field shown is at most 31 bytes */
            snprintf(line, sizeof line, "%s", why);
            snprintf(why, whylen, "%s: %s", name, line);
        }
        free(c.rows);
        return c.failed;
    }
    if (c.n > 1)
        qsort(c.rows, c.n, sizeof *c.rows, by_place);
    /* a duplicate: name the later of the first pair, by line */
    uint32_t dup = 0, first = 0;
    size_t di = 0;
    for (size_t i = 1; i < c.n; i++)
        if (by_place(&c.rows[i - 1], &c.rows[i]) != 0 && c.rows[i - 1].cu == c.rows[i].cu &&
            c.rows[i - 1].simd == c.rows[i].simd && c.rows[i - 1].entry == c.rows[i].entry &&
            c.rows[i - 1].block == c.rows[i].block && (!dup || c.rows[i].line < dup)) {
            dup = c.rows[i].line;
            first = c.rows[i - 1].line;
            di = i;
        }
    int err = 0;
    if (dup) {
        char sl[48];
        slice_name(sl, sizeof sl, c.rows[di].cu, c.rows[di].simd);
        err = fail(why, whylen, RFT_EFORMAT,
                   "%s: line %u: second row for %s entry %u block %u (first at line %u)", name,
                   dup, sl, c.rows[di].entry, c.rows[di].block, first);
    }
    for (size_t a = 0; !err && a < c.n;) {
        size_t b = a + 1;
        while (b < c.n && c.rows[b].cu == c.rows[a].cu && c.rows[b].simd == c.rows[a].simd)
            b++;
        err = one_slice(c.rows, a, b, name, entries, blocks, s, why, whylen);
        a = b;
    }
    free(c.rows);
    return err;
}

const char *rft_faultmap_csv_header(void) { return "cu,simd,entry,block,bits\n"; }

int rft_faultmap_csv_format(const rft_faultmap *m, char **buf, size_t *len, size_t *cap)
{
    char sl[16];
    if (m->cu == RFT_FM_ALL)
        snprintf(sl, sizeof sl, "*,*");
    else
        snprintf(sl, sizeof sl, "%u,%u", m->cu, m->simd);
    size_t need = *len + (size_t)m->entries * m->blocks * (strlen(sl) + 20) + 1;
    if (need > *cap) {
        size_t c = *cap ? *cap : 4096;
        while (c < need)
            c *= 2;
        char *p = realloc(*buf, c);
        if (!p)
            return RFT_EMEM;
        *buf = p;
        *cap = c;
    }
    char *p = *buf + *len;
    for (uint32_t e = 0; e < m->entries; e++)
        for (uint32_t b = 0; b < m->blocks; b++)
            p += sprintf(p, "%s,%u,%u,%u\n", sl, e, b, m->bits[(size_t)e * m->blocks + b]);
    *len = (size_t)(p - *buf);
    return 0;
}

int rft_faultmap_csv_read(const char *path, uint32_t entries, uint32_t blocks, rft_fmset *s,
                          char *why, size_t whylen)
{
    char err[256];
    if (strlen(path) > RFT_FM_NAME_MAX)     /* before a message quotes it */
        return fail(why, whylen, RFT_EFORMAT, "fault-map file name longer than %d bytes",
                    RFT_FM_NAME_MAX);
    rft_in *in = rft_in_open(path, RFT_IN_AUTO, err, sizeof err);
    if (!in)
        return fail(why, whylen, RFT_EIO, "%s: %s", path, err);
    size_t len = 0, cap = 1 << 16;
    char *buf = malloc(cap);
    int e = 0;
    for (;;) {
        if (!buf) {
            e = fail(why, whylen, RFT_EMEM, "%s: out of memory", path);
            break;
        }
        if (len == cap) {
            if (cap >= RFT_FM_CSV_MAX) {
                e = fail(why, whylen, RFT_EFORMAT, "%s: larger than %u MiB", path,
                         RFT_FM_CSV_MAX >> 20);
                break;
            }
            char *p = realloc(buf, cap *= 2);
            if (!p) {
                free(buf);
                buf = NULL;
                continue;
            }
            buf = p;
        }
        long n = rft_in_read(in, buf + len, cap - len);
        if (n < 0) {
            e = fail(why, whylen, (int)n, "%s: %s", path, rft_in_error(in));
            break;
        }
        if (n == 0)
            break;
        len += (size_t)n;
    }
    rft_in_close(in);
    if (!e) {
        const char *base = strcmp(path, "-") == 0 ? "stdin" : path;
        e = rft_faultmap_csv_parse(buf, len, base, entries, blocks, s, why, whylen);
    }
    free(buf);
    return e;
}
