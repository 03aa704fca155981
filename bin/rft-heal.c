/* rft-heal - PE healing and SC healing (seed 003): stress profile of the
 * processing elements and stream cores of a trace, their duty cycles and
 * threshold-voltage shift with and without healing, the redundant
 * work-items of SC healing and its run-time cost.  The logic is lib/heal.c,
 * the tables bin/heal_report.c. */
#include <getopt.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "heal_report.h"
#include "pipeline.h"

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

/* ctx: where the profile goes, taken from the stage before the driver frees it */
/* ctx: the report; the profile into r->taken */
static void take_profile(cli_job *j)
{
    heal_report *r = j->ctx;
    r->taken = rft_heal_stage_take(j->st);
}

/* The trace's header: the tables' notes (runs, its arch).  Seed 003 is of
 * execution units on Evergreen: its register file is no seed's GCN SIMD. */
static void header_notes(cli_job *j, const rft_header *in)
{
    heal_report *r = j->ctx;
    r->nt.units_only = 1;
    notes_header(&r->nt, 0, in);
}

/* ctx: the report; the total row of the replay of j->ctx's degraded SCs */
typedef struct {
    heal_report *r;
    uint32_t d;
} heal_rp;

static void take_replay(cli_job *j)
{
    heal_rp *c = j->ctx;
    const rft_replay_row *w = replay_row(j->st, RFT_RP_TOTAL, 0, 0, NULL);
    char *old = (char *)c->r->rp.why;     /* each replay of the sweep tells the same */
    c->r->rp = replay_info_of(j->st);
    free(old);
    if (c->r->rp.why)
        c->r->rp.why = xasprintf("%s", c->r->rp.why);   /* outlives the stage */
    if (w)
        c->r->rp_total[c->d] = *w;
}

/* The trace's profile, read through the stage driver; with the cost table,
 * the replay of 1..sweep degraded SCs in the same pass. */
static rft_heal *read_trace(heal_report *r)
{
    rft_heal *h = NULL;
    int n = r->rp_want ? 1 + r->o.sweep : 1, len[RFT_HEAL_MAX_D];
    cli_job j[RFT_HEAL_MAX_D], *pipe[RFT_HEAL_MAX_D];
    heal_rp rc[RFT_HEAL_MAX_D];
    j[0] = (cli_job){.input = r->input, .prog = prog, .read_flags = RFT_IN_AHEAD,
                     .st = rft_heal_stage_new(&r->o), .report = take_profile,
                     .check = header_notes, .ctx = r, .free_ctx = cli_ctx_borrowed};
    if (!j[0].st)
        die("out of memory");
    for (int d = 0; d < n; d++) {
        pipe[d] = &j[d];
        len[d] = 1;
        if (!d)
            continue;
        rft_replay_opts o;
        rft_replay_opts_default(&o);
        o.pass = o.emit = 0;
        o.degraded_scs = (uint32_t)d;
        o.degraded_sweep = 1;   /* the table stops below the slice's SCs */
        o.max_wg = r->o.max_wg;
        o.wfrule = r->o.wfrule;
        rc[d] = (heal_rp){r, (uint32_t)d};
        j[d] = (cli_job){.input = r->input, .prog = prog, .st = rft_replay_new(&o),
                         .report = take_replay, .ctx = &rc[d], .free_ctx = cli_ctx_borrowed};
        if (!j[d].st)
            die("out of memory");
    }
    cli_pipelines_run(pipe, len, n, NULL);
    h = r->taken;
    if (!rft_heal_span(h))
        die("%s: no records with a cycle: nothing to profile", r->input);
    if (r->scheme == 0 && !rft_heal_bundles(h))
        die("%s: no bundle records: PE healing needs VLIW bundles (rft-decode --input-format evg, "
            "or a VLIW model of rft-synth), or --profile", r->input);
    return h;
}

/* Without --degraded: a --threshold that selects no SC is an error naming
 * the most aged SC; the most stressed SC chosen among equals is warned of. */
static void most_stressed(const heal_report *r, const rft_heal *h)
{
    const rft_heal_slice *best = NULL;
    uint32_t bj = 0;
    size_t ties = 0;
    for (size_t i = 0; i < rft_heal_nslices(h); i++) {
        const rft_heal_slice *s = rft_heal_slice_at(h, i);
        for (uint32_t j = 0; j < rft_heal_nsc(h); j++) {
            double a = rft_heal_sc_alpha(h, s, j), b = best ? rft_heal_sc_alpha(h, best, bj) : -1;
            if (a > b)
                best = s, bj = j, ties = 1;
            else if (a == b)
                ties++;
        }
    }
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

/* SC healing: the SCs of --degraded, those --threshold picks, or the most
 * stressed one (seed 003 Fig. 8) rest. */
static void choose_resting(const heal_report *r, rft_heal *h)
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
    rft_heal *h = NULL;
    if (!r.have_profile && !(r.report == HEAL_GROUPS && r.have_wi)) {
        h = read_trace(&r);
        if (r.scheme == 1)
            choose_resting(&r, h);
    }
    r.h = h;
    heal_report_print(&r);
    notes_free(&r.nt);
    rft_heal_free(h);
    free((char *)r.rp.why);
    return cli_close_stdout();
}
