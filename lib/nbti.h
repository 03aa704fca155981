/* nbti.h - threshold-voltage degradation of SRAM cell transistors under NBTI
 * from duty cycles: seed 002 Eq. 3 (the "Facelift" formula), the long-term
 * reaction-diffusion model of seeds 003 and 004 (Eqs. 1-4), the switching
 * delay of seed 003 Eq. 7 and the SNM-based lifetime of seed 004 §6.2.3.
 *
 * Computation only: no I/O.  Times are in seconds, voltages in volts.  The
 * technology constants are a parameter set that rft-vth(1) reads from a
 * key = value file (params/nbti.conf names each value's source). */
#ifndef RFT_NBTI_H
#define RFT_NBTI_H

#include <stddef.h>

#include "params.h"

typedef struct rft_nbti {
    /* technology */
    double vdd, vth0, temperature, tox, eps_ox;
    /* reaction-diffusion model */
    double rd_n, rd_xi1, rd_xi2, rd_delta, rd_te, rd_ea, rd_e0, rd_k, rd_t0, rd_tclk;
    /* seed 002 Eq. 3 */
    double eq3_a, eq3_eta, eq3_vds, eq3_alpha, eq3_e0, eq3_ea;
    /* seed 003 Eq. 7 and seed 004 §6.2.3 */
    double delay_alpha, snm0, snm_sens, snm_fail;
} rft_nbti;

/* The values of params/nbti.conf. */
void rft_nbti_defaults(rft_nbti *p);
/* The values of params/seed003-65nm.conf: nbti.conf with vth0 and rd_k
 * calibrated to seed 003 Fig. 7(a) (rft-heal(1)). */
void rft_nbti_seed003(rft_nbti *p);
/* Take the constants from parameters read by params.h (a file, --set
 * pairs): each must be a finite number in its range, and a key that is no
 * constant is refused.  With required, every constant must be given (a
 * parameter file); otherwise those not given keep their value in p.
 * 0, or RFT_EFORMAT with "FILE: line N: key: ..." or "FILE: missing key
 * 'key'" in why. */
int rft_nbti_from_params(rft_nbti *p, rft_params *ps, int required, char *why, size_t whylen);
/* The i-th parameter name, in file order (NULL past the last), and a value by name. */
const char *rft_nbti_key(size_t i);
double rft_nbti_get(const rft_nbti *p, const char *key);

/* Seed 002 Eq. 3 for a transistor stressed t_stress and recovering t_rec. */
double rft_nbti_eq3(const rft_nbti *p, double t_stress, double t_rec);
/* Eq. 3 for duty alpha over any lifetime, relative to stress all the time:
 * alpha^0.25 * (1 - sqrt(eta) * (1 - alpha)) (seed 002 Fig. 19). */
double rft_nbti_eq3_norm(const rft_nbti *p, double alpha);
/* Reaction-diffusion model, long-term form of Eqs. 3-4 after time t with
 * duty alpha (stress share of each period rd_tclk). */
double rft_nbti_rd(const rft_nbti *p, double alpha, double t);
/* The same by iterating Eqs. 3-4 period by period (for checks: slow). */
double rft_nbti_rd_iterate(const rft_nbti *p, double alpha, unsigned long periods);
/* Relative switching delay increase d_tau / tau0 (seed 003 Eq. 7). */
double rft_nbti_delay(const rft_nbti *p, double dvth);
/* dVth at which the SNM has dropped by snm_fail (seed 004 §6.2.3). */
double rft_nbti_snm_dvth(const rft_nbti *p);
/* Share of the read SNM lost at a dVth: snm_sens dvth / snm0 (seed 004
 * §6.2.2: the SNM follows dVth with a near-constant factor). */
double rft_nbti_snm_loss(const rft_nbti *p, double dvth);
/* Seconds until a transistor with duty alpha reaches rft_nbti_snm_dvth(),
 * with Eq. 3 (model 0) or the RD model (model 1); INFINITY if never. */
double rft_nbti_lifetime(const rft_nbti *p, double alpha, int model);

#define RFT_YEAR (365.25 * 86400.0)

/* The most degraded transistors of a register file after t seconds (the
 * figures rft-vth(1) reports): T0 of the cell with the longest '0' duty a0
 * and T1 of the cell with the longest '1' duty a1 (a cell at '0' stresses
 * its T0, at '1' its T1; both models grow with the stress share). */
typedef struct rft_nbti_worst {
    double norm[2];             /* Eq. 3 relative to stress all the time: T0, T1 */
    double eq3[2], rd[2];       /* dVth (V) of T0, T1 by Eq. 3 and by the RD model */
    double rd_max;              /* the more degraded PMOS (RD): the cell's SNM goes with it */
    double delay_eq3, delay_rd; /* switching delay of the more degraded, relative */
    double life_eq3, life_rd;   /* seconds until the more stressed fails (SNM), or INFINITY */
} rft_nbti_worst;
void rft_nbti_worst_of(const rft_nbti *p, double a0, double a1, double t, rft_nbti_worst *w);

#endif
