/* rft-dcpatch - DC-Patch (seed 001 section IV) over an rft stream
 * (lib/dcpatch.c, lib/dcpatch_stage.c): where every register write goes, mispredictions, LDS
 * spills, occupancy and the events an energy model prices, as counters
 * records and a table (dcpreport.c); every write of the output stream is
 * placed (a patch record before it) for rft-duty(1). */
#include <getopt.h>
#include <stdlib.h>
#include <string.h>

#include "dcpatch.h"
#include "dcpreport.h"
#include "fmsource.h"
#include "pipeline.h"

static const char usage[] =
    "rft-dcpatch [--scenario NAME] [--seed N] [--shares A/B/C/D/E] [--systematic W]\n"
    "            [--corr-length N] [--map FILE.csv] [--same] [--pick low|high]\n"
    "            [--share-reliable yes|no] [--repatch preventive|release-first]\n"
    "            [--stall-cycles N] [--stages N] [--check] [--log FILE] [--summary[=FILE] | -s FILE]\n"
    "            [--report perf|occupancy|events] [--by kernel|slice] [--counts]\n"
    "            [--format table|tsv|csv|json] [-o FILE] [--level N] [--flush] [FILE]\n"
    "DC-Patch: compressed registers patched into faulty register-file entries (seed 001)\n"
    "\n"
    FM_SOURCE_HELP
    "      --pick low|high    Which free entry or block the priority encoders pick (default "
    "low)\n"
    "      --share-reliable yes|no  Whether a compressed register may take a free block of a "
    "reliable entry that other compressed registers use\n"
    "      --repatch preventive|release-first  Whether a state change searches while holding "
    "the old patch (default) or after releasing it\n"
    "      --stall-cycles N   Stall of a misprediction (default 4)\n"
    "      --stages N         Extra pipeline cycles on every result in the perf table's replay, "
    "0 to 1000 (default 2, seed 001 IV-E)\n"
    "      --check            Check the invariants after every event\n"
    "      --log FILE         Log every decision\n"
    "      --summary[=FILE]   Print the table\n"
    "  -s FILE                The same as --summary=FILE\n"
    "      --report perf|occupancy|events  The table: where writes went (default), entries per "
    "category, or every counter\n"
    "      --by kernel|slice  Rows of the perf table per kernel (default) or per slice\n"
    "      --counts           Counts in place of the percentages (same rows)\n"
    "  -f, --format F         table, tsv, csv or json (JSON lines) for the table\n"
    CLI_FILTER_HELP CLI_MEMORY_HELP;

typedef struct {
    fm_source fm;               /* --scenario, --map, ... */
    const char *summary, *log_path;
    FILE *summary_out, *log;    /* opened before the work */
    dcp_report shape;           /* --report, --by, --counts, --format */
} dcpatch_cli;

static void log_line(void *ctx, const char *line) { fputs(line, ctx); }

/* before the end record: a failure leaves none */
static void report(cli_job *j)
{
    dcpatch_cli *c = j->ctx;
    if (c->summary_out) {
        dcp_report_print(&c->shape, j->st, c->summary_out);
        notes_free(&c->shape.nt);
        side_close(c->summary_out, c->summary);
    }
    if (c->log)
        side_close(c->log, c->log_path);
}

/* The input's header: the summary's notes (runs, register file); none
 * without a summary (report frees them with it). */
static void header_notes(cli_job *j, const rft_header *in)
{
    dcpatch_cli *c = j->ctx;
    if (!c->summary_out)
        return;
    c->shape.label = j->input;
    notes_input(&c->shape.nt, &c->shape.label, in);
}

static int yes_no(const char *opt, const char *v)
{
    if (strcmp(v, "yes") == 0)
        return 1;
    if (strcmp(v, "no") != 0)
        usage_error("%s: '%s' is not yes or no", opt, v);
    return 0;
}

/* Where the outputs go: the stream, the summary, the log. */
static void outputs(dcpatch_cli *c, cli_job *j)
{
    /* --summary alone: the table on stdout and no stream; -o FILE adds the stream */
    j->stream = j->output || !c->summary || strcmp(c->summary, "-") != 0;
    int stream_out = j->stream && (!j->output || !strcmp(j->output, "-"));
    int summary_out = c->summary && !strcmp(c->summary, "-");
    if (stream_out && summary_out)
        usage_error("the stream and the summary cannot both go to standard output");
    if (c->log_path && strcmp(c->log_path, "-") == 0 && (stream_out || summary_out))
        usage_error("--log -: standard output already carries the %s",
                    stream_out ? "stream" : "summary");
    if (c->log_path)
        c->log = side_open(c->log_path);
    if (c->summary)
        c->summary_out = side_open(c->summary);
}

static void parse(int argc, char **argv, cli_job *j)
{
    static const struct option opts[] = {
        FM_SOURCE_OPTIONS,                       {"pick", required_argument, 0, 'P'},
        {"share-reliable", required_argument, 0, 'H'}, {"repatch", required_argument, 0, 'R'},
        {"stall-cycles", required_argument, 0, 'c'}, {"check", no_argument, 0, 'k'},
        {"stages", required_argument, 0, 'G'},
        {"log", required_argument, 0, 'g'},      {"summary", optional_argument, 0, 'Y'},
        {"report", required_argument, 0, 'e'},   {"by", required_argument, 0, 'b'},
        {"counts", no_argument, 0, 'n'},         {"format", required_argument, 0, 'f'},
        CLI_FILTER_OPTIONS, CLI_MEMORY_OPTION,                      {0, 0, 0, 0}};
    dcpatch_cli *c = xrealloc(NULL, sizeof *c);     /* one per stage of a pipeline */
    rft_dcpatch_opts o;
    int shape_set = 0, ch;
    *c = (dcpatch_cli){.fm = FM_SOURCE_INIT, .shape = {.fmt = FMT_TABLE}};
    rft_dcpatch_opts_default(&o);
    while ((ch = cli_getopt(argc, argv, "o:s:f:", opts)) != -1) {
        switch (ch) {
        case 'P': o.dcp.pick_high = cli_choice("--pick", optarg, "low|high"); break;
        case 'H': o.dcp.share_reliable = yes_no("--share-reliable", optarg); break;
        case 'R':
            o.dcp.release_first = cli_choice("--repatch", optarg, "preventive|release-first");
            break;
        case 'c': o.stall_cycles = (unsigned)cli_uint("--stall-cycles", optarg, 0, 1000000); break;
        case 'G': o.stages = (uint32_t)cli_uint("--stages", optarg, 0, 1000); break;
        case 'k': o.check = 1; break;
        case 'g': c->log_path = optarg; break;
        case 'Y': c->summary = optarg ? optarg : "-"; break;
        case 's': c->summary = optarg; break;
        case 'e':
            shape_set = 1;  /* DCP_REPORT_* */
            c->shape.report = cli_choice("--report", optarg, "perf|occupancy|events");
            break;
        case 'b':
            shape_set = 1;
            c->shape.by_slice = cli_choice("--by", optarg, "kernel|slice");
            break;
        case 'n': shape_set = c->shape.counts = 1; break;
        case 'f': shape_set = 1; c->shape.fmt = cli_format(optarg); break;
        case CLI_MEMORY_OPT: cli_job_memory(j, optarg); break;
        default:
            if (!fm_source_option(&c->fm, ch) && !cli_filter_option(ch, &j->output, &j->wo))
                cli_bad_option(argv);
        }
    }
    j->input = cli_input(argc, argv);
    fm_source_check(&c->fm);
    if (!c->summary && shape_set)
        usage_error("--report, --by, --counts and --format shape the --summary table");
    outputs(c, j);
    const char *corrupt = getenv("RFT_TEST_DCPATCH_CORRUPT");   /* tests only: rft-dcpatch(1) */
    if (corrupt)
        o.test_corrupt_at = strtoull(corrupt, NULL, 10);
    o.maps = c->fm.src;
    o.replay = c->summary_out && c->shape.report == DCP_REPORT_PERF;   /* its run-time columns */
    if (c->log) {
        o.log = log_line;
        o.log_ctx = c->log;
    }
    j->st = rft_dcpatch_new(&o);
    j->report = report;
    j->check = header_notes;
    j->ctx = c;
}

const cli_prog cli_dcpatch = {"rft-dcpatch", usage, parse, 0};

#ifndef CLI_NO_MAIN
int main(int argc, char **argv) { return cli_prog_main(&cli_dcpatch, argc, argv); }
#endif
