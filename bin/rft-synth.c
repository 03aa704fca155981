/* rft-synth - seeded synthetic register-write workloads: named kernel models
 * run on a simple GCN issue model, streamed as an rft stream; or VLIW kernel
 * models of an AMD Evergreen GPU (--arch evergreen), whose ALU groups
 * (bundles) fill the slots X Y Z W T with the skew of seed 003 (Fig. 4).
 *
 * Every wavefront runs a short program of vector instructions (a prologue,
 * a loop body run a fixed number of times, an epilogue).  Each instruction
 * names its source registers, its destination, an exec-mask rule and a value
 * rule; the values are formulas of the work-item ids, the loop iteration and
 * a seeded PRNG, so the stream is reproducible and never depends on time or
 * addresses.  Register contents are kept per slice (256 entries x lanes), so
 * lanes outside an exec mask keep what the entry held, whoever wrote it. */
#ifndef _POSIX_C_SOURCE
#define _POSIX_C_SOURCE 200809L /* clock_gettime, isatty */
#endif
#include <errno.h>
#include <getopt.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "cli.h"
#include "rft.h"

static const char usage[] =
    "usage: rft-synth [--kernels LIST] [--writes N] [--cus N] [--simds N] [--lanes N]\n"
    "                 [--wg-size N] [--seed N] [--level N] [-o FILE]\n"
    "       rft-synth --arch evergreen [--kernels LIST] [--bundles N] [--cus N]\n"
    "                 [--wg-size N] [--seed N] [--level N] [-o FILE]\n"
    "       rft-synth [--arch gcn|evergreen] --list\n"
    "Write a seeded synthetic register-write trace (an rft(5) stream).\n";

/* ---- PRNG: xorshift64*, seeded through splitmix64 -------------------------- */
static uint64_t rng_state;

static uint64_t splitmix64(uint64_t *x)
{
    uint64_t z = (*x += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
}

static inline uint64_t rnd(void)
{
    uint64_t x = rng_state;
    x ^= x >> 12;
    x ^= x << 25;
    x ^= x >> 27;
    rng_state = x;
    return x * 0x2545F4914F6CDD1Dull;
}

/* uniform in [0, n) for n < 2^32 */
static inline uint32_t rnd_below(uint64_t r, uint32_t n) { return (uint32_t)(((r >> 32) * n) >> 32); }

/* ---- instructions and programs --------------------------------------------- */
/* OP_BUNDLE: a VLIW ALU group whose results stay in the pipeline (no write);
 * in a VLIW model OP_ALU is a bundle that writes a register too. */
enum op { OP_ALU, OP_LOAD, OP_LDS, OP_STORE, OP_BUNDLE };

enum gen {
    G_CONST, /* all lanes p0 + k*p1 + (p2 << k) + (p3 >> k) */
    G_GID,   /* p0 + p1*global_id + k*p2 + (p3 >> k) + (p4 << k) */
    G_LID,   /* p0 + p1*local_id + k*p2 + (p3 >> k) + (p4 << k) */
    G_XY,    /* p0 + X*p1 + Y*p2 + k*p4; 8-wide 2-D ids, global when p3 (grid width in groups) */
    G_FLOAT, /* IEEE-754 float, biased exponent in [p0, p0+p1), random sign if p2 */
    G_SMALL, /* p0 + (p3 ? p3 : 1) * uniform[0, p1 << (p2 ? k : 0)) */
    G_RAND,  /* 32 random bits */
};

enum exec {
    X_FULL, /* every lane */
    X_HALF, /* lanes 0 .. lanes/2-1 of every wavefront */
    X_LT,   /* work-items with local id < (xp >> k) */
    X_STRIDE, /* work-items with local id % (xp << k) == 0: an interleaved tree */
    X_RAND, /* random subset: xp 1 = half, 2 = a quarter, 3 = three quarters */
};

#define NSRC 3
struct insn {
    uint8_t op, dst, gen, exec;
    uint8_t s[NSRC];    /* source vreg + 1; 0 = none */
    uint16_t xp;        /* exec-mask parameter */
    uint32_t p[5];      /* value parameters */
};

enum { SEC_PRO, SEC_BODY, SEC_EPI, NSEC };

/* How a VLIW model fills the slots X Y Z W T of its bundles: each slot is
 * taken independently with probability p[s] and an empty draw is drawn
 * again.  That keeps the shares p[s] / sum(p) and makes the expected slots
 * per bundle sum(p) / P(not empty); p is solved from share[] and packing. */
struct vliw {
    double share[RFT_NSLOTS];   /* % of the ALU instructions per slot */
    double packing;             /* filled slots / 5, on average */
    double trans;               /* share of T instructions that are transcendental */
    double vector;              /* share of bundles with X..W all taken that are one vector op */
    double p[RFT_NSLOTS];       /* solved at start */
};

struct model {
    const char *name;
    const char *desc;
    unsigned nregs;     /* VGPRs per work-item: the window size */
    unsigned wg_waves;  /* wavefronts per work-group */
    unsigned iters;     /* loop iterations of the body */
    int xy;             /* 2-D work-group, 8 work-items wide: v0 = x, v1 = y */
    void (*build)(void);
    const struct insn *sec[NSEC];
    unsigned nsec[NSEC];
    struct vliw *vliw;  /* Evergreen models only */
    unsigned wg_items;  /* work-items per work-group, 0: wg_waves full wavefronts */
};

#define POOL 4096
static struct insn pool[POOL];
static unsigned npool;
static struct model *bm; /* model being built */
static int bsec;         /* its current section */

static void section(int s)
{
    bsec = s;
    bm->sec[s] = pool + npool;
    bm->nsec[s] = 0;
}

static void put(struct insn in)
{
    if (npool == POOL)
        die("internal error: instruction pool full");
    pool[npool++] = in;
    bm->nsec[bsec]++;
}

#define V(r) ((uint8_t)((r) + 1))
#define SRC(...) .s = {__VA_ARGS__}
#define P(...) .p = {__VA_ARGS__}
#define EX(e, x) .exec = (e), .xp = (x)
#define ALU(d, g, ...) put((struct insn){.op = OP_ALU, .dst = (d), .gen = (g), __VA_ARGS__})
#define LOAD(d, g, ...) put((struct insn){.op = OP_LOAD, .dst = (d), .gen = (g), __VA_ARGS__})
#define LDS(d, g, ...) put((struct insn){.op = OP_LDS, .dst = (d), .gen = (g), __VA_ARGS__})
#define STORE(...) put((struct insn){.op = OP_STORE, __VA_ARGS__})
#define BUNDLES(n, ...) for (int b_ = 0; b_ < (n); b_++) put((struct insn){.op = OP_BUNDLE, __VA_ARGS__})

/* buffer base addresses: plausible device addresses, fixed */
#define BUF_A 0x00100000u
#define BUF_B 0x00500000u
#define BUF_C 0x00900000u
#define STRIDE 0x00040000u /* grid stride of the loops, bytes */
#define MAT_N 512u         /* matrix width (elements) of matmul and transpose */
#define GRID_W (MAT_N / 8) /* groups per row of the 8-wide 2-D grids */

/* exponents (biased) of float data */
#define E_SMALL 120u  /* 2^-7 */
#define E_ONE 127u

/* float constants of the Black-Scholes formula (IEEE-754 bits) */
static const uint32_t bs_consts[] = {
    0x3f000000, /* 0.5 */
    0x3f800000, /* 1.0 */
    0x3ecc422a, /* 1/sqrt(2 pi) */
    0x3e6d3389, /* 0.2316419 */
    0x3ea385fa, /* 0.31938153 */
    0xbeb68f87, /* -0.356563782 */
    0x3fe40778, /* 1.781477937 */
    0xbfe91eea, /* -1.821255978 */
    0x3faa466f, /* 1.330274429 */
    0x3ca3d70a, /* riskfree 0.02 */
    0x3e99999a, /* volatility 0.30 */
    0x41200000, /* 10.0 */
    0x42c80000, /* 100.0 */
};

/* c[i] = a[i] + b[i] over a grid-stride loop */
static void build_vecadd(void)
{
    section(SEC_PRO);
    ALU(3, G_GID, SRC(V(0)), P(0, 1));           /* global id */
    ALU(4, G_GID, SRC(V(3)), P(0, 4));           /* byte offset */
    section(SEC_BODY);
    ALU(5, G_GID, SRC(V(4)), P(BUF_A, 4, STRIDE)); /* &a[i] */
    ALU(6, G_GID, SRC(V(4)), P(BUF_B, 4, STRIDE)); /* &b[i] */
    LOAD(5, G_FLOAT, SRC(V(5)), P(E_SMALL, 12, 1));
    LOAD(6, G_FLOAT, SRC(V(6)), P(E_SMALL, 12, 1));
    ALU(7, G_FLOAT, SRC(V(5), V(6)), P(E_SMALL, 13, 1));
    ALU(5, G_GID, SRC(V(4)), P(BUF_C, 4, STRIDE)); /* &c[i] */
    STORE(SRC(V(5), V(7)));
    section(SEC_EPI);
}

/* each work-item of an 8x8 group computes a 4x4 block of C = A B:
 * float4 loads of A rows and B columns, 64 multiply-adds per step */
static void build_matmul(void)
{
    const uint32_t row = 4 * MAT_N;
    section(SEC_PRO);
    ALU(3, G_XY, SRC(V(0)), P(0, 1, 0, GRID_W));          /* gx: De=1, Db=0 */
    ALU(4, G_XY, SRC(V(1)), P(0, 0, 1, GRID_W));          /* gy: De=0, Db=1 */
    ALU(5, G_XY, SRC(V(3)), P(0, 16, 0, GRID_W));         /* gx * 16 */
    ALU(6, G_XY, SRC(V(4)), P(0, 0, 4 * row, GRID_W));    /* 4 gy * row */
    ALU(7, G_XY, SRC(V(0), V(1)), P(0, 4, 64, 0));        /* 16x16 LDS tile: De=4, Db=64 */
    for (int r = 0; r < 16; r++)
        ALU(8 + r, G_CONST, P(0));                        /* acc = 0.0f */
    section(SEC_BODY);
    ALU(56, G_XY, SRC(V(6)), P(BUF_A, 0, 4 * row, GRID_W, 16));   /* &A[4gy][4k] */
    ALU(57, G_XY, SRC(V(5)), P(BUF_B, 16, 0, GRID_W, 4 * row));   /* &B[4k][4gx] */
    for (int r = 0; r < 16; r++)
        LOAD(24 + r, G_FLOAT, SRC(V(56)), P(E_SMALL, 8, 1));
    for (int r = 0; r < 16; r++)
        LOAD(40 + r, G_FLOAT, SRC(V(57)), P(E_SMALL, 8, 1));
    ALU(58, G_XY, SRC(V(7)), P(0, 4, 64, 0, 256));        /* LDS tile of this step */
    STORE(SRC(V(58), V(24)));
    for (int kk = 0; kk < 4; kk++)
        for (int r = 0; r < 4; r++)
            for (int c = 0; c < 4; c++)
                ALU(8 + 4 * r + c, G_FLOAT, SRC(V(8 + 4 * r + c), V(24 + 4 * r + kk), V(40 + 4 * kk + c)),
                    P(E_ONE - 2, 8, 1));
    ALU(59, G_CONST, P(4, 4));                            /* k counter */
    section(SEC_EPI);
    for (int r = 0; r < 4; r++) {
        ALU(60 + r, G_XY, SRC(V(5), V(6)), P(BUF_C + r * row, 16, 4 * row, GRID_W)); /* &C[4gy+r][4gx] */
        STORE(SRC(V(60 + r), V(8 + 4 * r), V(9 + 4 * r)));
    }
}

/* sum of a vector of small integers: 4 per work-item, then an interleaved
 * tree in LDS: at step k the work-items with lid % 2^(k+1) == 0 add their
 * partner (divergent writes in every wavefront) */
static void build_reduction(void)
{
    section(SEC_PRO);
    ALU(1, G_CONST, SRC(V(1)), P(256));                   /* local size */
    ALU(1, G_GID, SRC(V(0), V(1)), P(0, 1));              /* global id */
    ALU(2, G_GID, SRC(V(1)), P(0, 16));                   /* uint4 offset */
    for (int j = 0; j < 4; j++)
        ALU(3 + j, G_GID, SRC(V(2)), P(BUF_A + 4 * j, 16)); /* &in[4 gid + j] */
    for (int j = 0; j < 4; j++)
        LOAD(7 + j, G_SMALL, SRC(V(3 + j)), P(0, 6));      /* data: 0..5 */
    ALU(1, G_SMALL, SRC(V(7), V(8)), P(0, 11));
    ALU(1, G_SMALL, SRC(V(1), V(9)), P(0, 16));
    ALU(1, G_SMALL, SRC(V(1), V(10)), P(0, 21));
    ALU(2, G_LID, SRC(V(0)), P(0, 4));                    /* LDS &sdata[lid] */
    STORE(SRC(V(2), V(1)));
    section(SEC_BODY);
    ALU(11, G_CONST, P(0, 0, 1));                         /* s = 1 << k */
    ALU(3, G_LID, SRC(V(2), V(11)), P(0, 4, 0, 0, 4), EX(X_STRIDE, 2)); /* &sdata[lid + s] */
    LDS(4, G_SMALL, SRC(V(3)), P(0, 42, 1), EX(X_STRIDE, 2));
    ALU(1, G_SMALL, SRC(V(1), V(4)), P(0, 84, 1), EX(X_STRIDE, 2));
    STORE(SRC(V(2), V(1)), EX(X_STRIDE, 2));
    section(SEC_EPI);
    ALU(12, G_CONST, P(BUF_C), EX(X_LT, 1));              /* &out[group]: lane 0 only */
    STORE(SRC(V(12), V(1)), EX(X_LT, 1));
}

/* out = in^T through an 8x8 LDS block; 4 VGPRs, mostly ids and addresses */
static void build_transpose(void)
{
    const uint32_t row = 4 * MAT_N;
    section(SEC_PRO);
    ALU(2, G_CONST, P(8));                                /* block width */
    ALU(3, G_CONST, P(MAT_N));                            /* matrix width */
    ALU(2, G_XY, SRC(V(0), V(2)), P(0, 1, 0, GRID_W));    /* gx */
    ALU(3, G_XY, SRC(V(1), V(3)), P(0, 0, 1, GRID_W));    /* gy */
    section(SEC_BODY);
    ALU(2, G_XY, SRC(V(2), V(3)), P(0, 1, MAT_N, GRID_W, MAT_N * MAT_N / 2)); /* gy*W + gx */
    ALU(2, G_XY, SRC(V(2)), P(BUF_A, 4, row, GRID_W, 2 * MAT_N * MAT_N));    /* &in[..] */
    LOAD(2, G_FLOAT, SRC(V(2)), P(E_ONE, 8, 0));
    ALU(3, G_XY, SRC(V(0), V(1)), P(0, 4, 32, 0));        /* LDS [y][x]: De=4, Db=32 */
    STORE(SRC(V(3), V(2)));
    ALU(3, G_CONST, P(0));                                /* LDS offset of the block: 0 */
    ALU(3, G_XY, SRC(V(0), V(1)), P(0, 32, 4, 0));        /* LDS [x][y]: De=32, Db=4 */
    LDS(2, G_FLOAT, SRC(V(3)), P(E_ONE, 8, 0));
    ALU(3, G_XY, SRC(V(0), V(1)), P(BUF_B, 4 * MAT_N, 4, GRID_W, 2 * MAT_N * MAT_N)); /* &out[gx][gy] */
    STORE(SRC(V(3), V(2)));
    section(SEC_EPI);
}

/* option pricing: a long straight-line float computation per option over
 * v7..v61, a few uniform constants, addresses only at the ends */
static void build_blackscholes(void)
{
    section(SEC_PRO);
    ALU(3, G_GID, SRC(V(0)), P(0, 1));
    ALU(4, G_GID, SRC(V(3)), P(0, 4));
    section(SEC_BODY);
    ALU(5, G_GID, SRC(V(4)), P(BUF_A, 4, STRIDE));        /* &rand[i] */
    LOAD(6, G_FLOAT, SRC(V(5)), P(E_SMALL, 7, 0));        /* uniform in (0,1) */
    unsigned prev = 6, prev2 = 5, nc = 0;
    for (unsigned j = 0; j < 110; j++) {
        unsigned d = 7 + (j * 13) % 55;
        if (j % 9 == 4)
            ALU(d, G_CONST, P(bs_consts[nc++ % (sizeof bs_consts / sizeof *bs_consts)]));
        else if (j % 11 == 10)
            ALU(d, G_FLOAT, SRC(V(prev)), P(E_ONE - 1, 2, 0));   /* cnd: 0.5 .. 2 */
        else
            ALU(d, G_FLOAT, SRC(V(prev), V(prev2)), P(E_SMALL, 14, 1));
        prev2 = prev;
        prev = d;
    }
    ALU(5, G_GID, SRC(V(4)), P(BUF_B, 4, STRIDE));        /* &call[i] */
    STORE(SRC(V(5), V(prev)));
    ALU(5, G_GID, SRC(V(4)), P(BUF_C, 4, STRIDE));        /* &put[i] */
    STORE(SRC(V(5), V(prev2)));
    section(SEC_EPI);
}

/* 256-bin byte histogram in LDS: random data words, random bins, LDS
 * atomics whose retries leave partial exec masks, then a half-wavefront merge */
static void build_histogram(void)
{
    section(SEC_PRO);
    ALU(3, G_GID, SRC(V(0)), P(0, 1));
    ALU(4, G_LID, SRC(V(0)), P(0, 4));                    /* LDS &bin[lid] */
    ALU(5, G_CONST, P(0));
    STORE(SRC(V(4), V(5)));                               /* clear the bins */
    section(SEC_BODY);
    ALU(6, G_GID, SRC(V(3)), P(BUF_A, 4, STRIDE));        /* &data[i] */
    LOAD(7, G_RAND, SRC(V(6)));
    for (int b = 0; b < 4; b++)
        ALU(8 + b, G_SMALL, SRC(V(7)), P(0, 256));        /* byte b: the bin */
    for (int b = 0; b < 4; b++)
        ALU(12 + b, G_SMALL, SRC(V(8 + b)), P(0, 256, 0, 4)); /* LDS &bin[byte] */
    for (int b = 0; b < 4; b++)
        LDS(16 + b, G_SMALL, SRC(V(12 + b)), P(0, 8, 1), EX(X_RAND, 3)); /* atomic inc, retries */
    ALU(20, G_CONST, P(1, 1));                            /* loop counter */
    section(SEC_EPI);
    LDS(21, G_SMALL, SRC(V(4)), P(0, 64), EX(X_HALF, 0)); /* local bin count */
    ALU(22, G_LID, SRC(V(3)), P(BUF_C, 4), EX(X_HALF, 0)); /* &hist[bin] */
    STORE(SRC(V(22), V(21)), EX(X_HALF, 0));
}

/* ---- VLIW models (AMD Evergreen, seed 003) -------------------------------------
 * The AMD APP SDK kernels of seed 003 Table I, as VLIW programs: ALU clauses
 * of bundles (OP_BUNDLE), a register write at the end of a clause (OP_ALU),
 * fetches (OP_LOAD) and stores.  Registers are 32-bit channels: R0.x..R0.w
 * are v0..v3, so v0..v2 are R0.xyz, the local ids Evergreen presets.
 * Shares: seed 003 Fig. 4 (not in its text) says only that every kernel
 * runs more than 40 % of its ALU instructions on X and that Reduction runs
 * 50.7 % on X and 9 % on Z; every other share is our assumption, chosen in
 * the order the compiler fills slots (X first, then Y, W, Z; T for
 * transcendentals and overflow).  Packing ratios are assumptions around the
 * seed's average of 0.3 (section 6.2); their mean over the six models is 0.30. */
static struct vliw v_reduction = {{50.7, 16.3, 9.0, 13.0, 11.0}, 0.26, 0.10, 0.0, {0}};
static struct vliw v_sobel = {{41.5, 19.0, 15.5, 13.0, 11.0}, 0.36, 0.20, 0.5, {0}};
static struct vliw v_blackscholes = {{42.0, 16.0, 13.0, 11.0, 18.0}, 0.40, 0.60, 0.0, {0}};
static struct vliw v_binomial = {{44.0, 18.0, 12.0, 14.0, 12.0}, 0.28, 0.40, 0.0, {0}};
static struct vliw v_fwt = {{47.0, 20.0, 10.0, 12.0, 11.0}, 0.24, 0.10, 0.0, {0}};
static struct vliw v_quasirandom = {{45.0, 17.0, 11.0, 14.0, 13.0}, 0.26, 0.30, 0.0, {0}};

#define ALL EX(X_FULL, 0)

/* sum reduction: 4 loads per work-item, then an interleaved tree in LDS
 * (local id % 2^(k+1) == 0 active), the group's sum by lane 0 */
static void build_vliw_reduction(void)
{
    section(SEC_PRO);
    ALU(4, G_GID, P(0, 1), ALL);                          /* R1.x global id */
    LOAD(5, G_SMALL, P(0, 6), ALL);
    BUNDLES(6, ALL);
    ALU(6, G_SMALL, P(0, 24), ALL);                       /* R1.z partial sum */
    STORE(ALL);
    section(SEC_BODY);
    BUNDLES(3, EX(X_STRIDE, 2));
    LDS(7, G_SMALL, P(0, 42, 1), EX(X_STRIDE, 2));
    BUNDLES(2, EX(X_STRIDE, 2));
    ALU(6, G_SMALL, P(0, 84, 1), EX(X_STRIDE, 2));
    STORE(EX(X_STRIDE, 2));
    section(SEC_EPI);
    BUNDLES(2, EX(X_LT, 1));
    ALU(8, G_CONST, P(BUF_C), EX(X_LT, 1));
    STORE(EX(X_LT, 1));
}

/* 3x3 Sobel filter: 9 pixel fetches per step, a long clause of products */
static void build_vliw_sobel(void)
{
    section(SEC_PRO);
    ALU(4, G_GID, P(0, 1), ALL);
    ALU(5, G_GID, P(BUF_A, 4), ALL);
    section(SEC_BODY);
    for (int i = 0; i < 3; i++)
        LOAD(8 + i, G_FLOAT, P(E_ONE, 8, 0), ALL);
    BUNDLES(10, ALL);
    ALU(12, G_FLOAT, P(E_ONE, 8, 0), ALL);
    STORE(ALL);
    section(SEC_EPI);
}

/* option pricing: straight-line float code, many exp, log and sqrt on T */
static void build_vliw_blackscholes(void)
{
    section(SEC_PRO);
    ALU(4, G_GID, P(0, 1), ALL);
    LOAD(5, G_FLOAT, P(E_SMALL, 7, 0), ALL);
    section(SEC_BODY);
    BUNDLES(24, ALL);
    ALU(6, G_FLOAT, P(E_SMALL, 14, 1), ALL);
    ALU(7, G_FLOAT, P(E_SMALL, 14, 1), ALL);
    STORE(ALL);
    section(SEC_EPI);
}

/* binomial option tree: 127 work-items, half as many active at each step */
static void build_vliw_binomial(void)
{
    section(SEC_PRO);
    ALU(4, G_LID, P(0, 1), ALL);
    LOAD(5, G_FLOAT, P(E_ONE, 8, 0), ALL);
    section(SEC_BODY);
    BUNDLES(6, EX(X_LT, 127));
    ALU(6, G_FLOAT, P(E_ONE, 8, 0), EX(X_LT, 127));
    STORE(EX(X_LT, 127));
    section(SEC_EPI);
    ALU(7, G_FLOAT, P(E_ONE, 8, 0), EX(X_LT, 1));
    STORE(EX(X_LT, 1));
}

/* fast Walsh transform: butterflies of two fetched values per step */
static void build_vliw_fwt(void)
{
    section(SEC_PRO);
    ALU(4, G_GID, P(0, 1), ALL);
    section(SEC_BODY);
    LOAD(5, G_FLOAT, P(E_SMALL, 12, 1), ALL);
    LOAD(6, G_FLOAT, P(E_SMALL, 12, 1), ALL);
    BUNDLES(4, ALL);
    ALU(5, G_FLOAT, P(E_SMALL, 13, 1), ALL);
    ALU(6, G_FLOAT, P(E_SMALL, 13, 1), ALL);
    STORE(ALL);
    STORE(ALL);
    section(SEC_EPI);
}

/* Sobol-like sequence: bit manipulation per dimension, 128 work-items */
static void build_vliw_quasirandom(void)
{
    section(SEC_PRO);
    ALU(4, G_GID, P(0, 1), ALL);
    section(SEC_BODY);
    BUNDLES(5, ALL);
    ALU(5, G_RAND, P(0), ALL);
    STORE(ALL);
    section(SEC_EPI);
}

static struct model models[] = {
    {"vecadd", "vector add: ids, single-delta addresses, float data", 8, 4, 4, 0, build_vecadd, {0}, {0}, NULL, 0},
    {"matmul", "4x4-blocked matrix multiply: 2-D ids, double-delta tiles, float loads and sums",
     69, 1, 8, 1, build_matmul, {0}, {0}, NULL, 0},
    {"reduction", "sum reduction: small ints, interleaved LDS tree with sparse exec masks", 13, 4, 8, 0,
     build_reduction, {0}, {0}, NULL, 0},
    {"transpose", "matrix transpose through LDS: 2-D ids and addresses, few floats", 4, 4, 2, 1,
     build_transpose, {0}, {0}, NULL, 0},
    {"blackscholes", "Black-Scholes pricing: long float chains, uniform constants", 62, 2, 4, 0,
     build_blackscholes, {0}, {0}, NULL, 0},
    {"histogram", "byte histogram: random words, random bins, divergent LDS atomics", 26, 4, 8, 0,
     build_histogram, {0}, {0}, NULL, 0},
};
#define NMODELS (sizeof models / sizeof *models)

/* seed 003 Table I: work-items per work-group of each kernel */
static struct model vliw_models[] = {
    {"reduction", "Reduction: LDS tree, sparse exec masks, X 50.7 % and Z 9 % (seed 003)", 12, 0, 8,
     0, build_vliw_reduction, {0}, {0}, &v_reduction, 256},
    {"sobel", "SobelFilter: 3x3 stencil, pixel fetches, long dot-product clauses", 16, 0, 4, 0,
     build_vliw_sobel, {0}, {0}, &v_sobel, 256},
    {"blackscholes", "BlackScholes: straight-line float code, exp/log/sqrt on T", 12, 0, 4, 0,
     build_vliw_blackscholes, {0}, {0}, &v_blackscholes, 256},
    {"binomial", "BinomialOptions: 127 work-items, half as many active each step", 12, 0, 8, 0,
     build_vliw_binomial, {0}, {0}, &v_binomial, 127},
    {"fwt", "FastWalshTransform: butterflies of fetched pairs", 8, 0, 8, 0, build_vliw_fwt, {0},
     {0}, &v_fwt, 256},
    {"quasirandom", "QuasiRandomSequence: integer bit twiddling, 128 work-items", 8, 0, 8, 0,
     build_vliw_quasirandom, {0}, {0}, &v_quasirandom, 128},
};
#define NVLIW (sizeof vliw_models / sizeof *vliw_models)

/* ---- machine state ------------------------------------------------------------ */
#define ENTRIES 256      /* entries per slice */
#define MAX_WAVES 16     /* per slice */
#define MAX_PEND 8       /* outstanding loads per wavefront */
#define MAX_KERNELS 64
#define LAT_GLOBAL 200u  /* global load latency: 200 .. 200+LAT_SPAN-1 cycles */
#define LAT_LDS 24u      /* LDS load latency: 24 .. 24+LAT_SPAN/8-1 cycles */
#define LAT_SPAN 256u

struct pend {
    uint64_t ready;
    const struct insn *in;
    uint32_t k;
};

struct wave {
    int alive, blocked;     /* blocked: waits for a load before it can issue */
    uint32_t id, wg, wiw;   /* stream id, work-group, wavefront in work-group */
    unsigned nlanes;        /* lanes holding a work-item: fewer in a partial wavefront */
    uint32_t *regs;         /* window: nregs x lanes */
    int sec;                /* position: section, index, iteration */
    uint32_t ip, k;
    unsigned phead, npend;
    struct pend pend[MAX_PEND];
};

struct slice {
    uint16_t cu, simd;
    uint32_t *regs;         /* entries x lanes: the slice's cells */
    unsigned nalive, rr;
    uint64_t min_ready;     /* earliest pending load of its wavefronts */
    struct wave wv[MAX_WAVES];
};

static unsigned L;          /* lanes */
static unsigned MB;         /* mask bytes */
static unsigned ncu, nsimd, nslices;
static struct slice *slices;

static rft_writer *out;
static const char *outname; /* for messages */
static rft_write W;         /* reused for every write */
static rft_bundle U;        /* and bundle */
/* the size of the run: writes (gcn) or bundles (evergreen) */
static uint64_t ndone, target;
static const char *unit = "writes";

/* current kernel */
static const struct model *km;
static uint32_t kidx;
static unsigned k_wg_items, k_wg_waves;    /* work-items and wavefronts per work-group */
static uint64_t k_nwg, k_next_wg;
static unsigned k_maxwaves; /* wavefronts per slice */
static unsigned k_alive;
static unsigned disp_rr;
static int room_changed;
static uint32_t next_wf;

static int progress, shown; /* progress on a terminal; something was shown */
static struct timespec last_tick;

static void fail(int rc)
{
    char msg[512];
    snprintf(msg, sizeof msg, "%s", rft_writer_error(out));
    rft_writer_close(out, 0, NULL, 0);
    cli_epipe(rc);
    die("%s: %s", outname, msg);
}

static inline void ck(int rc)
{
    if (rc < 0)
        fail(rc);
}

static void tick(void)
{
    struct timespec now;
    clock_gettime(CLOCK_MONOTONIC, &now);
    if (now.tv_sec - last_tick.tv_sec + (now.tv_nsec - last_tick.tv_nsec) / 1e9 < 1.0)
        return;
    last_tick = now;
    shown = 1;
    fprintf(stderr, "\r%s: %llu %s (%.0f%%)  ", prog, (unsigned long long)ndone, unit,
            100.0 * (double)ndone / (double)(target ? target : 1));
}

static void count_done(void)
{
    if ((++ndone & 0xffff) == 0 && progress)
        tick();
}

/* ---- exec masks ------------------------------------------------------------- */
/* active lanes of a deterministic mask; -1 for a random one */
static int mask_count(const struct insn *in, const struct wave *w, uint32_t k)
{
    uint64_t lo = (uint64_t)w->wiw * L, n = w->nlanes;     /* lanes lo .. lo+n-1 */
    switch (in->exec) {
    case X_HALF: return (int)(L / 2 < n ? L / 2 : n);
    case X_LT: {
        uint64_t lim = k < 16 ? (uint64_t)(in->xp >> k) : 0;
        return lim <= lo ? 0 : lim - lo >= n ? (int)n : (int)(lim - lo);
    }
    case X_STRIDE: {
        uint64_t step = (uint64_t)in->xp << (k < 32 ? k : 32);
        return (int)((lo + n - 1) / step - (lo + step - 1) / step + 1);
    }
    case X_RAND: return -1;
    default: return (int)n;
    }
}

/* fill W.mask; returns the active lane count (random masks: any positive) */
static unsigned make_mask(const struct insn *in, const struct wave *w, uint32_t k)
{
    int n = mask_count(in, w, k);
    if (in->exec == X_STRIDE) {
        uint64_t step = (uint64_t)in->xp << (k < 32 ? k : 32), lo = (uint64_t)w->wiw * L;
        memset(W.mask, 0, MB);
        for (uint64_t i = (step - lo % step) % step; i < w->nlanes; i += step)
            W.mask[i >> 3] |= (uint8_t)(1u << (i & 7));
        return (unsigned)n;
    }
    if (n >= 0) {
        memset(W.mask, 0, MB);
        memset(W.mask, 0xff, (unsigned)n / 8);
        if (n % 8)
            W.mask[n / 8] = (uint8_t)((1u << (n % 8)) - 1);
        return (unsigned)n;
    }
    unsigned cnt = 0;
    for (unsigned i = 0; i < MB; i += 8) {
        uint64_t r = rnd();
        if (in->xp == 2)
            r &= rnd();
        else if (in->xp == 3)
            r |= rnd();
        for (unsigned b = 0; b < 8 && i + b < MB; b++)
            W.mask[i + b] = (uint8_t)(r >> (8 * b));
    }
    for (unsigned i = w->nlanes; i < L; i++)    /* no work-item there */
        W.mask[i >> 3] &= (uint8_t)~(1u << (i & 7));
    for (unsigned i = 0; i < MB; i++)
        cnt += (unsigned)__builtin_popcount(W.mask[i]);
    return cnt;
}

/* ---- values ------------------------------------------------------------------- */
static inline uint32_t shr(uint32_t v, uint32_t k) { return k < 32 ? v >> k : 0; }
static inline uint32_t shl(uint32_t v, uint32_t k) { return k < 32 ? v << k : 0; }

#define FOR_ACTIVE(stmt)                                                              \
    do {                                                                              \
        if (full) {                                                                   \
            for (unsigned i = 0; i < L; i++) { stmt; }                               \
        } else {                                                                      \
            for (unsigned i = 0; i < L; i++)                                          \
                if ((W.mask[i >> 3] >> (i & 7)) & 1) { stmt; }                       \
        }                                                                             \
    } while (0)

static void gen_values(const struct insn *in, const struct wave *w, uint32_t k, uint32_t *r,
                       int full)
{
    const uint32_t *p = in->p;
    uint32_t lid0 = w->wiw * L;
    uint32_t gid0 = (uint32_t)((uint64_t)w->wg * k_wg_items) + lid0;
    switch (in->gen) {
    case G_CONST: {
        uint32_t v = p[0] + k * p[1] + shl(p[2], k) + shr(p[3], k);
        FOR_ACTIVE(r[i] = v);
        break;
    }
    case G_GID:
    case G_LID: {
        uint32_t b = p[0] + k * p[2] + shr(p[3], k) + shl(p[4], k) +
                     p[1] * (in->gen == G_GID ? gid0 : lid0);
        FOR_ACTIVE(r[i] = b + p[1] * i);
        break;
    }
    case G_XY: {
        uint32_t gx = 0, gy = 0;
        if (p[3]) {
            gx = (w->wg % p[3]) * 8;
            gy = (w->wg / p[3]) * (k_wg_items / 8);
        }
        uint32_t b = p[0] + k * p[4] + gx * p[1] + gy * p[2];
        FOR_ACTIVE(uint32_t lid = lid0 + i; r[i] = b + (lid % 8) * p[1] + (lid / 8) * p[2]);
        break;
    }
    case G_FLOAT: {
        uint32_t sign = p[2] ? 0x80000000u : 0;
        FOR_ACTIVE(uint64_t x = rnd();
                   r[i] = ((uint32_t)(x >> 8) & sign) | (p[0] + rnd_below(x, p[1])) << 23 |
                          ((uint32_t)x & 0x7fffffu));
        break;
    }
    case G_SMALL: {
        uint32_t n = p[1] << (p[2] ? (k < 16 ? k : 16) : 0), scale = p[3] ? p[3] : 1;
        FOR_ACTIVE(r[i] = p[0] + scale * rnd_below(rnd(), n));
        break;
    }
    case G_RAND:
        FOR_ACTIVE(r[i] = (uint32_t)(rnd() >> 32));
        break;
    }
}

/* ---- records ------------------------------------------------------------------ */
/* a write under the exec mask in W.mask, of n lanes */
static void put_write_masked(struct slice *s, struct wave *w, const struct insn *in, uint32_t k,
                             uint64_t t, unsigned n)
{
    if (n == 0)
        return; /* an empty exec mask writes nothing */
    uint32_t *r = w->regs + (size_t)in->dst * L;
    gen_values(in, w, k, r, n == L);
    W.cycle = t;
    W.cu = s->cu;
    W.simd = s->simd;
    W.wf = w->id;
    W.vreg = in->dst;
    memcpy(W.val, r, (size_t)L * 4);
    ck(rft_write_write(out, &W));
    if (!km->vliw)
        count_done();
}

static void put_write(struct slice *s, struct wave *w, const struct insn *in, uint32_t k,
                      uint64_t t)
{
    put_write_masked(s, w, in, k, t, make_mask(in, w, k));
}

/* a bundle under the exec mask in W.mask, of n lanes, its slots drawn from
 * the model (struct vliw) */
static void put_bundle(const struct slice *s, const struct wave *w, uint64_t t, unsigned n)
{
    const struct vliw *v = km->vliw;
    if (n == 0)
        return; /* nobody runs it */
    uint8_t slots = 0;
    while (!slots)
        for (int i = 0; i < RFT_NSLOTS; i++)
            if ((double)(rnd() >> 11) < v->p[i] * 9007199254740992.0)   /* 2^53 */
                slots |= (uint8_t)(1u << i);
    U.flags = 0;
    if ((slots & RFT_SLOT_T) && (double)(rnd() >> 11) < v->trans * 9007199254740992.0)
        U.flags |= RFT_UF_TRANS;
    if ((slots & RFT_SLOTS_XYZW) == RFT_SLOTS_XYZW &&
        (double)(rnd() >> 11) < v->vector * 9007199254740992.0)
        U.flags |= RFT_UF_VECTOR;
    U.cycle = t;
    U.cu = s->cu;
    U.simd = s->simd;
    U.wf = w->id;
    U.slots = slots;
    memcpy(U.mask, W.mask, MB);
    ck(rft_write_bundle(out, &U));
    count_done();
}

static void put_reads(const struct slice *s, const struct wave *w, const struct insn *in,
                      uint64_t t)
{
    rft_regread rd = {.cycle = t, .cu = s->cu, .simd = s->simd, .wf = w->id, .phys = RFT_NO_PHYS};
    for (int j = 0; j < NSRC; j++) {
        uint8_t v = in->s[j];
        if (!v || (j > 0 && v == in->s[0]) || (j > 1 && v == in->s[1]))
            continue;
        rd.vreg = (uint16_t)(v - 1);
        ck(rft_write_regread(out, &rd));
    }
}

/* ---- wavefront program ------------------------------------------------------ */
static const struct insn *cur_insn(const struct wave *w)
{
    return w->sec < NSEC ? &km->sec[w->sec][w->ip] : NULL;
}

/* move to the next instruction, skipping empty sections and finished loops */
static void settle(struct wave *w)
{
    for (;;) {
        if (w->sec == NSEC)
            return;
        if (w->ip < km->nsec[w->sec])
            return;
        if (w->sec == SEC_BODY && ++w->k < km->iters) {
            w->ip = 0;
            continue;
        }
        w->sec++;
        w->ip = 0;
        w->k = 0;
    }
}

static int pending_reg(const struct wave *w, unsigned reg)
{
    for (unsigned j = 0; j < w->npend; j++)
        if (w->pend[(w->phead + j) % MAX_PEND].in->dst == reg)
            return 1;
    return 0;
}

/* can the wave issue its next instruction now? */
static int can_issue(const struct wave *w)
{
    const struct insn *in = cur_insn(w);
    if (!in)
        return 0;
    if (w->npend == 0)
        return 1;
    if (w->npend == MAX_PEND)
        return 0;
    /* an Evergreen ALU clause starts when the fetches before it have returned */
    if (km->vliw && in->op != OP_LOAD && in->op != OP_LDS)
        return 0;
    for (int j = 0; j < NSRC; j++)
        if (in->s[j] && pending_reg(w, in->s[j] - 1u))
            return 0;
    return in->op == OP_STORE || !pending_reg(w, in->dst);
}

static void end_wave(struct slice *s, struct wave *w, uint64_t t)
{
    rft_wfend e = {.cycle = t, .cu = s->cu, .simd = s->simd, .wf = w->id};
    ck(rft_write_end(out, &e));
    w->alive = 0;
    s->nalive--;
    k_alive--;
    room_changed = 1;
}

static void issue(struct slice *s, struct wave *w, uint64_t t)
{
    const struct insn *in = cur_insn(w);
    uint32_t k = w->sec == SEC_BODY ? w->k : 0;
    int empty = mask_count(in, w, k) == 0;
    if (!empty)
        put_reads(s, w, in, t);
    if (in->op == OP_BUNDLE || (in->op == OP_ALU && km->vliw)) {
        unsigned n = make_mask(in, w, k);
        put_bundle(s, w, t, n);
        if (in->op == OP_ALU)
            put_write_masked(s, w, in, k, t, n);
    } else if (in->op == OP_ALU) {
        put_write(s, w, in, k, t);
    } else if ((in->op == OP_LOAD || in->op == OP_LDS) && !empty) {
        uint64_t r = rnd();
        uint64_t lat = in->op == OP_LOAD ? LAT_GLOBAL + rnd_below(r, LAT_SPAN)
                                         : LAT_LDS + rnd_below(r, LAT_SPAN / 8);
        uint64_t ready = t + lat;
        if (w->npend) {
            /* loads of a wavefront return in order */
            uint64_t last = w->pend[(w->phead + w->npend - 1) % MAX_PEND].ready;
            if (ready < last)
                ready = last;
        }
        struct pend *pd = &w->pend[(w->phead + w->npend) % MAX_PEND];
        pd->ready = ready;
        pd->in = in;
        pd->k = k;
        w->npend++;
        if (ready < s->min_ready)
            s->min_ready = ready;
    }
    w->ip++;
    settle(w);
}

/* one issue slot of a slice at cycle t: deliver returned loads, end finished
 * wavefronts, issue one instruction round robin.  Returns 1 if anything
 * happened; lowers *next to the earliest pending load otherwise. */
static int slot(struct slice *s, uint64_t t, uint64_t *next)
{
    int work = 0;
    if (!s->nalive)
        return 0;
    if (s->min_ready <= t) {
        uint64_t m = UINT64_MAX;
        for (unsigned j = 0; j < k_maxwaves; j++) {
            struct wave *w = &s->wv[j];
            if (!w->alive || !w->npend)
                continue;
            while (w->npend && w->pend[w->phead].ready <= t) {
                struct pend *pd = &w->pend[w->phead];
                put_write(s, w, pd->in, pd->k, t);
                w->phead = (w->phead + 1) % MAX_PEND;
                w->npend--;
                w->blocked = 0;
                work = 1;
            }
            if (w->npend) {
                if (w->pend[w->phead].ready < m)
                    m = w->pend[w->phead].ready;
            } else if (w->sec == NSEC) {
                end_wave(s, w, t);
            }
        }
        s->min_ready = m;
    }
    if (s->min_ready < *next)
        *next = s->min_ready;
    unsigned j = s->rr;
    for (unsigned n = 0; n < k_maxwaves; n++) {
        struct wave *w = &s->wv[j];
        if (w->alive && !w->blocked) {
            if (can_issue(w)) {
                issue(s, w, t);
                s->rr = j + 1 == k_maxwaves ? 0 : j + 1;
                if (w->sec == NSEC && !w->npend)
                    end_wave(s, w, t);
                return 1;
            }
            w->blocked = 1; /* until its next load returns */
        }
        if (++j == k_maxwaves)
            j = 0;
    }
    return work;
}

/* ---- dispatch ------------------------------------------------------------------ */
static void begin_wave(struct slice *s, unsigned j, uint32_t wg, uint32_t wiw, uint64_t t)
{
    struct wave *w = &s->wv[j];
    memset(w, 0, sizeof *w);
    w->alive = 1;
    w->id = next_wf++;
    w->wg = wg;
    w->wiw = wiw;
    w->nlanes = k_wg_items - wiw * L < L ? k_wg_items - wiw * L : L;
    w->regs = s->regs + (size_t)j * km->nregs * L;
    s->nalive++;
    k_alive++;
    rft_wfbegin b = {.cycle = t, .cu = s->cu, .simd = s->simd, .wf = w->id,
                     .nregs = (uint16_t)km->nregs, .flags = RFT_BF_KERNEL | RFT_BF_WG,
                     .wg = wg, .kernel = kidx};
    ck(rft_write_begin(out, &b));
    /* v0..v2: local work-item ids, preset at the start */
    struct insn ids[3] = {
        {.op = OP_ALU, .dst = 0, .gen = G_LID, .p = {0, 1}},
        {.op = OP_ALU, .dst = 1, .gen = G_CONST, .p = {0}},
        {.op = OP_ALU, .dst = 2, .gen = G_CONST, .p = {0}},
    };
    if (km->xy) {
        ids[0] = (struct insn){.op = OP_ALU, .dst = 0, .gen = G_XY, .p = {0, 1, 0, 0}};
        ids[1] = (struct insn){.op = OP_ALU, .dst = 1, .gen = G_XY, .p = {0, 0, 1, 0}};
    }
    for (int i = 0; i < 3; i++)
        put_write(s, w, &ids[i], 0, t);
    settle(w);
}

/* place work-groups on slices that have room: at most one per slice per cycle,
 * round robin over (cu, simd) with the CU varying fastest */
static int dispatch(uint64_t t)
{
    if (k_next_wg >= k_nwg || !room_changed)
        return 0;
    room_changed = 0;
    int placed = 0;
    unsigned start = disp_rr;   /* one round from here: every slice gets its turn */
    for (unsigned n = 0; n < nslices && k_next_wg < k_nwg; n++) {
        unsigned si = (start + n) % nslices;
        struct slice *s = &slices[(si % ncu) * nsimd + si / ncu];
        if (s->nalive + k_wg_waves > k_maxwaves)
            continue;
        uint32_t wiw = 0;
        for (unsigned j = 0; j < k_maxwaves && wiw < k_wg_waves; j++)
            if (!s->wv[j].alive)
                begin_wave(s, j, (uint32_t)k_next_wg, wiw++, t);
        k_next_wg++;
        disp_rr = (si + 1) % nslices;
        placed = 1;
        room_changed = 1; /* more may fit on the next cycle */
    }
    return placed;
}

static unsigned opt_wg_items;   /* --wg-size, 0: the model's */

/* work-items and wavefronts per work-group of model m */
static void wg_shape(const struct model *m)
{
    k_wg_items = opt_wg_items ? opt_wg_items : m->wg_items ? m->wg_items : m->wg_waves * L;
    k_wg_waves = (k_wg_items + L - 1) / L;
}

/* what one work-group of m adds to the size of the run, exactly (random
 * exec masks are never empty): writes (gcn) or bundles (evergreen) */
static uint64_t wg_cost(const struct model *m)
{
    const struct model *save = km;
    km = m;
    wg_shape(m);
    uint64_t n = 0;
    struct wave w;
    memset(&w, 0, sizeof w);
    for (w.wiw = 0; w.wiw < k_wg_waves; w.wiw++) {
        w.nlanes = k_wg_items - w.wiw * L < L ? k_wg_items - w.wiw * L : L;
        n += m->vliw ? 0 : 3;   /* v0..v2 */
        for (int sec = 0; sec < NSEC; sec++) {
            unsigned iters = sec == SEC_BODY ? m->iters : 1;
            for (uint32_t k = 0; k < iters; k++)
                for (unsigned i = 0; i < m->nsec[sec]; i++) {
                    const struct insn *in = &m->sec[sec][i];
                    int counts = m->vliw ? in->op == OP_ALU || in->op == OP_BUNDLE
                                         : in->op != OP_STORE;
                    if (counts && mask_count(in, &w, sec == SEC_BODY ? k : 0) != 0)
                        n++;
                }
        }
    }
    km = save;
    return n;
}

static uint64_t run_kernel(const struct model *m, uint32_t index, uint64_t nwg, uint64_t t)
{
    km = m;
    kidx = index;
    k_nwg = nwg;
    k_next_wg = 0;
    k_alive = 0;
    wg_shape(m);
    k_maxwaves = ENTRIES / m->nregs;
    if (k_maxwaves > MAX_WAVES)
        k_maxwaves = MAX_WAVES;
    room_changed = 1;
    disp_rr = 0;
    for (unsigned i = 0; i < nslices; i++) {
        slices[i].rr = 0;
        slices[i].min_ready = UINT64_MAX;
    }
    rft_kernel kr = {.cycle = t, .index = index, .name = m->name, .name_len = (uint16_t)strlen(m->name)};
    ck(rft_write_kernel(out, &kr));
    /* issue model: SIMD s of every CU issues at cycles t with t % 4 == s % 4 */
    while (k_next_wg < k_nwg || k_alive) {
        uint64_t next = UINT64_MAX;
        int work = 0;
        for (unsigned ph = 0; ph < 4; ph++) {
            work |= dispatch(t + ph);
            for (unsigned c = 0; c < ncu; c++)
                for (unsigned si = ph; si < nsimd; si += 4)
                    work |= slot(&slices[c * nsimd + si], t + ph, &next);
        }
        t += 4;
        if (!work && next != UINT64_MAX && next > t)
            t = next & ~(uint64_t)3; /* everything waits on memory: skip ahead */
    }
    return t;
}

/* ---- main ------------------------------------------------------------------------- */
static struct model *mset = models;    /* the models of --arch */
static size_t nmset = NMODELS;

static const struct model *find_model(const char *name, size_t len)
{
    for (size_t i = 0; i < nmset; i++)
        if (strlen(mset[i].name) == len && strncmp(mset[i].name, name, len) == 0)
            return &mset[i];
    return NULL;
}

/* --kernels LIST (NULL: every model) into ks; returns how many */
static unsigned parse_kernels(const char *list, const struct model **ks)
{
    unsigned nk = 0;
    if (!list) {
        for (size_t i = 0; i < nmset; i++)
            ks[nk++] = &mset[i];
        return nk;
    }
    for (const char *p = list;; p++) {
        size_t len = strcspn(p, ",");
        if (!len)
            usage_error("--kernels: empty name in '%s'", list);
        const struct model *m = find_model(p, len);
        if (!m)
            usage_error("--kernels: unknown model '%.*s' (see --list)", (int)len, p);
        if (nk == MAX_KERNELS)
            usage_error("--kernels: more than %d kernels", MAX_KERNELS);
        ks[nk++] = m;
        p += len;
        if (!*p)
            return nk;
    }
}

/* Expected slots per bundle when slot s is taken with probability
 * share_s * S, empty draws drawn again. */
static double vliw_slots(const struct vliw *v, double S)
{
    double none = 1;
    for (int i = 0; i < RFT_NSLOTS; i++)
        none *= 1 - v->share[i] / 100 * S;
    return S / (1 - none);
}

/* p[] of a VLIW model from its shares and packing (bisection on S; the
 * expected slots grow with S, from 1 near S = 0 to S at p_max = 1) */
static void vliw_solve(const struct model *m)
{
    struct vliw *v = m->vliw;
    double smax = 0, lo = 1e-9, hi, want = RFT_NSLOTS * v->packing, sum = 0;
    for (int i = 0; i < RFT_NSLOTS; i++) {
        smax = v->share[i] > smax ? v->share[i] : smax;
        sum += v->share[i];
    }
    hi = 100 / smax;
    if (sum < 99.999 || sum > 100.001 || want <= 1 || vliw_slots(v, hi) < want)
        die("internal error: model %s: shares or packing out of reach", m->name);
    for (int it = 0; it < 100; it++) {
        double mid = (lo + hi) / 2;
        if (vliw_slots(v, mid) < want)
            lo = mid;
        else
            hi = mid;
    }
    for (int i = 0; i < RFT_NSLOTS; i++)
        v->p[i] = v->share[i] / 100 * lo;
}

int main(int argc, char **argv)
{
    cli_init(argc, argv, usage);
    enum { O_CUS = 256, O_SIMDS, O_LANES, O_LIST, O_ARCH, O_BUNDLES, O_WG };
    static const struct option longopts[] = {
        {"kernels", required_argument, NULL, 'k'},
        {"writes", required_argument, NULL, 'n'},
        {"bundles", required_argument, NULL, O_BUNDLES},
        {"arch", required_argument, NULL, O_ARCH},
        {"wg-size", required_argument, NULL, O_WG},
        {"cus", required_argument, NULL, O_CUS},
        {"simds", required_argument, NULL, O_SIMDS},
        {"lanes", required_argument, NULL, O_LANES},
        {"seed", required_argument, NULL, 's'},
        {"level", required_argument, NULL, 'l'},
        {"output", required_argument, NULL, 'o'},
        {"list", no_argument, NULL, O_LIST},
        {"help", no_argument, NULL, 'h'},
        {"version", no_argument, NULL, 'V'},
        {NULL, 0, NULL, 0},
    };
    const char *klist = NULL, *path = "-";
    uint64_t seed = 1;
    int level = RFT_DEFAULT_LEVEL, list = 0, evg = 0, writes_set = 0, bundles_set = 0;
    int cus_set = 0, simds_set = 0, lanes_set = 0;
    target = 100000;
    ncu = 2;
    nsimd = 4;
    L = 64;
    int c;
    opterr = 0; /* one message, ours */
    while ((c = getopt_long(argc, argv, ":k:n:s:l:o:hV", longopts, NULL)) != -1) {
        switch (c) {
        case 'k': klist = optarg; break;
        case 'n':
            target = cli_uint("--writes", optarg, 1, 10000000000ull);
            writes_set = 1;
            break;
        case O_BUNDLES:
            target = cli_uint("--bundles", optarg, 1, 10000000000ull);
            bundles_set = 1;
            break;
        case O_ARCH: evg = cli_choice("--arch", optarg, "gcn|evergreen"); break;
        case O_WG: opt_wg_items = (unsigned)cli_uint("--wg-size", optarg, 1, MAX_WAVES * 64); break;
        case O_CUS: ncu = (unsigned)cli_uint("--cus", optarg, 1, 64); cus_set = 1; break;
        case O_SIMDS: nsimd = (unsigned)cli_uint("--simds", optarg, 1, 16); simds_set = 1; break;
        case O_LANES:
            L = (unsigned)cli_uint("--lanes", optarg, 8, RFT_MAX_LANES);
            lanes_set = 1;
            break;
        case 's': seed = cli_uint("--seed", optarg, 0, UINT64_MAX); break;
        case 'l': level = cli_level(optarg); break;
        case 'o': path = optarg; break;
        case O_LIST: list = 1; break;
        case ':': usage_error("option '%s' needs a value", argv[optind - 1]);
        default:
            if (optopt)
                usage_error("unknown option '-%c'", optopt);
            usage_error("unknown option '%s'", argv[optind - 1]);
        }
    }
    if (optind < argc)
        usage_error("unexpected argument '%s'", argv[optind]);
    if (L % 8)
        usage_error("--lanes: %u is not a multiple of 8", L);
    if (evg) {
        /* an HD 5870: 20 CUs of one SIMD engine (16 stream cores), 64-wide wavefronts */
        if (simds_set)
            usage_error("--simds: an Evergreen compute unit is one SIMD engine");
        if (lanes_set)
            usage_error("--lanes: Evergreen wavefronts are 64 work-items wide");
        if (writes_set)
            usage_error("--writes applies to --arch gcn; --bundles sizes an evergreen run");
        nsimd = 1;
        ncu = cus_set ? ncu : 20;
        mset = vliw_models;
        nmset = NVLIW;
        unit = "bundles";
    } else if (bundles_set) {
        usage_error("--bundles applies to --arch evergreen; --writes sizes a gcn run");
    }

    for (size_t i = 0; i < nmset; i++) {
        bm = &mset[i];
        bm->build();
        if (bm->vliw)
            vliw_solve(bm);
    }
    if (list) {
        for (size_t i = 0; i < nmset; i++) {
            const struct model *m = &mset[i];
            printf("%-13s %2u VGPRs  ", m->name, m->nregs);
            if (m->vliw) {
                const struct vliw *v = m->vliw;
                printf("%3u WIs/WG  X %4.1f Y %4.1f Z %4.1f W %4.1f T %4.1f  packing %.2f  ",
                       m->wg_items, v->share[0], v->share[1], v->share[2], v->share[3],
                       v->share[4], v->packing);
            }
            printf("%s\n", m->desc);
        }
        return cli_close_stdout();
    }

    const struct model *ks[MAX_KERNELS];
    unsigned nk = parse_kernels(klist, ks);
    for (unsigned i = 0; i < nk; i++) {
        unsigned fit = ENTRIES / ks[i]->nregs < MAX_WAVES ? ENTRIES / ks[i]->nregs : MAX_WAVES;
        wg_shape(ks[i]);
        if (k_wg_waves > fit)
            usage_error("--wg-size: %u work-items are %u wavefronts, more than the %u of model "
                        "%s that fit a slice", k_wg_items, k_wg_waves, fit, ks[i]->name);
    }

    rft_header h;
    rft_header_init(&h, "rft-synth");
    h.geom.lanes = L;
    h.geom.block_lanes = L % 16 ? 8 : 16;
    const char *why;
    if (rft_geom_check(&h.geom, &why))
        usage_error("--lanes: %s", why);
    char names[MAX_KERNELS * 16] = "";
    for (unsigned i = 0; i < nk; i++) {
        if (i)
            strcat(names, ",");
        strcat(names, ks[i]->name);
    }
    char seeds[24], size[24], cus[8], simds[8], wgs[16];
    snprintf(seeds, sizeof seeds, "%llu", (unsigned long long)seed);
    snprintf(size, sizeof size, "%llu", (unsigned long long)target);
    snprintf(cus, sizeof cus, "%u", ncu);
    snprintf(simds, sizeof simds, "%u", nsimd);
    snprintf(wgs, sizeof wgs, "%u", opt_wg_items);
    if (rft_header_set(&h, "source", "rft-synth") || rft_header_set(&h, "seed", seeds) ||
        (evg && rft_header_set(&h, "arch", "evergreen")) ||
        rft_header_set(&h, "kernels", names) || rft_header_set(&h, unit, size) ||
        rft_header_set(&h, "cus", cus) || rft_header_set(&h, "simds", simds) ||
        (opt_wg_items && rft_header_set(&h, "wg_size", wgs)) ||
        rft_header_set(&h, "issue", evg ? "one ALU group (bundle) or fetch per CU every 4 cycles, "
                                          "round robin; an ALU clause waits for its fetches"
                                        : "one vector instruction per SIMD every 4 cycles, round robin"))
        die("out of memory");

    /* work-groups per kernel: the remaining budget shared among the
     * remaining kernels, at least one work-group each */
    uint64_t nwg[MAX_KERNELS], left = target, expect = 0;
    for (unsigned i = 0; i < nk; i++) {
        uint64_t per = wg_cost(ks[i]), share = left / (nk - i);
        if (per == 0)
            per = 1;    /* a work-group that does nothing countable */
        nwg[i] = (share + per / 2) / per;
        if (nwg[i] == 0)
            nwg[i] = 1;
        if (nwg[i] > UINT32_MAX - 1)
            nwg[i] = UINT32_MAX - 1;
        left -= nwg[i] * per < left ? nwg[i] * per : left;
        expect += nwg[i] * per;
    }
    target = expect;

    nslices = ncu * nsimd;
    slices = calloc(nslices, sizeof *slices);
    if (!slices)
        die("out of memory");
    for (unsigned cu = 0; cu < ncu; cu++)
        for (unsigned s = 0; s < nsimd; s++) {
            struct slice *sl = &slices[cu * nsimd + s];
            sl->cu = (uint16_t)cu;
            sl->simd = (uint16_t)s;
            if (!(sl->regs = calloc((size_t)ENTRIES * L, sizeof *sl->regs)))
                die("out of memory");
        }

    W.phys = RFT_NO_PHYS;
    W.on_bits = RFT_NO_GATE;
    MB = (L + 7) / 8;
    rng_state = splitmix64(&seed);
    if (!rng_state)
        rng_state = 1;

    outname = strcmp(path, "-") == 0 ? "standard output" : path;
    char err[512];
    rft_writer_opts wo = {.level = level};
    if (!(out = rft_writer_open(path, &h, &wo, err, sizeof err)))
        die("%s: %s", outname, err);
    rft_header_free(&h);

    progress = isatty(STDERR_FILENO);
    clock_gettime(CLOCK_MONOTONIC, &last_tick);
    uint64_t t = 0;
    for (unsigned i = 0; i < nk; i++)
        t = run_kernel(ks[i], i, nwg[i], t);
    if (shown)
        fprintf(stderr, "\r%s: %llu %s       \n", prog, (unsigned long long)ndone, unit);
    int rc = rft_writer_close(out, 1, err, sizeof err);
    if (rc) {
        cli_epipe(rc);
        die("%s: %s", outname, err);
    }
    for (unsigned i = 0; i < nslices; i++)
        free(slices[i].regs);
    free(slices);
    return 0;
}
