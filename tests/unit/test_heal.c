/* test_heal.c - unit tests of lib/heal.c from seed 003's own numbers. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "heal.h"
#include "nbti.h"
#include "rft.h"

#define CHECK(c) do { if (!(c)) { \
    fprintf(stderr, "%s:%d: check failed: %s\n", __FILE__, __LINE__, #c); exit(1); } } while (0)
#define NEAR(a, b, tol) (fabs((a) - (b)) <= (tol))

static const double H = 3600, YEAR_H = 8766;
/* Seed 003 Fig. 4, Reduction: X 50.7 %, Z 9 % (printed); Y, W, T those of
 * rft-synth's reduction model (assumed: Fig. 4 is not in the text). */
static const double reduction[RFT_NSLOTS] = {0.507, 0.163, 0.09, 0.13, 0.11};

static rft_heal_group rule(uint32_t wi, int d, int wfrule)
{
    rft_heal_group g;
    CHECK(rft_heal_group_rule(wi, (1ull << d) - 1, 16, 64, 256, wfrule, &g) == 0);
    return g;
}

/* Section 6.2: one extra wavefront for 1-7 degraded SCs of a 256-work-item
 * kernel, two from 8 (the non-tuned healthy kernel halves the group). */
static void test_extra_wavefronts(void)
{
    for (int d = 1; d <= 8; d++) {
        rft_heal_group g = rule(256, d, RFT_HEAL_WF_SEED);
        CHECK(g.groups == 2);                   /* 256 + RWIs > 256: halved */
        CHECK(g.rwi == 16u * d);                /* 8 per SC in each half */
        CHECK(g.wi_max == 128u + 8u * d);
        CHECK(g.wf_naive == 4);
        CHECK(g.wf_one_naive == 2);
        CHECK(g.wf_one - g.wf_one_naive == (d < 8 ? 1u : 2u));
    }
    /* the plain count puts the boundary one SC later */
    CHECK(rule(256, 8, RFT_HEAL_WF_CEIL).wf_one == 3);
    CHECK(rule(256, 9, RFT_HEAL_WF_CEIL).wf_one == 4);
    /* every SC degraded: nobody can redo the work */
    rft_heal_group g;
    CHECK(rft_heal_group_rule(256, 0xffff, 16, 64, 256, RFT_HEAL_WF_SEED, &g) == RFT_EFORMAT);
}

/* Table I: work-items per work-group and wavefronts per group of the naive kernels. */
static void test_table1(void)
{
    static const struct { const char *name; uint32_t wi, wfs; } k[] = {
        {"SobelFilter", 256, 4}, {"SimpleConvolution", 256, 4}, {"BlackScholes", 256, 4},
        {"BinomialOptions", 127, 2}, {"AtomicCounter", 256, 4}, {"BitonicSort", 256, 4},
        {"FastWalshTransform", 256, 4}, {"FloydWarshal", 256, 4},
        {"QuasiRandomSequence", 128, 2}, {"Reduction", 256, 4}};
    for (size_t i = 0; i < sizeof k / sizeof k[0]; i++) {
        rft_heal_group g = rule(k[i].wi, 1, RFT_HEAL_WF_SEED);
        CHECK(g.wf_naive == k[i].wfs);
        CHECK(g.wf_one - g.wf_one_naive == 1);  /* one degraded SC: one extra wavefront */
    }
    /* BinomialOptions, 127 work-items: SC 0 holds work-items 0, 16, ..., 112 */
    rft_heal_group g = rule(127, 1, RFT_HEAL_WF_SEED);
    CHECK(g.rwi == 8 && g.groups == 1 && g.wi_max == 135 && g.wf_healthy == 3);
    /* QuasiRandomSequence, 128: fits without halving up to 8 SCs (128 + 64) */
    g = rule(128, 8, RFT_HEAL_WF_SEED);
    CHECK(g.groups == 1 && g.rwi == 64 && g.wf_healthy == 4);
    g = rule(128, 7, RFT_HEAL_WF_SEED);
    CHECK(g.groups == 1 && g.rwi == 56 && g.wf_healthy == 3);
}

static void worst(const double *v, double *mx, double *mn)
{
    *mx = -1, *mn = 1e9;
    for (int p = 0; p < RFT_NSLOTS; p++)
        *mx = fmax(*mx, v[p]), *mn = fmin(*mn, v[p]);
}

/* Fig. 7(a): naive Reduction after one year, PE_X at 435 mV; healed, adapting
 * every hour, every PE at 421 mV (the calibration of seed003-65nm.conf). */
static void test_fig7a(void)
{
    rft_nbti p;
    rft_nbti_seed003(&p);
    rft_heal_work w;
    rft_heal_work_of_profile(reduction, 0.3, 1, &w);
    double an[RFT_NSLOTS], dv0[RFT_NSLOTS] = {0}, dh[RFT_NSLOTS], ah[RFT_NSLOTS], mx, mn;
    rft_heal_pe_alpha(&w, RFT_HEAL_PERMUTE, 1, NULL, an);
    CHECK(NEAR(an[0], 0.507 * 1.5, 1e-12) && NEAR(an[2], 0.09 * 1.5, 1e-12));
    double vx = p.vth0 + rft_heal_dvth(&p, an[0], YEAR_H * H, 0);
    CHECK(NEAR(vx, 0.435, 0.0003));
    rft_heal_pe_run(&p, &w, RFT_HEAL_PERMUTE, 1, dv0, YEAR_H * H, H, 0, NULL, NULL, dh, ah);
    worst(dh, &mx, &mn);
    CHECK(NEAR(p.vth0 + mx, 0.421, 0.0003));
    CHECK(mx - mn < 0.0002);                    /* uniform: every PE the same */
    /* healed to equal shares: every PE busy the mean, 30 % (packing 0.3) */
    for (int i = 0; i < RFT_NSLOTS; i++)
        CHECK(NEAR(ah[i], 0.3, 0.003));
}

/* Fig. 7(b, c): 10 mV initial variation, 360 h.  The RD model's dVth grows
 * about as alpha^(1/6), so evening PE_X's 76 % out to 30 % lowers the worst
 * dVth by at most 1 - (0.3 / 0.76)^(1/6) = 14.4 %: the seed's 30 % is out of
 * this model's reach (rft-heal(1) says so); the test pins what it gives. */
static void test_fig7bc(void)
{
    rft_nbti p;
    rft_nbti_seed003(&p);
    rft_heal_work w;
    rft_heal_work_of_profile(reduction, 0.3, 1, &w);
    double an[RFT_NSLOTS], dv0[RFT_NSLOTS], dn[RFT_NSLOTS], dh[RFT_NSLOTS], ah[RFT_NSLOTS];
    double mxn, mnn, mxh, mnh;
    rft_heal_pe_alpha(&w, RFT_HEAL_PERMUTE, 1, NULL, an);
    for (int i = 0; i < RFT_NSLOTS; i++) {
        dv0[i] = 0.010 * i / 4;
        dn[i] = rft_heal_dvth(&p, an[i], 360 * H, dv0[i]);
    }
    rft_heal_pe_run(&p, &w, RFT_HEAL_PERMUTE, 1, dv0, 360 * H, H, 0, NULL, NULL, dh, ah);
    worst(dn, &mxn, &mnn);
    worst(dh, &mxh, &mnh);
    CHECK(mxh - mnh < 0.0006);                  /* the seed: variation ~0.6 mV */
    double red = 1 - mxh / mxn;
    CHECK(red > 0.13 && red < 0.16);
    CHECK(red <= 1 - pow(0.3 / (0.507 * 1.5), 1.0 / 6) + 0.005);
}

/* Bundle by bundle: constrained instructions stay, the others go young. */
static void test_young(void)
{
    rft_heal_work w;
    double a[RFT_NSLOTS];
    int rank[RFT_NSLOTS] = {4, 3, 2, 1, 0};     /* T youngest, X oldest */
    memset(&w, 0, sizeof w);
    w.total = 10;
    w.shape[RFT_SLOT_X | RFT_SLOT_Z] = 2;       /* two free instructions: to T and W */
    w.shape[RFT_SLOT_X | RFT_SLOT_T | RFT_UF_TRANS << 5] = 1;   /* T stays, X to W */
    w.shape[RFT_SLOT_X | RFT_SLOT_Y | RFT_UF_VECTOR << 5] = 4;  /* vector: W and Z */
    rft_heal_pe_alpha(&w, RFT_HEAL_YOUNG, 0, rank, a);
    CHECK(NEAR(a[4], 0.3, 1e-12));              /* T: 2 + 1 */
    CHECK(NEAR(a[3], 0.7, 1e-12));              /* W: 2 + 1 + 4 */
    CHECK(NEAR(a[2], 0.4, 1e-12));              /* Z: 4 */
    CHECK(a[0] == 0 && a[1] == 0);
    /* permute: X..W loads moved among X..W, heaviest to the youngest */
    rft_heal_pe_alpha(&w, RFT_HEAL_PERMUTE, 0, rank, a);
    CHECK(NEAR(a[3], 0.7, 1e-12));              /* X's load (2 + 1 + 4) on W */
    CHECK(NEAR(a[4], 0.1, 1e-12));              /* T keeps its own */
    double n[RFT_NSLOTS];
    rft_heal_pe_alpha(&w, RFT_HEAL_YOUNG, 0, NULL, n);  /* naive */
    CHECK(NEAR(n[0], 0.7, 1e-12) && NEAR(n[1], 0.4, 1e-12) && NEAR(n[2], 0.2, 1e-12));
}

static void test_dvth(void)
{
    rft_nbti p;
    rft_nbti_seed003(&p);
    CHECK(rft_heal_dvth(&p, 0, 360 * H, 0.010) == 0.010 || NEAR(rft_heal_dvth(&p, 0, 360 * H, 0.010), 0.010, 1e-15));
    CHECK(rft_heal_dvth(&p, 0.2, 360 * H, 0) < rft_heal_dvth(&p, 0.4, 360 * H, 0));
    CHECK(rft_heal_dvth(&p, 0.4, 100 * H, 0) < rft_heal_dvth(&p, 0.4, 360 * H, 0));
    CHECK(rft_heal_dvth(&p, 2, 360 * H, 0) == rft_heal_dvth(&p, 1, 360 * H, 0));
}

static int drop(void *ctx, rft_rec *rec) { return 0; }

/* The stage on a hand-made trace (tests/fixtures/heal/gcn1.txt): writes of
 * 64, 16 and 1 active lanes over cycles 0..99, SC 0 busy 4 + 1 + 1 cycles,
 * the others 4 + 1; then which SCs rest and their healed duty. */
static void test_stage(void)
{
    rft_heal_opts o;
    rft_heal_opts_default(&o);
    o.sweep = 20;               /* cut to the slice's 16 SCs less one */
    o.sweep_fit = 1;
    rft_stage *st = rft_heal_stage_new(&o);
    rft_header in, out;
    rft_sink sink = {drop, NULL};
    rft_header_init(&in, "test");
    rft_geom_default(&in.geom);
    CHECK(st && rft_stage_start(st, &in, &out) == 0);
    static rft_rec r;
    r.kind = RFT_WFBEGIN;
    r.u.begin = (rft_wfbegin){0, 0, 0, 1, 8, 0, RFT_NO_WG, 0};
    CHECK(rft_stage_feed(st, &r, &sink) == 0);
    static const struct { uint64_t cycle; unsigned lanes; } w[] = {{0, 64}, {4, 16}, {8, 1}};
    for (int k = 0; k < 3; k++) {
        memset(&r.w, 0, sizeof r.w);
        r.kind = RFT_WRITE;
        r.w.cycle = w[k].cycle;
        r.w.wf = 1;
        for (unsigned l = 0; l < w[k].lanes; l++)
            r.w.mask[l / 8] |= (uint8_t)(1u << (l % 8));
        CHECK(rft_stage_feed(st, &r, &sink) == 0);
    }
    r.kind = RFT_WFEND;
    r.u.end = (rft_wfend){99, 0, 0, 1};
    CHECK(rft_stage_feed(st, &r, &sink) == 0 && rft_stage_finish(st, &sink) == 0);
    rft_heal *h = rft_heal_stage_take(st);
    rft_stage_free(st);             /* the profile is ours now */
    rft_header_free(&in);
    rft_header_free(&out);
    CHECK(h && rft_heal_sweep(h) == 15 && rft_heal_span(h) == 100);
    const rft_heal_slice *s = rft_heal_slice_find(h, 0, 0);
    CHECK(s && !rft_heal_slice_find(h, 0, 1));
    CHECK(rft_heal_sc_alpha(h, s, 0) == 0.06 && rft_heal_sc_alpha(h, s, 1) == 0.05);
    /* SC 0 is the most stressed, alone (rft-heal warns of ties) */
    const rft_heal_slice *most;
    uint32_t most_sc;
    CHECK(rft_heal_most_stressed(h, &most, &most_sc) == 1 && most == s && most_sc == 0);
    /* the most stressed SC rests; a healthy one takes a fifteenth of its work */
    CHECK(rft_heal_rest_most(h) == 0 && rft_heal_nresting(h) == 1);
    uint64_t mask;
    CHECK(rft_heal_resting(h, 0, &mask) == s && mask == 1);
    CHECK(rft_heal_sc_healed(h, s, mask, 0, 0, NULL) == 0);
    CHECK(NEAR(rft_heal_sc_healed(h, s, mask, 0, 1, NULL), 0.05 + 0.06 / 15, 1e-15));
    CHECK(NEAR(rft_heal_sc_healed(h, s, mask, 0.5, 0, NULL), 0.03, 1e-15));
    /* a threshold between the two naive dVth picks SC 0 again: one slice, one mask */
    rft_nbti p;
    rft_nbti_seed003(&p);
    double d0 = 1e3 * rft_heal_dvth(&p, 0.06, 360 * H, 0);
    double d1 = 1e3 * rft_heal_dvth(&p, 0.05, 360 * H, 0);
    CHECK(rft_heal_rest_over(h, &p, 360 * H, (d0 + d1) / 2) == 0 && rft_heal_nresting(h) == 1);
    CHECK(rft_heal_rest_over(h, &p, 360 * H, d1) == 0 && rft_heal_resting(h, 0, &mask) &&
          mask == 0xffff);
    rft_heal_free(h);
}

int main(void)
{
    test_extra_wavefronts();
    test_table1();
    test_fig7a();
    test_fig7bc();
    test_young();
    test_dvth();
    test_stage();
    puts("test_heal: ok");
    return 0;
}
