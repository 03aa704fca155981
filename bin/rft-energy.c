/* rft-energy - energy and first-order performance cost of register-file
 * schemes: seed 001 (Conv, Smooth, DC-Patch) from rft-dcpatch's counters,
 * seed 002 (baseline, WC, ARGO, RC+RAR, ...) from rft-gate's counters and
 * the powered cells of each stream.  The scan of a stream is lib/escan.c
 * (alone with --scan, a stage), the pricing bin/pricing.c over
 * lib/energy.c. */
#include <getopt.h>
#include <stdlib.h>
#include <string.h>

#include "pipeline.h"
#include "pricing.h"

static const char usage[] =
    "rft-energy [-o FILE] [--params FILE] [--model M] [--set KEY=VALUE]... [--scenario NAME] "
    "[--absolute]\n"
    "           [--with-slowdown] [--leak-over replayed|trace|upper] [--format table|tsv|csv|json]\n"
    "           [LABEL=]FILE...\n"
    "rft-energy --show-params [-o FILE] [--params FILE] [--model M] [--set KEY=VALUE]... [--format F] "
    "[FILE]\n"
    "rft-energy --scan [-o FILE] [--level N] [--flush] [--bank N] [FILE]\n"
    "Energy and first-order performance cost of register-file schemes (seeds 001 and 002)\n"
    "\n"
    "      --params FILE      The parameter file, a path or the name of a set (seed001-28nm, "
    "seed002-32nm, nvidia-undervolt-28nm, nvidia-gating-32nm, ...: searched in $RFT_PARAMS_DIR, "
    "then the installed params); default: the set of the model for the first input's register "
    "file, seed001-28nm (undervolt) or seed002-32nm (gating) for GCN's, nvidia-undervolt-28nm or "
    "nvidia-gating-32nm for NVIDIA's 32 lanes x 512 entries\n"
    "      --model undervolt|gating  Without --params: the default set of this model (default: "
    "undervolt for streams of rft-dcpatch, else gating)\n"
    "      --set KEY=VALUE    Replace one parameter; may be repeated\n"
    "      --scenario NAME    undervolt: the slice point of the DC-Patch rows, instead of "
    "the scenario named in each input's header\n"
    "      --absolute         Categories and totals in nJ instead of percent of the "
    "reference\n"
    "      --with-slowdown    gating: count the leakage over the cycles a scheme adds (the upper "
    "bound: --leak-over upper)\n"
    "      --leak-over replayed|trace|upper  The cycles leakage is priced over: the trace's "
    "plus those the replay adds (default; the upper bound's for DC-Patch and nothing for "
    "gating where a stream is not replayed), the trace's alone, or the trace's plus the "
    "upper bound's\n"
    "      --show-params      Print the parameters (key, value, source) and exit; inputs "
    "only choose the default file\n"
    "  -f, --format table|tsv|csv|json  Aligned table (default), TSV, CSV or JSON lines\n"
    "      --scan             Write the scan of the input (one FILE, standard input by "
    "default) instead of pricing it (see Scans)\n"
    "      --bank N           With --scan: power switched in banks of N entries, 1 to 65535\n"
    CLI_FILTER_HELP CLI_MEMORY_HELP;

typedef struct {
    pricing p;
    int show;
} energy_cli;

static int price(cli_job *j)
{
    energy_cli *c = j->ctx;
    pricing *p = &c->p;
    if (c->show) {
        /* an input only chooses the default file */
        char why[320];
        rft_reader *r = NULL;
        if (p->n && !(r = rft_reader_open(p->in[0].path, why, sizeof why)))
            die("%s: %s", p->in[0].path, why);
        pricing_load(p, r ? rft_reader_header(r) : NULL);
        rft_reader_close(r);
        pricing_show(p);
    } else {
        for (int i = 0; i < p->n; i++)
            pricing_read(p, i);
        pricing_table(p);
    }
    pricing_free(p);
    free(c);
    return cli_close_stdout();
}

/* The inputs, [LABEL=]FILE each. */
static void inputs(pricing *p, int n, char **arg)
{
    if (n > 64)
        usage_error("64 inputs at most");
    p->n = n;
    p->in = xrealloc(NULL, (size_t)(n ? n : 1) * sizeof *p->in);
    memset(p->in, 0, (size_t)(n ? n : 1) * sizeof *p->in);
    for (int i = 0; i < n; i++) {
        char *a = arg[i], *eq = strchr(a, '=');
        size_t k = 0;
        while (eq && a + k < eq && (strchr("_.+-", a[k]) || (a[k] >= '0' && a[k] <= '9') ||
                                    ((a[k] | 32) >= 'a' && (a[k] | 32) <= 'z')))
            k++;
        if (eq && k > 0 && a + k == eq && eq[1]) {
            *eq = 0;
            p->in[i].label = a;
            p->in[i].path = eq + 1;
        } else {
            p->in[i].path = a;
        }
        for (int j = 0; j < i; j++)
            if (strcmp(p->in[i].path, "-") == 0 && strcmp(p->in[j].path, "-") == 0)
                usage_error("standard input given twice");
    }
}

static void parse(int argc, char **argv, cli_job *j)
{
    static const struct option opts[] = {
        CLI_FILTER_OPTIONS, CLI_MEMORY_OPTION, {"params", required_argument, 0, 'p'}, {"model", required_argument, 0, 'm'}, {"set", required_argument, 0, 'S'},
        {"scenario", required_argument, 0, 's'}, {"absolute", no_argument, 0, 'a'},
        {"show-params", no_argument, 0, 'w'}, {"format", required_argument, 0, 'f'},
        {"with-slowdown", no_argument, 0, 'W'}, {"scan", no_argument, 0, 'c'},
        {"leak-over", required_argument, 0, 'L'},
        {"bank", required_argument, 0, 'b'}, {0, 0, 0, 0}};
    energy_cli *c = xrealloc(NULL, sizeof *c);      /* one per call */
    pricing *p = &c->p;
    memset(c, 0, sizeof *c);
    p->fmt = FMT_TABLE;
    rft_params_init(&p->ps);
    rft_escan_opts so;
    rft_escan_opts_default(&so);
    so.pass = 0;
    so.emit = 1;
    int ch, scan = 0, priced = 0, scanned = 0;  /* options of pricing, of --scan given */
    char why[RFT_PARAM_WHY];
    /* -p is --plots in the study scripts (rft(1), OPTIONS) */
    static const cli_old old[] = {{"-p", 'p', "--params"}, {0, 0, 0}};
    while ((ch = cli_getopt_old(argc, argv, "o:p:f:", opts, old)) != -1) {
        priced |= strchr("pmSsawfWL", ch) != NULL;
        scanned |= strchr("lFb", ch) != NULL || ch == CLI_MEMORY_OPT;
        switch (ch) {
        case 'p': p->params = optarg; break;
        case 'm': p->model = cli_choice("--model", optarg, "undervolt|gating") ? RFT_EM_GATING : RFT_EM_UNDERVOLT; break;
        case 'S':
            if (rft_params_set_arg(&p->ps, optarg, CLI_SET_ORIGIN, why, sizeof why))
                usage_error("%s", why);
            break;
        case 's': p->scenario = optarg; break;
        case 'a': p->absolute = 1; break;
        case 'W': p->slowdown = 1; break;
        case 'L': p->leak = cli_choice("--leak-over", optarg, "replayed|trace|upper"); break;
        case 'w': c->show = 1; break;
        case 'f': p->fmt = cli_format(optarg); break;
        case 'c': scan = 1; break;
        case CLI_MEMORY_OPT: cli_job_memory(j, optarg); break;
        case 'b': so.bank = (uint32_t)cli_uint("--bank", optarg, 1, RFT_MAX_ENTRIES); break;
        default:
            if (!cli_filter_option(ch, &j->output, &j->wo))
                cli_bad_option(argv);
        }
    }
    if (scan) {     /* a stage: the scan record of the input */
        if (priced)
            usage_error("--scan takes none of --params, --model, --set, --scenario, --absolute, "
                        "--with-slowdown, --leak-over, --show-params, --format");
        j->input = cli_input(argc, argv);
        j->read_flags = RFT_IN_AHEAD;      /* decompressing is most of the work: a thread of its own */
        j->st = rft_escan_new(&so);
        rft_params_free(&p->ps);
        free(c);
        return;
    }
    if (!j->alone)
        usage_error("only --scan is a stage");
    if (cli_shard_n)
        usage_error("--shard: with --scan only (rft-merge adds the scans of shards)");
    if (scanned)
        usage_error("--level, --flush, --bank and --max-memory apply to --scan only");
    cli_stdout_to(j->output);   /* the table's file */
    j->output = NULL;
    int n = argc - optind;
    if (n == 0 && !c->show)
        usage_error("no input");
    if (n == 0 && !p->params && !p->model)
        usage_error("--show-params needs --params, --model or an input to choose the file");
    inputs(p, n, argv + optind);
    p->self = cli_self_dir(argv[0]);
    j->run = price;
    j->ctx = c;
}

const cli_prog cli_energy = {"rft-energy", usage, parse, 0};

#ifndef CLI_NO_MAIN
int main(int argc, char **argv) { return cli_prog_main(&cli_energy, argc, argv); }
#endif
