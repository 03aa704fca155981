/* rft-faultmap - fault maps of register-file slices (seed 001 Table 1):
 * generated per scenario or read from CSV; attached to an rft stream
 * (lib/faultmap.c), or printed as CSV, a picture or statistics (fmprint.c). */
#include <getopt.h>

#include "fmprint.h"
#include "fmsource.h"
#include "pipeline.h"

static const char usage[] =
    "rft-faultmap [--scenario NAME] [--seed N] [--shares A/B/C/D/E] [--systematic W]\n"
    "             [--corr-length N] [--map FILE.csv] [--same] [--max-output SIZE] [-o FILE]\n"
    "             [--level N] [--flush]\n"
    "             [FILE]\n"
    "rft-faultmap --csv|--show|--stats [-o FILE] [--format table|tsv|csv|json] [--counts]\n"
    "             [--slice LIST]"
    " [--entries N] [--blocks N] [map options] [FILE]\n"
    "Fault maps of register-file slices below the safe supply voltage (DC-Patch, seed 001)\n"
    "\n"
    FM_SOURCE_HELP
    "      --max-output SIZE  Refuse, before writing it, a map that would bring the maps "
    "written past SIZE bytes (K, M, G, T: KiB ... TiB; default 64M; 0: no limit)\n"
    CLI_FILTER_HELP
    "      --csv              Print the maps as CSV, the format --map reads\n"
    "      --show             Draw each map, a character per block of every entry\n"
    "      --stats            One row per map: entries per class of faulty bits, faulty entries\n"
    "  -f, --format F         table, tsv, csv or json (JSON lines) for --stats\n"
    "      --counts           --stats with counts in place of the percentages (same rows)\n"
    "      --slice LIST       Comma-separated cu:simd or *\n"
    "      --entries N        Entries per slice of printed maps (default 256; a stream stage "
    "uses the stream's)\n"
    "      --blocks N         Blocks per entry of printed maps (default 4; a stream stage uses "
    "the stream's)\n";

static void parse(int argc, char **argv, cli_job *j)
{
    static const struct option opts[] = {
        FM_SOURCE_OPTIONS,                       CLI_FILTER_OPTIONS,
        {"csv", no_argument, 0, 'C'},
        {"show", no_argument, 0, 'W'},           {"stats", no_argument, 0, 'T'},
        {"format", required_argument, 0, 'f'},   {"slice", required_argument, 0, 's'},
        {"counts", no_argument, 0, 'c'},
        {"entries", required_argument, 0, 'N'},  {"blocks", required_argument, 0, 'B'},
        {"max-output", required_argument, 0, 'X'},
        {0, 0, 0, 0}};
    fm_print *p = xrealloc(NULL, sizeof *p);    /* one per stage of a pipeline */
    int fmt_set = 0, geom_set = 0, ch;
    const char *max_out = NULL;
    *p = (fm_print){.entries = 256, .blocks = 4, .fmt = FMT_TABLE, .fm = FM_SOURCE_INIT};
    while ((ch = cli_getopt(argc, argv, "o:f:", opts)) != -1) {
        switch (ch) {
        case 'C': case 'W': case 'T': {
            int m = ch == 'C' ? FM_PRINT_CSV : ch == 'W' ? FM_PRINT_SHOW : FM_PRINT_STATS;
            if (p->mode && p->mode != m)
                usage_error("--csv, --show and --stats exclude each other");
            p->mode = m;
            break;
        }
        case 'f': p->fmt = cli_format(optarg); fmt_set = 1; break;
        case 'c': p->counts = 1; break;
        case 'X': max_out = optarg; break;
        case 's': p->slices = optarg; break;
        case 'N':
            p->entries = (uint32_t)cli_uint("--entries", optarg, 1, RFT_MAX_ENTRIES);
            geom_set = 1;
            break;
        case 'B':
            p->blocks = (uint32_t)cli_uint("--blocks", optarg, 1, RFT_MAX_LANES);
            geom_set = 1;
            break;
        default:    /* -o, --level, --flush: cli_filter_option */
            if (!fm_source_option(&p->fm, ch) && !cli_filter_option(ch, &j->output, &j->wo))
                cli_bad_option(argv);
        }
    }
    j->input = cli_input(argc, argv);
    fm_source_check(&p->fm);
    int given = p->fm.src.csv || p->fm.src.have_gen;
    if ((fmt_set || p->counts) && p->mode != FM_PRINT_STATS)
        usage_error("--format and --counts go with --stats");
    if (!p->mode) {
        if (!given)
            usage_error("a map is needed: --scenario NAME (or --shares) or --map FILE.csv");
        if (p->slices || geom_set)
            usage_error("--slice, --entries and --blocks go with --csv, --show or --stats "
                        "(a stream has its own geometry)");
        j->st = rft_faultmap_stage_new(&p->fm.src);
        if (j->st && max_out)
            rft_faultmap_stage_max_output(j->st, cli_bytes("--max-output", max_out));
        j->ctx = p;     /* the stage reads its map options (p->fm) at its start */
        return;
    }
    if (max_out)
        usage_error("--max-output goes with a stream's maps, not --csv, --show or --stats");
    cli_stdout_to(j->output);   /* what --csv, --show or --stats print */
    j->output = NULL;
    if (given && optind < argc)
        usage_error("FILE is a stream whose maps are printed: no map options with it");
    fm_print_job(p, j);
}

const cli_prog cli_faultmap = {"rft-faultmap", usage, parse, 0};

#ifndef CLI_NO_MAIN
int main(int argc, char **argv) { return cli_prog_main(&cli_faultmap, argc, argv); }
#endif
