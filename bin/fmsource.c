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
    case 'm': f->src.csv = optarg; return 1;
    case 'a': f->src.same = 1; return 1;
    default: return 0;
    }
}

/* A bad map file is the file's error, not the input stream's: its message
 * as it is (a stage's errors would name the input). */
static int read_or_die(void *ctx, const char *path, uint32_t entries, uint32_t blocks,
                       rft_fmset *s, char *why, size_t whylen)
{
    const fm_source *f = ctx;
    if (rft_faultmap_csv_read(path, entries, blocks, s, why, whylen)) {
        prog = f->prog;
        die("%s", why);
    }
    return 0;
}

void fm_source_check(fm_source *f)
{
    char why[RFT_FM_WHY];
    f->prog = prog;
    f->src.read_csv = read_or_die;
    f->src.read_ctx = f;
    if (f->scenario || f->shares) {
        if (rft_fm_gen_options(&f->src.gen, f->scenario, f->shares, f->seed, f->systematic,
                               f->corr, why, sizeof why))
            usage_error("%s: %s", f->scenario && !rft_fm_scenario_find(f->scenario) ? "--scenario"
                                                                                      : "--shares",
                        why);
        f->src.have_gen = 1;
    } else if (f->seed_set || f->systematic >= 0 || f->corr || f->src.same) {
        usage_error("--seed, --systematic, --corr-length and --same go with --scenario or --shares");
    }
}

void fm_source_load(const fm_source *f, uint32_t entries, uint32_t blocks, rft_fmset *s)
{
    char why[RFT_FM_WHY];
    if (rft_fm_source_load(&f->src, entries, blocks, s, why, sizeof why))
        die("%s", why);
}
