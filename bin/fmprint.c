/* fmprint.c - fault maps printed as CSV, a picture or statistics
 * (rft-faultmap --csv, --show, --stats). */
#include "fmprint.h"

#include "notes.h"

#include <stdlib.h>
#include <string.h>

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
    char *line = xrealloc(NULL, m->blocks + 2);
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

/* What the statistics are of (issue 22), from the first map m. */
static void stats_notes(const fm_print *p, const rft_faultmap *m)
{
    cli_table *t = p->stats;
    table_notef(t, "classes: bits0 to bits4+: the entries with 0, 1, 2, 3 and 4 or more faulty "
                "bits (seed 001 Table 1's columns); a faulty entry has more than ECP repairs "
                "(%u bit per entry)", m->ecp);
    table_note(t, p->counts ? "counts: faulty_next: the faulty entries whose next entry is "
                              "faulty too"
                            : "shares: faulty%: the faulty entries, of the entries; faulty_next%: "
                              "the faulty entries whose next entry is faulty too, of the faulty "
                              "entries with a next entry (spatial correlation)");
    if (m->entries != NOTES_SEED_ENTRIES || m->blocks != 4)
        table_notef(t, "differs from the seed: slices of %u entries x %u blocks, not seed 001's "
                    "GCN slice (%d x 4)", m->entries, m->blocks, NOTES_SEED_ENTRIES);
}

static void stats(fm_print *p, const rft_faultmap *m)
{
    static const char *const cols[] = {
        "slice", "origin", "seed", "entries", "blocks", "bits0", "bits1", "bits2", "bits3",
        "bits4+", "faulty_entries", "faulty%", "faulty_blocks", "faulty_next%"};
    if (!p->stats && p->counts)
        p->count_names = table_count_names(14, cols);
    if (!p->stats) {
        p->stats = table_new(p->fmt, stdout, 14, p->counts ? p->count_names : cols);
        stats_notes(p, m);
    }
    cli_table *t = p->stats;
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
    table_share(t, p->counts, faulty, m->entries);
    table_u64(t, fblocks);
    table_share(t, p->counts, pairs, lead);
    table_end_row(t);
}

static void print_map(fm_print *p, const rft_faultmap *m)
{
    switch (p->mode) {
    case FM_PRINT_SHOW: show(m); break;
    case FM_PRINT_STATS: stats(p, m); break;
    case FM_PRINT_CSV:
        p->csv_len = 0;
        if (rft_faultmap_csv_format(m, &p->csv, &p->csv_len, &p->csv_cap))
            die("out of memory");
        fwrite(p->csv, 1, p->csv_len, stdout);
        break;
    }
}

static void parse_slice(const char *s, uint16_t *cu, uint16_t *simd)
{
    if (strcmp(s, "*") == 0)
        *cu = *simd = RFT_FM_ALL;
    else    /* 65535 is RFT_FM_ALL */
        cli_slice("--slice", s, 65534, "CU:SIMD or '*'", cu, simd);
}

static void csv_header(const fm_print *p)
{
    if (p->mode == FM_PRINT_CSV)
        fputs(rft_faultmap_csv_header(), stdout);
}

/* ---- the maps the options give: a job that reads no stream ----------------------- */
static void given_open(cli_job *j, rft_header *h) {}

static void given_run(cli_job *j, const rft_sink *out)
{
    fm_print *p = j->ctx;
    const fm_source *f = &p->fm;
    rft_fmset set;
    rft_fmset_init(&set);
    fm_source_load(f, p->entries, p->blocks, &set);
    csv_header(p);
    if (!p->slices && f->src.csv) {
        for (size_t i = 0; i < set.n; i++)
            print_map(p, &set.maps[i]);
        rft_fmset_free(&set);
        return;
    }
    char *list = xasprintf("%s", p->slices ? p->slices : "*");
    for (char *tok = strtok(list, ","); tok; tok = strtok(NULL, ",")) {
        uint16_t cu, simd;
        rft_faultmap tmp = {0};
        const rft_faultmap *m;
        parse_slice(tok, &cu, &simd);
        if (rft_fm_source_map(&f->src, &set, p->entries, p->blocks, cu, simd, &tmp, &m))
            die("out of memory");
        if (!m)
            die("%s: no map for slice %s", f->src.csv, tok);
        rft_faultmap copy;
        if (rft_faultmap_copy(&copy, m))
            die("out of memory");
        copy.cu = cu;   /* a slice printed from the map for all slices is that slice's */
        copy.simd = simd;
        print_map(p, &copy);
        rft_faultmap_free(&copy);
        rft_faultmap_free(&tmp);
    }
    free(list);
    rft_fmset_free(&set);
}

/* ---- the maps of a stream: a stage that prints them ------------------------------- */
typedef struct {
    rft_stage st;
    fm_print *p;
} print_stage;

static int stream_start(rft_stage *st, const rft_header *in, rft_header *out)
{
    fm_print *p = ((print_stage *)st)->p;
    if (p->slices) {
        if (strchr(p->slices, ','))
            usage_error("--slice: one slice when reading maps from a stream");
        parse_slice(p->slices, &p->want_cu, &p->want_simd);
    }
    csv_header(p);
    return 0;
}

static int stream_feed(rft_stage *st, rft_rec *rec, const rft_sink *out)
{
    fm_print *p = ((print_stage *)st)->p;
    char why[RFT_FM_WHY];
    rft_faultmap m;
    if (rec->kind != RFT_FAULTMAP)
        return 0;
    if (rft_faultmap_decode(rec->raw, rec->len, &m, why, sizeof why))
        return rft_stage_fail(st, RFT_EFORMAT, "%s", why);
    if (!p->slices || (m.cu == p->want_cu && m.simd == p->want_simd)) {
        print_map(p, &m);
        p->any = 1;
    }
    rft_faultmap_free(&m);
    return 0;
}

static void stream_free(rft_stage *st) { free(st); }

static const rft_stage_ops stream_ops = {"rft-faultmap", stream_start, stream_feed, NULL,
                                         stream_free, 0};

static void report(cli_job *j)
{
    fm_print *p = j->ctx;
    if (!j->source_run && !p->any)
        die("%s: no fault map%s%s", j->input, p->slices ? " for slice " : "",
            p->slices ? p->slices : "");
    if (p->stats)
        table_free(p->stats);
    free(p->count_names);
    free(p->csv);
}

void fm_print_job(fm_print *p, cli_job *j)
{
    j->ctx = p;
    j->report = report;
    j->stream = 0;
    if (p->fm.src.csv || p->fm.src.have_gen) {
        j->source_open = given_open;
        j->source_run = given_run;
        return;
    }
    print_stage *s = xrealloc(NULL, sizeof *s);
    *s = (print_stage){.st = {.ops = &stream_ops, .input = "-"}, .p = p};
    j->st = &s->st;
    j->prints = 1;
}
