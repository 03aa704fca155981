/* rft-view - an rft stream as text, TSV, CSV or JSON lines; its header;
 * its statistics; filtered by kind, slice, kernel, wavefront and cycles. */
#include <getopt.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "alloc.h"
#include "dcpatch.h"
#include "rft.h"

static const char usage[] =
    "usage: rft-view [-H] [--stats] [--format text|tsv|csv|json] [--kind LIST]\n"
    "                [--slice CU:SIMD] [--kernel NAME|INDEX] [--wf ID] [--cycles FROM:TO] [FILE]\n"
    "Print an rft stream (rft(5)) in the canonical text grammar of rft-decode(1).\n";

static struct {
    unsigned kinds;                 /* bit per kind letter to show */
    int slice_set, kernel_set, wf_set;
    uint16_t cu, simd;
    uint32_t wf;
    const char *kernel_name;
    uint32_t kernel_idx;
    uint64_t c_from, c_to;
} f = {.c_to = UINT64_MAX};

static char **knames;
static uint32_t nk, kcap;

static void note_kernel(const rft_kernel *k)
{
    if (k->index >= kcap) {
        uint32_t cap = kcap ? kcap : 16;
        while (cap <= k->index)
            cap *= 2;
        if (cap > 1u << 24 || !(knames = realloc(knames, cap * sizeof *knames)))
            die("too many kernels");
        memset(knames + kcap, 0, (cap - kcap) * sizeof *knames);
        kcap = cap;
    }
    free(knames[k->index]);
    if (!(knames[k->index] = strndup(k->name, k->name_len)))
        die("out of memory");
    if (k->index >= nk)
        nk = k->index + 1;
}

static const char kind_letters[] = "EKBEWRA"; /* index = kind; 0 (end) unused */
#define ALL_KINDS 0x3f                          /* a bit per letter of "KBWREA" */

static unsigned parse_kinds(const char *s)
{
    unsigned m = 0;
    for (const char *p = s; *p; p++) {
        const char *q = strchr("KBWREA", *p);
        if (*p == ',')
            continue;
        if (!q)
            usage_error("--kind: '%c' is not one of K, B, W, R, E, A", *p);
        m |= 1u << (q - "KBWREA");
    }
    return m;
}

static unsigned kind_bit(int kind)
{
    switch (kind) {
    case RFT_KERNEL: return 1u << 0;
    case RFT_WFBEGIN: return 1u << 1;
    case RFT_WRITE: return 1u << 2;
    case RFT_READ: return 1u << 3;
    case RFT_WFEND: return 1u << 4;
    case RFT_BUNDLE: return 1u << 5;
    default: return 0;
    }
}

static int kernel_matches(uint32_t k)
{
    if (f.kernel_name)
        return k < nk && knames[k] && strcmp(knames[k], f.kernel_name) == 0;
    return k == f.kernel_idx;
}

/* , "mask": "HEX" as the canonical text spells it */
static char *json_mask(const rft_geom *g, const uint8_t *mask, char *p)
{
    p += sprintf(p, ", \"mask\": \"");
    for (int i = (int)((g->lanes + 3) / 4) - 1; i >= 0; i--)
        p += sprintf(p, "%x", (mask[i / 2] >> (4 * (i & 1))) & 15);
    return p + sprintf(p, "\"");
}

static void json(const rft_geom *g, const rft_rec *r, char *line)
{
    uint16_t cu, simd;
    uint32_t wf;
    char *p = line;
    p += sprintf(p, "{\"kind\": \"%c\"", r->kind <= RFT_BUNDLE ? kind_letters[r->kind] : '?');
    if (r->kind == RFT_KERNEL) {
        p += sprintf(p, ", \"cycle\": %llu, \"index\": %u, \"name\": \"",
                     (unsigned long long)r->u.kernel.cycle, r->u.kernel.index);
        for (uint16_t i = 0; i < r->u.kernel.name_len; i++) {
            unsigned char c = (unsigned char)r->u.kernel.name[i];
            p += c == '"' || c == '\\' ? sprintf(p, "\\%c", c)
                 : c < 0x20            ? sprintf(p, "\\u%04x", c)
                                       : sprintf(p, "%c", c);
        }
        p += sprintf(p, "\"");
    } else if (rft_rec_wf(r, &cu, &simd, &wf)) {
        p += sprintf(p, ", \"cycle\": %llu, \"cu\": %u, \"simd\": %u, \"wf\": %u",
                     (unsigned long long)rft_rec_cycle(r), cu, simd, wf);
    }
    if (r->kind == RFT_WFBEGIN) {
        const rft_wfbegin *b = &r->u.begin;
        p += sprintf(p, ", \"nvgprs\": %u", b->nregs);
        if (b->kernel != RFT_NO_KERNEL)
            p += sprintf(p, ", \"kernel\": %u", b->kernel);
        if (b->wg != RFT_NO_WG)
            p += sprintf(p, ", \"wg\": %u", b->wg);
    } else if (r->kind == RFT_READ) {
        p += sprintf(p, ", \"vreg\": %u", r->u.read.vreg);
        if (r->u.read.phys != RFT_NO_PHYS)
            p += sprintf(p, ", \"phys\": %u", r->u.read.phys);
    } else if (r->kind == RFT_WRITE) {
        const rft_write *w = &r->w;
        p += sprintf(p, ", \"vreg\": %u", w->vreg);
        p = json_mask(g, w->mask, p);
        p += sprintf(p, ", \"values\": [");
        for (uint32_t i = 0; i < g->lanes; i++)
            p += sprintf(p, "%s%u", i ? ", " : "", w->val[i]);
        p += sprintf(p, "]");
        if (w->phys != RFT_NO_PHYS)
            p += sprintf(p, ", \"phys\": %u", w->phys);
        if (w->cls)
            p += sprintf(p, ", \"class\": \"%s\", \"bs\": %u, \"c0\": %u, \"de\": %u, \"db\": %u",
                         rft_class_name(w->cls), w->bs, w->c0, w->de, w->db);
        if (w->wc)
            p += sprintf(p, ", \"wc\": \"%s\"", rft_wc_name(w->wc));
        if (w->flags)
            p += sprintf(p, ", \"firstblock\": %d, \"divergent\": %d, \"mov\": %d, \"wakeup\": %d",
                         !!(w->flags & RFT_WF_FIRSTBLOCK), !!(w->flags & RFT_WF_DIVERGENT),
                         !!(w->flags & RFT_WF_MOV), !!(w->flags & RFT_WF_WAKEUP));
        if (w->on_bits != RFT_NO_GATE)
            p += sprintf(p, ", \"on_bits\": %u", w->on_bits);
    } else if (r->kind == RFT_BUNDLE) {
        const rft_bundle *b = &r->u.bundle;
        p += sprintf(p, ", \"slots\": \"");
        for (int i = 0; i < RFT_NSLOTS; i++)
            if (b->slots >> i & 1)
                *p++ = "XYZWT"[i];
        p += sprintf(p, "\", \"trans\": %d, \"vector\": %d", !!(b->flags & RFT_UF_TRANS),
                     !!(b->flags & RFT_UF_VECTOR));
        p = json_mask(g, b->mask, p);
    } else if (r->kind > RFT_BUNDLE) {
        p += sprintf(p, ", \"type\": %d, \"bytes\": %u", r->kind, r->len);
    }
    strcpy(p, "}");
}

static void extra_record(const rft_rec *r, int as_json, char sep)
{
    static rft_counters c;
    rft_alloc_rec a;
    if (r->kind == RFT_ALLOC && rft_alloc_parse(r->raw, r->len, &a) == 0) {
        if (as_json) {
            printf("{\"kind\": \"alloc\", \"cycle\": %llu, \"cu\": %u, \"simd\": %u, "
                   "\"wf\": %u, \"event\": \"%s\", \"base\": %u, \"n\": %u, \"rot\": %u, "
                   "\"free\": %u, \"gated\": %d, \"bank\": %u}\n",
                   (unsigned long long)a.cycle, a.cu, a.simd, a.wf,
                   a.event == RFT_ALLOC_EV_FREE ? "free" : "alloc", a.base, a.n, a.rot, a.nfree,
                   a.flags & RFT_AF_GATED, a.bank);
        } else {
            char buf[512];
            size_t n = rft_alloc_format(&a, sep, buf);
            printf("%.*s\n", (int)n, buf);
        }
        return;
    }
    rft_patch_rec p;
    if (r->kind == RFT_PATCH && rft_patch_parse(r->raw, r->len, &p) == 0) {
        if (as_json) {
            static const char *const place[] = {"?", "entry", "block", "lds"};
            printf("{\"kind\": \"patch\", \"cycle\": %llu, \"cu\": %u, \"simd\": %u, \"wf\": %u, "
                   "\"vreg\": %u, \"place\": \"%s\"", (unsigned long long)p.cycle, p.cu, p.simd,
                   p.wf, p.vreg, place[p.place]);
            if (p.entry != RFT_PATCH_NONE)
                printf(", \"entry\": %u", p.entry);
            if (p.block != RFT_PATCH_NONE)
                printf(", \"block\": %u, \"c0\": %u, \"code\": %u", p.block, p.c0, p.code);
            printf("}\n");
        } else {
            char buf[RFT_PATCH_TEXT_MAX];
            size_t n = rft_patch_format(&p, sep, buf);
            printf("%.*s\n", (int)n, buf);
        }
        return;
    }
    if (r->kind != RFT_COUNTERS || rft_counters_parse(r->raw, r->len, &c)) {
        if (as_json)
            printf("{\"kind\": \"0x%02x\", \"bytes\": %u}\n", r->kind, r->len);
        else
            printf("# record kind 0x%02x%c%u bytes\n", r->kind, sep, r->len);
        return;
    }
    if (as_json) {
        printf("{\"kind\": \"counters\", \"stage\": \"%s\", \"scope\": \"%s\", \"counters\": {",
               c.stage, c.scope);
        for (int i = 0; i < c.n; i++)
            printf("%s\"%s\": %llu", i ? ", " : "", c.name[i], (unsigned long long)c.value[i]);
        printf("}}\n");
        return;
    }
    printf("# counters%cstage=%s%cscope=%s", sep, c.stage, sep, c.scope);
    for (int i = 0; i < c.n; i++)
        printf("%c%s=%llu", sep, c.name[i], (unsigned long long)c.value[i]);
    putchar('\n');
}

static void print_header(const rft_header *h, enum cli_fmt fmt)
{
    static const char *const cols[] = {"key", "value"};
    cli_table *t = table_new(fmt, stdout, 2, cols);
    char b[64];
    table_str(t, "format"); snprintf(b, sizeof b, "%u.%u", h->major, h->minor); table_str(t, b); table_end_row(t);
    table_str(t, "producer"); table_str(t, h->producer); table_end_row(t);
    table_str(t, "version"); table_str(t, h->version); table_end_row(t);
    /* values are strings here: numbers and names share the column */
    const char *gk[] = {"lanes", "entries", "block_lanes", "lane_bits"};
    const uint32_t gv[] = {h->geom.lanes, h->geom.entries, h->geom.block_lanes, h->geom.lane_bits};
    for (int i = 0; i < 4; i++) {
        snprintf(b, sizeof b, "%u", gv[i]);
        table_str(t, gk[i]);
        table_str(t, b);
        table_end_row(t);
    }
    for (int i = 0; i < h->nmeta; i++) {
        table_str(t, h->meta[i].key);
        table_str(t, h->meta[i].val);
        table_end_row(t);
    }
    table_free(t);
}

int main(int argc, char **argv)
{
    static const struct option opts[] = {
        {"header", no_argument, 0, 'H'},      {"stats", no_argument, 0, 's'},
        {"format", required_argument, 0, 'f'}, {"kind", required_argument, 0, 'k'},
        {"slice", required_argument, 0, 'S'}, {"kernel", required_argument, 0, 'K'},
        {"wf", required_argument, 0, 'w'},    {"cycles", required_argument, 0, 'c'},
        {0, 0, 0, 0}};
    int header_only = 0, stats = 0;
    const char *fmt_name = NULL;
    cli_init(argc, argv, usage);
    f.kinds = ALL_KINDS;
    int c;
    while ((c = getopt_long(argc, argv, "Hsf:", opts, NULL)) != -1) {
        char *colon;
        switch (c) {
        case 'H': header_only = 1; break;
        case 's': stats = 1; break;
        case 'f': fmt_name = optarg; break;
        case 'k': f.kinds = parse_kinds(optarg); break;
        case 'S':
            cli_slice("--slice", optarg, 65535, "CU:SIMD", &f.cu, &f.simd);
            f.slice_set = 1;
            break;
        case 'K': {
            char *end;
            unsigned long v = strtoul(optarg, &end, 10);
            f.kernel_set = 1;
            if (*optarg && !*end && v < RFT_NO_KERNEL)
                f.kernel_idx = (uint32_t)v;
            else
                f.kernel_name = optarg;
            break;
        }
        case 'w': f.wf = (uint32_t)cli_uint("--wf", optarg, 0, 0xfffffffeu); f.wf_set = 1; break;
        case 'c':
            if (!(colon = strchr(optarg, ':')))
                usage_error("--cycles: '%s' is not FROM:TO", optarg);
            *colon = 0;
            if (*optarg)
                f.c_from = cli_uint("--cycles", optarg, 0, UINT64_MAX);
            if (colon[1])
                f.c_to = cli_uint("--cycles", colon + 1, 0, UINT64_MAX);
            break;
        default: cli_bad_option(argv);
        }
    }
    const char *input = cli_input(argc, argv);
    enum cli_fmt fmt = FMT_TSV;
    char sep = '\t';
    int as_json = 0;
    if (fmt_name && strcmp(fmt_name, "text") != 0) {
        fmt = cli_format(fmt_name);
        sep = fmt == FMT_CSV ? ',' : '\t';
        as_json = fmt == FMT_JSON;
    }
    if ((stats || header_only) && (!fmt_name || strcmp(fmt_name, "text") == 0))
        fmt = FMT_TABLE;

    char err[320];
    rft_reader *r = rft_reader_open(input, err, sizeof err);
    if (!r)
        die("%s: %s", input, err);
    const rft_header *h = rft_reader_header(r);
    if (header_only) {
        print_header(h, fmt);
        rft_reader_close(r);
        return cli_close_stdout();
    }

    rft_map wfk, slices;                    /* wavefront -> kernel; slices seen */
    if (rft_map_init(&wfk, 64) || rft_map_init(&slices, 64))
        die("out of memory");
    uint64_t per_kind[RFT_BUNDLE + 2] = {0}, wavefronts = 0, first = 0, last = 0, annotated = 0, shown = 0;
    int any = 0;
    char *line = malloc(RFT_TEXT_MAX + 64 * RFT_MAX_LANES);
    if (!line)
        die("out of memory");
    rft_rec rec;
    int e;
    while ((e = rft_read(r, &rec)) == 0) {
        uint16_t cu = 0, simd = 0;
        uint32_t wf = 0, kernel = RFT_NO_KERNEL;
        int has_wf = rft_rec_wf(&rec, &cu, &simd, &wf);
        uint64_t cyc = rft_rec_cycle(&rec);
        if (rec.kind == RFT_KERNEL)
            note_kernel(&rec.u.kernel);
        if (rec.kind == RFT_WFBEGIN) {
            kernel = rec.u.begin.kernel;
            wavefronts++;
            if (rft_map_put(&wfk, rft_wf_key(cu, simd, wf), kernel))
                die("out of memory");
        } else if (has_wf) {
            uint64_t *k = rft_map_get(&wfk, rft_wf_key(cu, simd, wf));
            kernel = k ? (uint32_t)*k : RFT_NO_KERNEL;
            if (rec.kind == RFT_WFEND)
                rft_map_del(&wfk, rft_wf_key(cu, simd, wf));
        } else if (rec.kind == RFT_KERNEL) {
            kernel = rec.u.kernel.index;
        }
        /* filters */
        if (rec.kind <= RFT_BUNDLE && !(kind_bit(rec.kind) & f.kinds))
            continue;
        if (rec.kind > RFT_BUNDLE && f.kinds != ALL_KINDS)
            continue;
        if (rec.kind <= RFT_BUNDLE && (cyc < f.c_from || cyc > f.c_to))
            continue;
        if ((f.slice_set || f.wf_set) && !has_wf)
            continue;
        if (f.slice_set && (cu != f.cu || simd != f.simd))
            continue;
        if (f.wf_set && wf != f.wf)
            continue;
        if (f.kernel_set && !kernel_matches(kernel))
            continue;
        if (stats) {
            per_kind[rec.kind <= RFT_BUNDLE ? rec.kind : RFT_BUNDLE + 1]++;
            if (has_wf && !rft_map_get(&slices, rft_slice_key(cu, simd)) &&
                rft_map_put(&slices, rft_slice_key(cu, simd), 1))
                die("out of memory");
            if (rec.kind == RFT_WRITE && (rec.w.cls || rec.w.phys != RFT_NO_PHYS))
                annotated++;
            if (rec.kind <= RFT_BUNDLE) {
                if (!any)
                    first = cyc;
                last = cyc;
                any = 1;
            }
            continue;
        }
        size_t n;
        if (rec.kind > RFT_BUNDLE) {
            /* records of analysis stages: counters in full, others by size */
            extra_record(&rec, as_json, sep);
            continue;
        }
        if (as_json) {
            json(&h->geom, &rec, line);
            n = strlen(line);
        } else {
            n = rft_text_format(&h->geom, &rec, (const char *const *)knames, nk, sep, line);
            if (n == 0)
                continue;
        }
        line[n++] = '\n';
        fwrite(line, 1, n, stdout);
        shown++;
    }
    if (e != RFT_EOF) {
        fflush(stdout);
        die("%s: %s", input, rft_reader_error(r));
    }
    if (stats) {
        static const char *const cols[] = {"statistic", "value"};
        cli_table *t = table_new(fmt, stdout, 2, cols);
        static const char *const names[] = {"end",   "kernels", "wavefronts", "wavefront_ends",
                                            "writes", "reads",  "bundles",    "other_records"};
        uint64_t total = 0;
        for (int i = 1; i < RFT_BUNDLE + 2; i++) {
            table_str(t, names[i]);
            table_u64(t, per_kind[i]);
            table_end_row(t);
            total += per_kind[i];
        }
        (void)wavefronts;
        table_str(t, "records"); table_u64(t, total); table_end_row(t);
        table_str(t, "slices"); table_u64(t, slices.count); table_end_row(t);
        table_str(t, "annotated_writes"); table_u64(t, annotated); table_end_row(t);
        table_str(t, "first_cycle"); table_u64(t, first); table_end_row(t);
        table_str(t, "last_cycle"); table_u64(t, last); table_end_row(t);
        table_str(t, "cycle_span"); table_u64(t, any ? last - first : 0); table_end_row(t);
        table_free(t);
    }
    (void)shown;
    rft_map_free(&wfk);
    rft_map_free(&slices);
    rft_reader_close(r);
    for (uint32_t i = 0; i < kcap; i++)
        free(knames[i]);
    free(knames);
    free(line);
    return cli_close_stdout();
}
