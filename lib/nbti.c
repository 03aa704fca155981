/* nbti.c - NBTI threshold-voltage models (seed 002 Eq. 3, seeds 003/004
 * Eqs. 1-4), switching delay (seed 003 Eq. 7), SNM lifetime (seed 004). */
#include "nbti.h"

#include <math.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>

#include "rft.h"

#define Q 1.602176634e-19      /* C */
#define EPS0 8.8541878128e-21  /* F/nm */
#define KB 8.617333262e-5      /* eV/K */

static const struct key {
    const char *name;
    size_t off;
    double lo, hi;          /* allowed range */
    int lo_open;            /* lo itself not allowed */
} keys[] = {
#define K(n, lo, hi, open) {#n, offsetof(rft_nbti, n), lo, hi, open}
    K(vdd, 0, 100, 1),          K(vth0, 0, 100, 1),        K(temperature, 0, 2000, 1),
    K(tox, 0, 1e3, 1),          K(eps_ox, 0, 1e3, 1),
    K(rd_n, 0, 1, 1),           K(rd_xi1, 0, 1e3, 0),      K(rd_xi2, 0, 1e3, 0),
    K(rd_delta, 0, 1e3, 0),     K(rd_te, 0, 1e3, 0),       K(rd_ea, 0, 10, 0),
    K(rd_e0, 0, 1e3, 1),        K(rd_k, 0, 1e30, 1),       K(rd_t0, 0, 1e30, 1),
    K(rd_tclk, 0, 1e9, 1),
    K(eq3_a, 0, 1e300, 1),      K(eq3_eta, 0, 1, 0),       K(eq3_vds, 0, 100, 0),
    K(eq3_alpha, 0, 100, 1),    K(eq3_e0, 0, 1e3, 1),      K(eq3_ea, 0, 10, 0),
    K(delay_alpha, 0, 100, 1),  K(snm0, 0, 100, 1),        K(snm_sens, 0, 1e3, 1),
    K(snm_fail, 0, 1, 1),
#undef K
};
#define NKEYS (sizeof keys / sizeof keys[0])

const char *rft_nbti_key(size_t i)
{
    return i < NKEYS ? keys[i].name : NULL;
}

void rft_nbti_defaults(rft_nbti *p)
{
    *p = (rft_nbti){
        .vdd = 1.2, .vth0 = 0.365, .temperature = 300, .tox = 1.2, .eps_ox = 3.9,
        .rd_n = 1.0 / 6, .rd_xi1 = 0.9, .rd_xi2 = 0.5, .rd_delta = 1, .rd_te = 1.2,
        .rd_ea = 0.49, .rd_e0 = 0.335, .rd_k = 8e4, .rd_t0 = 1e-8, .rd_tclk = 0.01,
        .eq3_a = 2.4892e13, .eq3_eta = 0.35, .eq3_vds = 0, .eq3_alpha = 1.3, .eq3_e0 = 0.335,
        .eq3_ea = 0.49,
        .delay_alpha = 1.3, .snm0 = 0.2, .snm_sens = 0.5, .snm_fail = 0.2,
    };
}

void rft_nbti_seed003(rft_nbti *p)
{
    rft_nbti_defaults(p);
    p->vth0 = 0.3391;
    p->rd_k = 2.5465e5;
}

double rft_nbti_get(const rft_nbti *p, const char *key)
{
    for (size_t i = 0; i < NKEYS; i++)
        if (strcmp(keys[i].name, key) == 0)
            return *(const double *)(const void *)((const char *)p + keys[i].off);
    return NAN;
}

int rft_nbti_from_params(rft_nbti *p, rft_params *ps, int required, char *why, size_t whylen)
{
    for (int j = 0; j < ps->n; j++) {     /* a misspelt key first: it explains the rest */
        size_t i = 0;
        while (i < NKEYS && strcmp(keys[i].name, ps->p[j].key) != 0)
            i++;
        if (i == NKEYS)
            return rft_param_fail(&ps->p[j], why, whylen, "unknown constant '%s'", ps->p[j].key);
    }
    for (size_t i = 0; i < NKEYS; i++) {
        const struct key *k = &keys[i];
        double x;
        int e = rft_params_num(ps, k->name, required, k->lo, &x, why, whylen);
        if (e == 1)
            continue;           /* not given: the value in p stays */
        if (e)
            return RFT_EFORMAT;
        if ((k->lo_open && x == k->lo) || x > k->hi)
            return rft_param_fail(rft_params_find(ps, k->name), why, whylen,
                                  "%s: %g is out of range %s%g..%g", k->name, x,
                                  k->lo_open ? ">" : "", k->lo, k->hi);
        *(double *)(void *)((char *)p + k->off) = x;
    }
    if (p->vth0 >= p->vdd) {
        snprintf(why, whylen, "%s: vth0 (%g) must be below vdd (%g)",
                 ps->name ? ps->name : "parameters", p->vth0, p->vdd);
        return RFT_EFORMAT;
    }
    return 0;
}

/* ---- seed 002 Eq. 3 ------------------------------------------------------------ */
static double eq3_const(const rft_nbti *p)
{
    double cox = p->eps_ox * EPS0 / p->tox, ov = p->vdd - p->vth0;
    return p->eq3_a * p->tox * sqrt(cox * ov) * (1 - p->eq3_vds / (p->eq3_alpha * ov)) *
           exp(p->vdd / (p->tox * p->eq3_e0) - p->eq3_ea / (KB * p->temperature));
}

double rft_nbti_eq3(const rft_nbti *p, double t_stress, double t_rec)
{
    if (t_stress <= 0)
        return 0;
    return eq3_const(p) * pow(t_stress, 0.25) *
           (1 - sqrt(p->eq3_eta) * t_rec / (t_stress + t_rec));
}

double rft_nbti_eq3_norm(const rft_nbti *p, double alpha)
{
    if (alpha <= 0)
        return 0;
    return pow(alpha, 0.25) * (1 - sqrt(p->eq3_eta) * (1 - alpha));
}

/* ---- reaction-diffusion model --------------------------------------------------- */
static void rd_consts(const rft_nbti *p, double *kv, double *c)
{
    double eox = p->eps_ox * EPS0, cox = eox / p->tox, ov = p->vdd - p->vth0;
    *c = exp(-p->rd_ea / (KB * p->temperature)) / p->rd_t0;
    *kv = pow(Q * p->tox / eox, 3) * p->rd_k * p->rd_k * cox * ov * sqrt(*c) *
          exp(2 * (ov / p->tox) / p->rd_e0);
}

/* Recovery factor of Eq. 4 after total time t. */
static double rd_keep(const rft_nbti *p, double c, double alpha, double t)
{
    return 1 - (2 * p->rd_xi1 * p->rd_te + sqrt(p->rd_xi2 * c * (1 - alpha) * p->rd_tclk)) /
                   ((1 + p->rd_delta) * p->tox + sqrt(c * t));
}

double rft_nbti_rd(const rft_nbti *p, double alpha, double t)
{
    if (alpha <= 0 || t <= 0)
        return 0;
    double kv, c;
    rd_consts(p, &kv, &c);
    double beta = rd_keep(p, c, alpha, t);
    if (beta <= 0)
        beta = 0;
    /* the fixed point of x = Kv sqrt(alpha Tclk) + beta^(1/2n) x, x = dVth^(1/2n) */
    double x = kv * sqrt(alpha * p->rd_tclk) / (1 - pow(beta, 1 / (2 * p->rd_n)));
    return pow(x, 2 * p->rd_n);
}

double rft_nbti_rd_iterate(const rft_nbti *p, double alpha, unsigned long periods)
{
    if (alpha <= 0)
        return 0;
    double kv, c, rec = 0, stress = 0;
    rd_consts(p, &kv, &c);
    for (unsigned long i = 1; i <= periods; i++) {
        stress = pow(kv * sqrt(alpha * p->rd_tclk) + pow(rec, 1 / (2 * p->rd_n)), 2 * p->rd_n);
        double keep = rd_keep(p, c, alpha, (double)i * p->rd_tclk);
        rec = stress * (keep > 0 ? keep : 0);
    }
    return stress;
}

/* ---- delay and lifetime ----------------------------------------------------------- */
double rft_nbti_delay(const rft_nbti *p, double dvth)
{
    return p->delay_alpha * dvth / (p->vdd - p->vth0);
}

double rft_nbti_snm_dvth(const rft_nbti *p)
{
    return p->snm_fail * p->snm0 / p->snm_sens;
}

double rft_nbti_snm_loss(const rft_nbti *p, double dvth)
{
    return p->snm_sens * dvth / p->snm0;
}

double rft_nbti_lifetime(const rft_nbti *p, double alpha, int model)
{
    double target = rft_nbti_snm_dvth(p);
    if (alpha <= 0)
        return INFINITY;
    if (model == 0) {
        double f = eq3_const(p) * pow(alpha, 0.25) * (1 - sqrt(p->eq3_eta) * (1 - alpha));
        return f > 0 ? pow(target / f, 4) : INFINITY;
    }
    /* dVth grows with t: bisect in log time between 1 ns and 1e9 years */
    double lo = log(1e-9), hi = log(1e9 * RFT_YEAR);
    if (rft_nbti_rd(p, alpha, exp(hi)) < target)
        return INFINITY;
    for (int i = 0; i < 200; i++) {
        double mid = (lo + hi) / 2;
        if (rft_nbti_rd(p, alpha, exp(mid)) < target)
            lo = mid;
        else
            hi = mid;
    }
    return exp(hi);
}

void rft_nbti_worst_of(const rft_nbti *p, double a0, double a1, double t, rft_nbti_worst *w)
{
    w->norm[0] = rft_nbti_eq3_norm(p, a0);
    w->norm[1] = rft_nbti_eq3_norm(p, a1);
    w->eq3[0] = rft_nbti_eq3(p, a0 * t, (1 - a0) * t);
    w->eq3[1] = rft_nbti_eq3(p, a1 * t, (1 - a1) * t);
    w->rd[0] = rft_nbti_rd(p, a0, t);
    w->rd[1] = rft_nbti_rd(p, a1, t);
    w->rd_max = fmax(w->rd[0], w->rd[1]);
    w->delay_eq3 = rft_nbti_delay(p, fmax(w->eq3[0], w->eq3[1]));
    w->delay_rd = rft_nbti_delay(p, w->rd_max);
    double most = a0 > a1 ? a0 : a1;
    w->life_eq3 = rft_nbti_lifetime(p, most, 0);
    w->life_rd = rft_nbti_lifetime(p, most, 1);
}
