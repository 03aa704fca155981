/* test_alloc.c - unit and property tests of lib/alloc.c. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "alloc.h"
#include "rft.h"

#define CHECK(c) do { if (!(c)) { \
    fprintf(stderr, "%s:%d: check failed: %s\n", __FILE__, __LINE__, #c); exit(1); } } while (0)

static long place(rft_salloc *s, uint32_t n, uint16_t *rot)
{
    return rft_salloc_place(s, n, RFT_SALLOC_NO_HINT, rot);
}

/* Seed 002 section 5.2: N = 10, s = 0, reg_base = 50: Lr9 -> Pr59; after
 * one reassignment of the window (s = 1): Lr9 -> Pr50. */
static void test_rar_example(void)
{
    rft_salloc s;
    uint16_t rot;
    CHECK(rft_salloc_init(&s, 256, RFT_ALLOC_RAR, RFT_WRAP_RING) == 0);
    for (long b = 0; b < 50; b += 10)
        CHECK(place(&s, 10, &rot) == b && rot == 0);
    CHECK(place(&s, 10, &rot) == 50 && rot == 0);
    CHECK(rft_window_phys(256, 50, 10, rot, 9) == 59);
    rft_salloc_release(&s, 50, 10);
    CHECK(place(&s, 10, &rot) == 50 && rot == 1);
    CHECK(rft_window_phys(256, 50, 10, rot, 9) == 50);
    CHECK(rft_window_phys(256, 50, 10, rot, 0) == 51);
    /* s counts modulo N: ten reassignments bring it back to 0 */
    for (int i = 2; i <= 10; i++) {
        rft_salloc_release(&s, 50, 10);
        CHECK(place(&s, 10, &rot) == 50 && rot == i % 10);
    }
    /* a window of another size at the same base starts again at s = 0 */
    rft_salloc_release(&s, 50, 10);
    CHECK(place(&s, 4, &rot) == 50 && rot == 0);
    rft_salloc_release(&s, 50, 4);
    CHECK(place(&s, 4, &rot) == 50 && rot == 1);
    rft_salloc_destroy(&s);
}

/* The aging-oblivious allocator: lowest free base, freed windows reused. */
static void test_first_fit(void)
{
    rft_salloc s;
    uint16_t rot;
    CHECK(rft_salloc_init(&s, 32, RFT_ALLOC_FIRSTFIT, RFT_WRAP_RING) == 0);
    CHECK(place(&s, 8, &rot) == 0 && rot == 0);
    CHECK(place(&s, 8, &rot) == 8);
    CHECK(place(&s, 8, &rot) == 16);
    CHECK(s.nfree == 8);
    rft_salloc_release(&s, 0, 8);
    rft_salloc_release(&s, 16, 8);
    CHECK(place(&s, 8, &rot) == 0);      /* lowest free base again */
    CHECK(place(&s, 10, &rot) == 16);    /* 16..25 */
    CHECK(place(&s, 7, &rot) == -1);     /* 26..31 is 6 long */
    CHECK(place(&s, 6, &rot) == 26 && s.nfree == 0);
    rft_salloc_destroy(&s);

    CHECK(rft_salloc_init(&s, 32, RFT_ALLOC_FIRSTFIT, RFT_WRAP_RING) == 0);
    CHECK(place(&s, 10, &rot) == 0);
    CHECK(place(&s, 10, &rot) == 10);
    CHECK(place(&s, 10, &rot) == 20);
    CHECK(place(&s, 3, &rot) == -1);     /* 2 entries left */
    CHECK(rft_salloc_largest(&s) == 2);
    rft_salloc_release(&s, 10, 10);
    CHECK(place(&s, 4, &rot) == 10);     /* a smaller window takes the hole's start */
    CHECK(place(&s, 7, &rot) == -1);     /* 6 + 2 free, not contiguous: first-fit never wraps */
    CHECK(rft_salloc_largest(&s) == 6);
    CHECK(place(&s, 6, &rot) == 14);
    /* a hint where the window fits wins; elsewhere the scheme decides */
    rft_salloc_release(&s, 0, 10);
    CHECK(rft_salloc_place(&s, 2, 5, &rot) == 5);
    CHECK(rft_salloc_place(&s, 2, 30, &rot) == 30);
    CHECK(rft_salloc_place(&s, 2, 30, &rot) == 0);
    CHECK(rft_salloc_place(&s, 0, 30, &rot) == 0);   /* empty window */
    rft_salloc_destroy(&s);
}

/* ARGO: the head follows the last window; a ring wraps, restart does not. */
static void test_argo(void)
{
    rft_salloc s;
    uint16_t rot;
    CHECK(rft_salloc_init(&s, 256, RFT_ALLOC_ARGO, RFT_WRAP_RING) == 0);
    CHECK(place(&s, 69, &rot) == 0);
    rft_salloc_release(&s, 0, 69);
    CHECK(place(&s, 69, &rot) == 69);    /* not 0: the head rotates */
    rft_salloc_release(&s, 69, 69);
    CHECK(place(&s, 69, &rot) == 138);
    rft_salloc_release(&s, 138, 69);
    CHECK(place(&s, 69, &rot) == 207);   /* 207..255, 0..19 */
    CHECK(s.head == 20 && s.nfree == 256 - 69 && rot == 0);
    CHECK(rft_window_phys(256, 207, 69, 0, 48) == 255);
    CHECK(rft_window_phys(256, 207, 69, 0, 49) == 0);
    CHECK(place(&s, 69, &rot) == 20);
    CHECK(place(&s, 69, &rot) == 89);
    CHECK(place(&s, 69, &rot) == -1);    /* 49 free */
    CHECK(rft_salloc_largest(&s) == 49);
    rft_salloc_release(&s, 207, 69);
    CHECK(rft_salloc_largest(&s) == 118); /* 158..255 and 0..19 join across the end */
    rft_salloc_destroy(&s);

    CHECK(rft_salloc_init(&s, 256, RFT_ALLOC_ARGO, RFT_WRAP_RESTART) == 0);
    for (long b = 0; b < 207; b += 69) {
        CHECK(place(&s, 69, &rot) == b);
        rft_salloc_release(&s, (uint32_t)b, 69);
    }
    CHECK(place(&s, 69, &rot) == 0);     /* 207 + 69 > 256: start again at 0 */
    CHECK(place(&s, 69, &rot) == 69);
    rft_salloc_destroy(&s);
}

static uint64_t rng = 88172645463325252ull;
static uint32_t rnd(uint32_t n)
{
    rng ^= rng << 13;
    rng ^= rng >> 7;
    rng ^= rng << 17;
    return (uint32_t)(rng % n);
}

/* Seed 002 Table 5: on a slice that windows fill, ARGO has no choice to
 * make: every base it picks is first-fit's and no entry stays free. */
static void test_argo_full_slice(void)
{
    static const uint32_t sizes[] = {64, 16, 32, 8, 1, 256};
    for (unsigned k = 0; k < sizeof sizes / sizeof *sizes; k++) {
        uint32_t n = sizes[k], w = 256 / n;
        rft_salloc ff, ar;
        uint16_t rot;
        long base[256];
        CHECK(rft_salloc_init(&ff, 256, RFT_ALLOC_FIRSTFIT, 0) == 0);
        CHECK(rft_salloc_init(&ar, 256, RFT_ALLOC_ARGO, RFT_WRAP_RING) == 0);
        for (uint32_t i = 0; i < w; i++) {
            base[i] = place(&ff, n, &rot);
            CHECK(place(&ar, n, &rot) == base[i]);
        }
        CHECK(ff.nfree == 0 && ar.nfree == 0);
        for (int step = 0; step < 2000; step++) {
            uint32_t i = rnd(w);
            rft_salloc_release(&ff, (uint32_t)base[i], n);
            rft_salloc_release(&ar, (uint32_t)base[i], n);
            long b = place(&ff, n, &rot);
            CHECK(b == base[i] && place(&ar, n, &rot) == b);
            CHECK(ar.nfree == 0);
        }
        rft_salloc_destroy(&ff);
        rft_salloc_destroy(&ar);
    }
}

/* Any scheme, random windows: never overlapping, nfree exact, phys inside. */
static void test_random(void)
{
    for (int scheme = RFT_ALLOC_FIRSTFIT; scheme <= RFT_ALLOC_ARGO; scheme++)
        for (int wrap = 0; wrap <= 1; wrap++) {
            rft_salloc s;
            enum { E = 97, MAXW = 64 };
            struct { long base; uint32_t n; uint16_t rot; } win[MAXW];
            int nw = 0;
            uint8_t owner[E];
            CHECK(rft_salloc_init(&s, E, scheme, wrap) == 0);
            for (int step = 0; step < 20000; step++) {
                if (nw > 0 && (nw == MAXW || rnd(2))) {
                    int i = (int)rnd((uint32_t)nw);
                    rft_salloc_release(&s, (uint32_t)win[i].base, win[i].n);
                    win[i] = win[--nw];
                } else {
                    uint32_t n = 1 + rnd(20), largest = rft_salloc_largest(&s);
                    long b = rft_salloc_place(&s, n, rnd(4) ? RFT_SALLOC_NO_HINT : rnd(2 * E),
                                              &win[nw].rot);
                    CHECK((b < 0) == (largest < n));
                    if (b >= 0) {
                        CHECK(b < E && win[nw].rot < n);
                        CHECK(scheme == RFT_ALLOC_RAR || win[nw].rot == 0);
                        CHECK((scheme == RFT_ALLOC_ARGO && wrap == RFT_WRAP_RING) || b + n <= E);
                        win[nw].base = b;
                        win[nw++].n = n;
                    }
                }
                memset(owner, 0, sizeof owner);
                uint32_t used = 0;
                for (int i = 0; i < nw; i++)
                    for (uint32_t x = 0; x < win[i].n; x++) {
                        uint32_t p = rft_window_phys(E, (uint32_t)win[i].base, win[i].n, win[i].rot, x);
                        CHECK(p < E && !owner[p] && s.used[p]);
                        owner[p] = 1;
                        used++;
                    }
                CHECK(s.nfree == E - used);
            }
            rft_salloc_destroy(&s);
        }
}

static void test_record(void)
{
    rft_alloc_rec a = {0x0102030405060708ull, 0x1112, 0x2122, 0x31323334, 0x4142, 0x5152,
                       0x0001, 0x6162, RFT_ALLOC_EV_FREE, RFT_AF_GATED, 0}, b;
    static const uint8_t want[RFT_ALLOC_LEN] = {
        0x08, 0x07, 0x06, 0x05, 0x04, 0x03, 0x02, 0x01, 0x12, 0x11, 0x22, 0x21, 0x34, 0x33,
        0x32, 0x31, 0x42, 0x41, 0x52, 0x51, 0x01, 0x00, 0x62, 0x61, 0x02, 0x01,
        0x01, 0x00};        /* bank 0 is written as 1 */
    uint8_t buf[RFT_ALLOC_LEN + 4];
    memset(buf, 0xee, sizeof buf);
    rft_alloc_encode(buf, &a);
    CHECK(memcmp(buf, want, RFT_ALLOC_LEN) == 0 && buf[RFT_ALLOC_LEN] == 0xee);
    CHECK(rft_alloc_parse(buf, RFT_ALLOC_LEN, &b) == 0);
    CHECK(a.cycle == b.cycle && a.cu == b.cu && a.simd == b.simd && a.wf == b.wf &&
          a.base == b.base && a.n == b.n && a.rot == b.rot && a.nfree == b.nfree &&
          a.event == b.event && a.flags == b.flags);
    CHECK(b.bank == 1);
    CHECK(rft_alloc_parse(buf, RFT_ALLOC_LEN + 4, &b) == 0);   /* longer: a later minor */
    buf[26] = 8;        /* banks of 8 entries; a 26-byte record (before banks) has 1 */
    CHECK(rft_alloc_parse(buf, RFT_ALLOC_LEN, &b) == 0 && b.bank == 8);
    CHECK(rft_alloc_parse(buf, RFT_ALLOC_MIN, &b) == 0 && b.bank == 1);
    CHECK(rft_alloc_parse(buf, RFT_ALLOC_MIN - 1, &b) == RFT_EFORMAT);
    buf[26] = 0;
    CHECK(rft_alloc_parse(buf, RFT_ALLOC_LEN, &b) == RFT_EFORMAT);
    buf[26] = 1;
    buf[24] = 3;
    CHECK(rft_alloc_parse(buf, RFT_ALLOC_LEN, &b) == RFT_EFORMAT);
    buf[24] = 1;
    buf[20] = 0x52;   /* rot >= n */
    buf[21] = 0x51;
    CHECK(rft_alloc_parse(buf, RFT_ALLOC_LEN, &b) == RFT_EFORMAT);
    CHECK(strcmp(rft_alloc_scheme_name(RFT_ALLOC_RAR), "rar") == 0);
    char text[RFT_ALLOC_TEXT_MAX];
    rft_alloc_rec big = {UINT64_MAX, 65535, 65535, UINT32_MAX, 65535, 65535, 65534, 65535,
                         RFT_ALLOC_EV_ALLOC, 0xff, 1};
    size_t n = rft_alloc_format(&big, '\t', text);
    CHECK(n == strlen(text) && n < sizeof text);
    CHECK(strcmp(text, "# alloc\tcycle=18446744073709551615\tslice=65535:65535\twf=4294967295"
                       "\tevent=alloc\tbase=65535\tn=65535\trot=65534\tfree=65535\tgated=1") == 0);
    a.event = RFT_ALLOC_EV_FREE;
    rft_alloc_format(&a, ',', text);
    CHECK(strcmp(text, "# alloc,cycle=72623859790382856,slice=4370:8482,wf=825373492,event=free,"
                       "base=16706,n=20818,rot=1,free=24930,gated=1") == 0);
    big.bank = 65535;
    n = rft_alloc_format(&big, '\t', text);
    CHECK(n == strlen(text) && n < sizeof text);
    CHECK(strcmp(text + n - 11, "\tbank=65535") == 0);
}

/* rft_mod_near is x % m for every x, not only the near ones it is fast on */
static void test_mod_near(void)
{
    for (uint32_t m = 1; m < 70; m++)
        for (uint32_t x = 0; x < 5 * m; x++)
            CHECK(rft_mod_near(x, m) == x % m);
    CHECK(rft_mod_near(UINT32_MAX, 7) == UINT32_MAX % 7);
}

/* slices in the table and in the map alike; unseen ones are -1 */
static void test_slices(void)
{
    rft_slices x;
    CHECK(rft_slices_init(&x) == 0);
    static const uint16_t cu[] = {0, 127, 128, 65535, 3}, simd[] = {0, 7, 0, 65535, 8};
    for (uint32_t i = 0; i < 5; i++) {
        CHECK(rft_slices_find(&x, cu[i], simd[i]) == -1);
        CHECK(rft_slices_put(&x, cu[i], simd[i], i) == 0);
    }
    for (uint32_t i = 0; i < 5; i++)
        CHECK(rft_slices_find(&x, cu[i], simd[i]) == (long)i);
    CHECK(rft_slices_find(&x, 0, 1) == -1 && rft_slices_find(&x, 129, 0) == -1);
    rft_slices_free(&x);
}

int main(void)
{
    test_mod_near();
    test_slices();
    test_rar_example();
    test_first_fit();
    test_argo();
    test_argo_full_slice();
    test_random();
    test_record();
    puts("test_alloc: ok");
    return 0;
}
