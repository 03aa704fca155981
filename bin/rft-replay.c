/* rft-replay - run time as the GPU sees it: each slice's schedule replayed
 * from the trace's cycles, other wavefronts hiding a stalled one's cycles,
 * with a scheme's latency or a latency added to every instruction; the
 * upper bound (every added cycle in full) beside it (lib/replay.c). */
#include <getopt.h>
#include <stdlib.h>
#include <string.h>

#include "cumodel.h"
#include "m2scfg.h"
#include "m2sfile.h"
#include "pipeline.h"
#include "replay.h"
#include "notes.h"
#include "replaycols.h"

static const char usage[] =
    "rft-replay [-o FILE] [--level N] [--flush] [--summary[=FILE] | -s FILE]\n"
    "           [--add-latency N [--hold] [--latency-unit alu|vmem|lds|all]] [--deps reg|all|none] [--issue N] [--lds-issue N] [--lds-order ready|traced] [--stages N] [--no-scheme]\n"
    "           [--wakeup-cycles N] [--mov-cycles N] [--stall-cycles N] [--lds-cycles N]\n"
    "           [--degraded-scs N [--max-wg N] [--wavefront-rule seed|ceil]] [--trust-cycles] [--max-memory MIB]\n"
    "           [--model shift|cu [--m2s-config FILE] [--m2s-what-if FILE] [--calibrate alu|none]\n"
    "           [--placements N]]\n"
    "           [--format table|tsv|csv|json] [FILE]\n"
    "Replay each slice's schedule from the trace's cycles: cycles naive, with the scheme, "
    "and the upper bound\n"
    "\n"
    "  -o, --output FILE      Also write the stream, with the replay's counters records at "
    "its end, to FILE (- : standard output)\n"
    "      --level N          zstd level of the stream: -99..-1 (fast), 1..22 (default 1)\n"
    "      --flush            Flush the stream after every batch of records (live pipelines)\n"
    "      --summary[=FILE]   The table to FILE (default: standard output unless the stream "
    "goes there)\n"
    "  -s FILE                The same as --summary=FILE\n"
    "      --add-latency N    Every vector instruction's result N cycles later (of the unit "
    "--latency-unit names), 0 to 10^6 (default 0)\n"
    "      --hold             With --add-latency: the SIMD is held those N cycles too by a vector "
    "ALU instruction (Multi2Sim 4.2's ReadExecWriteLatency with a one-instruction buffer)\n"
    "      --latency-unit alu|vmem|lds|all  The instructions --add-latency delays, by the unit "
    "marked on their writes: vector ALU (default: a scheme's pipeline stages; unmarked "
    "writes and instructions without a write count as ALU), vector memory loads, LDS loads, "
    "or all\n"
    "      --deps reg|all     What an instruction waits for: the results of the registers it "
    "reads (default), every earlier result of its wavefront, or none (Multi2Sim 4.2's Southern "
    "Islands model, which tracks no register)\n"
    "      --issue N          SIMD cycles per instruction, 1 to 1024 (default lanes / "
    "block_lanes: 4 on GCN and Evergreen)\n"
    "      --lds-issue N      The LDS unit: cycles a compute unit's LDS takes per LDS "
    "instruction (its writes marked LDS, or a unit record: a store), 0 to "
    "1024; 0: no LDS unit, they take the SIMD like the others (default lanes / 2: 32 on GCN, "
    "Multi2Sim 4.2's two LDS ports, one work-item a port a cycle)\n"
    "      --lds-order ready|traced  A request late against the LDS's schedule gives its place to "
    "the ones after it (ready, the default: 4.2's LDS serves up to 32 instructions in flight as "
    "their accesses come) or holds them up (traced: the trace's order)\n"
    "      --stages N         Extra pipeline cycles on every result, 0 to 1000 (default 2 on "
    "a stream of rft-dcpatch, else 0)\n"
    "      --no-scheme        Ignore the stream's scheme events (wake-ups, MOVs, "
    "mispredictions, LDS loads, stages)\n"
    "      --wakeup-cycles N  Wake-up of a switched-off entry before its write (default 10)\n"
    "      --mov-cycles N     SIMD cycles of an injected MOV (default 4)\n"
    "      --stall-cycles N   Pipeline stall of a compression misprediction (default 4)\n"
    "      --lds-cycles N     Extra LDS load of a spilled register (default 4)\n"
    "      --degraded-scs N   SC healing: N stream cores of every slice rest, 1 to block_lanes "
    "- 1; the redundant wavefronts of each work-group issue their instructions too\n"
    "      --max-wg N         SC healing: work-items a work-group holds at most (default 256), "
    "as rft-heal's\n"
    "      --wavefront-rule seed|ceil  SC healing: wavefronts of a healthy group, as rft-heal's "
    "(default seed)\n"
    "      --trust-cycles     Replay even a stream whose header says its cycles are estimated "
    "(issue_model)\n"
    "      --model shift|cu   shift: the traced schedule shifted by the cycles added (default); "
    "cu: the trace re-timed through a model of the compute unit (lib/cumodel.c, issue 32), "
    "at the traced configuration, at the what-if one, and at the what-if one with the scheme's "
    "events (--wakeup-cycles, --mov-cycles, --stall-cycles, --lds-cycles, --stages, "
    "--degraded-scs; columns cycles_scheme and on, when the stream has any or --degraded-scs)\n"
    "      --m2s-config FILE  With --model cu: the Multi2Sim 4.2 --si-config ini the trace was "
    "taken with (4.2's defaults where a key is absent)\n"
    "      --m2s-what-if FILE  With --model cu: an ini read over --m2s-config's, the changed "
    "knobs (default: none)\n"
    "      --calibrate alu|none  With --model cu: an ND-range the model at the traced "
    "configuration times more than 1 %% off its traced span has its ALU-unit instructions' "
    "own parts (their traced gaps less the SIMD wait) scaled, 0.5 to 2 times, to come closest; "
    "its what-if runs keep the factor (alu, the default: model v7), or every gap as traced "
    "(none: model v6)\n"
    "      --placements N     With --model cu: time each ND-range N more times (0 to 16, default "
    "0) with its work-groups started up to 2 issue intervals late, so that where the last ones "
    "land can change, as it does in the simulator; columns slowdown_lo_pct, slowdown_hi_pct and "
    "slowdown_mean_pct: the slowdown's range and mean over them and the unperturbed one\n"
    CLI_MEMORY_HELP
    "  -f, --format table|tsv|csv|json  Format of the table (default table)\n";

typedef struct {
    const char *summary;
    int model;                  /* 0: shift, 1: cu */
    rft_m2scfg traced, whatif;
    enum cli_fmt fmt;
    FILE *out;
    notes nt;                   /* what the input's header says */
    const char *label;
    uint32_t placements;        /* --placements */
} replay_cli;

/* The input's header: its notes (runs, register file), for the table
 * alone (report frees them with it). */
static void header_notes(cli_job *j, const rft_header *in)
{
    replay_cli *c = j->ctx;
    if (!c->out)
        return;
    c->label = j->input;
    notes_input(&c->nt, &c->label, in);
}

static void report(cli_job *j)
{
    replay_cli *c = j->ctx;
    if (!c->out)
        return;
    static const char *const cols[] = {"scope", REPLAY_COLS, "instructions", "added_cycles"};
    replay_info in = replay_info_of(j->st);
    cli_table *t = table_new(c->fmt, c->out, 3 + REPLAY_NCOLS, cols);
    replay_notes(t, &in, "cycles_naive", " (--trust-cycles replays them)");
    notes_put(&c->nt, t, NULL);
    notes_free(&c->nt);
    for (uint32_t i = 0, n = rft_replay_nrows(j->st); i < n; i++) {
        const rft_replay_row *w = rft_replay_get(j->st, i);
        if (w->scope == RFT_RP_SLICE) {
            char s[32];
            snprintf(s, sizeof s, "slice %u:%u", w->cu, w->simd);
            table_str(t, s);
        } else if (w->scope == RFT_RP_KERNEL) {
            char *s = xasprintf("kernel %s", w->name);
            table_str(t, s);
            free(s);
        } else {
            table_str(t, "total");
        }
        replay_cells(t, in.timed, w);
        table_u64(t, w->instructions);
        table_u64(t, w->added);
        table_end_row(t);
    }
    table_free(t);
    side_close(c->out, c->summary);
}

/* --model cu: per ND-range and in total, the traced span, the model at the
 * traced configuration (its error against the span) and at the what-if one
 * (its slowdown over the model's traced-configuration cycles); when the
 * scheme run charged anything (rft_cumodel_schemed), the what-if one with
 * the scheme's events (its slowdown over the what-if cycles) and the
 * events counted. */
static void put_cu_row(cli_table *t, const char *scope, const rft_cm_row *w, int schemed,
                       int placed)
{
    const rft_cm_result *b = &w->model;
    table_str(t, scope);
    table_u64(t, b->traced);
    table_u64(t, b->cycles);
    table_u64(t, w->what_if.cycles);
    table_dbl(t, rft_replay_pct(b->traced, b->cycles), 2);
    table_dbl(t, rft_replay_pct(b->cycles, w->what_if.cycles), 2);
    table_u64(t, b->instructions);
    if (schemed) {
        table_u64(t, w->scheme.cycles);
        table_dbl(t, rft_replay_pct(w->what_if.cycles, w->scheme.cycles), 2);
        table_u64(t, w->wakeups);
        table_u64(t, w->movs);
        table_u64(t, w->mispredictions);
        table_u64(t, w->lds_loads);
    }
    if (placed) {
        table_dbl(t, w->place_lo, 2);
        table_dbl(t, w->place_hi, 2);
        table_dbl(t, w->place_mean, 2);
    }
    table_end_row(t);
}

static void report_cu(cli_job *j)
{
    replay_cli *c = j->ctx;
    if (!c->out)
        return;
    static const char *const base[] = {"scope", "cycles_traced", "cycles_model", "cycles_what_if",
                                       "baseline_error_pct", "slowdown_pct", "instructions"};
    static const char *const scheme[] = {"cycles_scheme", "slowdown_scheme_pct", "wakeups", "movs",
                                         "mispredictions", "lds_loads"};
    static const char *const place[] = {"slowdown_lo_pct", "slowdown_hi_pct", "slowdown_mean_pct"};
    enum { NBASE = sizeof base / sizeof *base, NSCHEME = sizeof scheme / sizeof *scheme,
           NPLACE = sizeof place / sizeof *place };
    const char *cols[NBASE + NSCHEME + NPLACE];
    int schemed = rft_cumodel_schemed(j->st), placed = c->placements != 0, ncol = NBASE;
    memcpy(cols, base, sizeof base);
    if (schemed)
        memcpy(cols + ncol, scheme, sizeof scheme), ncol += NSCHEME;
    if (placed)
        memcpy(cols + ncol, place, sizeof place), ncol += NPLACE;
    if (rft_cumodel_approximate(j->st)) {
        static const char why[] = "the compute-unit model timed its first ND-ranges with a lower "
            "resident work-group cap than a later one raised, and had "
            "no longer kept them (past 64 MiB) to time them again: their rows and the total are "
            "approximate";
        warnx("warning: %s: %s", j->input, why);
        notes_addf(&c->nt, 0, "%s", why);
    }
    const char *sec, *key;
    for (unsigned i = 0; (key = rft_m2scfg_other(i, &sec)) != NULL; i++)
        if (c->whatif.other[i] != c->traced.other[i])
            notes_addf(&c->nt, 0, "the what-if gives [ %s ] %s another value than the traced "
                       "configuration: the model does not use that key (it takes what it does "
                       "as traced), so the slowdown leaves that change out (rft-replay(1))", sec, key);
    uint32_t ncfg, nseen = rft_cumodel_cus_seen(j->st, &ncfg);
    if (nseen && (nseen > ncfg || nseen * 2 <= ncfg))  /* another GPU's trace: --m2s-config */
        notes_addf(&c->nt, 0, "the stream ran on %u compute units, the traced configuration has "
                   "%u (NumComputeUnits; --m2s-config gives the run's ini): the baseline error "
                   "says how far apart", nseen, ncfg);
    if (!rft_cumodel_marked(j->st))
        notes_addf(&c->nt, 0, "the stream marks no s_waitcnt (rft-decode --cycles-from of a "
                   "Multi2Sim 4.2 run does): each vector memory load held its wavefront until "
                   "it completed; the model is 4.2's compute unit (rft-replay(1))");
    if (rft_cumodel_lds_unmarked(j->st))
        notes_addf(&c->nt, 0, "the stream marks no LDS access's arrival (rft-decode "
                   "--cycles-from writes arrive marks since the model's sixth version): its LDS "
                   "accesses follow their traced gaps, not a queue on their compute unit's LDS; "
                   "decode the run again for it (rft-replay(1))");
    rft_cm_cal cal;
    rft_cumodel_calibration(j->st, &cal);
    double e0 = rft_replay_pct(cal.traced, cal.before);     /* the model's error unscaled */
    if (cal.scaled) {
        char by[64];        /* two factors of 0.5 to 2, numbers only */
        if (cal.qmin == cal.qmax)
            snprintf(by, sizeof by, "%.3f", (double)cal.qmin / RFT_CM_CAL_ONE);
        else
            snprintf(by, sizeof by, "%.3f to %.3f", (double)cal.qmin / RFT_CM_CAL_ONE,
                     (double)cal.qmax / RFT_CM_CAL_ONE);
        notes_addf(&c->nt, 0, "calibrated (--calibrate alu): %u of %u ND-ranges had their ALU "
                   "own parts scaled by %s; unscaled, the model at the traced configuration was "
                   "%+.2f %% off the traced span (rft-replay(1))", cal.scaled, cal.nd, by, e0);
    }
    if (cal.unreached)
        notes_addf(&c->nt, 0, "%u of the ND-ranges the calibration tried stayed more than %g %% "
                   "off their traced spans (no factor from %g to %g came closer)", cal.unreached,
                   RFT_CM_CAL_PCT, (double)RFT_CM_CAL_LO / RFT_CM_CAL_ONE,
                   (double)RFT_CM_CAL_HI / RFT_CM_CAL_ONE);
    const rft_cm_row *tot = rft_cumodel_row(j->st, rft_cumodel_nrows(j->st) - 1);  /* the last */
    double e = tot ? rft_replay_pct(tot->model.traced, tot->model.cycles) : 0;
    if (cal.scaled && (e0 > RFT_CM_CAL_VALID_PCT || e0 < -RFT_CM_CAL_VALID_PCT))
        notes_addf(&c->nt, 0, "the calibration was validated where the model, unscaled, was "
                   "within %g %% of the traced span; here %+.2f %%: its slowdowns here are not "
                   "validated", RFT_CM_CAL_VALID_PCT, e0);
    else if (e > RFT_CM_BASELINE_PCT || e < -RFT_CM_BASELINE_PCT)
        notes_addf(&c->nt, 0, "the model at the traced configuration is %+.2f %% off the "
                   "traced span, past the %g %% its validation holds the baseline to "
                   "(rft-replay(1)): its slowdowns here are not validated", e, RFT_CM_BASELINE_PCT);
    if (placed && tot)
        notes_addf(&c->nt, 0, "placements perturbed (--placements %u): each ND-range timed "
                   "again with its work-groups started up to %u issue intervals late; the "
                   "total's slowdown ranged from %.2f to %.2f %%, mean %.2f %% (rft-replay(1))",
                   c->placements, RFT_CM_PLACE_IV, tot->place_lo, tot->place_hi, tot->place_mean);
    cli_table *t = table_new(c->fmt, c->out, ncol, cols);
    notes_put(&c->nt, t, NULL);
    notes_free(&c->nt);
    for (uint32_t i = 0, n = rft_cumodel_nrows(j->st); i < n; i++) {
        const rft_cm_row *w = rft_cumodel_row(j->st, i);
        if (w->nd == RFT_NO_KERNEL) {
            put_cu_row(t, "total", w, schemed, placed);
            continue;
        }
        char *s = xasprintf("ndrange %u %s", w->nd, rft_cumodel_ndname(j->st, w->nd));
        put_cu_row(t, s, w, schemed, placed);
        free(s);
    }
    table_free(t);
    side_close(c->out, c->summary);
}

static void parse(int argc, char **argv, cli_job *j)
{
    static const struct option opts[] = {
        CLI_FILTER_OPTIONS,
        {"summary", optional_argument, 0, 'S'},
        {"add-latency", required_argument, 0, 'a'},
        {"hold", no_argument, 0, 'H'},
        {"latency-unit", required_argument, 0, 'u'},
        {"deps", required_argument, 0, 'D'},
        {"issue", required_argument, 0, 'i'},
        {"stages", required_argument, 0, 'g'},
        {"lds-issue", required_argument, 0, 'L'},
        {"lds-order", required_argument, 0, 'O'},
        {"no-scheme", no_argument, 0, 'n'},
        {"wakeup-cycles", required_argument, 0, 'w'},
        {"mov-cycles", required_argument, 0, 'm'},
        {"stall-cycles", required_argument, 0, 't'},
        {"lds-cycles", required_argument, 0, 'd'},
        {"trust-cycles", no_argument, 0, 'T'},
        {"degraded-scs", required_argument, 0, 'C'},
        {"max-wg", required_argument, 0, 'W'},
        {"wavefront-rule", required_argument, 0, 'R'},
        {"format", required_argument, 0, 'f'},
        {"model", required_argument, 0, 'M'},
        {"m2s-config", required_argument, 0, 'K'},
        {"m2s-what-if", required_argument, 0, 'Y'},
        {"calibrate", required_argument, 0, 'c'},
        {"placements", required_argument, 0, 'P'},
        CLI_MEMORY_OPTION,
        {0, 0, 0, 0}};
    replay_cli *c = xrealloc(NULL, sizeof *c);     /* one per stage of a pipeline */
    rft_replay_opts o;
    int ch, lu = 0, mw = 0, shiftopt = 0, cuopt = 0;
    const char *cfgpath = NULL, *whatif = NULL;
    rft_replay_opts_default(&o);
    *c = (replay_cli){.fmt = FMT_TABLE};
    while ((ch = cli_getopt(argc, argv, "o:s:f:", opts)) != -1) {
        switch (ch) {
        case 'S': c->summary = optarg ? optarg : "-"; break;
        case 's': c->summary = optarg; break;
        case 'a': o.add_latency = (uint32_t)cli_uint("--add-latency", optarg, 0, 1000000); break;
        case 'H': o.hold = 1; break;
        case 'u': {
            static const unsigned units[] = {RFT_REPLAY_U_ALU, RFT_REPLAY_U_VMEM, RFT_REPLAY_U_LDS,
                                             RFT_REPLAY_U_ALL};
            o.latency_unit = units[cli_choice("--latency-unit", optarg, "alu|vmem|lds|all")];
            lu = 1;
            break;
        }
        case 'D': o.deps = cli_choice("--deps", optarg, "reg|all|none"); break;
        case 'i': o.issue = (uint32_t)cli_uint("--issue", optarg, 1, 1024); break;
        case 'O': o.lds_inorder = cli_choice("--lds-order", optarg, "ready|traced"); break;
        case 'L': o.lds_issue = (uint32_t)cli_uint("--lds-issue", optarg, 0, 1024); break;
        case 'g': o.stages = (uint32_t)cli_uint("--stages", optarg, 0, 1000); break;
        case 'n': o.scheme = 0; break;
        case 'w': o.wakeup_cycles = (uint32_t)cli_uint("--wakeup-cycles", optarg, 0, 1000000); break;
        case 'm': o.mov_cycles = (uint32_t)cli_uint("--mov-cycles", optarg, 0, 1000000); break;
        case 't': o.stall_cycles = (uint32_t)cli_uint("--stall-cycles", optarg, 0, 1000000); break;
        case 'd': o.lds_cycles = (uint32_t)cli_uint("--lds-cycles", optarg, 0, 1000000); break;
        case 'T': o.trust = 1; break;
        case 'C': o.degraded_scs = (uint32_t)cli_uint("--degraded-scs", optarg, 1, 63); break;
        case 'W': o.max_wg = (uint32_t)cli_uint("--max-wg", optarg, 1, 1u << 20); mw = 1; break;
        case 'R': o.wfrule = cli_choice("--wavefront-rule", optarg, "seed|ceil"); mw = 1; break;
        case 'f': c->fmt = cli_format(optarg); break;
        case 'M': c->model = cli_choice("--model", optarg, "shift|cu"); break;
        case 'K': cfgpath = optarg; break;
        case 'Y': whatif = optarg; break;
        case 'c': o.cu_calibrate = cli_choice("--calibrate", optarg, "none|alu"); cuopt = 1; break;
        case 'P':
            o.cu_placements = (uint32_t)cli_uint("--placements", optarg, 0, RFT_CM_PLACE_MAX);
            cuopt = 1;
            break;
        case CLI_MEMORY_OPT: cli_job_memory(j, optarg); break;
        default:
            if (!cli_filter_option(ch, &j->output, &j->wo))
                cli_bad_option(argv);
        }
    }
    j->input = cli_input(argc, argv);
    shiftopt = o.add_latency || o.issue || o.deps != RFT_REPLAY_DEPS_REG;
    if (c->model == 1 && shiftopt)
        usage_error("--model cu takes its latencies from --m2s-config and --m2s-what-if");
    if (c->model == 0 && (cfgpath || whatif || cuopt))
        usage_error("--m2s-config, --m2s-what-if, --calibrate and --placements need --model cu");
    if (c->model == 1 && j->output)
        usage_error("--model cu writes no stream (-o)");
    rft_m2scfg_default(&c->traced);
    if (cfgpath)
        m2s_read_config(&c->traced, cfgpath);
    c->whatif = c->traced;
    if (whatif)
        m2s_read_config(&c->whatif, whatif);
    if (o.hold && !o.add_latency)
        usage_error("--hold needs --add-latency");
    if (lu && !o.add_latency)
        usage_error("--latency-unit needs --add-latency");
    if (mw && !o.degraded_scs)
        usage_error("--max-wg and --wavefront-rule need --degraded-scs");
    j->stream = j->output != NULL;
    int to_stdout = j->stream && strcmp(j->output, "-") == 0;
    if (!c->summary && !to_stdout)
        c->summary = "-";
    if (to_stdout && c->summary && strcmp(c->summary, "-") == 0)
        usage_error("the stream and the table cannot both go to standard output");
    if (c->summary)
        c->out = side_open(c->summary);
    o.pass = j->stream;
    o.emit = j->stream;
    c->placements = o.cu_placements;
    if (c->model == 1) {
        if (!(j->st = rft_cumodel_new(0, &c->traced, &c->whatif, &o)))
            die("out of memory");
        j->report = report_cu;
    } else {
        if (!(j->st = rft_replay_new(&o)))
            die("out of memory");
        j->report = report;
    }
    j->check = header_notes;
    j->ctx = c;
}

const cli_prog cli_replay = {"rft-replay", usage, parse, 0};

#ifndef CLI_NO_MAIN
int main(int argc, char **argv) { return cli_prog_main(&cli_replay, argc, argv); }
#endif
