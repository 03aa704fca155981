/* fmsource.c - the fault-map source options of rft-faultmap and rft-dcpatch. */
#include "fmsource.h"

#include <getopt.h>
#include <stdio.h>

#include "cli.h"

int fm_source_option(fm_source *f, int c)
{
    switch (c) {
    case 'S': f->scenario = optarg; return 1;
    case 'r': f->seed = cli_uint("--seed", optarg, 0, UINT64_MAX); f->seed_set = 1; return 1;
    case 'p': f->shares = optarg; return 1;
    case 'y': f->systematic = cli_double("--systematic", optarg, 0, 1); return 1;
    case 'L': f->corr = (uint32_t)cli_uint("--corr-length", optarg, 1, RFT_MAX_ENTRIES); return 1;
    case 'm': f->map_path = optarg; return 1;
    case 'a': f->same = 1; return 1;
    default: return 0;
    }
}

void fm_source_check(fm_source *f)
{
    char why[RFT_FM_WHY];
    if (f->scenario || f->shares) {
        if (rft_fm_gen_options(&f->gen, f->scenario, f->shares, f->seed, f->systematic, f->corr,
                               why, sizeof why))
            usage_error("%s: %s", f->scenario && !rft_fm_scenario_find(f->scenario) ? "--scenario"
                                                                                      : "--shares",
                        why);
        f->have_gen = 1;
    } else if (f->seed_set || f->systematic >= 0 || f->corr || f->same) {
        usage_error("--seed, --systematic, --corr-length and --same go with --scenario or --shares");
    }
}

char *fm_source_describe(const fm_source *f)
{
    char gen[128] = "";     /* a scenario name (at most 31 bytes) and numbers */
    if (f->have_gen)
        snprintf(gen, sizeof gen, "%s seed=%llu %s", f->gen.name, (unsigned long long)f->gen.seed,
                 f->same ? "same" : "per-slice");
    return xasprintf("%s%s%s%s", f->map_path ? "csv:" : "", f->map_path ? f->map_path : "",
                     f->map_path && gen[0] ? " " : "", gen);
}
