/* test_pattern.c - unit and property tests of lib/pattern.c. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "pattern.h"
#include "rft.h"

#define CHECK(c) do { if (!(c)) { \
    fprintf(stderr, "%s:%d: check failed: %s\n", __FILE__, __LINE__, #c); exit(1); } } while (0)
#define LANES 64
#define FB 16

static rft_pattern_opts opts(unsigned bs, int any, uint32_t max_delta)
{
    rft_pattern_opts o = { bs, any, max_delta };
    return o;
}

/* Lanes of the pattern (c0, de, db, bs): the examples are written from Eq. 2. */
static void make(uint32_t *v, unsigned lanes, uint32_t c0, uint32_t de, uint32_t db, unsigned bs)
{
    for (unsigned i = 0; i < lanes; i++)
        v[i] = c0 + (i / bs) * db + (i % bs) * de;
}

static rft_pattern classify(const uint32_t *v, unsigned lanes, rft_pattern_opts o)
{
    rft_pattern p;
    rft_pattern_classify(v, lanes, FB, &o, &p);
    return p;
}

static void expect(const uint32_t *v, rft_pattern_opts o, int cls, uint32_t c0, uint32_t de, uint32_t db)
{
    rft_pattern p = classify(v, LANES, o);
    CHECK(p.cls == cls);
    CHECK(p.c0 == c0 && p.de == de && p.db == db);
    CHECK(p.firstblock == (cls != RFT_CLS_OTHER));
}

static void test_examples(void)
{
    rft_pattern_opts hw;
    rft_pattern_opts_default(&hw);
    uint32_t v[LANES], u[LANES];

    /* seed 002 5.1.1: 2 4 6 8 10 12 14 16 10 12 14 ... -> C0 = 2, log2 De = 1, log2 Db = 3 */
    make(v, LANES, 2, 2, 8, 8);
    static const uint32_t head[] = { 2, 4, 6, 8, 10, 12, 14, 16, 10, 12, 14, 16, 18, 20 };
    CHECK(memcmp(v, head, sizeof head) == 0);
    expect(v, hw, RFT_CLS_DOUBLE, 2, 2, 8);
    CHECK(rft_pattern_log2(2) == 1 && rft_pattern_log2(8) == 3);

    /* Fig. 5: constants (i = 0, local_size >> 1), work-item ids with an offset,
     * addresses of a 4-byte array, addresses in a matrix of 16-element rows */
    make(v, LANES, 0, 0, 0, 8);
    expect(v, hw, RFT_CLS_CONST, 0, 0, 0);
    make(v, LANES, 32, 0, 0, 8);
    expect(v, hw, RFT_CLS_CONST, 32, 0, 0);
    make(v, LANES, 128, 1, 8, 8);
    expect(v, hw, RFT_CLS_SINGLE, 128, 1, 8);
    make(v, LANES, 0x10000, 4, 32, 8);
    expect(v, hw, RFT_CLS_SINGLE, 0x10000, 4, 32);
    make(v, LANES, 0x20000, 4, 64, 8);
    expect(v, hw, RFT_CLS_DOUBLE, 0x20000, 4, 64);

    /* Fig. 6a: tile 0 (8x8) of a 16x16 matrix of 4-byte elements at A */
    uint32_t A = 0x8000;
    for (unsigned r = 0; r < 8; r++)
        for (unsigned c = 0; c < 8; c++)
            v[r * 8 + c] = A + (r * 16 + c) * 4;
    expect(v, hw, RFT_CLS_DOUBLE, A, 4, 64);

    /* Fig. 6b: 1x4 sliding windows, stride 2 elements of 2 bytes, over B: BS 4 */
    uint32_t B = 0x4000;
    for (unsigned s = 0; s < LANES / 4; s++)
        for (unsigned e = 0; e < 4; e++)
            v[s * 4 + e] = B + (s * 2 + e) * 2;
    expect(v, opts(4, 0, 64), RFT_CLS_DOUBLE, B, 2, 4);
    rft_pattern p = classify(v, LANES, hw);   /* not a pattern with BS 8 */
    CHECK(p.cls == RFT_CLS_OTHER && !p.firstblock);

    /* decompression returns the lanes */
    make(v, LANES, 2, 2, 8, 8);
    rft_pattern_decompress(2, 2, 8, 8, LANES, u);
    CHECK(memcmp(u, v, sizeof v) == 0);
}

static void test_rules(void)
{
    rft_pattern_opts hw;
    rft_pattern_opts_default(&hw);
    uint32_t v[LANES];
    rft_pattern p;

    make(v, LANES, 7, 64, 64, 8);             /* both deltas at the limit */
    expect(v, hw, RFT_CLS_DOUBLE, 7, 64, 64);
    make(v, LANES, 7, 16, 128, 8);            /* single-delta with Db = 128 > 64 */
    p = classify(v, LANES, hw);
    CHECK(p.cls == RFT_CLS_OTHER && !p.firstblock && p.de == 16 && p.db == 128);
    expect(v, opts(8, 0, 128), RFT_CLS_SINGLE, 7, 16, 128);
    expect(v, opts(8, 1, 0), RFT_CLS_SINGLE, 7, 16, 128);
    make(v, LANES, 7, 3, 24, 8);              /* not a power of two */
    CHECK(classify(v, LANES, hw).cls == RFT_CLS_OTHER);
    expect(v, opts(8, 1, 0), RFT_CLS_SINGLE, 7, 3, 24);
    make(v, LANES, 1000, (uint32_t)-4, (uint32_t)-32, 8);  /* descending: negative deltas */
    CHECK(classify(v, LANES, hw).cls == RFT_CLS_OTHER);
    expect(v, opts(8, 1, 0), RFT_CLS_SINGLE, 1000, (uint32_t)-4, (uint32_t)-32);
    make(v, LANES, 5, 32, 0, 8);              /* --max-delta 16 */
    CHECK(classify(v, LANES, opts(8, 0, 16)).cls == RFT_CLS_OTHER);
    expect(v, hw, RFT_CLS_DOUBLE, 5, 32, 0);
    make(v, LANES, 0xfffffff0u, 8, 64, 8);    /* wraps around 2^32 */
    expect(v, hw, RFT_CLS_SINGLE, 0xfffffff0u, 8, 64);

    /* local ids of a 16-wide work-group: other with BS 8, double with BS 16 */
    for (unsigned i = 0; i < LANES; i++)
        v[i] = i % 16;
    CHECK(classify(v, LANES, hw).cls == RFT_CLS_OTHER);
    expect(v, opts(16, 0, 64), RFT_CLS_DOUBLE, 0, 1, 0);
    for (unsigned i = 0; i < LANES; i++)
        v[i] = i / 16;
    expect(v, opts(16, 0, 64), RFT_CLS_DOUBLE, 0, 0, 1);

    /* unused deltas: BS 1 (no element delta), BS >= lanes (no block delta) */
    make(v, LANES, 9, 4, 4, 1);
    expect(v, opts(1, 0, 64), RFT_CLS_SINGLE, 9, 4, 4);
    expect(v, opts(64, 0, 64), RFT_CLS_SINGLE, 9, 4, 256);
    CHECK(classify(v, LANES, opts(32, 0, 64)).cls == RFT_CLS_OTHER);  /* Db = 128 */
    make(v, 1, 9, 0, 0, 8);
    p = classify(v, 1, hw);
    CHECK(p.cls == RFT_CLS_CONST && p.firstblock);

    /* 3-bit codes */
    CHECK(rft_pattern_log2(0) == 7 && rft_pattern_log2(1) == 0 && rft_pattern_log2(64) == 6);
    CHECK(rft_pattern_log2(3) == -1 && rft_pattern_log2(128) == -1);
    for (int c = 0; c <= 7; c++)
        CHECK(rft_pattern_log2(rft_pattern_delta(c)) == c);
}

static void test_speculation(void)
{
    rft_pattern_opts hw;
    rft_pattern_opts_default(&hw);
    uint32_t v[LANES];

    make(v, LANES, 0, 1, 8, 8);
    v[FB] = 12345;                            /* first block fits, lane 16 does not */
    rft_pattern p = classify(v, LANES, hw);
    CHECK(p.cls == RFT_CLS_OTHER && p.firstblock);
    v[FB] = FB;
    v[FB - 1] = 0;                            /* the first block itself does not */
    p = classify(v, LANES, hw);
    CHECK(p.cls == RFT_CLS_OTHER && !p.firstblock);
    /* Db only fails the rule beyond the first block (BS 16): speculation says yes */
    for (unsigned i = 0; i < LANES; i++)
        v[i] = (i / 16) * 3 + (i % 16);
    p = classify(v, LANES, opts(16, 0, 64));
    CHECK(p.cls == RFT_CLS_OTHER && p.firstblock && p.db == 3);
}

static void test_wc(void)
{
    uint32_t v[LANES], bits;

    make(v, LANES, 0xdeadbeef, 0, 0, 8);
    CHECK(rft_wc_classify(v, LANES, &bits) == RFT_WC_BASE && bits == 32);
    make(v, LANES, 100, 1, 8, 8);
    CHECK(rft_wc_classify(v, LANES, &bits) == RFT_WC_DELTA1 && bits == 536);
    v[5] = 100 - 128;
    v[6] = 100 + 127;
    CHECK(rft_wc_classify(v, LANES, &bits) == RFT_WC_DELTA1);
    v[7] = 100 + 128;
    CHECK(rft_wc_classify(v, LANES, &bits) == RFT_WC_DELTA2 && bits == 1040);
    v[8] = 100 - 32768;
    v[9] = 100 + 32767;
    CHECK(rft_wc_classify(v, LANES, &bits) == RFT_WC_DELTA2);
    v[63] = 100 + 32768;
    CHECK(rft_wc_classify(v, LANES, &bits) == RFT_WC_UNCOMP && bits == 2048);
    make(v, 32, 0, 1, 8, 8);
    CHECK(rft_wc_classify(v, 32, &bits) == RFT_WC_DELTA1 && bits == 32 + 8 * 31);
    CHECK(rft_wc_classify(v, 1, &bits) == RFT_WC_BASE && bits == 32);
}

/* ---- property tests ------------------------------------------------------ */
static uint64_t rng = 0x9e3779b97f4a7c15u;  /* fixed seed: failures reproduce */
static uint32_t rnd(void)
{
    rng ^= rng >> 12, rng ^= rng << 25, rng ^= rng >> 27;  /* xorshift64* */
    return (uint32_t)((rng * 0x2545f4914f6cdd1du) >> 32);
}

/* The definition, written the slow way, as the reference. */
static int ref_ok(uint32_t d, rft_pattern_opts o)
{
    if (o.any || d == 0)
        return 1;
    for (uint32_t p = 1; p <= o.max_delta && p != 0; p <<= 1)
        if (d == p)
            return 1;
    return 0;
}

static int ref_fits(const uint32_t *v, unsigned n, rft_pattern_opts o, const rft_pattern *p)
{
    int uses_de = 0, uses_db = 0;
    for (unsigned i = 0; i < n; i++) {
        uses_de |= i % o.bs != 0;
        uses_db |= i / o.bs != 0;
        if (v[i] != p->c0 + (i / o.bs) * p->db + (i % o.bs) * p->de)
            return 0;
    }
    return (!uses_de || ref_ok(p->de, o)) && (!uses_db || ref_ok(p->db, o));
}

static void check_against_reference(const uint32_t *v, unsigned lanes, rft_pattern_opts o)
{
    rft_pattern p;
    rft_pattern_classify(v, lanes, FB, &o, &p);
    int fits = ref_fits(v, lanes, o, &p);
    CHECK(fits == (p.cls != RFT_CLS_OTHER));
    CHECK(p.firstblock == ref_fits(v, lanes < FB ? lanes : FB, o, &p));
    if (fits) {
        uint32_t u[LANES];
        rft_pattern_decompress(p.c0, p.de, p.db, o.bs, lanes, u);
        CHECK(memcmp(u, v, lanes * sizeof *v) == 0);
        CHECK((p.cls == RFT_CLS_CONST) == (p.de == 0 && p.db == 0));
        CHECK((p.cls == RFT_CLS_SINGLE) == (p.de != 0 && p.db == o.bs * p.de));
    }
}

static uint32_t rnd_delta(int any)
{
    if (any)
        return rnd() % 4 ? rnd() : rnd() % 3;
    unsigned k = rnd() % 9;
    return k == 8 ? 0 : 1u << k;  /* 1..128: 128 only fits --max-delta 128 */
}

static void test_properties(void)
{
    static const unsigned bss[] = { 1, 2, 3, 4, 5, 8, 12, 16, 32, 64 };
    uint32_t v[LANES];
    unsigned compressible = 0;

    for (int it = 0; it < 200000; it++) {
        rft_pattern_opts o = opts(bss[rnd() % 10], rnd() % 2, rnd() % 4 ? 64 : 128);
        unsigned lanes = rnd() % 8 ? LANES : 1 + rnd() % LANES;
        make(v, lanes, rnd(), rnd_delta(o.any), rnd_delta(o.any), o.bs);
        check_against_reference(v, lanes, o);
        if (lanes == LANES && o.any)          /* the any rule takes every generated pattern */
            CHECK(classify(v, lanes, o).cls != RFT_CLS_OTHER);
        compressible += classify(v, lanes, o).cls != RFT_CLS_OTHER;

        /* one lane away from a pattern: never compressible with 64 lanes */
        unsigned at = rnd() % lanes;
        uint32_t flip = rnd();
        v[at] += flip ? flip : 1;
        check_against_reference(v, lanes, o);
        if (lanes == LANES)
            CHECK(classify(v, lanes, o).cls == RFT_CLS_OTHER);

        /* random registers: never compressible, even with any delta */
        for (unsigned i = 0; i < lanes; i++)
            v[i] = rnd();
        check_against_reference(v, lanes, o);
        if (lanes > 1u + (o.bs > 1) + (lanes > o.bs))  /* more lanes than the deltas' lanes */
            CHECK(classify(v, lanes, o).cls == RFT_CLS_OTHER);
    }
    CHECK(compressible > 100000);  /* the generator did exercise the fitting path */
}

int main(void)
{
    test_examples();
    test_rules();
    test_speculation();
    test_wc();
    test_properties();
    puts("test_pattern: ok");
    return 0;
}
