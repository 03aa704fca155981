/* rft-synth - seeded synthetic register-write workloads (lib/synth.c): named
 * kernel models run on a simple GCN issue model, or VLIW kernel models of an
 * AMD Evergreen GPU (--arch evergreen) whose ALU groups fill the slots X Y Z
 * W T with the skew of seed 003 (Fig. 4), as an rft stream.  A source: the
 * first job of a pipeline (pipeline.h). */
#include <getopt.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "pipeline.h"
#include "synth.h"

static const char usage[] =
    "rft-synth [--kernels LIST] [--writes N] [--geometry NAME] [--cus N] [--simds N]\n"
    "          [--lanes N] [--wg-size N] [--seed N] [--level N] [--flush] [-o FILE]\n"
    "rft-synth --arch evergreen [--kernels LIST] [--bundles N] [--cus N]\n"
    "          [--wg-size N] [--seed N] [--level N] [--flush] [-o FILE]\n"
    "rft-synth [--arch gcn|evergreen] --list\n"
    "Seeded synthetic register-write workloads\n"
    "\n"
    "      --kernels LIST     Comma-separated model names, run in this order; a name may "
    "repeat (up to 64 kernels)\n"
    "      --writes N         Approximate number of register writes, 1 to 10^10 (default "
    "100000)\n"
    "      --arch gcn|evergreen  The machine and its models (--list): gcn (default, GCN "
    "wavefronts of vector registers) or evergreen (VLIW bundles of an AMD Evergreen GPU)\n"
    "      --bundles N        evergreen: approximate number of bundles, 1 to 10^10 (default "
    "100000)\n"
    "      --wg-size N        Work-items per work-group, 1 to 1024, for every kernel of the "
    "run (default: the model's)\n"
    "      --geometry NAME    The register file of a GPU: gcn, evergreen (the evergreen models "
    "on Evergreen's own 1024-entry slices; --arch evergreen alone keeps 256, the seeds' energy "
    "parameters' size), volta, ampere, hopper or blackwell (lanes, entries, block lanes and "
    "SIMDs a CU; the CUs stay 2 unless --cus; NVIDIA windows rounded up to 8 registers a "
    "thread)\n"
    "      --cus N            Compute units (SMs), 1 to 148, the most of a GPU named "
    "(default 2; evergreen 20)\n"
    "      --simds N          SIMDs (slices) per compute unit, 1 to 16\n"
    "      --lanes N          Lanes per register (work-items per wavefront), a multiple of 8 "
    "from 8 to 1024\n"
    "  -S, --seed N           Seed of the PRNG, 0 to 2^64-1 (default 1)\n"
    "  -l, --level N          zstd compression level, 1 to 22, or -1 to -99 for zstd's "
    "faster levels (default 1)\n"
    "  -o, --output FILE      Write to FILE (under a temporary name, renamed when complete) "
    "instead of standard output\n"
    "      --flush            Flush the stream after every batch of records, for live "
    "pipelines\n"
    "      --list             Print the models of --arch, their VGPR counts\n";

typedef struct {
    rft_synth *gen;
    int unit;               /* what the size counts: RFT_WRITE or RFT_BUNDLE */
    const char *unit_name;
    /* progress on a terminal, from the records going by */
    rft_sink out;
    uint64_t done, size;
    int shown;
    struct timespec last;
} synth_cli;

static void tick(synth_cli *c)
{
    struct timespec now;
    clock_gettime(CLOCK_MONOTONIC, &now);
    if (now.tv_sec - c->last.tv_sec + (now.tv_nsec - c->last.tv_nsec) / 1e9 < 1.0)
        return;
    c->last = now;
    c->shown = 1;
    fprintf(stderr, "\r%s: %llu %s (%.0f%%)  ", prog, (unsigned long long)c->done, c->unit_name,
            100.0 * (double)c->done / (double)(c->size ? c->size : 1));
}

static int put_counted(void *ctx, rft_rec *rec)
{
    synth_cli *c = ctx;
    int counts = rec->kind == c->unit;  /* before out: it may change the record */
    int e = c->out.put(c->out.ctx, rec);
    if (counts && (++c->done & 0xffff) == 0)
        tick(c);
    return e;
}

static void source_open(cli_job *j, rft_header *h)
{
    synth_cli *c = j->ctx;
    if (rft_synth_header(c->gen, h))
        die("out of memory");
}

static void source_run(cli_job *j, const rft_sink *out)
{
    synth_cli *c = j->ctx;
    rft_sink counted = {put_counted, c};
    int progress = isatty(STDERR_FILENO);
    c->out = *out;
    c->size = rft_synth_size(c->gen);
    clock_gettime(CLOCK_MONOTONIC, &c->last);
    if (rft_synth_run(c->gen, progress ? &counted : out))
        die("internal error: the output refused a record");   /* the driver's sink dies first */
    if (c->shown)
        fprintf(stderr, "\r%s: %llu %s       \n", prog, (unsigned long long)c->done, c->unit_name);
    rft_synth_free(c->gen);
    c->gen = NULL;
}

static void list_models(int arch)
{
    for (unsigned i = 0; i < rft_synth_nmodels(arch); i++) {
        rft_synth_model m;
        rft_synth_model_info(arch, i, &m);
        printf("%-13s %2u VGPRs  ", m.name, m.nregs);
        if (m.share)
            printf("%3u WIs/WG  X %4.1f Y %4.1f Z %4.1f W %4.1f T %4.1f  packing %.2f  ",
                   m.wg_items, m.share[0], m.share[1], m.share[2], m.share[3], m.share[4],
                   m.packing);
        printf("%s\n", m.desc);
    }
    exit(cli_close_stdout());
}

static void parse(int argc, char **argv, cli_job *j)
{
    enum { O_CUS = 256, O_SIMDS, O_LANES, O_LIST, O_ARCH, O_BUNDLES, O_WG, O_GEOM };
    static const struct option longopts[] = {
        {"kernels", required_argument, NULL, 'k'},  {"writes", required_argument, NULL, 'n'},
        {"bundles", required_argument, NULL, O_BUNDLES}, {"arch", required_argument, NULL, O_ARCH},
        {"wg-size", required_argument, NULL, O_WG}, {"cus", required_argument, NULL, O_CUS},
        {"simds", required_argument, NULL, O_SIMDS}, {"lanes", required_argument, NULL, O_LANES},
        {"seed", required_argument, NULL, 's'},     {"level", required_argument, NULL, 'l'},
        {"output", required_argument, NULL, 'o'},   {"list", no_argument, NULL, O_LIST},
        {"flush", no_argument, NULL, 'F'},          {"geometry", required_argument, NULL, O_GEOM},
        {NULL, 0, NULL, 0},
    };
    synth_cli *c = xrealloc(NULL, sizeof *c);   /* one per job */
    rft_synth_opts o;
    int list = 0, evg = 0, writes_set = 0, bundles_set = 0, cus_set = 0, simds_set = 0;
    int lanes_set = 0, arch_set = 0, ch;
    const rft_geom_name *geom = NULL;
    rft_synth_opts_default(&o, RFT_SYNTH_GCN);
    *c = (synth_cli){.unit = RFT_WRITE, .unit_name = "writes"};
    /* -k is --keep, -n --copies, -s --summary in every program (rft(1), OPTIONS) */
    static const cli_old old[] = {
        {"-k", 'k', "--kernels"}, {"-n", 'n', "--writes"}, {"-s", 's', "-S or --seed"}, {0, 0, 0}};
    while ((ch = cli_getopt_old(argc, argv, ":k:n:s:S:l:o:", longopts, old)) != -1) {
        switch (ch) {
        case 'k': o.kernels = optarg; break;
        case 'n':
            o.size = cli_uint("--writes", optarg, 1, 10000000000ull);
            writes_set = 1;
            break;
        case O_BUNDLES:
            o.size = cli_uint("--bundles", optarg, 1, 10000000000ull);
            bundles_set = 1;
            break;
        case O_ARCH: evg = cli_choice("--arch", optarg, "gcn|evergreen"), arch_set = 1; break;
        case O_GEOM:
            if (!(geom = rft_geom_named(optarg)))
                usage_error("--geometry: '%s' is not one of " RFT_GEOM_NAMES, optarg);
            break;
        case O_WG:
            o.wg_size = (unsigned)cli_uint("--wg-size", optarg, 1, RFT_SYNTH_MAX_WAVES * 64);
            break;
        case O_CUS: o.cus = (unsigned)cli_uint("--cus", optarg, 1, RFT_GEOM_MAX_CUS); cus_set = 1; break;
        case O_SIMDS: o.simds = (unsigned)cli_uint("--simds", optarg, 1, 16); simds_set = 1; break;
        case O_LANES:
            o.lanes = (unsigned)cli_uint("--lanes", optarg, 8, RFT_MAX_LANES);
            lanes_set = 1;
            break;
        case 's':
        case 'S': o.seed = cli_uint("--seed", optarg, 0, UINT64_MAX); break;
        case 'l': j->wo.level = cli_level(optarg); break;
        case 'o': j->output = optarg; break;
        case 'F': j->wo.flush_each = 1; break;
        case O_LIST: list = 1; break;
        case ':': usage_error("option '%s' needs a value", argv[optind - 1]);
        default:
            if (optopt)
                usage_error("unknown option '-%c'", optopt);
            usage_error("unknown option '%s'", argv[optind - 1]);
        }
    }
    if (optind < argc)
        usage_error("unexpected argument '%s'", argv[optind]);
    if (geom) {     /* its register file; an Evergreen one runs the evergreen models */
        int g_evg = strcmp(geom->name, "evergreen") == 0;
        if (arch_set && evg != g_evg)
            usage_error("--geometry %s: not the register file of --arch %s", geom->name,
                        evg ? "evergreen" : "gcn");
        evg = g_evg;
        if (lanes_set && o.lanes != geom->geom.lanes)
            usage_error("--lanes %u: --geometry %s has %u lanes", o.lanes, geom->name,
                        geom->geom.lanes);
        o.lanes = geom->geom.lanes;
        o.entries = geom->geom.entries;
        o.block_lanes = geom->geom.block_lanes;
        o.simds = simds_set ? o.simds : geom->simds;
        o.reg_gran = geom->geom.lanes == 32 ? 8 : 0;   /* NVIDIA: 256 registers a warp */
        simds_set = simds_set || !g_evg;
    }
    if (o.lanes % 8)
        usage_error("--lanes: %u is not a multiple of 8", o.lanes);
    if (evg) {
        if (simds_set)
            usage_error("--simds: an Evergreen compute unit is one SIMD engine");
        if (lanes_set && o.lanes != 64)
            usage_error("--lanes: Evergreen wavefronts are 64 work-items wide");
        if (writes_set)
            usage_error("--writes applies to --arch gcn; --bundles sizes an evergreen run");
        *c = (synth_cli){.unit = RFT_BUNDLE, .unit_name = "bundles"};
    } else if (bundles_set) {
        usage_error("--bundles applies to --arch evergreen; --writes sizes a gcn run");
    }
    rft_synth_opts arch;    /* its machine where no option says otherwise */
    rft_synth_opts_default(&arch, evg ? RFT_SYNTH_EVERGREEN : RFT_SYNTH_GCN);
    o.arch = arch.arch;
    o.cus = cus_set ? o.cus : arch.cus;
    o.simds = simds_set ? o.simds : arch.simds;
    if (list)
        list_models(o.arch);
    int e = rft_synth_new(&c->gen, &o);
    if (e == RFT_EFORMAT)
        usage_error("%s", rft_synth_error(c->gen));
    if (e)
        die("%s", c->gen && rft_synth_error(c->gen) ? rft_synth_error(c->gen) : "out of memory");
    j->source_open = source_open;
    j->source_run = source_run;
    j->ctx = c;
}

const cli_prog cli_synth = {"rft-synth", usage, parse, 1};

#ifndef CLI_NO_MAIN
int main(int argc, char **argv) { return cli_prog_main(&cli_synth, argc, argv); }
#endif
