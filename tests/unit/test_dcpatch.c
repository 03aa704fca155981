/* test_dcpatch.c - the DC-Patch PT and PSU (lib/dcpatch.c) on a small
 * hand-made slice where every decision can be checked by hand. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "dcpatch.h"
#include "faultmap.h"
#include "rft.h"

#define CHECK(c) do { if (!(c)) { \
    fprintf(stderr, "%s:%d: check failed: %s\n", __FILE__, __LINE__, #c); exit(1); } } while (0)

/* 8 entries x 4 blocks:
 *   entry 1: faulty bits in blocks 0 and 2 -> faulty entry, blocks 1 and 3 usable
 *   entry 2: one faulty bit (block 3), repaired by ECP -> reliable
 *   entry 3: faulty bits in all four blocks -> useless
 *   entries 0, 2, 4, 5, 6, 7: reliable */
static void small_map(rft_faultmap *m)
{
    CHECK(rft_faultmap_init(m, 8, 4) == 0);
    m->bits[1 * 4 + 0] = 1;
    m->bits[1 * 4 + 2] = 1;
    m->bits[2 * 4 + 3] = 1;
    for (int b = 0; b < 4; b++)
        m->bits[3 * 4 + b] = 1;
}

static rft_dcp_slice s;
static rft_dcp_event ev;
static uint64_t now;

static void ok(void)
{
    char why[256];
    if (rft_dcp_check(&s, why, sizeof why) != 0) {
        fprintf(stderr, "invariant: %s\n", why);
        exit(1);
    }
}

static void write_(uint32_t row, int comp)
{
    rft_dcp_write(&s, row, comp, ++now, NULL, &ev);
    ok();
}

#define EXPECT(pl, e, b) do { CHECK(ev.place == (pl)); \
    if ((pl) != RFT_DCP_LDS) CHECK(ev.entry == (e) && ev.block == (b)); } while (0)

static void setup(const rft_dcp_opts *o)
{
    rft_faultmap m;
    small_map(&m);
    CHECK(rft_dcp_init(&s, &m, o) == 0);
    rft_faultmap_free(&m);
    now = 0;
    ok();
}

/* The walk-through of tests/fixtures/dcpatch/basic.txt, in the module. */
static void test_walkthrough(void)
{
    rft_dcp_opts o;
    rft_dcp_opts_default(&o);
    setup(&o);
    CHECK(rft_dcp_begin(&s, 8, 0, now, NULL) == 0);
    ok();
    CHECK(rft_dcp_read(&s, 0) == RFT_DCP_R_UNWRITTEN);
    /* compressed registers go to the reliable blocks of faulty entry 1 */
    write_(0, 1); EXPECT(RFT_DCP_FAULTY, 1, 1); CHECK(ev.first && ev.searches == 2);
    write_(1, 1); EXPECT(RFT_DCP_FAULTY, 1, 3);
    /* no faulty block left: a free reliable entry, shared by four */
    write_(2, 1); EXPECT(RFT_DCP_RELIABLE, 0, 0);
    write_(3, 1); EXPECT(RFT_DCP_RELIABLE, 0, 1);
    write_(4, 1); EXPECT(RFT_DCP_RELIABLE, 0, 2);
    write_(5, 1); EXPECT(RFT_DCP_RELIABLE, 0, 3);
    CHECK(s.acc.cur[RFT_DCP_USED_REL_COMP] == 1 && s.acc.cur[RFT_DCP_USED_FLT_COMP] == 1);
    /* uncompressed registers take whole reliable entries; 2 has an ECP bit */
    write_(6, 0); EXPECT(RFT_DCP_RELIABLE, 2, 0);
    write_(7, 0); EXPECT(RFT_DCP_RELIABLE, 4, 0);
    write_(6, 0); EXPECT(RFT_DCP_NORMAL, 2, 0); CHECK(ev.searches == 1 && !ev.first);
    CHECK(rft_dcp_read(&s, 6) == RFT_DCP_R_UNC && rft_dcp_read(&s, 0) == RFT_DCP_R_COMP);
    /* state changes release and re-patch */
    write_(0, 0); EXPECT(RFT_DCP_RELIABLE, 5, 0); CHECK(ev.change && ev.released);
    write_(1, 1); EXPECT(RFT_DCP_NORMAL, 1, 3);
    write_(2, 0); EXPECT(RFT_DCP_RELIABLE, 6, 0);
    write_(3, 0); EXPECT(RFT_DCP_RELIABLE, 7, 0);
    /* no whole reliable entry free: entry 0 still holds v5 -> spill */
    write_(4, 0); EXPECT(RFT_DCP_LDS, 0, 0); CHECK(ev.spill && ev.change);
    CHECK(rft_dcp_read(&s, 4) == RFT_DCP_R_LDS);
    CHECK(s.acc.cur[RFT_DCP_SPILLED_REGS] == 1);
    /* v5 alone in entry 0: its own entry takes it uncompressed */
    write_(5, 0); EXPECT(RFT_DCP_RELIABLE, 0, 0); CHECK(ev.change);
    /* a spilled register tries to come back: nothing free */
    write_(4, 0); EXPECT(RFT_DCP_LDS, 0, 0); CHECK(!ev.spill && !ev.from_lds && ev.searches == 2);
    /* v7 turns compressed: faulty block 1.1 (freed by v0); entry 4 frees */
    write_(7, 1); EXPECT(RFT_DCP_FAULTY, 1, 1);
    /* and the spilled v4 comes back into entry 4 */
    write_(4, 0); EXPECT(RFT_DCP_RELIABLE, 4, 0); CHECK(ev.from_lds);
    CHECK(s.acc.cur[RFT_DCP_SPILLED_REGS] == 0);
    /* the end of the wavefront frees everything */
    CHECK(rft_dcp_end(&s, 0, 8, ++now, NULL) == 8);
    ok();
    for (int c = 0; c < RFT_DCP_NCAT; c++)
        CHECK(s.acc.cur[c] == 0);
    CHECK(rft_dcp_begin(&s, 8, 1, ++now, NULL) == 0);
    write_(3, 1); EXPECT(RFT_DCP_FAULTY, 1, 1);
    write_(4, 0); EXPECT(RFT_DCP_RELIABLE, 0, 0);
    rft_dcp_free(&s);
}

static void test_windows(void)
{
    rft_dcp_opts o;
    rft_dcp_opts_default(&o);
    setup(&o);
    CHECK(rft_dcp_begin(&s, 3, 10, 0, NULL) == 0);
    CHECK(rft_dcp_begin(&s, 3, 11, 0, NULL) == 3);
    CHECK(rft_dcp_begin(&s, 3, 12, 0, NULL) == -1);    /* 2 rows left */
    CHECK(rft_dcp_begin(&s, 2, 12, 0, NULL) == 6);
    rft_dcp_end(&s, 0, 3, 1, NULL);
    CHECK(rft_dcp_begin(&s, 4, 13, 1, NULL) == -1);    /* 3 free rows, first fit */
    CHECK(rft_dcp_begin(&s, 3, 13, 1, NULL) == 0);
    CHECK(s.live_rows == 8);
    CHECK(rft_dcp_begin(&s, 9, 14, 1, NULL) == -1);
    ok();
    rft_dcp_free(&s);
}

static void test_options(void)
{
    rft_dcp_opts o;
    /* highest index first */
    rft_dcp_opts_default(&o);
    o.pick_high = 1;
    setup(&o);
    rft_dcp_begin(&s, 8, 0, 0, NULL);
    write_(0, 1); EXPECT(RFT_DCP_FAULTY, 1, 3);
    write_(1, 0); EXPECT(RFT_DCP_RELIABLE, 7, 0);
    write_(2, 1); EXPECT(RFT_DCP_FAULTY, 1, 1);
    write_(3, 1); EXPECT(RFT_DCP_RELIABLE, 6, 3);
    write_(4, 1); EXPECT(RFT_DCP_RELIABLE, 6, 2);
    rft_dcp_free(&s);

    /* no sharing: a compressed register in a reliable entry holds all of it */
    rft_dcp_opts_default(&o);
    o.share_reliable = 0;
    setup(&o);
    rft_dcp_begin(&s, 8, 0, 0, NULL);
    write_(0, 1); write_(1, 1);                 /* faulty blocks 1.1, 1.3 */
    write_(2, 1); EXPECT(RFT_DCP_RELIABLE, 0, 0);
    write_(3, 1); EXPECT(RFT_DCP_RELIABLE, 2, 0);
    write_(2, 0); EXPECT(RFT_DCP_RELIABLE, 4, 0);  /* preventive: entry 0 still held */
    write_(3, 0); EXPECT(RFT_DCP_RELIABLE, 0, 0);  /* entry 0 free again */
    rft_dcp_free(&s);

    /* preventive (default): a register turning compressed while the faulty
     * blocks are taken goes to another reliable entry, its own still held */
    rft_dcp_opts_default(&o);
    setup(&o);
    rft_dcp_begin(&s, 8, 0, 0, NULL);
    write_(1, 1); EXPECT(RFT_DCP_FAULTY, 1, 1);
    write_(2, 1); EXPECT(RFT_DCP_FAULTY, 1, 3);
    write_(0, 0); EXPECT(RFT_DCP_RELIABLE, 0, 0);
    write_(0, 1); EXPECT(RFT_DCP_RELIABLE, 2, 0);
    rft_dcp_free(&s);

    /* release first: the old place is free for the new search */
    rft_dcp_opts_default(&o);
    o.release_first = 1;
    setup(&o);
    rft_dcp_begin(&s, 8, 0, 0, NULL);
    write_(1, 1); EXPECT(RFT_DCP_FAULTY, 1, 1);
    write_(2, 1); EXPECT(RFT_DCP_FAULTY, 1, 3);
    write_(0, 0); EXPECT(RFT_DCP_RELIABLE, 0, 0);
    write_(0, 1); EXPECT(RFT_DCP_RELIABLE, 0, 0);
    write_(0, 0); EXPECT(RFT_DCP_RELIABLE, 0, 0);
    rft_dcp_free(&s);
}

/* Uncompressed registers beyond the reliable entries spill; compressed ones
 * still find blocks. */
static void test_full(void)
{
    rft_dcp_opts o;
    rft_dcp_opts_default(&o);
    setup(&o);
    rft_dcp_begin(&s, 8, 0, 0, NULL);
    for (uint32_t r = 0; r < 6; r++) {
        write_(r, 0);
        CHECK(ev.place == RFT_DCP_RELIABLE);
    }
    write_(6, 0); EXPECT(RFT_DCP_LDS, 0, 0); CHECK(ev.spill && ev.first);
    write_(7, 1); EXPECT(RFT_DCP_FAULTY, 1, 1);
    CHECK(s.acc.cur[RFT_DCP_USED_REL_UNC] == 6);
    /* reads */
    CHECK(rft_dcp_read(&s, 6) == RFT_DCP_R_LDS);
    CHECK(rft_dcp_read(&s, 7) == RFT_DCP_R_COMP);
    rft_dcp_free(&s);
}

/* Time integrals: entries x cycles, per category. */
static void test_integrals(void)
{
    rft_dcp_opts o;
    rft_dcp_acc k;
    memset(&k, 0, sizeof k);
    rft_dcp_opts_default(&o);
    setup(&o);
    rft_dcp_begin(&s, 2, 0, 100, &k);        /* 2 unwritten rows from 100 */
    rft_dcp_write(&s, 0, 0, 110, &k, &ev);   /* row 0: reliable, uncompressed from 110 */
    rft_dcp_write(&s, 1, 1, 120, &k, &ev);   /* row 1 (faulty natural entry), compressed */
    rft_dcp_end(&s, 0, 2, 200, &k);
    CHECK(rft_dcp_integral(&s.acc, RFT_DCP_CONV_UNWRITTEN, 300) == 10 + 20);
    CHECK(rft_dcp_integral(&s.acc, RFT_DCP_CONV_REL_UNC, 300) == 90);
    CHECK(rft_dcp_integral(&s.acc, RFT_DCP_CONV_FLT_COMP, 300) == 80);
    CHECK(rft_dcp_integral(&s.acc, RFT_DCP_USED_REL_UNC, 300) == 90);
    CHECK(rft_dcp_integral(&s.acc, RFT_DCP_USED_FLT_COMP, 300) == 80);
    CHECK(rft_dcp_integral(&k, RFT_DCP_USED_FLT_COMP, 200) == 80);
    rft_dcp_free(&s);
}

/* rft_dcp_check catches a corrupted PT. */
static void test_check(void)
{
    rft_dcp_opts o;
    char why[256];
    rft_dcp_opts_default(&o);
    setup(&o);
    rft_dcp_begin(&s, 4, 7, 0, NULL);
    write_(0, 1);                    /* 1.1 */
    write_(1, 1);                    /* 1.3 */
    write_(2, 0);                    /* entry 0 */
    s.pt[1].block = 0;               /* onto faulty block 0 of entry 1 */
    CHECK(rft_dcp_check(&s, why, sizeof why) == -1);
    CHECK(strcmp(why, "v1 of wavefront 7 sits on faulty block 0 of entry 1") == 0);
    s.pt[1].block = 1;               /* onto v0's block */
    CHECK(rft_dcp_check(&s, why, sizeof why) == -1);
    CHECK(strcmp(why, "v0 of wavefront 7 and v1 of wavefront 7 share block 1 of entry 1") == 0);
    s.pt[1].block = 3;
    s.pt[2].entry = 1;               /* uncompressed onto a faulty entry */
    CHECK(rft_dcp_check(&s, why, sizeof why) == -1);
    CHECK(strcmp(why, "uncompressed v2 of wavefront 7 sits on faulty entry 1") == 0);
    s.pt[2].entry = 0;
    ok();
    s.pt[1].entry = 0;               /* a compressed register inside v2's entry */
    s.pt[1].block = 2;
    CHECK(rft_dcp_check(&s, why, sizeof why) == -1);
    CHECK(strcmp(why, "uncompressed v2 of wavefront 7 shares entry 0 with v1 of wavefront 7") == 0);
    s.pt[1].entry = 1;
    s.pt[1].block = 3;
    ok();
    s.ent_used[1] = 1;               /* the PSU forgets a register */
    CHECK(rft_dcp_check(&s, why, sizeof why) == -1);
    CHECK(strcmp(why, "PSU counts 1 registers in entry 1, the PT 2") == 0);
    rft_dcp_free(&s);
}

/* A bigger slice: many random operations keep the invariants. */
static void test_random(void)
{
    rft_faultmap m;
    rft_fm_gen g;
    rft_dcp_opts o;
    CHECK(rft_fm_gen_scenario(&g, "dispersed", NULL, 0) == 0);
    g.seed = 5;
    CHECK(rft_faultmap_init(&m, 256, 4) == 0);
    rft_faultmap_generate(&m, &g, 0, 0);
    uint64_t x = 88172645463325252ull;
    for (int variant = 0; variant < 8; variant++) {
        o.pick_high = variant & 1;
        o.share_reliable = (variant >> 1) & 1;
        o.release_first = (variant >> 2) & 1;
        CHECK(rft_dcp_init(&s, &m, &o) == 0);
        int base[4];
        for (int w = 0; w < 4; w++)
            CHECK((base[w] = rft_dcp_begin(&s, 62, (uint32_t)w, 0, NULL)) == 62 * w);
        for (int i = 0; i < 20000; i++) {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            int w = (int)(x % 4);
            if (x % 997 == 0) {
                rft_dcp_end(&s, (uint32_t)base[w], 62, (uint64_t)i, NULL);
                CHECK(rft_dcp_begin(&s, 62, (uint32_t)w, (uint64_t)i, NULL) == base[w]);
            } else {
                rft_dcp_write(&s, (uint32_t)base[w] + (uint32_t)(x >> 8) % 62, (x >> 20) % 3 == 0,
                              (uint64_t)i, NULL, &ev);
            }
            if (i % 97 == 0)
                ok();
        }
        ok();
        rft_dcp_free(&s);
    }
    rft_faultmap_free(&m);
}

int main(void)
{
    test_walkthrough();
    test_windows();
    test_options();
    test_full();
    test_integrals();
    test_check();
    test_random();
    puts("test_dcpatch: ok");
    return 0;
}
