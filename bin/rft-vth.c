/* rft-vth - duty-cycle and NBTI report from duty maps (rft-duty(1)): average
 * duty per bit position, longest '0' and '1' duty cycles, threshold-voltage
 * degradation, switching delay, SNM loss and lifetime, and their course over
 * the years; several maps side by side.  The maps are read by lib/dutycmp.c
 * (rft_duty_cmp), the figures come from lib/nbti.c, the tables from
 * bin/vth_report.c. */
#include <getopt.h>
#include <stdlib.h>
#include <string.h>

#include "pipeline.h"
#include "vth_report.h"

static const char usage[] =
    "rft-vth [-o FILE] [--params FILE] [--set KEY=VALUE]... [--years Y] [--step Y]\n"
    "        [--by summary|bit|reg|cells|year|fault]\n"
    "        [--slice CU:SIMD] [--per-slice] [--include-unused] [--show-params]\n"
    "        [--format table|tsv|csv|json] [[LABEL=]FILE...]\n"
    "Duty cycles, NBTI threshold-voltage degradation, switching delay, SNM loss and lifetime "
    "from duty maps, over the years\n"
    "\n"
    "  -o, --output FILE      Write the table to FILE instead of standard output\n"
    "      --params FILE      Technology constants from FILE instead of the built-in ones\n"
    "      --set KEY=VALUE    Set one constant, over the built-in value or the file's; may "
    "be repeated\n"
    "      --years Y          The lifetime for the absolute dVth, the SNM loss and the "
    "delay\n"
    "      --step Y           With --by year: years between rows (default 1)\n"
    "      --by summary|bit|reg|cells|year|fault  The view (default summary)\n"
    "      --slice CU:SIMD    Only this slice\n"
    "      --per-slice        The summary of every slice before that of all\n"
    "      --include-unused   Count never-used entries in averages and per-register rows\n"
    "      --show-params      Print the constants in use (after --params) and exit\n"
    "  -f, --format table|tsv|csv|json  Table for people (default), TSV, CSV or JSON lines\n";

/* The options into r; 1 with --show-params. */
static int parse(int argc, char **argv, vth_report *r)
{
    static const struct option opts[] = {
        {"params", required_argument, 0, 'p'}, {"years", required_argument, 0, 'y'},
        {"by", required_argument, 0, 'b'},     {"slice", required_argument, 0, 'S'},
        {"per-slice", no_argument, 0, 'P'},    {"include-unused", no_argument, 0, 'u'},
        {"show-params", no_argument, 0, 'w'},  {"format", required_argument, 0, 'f'},
        {"set", required_argument, 0, 's'},    {"step", required_argument, 0, 't'},
        {"output", required_argument, 0, 'o'}, {0, 0, 0, 0}};
    const char *params = NULL, *output = NULL;
    int c, show = 0, step_set = 0;
    rft_params set;
    char why[RFT_PARAM_WHY];
    rft_nbti_defaults(&r->p);
    rft_params_init(&set);
    while ((c = cli_getopt(argc, argv, "o:f:", opts)) != -1) {
        switch (c) {
        case 'p': params = optarg; break;
        case 's':
            if (rft_params_set_arg(&set, optarg, CLI_SET_ORIGIN, why, sizeof why))
                usage_error("%s", why);
            break;
        case 'y':
            r->years = cli_double("--years", optarg, -1e300, 1e300);
            if (!(r->years > 0))
                usage_error("--years: the lifetime must be more than 0 years");
            if (r->years > 1e6)
                usage_error("--years: %g is out of range (at most 1e6)", r->years);
            break;
        case 'b': r->by = cli_choice("--by", optarg, "summary|bit|reg|cells|year|fault"); break;
        case 't':
            step_set = 1;
            r->step = cli_double("--step", optarg, -1e300, 1e300);
            if (!(r->step > 0) || r->step > 1e6)
                usage_error("--step: %s years is not in (0, 1e6]", optarg);
            break;
        case 'S':
            cli_slice("--slice", optarg, 65535, "CU:SIMD", &r->cu, &r->simd);
            r->slice_set = 1;
            break;
        case 'P': r->per_slice = 1; break;
        case 'u': r->include_unused = 1; break;
        case 'w': show = 1; break;
        case 'f': r->fmt = cli_format(optarg); break;
        case 'o': output = optarg; break;
        default: cli_bad_option(argv);
        }
    }
    if (step_set && r->by != VTH_BY_YEAR)
        usage_error("--step applies to --by year only");
    if (r->by == VTH_BY_FAULT)      /* every cell of a class: the same cells in every map */
        r->include_unused = 1;
    if (r->by == VTH_BY_YEAR && r->years / r->step > 100000)
        usage_error("--step: more than 100000 rows to --years %g", r->years);
    if (params || set.n)
        cli_nbti_params(&r->p, params, &set);
    r->params = params;
    for (int i = 0; i < set.n; i++) {
        char *s = xasprintf("%s%s%s=%s", r->sets ? r->sets : "", i ? " " : "", set.p[i].key, set.p[i].val);
        free(r->sets);
        r->sets = s;
    }
    rft_params_free(&set);
    cli_stdout_to(output);
    return show;
}

/* [LABEL=]FILE: the label into *label (allocated when given), the file into *path. */
static void operand(const char *a, const char **label, char **own, const char **path)
{
    const char *eq = strchr(a, '=');
    size_t k = eq ? (size_t)(eq - a) : 0;
    if (eq && k > 0 && strspn(a, "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz"
                                 "0123456789_.+-") == k) {
        *label = *own = xasprintf("%.*s", (int)k, a);
        *path = eq + 1;
    } else {
        const char *slash = strrchr(a, '/');
        *label = strcmp(a, "-") == 0 ? "map" : slash ? slash + 1 : a;
        *path = a;
    }
    if (!**path)
        usage_error("'%s': no file after the label", a);
}

typedef struct {
    int duty_ran;
    vth_report *r;
    size_t i;
} map_read;

/* The input's header: whether rft-duty(1) wrote the stream (its duty.span
 * key), and what it says for the notes. */
static void from_duty(cli_job *j, const rft_header *in)
{
    map_read *m = j->ctx;
    m->duty_ran = rft_header_get(in, "duty.span") != NULL;
    vth_map_header(m->r, m->i, in);
}

/* Map i of c, read from path through the stage driver. */
static void read_map(vth_report *r, rft_duty_cmp *c, size_t i, const char *path)
{
    map_read mr = {.r = r, .i = i};
    cli_job j = {.input = path, .prog = prog, .st = rft_duty_cmp_stage(c, i),
                 .read_flags = RFT_IN_AHEAD,      /* decompression beside the accounting */
                 .check = from_duty, .ctx = &mr, .free_ctx = cli_ctx_borrowed};
    if (!j.st)
        die("out of memory");
    cli_jobs_run(&j, 1);
    const rft_duty_map_stats *m = rft_duty_cmp_map(c, i);
    if (m->trace)
        die("%s: record %llu: a trace, not a duty map: run rft-duty(1) first", path,
            (unsigned long long)m->trace);
    if (!m->nduty && mr.duty_ran)
        die("%s: an empty duty map: rft-duty(1) saw no slice (a trace without begin, write or "
            "end records)", path);
    if (!m->nduty)
        die("%s: no duty map in the stream: run rft-duty(1) first", path);
    /* cells that never held '1' nor were off: idle registers, not a kernel's */
    if (m->all.used && m->all.s1 == 0 && m->all.soff == 0)
        warnx("warning: %s: no cell ever held '1' or was switched off: every used entry held '0' "
              "the whole window (a trace without register writes?); longest_0%% is 100 %% and "
              "the lifetime is that of idle registers", path);
}

int main(int argc, char **argv)
{
    vth_report r = {.years = 3, .step = 1, .fmt = FMT_TABLE};
    argc = cli_take_quiet(argc, argv);   /* --quiet: no progress to silence, but taken */
    cli_init(argc, argv, usage);
    if (parse(argc, argv, &r)) {
        vth_show_params(&r.p, r.fmt);
        free(r.sets);
        return cli_close_stdout();
    }
    r.nmaps = argc - optind ? argc - optind : 1;
    r.label = xrealloc(NULL, (size_t)r.nmaps * sizeof *r.label);
    /* static: still reachable when read_map dies (a leak checker's view at exit) */
    static const char **path;
    path = xrealloc(NULL, (size_t)r.nmaps * sizeof *path);
    char **own = xrealloc(NULL, (size_t)r.nmaps * sizeof *own);
    for (int i = 0; i < r.nmaps; i++) {
        own[i] = NULL;
        operand(optind + i < argc ? argv[optind + i] : "-", &r.label[i], &own[i], &path[i]);
    }
    rft_duty_cmp_opts o = {.per_bit = r.by == VTH_BY_BIT, .per_reg = r.by == VTH_BY_REG,
                           .include_unused = r.include_unused, .by_fault = r.by == VTH_BY_FAULT,
                           .slice_set = r.slice_set, .cu = r.cu, .simd = r.simd,
                           .each = r.by == VTH_BY_CELLS ? vth_cell_rows : NULL, .each_ctx = &r};
    rft_duty_cmp *c = rft_duty_cmp_new(&o, (size_t)r.nmaps);
    if (!c)
        die("out of memory");
    r.cmp = c;
    notes_init(&r.nt, (size_t)r.nmaps, r.label, "maps");
    r.scheme = xrealloc(NULL, (size_t)r.nmaps * sizeof *r.scheme);
    memset(r.scheme, 0, (size_t)r.nmaps * sizeof *r.scheme);
    r.steady = memset(xrealloc(NULL, (size_t)r.nmaps), 0, (size_t)r.nmaps);
    r.unused_on = memset(xrealloc(NULL, (size_t)r.nmaps), 0, (size_t)r.nmaps);
    if (r.by == VTH_BY_CELLS)
        vth_cells_open(&r);
    for (int i = 0; i < r.nmaps; i++)
        read_map(&r, c, (size_t)i, path[i]);
    rft_duty_cmp_finish(c);
    vth_print(&r);
    rft_duty_cmp_free(c);
    notes_free(&r.nt);
    for (int i = 0; i < r.nmaps; i++)
        free(own[i]), free(r.scheme[i]);
    free(r.scheme);
    free(r.steady);
    free(r.unused_on);
    free(own);
    free(path);
    free(r.label);
    free(r.sets);
    return cli_close_stdout();
}
