/* fuzz_params.c - parameter files (lib/params.c) and the two loaders that
 * take their numbers from them: the energy model's (rft_eparams_load) and
 * the NBTI model's (rft_nbti_from_params, whole file and --set style); and
 * the same bytes as a Multi2Sim --si-config ini (lib/m2scfg.c). */
#include <stdlib.h>
#include <string.h>

#include "energy.h"
#include "fuzz.h"
#include "m2scfg.h"
#include "nbti.h"
#include "params.h"

typedef int (*loader)(rft_params *ps, char *why, size_t whylen);

static int energy(rft_params *ps, char *why, size_t whylen)
{
    static rft_eparams e;
    return rft_eparams_load(&e, ps, why, whylen);
}

static int nbti_file(rft_params *ps, char *why, size_t whylen)
{
    rft_nbti p;
    rft_nbti_defaults(&p);
    return rft_nbti_from_params(&p, ps, 1, why, whylen);
}

static int nbti_set(rft_params *ps, char *why, size_t whylen)
{
    rft_nbti p;
    rft_nbti_defaults(&p);
    return rft_nbti_from_params(&p, ps, 0, why, whylen);
}

static const loader loaders[] = {energy, nbti_file, nbti_set};

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    char *text = fuzz_copy(data, size);
    for (size_t i = 0; i < sizeof loaders / sizeof *loaders; i++) {
        /* a fresh parse each: lookups mark the pairs used */
        char why[640] = "";
        rft_params ps;
        rft_params_init(&ps);
        if (rft_params_parse(&ps, "fuzz.conf", text, size, why, sizeof why) == 0) {
            char where[320];
            for (int k = 0; k < ps.n; k++)
                FUZZ_ASSERT(strlen(rft_param_where(&ps.p[k], where, sizeof where)) < sizeof where);
            (void)loaders[i](&ps, why, sizeof why);
        }
        FUZZ_ASSERT(memchr(why, 0, sizeof why) != NULL);
        rft_params_free(&ps);
    }
    rft_m2scfg cfg;
    char cwhy[RFT_M2SCFG_WHY] = "";
    rft_m2scfg_default(&cfg);
    if (rft_m2scfg_parse(&cfg, (const char *)data, size, cwhy, sizeof cwhy) == 0) {
        uint32_t mhz[2];
        rft_m2scfg_clocks(&cfg, mhz);
        FUZZ_ASSERT(mhz[1] >= mhz[0] && mhz[0] >= 1);
    } else      /* said, and whole: the user's key or value never cut */
        FUZZ_ASSERT(cwhy[0] && strlen(cwhy) < sizeof cwhy - 1);
    free(text);
    return 0;
}
