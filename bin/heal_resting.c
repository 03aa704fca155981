/* heal_resting.c - the resting SCs of SC healing in rft-heal(1): parsed
 * and checked against the trace here, since --degraded names slices the
 * option parser cannot know before the trace is read. */
#include <stdlib.h>
#include <string.h>

#include "heal_resting.h"

/* --degraded CU:[SIMD:]SC,...: those SCs rest, checked against the trace. */
static void degraded_parse(rft_heal *h, const char *degraded, const char *input)
{
    uint32_t nsc = rft_heal_nsc(h);
    char *copy = xasprintf("%s", degraded), *save = NULL, *tok;
    for (tok = strtok_r(copy, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
        unsigned long v[3];
        int n = 0;
        char *p = tok;
        while (n < 3 && *p >= '0' && *p <= '9') {
            v[n++] = strtoul(p, &p, 10);
            if (*p != ':')
                break;
            p++;
        }
        if (*p || n < 2 || v[0] > 65535 || v[n - 2] > 65535)
            usage_error("--degraded: '%s' is not CU:SC or CU:SIMD:SC", tok);
        uint16_t cu = (uint16_t)v[0], simd = n == 3 ? (uint16_t)v[1] : 0;
        if (v[n - 1] >= nsc)
            die("--degraded: SC %lu of %s is beyond the %u stream cores of a slice", v[n - 1],
                tok, nsc);
        const rft_heal_slice *s = rft_heal_slice_find(h, cu, simd);
        if (!s)
            die("--degraded: %s: %s has no slice %u:%u", tok, input, cu, simd);
        if (rft_heal_rest(h, s, (uint32_t)v[n - 1]))
            die("out of memory");
    }
    free(copy);
}

/* Without --degraded: a --threshold that selects no SC is an error naming
 * the most aged SC; the most stressed SC chosen among equals is warned of. */
static void most_stressed(const heal_report *r, const rft_heal *h)
{
    const rft_heal_slice *best;
    uint32_t bj;
    size_t ties = rft_heal_most_stressed(h, &best, &bj);
    if (!best)
        return;
    double a = rft_heal_sc_alpha(h, best, bj);
    if (r->have_threshold && rft_heal_nresting(h) == 0)
        die("%s: --threshold %g mV selects no SC: the most aged, %u:%u:%u, reaches %.2f mV at "
            "the horizon", r->input, r->threshold, best->cu, best->simd, bj,
            1e3 * rft_heal_dvth(&r->p, a, r->hours * 3600, 0));
    int rests_matter = r->report == HEAL_SUMMARY || r->report == HEAL_UNITS ||
                       r->report == HEAL_SERIES;
    if (!r->have_threshold && ties > 1 && a > 0 && rests_matter)
        warnx("warning: %s: %zu SCs tie as the most stressed (busy %.2f %%): %u:%u:%u rests, the "
              "first of them, and its work makes the others older (the SC_max row); choose with "
              "--degraded", r->input, ties, 100 * a, best->cu, best->simd, bj);
}

/* The SCs of --degraded, those --threshold picks, or the most stressed one
 * (seed 003 Fig. 8). */
void heal_resting_choose(const heal_report *r, rft_heal *h)
{
    if (r->degraded)
        degraded_parse(h, r->degraded, r->input);
    else if (r->have_threshold ? rft_heal_rest_over(h, &r->p, r->hours * 3600, r->threshold)
                               : rft_heal_rest_most(h))
        die("out of memory");
    if (!r->degraded)
        most_stressed(r, h);
    for (size_t i = 0; i < rft_heal_nresting(h); i++) {
        uint64_t mask;
        const rft_heal_slice *s = rft_heal_resting(h, i, &mask);
        if (__builtin_popcountll(mask) >= (int)rft_heal_nsc(h))
            die("%s: every SC of slice %u:%u is degraded: no healthy SC can take their work",
                r->input, s->cu, s->simd);
    }
}
