/* synth.c - seeded synthetic register-write workloads (synth.h): the kernel
 * models (GCN, and Evergreen VLIW with the slot skew of seed 003 Fig. 4) and
 * the issue model that runs them, record after record into a sink. */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "synth.h"

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
 * per bundle sum(p) / P(not empty); p is solved from share[] and packing
 * (struct prog). */
struct vliw {
    double share[RFT_NSLOTS];   /* % of the ALU instructions per slot */
    double packing;             /* filled slots / 5, on average */
    double trans;               /* share of T instructions that are transcendental */
    double vector;              /* share of bundles with X..W all taken that are one vector op */
};

/* A model's program as a generator builds it, and its slot probabilities. */
struct prog {
    const struct insn *sec[NSEC];
    unsigned nsec[NSEC];
    double p[RFT_NSLOTS];
};

#define POOL 4096
typedef struct builder {
    struct insn *pool;      /* POOL instructions */
    unsigned npool;
    struct prog *pr;        /* the program being built */
    int sec;                /* its current section */
    int full;               /* the pool overflowed */
} builder;

struct model {
    const char *name;
    const char *desc;
    unsigned nregs;     /* VGPRs per work-item: the window size */
    unsigned wg_waves;  /* wavefronts per work-group */
    unsigned iters;     /* loop iterations of the body */
    int xy;             /* 2-D work-group, 8 work-items wide: v0 = x, v1 = y */
    void (*build)(builder *b);
    const struct vliw *vliw;  /* Evergreen models only */
    unsigned wg_items;  /* work-items per work-group, 0: wg_waves full wavefronts */
};

static void section(builder *b, int s)
{
    b->sec = s;
    b->pr->sec[s] = b->pool + b->npool;
    b->pr->nsec[s] = 0;
}

static void put(builder *b, struct insn in)
{
    if (b->npool == POOL) {
        b->full = 1;
        return;
    }
    b->pool[b->npool++] = in;
    b->pr->nsec[b->sec]++;
}

/* The models below write their programs with these, into builder bld. */
#define V(r) ((uint8_t)((r) + 1))
#define SRC(...) .s = {__VA_ARGS__}
#define P(...) .p = {__VA_ARGS__}
#define EX(e, x) .exec = (e), .xp = (x)
#define ALU(d, g, ...) put(bld, (struct insn){.op = OP_ALU, .dst = (d), .gen = (g), __VA_ARGS__})
#define LOAD(d, g, ...) put(bld, (struct insn){.op = OP_LOAD, .dst = (d), .gen = (g), __VA_ARGS__})
#define LDS(d, g, ...) put(bld, (struct insn){.op = OP_LDS, .dst = (d), .gen = (g), __VA_ARGS__})
#define STORE(...) put(bld, (struct insn){.op = OP_STORE, __VA_ARGS__})
#define BUNDLES(n, ...)                                                                   \
    for (int b_ = 0; b_ < (n); b_++)                                                      \
    put(bld, (struct insn){.op = OP_BUNDLE, __VA_ARGS__})

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
static void build_vecadd(builder *bld)
{
    section(bld, SEC_PRO);
    ALU(3, G_GID, SRC(V(0)), P(0, 1));           /* global id */
    ALU(4, G_GID, SRC(V(3)), P(0, 4));           /* byte offset */
    section(bld, SEC_BODY);
    ALU(5, G_GID, SRC(V(4)), P(BUF_A, 4, STRIDE)); /* &a[i] */
    ALU(6, G_GID, SRC(V(4)), P(BUF_B, 4, STRIDE)); /* &b[i] */
    LOAD(5, G_FLOAT, SRC(V(5)), P(E_SMALL, 12, 1));
    LOAD(6, G_FLOAT, SRC(V(6)), P(E_SMALL, 12, 1));
    ALU(7, G_FLOAT, SRC(V(5), V(6)), P(E_SMALL, 13, 1));
    ALU(5, G_GID, SRC(V(4)), P(BUF_C, 4, STRIDE)); /* &c[i] */
    STORE(SRC(V(5), V(7)));
    section(bld, SEC_EPI);
}

/* each work-item of an 8x8 group computes a 4x4 block of C = A B:
 * float4 loads of A rows and B columns, 64 multiply-adds per step */
static void build_matmul(builder *bld)
{
    const uint32_t row = 4 * MAT_N;
    section(bld, SEC_PRO);
    ALU(3, G_XY, SRC(V(0)), P(0, 1, 0, GRID_W));          /* gx: De=1, Db=0 */
    ALU(4, G_XY, SRC(V(1)), P(0, 0, 1, GRID_W));          /* gy: De=0, Db=1 */
    ALU(5, G_XY, SRC(V(3)), P(0, 16, 0, GRID_W));         /* gx * 16 */
    ALU(6, G_XY, SRC(V(4)), P(0, 0, 4 * row, GRID_W));    /* 4 gy * row */
    ALU(7, G_XY, SRC(V(0), V(1)), P(0, 4, 64, 0));        /* 16x16 LDS tile: De=4, Db=64 */
    for (int r = 0; r < 16; r++)
        ALU(8 + r, G_CONST, P(0));                        /* acc = 0.0f */
    section(bld, SEC_BODY);
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
    section(bld, SEC_EPI);
    for (int r = 0; r < 4; r++) {
        ALU(60 + r, G_XY, SRC(V(5), V(6)), P(BUF_C + r * row, 16, 4 * row, GRID_W)); /* &C[4gy+r][4gx] */
        STORE(SRC(V(60 + r), V(8 + 4 * r), V(9 + 4 * r)));
    }
}

/* sum of a vector of small integers: 4 per work-item, then an interleaved
 * tree in LDS: at step k the work-items with lid % 2^(k+1) == 0 add their
 * partner (divergent writes in every wavefront) */
static void build_reduction(builder *bld)
{
    section(bld, SEC_PRO);
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
    section(bld, SEC_BODY);
    ALU(11, G_CONST, P(0, 0, 1));                         /* s = 1 << k */
    ALU(3, G_LID, SRC(V(2), V(11)), P(0, 4, 0, 0, 4), EX(X_STRIDE, 2)); /* &sdata[lid + s] */
    LDS(4, G_SMALL, SRC(V(3)), P(0, 42, 1), EX(X_STRIDE, 2));
    ALU(1, G_SMALL, SRC(V(1), V(4)), P(0, 84, 1), EX(X_STRIDE, 2));
    STORE(SRC(V(2), V(1)), EX(X_STRIDE, 2));
    section(bld, SEC_EPI);
    ALU(12, G_CONST, P(BUF_C), EX(X_LT, 1));              /* &out[group]: lane 0 only */
    STORE(SRC(V(12), V(1)), EX(X_LT, 1));
}

/* out = in^T through an 8x8 LDS block; 4 VGPRs, mostly ids and addresses */
static void build_transpose(builder *bld)
{
    const uint32_t row = 4 * MAT_N;
    section(bld, SEC_PRO);
    ALU(2, G_CONST, P(8));                                /* block width */
    ALU(3, G_CONST, P(MAT_N));                            /* matrix width */
    ALU(2, G_XY, SRC(V(0), V(2)), P(0, 1, 0, GRID_W));    /* gx */
    ALU(3, G_XY, SRC(V(1), V(3)), P(0, 0, 1, GRID_W));    /* gy */
    section(bld, SEC_BODY);
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
    section(bld, SEC_EPI);
}

/* option pricing: a long straight-line float computation per option over
 * v7..v61, a few uniform constants, addresses only at the ends */
static void build_blackscholes(builder *bld)
{
    section(bld, SEC_PRO);
    ALU(3, G_GID, SRC(V(0)), P(0, 1));
    ALU(4, G_GID, SRC(V(3)), P(0, 4));
    section(bld, SEC_BODY);
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
    section(bld, SEC_EPI);
}

/* 256-bin byte histogram in LDS: random data words, random bins, LDS
 * atomics whose retries leave partial exec masks, then a half-wavefront merge */
static void build_histogram(builder *bld)
{
    section(bld, SEC_PRO);
    ALU(3, G_GID, SRC(V(0)), P(0, 1));
    ALU(4, G_LID, SRC(V(0)), P(0, 4));                    /* LDS &bin[lid] */
    ALU(5, G_CONST, P(0));
    STORE(SRC(V(4), V(5)));                               /* clear the bins */
    section(bld, SEC_BODY);
    ALU(6, G_GID, SRC(V(3)), P(BUF_A, 4, STRIDE));        /* &data[i] */
    LOAD(7, G_RAND, SRC(V(6)));
    for (int b = 0; b < 4; b++)
        ALU(8 + b, G_SMALL, SRC(V(7)), P(0, 256));        /* byte b: the bin */
    for (int b = 0; b < 4; b++)
        ALU(12 + b, G_SMALL, SRC(V(8 + b)), P(0, 256, 0, 4)); /* LDS &bin[byte] */
    for (int b = 0; b < 4; b++)
        LDS(16 + b, G_SMALL, SRC(V(12 + b)), P(0, 8, 1), EX(X_RAND, 3)); /* atomic inc, retries */
    ALU(20, G_CONST, P(1, 1));                            /* loop counter */
    section(bld, SEC_EPI);
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
static const struct vliw v_reduction = {{50.7, 16.3, 9.0, 13.0, 11.0}, 0.26, 0.10, 0.0};
static const struct vliw v_sobel = {{41.5, 19.0, 15.5, 13.0, 11.0}, 0.36, 0.20, 0.5};
static const struct vliw v_blackscholes = {{42.0, 16.0, 13.0, 11.0, 18.0}, 0.40, 0.60, 0.0};
static const struct vliw v_binomial = {{44.0, 18.0, 12.0, 14.0, 12.0}, 0.28, 0.40, 0.0};
static const struct vliw v_fwt = {{47.0, 20.0, 10.0, 12.0, 11.0}, 0.24, 0.10, 0.0};
static const struct vliw v_quasirandom = {{45.0, 17.0, 11.0, 14.0, 13.0}, 0.26, 0.30, 0.0};

#define ALL EX(X_FULL, 0)

/* sum reduction: 4 loads per work-item, then an interleaved tree in LDS
 * (local id % 2^(k+1) == 0 active), the group's sum by lane 0 */
static void build_vliw_reduction(builder *bld)
{
    section(bld, SEC_PRO);
    ALU(4, G_GID, P(0, 1), ALL);                          /* R1.x global id */
    LOAD(5, G_SMALL, P(0, 6), ALL);
    BUNDLES(6, ALL);
    ALU(6, G_SMALL, P(0, 24), ALL);                       /* R1.z partial sum */
    STORE(ALL);
    section(bld, SEC_BODY);
    BUNDLES(3, EX(X_STRIDE, 2));
    LDS(7, G_SMALL, P(0, 42, 1), EX(X_STRIDE, 2));
    BUNDLES(2, EX(X_STRIDE, 2));
    ALU(6, G_SMALL, P(0, 84, 1), EX(X_STRIDE, 2));
    STORE(EX(X_STRIDE, 2));
    section(bld, SEC_EPI);
    BUNDLES(2, EX(X_LT, 1));
    ALU(8, G_CONST, P(BUF_C), EX(X_LT, 1));
    STORE(EX(X_LT, 1));
}

/* 3x3 Sobel filter: 9 pixel fetches per step, a long clause of products */
static void build_vliw_sobel(builder *bld)
{
    section(bld, SEC_PRO);
    ALU(4, G_GID, P(0, 1), ALL);
    ALU(5, G_GID, P(BUF_A, 4), ALL);
    section(bld, SEC_BODY);
    for (int i = 0; i < 3; i++)
        LOAD(8 + i, G_FLOAT, P(E_ONE, 8, 0), ALL);
    BUNDLES(10, ALL);
    ALU(12, G_FLOAT, P(E_ONE, 8, 0), ALL);
    STORE(ALL);
    section(bld, SEC_EPI);
}

/* option pricing: straight-line float code, many exp, log and sqrt on T */
static void build_vliw_blackscholes(builder *bld)
{
    section(bld, SEC_PRO);
    ALU(4, G_GID, P(0, 1), ALL);
    LOAD(5, G_FLOAT, P(E_SMALL, 7, 0), ALL);
    section(bld, SEC_BODY);
    BUNDLES(24, ALL);
    ALU(6, G_FLOAT, P(E_SMALL, 14, 1), ALL);
    ALU(7, G_FLOAT, P(E_SMALL, 14, 1), ALL);
    STORE(ALL);
    section(bld, SEC_EPI);
}

/* binomial option tree: 127 work-items, half as many active at each step */
static void build_vliw_binomial(builder *bld)
{
    section(bld, SEC_PRO);
    ALU(4, G_LID, P(0, 1), ALL);
    LOAD(5, G_FLOAT, P(E_ONE, 8, 0), ALL);
    section(bld, SEC_BODY);
    BUNDLES(6, EX(X_LT, 127));
    ALU(6, G_FLOAT, P(E_ONE, 8, 0), EX(X_LT, 127));
    STORE(EX(X_LT, 127));
    section(bld, SEC_EPI);
    ALU(7, G_FLOAT, P(E_ONE, 8, 0), EX(X_LT, 1));
    STORE(EX(X_LT, 1));
}

/* fast Walsh transform: butterflies of two fetched values per step */
static void build_vliw_fwt(builder *bld)
{
    section(bld, SEC_PRO);
    ALU(4, G_GID, P(0, 1), ALL);
    section(bld, SEC_BODY);
    LOAD(5, G_FLOAT, P(E_SMALL, 12, 1), ALL);
    LOAD(6, G_FLOAT, P(E_SMALL, 12, 1), ALL);
    BUNDLES(4, ALL);
    ALU(5, G_FLOAT, P(E_SMALL, 13, 1), ALL);
    ALU(6, G_FLOAT, P(E_SMALL, 13, 1), ALL);
    STORE(ALL);
    STORE(ALL);
    section(bld, SEC_EPI);
}

/* Sobol-like sequence: bit manipulation per dimension, 128 work-items */
static void build_vliw_quasirandom(builder *bld)
{
    section(bld, SEC_PRO);
    ALU(4, G_GID, P(0, 1), ALL);
    section(bld, SEC_BODY);
    BUNDLES(5, ALL);
    ALU(5, G_RAND, P(0), ALL);
    STORE(ALL);
    section(bld, SEC_EPI);
}

static const struct model models[] = {
    {"vecadd", "vector add: ids, single-delta addresses, float data", 8, 4, 4, 0, build_vecadd, NULL, 0},
    {"matmul", "4x4-blocked matrix multiply: 2-D ids, double-delta tiles, float loads and sums",
     69, 1, 8, 1, build_matmul, NULL, 0},
    {"reduction", "sum reduction: small ints, interleaved LDS tree with sparse exec masks", 13, 4, 8, 0,
     build_reduction, NULL, 0},
    {"transpose", "matrix transpose through LDS: 2-D ids and addresses, few floats", 4, 4, 2, 1,
     build_transpose, NULL, 0},
    {"blackscholes", "Black-Scholes pricing: long float chains, uniform constants", 62, 2, 4, 0,
     build_blackscholes, NULL, 0},
    {"histogram", "byte histogram: random words, random bins, divergent LDS atomics", 26, 4, 8, 0,
     build_histogram, NULL, 0},
};
#define NMODELS (sizeof models / sizeof *models)

/* seed 003 Table I: work-items per work-group of each kernel */
static const struct model vliw_models[] = {
    {"reduction", "Reduction: LDS tree, sparse exec masks, X 50.7 % and Z 9 % (seed 003)", 12, 0, 8,
     0, build_vliw_reduction, &v_reduction, 256},
    {"sobel", "SobelFilter: 3x3 stencil, pixel fetches, long dot-product clauses", 16, 0, 4, 0,
     build_vliw_sobel, &v_sobel, 256},
    {"blackscholes", "BlackScholes: straight-line float code, exp/log/sqrt on T", 12, 0, 4, 0,
     build_vliw_blackscholes, &v_blackscholes, 256},
    {"binomial", "BinomialOptions: 127 work-items, half as many active each step", 12, 0, 8, 0,
     build_vliw_binomial, &v_binomial, 127},
    {"fwt", "FastWalshTransform: butterflies of fetched pairs", 8, 0, 8, 0, build_vliw_fwt,
     &v_fwt, 256},
    {"quasirandom", "QuasiRandomSequence: integer bit twiddling, 128 work-items", 8, 0, 8, 0,
     build_vliw_quasirandom, &v_quasirandom, 128},
};
#define NVLIW (sizeof vliw_models / sizeof *vliw_models)


#define NMAX (NMODELS > NVLIW ? NMODELS : NVLIW)

static const struct model *model_set(int arch, unsigned *n)
{
    *n = arch == RFT_SYNTH_EVERGREEN ? NVLIW : NMODELS;
    return arch == RFT_SYNTH_EVERGREEN ? vliw_models : models;
}

unsigned rft_synth_nmodels(int arch)
{
    unsigned n;
    model_set(arch, &n);
    return n;
}

void rft_synth_model_info(int arch, unsigned i, rft_synth_model *info)
{
    unsigned n;
    const struct model *m = &model_set(arch, &n)[i];
    *info = (rft_synth_model){m->name, m->desc, m->nregs, m->wg_items,
                              m->vliw ? m->vliw->share : NULL, m->vliw ? m->vliw->packing : 0};
}

void rft_synth_opts_default(rft_synth_opts *o, int arch)
{
    /* Evergreen: an HD 5870, 20 CUs of one SIMD engine (16 stream cores) */
    int evg = arch == RFT_SYNTH_EVERGREEN;
    *o = (rft_synth_opts){.arch = arch, .size = 100000, .cus = evg ? 20 : 2, .simds = evg ? 1 : 4,
                          .lanes = 64, .seed = 1};
}

/* ---- machine state ------------------------------------------------------------ */
#define MAX_WAVES RFT_SYNTH_MAX_WAVES
#define MAX_PEND 8       /* outstanding loads per wavefront */
#define MAX_KERNELS RFT_SYNTH_MAX_KERNELS
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

struct rft_synth {
    rft_synth_opts o;
    char *why;              /* the options' fault, else NULL */
    const struct model *mset;   /* the models of o.arch */
    unsigned nmset;
    struct prog prog[NMAX];     /* their programs */
    struct insn pool[POOL];
    unsigned nk;                /* the kernels of the run: */
    unsigned ks[MAX_KERNELS];   /* model of each */
    uint64_t nwg[MAX_KERNELS];  /* work-groups of each */
    char *names;                /* their names, "a,b,a" */
    uint64_t size;              /* writes (gcn) or bundles (evergreen) */
    rft_geom geom;
    unsigned L, MB;             /* lanes, mask bytes */
    unsigned entries;           /* per slice */
    unsigned ncu, nsimd, nslices;
    struct slice *slices;
    uint64_t rng;               /* xorshift64* */
    rft_rec *rec;               /* every record is made here */
    uint8_t mask[RFT_MAX_LANES / 8];    /* exec mask of the instruction at hand */
    const rft_sink *out;
    int err;                    /* of out: nothing goes to out after it */
    int ran;
    /* the kernel running */
    const struct model *km;
    const struct prog *kp;
    uint32_t kidx;
    unsigned k_wg_items, k_wg_waves;    /* work-items and wavefronts per work-group */
    uint64_t k_nwg, k_next_wg;
    unsigned k_maxwaves;        /* wavefronts per slice */
    unsigned k_alive;
    unsigned disp_rr;
    int room_changed;
    uint32_t next_wf;
};

/* ---- PRNG: xorshift64*, seeded through splitmix64 -------------------------- */
static uint64_t splitmix64(uint64_t *x)
{
    uint64_t z = (*x += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
}

static inline uint64_t rnd(rft_synth *sy)
{
    uint64_t x = sy->rng;
    x ^= x >> 12;
    x ^= x << 25;
    x ^= x >> 27;
    sy->rng = x;
    return x * 0x2545F4914F6CDD1Dull;
}

/* a wavefront's window: the model's registers a work-item, rounded up to
 * the allocation unit (NVIDIA: 8 a thread, 256 a warp; rft(5)) */
static unsigned window(const rft_synth *sy, const struct model *m)
{
    unsigned g = sy->o.reg_gran > 1 ? sy->o.reg_gran : 1;
    return (m->nregs + g - 1) / g * g;
}

/* uniform in [0, n) for n < 2^32 */
static inline uint32_t rnd_below(uint64_t r, uint32_t n) { return (uint32_t)(((r >> 32) * n) >> 32); }

/* ---- exec masks ------------------------------------------------------------- */
/* active lanes of a deterministic mask; -1 for a random one */
static int mask_count(unsigned L, const struct insn *in, const struct wave *w, uint32_t k)
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

/* fill sy->mask; returns the active lane count (random masks: any positive) */
static unsigned make_mask(rft_synth *sy, const struct insn *in, const struct wave *w, uint32_t k)
{
    unsigned L = sy->L, MB = sy->MB;
    uint8_t *mask = sy->mask;
    int n = mask_count(L, in, w, k);
    if (in->exec == X_STRIDE) {
        uint64_t step = (uint64_t)in->xp << (k < 32 ? k : 32), lo = (uint64_t)w->wiw * L;
        memset(mask, 0, MB);
        for (uint64_t i = (step - lo % step) % step; i < w->nlanes; i += step)
            mask[i >> 3] |= (uint8_t)(1u << (i & 7));
        return (unsigned)n;
    }
    if (n >= 0) {
        memset(mask, 0, MB);
        memset(mask, 0xff, (unsigned)n / 8);
        if (n % 8)
            mask[n / 8] = (uint8_t)((1u << (n % 8)) - 1);
        return (unsigned)n;
    }
    unsigned cnt = 0;
    for (unsigned i = 0; i < MB; i += 8) {
        uint64_t r = rnd(sy);
        if (in->xp == 2)
            r &= rnd(sy);
        else if (in->xp == 3)
            r |= rnd(sy);
        for (unsigned b = 0; b < 8 && i + b < MB; b++)
            mask[i + b] = (uint8_t)(r >> (8 * b));
    }
    for (unsigned i = w->nlanes; i < L; i++)    /* no work-item there */
        mask[i >> 3] &= (uint8_t)~(1u << (i & 7));
    for (unsigned i = 0; i < MB; i++)
        cnt += (unsigned)__builtin_popcount(mask[i]);
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
                if ((mask[i >> 3] >> (i & 7)) & 1) { stmt; }                          \
        }                                                                             \
    } while (0)

static void gen_values(rft_synth *sy, const struct insn *in, const struct wave *w, uint32_t k,
                       uint32_t *r, int full)
{
    const uint32_t *p = in->p;
    const uint8_t *mask = sy->mask;
    unsigned L = sy->L;
    uint32_t lid0 = w->wiw * L;
    uint32_t gid0 = (uint32_t)((uint64_t)w->wg * sy->k_wg_items) + lid0;
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
            gy = (w->wg / p[3]) * (sy->k_wg_items / 8);
        }
        uint32_t b = p[0] + k * p[4] + gx * p[1] + gy * p[2];
        FOR_ACTIVE(uint32_t lid = lid0 + i; r[i] = b + (lid % 8) * p[1] + (lid / 8) * p[2]);
        break;
    }
    case G_FLOAT: {
        uint32_t sign = p[2] ? 0x80000000u : 0;
        FOR_ACTIVE(uint64_t x = rnd(sy);
                   r[i] = ((uint32_t)(x >> 8) & sign) | (p[0] + rnd_below(x, p[1])) << 23 |
                          ((uint32_t)x & 0x7fffffu));
        break;
    }
    case G_SMALL: {
        uint32_t n = p[1] << (p[2] ? (k < 16 ? k : 16) : 0), scale = p[3] ? p[3] : 1;
        FOR_ACTIVE(r[i] = p[0] + scale * rnd_below(rnd(sy), n));
        break;
    }
    case G_RAND:
        FOR_ACTIVE(r[i] = (uint32_t)(rnd(sy) >> 32));
        break;
    }
}

/* ---- records ------------------------------------------------------------------ */
/* sy->rec, of kind, to the sink (until the sink fails) */
static void emit(rft_synth *sy, int kind)
{
    rft_rec *rec = sy->rec;
    rec->kind = kind;
    rec->raw = NULL;
    rec->len = 0;
    if (!sy->err)
        sy->err = sy->out->put(sy->out->ctx, rec);
}

/* a write under the exec mask in sy->mask, of n lanes */
static void put_write_masked(rft_synth *sy, struct slice *s, struct wave *w, const struct insn *in,
                             uint32_t k, uint64_t t, unsigned n)
{
    if (n == 0)
        return; /* an empty exec mask writes nothing */
    uint32_t *r = w->regs + (size_t)in->dst * sy->L;
    gen_values(sy, in, w, k, r, n == sy->L);
    rft_write *x = &sy->rec->w;     /* every field: the sink may have changed any */
    x->cycle = t;
    x->cu = s->cu;
    x->simd = s->simd;
    x->wf = w->id;
    x->vreg = in->dst;
    x->phys = RFT_NO_PHYS;
    x->cls = x->bs = x->wc = x->flags = 0;
    x->c0 = x->de = x->db = 0;
    x->on_bits = RFT_NO_GATE;
    memcpy(x->mask, sy->mask, sy->MB);
    memcpy(x->val, r, (size_t)sy->L * 4);
    emit(sy, RFT_WRITE);
}

static void put_write(rft_synth *sy, struct slice *s, struct wave *w, const struct insn *in,
                      uint32_t k, uint64_t t)
{
    put_write_masked(sy, s, w, in, k, t, make_mask(sy, in, w, k));
}

/* draw < probability p, from 53 random bits */
static int chance(rft_synth *sy, double p) { return (double)(rnd(sy) >> 11) < p * 9007199254740992.0; }

/* a bundle under the exec mask in sy->mask, of n lanes, its slots drawn from
 * the model (struct vliw, struct prog) */
static void put_bundle(rft_synth *sy, const struct slice *s, const struct wave *w, uint64_t t,
                       unsigned n)
{
    const struct vliw *v = sy->km->vliw;
    if (n == 0)
        return; /* nobody runs it */
    uint8_t slots = 0;
    while (!slots)
        for (int i = 0; i < RFT_NSLOTS; i++)
            if (chance(sy, sy->kp->p[i]))
                slots |= (uint8_t)(1u << i);
    rft_bundle *u = &sy->rec->u.bundle;
    u->flags = 0;
    if ((slots & RFT_SLOT_T) && chance(sy, v->trans))
        u->flags |= RFT_UF_TRANS;
    if ((slots & RFT_SLOTS_XYZW) == RFT_SLOTS_XYZW && chance(sy, v->vector))
        u->flags |= RFT_UF_VECTOR;
    u->cycle = t;
    u->cu = s->cu;
    u->simd = s->simd;
    u->wf = w->id;
    u->slots = slots;
    memcpy(u->mask, sy->mask, sy->MB);
    emit(sy, RFT_BUNDLE);
}

static void put_reads(rft_synth *sy, const struct slice *s, const struct wave *w,
                      const struct insn *in, uint64_t t)
{
    for (int j = 0; j < NSRC; j++) {
        uint8_t v = in->s[j];
        if (!v || (j > 0 && v == in->s[0]) || (j > 1 && v == in->s[1]))
            continue;
        sy->rec->u.read = (rft_regread){.cycle = t, .cu = s->cu, .simd = s->simd, .wf = w->id,
                                        .vreg = (uint16_t)(v - 1), .phys = RFT_NO_PHYS};
        emit(sy, RFT_READ);
    }
}

/* ---- wavefront program ------------------------------------------------------ */
static const struct insn *cur_insn(const rft_synth *sy, const struct wave *w)
{
    return w->sec < NSEC ? &sy->kp->sec[w->sec][w->ip] : NULL;
}

/* move to the next instruction, skipping empty sections and finished loops */
static void settle(const rft_synth *sy, struct wave *w)
{
    for (;;) {
        if (w->sec == NSEC)
            return;
        if (w->ip < sy->kp->nsec[w->sec])
            return;
        if (w->sec == SEC_BODY && ++w->k < sy->km->iters) {
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
static int can_issue(const rft_synth *sy, const struct wave *w)
{
    const struct insn *in = cur_insn(sy, w);
    if (!in)
        return 0;
    if (w->npend == 0)
        return 1;
    if (w->npend == MAX_PEND)
        return 0;
    /* an Evergreen ALU clause starts when the fetches before it have returned */
    if (sy->km->vliw && in->op != OP_LOAD && in->op != OP_LDS)
        return 0;
    for (int j = 0; j < NSRC; j++)
        if (in->s[j] && pending_reg(w, in->s[j] - 1u))
            return 0;
    return in->op == OP_STORE || !pending_reg(w, in->dst);
}

static void end_wave(rft_synth *sy, struct slice *s, struct wave *w, uint64_t t)
{
    sy->rec->u.end = (rft_wfend){.cycle = t, .cu = s->cu, .simd = s->simd, .wf = w->id};
    emit(sy, RFT_WFEND);
    w->alive = 0;
    s->nalive--;
    sy->k_alive--;
    sy->room_changed = 1;
}

static void issue(rft_synth *sy, struct slice *s, struct wave *w, uint64_t t)
{
    const struct insn *in = cur_insn(sy, w);
    uint32_t k = w->sec == SEC_BODY ? w->k : 0;
    int empty = mask_count(sy->L, in, w, k) == 0;
    if (!empty)
        put_reads(sy, s, w, in, t);
    if (in->op == OP_BUNDLE || (in->op == OP_ALU && sy->km->vliw)) {
        unsigned n = make_mask(sy, in, w, k);
        put_bundle(sy, s, w, t, n);
        if (in->op == OP_ALU)
            put_write_masked(sy, s, w, in, k, t, n);
    } else if (in->op == OP_ALU) {
        put_write(sy, s, w, in, k, t);
    } else if ((in->op == OP_LOAD || in->op == OP_LDS) && !empty) {
        uint64_t r = rnd(sy);
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
    settle(sy, w);
}

/* one issue slot of a slice at cycle t: deliver returned loads, end finished
 * wavefronts, issue one instruction round robin.  Returns 1 if anything
 * happened; lowers *next to the earliest pending load otherwise. */
static int slot(rft_synth *sy, struct slice *s, uint64_t t, uint64_t *next)
{
    int work = 0;
    unsigned maxwaves = sy->k_maxwaves;
    if (!s->nalive)
        return 0;
    if (s->min_ready <= t) {
        uint64_t m = UINT64_MAX;
        for (unsigned j = 0; j < maxwaves; j++) {
            struct wave *w = &s->wv[j];
            if (!w->alive || !w->npend)
                continue;
            while (w->npend && w->pend[w->phead].ready <= t) {
                struct pend *pd = &w->pend[w->phead];
                put_write(sy, s, w, pd->in, pd->k, t);
                w->phead = (w->phead + 1) % MAX_PEND;
                w->npend--;
                w->blocked = 0;
                work = 1;
            }
            if (w->npend) {
                if (w->pend[w->phead].ready < m)
                    m = w->pend[w->phead].ready;
            } else if (w->sec == NSEC) {
                end_wave(sy, s, w, t);
            }
        }
        s->min_ready = m;
    }
    if (s->min_ready < *next)
        *next = s->min_ready;
    unsigned j = s->rr;
    for (unsigned n = 0; n < maxwaves; n++) {
        struct wave *w = &s->wv[j];
        if (w->alive && !w->blocked) {
            if (can_issue(sy, w)) {
                issue(sy, s, w, t);
                s->rr = j + 1 == maxwaves ? 0 : j + 1;
                if (w->sec == NSEC && !w->npend)
                    end_wave(sy, s, w, t);
                return 1;
            }
            w->blocked = 1; /* until its next load returns */
        }
        if (++j == maxwaves)
            j = 0;
    }
    return work;
}

/* ---- dispatch ------------------------------------------------------------------ */
static void begin_wave(rft_synth *sy, struct slice *s, unsigned j, uint32_t wg, uint32_t wiw,
                       uint64_t t)
{
    const struct model *km = sy->km;
    unsigned L = sy->L;
    struct wave *w = &s->wv[j];
    memset(w, 0, sizeof *w);
    w->alive = 1;
    w->id = sy->next_wf++;
    w->wg = wg;
    w->wiw = wiw;
    w->nlanes = sy->k_wg_items - wiw * L < L ? sy->k_wg_items - wiw * L : L;
    w->regs = s->regs + (size_t)j * window(sy, km) * L;
    s->nalive++;
    sy->k_alive++;
    sy->rec->u.begin = (rft_wfbegin){.cycle = t, .cu = s->cu, .simd = s->simd, .wf = w->id,
                                     .nregs = (uint16_t)window(sy, km),
                                     .flags = RFT_BF_KERNEL | RFT_BF_WG, .wg = wg,
                                     .kernel = sy->kidx};
    emit(sy, RFT_WFBEGIN);
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
        put_write(sy, s, w, &ids[i], 0, t);
    settle(sy, w);
}

/* place work-groups on slices that have room: at most one per slice per cycle,
 * round robin over (cu, simd) with the CU varying fastest */
static int dispatch(rft_synth *sy, uint64_t t)
{
    if (sy->k_next_wg >= sy->k_nwg || !sy->room_changed)
        return 0;
    sy->room_changed = 0;
    int placed = 0;
    unsigned start = sy->disp_rr;   /* one round from here: every slice gets its turn */
    for (unsigned n = 0; n < sy->nslices && sy->k_next_wg < sy->k_nwg; n++) {
        unsigned si = (start + n) % sy->nslices;
        struct slice *s = &sy->slices[(si % sy->ncu) * sy->nsimd + si / sy->ncu];
        if (s->nalive + sy->k_wg_waves > sy->k_maxwaves)
            continue;
        uint32_t wiw = 0;
        for (unsigned j = 0; j < sy->k_maxwaves && wiw < sy->k_wg_waves; j++)
            if (!s->wv[j].alive)
                begin_wave(sy, s, j, (uint32_t)sy->k_next_wg, wiw++, t);
        sy->k_next_wg++;
        sy->disp_rr = (si + 1) % sy->nslices;
        placed = 1;
        sy->room_changed = 1; /* more may fit on the next cycle */
    }
    return placed;
}

/* work-items and wavefronts per work-group of model m */
static void wg_shape(const rft_synth *sy, const struct model *m, unsigned *items, unsigned *waves)
{
    unsigned L = sy->L;
    *items = sy->o.wg_size ? sy->o.wg_size : m->wg_items ? m->wg_items : m->wg_waves * L;
    *waves = (*items + L - 1) / L;
}

/* what one work-group of model i adds to the size of the run, exactly
 * (random exec masks are never empty): writes (gcn) or bundles (evergreen) */
static uint64_t wg_cost(const rft_synth *sy, unsigned i)
{
    const struct model *m = &sy->mset[i];
    const struct prog *pr = &sy->prog[i];
    unsigned L = sy->L, items, waves;
    wg_shape(sy, m, &items, &waves);
    uint64_t n = 0;
    struct wave w;
    memset(&w, 0, sizeof w);
    for (w.wiw = 0; w.wiw < waves; w.wiw++) {
        w.nlanes = items - w.wiw * L < L ? items - w.wiw * L : L;
        n += m->vliw ? 0 : 3;   /* v0..v2 */
        for (int sec = 0; sec < NSEC; sec++) {
            unsigned iters = sec == SEC_BODY ? m->iters : 1;
            for (uint32_t k = 0; k < iters; k++)
                for (unsigned j = 0; j < pr->nsec[sec]; j++) {
                    const struct insn *in = &pr->sec[sec][j];
                    int counts = m->vliw ? in->op == OP_ALU || in->op == OP_BUNDLE
                                         : in->op != OP_STORE;
                    if (counts && mask_count(L, in, &w, sec == SEC_BODY ? k : 0) != 0)
                        n++;
                }
        }
    }
    return n;
}

static uint64_t run_kernel(rft_synth *sy, uint32_t index, uint64_t t)
{
    const struct model *m = &sy->mset[sy->ks[index]];
    sy->km = m;
    sy->kp = &sy->prog[sy->ks[index]];
    sy->kidx = index;
    sy->k_nwg = sy->nwg[index];
    sy->k_next_wg = 0;
    sy->k_alive = 0;
    wg_shape(sy, m, &sy->k_wg_items, &sy->k_wg_waves);
    sy->k_maxwaves = sy->entries / window(sy, m);
    if (sy->k_maxwaves > MAX_WAVES)
        sy->k_maxwaves = MAX_WAVES;
    sy->room_changed = 1;
    sy->disp_rr = 0;
    for (unsigned i = 0; i < sy->nslices; i++) {
        sy->slices[i].rr = 0;
        sy->slices[i].min_ready = UINT64_MAX;
    }
    sy->rec->u.kernel = (rft_kernel){.cycle = t, .index = index, .name = m->name,
                                     .name_len = (uint16_t)strlen(m->name)};
    emit(sy, RFT_KERNEL);
    /* issue model: SIMD s of every CU issues at cycles t with t % 4 == s % 4 */
    while ((sy->k_next_wg < sy->k_nwg || sy->k_alive) && !sy->err) {
        uint64_t next = UINT64_MAX;
        int work = 0;
        for (unsigned ph = 0; ph < 4; ph++) {
            work |= dispatch(sy, t + ph);
            for (unsigned c = 0; c < sy->ncu; c++)
                for (unsigned si = ph; si < sy->nsimd; si += 4)
                    work |= slot(sy, &sy->slices[c * sy->nsimd + si], t + ph, &next);
        }
        t += 4;
        if (!work && next != UINT64_MAX && next > t)
            t = next & ~(uint64_t)3; /* everything waits on memory: skip ahead */
    }
    return t;
}

int rft_synth_run(rft_synth *sy, const rft_sink *out)
{
    if (sy->ran++)
        return RFT_EFORMAT;
    sy->out = out;
    uint64_t t = 0;
    for (unsigned i = 0; i < sy->nk && !sy->err; i++)
        t = run_kernel(sy, i, t);
    return sy->err;
}

/* ---- making a generator ------------------------------------------------------ */
static int fail(rft_synth *sy, int code, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
static int fail(rft_synth *sy, int code, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(NULL, 0, fmt, ap);
    va_end(ap);
    free(sy->why);
    if (n < 0 || !(sy->why = malloc((size_t)n + 1)))
        return RFT_EMEM;
    va_start(ap, fmt);
    vsnprintf(sy->why, (size_t)n + 1, fmt, ap);
    va_end(ap);
    return code;
}

static int find_model(const rft_synth *sy, const char *name, size_t len)
{
    for (unsigned i = 0; i < sy->nmset; i++)
        if (strlen(sy->mset[i].name) == len && strncmp(sy->mset[i].name, name, len) == 0)
            return (int)i;
    return -1;
}

/* The kernels of list (NULL: every model) into sy->ks and their names into
 * sy->names. */
static int parse_kernels(rft_synth *sy, const char *list)
{
    size_t nlen = 0;
    if (!list) {
        for (unsigned i = 0; i < sy->nmset; i++)
            sy->ks[sy->nk++] = i;
    } else {
        for (const char *p = list;; p++) {
            size_t len = strcspn(p, ",");
            if (!len)
                return fail(sy, RFT_EFORMAT, "--kernels: empty name in '%s'", list);
            int m = find_model(sy, p, len);
            if (m < 0)
                return fail(sy, RFT_EFORMAT, "--kernels: unknown model '%.*s' (see --list)",
                            (int)len, p);
            if (sy->nk == MAX_KERNELS)
                return fail(sy, RFT_EFORMAT, "--kernels: more than %d kernels", MAX_KERNELS);
            sy->ks[sy->nk++] = (unsigned)m;
            p += len;
            if (!*p)
                break;
        }
    }
    for (unsigned i = 0; i < sy->nk; i++)
        nlen += strlen(sy->mset[sy->ks[i]].name) + 1;
    if (!(sy->names = malloc(nlen)))
        return fail(sy, RFT_EMEM, "out of memory");
    char *at = sy->names;
    for (unsigned i = 0; i < sy->nk; i++)
        at += sprintf(at, i ? ",%s" : "%s", sy->mset[sy->ks[i]].name);
    return 0;
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
static int vliw_solve(const struct vliw *v, double *p)
{
    double smax = 0, lo = 1e-9, hi, want = RFT_NSLOTS * v->packing, sum = 0;
    for (int i = 0; i < RFT_NSLOTS; i++) {
        smax = v->share[i] > smax ? v->share[i] : smax;
        sum += v->share[i];
    }
    hi = 100 / smax;
    if (sum < 99.999 || sum > 100.001 || want <= 1 || vliw_slots(v, hi) < want)
        return -1;
    for (int it = 0; it < 100; it++) {
        double mid = (lo + hi) / 2;
        if (vliw_slots(v, mid) < want)
            lo = mid;
        else
            hi = mid;
    }
    for (int i = 0; i < RFT_NSLOTS; i++)
        p[i] = v->share[i] / 100 * lo;
    return 0;
}

/* Every model's program; for the kernels: the work-groups that share the
 * size asked (the remaining budget shared among the remaining kernels, at
 * least one work-group each). */
static int plan(rft_synth *sy)
{
    builder b = {.pool = sy->pool};
    for (unsigned i = 0; i < sy->nmset; i++) {
        const struct model *m = &sy->mset[i];
        b.pr = &sy->prog[i];
        m->build(&b);
        if (b.full)
            return fail(sy, RFT_EMEM, "internal error: instruction pool full");
        if (m->vliw && vliw_solve(m->vliw, sy->prog[i].p))
            return fail(sy, RFT_EMEM, "internal error: model %s: shares or packing out of reach",
                        m->name);
    }
    uint64_t left = sy->o.size;
    for (unsigned i = 0; i < sy->nk; i++) {
        uint64_t per = wg_cost(sy, sy->ks[i]), share = left / (sy->nk - i);
        if (per == 0)
            per = 1;    /* a work-group that does nothing countable */
        sy->nwg[i] = (share + per / 2) / per;
        if (sy->nwg[i] == 0)
            sy->nwg[i] = 1;
        if (sy->nwg[i] > UINT32_MAX - 1)
            sy->nwg[i] = UINT32_MAX - 1;
        left -= sy->nwg[i] * per < left ? sy->nwg[i] * per : left;
        sy->size += sy->nwg[i] * per;
    }
    return 0;
}

static int setup(rft_synth *sy, const rft_synth_opts *o)
{
    const char *why;
    sy->mset = model_set(o->arch, &sy->nmset);
    if (!o->cus || !o->simds || (uint64_t)o->cus * o->simds > 1u << 20 || o->lanes < 8 ||
        o->lanes > RFT_MAX_LANES || o->lanes % 8 || o->wg_size > MAX_WAVES * 64 || !o->size)
        return fail(sy, RFT_EFORMAT, "options out of range (synth.h)");
    int e = parse_kernels(sy, o->kernels);
    if (e)
        return e;
    for (unsigned i = 0; i < sy->nk; i++) {
        const struct model *m = &sy->mset[sy->ks[i]];
        unsigned fit = sy->entries / window(sy, m) < MAX_WAVES ? sy->entries / window(sy, m)
                                                              : MAX_WAVES;
        unsigned items, waves;
        wg_shape(sy, m, &items, &waves);
        if (waves > fit)
            return fail(sy, RFT_EFORMAT, "--wg-size: %u work-items are %u wavefronts, more than "
                        "the %u of model %s that fit a slice", items, waves, fit, m->name);
    }
    rft_geom_default(&sy->geom);
    sy->geom.lanes = sy->L;
    sy->geom.entries = sy->entries;
    sy->geom.block_lanes = o->block_lanes ? o->block_lanes : sy->L % 16 ? 8 : 16;
    if (rft_geom_check(&sy->geom, &why))
        return fail(sy, RFT_EFORMAT, "--lanes: %s", why);
    if ((e = plan(sy)))
        return e;

    sy->slices = calloc(sy->nslices, sizeof *sy->slices);
    if (!sy->slices || !(sy->rec = malloc(sizeof *sy->rec)))
        return fail(sy, RFT_EMEM, "out of memory");
    for (unsigned cu = 0; cu < sy->ncu; cu++)
        for (unsigned s = 0; s < sy->nsimd; s++) {
            struct slice *sl = &sy->slices[cu * sy->nsimd + s];
            sl->cu = (uint16_t)cu;
            sl->simd = (uint16_t)s;
            if (!(sl->regs = calloc((size_t)sy->entries * sy->L, sizeof *sl->regs)))
                return fail(sy, RFT_EMEM, "out of memory");
        }
    uint64_t seed = o->seed;
    sy->rng = splitmix64(&seed);
    if (!sy->rng)
        sy->rng = 1;
    return 0;
}

int rft_synth_new(rft_synth **out, const rft_synth_opts *o)
{
    rft_synth *sy = *out = calloc(1, sizeof *sy);
    if (!sy)
        return RFT_EMEM;
    sy->o = *o;
    sy->o.kernels = NULL;       /* the caller's: not kept */
    sy->L = o->lanes;
    sy->MB = (o->lanes + 7) / 8;
    sy->ncu = o->cus;
    sy->nsimd = o->simds;
    sy->nslices = o->cus * o->simds;
    sy->entries = o->entries ? o->entries : 256;
    return setup(sy, o);
}

const char *rft_synth_error(const rft_synth *sy) { return sy->why; }

uint64_t rft_synth_size(const rft_synth *sy) { return sy->size; }

static int set_u64(rft_header *h, const char *key, uint64_t v)
{
    char s[24];
    snprintf(s, sizeof s, "%llu", (unsigned long long)v);
    return rft_header_set(h, key, s);
}

int rft_synth_header(const rft_synth *sy, rft_header *h)
{
    int evg = sy->o.arch == RFT_SYNTH_EVERGREEN;
    h->geom = sy->geom;
    if (rft_header_set(h, "source", "rft-synth") || set_u64(h, "seed", sy->o.seed) ||
        (evg && rft_header_set(h, "arch", "evergreen")) ||
        rft_header_set(h, "kernels", sy->names) ||
        set_u64(h, evg ? "bundles" : "writes", sy->o.size) || set_u64(h, "cus", sy->ncu) ||
        set_u64(h, "simds", sy->nsimd) || (sy->o.wg_size && set_u64(h, "wg_size", sy->o.wg_size)) ||
        rft_header_set(h, "issue", evg ? "one ALU group (bundle) or fetch per CU every 4 cycles, "
                                         "round robin; an ALU clause waits for its fetches"
                                       : "one vector instruction per SIMD every 4 cycles, round robin"))
        return RFT_EMEM;
    return 0;
}

void rft_synth_free(rft_synth *sy)
{
    if (!sy)
        return;
    if (sy->slices)
        for (unsigned i = 0; i < sy->nslices; i++)
            free(sy->slices[i].regs);
    free(sy->slices);
    free(sy->rec);
    free(sy->names);
    free(sy->why);
    free(sy);
}
