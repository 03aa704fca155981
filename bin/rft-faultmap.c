/* rft-faultmap - fault maps of register-file slices (seed 001 Table 1):
 * generated per scenario or read from CSV; attached to an rft stream, or
 * printed as CSV, a picture or statistics. */
#include <getopt.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "fmsource.h"
#include "faultmap.h"
#include "rft.h"

static const char usage[] =
    "usage: rft-faultmap [--scenario NAME] [--seed N] [--shares A/B/C/D/E] [--systematic W]\n"
    "                    [--corr-length N] [--map FILE.csv] [--same] [-o FILE] [--level N] [FILE]\n"
    "       rft-faultmap --csv|--show|--stats [--format table|tsv|csv|json] [--slice LIST]\n"
    "                    [--entries N] [--blocks N] [map options] [FILE]\n"
    "Attach per-slice fault maps (seed 001 Table 1 scenarios common, clustered,\n"
    "dispersed, or a CSV map) to an rft stream, or print maps.\n";

enum { MODE_STREAM, MODE_CSV, MODE_SHOW, MODE_STATS };

static struct {
    const char *input, *output, *slices;
    int mode, entries_set, blocks_set;
    uint32_t entries, blocks;
    fm_source fm;                   /* --scenario, --map, ... */
    rft_fmset set;
    enum cli_fmt fmt;
    rft_writer_opts wo;
} g = {.input = "-", .output = "-", .entries = 256, .blocks = 4, .fmt = FMT_TABLE,
       .fm = FM_SOURCE_INIT};

/* where the map comes from, allocated */
static char *describe(const rft_faultmap *m)
{
    if (m->seed || strncmp(m->origin, "csv:", 4) != 0)
        return xasprintf("%s seed %llu", m->origin, (unsigned long long)m->seed);
    return xasprintf("%s", m->origin);
}

static void slice_label(const rft_faultmap *m, char *buf, size_t n)
{
    if (m->cu == RFT_FM_ALL)
        snprintf(buf, n, "*");
    else
        snprintf(buf, n, "%u:%u", m->cu, m->simd);
}

/* ---- printing ------------------------------------------------------------------ */
static void show(const rft_faultmap *m)
{
    uint32_t cls[RFT_FM_CLASSES], faulty = 0;
    uint32_t fblocks = rft_faultmap_classes(m, cls);
    char sl[32], *d = describe(m);
    slice_label(m, sl, sizeof sl);
    for (int c = 2; c < RFT_FM_CLASSES; c++)
        faulty += cls[c];
    printf("# slice %s: %s, %u entries x %u blocks, ECP repairs %u bit per entry\n", sl, d,
           m->entries, m->blocks, m->ecp);
    free(d);
    printf("# entries with 0/1/2/3/>=4 faulty bits: %u %u %u %u %u; faulty entries %u (%.1f%%), "
           "faulty blocks %u\n", cls[0], cls[1], cls[2], cls[3], cls[4], faulty,
           100.0 * faulty / m->entries, fblocks);
    printf("# . reliable block  + faulty bit repaired by ECP  X faulty block\n");
    int width = snprintf(NULL, 0, "%u", m->entries - 1);
    char *line = malloc(m->blocks + 2);
    if (!line)
        die("out of memory");
    for (uint32_t e = 0; e < m->entries; e++) {
        int ef = rft_faultmap_entry_faulty(m, e);
        for (uint32_t b = 0; b < m->blocks; b++) {
            uint8_t x = m->bits[(size_t)e * m->blocks + b];
            line[b] = !x ? '.' : ef ? 'X' : '+';
        }
        line[m->blocks] = 0;
        printf("%*u %s\n", width, e, line);
    }
    free(line);
}

static cli_table *stats_table;

static void stats(const rft_faultmap *m)
{
    static const char *const cols[] = {
        "slice", "origin", "seed", "entries", "blocks", "bits0", "bits1", "bits2", "bits3",
        "bits4+", "faulty_entries", "faulty%", "faulty_blocks", "faulty_next%"};
    if (!stats_table)
        stats_table = table_new(g.fmt, stdout, 14, cols);
    cli_table *t = stats_table;
    uint32_t cls[RFT_FM_CLASSES], faulty = 0, pairs = 0;
    uint32_t fblocks = rft_faultmap_classes(m, cls);
    for (int c = 2; c < RFT_FM_CLASSES; c++)
        faulty += cls[c];
    /* spatial correlation: how often the entry after a faulty one is faulty */
    for (uint32_t e = 0; e + 1 < m->entries; e++)
        pairs += rft_faultmap_entry_faulty(m, e) && rft_faultmap_entry_faulty(m, e + 1);
    uint32_t lead = faulty - (m->entries && rft_faultmap_entry_faulty(m, m->entries - 1));
    char sl[32];
    slice_label(m, sl, sizeof sl);
    table_str(t, sl);
    table_str(t, m->origin);
    table_u64(t, m->seed);
    table_u64(t, m->entries);
    table_u64(t, m->blocks);
    for (int c = 0; c < RFT_FM_CLASSES; c++)
        table_u64(t, cls[c]);
    table_u64(t, faulty);
    table_dbl(t, 100.0 * faulty / m->entries, 2);
    table_u64(t, fblocks);
    table_dbl(t, lead ? 100.0 * pairs / lead : 0.0, 2);
    table_end_row(t);
}

static char *csv_buf;
static size_t csv_len, csv_cap;

static void print_map(const rft_faultmap *m)
{
    switch (g.mode) {
    case MODE_SHOW: show(m); break;
    case MODE_STATS: stats(m); break;
    case MODE_CSV:
        csv_len = 0;
        if (rft_faultmap_csv_format(m, &csv_buf, &csv_len, &csv_cap))
            die("out of memory");
        fwrite(csv_buf, 1, csv_len, stdout);
        break;
    }
}

/* ---- map sources ------------------------------------------------------------------ */
static void parse_slice(const char *s, uint16_t *cu, uint16_t *simd)
{
    if (strcmp(s, "*") == 0)
        *cu = *simd = RFT_FM_ALL;
    else    /* 65535 is RFT_FM_ALL */
        cli_slice("--slice", s, 65534, "CU:SIMD or '*'", cu, simd);
}

/* The map of a slice: the CSV's, else generated; NULL if neither. */
static const rft_faultmap *map_for(uint16_t cu, uint16_t simd, rft_faultmap *tmp)
{
    const rft_faultmap *m;
    if (rft_fm_for_slice(&g.set, g.fm.have_gen ? &g.fm.gen : NULL, g.fm.same, g.entries, g.blocks, cu,
                         simd, tmp, &m))
        stage_fail("out of memory");
    return m;
}

static void load_csv(void)
{
    char why[RFT_FM_WHY];
    if (g.fm.map_path && rft_faultmap_csv_read(g.fm.map_path, g.entries, g.blocks, &g.set, why,
                                            sizeof why))
        die("%s", why);
}

/* --csv, --show, --stats of maps given by options */
static void print_given(void)
{
    load_csv();
    if (g.mode == MODE_CSV)
        fputs(rft_faultmap_csv_header(), stdout);
    if (!g.slices && g.fm.map_path) {
        for (size_t i = 0; i < g.set.n; i++)
            print_map(&g.set.maps[i]);
        return;
    }
    char *list = strdup(g.slices ? g.slices : "*");
    if (!list)
        die("out of memory");
    for (char *tok = strtok(list, ","); tok; tok = strtok(NULL, ",")) {
        uint16_t cu, simd;
        rft_faultmap tmp = {0};
        parse_slice(tok, &cu, &simd);
        const rft_faultmap *m = map_for(cu, simd, &tmp);
        if (!m)
            die("%s: no map for slice %s", g.fm.map_path, tok);
        rft_faultmap copy;
        if (rft_faultmap_copy(&copy, m))
            die("out of memory");
        copy.cu = cu;   /* a slice printed from the map for all slices is that slice's */
        copy.simd = simd;
        print_map(&copy);
        rft_faultmap_free(&copy);
        rft_faultmap_free(&tmp);
    }
    free(list);
}

/* --csv, --show, --stats of the maps in a stream */
static void print_stream(void)
{
    char why[RFT_FM_WHY];
    rft_reader *r = stage_open(g.input);
    uint16_t want_cu = 0, want_simd = 0;
    int filter = g.slices != NULL, any = 0;
    if (filter) {
        if (strchr(g.slices, ','))
            usage_error("--slice: one slice when reading maps from a stream");
        parse_slice(g.slices, &want_cu, &want_simd);
    }
    if (g.mode == MODE_CSV)
        fputs(rft_faultmap_csv_header(), stdout);
    rft_rec rec;
    int e;
    while ((e = rft_read(r, &rec)) == 0) {
        if (rec.kind != RFT_FAULTMAP)
            continue;
        rft_faultmap m;
        if (rft_faultmap_decode(rec.raw, rec.len, &m, why, sizeof why))
            stage_fail("%s", why);
        if (!filter || (m.cu == want_cu && m.simd == want_simd)) {
            print_map(&m);
            any = 1;
        }
        rft_faultmap_free(&m);
    }
    stage_read_end(e);
    stage_close();
    if (!any)
        die("%s: no fault map%s%s", g.input, filter ? " for slice " : "", filter ? g.slices : "");
}

/* ---- the stream stage -------------------------------------------------------------- */
static uint8_t *rbuf;
static size_t rcap;

static void emit(const rft_faultmap *m)
{
    size_t n = rft_faultmap_record_len(m);
    if (n > RFT_MAX_RECORD)
        stage_fail("a fault map of %u x %u blocks is too large for a record", m->entries,
                   m->blocks);
    if (n > rcap) {
        free(rbuf);
        if (!(rbuf = malloc(rcap = n)))
            stage_fail("out of memory");
    }
    rft_faultmap_encode(m, rbuf);
    stage_put(rft_write_raw(stage.w, RFT_FAULTMAP, rbuf, (uint32_t)n));
}

static void run_stage(void)
{
    rft_reader *r = stage_open(g.input);
    const rft_header *in = rft_reader_header(r);
    g.entries = in->geom.entries;
    g.blocks = in->geom.lanes / in->geom.block_lanes;
    load_csv();

    rft_header h;
    rft_header_init(&h, "rft-faultmap");
    if (rft_header_copy(&h, in))
        die("out of memory");
    static char *meta;      /* static: still reachable if the header refuses it */
    meta = fm_source_describe(&g.fm);
    cli_header_set(&h, "faultmap", meta);
    free(meta);
    stage_output(g.output, &h, &g.wo);
    rft_header_free(&h);

    /* maps known up front go right after the header */
    int have_all = 0;
    for (size_t i = 0; i < g.set.n; i++) {
        emit(&g.set.maps[i]);
        have_all |= g.set.maps[i].cu == RFT_FM_ALL;
    }
    if (g.fm.have_gen && g.fm.same && !have_all) {
        rft_faultmap tmp = {0};
        emit(map_for(RFT_FM_ALL, RFT_FM_ALL, &tmp));
        rft_faultmap_free(&tmp);
        have_all = 1;
    }
    rft_map seen;
    if (rft_map_init(&seen, 64))
        stage_fail("out of memory");
    uint64_t replaced = 0;
    uint32_t last = UINT32_MAX;
    rft_rec *rec = malloc(sizeof *rec);
    if (!rec)
        stage_fail("out of memory");
    int e;
    while ((e = rft_read(r, rec)) == 0) {
        uint16_t cu, simd;
        uint32_t wf;
        if (rec->kind == RFT_FAULTMAP) {
            replaced++;
            continue;
        }
        if (!have_all && rft_rec_wf(rec, &cu, &simd, &wf) && rft_slice_key(cu, simd) != last) {
            last = rft_slice_key(cu, simd);
            if (!rft_map_get(&seen, last)) {
                /* a slice without a map of its own gets one before its first record */
                rft_faultmap tmp = {0};
                const rft_faultmap *m = map_for(cu, simd, &tmp);
                if (!m)
                    stage_fail("no fault map for slice %u:%u (%s has neither its rows nor '*' "
                               "rows; add --scenario)", cu, simd, g.fm.map_path);
                if (m == &tmp)
                    emit(m);
                rft_faultmap_free(&tmp);
                if (rft_map_put(&seen, last, 1))
                    stage_fail("out of memory");
            }
        }
        stage_put(rft_write_rec(stage.w, rec));
    }
    stage_read_end(e);
    rft_map_free(&seen);
    free(rec);
    stage_close();
    if (replaced)
        warnx("warning: %s: %llu fault map records of the input replaced", g.input,
              (unsigned long long)replaced);
}

int main(int argc, char **argv)
{
    static const struct option opts[] = {
        FM_SOURCE_OPTIONS,                       {"output", required_argument, 0, 'o'},
        {"level", required_argument, 0, 'l'},    {"csv", no_argument, 0, 'C'},
        {"show", no_argument, 0, 'W'},           {"stats", no_argument, 0, 'T'},
        {"format", required_argument, 0, 'f'},   {"slice", required_argument, 0, 's'},
        {"entries", required_argument, 0, 'N'},  {"blocks", required_argument, 0, 'B'},
        {0, 0, 0, 0}};
    int fmt_set = 0, out_set = 0, c;
    cli_init(argc, argv, usage);
    g.wo.level = RFT_DEFAULT_LEVEL;
    while ((c = getopt_long(argc, argv, "o:f:", opts, NULL)) != -1) {
        switch (c) {
        case 'o': g.output = optarg; out_set = 1; break;
        case 'l': g.wo.level = cli_level(optarg); break;
        case 'C': case 'W': case 'T': {
            int m = c == 'C' ? MODE_CSV : c == 'W' ? MODE_SHOW : MODE_STATS;
            if (g.mode && g.mode != m)
                usage_error("--csv, --show and --stats exclude each other");
            g.mode = m;
            break;
        }
        case 'f': g.fmt = cli_format(optarg); fmt_set = 1; break;
        case 's': g.slices = optarg; break;
        case 'N': g.entries = (uint32_t)cli_uint("--entries", optarg, 1, RFT_MAX_ENTRIES); g.entries_set = 1; break;
        case 'B': g.blocks = (uint32_t)cli_uint("--blocks", optarg, 1, RFT_MAX_LANES); g.blocks_set = 1; break;
        default:
            if (!fm_source_option(&g.fm, c))
                cli_bad_option(argv);
        }
    }
    g.input = cli_input(argc, argv);
    fm_source_check(&g.fm);
    if (fmt_set && g.mode != MODE_STATS)
        usage_error("--format goes with --stats");
    if (g.mode == MODE_STREAM) {
        if (!g.fm.have_gen && !g.fm.map_path)
            usage_error("a map is needed: --scenario NAME (or --shares) or --map FILE.csv");
        if (g.slices || g.entries_set || g.blocks_set)
            usage_error("--slice, --entries and --blocks go with --csv, --show or --stats "
                        "(a stream has its own geometry)");
        run_stage();
    } else {
        if (out_set)
            usage_error("-o goes with the stream stage; --csv, --show and --stats print");
        if (g.fm.have_gen || g.fm.map_path) {
            if (optind < argc)
                usage_error("FILE is a stream whose maps are printed: no map options with it");
            print_given();
        } else {
            print_stream();
        }
        if (stats_table)
            table_free(stats_table);
    }
    rft_fmset_free(&g.set);
    free(rbuf);
    free(csv_buf);
    return cli_close_stdout();
}
