/* rft-decode - a register-write trace to an rft stream (rft-decode(1)), the
 * source of a pipeline (bin/pipeline.h): lib/decode.c decodes, bin/decinput.c
 * reads the input for it (twice for a pre-scan); here, the options. */
#include <getopt.h>
#include <stdlib.h>
#include <string.h>

#include "decinput.h"
#include "m2sfile.h"

static const char usage[] =
    "rft-decode [-o FILE] [--input-format auto|text|csv|m2s|evg|gem5|nvbit|cutracer|columns]\n"
    "           [-v] [--skip-bad] [--geometry NAME] [--lanes N] [--entries N]\n"
    "           [--block-lanes N] [--level N] [--kernel-events FILE] [--reorder N]\n"
    "           [--assume-all-lanes-active] [--cutracer-ipoint before|after]\n"
    "           [--clause-temps N]\n"
    "           [--flush] [--nvgprs N] [--kernel NAME] [--cus N] [--simds N]\n"
    "           [--issue-cycles N] [--local-size X[,Y[,Z]]] [--ticks-per-cycle N]\n"
    "           [--cycles-from TRACE] [--cycles-at fetch|execute] [--cycles-mhz GPU,TRACE | --m2s-config FILE]\n           [--columns MAP] [--radix auto|hex|dec] [FILE... | DIR]\n"
    "Turn a register-write trace or a GPU simulator log into an rft stream; several FILEs, or "
    "a folder DIR of CUTracer launch files and its kernel events file, are one trace in launch "
    "order\n"
    "\n"
    "  -o, --output FILE      Write the stream to FILE, under a temporary name "
    "FILE.tmpXXXXXX renamed to FILE on success and removed on failure\n"
    "      --input-format F   The format of the input (default auto: detected from its first "
    "lines)\n"
    "  -v, --verbose          Say on standard error which format was chosen and from which "
    "line, and at the end what was decoded and how fast\n"
    "      --skip-bad         For the simulator formats: a line that fits no grammar is left "
    "out with a warning\n"
    "      --geometry NAME    The register file of a GPU: gcn, evergreen, volta, ampere, "
    "hopper or blackwell (lanes, entries, block lanes, CUs or SMs and their SIMDs; the options below "
    "override it)\n"
    "      --lanes N          Lanes per register, 1 to 1024\n"
    "      --entries N        Entries (physical registers) per slice, 1 to 65535\n"
    "      --block-lanes N    Lanes per block (subwavefront), 1 to 1024, dividing --lanes\n"
    "      --level N          zstd compression level, -99 to -1 or 1 to 22\n"
    "      --flush            Flush the compressed output after each block of input read\n"
    "      --nvgprs N         Window size (registers per work-item) of every wavefront of a "
    "simulator log, 1 to 65535\n"
    "      --kernel NAME      Kernel name for logs that print none (m2s: default ndrangeN, "
    "gem5: default gem5, columns: default columns)\n"
    "      --cus N            m2s, evg and nvbit logs, which do not say where a wavefront ran: "
    "work-group g goes to CU g mod N (default 10; evg 20)\n"
    "      --simds N          m2s and nvbit logs: the SIMDs of a CU, a work-group's (m2s) or a "
    "warp slot's (nvbit) SIMD taken mod N (default 4; evg: refused)\n"
    "      --issue-cycles N   The issue model of m2s, evg and nvbit logs, which have no "
    "time\n"
    "      --local-size X[,Y[,Z]]  m2s: the work-group shape of the ND-Range (an evg log "
    "gives it: refused there)\n"
    "      --ticks-per-cycle N  gem5: ticks per GPU cycle\n"
    "      --cycles-from TRACE  m2s: the pipeline trace (--trace, decompressed) of the same "
    "detailed run: each instruction at its simulated cycle, on its compute unit and SIMD\n"
    "      --cycles-at fetch|execute  m2s --cycles-from: the cycle each instruction is stamped "
    "at, its fetch or its unit's execute stage (default execute)\n"
    "      --cycles-mhz GPU,TRACE  m2s --cycles-from: the GPU's clock and the trace's (the run's "
    "fastest, 1000 with 4.2's defaults), in MHz: cycles counted in the GPU's clock (4.2's "
    "defaults: 925,1000; default: the trace's clock as is)\n"
    "      --m2s-config FILE  m2s --cycles-from: the --si-config ini of the run; the GPU's "
    "clock is its [ Device ] Frequency (4.2's default 925), the trace's the faster of it and "
    "1000 (4.2's memory system and network); instead of --cycles-mhz\n"
    "      --kernel-events FILE  cutracer: CUTracer's kernel events file (kernel names, grids, "
    "blocks, registers a thread) of the trace's launches\n"
    "      --clause-temps N   evg: R<N> to R123 are the compiler's clause temporaries, not "
    "the kernel's registers (default 123; 124: none)\n"
    "      --assume-all-lanes-active  cutracer: a record without active_mask (CUTracer "
    "before June 2026) takes all 32 lanes as active, with a warning that counts them "
    "(default: refused)\n"
    "      --cutracer-ipoint before|after  cutracer: the values of a record are the "
    "registers' before the instruction (default; CUTRACER_INSTRUMENT_IPOINT=a) or after it "
    "(=b); a trace whose values contradict the point is refused (rft-decode(1), CUTRACER)\n"
    "      --reorder N        cutracer: records held back so that a write is stamped at its "
    "instruction, 1 to 16777216 (default 65536)\n"
    "      --columns MAP      The column map of a columns input: name=column,... with "
    "0-based columns\n"
    "      --radix auto|hex|dec  columns: how values are read\n";

const char *decode_usage = usage;

/* "X[,Y[,Z]]" */
static void local_size(const char *s, uint32_t *local)
{
    char b[64], *p = b, *comma;     /* three sizes of at most 7 digits: longer is refused */
    if (strlen(s) >= sizeof b)
        usage_error("--local-size: '%s' is longer than %zu characters", s, sizeof b - 1);
    snprintf(b, sizeof b, "%s", s);
    for (int i = 0;; i++, p = comma + 1) {
        if (i == 3)
            usage_error("--local-size: '%s' has more than three sizes", s);
        if ((comma = strchr(p, ',')))
            *comma = 0;
        local[i] = (uint32_t)cli_uint("--local-size", p, 1, 1u << 20);
        if (!comma)
            return;
    }
}

/* --cycles-mhz GPU,TRACE: the GPU's clock no faster than the trace's */
static void cycles_mhz(const char *s, uint32_t *mhz)
{
    char b[32], *comma;
    if (strlen(s) >= sizeof b)
        usage_error("--cycles-mhz: '%s' is longer than %zu characters", s, sizeof b - 1);
    snprintf(b, sizeof b, "%s", s);
    if (!(comma = strchr(b, ',')))
        usage_error("--cycles-mhz: '%s' is not GPU,TRACE", s);
    *comma = 0;
    mhz[0] = (uint32_t)cli_uint("--cycles-mhz", b, 1, 1000000);
    mhz[1] = (uint32_t)cli_uint("--cycles-mhz", comma + 1, 1, 1000000);
    if (mhz[0] > mhz[1])
        usage_error("--cycles-mhz: the GPU's clock %u MHz is faster than the trace's %u MHz (the "
                    "trace counts the run's fastest clock)", mhz[0], mhz[1]);
}

static void parse(int argc, char **argv, cli_job *j)
{
    static const struct option opts[] = {
        CLI_FILTER_OPTIONS,                    {"input-format", required_argument, 0, 'f'},
        {"format", required_argument, 0, 'f'},  /* the old spelling of --input-format */
        {"lanes", required_argument, 0, 'L'},  {"entries", required_argument, 0, 'N'},
        {"block-lanes", required_argument, 0, 'B'}, {"verbose", no_argument, 0, 'v'},
        {"skip-bad", no_argument, 0, 'S'},     {"nvgprs", required_argument, 0, 'n'},
        {"kernel", required_argument, 0, 'k'}, {"cus", required_argument, 0, 'c'},
        {"simds", required_argument, 0, 's'},  {"issue-cycles", required_argument, 0, 'i'},
        {"local-size", required_argument, 0, 'z'}, {"ticks-per-cycle", required_argument, 0, 't'},
        {"columns", required_argument, 0, 'C'}, {"radix", required_argument, 0, 'r'},
        {"cycles-from", required_argument, 0, 'T'},
        {"geometry", required_argument, 0, 'G'}, {"kernel-events", required_argument, 0, 'K'},
        {"reorder", required_argument, 0, 'R'},  {"cycles-at", required_argument, 0, 'A'},
        {"clause-temps", required_argument, 0, 'Q'}, {"cycles-mhz", required_argument, 0, 'M'},
        {"assume-all-lanes-active", no_argument, 0, 'Y'}, {"m2s-config", required_argument, 0, 'X'},
        {"cutracer-ipoint", required_argument, 0, 'P'},
        {0, 0, 0, 0}};
    static const int radix[] = {0, 16, 10};     /* 0: auto */
    decode_cli *c = xrealloc(NULL, sizeof *c);  /* one per run */
    decode_cli_init(c);
    rft_dec_opts *o = &c->o.dec;
    rft_geom *g = &o->geom;
    const char *events_path = NULL, *m2s_config = NULL;
    int ch;
    /* -f and --format shape an output in every other program (rft(1), OPTIONS) */
    static const cli_old old[] = {
        {"-f", 'f', "--input-format"}, {"--format", 'f', "--input-format"}, {0, 0, 0}};
    while ((ch = cli_getopt_old(argc, argv, "o:f:v", opts, old)) != -1) {
        switch (ch) {
        case 'f':
            if (strcmp(optarg, "auto") == 0)
                c->o.fmt = RFT_FMT_NONE;
            else if ((c->o.fmt = rft_fmt_parse(optarg)) == RFT_FMT_NONE)
                usage_error("--input-format: '%s' is not one of auto, text, csv, m2s, evg, gem5, "
                            "nvbit, cutracer, columns", optarg);
            break;
        case 'L':
            g->lanes = (uint32_t)cli_uint("--lanes", optarg, 1, RFT_MAX_LANES);
            c->o.lanes_set = 1;
            break;
        case 'N':
            g->entries = (uint32_t)cli_uint("--entries", optarg, 1, RFT_MAX_ENTRIES);
            c->o.entries_set = 1;
            break;
        case 'B':
            g->block_lanes = (uint32_t)cli_uint("--block-lanes", optarg, 1, RFT_MAX_LANES);
            c->o.block_lanes_set = 1;
            break;
        case 'G':
            if (!rft_geom_named(optarg))
                usage_error("--geometry: '%s' is not one of " RFT_GEOM_NAMES, optarg);
            c->o.geometry = optarg;
            break;
        case 'K': events_path = optarg; break;
        case 'Y': o->all_lanes = 1; break;
        case 'P': o->ipoint_after = cli_choice("--cutracer-ipoint", optarg, "before|after"); break;
        case 'R': o->reorder = cli_uint("--reorder", optarg, 1, 1u << 24); break;
        case 'Q': o->clause_temps = (uint32_t)cli_uint("--clause-temps", optarg, 0, 124); break;
        case 'F': c->flush = 1; break;          /* before each read, not at each batch */
        case 'v': c->o.verbose = 1; break;
        case 'S': c->o.skip_bad = 1; break;
        case 'n': o->nvgprs = (uint32_t)cli_uint("--nvgprs", optarg, 1, RFT_MAX_ENTRIES); break;
        case 'k':
            if (!*optarg || strlen(optarg) > RFT_MAX_STR || strpbrk(optarg, " \t\n,"))
                usage_error("--kernel: '%s' is not a kernel name (no blanks or commas)", optarg);
            o->kernel = optarg;
            break;
        case 'c': o->cus = (uint32_t)cli_uint("--cus", optarg, 1, 65535), c->o.cus_set = 1; break;
        case 's': o->simds = (uint32_t)cli_uint("--simds", optarg, 1, 65535), c->o.simds_set = 1; break;
        case 'i': o->issue_cycles = (uint32_t)cli_uint("--issue-cycles", optarg, 1, 1u << 20); break;
        case 'z': local_size(optarg, o->local); break;
        case 't': o->ticks_per_cycle = cli_uint("--ticks-per-cycle", optarg, 1, UINT32_MAX); break;
        case 'C': o->columns = optarg; break;
        case 'T': c->tname = optarg; break;
        case 'M': cycles_mhz(optarg, o->m2s_mhz); break;
        case 'X': m2s_config = optarg; break;
        case 'A': o->m2s_exec = cli_choice("--cycles-at", optarg, "fetch|execute"); break;
        case 'r': o->radix = radix[cli_choice("--radix", optarg, "auto|hex|dec")]; break;
        default:
            if (!cli_filter_option(ch, &j->output, &j->wo))
                cli_bad_option(argv);
        }
    }
    decode_inputs(c, argc - optind, argv + optind, &j->input, &events_path);
    if (c->o.geometry) {        /* what no option gives comes from the name */
        const rft_geom_name *n = rft_geom_named(c->o.geometry);
        g->lanes = c->o.lanes_set ? g->lanes : n->geom.lanes;
        g->entries = c->o.entries_set ? g->entries : n->geom.entries;
        g->block_lanes = c->o.block_lanes_set ? g->block_lanes : n->geom.block_lanes;
        o->cus = c->o.cus_set ? o->cus : n->cus;
        o->simds = c->o.simds_set ? o->simds : n->simds;
        c->o.lanes_set = c->o.entries_set = c->o.block_lanes_set = 1;
        c->o.cus_set = c->o.simds_set = 1;
    }
    if (events_path)
        decode_read_events(c, events_path);
    if (m2s_config) {   /* the clocks of the run: the GPU's, and the fastest the trace counts */
        if (o->m2s_mhz[0])
            usage_error("--m2s-config and --cycles-mhz both give the clocks: give one");
        if (!c->tname)
            usage_error("--m2s-config gives the clocks of --cycles-from's trace: give the trace");
        rft_m2scfg m;
        rft_m2scfg_default(&m);
        m2s_read_config(&m, m2s_config);
        rft_m2scfg_clocks(&m, o->m2s_mhz);
    }
    if (g->lanes % g->block_lanes)
        usage_error("--block-lanes %u does not divide --lanes %u", g->block_lanes, g->lanes);
    j->source_open = decode_source_open;
    j->source_run = decode_source_run;
    j->ctx = c;
}

const cli_prog cli_decode = {"rft-decode", usage, parse, 1};

#ifndef CLI_NO_MAIN
int main(int argc, char **argv) { return cli_prog_main(&cli_decode, argc, argv); }
#endif
