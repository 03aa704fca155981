/* test_decoders.c - unit tests of the simulator-log decoders' shared parts
 * (lib/decoders.c): printed values, float recovery, format detection. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "dec_int.h"

#define CHECK(c) do { if (!(c)) { \
    fprintf(stderr, "%s:%d: check failed: %s\n", __FILE__, __LINE__, #c); exit(1); } } while (0)

static uint32_t v32(const char *s, int *isf, int *exact)
{
    uint32_t v = 0xdeadbeef;
    CHECK(dec_value32(s, strlen(s), &v, isf, exact) == 0);
    return v;
}

static void bad32(const char *s)
{
    uint32_t v;
    int isf, exact;
    CHECK(dec_value32(s, strlen(s), &v, &isf, &exact) != 0);
}

static uint32_t bits(float f)
{
    union { float f; uint32_t u; } u = {f};
    return u.u;
}

static int detect(const char *s)
{
    return rft_fmt_detect(s, strlen(s), NULL);
}

int main(void)
{
    int isf, exact;
    /* the integer styles Multi2Sim prints: 0x%x, %u, %d */
    CHECK(v32("0x8", &isf, &exact) == 8 && !isf && exact);
    CHECK(v32("0xFFFFFFFF", &isf, &exact) == 0xffffffffu);
    CHECK(v32("4294967295", &isf, &exact) == 0xffffffffu && !isf);
    CHECK(v32("-1", &isf, &exact) == 0xffffffffu && !isf);
    CHECK(v32("-2147483648", &isf, &exact) == 0x80000000u);
    CHECK(v32("0", &isf, &exact) == 0 && !isf && exact);
    bad32("4294967296");
    bad32("-2147483649");
    bad32("0x100000000");
    bad32("");
    bad32("-");
    bad32("12a");
    bad32("1.2.3f");
    bad32("f");
    /* %gf floats: exact only when no other float prints the same */
    CHECK(v32("1.12104e-44f", &isf, &exact) == 8 && isf && exact);   /* a subnormal */
    CHECK(v32("8.96831e-44f", &isf, &exact) == 64 && exact);
    CHECK(v32("0f", &isf, &exact) == 0 && isf && exact);
    CHECK(v32("-0f", &isf, &exact) == 0x80000000u && exact);
    CHECK(v32("2229f", &isf, &exact) == bits(2229.0f) && isf && !exact);
    CHECK(v32("0.2f", &isf, &exact) == bits(0.2f) && !exact);
    CHECK(v32("1e+10f", &isf, &exact) == bits(1e10f) && !exact);
    CHECK(v32("-inff", &isf, &exact) == 0xff800000u && exact);
    CHECK(v32("inff", &isf, &exact) == 0x7f800000u && exact);
    CHECK(v32("nanf", &isf, &exact) == 0x7fc00000u && !exact);        /* the payload is lost */
    CHECK(v32("-nanf", &isf, &exact) == 0xffc00000u && !exact);
    CHECK(v32("164", &isf, &exact) == 164 && !isf);                    /* no f: an integer */
    /* every float printed with %g comes back as itself or as an ambiguous neighbour */
    for (uint32_t u = 0; u < 0xff800000u; u += 0x00f00ff1u) {
        union { uint32_t u; float f; } x = {u};
        char b[64];
        snprintf(b, sizeof b, "%gf", (double)x.f);
        uint32_t got = v32(b, &isf, &exact);
        CHECK(isf);
        CHECK(!exact || got == u);
        union { uint32_t u; float f; } y = {got};
        char c[64];
        snprintf(c, sizeof c, "%gf", (double)y.f);
        CHECK(strcmp(b, c) == 0);
    }
    /* doubles ("V[n:+1]<=(%lgf)") */
    uint64_t d;
    CHECK(dec_value64("0.25f", 5, &d, &exact) == 0 && d == 0x3fd0000000000000ull && !exact);
    CHECK(dec_value64("0f", 2, &d, &exact) == 0 && d == 0 && exact);
    CHECK(dec_value64("x", 1, &d, &exact) != 0);
    /* hex as gem5 (%#x) and NVBit (0x%08x) print it */
    uint32_t h;
    CHECK(dec_hex32("0", 1, &h) == 0 && h == 0);
    CHECK(dec_hex32("0x1f", 4, &h) == 0 && h == 0x1f);
    CHECK(dec_hex32("0x0000000000000001", 18, &h) == 0 && h == 1);
    CHECK(dec_hex32("0x", 2, &h) != 0);
    CHECK(dec_hex32("0x1ffffffff", 11, &h) != 0);
    /* detection from the first lines */
    CHECK(detect("") == RFT_FMT_TEXT);
    CHECK(detect("# a comment\nK\t1\tk\n") == RFT_FMT_TEXT);
    CHECK(detect("K,1,k\n") == RFT_FMT_CSV);
    CHECK(detect("\n================ Initialization Summary ================\n") == RFT_FMT_M2S);
    CHECK(detect(" v_mov_b32     v2, s1                                      // 00000020: 7E040201\n")
          == RFT_FMT_M2S);
    CHECK(detect("   1000: global: Write v[17]\n") == RFT_FMT_GEM5);
    CHECK(detect("Kernel k(int) - grid size 1,1,1 - block size 32,1,1 - nregs 8 - shmem 0 - "
                 "cuda stream id 0\n") == RFT_FMT_NVBIT);
    CHECK(detect("CTA 0,0,0 - warp 3 - EXIT ;:\n") == RFT_FMT_NVBIT);
    CHECK(detect("cycle,cu,simd,wf,vreg,lane,value\n") == RFT_FMT_COLUMNS);
    CHECK(detect("Cycle\tWavefront\tReg\tV0\n") == RFT_FMT_COLUMNS);
    CHECK(detect("something else\n") == RFT_FMT_TEXT);
    /* Multi2Sim Evergreen: the header's last line, an ALU slot, a clause's mask */
    CHECK(detect("local_size = 64 (64,1,1)\nwavefronts_per_work_group = 1\n") == RFT_FMT_EVG);
    CHECK(detect("      12  x: MOV         R1.x,  R0.x      \n") == RFT_FMT_EVG);
    CHECK(detect("  wavefront[i0-i63]:pred=1111\n") == RFT_FMT_EVG);
    CHECK(detect("t0: V3<=(0x4) t1: V3<=(0x4)\n") == RFT_FMT_M2S);     /* Southern Islands */
    CHECK(detect("      12  x: mov\n") == RFT_FMT_TEXT);
    CHECK(rft_fmt_parse("evg") == RFT_FMT_EVG && strcmp(rft_fmt_name(RFT_FMT_EVG), "evg") == 0);
    CHECK(rft_fmt_parse("m2s") == RFT_FMT_M2S && rft_fmt_parse("auto") == RFT_FMT_NONE);
    CHECK(strcmp(rft_fmt_name(RFT_FMT_COLUMNS), "columns") == 0 && !rft_fmt_name(42));
    puts("test_decoders: ok");
    return 0;
}
