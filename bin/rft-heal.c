/* rft-heal - PE healing and SC healing (seed 003): stress profile of the
 * processing elements and stream cores of a trace, their duty cycles and
 * threshold-voltage shift with and without healing, the redundant
 * work-items of SC healing and its run-time cost.  The logic is lib/heal.c,
 * the tables bin/heal_report.c, the reading of the trace bin/heal_trace.c,
 * the choice of the resting SCs bin/heal_resting.c; here the options. */
#include <getopt.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "heal_report.h"
#include "heal_resting.h"
#include "heal_trace.h"

static const char usage[] =
    "rft-heal [-o FILE] [--scheme pe|sc] [--report "
    "summary|profile|slices|units|groups|cost|series]\n"
    "         [--params FILE] [--set KEY=VALUE]... [--hours H | --years Y] [--adapt H]\n"
    "         [--step H] [--policy young|permute] [--variation MV]\n"
    "         [--profile X=P,Y=P,Z=P,W=P,T=P] [--packing R] [--issue F]\n"
    "         [--degraded CU:[SIMD:]SC,... | --threshold MV] [--rest-duty F]\n"
    "         [--work-items N] [--max-wg N] [--max-wf N] [--wavefront-rule seed|ceil]\n"
    "         [--sweep N] [--source auto|bundles|writes] [--counts] [--max-memory MIB]\n"
    "         [--format table|tsv|csv|json] [FILE]\n"
    "PE healing and SC healing (seed 003): stress of the processing elements and stream "
    "cores, their threshold-voltage shift with and without healing, redundant work-items and "
    "the run-time cost\n"
    "\n"
    "  -o, --output FILE      Write the report to FILE instead of standard output\n"
    "      --scheme pe|sc     PE healing (default) or SC healing\n"
    "      --report name      summary (default, for people: the profile, the healing table "
    "and for SC healing the groups and cost tables), or one table: profile, slices, "
    "units, groups, cost or series (rft-heal(1))\n"
    "      --params FILE      The technology constants from FILE instead of seed 003's 65 nm "
    "set (rft-vth(1))\n"
    "      --set KEY=VALUE    Set one technology constant (rft-vth(1)); may be repeated\n"
    "      --hours H          The horizon in hours (default 360)\n"
    "      --years Y          The horizon in years of 8766 hours (instead of --hours)\n"
    "      --adapt H          Hours between two adaptations of PE healing (default 1)\n"
    "      --step H           Hours between two rows of --report series (default the horizon "
    "/ 36)\n"
    "      --policy young|permute  How PE healing reassigns instructions: bundle by bundle to "
    "the youngest slots (default), or whole slots permuted\n"
    "      --variation MV     Initial dVth: PEs from 0 (X) to MV (T), degraded SCs MV "
    "(default 0)\n"
    "      --profile X=P,Y=P,Z=P,W=P,T=P  Shares of ALU instructions per PE in percent, by hand "
    "instead of a trace (PE healing; slots permuted)\n"
    "      --packing R        With --profile: the share of a bundle's slots filled (default "
    "0.3)\n"
    "      --issue F          With --profile: the share of cycles an SC issues a bundle "
    "(default 1)\n"
    "      --degraded CU:[SIMD:]SC,...  The degraded SCs (SC below the SCs of a slice; SIMD "
    "0 when not given)\n"
    "      --threshold MV     Degraded: the SCs whose naive dVth at the horizon reaches MV\n"
    "      --rest-duty F      Duty of a resting SC, relative to its naive duty (default 0)\n"
    "      --work-items N     Work-items of the naive group for --report groups\n"
    "      --max-wg N         Work-items a work-group holds at most (default 256): a larger "
    "healthy group is halved\n"
    "      --max-wf N         Wavefronts a slice holds at once in the cost replay (default "
    "16)\n"
    "      --wavefront-rule seed|ceil  Wavefronts of a healthy group: one more when its "
    "redundant work-items end on a wavefront boundary (seed, default), or ceil(n / 64)\n"
    "      --sweep N          Degraded SCs per slice swept by the groups and cost tables (8, "
    "at most 15)\n"
    "      --source auto|bundles|writes  What makes a unit busy: VLIW bundle records, register "
    "writes (an approximation for GCN traces), or auto (default): bundles when the stream has "
    "any\n"
    "      --counts           The profile and slices tables (--report) in instructions and cycles "
    "instead of percentages\n"
    CLI_MEMORY_HELP
    "  -f, --format table|tsv|csv|json  Output: aligned tables for people (default), or one "
    "table\n";

/* --profile X=P,...: shares of ALU instructions per PE, in percent. */
static void profile_opt(heal_report *r, const char *s)
{
    static const char pe_names[] = "XYZWT";
    char *copy = xasprintf("%s", s), *save = NULL, *tok;
    int seen = 0;
    double sum = 0;
    for (tok = strtok_r(copy, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
        const char *at = tok[0] && tok[1] == '=' ? strchr(pe_names, tok[0]) : NULL;
        if (!at)
            usage_error("--profile: '%s' is not PE=PERCENT (PE one of X Y Z W T)", tok);
        int p = (int)(at - pe_names);
        if (seen >> p & 1)
            usage_error("--profile: PE %c given twice", tok[0]);
        seen |= 1 << p;
        r->share[p] = cli_double("--profile", tok + 2, 0, 100) / 100;
        sum += r->share[p];
    }
    free(copy);
    if (fabs(sum - 1) > 0.0005)
        usage_error("--profile: the shares sum to %.2f %%, not 100 %%", 100 * sum);
    r->have_profile = 1;
}

static void parse(int argc, char **argv, heal_report *r)
{
    static const struct option opts[] = {
        {"scheme", required_argument, 0, 'S'}, {"report", required_argument, 0, 'r'},
        {"params", required_argument, 0, 'p'}, {"set", required_argument, 0, 's'},
        {"hours", required_argument, 0, 'H'},  {"years", required_argument, 0, 'Y'},
        {"adapt", required_argument, 0, 'a'},  {"step", required_argument, 0, 't'},
        {"policy", required_argument, 0, 'P'}, {"variation", required_argument, 0, 'v'},
        {"profile", required_argument, 0, 'R'}, {"packing", required_argument, 0, 'k'},
        {"issue", required_argument, 0, 'i'},  {"degraded", required_argument, 0, 'd'},
        {"threshold", required_argument, 0, 'T'}, {"rest-duty", required_argument, 0, 'e'},
        {"work-items", required_argument, 0, 'w'}, {"max-wg", required_argument, 0, 'g'},
        {"max-wf", required_argument, 0, 'm'}, {"wavefront-rule", required_argument, 0, 'u'},
        {"sweep", required_argument, 0, 'W'},  {"source", required_argument, 0, 'c'},
        {"format", required_argument, 0, 'f'}, {"output", required_argument, 0, 'o'},
        {"counts", no_argument, 0, 'n'},       CLI_MEMORY_OPTION,
        {0, 0, 0, 0}};
    const char *params = NULL;
    rft_params set;
    char why[512];
    int ch, horizon = 0, have_policy = 0;
    rft_params_init(&set);
    while ((ch = cli_getopt(argc, argv, "o:f:", opts)) != -1) {
        switch (ch) {
        case 'S': r->scheme = cli_choice("--scheme", optarg, "pe|sc"); break;
        case 'r':
            r->report = cli_choice("--report", optarg,
                                   "summary|profile|slices|units|groups|cost|series");
            break;
        case 'p': params = r->params = optarg; break;
        case 's':
            if (rft_params_set_arg(&set, optarg, CLI_SET_ORIGIN, why, sizeof why))
                usage_error("%s", why);
            break;
        case 'H':
            r->hours = cli_double("--hours", optarg, 1e-3, 1e9);
            horizon |= 1;
            break;
        case 'Y':
            r->hours = 8766 * cli_double("--years", optarg, 1e-6, 1e5);
            horizon |= 2;
            break;
        case 'a': r->adapt = cli_double("--adapt", optarg, 1e-3, 1e9); break;
        case 't': r->step = cli_double("--step", optarg, 1e-3, 1e9); break;
        case 'P':
            r->policy = cli_choice("--policy", optarg, "young|permute");
            have_policy = 1;
            break;
        case 'v': r->variation = cli_double("--variation", optarg, 0, 1000); break;
        case 'R': profile_opt(r, optarg); break;
        case 'k': r->packing = cli_double("--packing", optarg, 0, 1); break;
        case 'i': r->issue = cli_double("--issue", optarg, 0, 1); break;
        case 'd': r->degraded = optarg; break;
        case 'T':
            r->threshold = cli_double("--threshold", optarg, 0, 1e4);
            r->have_threshold = 1;
            break;
        case 'e': r->rest = cli_double("--rest-duty", optarg, 0, 1); break;
        case 'w':
            r->work_items = (uint32_t)cli_uint("--work-items", optarg, 1, 1u << 20);
            r->have_wi = 1;
            break;
        case 'g': r->o.max_wg = (uint32_t)cli_uint("--max-wg", optarg, 1, 1u << 20); break;
        case 'm': r->o.max_wf = (uint32_t)cli_uint("--max-wf", optarg, 1, 4096); break;
        case 'u': r->o.wfrule = cli_choice("--wavefront-rule", optarg, "seed|ceil"); break;
        case 'W':
            r->o.sweep = (int)cli_uint("--sweep", optarg, 1, RFT_HEAL_MAX_D - 1);
            r->o.sweep_fit = 0;
            break;
        case 'c': r->o.source = cli_choice("--source", optarg, "auto|bundles|writes"); break;
        case 'f': r->fmt = cli_format(optarg); break;
        case 'o': r->output = optarg; break;
        case 'n': r->counts = 1; break;
        case CLI_MEMORY_OPT: rft_mem_limit(cli_max_memory(optarg), NULL); break;
        default: cli_bad_option(argv);
        }
    }
    r->input = cli_input(argc, argv);
    if (params || set.n)
        cli_nbti_params(&r->p, params, &set);
    rft_params_free(&set);
    if (r->degraded && r->have_threshold)
        usage_error("--degraded and --threshold: give one of them");
    if (horizon == 3)
        usage_error("--hours and --years: give one of them");
    if (r->have_profile && have_policy && r->policy == RFT_HEAL_YOUNG)
        usage_error("--policy young: a profile given by hand has no bundles to reassign one by "
                    "one; its slots are permuted (--policy permute, or leave --policy out)");
    if (r->have_profile && r->scheme == 1)
        usage_error("--profile: a profile of PEs has no stream cores: use it with --scheme pe");
    if (r->report == HEAL_SUMMARY && r->fmt != FMT_TABLE)
        usage_error("--format: the summary holds several tables: choose one with --report");
    /* the other tables' percentages are model results (duties with healing),
       or read back from the counts beside them (overhead%) */
    if (r->counts && r->report != HEAL_PROFILE && r->report != HEAL_SLICES)
        usage_error("--counts goes with --report profile or slices");
    if (r->counts && r->have_profile)
        usage_error("--counts: a profile given by hand has shares, not counts");
    if ((r->report == HEAL_SLICES || r->report == HEAL_COST) && r->have_profile)
        usage_error("--report: a profile given by hand has no slices or schedule");
}

int main(int argc, char **argv)
{
    heal_report r = {.hours = 360, .adapt = 1, .packing = 0.3, .issue = 1, .fmt = FMT_TABLE};
    argc = cli_take_quiet(argc, argv);   /* --quiet: no progress to silence, but taken */
    cli_shard_ok = 1;
    cli_init(argc, argv, usage);
    argc = cli_take_shard(argc, argv);   /* the reader's (pipeline.c) */
    rft_nbti_seed003(&r.p);
    rft_heal_opts_default(&r.o);
    r.o.sweep_fit = 1;
    parse(argc, argv, &r);
    notes_init(&r.nt, 1, &r.input, "inputs");
    r.rp_want = r.scheme == 1 && (r.report == HEAL_COST || r.report == HEAL_SUMMARY);
    cli_stdout_to(r.output);
    rft_heal *h = NULL;     /* a profile by hand, or groups of a given size: no trace */
    if (!r.have_profile && !(r.report == HEAL_GROUPS && r.have_wi)) {
        h = heal_trace_read(&r);
        if (r.scheme == 1)
            heal_resting_choose(&r, h);
    }
    r.h = h;
    heal_report_print(&r);
    notes_free(&r.nt);
    rft_heal_free(h);
    free((char *)r.rp.why);
    return cli_close_stdout();
}
