/* test_faultmap.c - fault maps (lib/faultmap.c): exact Table 1 shares,
 * determinism, the i-faulty-bits-i-faulty-blocks rule, records and CSV. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "faultmap.h"
#include "rft.h"

#define CHECK(c) do { if (!(c)) { \
    fprintf(stderr, "%s:%d: check failed: %s\n", __FILE__, __LINE__, #c); exit(1); } } while (0)

static void test_counts(void)
{
    /* largest remainders on 256 entries (worked in rft-faultmap(1)) */
    static const uint32_t want[3][5] = {
        {87, 84, 51, 26, 8}, {110, 51, 31, 26, 38}, {66, 90, 59, 31, 10}};
    for (int i = 0; i < 3; i++) {
        uint32_t c[5], sum = 0;
        rft_fm_counts(rft_fm_scenarios[i].share, 256, c);
        for (int k = 0; k < 5; k++) {
            CHECK(c[k] == want[i][k]);
            sum += c[k];
        }
        CHECK(sum == 256);
    }
    /* small and odd geometries still sum up */
    for (uint32_t e = 1; e < 300; e += 7)
        for (int i = 0; i < 3; i++) {
            uint32_t c[5], sum = 0;
            rft_fm_counts(rft_fm_scenarios[i].share, e, c);
            for (int k = 0; k < 5; k++)
                sum += c[k];
            CHECK(sum == e);
        }
    uint32_t c[5];
    double even[5] = {20, 20, 20, 20, 20};
    rft_fm_counts(even, 8, c);   /* 1.6 each: the three lowest classes take the extras */
    CHECK(c[0] == 2 && c[1] == 2 && c[2] == 2 && c[3] == 1 && c[4] == 1);
}

static void test_generate(void)
{
    for (int i = 0; i < 3; i++) {
        rft_fm_gen g;
        CHECK(rft_fm_gen_scenario(&g, rft_fm_scenarios[i].name, NULL, 0) == 0);
        for (uint64_t seed = 0; seed < 20; seed++) {
            rft_faultmap a, b, c;
            uint32_t want[5], got[5];
            g.seed = seed;
            CHECK(rft_faultmap_init(&a, 256, 4) == 0);
            CHECK(rft_faultmap_init(&b, 256, 4) == 0);
            CHECK(rft_faultmap_init(&c, 256, 4) == 0);
            rft_faultmap_generate(&a, &g, 3, 1);
            rft_faultmap_generate(&b, &g, 3, 1);
            rft_faultmap_generate(&c, &g, 3, 2);
            CHECK(memcmp(a.bits, b.bits, 1024) == 0);      /* same seed, same map */
            CHECK(memcmp(a.bits, c.bits, 1024) != 0);      /* slices differ */
            rft_fm_counts(g.share, 256, want);
            rft_faultmap_classes(&a, got);
            CHECK(memcmp(want, got, sizeof want) == 0);     /* exact shares */
            /* i faulty bits: i distinct faulty blocks; >= 4: all four */
            for (uint32_t e = 0; e < 256; e++) {
                unsigned bits = rft_faultmap_entry_bits(&a, e), nf = 0;
                for (uint32_t k = 0; k < 4; k++) {
                    CHECK(a.bits[e * 4 + k] <= 1);
                    nf += rft_faultmap_block_faulty(&a, e, k);
                }
                CHECK(bits <= 4);
                CHECK(nf == (bits >= 2 ? bits : 0));
                CHECK(rft_faultmap_entry_faulty(&a, e) == (bits >= 2));
            }
            CHECK(a.cu == 3 && a.simd == 1 && a.seed == seed);
            CHECK(strcmp(a.origin, rft_fm_scenarios[i].name) == 0);
            rft_faultmap_free(&a);
            rft_faultmap_free(&b);
            rft_faultmap_free(&c);
        }
    }
    /* a reference value: the map must not change between hosts or releases */
    rft_fm_gen g;
    rft_faultmap m;
    rft_fm_gen_scenario(&g, "common", NULL, 0);
    g.seed = 7;
    CHECK(rft_faultmap_init(&m, 256, 4) == 0);
    rft_faultmap_generate(&m, &g, 0, 0);
    uint64_t h = 1469598103934665603ull;   /* FNV-1a of the bits */
    for (int i = 0; i < 1024; i++)
        h = (h ^ m.bits[i]) * 1099511628211ull;
    CHECK(h == 0x0764b5482dbd7a71ull);
    rft_faultmap_free(&m);
}

/* Spatial correlation: clustered maps have longer runs of faulty entries. */
static double next_faulty(const char *name)
{
    rft_fm_gen g;
    uint32_t pairs = 0, faulty = 0;
    rft_fm_gen_scenario(&g, name, NULL, 0);
    for (uint16_t s = 0; s < 200; s++) {
        rft_faultmap m;
        g.seed = 11;
        CHECK(rft_faultmap_init(&m, 256, 4) == 0);
        rft_faultmap_generate(&m, &g, s, 0);
        for (uint32_t e = 0; e + 1 < 256; e++) {
            faulty += rft_faultmap_entry_faulty(&m, e);
            pairs += rft_faultmap_entry_faulty(&m, e) && rft_faultmap_entry_faulty(&m, e + 1);
        }
        rft_faultmap_free(&m);
    }
    return (double)pairs / faulty;
}

static void test_correlation(void)
{
    double disp = next_faulty("dispersed"), comm = next_faulty("common"),
           clus = next_faulty("clustered");
    printf("test_faultmap: P(next faulty | faulty) dispersed %.3f common %.3f clustered %.3f\n",
           disp, comm, clus);
    CHECK(disp > 0.33 && disp < 0.45);     /* about the share of faulty entries, 39 % */
    CHECK(comm > disp + 0.05);
    CHECK(clus > comm + 0.1);
}

static void test_record(void)
{
    rft_fm_gen g;
    rft_faultmap m, d;
    char why[256];
    rft_fm_gen_scenario(&g, "clustered", NULL, 0);
    g.seed = 99;
    CHECK(rft_faultmap_init(&m, 8, 4) == 0);
    rft_faultmap_generate(&m, &g, RFT_FM_ALL, RFT_FM_ALL);
    size_t n = rft_faultmap_record_len(&m);
    CHECK(n == RFT_FM_FIXED + strlen("clustered") + 32);
    uint8_t *buf = malloc(n);
    rft_faultmap_encode(&m, buf);
    CHECK(rft_faultmap_decode(buf, (uint32_t)n, &d, why, sizeof why) == 0);
    CHECK(d.cu == RFT_FM_ALL && d.simd == RFT_FM_ALL && d.entries == 8 && d.blocks == 4);
    CHECK(d.seed == 99 && d.ecp == 1 && strcmp(d.origin, "clustered") == 0);
    CHECK(memcmp(d.bits, m.bits, 32) == 0);
    rft_faultmap_free(&d);
    CHECK(rft_faultmap_decode(buf, (uint32_t)n - 1, &d, why, sizeof why) == RFT_EFORMAT);
    CHECK(strcmp(why, "fault map record of 60 bytes (expected 61)") == 0);
    CHECK(rft_faultmap_decode(buf, 10, &d, why, sizeof why) == RFT_EFORMAT);
    buf[0] = 3;      /* cu 3 with simd 0xffff */
    CHECK(rft_faultmap_decode(buf, (uint32_t)n, &d, why, sizeof why) == RFT_EFORMAT);
    free(buf);
    rft_faultmap_free(&m);
}

static int parse(const char *csv, uint32_t e, uint32_t b, rft_fmset *s, char *why)
{
    rft_fmset_init(s);
    return rft_faultmap_csv_parse(csv, strlen(csv), "t.csv", e, b, s, why, 256);
}

static void test_csv(void)
{
    rft_fmset s;
    char why[256];
    /* a 2 x 2 map for slice 1:2 and one for all slices, rows in any order,
     * extra columns ignored, CRLF, spaces */
    const char *ok =
        "entry,block,bits,cu,simd,note\r\n"
        "0,0,0,1,2,x\r\n0,1,1,1,2,\r\n1,0,1,1,2,\r\n1,1,1,1,2,\r\n"
        "1, 1, 0,*,*,\n0,0,0,*,*,\n0,1,0,*,*,\n1,0,300,*,*,\n";
    CHECK(parse(ok, 2, 2, &s, why) == 0);
    CHECK(s.n == 2);
    const rft_faultmap *m = rft_fmset_get(&s, 1, 2);
    CHECK(m && m->bits[0] == 0 && m->bits[1] == 1 && m->bits[2] == 1 && m->bits[3] == 1);
    CHECK(!rft_faultmap_entry_faulty(m, 0) && rft_faultmap_entry_faulty(m, 1));
    CHECK(strcmp(m->origin, "csv:t.csv") == 0);
    m = rft_fmset_find(&s, 7, 7);
    CHECK(m && m->cu == RFT_FM_ALL && m->bits[2] == 255);
    /* round trip */
    char *buf = NULL;
    size_t len = 0, cap = 0;
    const char *h = rft_faultmap_csv_header();
    buf = malloc(cap = 64);
    memcpy(buf, h, len = strlen(h));
    for (size_t i = 0; i < s.n; i++)
        CHECK(rft_faultmap_csv_format(&s.maps[i], &buf, &len, &cap) == 0);
    buf[len] = 0;
    CHECK(strcmp(buf, "cu,simd,entry,block,bits\n1,2,0,0,0\n1,2,0,1,1\n1,2,1,0,1\n1,2,1,1,1\n"
                      "*,*,0,0,0\n*,*,0,1,0\n*,*,1,0,255\n*,*,1,1,0\n") == 0);
    rft_fmset t;
    CHECK(parse(buf, 2, 2, &t, why) == 0);
    for (size_t i = 0; i < s.n; i++)
        CHECK(memcmp(t.maps[i].bits, s.maps[i].bits, 4) == 0);
    rft_fmset_free(&t);
    free(buf);
    rft_fmset_free(&s);

    /* the faulty column: 1 -> unusable whatever the rest of the entry */
    CHECK(parse("entry,block,faulty\n0,0,1\n0,1,0\n1,0,0\n1,1,0\n", 2, 2, &s, why) == 0);
    CHECK(rft_faultmap_block_faulty(&s.maps[0], 0, 0) && !rft_faultmap_block_faulty(&s.maps[0], 0, 1));
    rft_fmset_free(&s);

    static const struct { const char *csv, *why; } bad[] = {
        {"entry,block,bits\n0,0,0\n0,1,0\n1,0,0\n1,1,0\n2,0,0\n",
         "t.csv: line 6: entry 2 out of range 0..1"},
        {"entry,block,bits\n0,0,0\n0,1,0\n1,0,0\n1,2,0\n1,1,0\n",
         "t.csv: line 5: block 2 out of range 0..1"},
        {"entry,block,bits\n0,0,0\n0,1,0\n1,0,0\n0,1,3\n1,1,0\n",
         "t.csv: line 5: second row for all slices (*) entry 0 block 1 (first at line 3)"},
        {"cu,simd,entry,block,bits\n0,0,0,0,0\n0,0,0,1,0\n0,0,1,0,0\n",
         "t.csv: slice 0:0 has no row for entry 1 block 1"},
        {"entry,block,bits\n0,0,0\n0,1,0\n1,0,0\n1,1,0\n2,0,0\n2,1,0\n",
         "t.csv: the map of all slices (*) is 3 entries x 2 blocks, not 2 x 2"},
        {"entry,block,bits\n0,0,0\n", "t.csv: the map of all slices (*) is 1 entries x 1 blocks, not 2 x 2"},
        {"entry,bits\n0,0\n", "t.csv: line 1: the header needs columns 'entry' and 'block'"},
        {"entry,block\n0,0\n", "t.csv: line 1: the header needs one of the columns 'bits' and 'faulty'"},
        {"cu,entry,block,bits\n0,0,0,0\n", "t.csv: line 1: columns 'cu' and 'simd' go together"},
        {"entry,block,bits\n0,0\n", "t.csv: line 2: 2 fields, the header has 3"},
        {"entry,block,bits\n0,x,0\n", "t.csv: line 2: block 'x' is not a number"},
        {"entry,block,bits\n0,-1,0\n", "t.csv: line 2: block '-1' is not a number"},
        {"cu,simd,entry,block,bits\n*,0,0,0,0\n",
         "t.csv: line 2: cu and simd are both '*' (all slices) or both numbers"},
        {"entry,block,faulty\n0,0,2\n", "t.csv: line 2: faulty 2 out of range 0..1"},
        {"", "t.csv: empty map (no header line)"},
        {"entry,block,bits\n", "t.csv: no rows after the header"},
        {"entry,block,bits\n\"0,0,0\n", "t.csv: line 2: 1 field, the header has 3"},
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        int e = parse(bad[i].csv, 2, 2, &s, why);
        if (e != RFT_EFORMAT || strcmp(why, bad[i].why) != 0) {
            fprintf(stderr, "case %zu: %d '%s'\n", i, e, why);
            CHECK(0);
        }
        rft_fmset_free(&s);
    }
}

static void test_shares(void)
{
    double s[5];
    char why[128];
    CHECK(rft_fm_parse_shares("34/33/20/10/3", s, why, sizeof why) == 0 && s[4] == 3);
    CHECK(rft_fm_parse_shares("50/50/0/0/0.0", s, why, sizeof why) == 0);
    CHECK(rft_fm_parse_shares("34/33/20/10/4", s, why, sizeof why) == RFT_EFORMAT);
    CHECK(strcmp(why, "shares '34/33/20/10/4' sum to 101, not 100") == 0);
    CHECK(rft_fm_parse_shares("34/33/20/13", s, why, sizeof why) == RFT_EFORMAT);
    CHECK(rft_fm_parse_shares("34/33/20/13/-0", s, why, sizeof why) == RFT_EFORMAT);
    CHECK(rft_fm_parse_shares("34/33/20/13/0x", s, why, sizeof why) == RFT_EFORMAT);
    rft_fm_gen g;
    CHECK(rft_fm_gen_options(&g, "clustered", NULL, 5, -1, 0, why, sizeof why) == 0);
    CHECK(g.seed == 5 && g.systematic == 0.9 && g.corr_length == RFT_FM_CORR_LENGTH);
    CHECK(strcmp(g.name, "clustered") == 0 && g.share[4] == 15);
    CHECK(rft_fm_gen_options(&g, "clustered", "50/50/0/0/0", 5, 0, 8, why, sizeof why) == 0);
    CHECK(strcmp(g.name, "clustered") == 0 && g.share[0] == 50 && g.systematic == 0);
    CHECK(g.corr_length == 8);
    CHECK(rft_fm_gen_options(&g, NULL, "50/50/0/0/0", 1, -1, 0, why, sizeof why) == 0);
    CHECK(strcmp(g.name, "custom") == 0 && g.systematic == 0.5);
    CHECK(rft_fm_gen_options(&g, NULL, "50/50/0/0", 1, -1, 0, why, sizeof why) == RFT_EFORMAT);
    CHECK(rft_fm_gen_scenario(&g, "typical", why, sizeof why) == RFT_EFORMAT);
    CHECK(strcmp(why, "unknown scenario 'typical' (common, clustered or dispersed)") == 0);
}

int main(void)
{
    test_counts();
    test_generate();
    test_correlation();
    test_record();
    test_csv();
    test_shares();
    puts("test_faultmap: ok");
    return 0;
}
