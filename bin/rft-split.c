/* rft-split - a stream cut into N shard files in one pass (lib/split.c):
 * shard K holds the records of its slices, every record of no slice, and
 * a whole record saying what the whole stream held, so that a stage reading
 * it with --shard K/N writes byte for byte what it writes reading shard K/N
 * of the whole stream (rft-split(1)). */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "split.h"

static const char usage[] =
    "rft-split --shards N [--shard-by cu|slice] -o PREFIX [--level N] [--flush] [FILE]\n"
    "A stream cut into the files of its N shards in one pass\n"
    "\n"
    "      --shards N         The number of shards, 1 to 65536\n"
    "      --shard-by cu|slice  A slice's index is its CU alone (cu) or CU x SIMDs + SIMD "
    "(slice, the default), as --shard-by of the readers\n"
    "  -o, --output PREFIX    Shard K goes to PREFIX.K.rft, or to PREFIX with {} replaced by K "
    "when it holds {}\n"
    "      --level N          zstd level of the shards: -99..-1 (fast), 1..22 (default 1)\n"
    "      --flush            Flush each shard's compressed output after every batch of records, "
    "for a reader that follows the files as they grow\n";

/* The file of shard k: the template with {} replaced by k, or PREFIX.k.rft. */
static char *shard_path(const char *tmpl, uint32_t k)
{
    const char *at = strstr(tmpl, "{}");
    if (at)
        return xasprintf("%.*s%u%s", (int)(at - tmpl), tmpl, k, at + 2);
    return xasprintf("%s.%u.rft", tmpl, k);
}

int main(int argc, char **argv)
{
    static const struct option opts[] = {{"shards", required_argument, 0, 'n'},
                                         {"shard-by", required_argument, 0, 'b'},
                                         {"output", required_argument, 0, 'o'},
                                         {"level", required_argument, 0, 'l'},
                                         {"flush", no_argument, 0, 'F'},
                                         {0, 0, 0, 0}};
    cli_init(argc, argv, usage);
    argc = cli_take_quiet(argc, argv);
    uint32_t n = 0;
    int by = RFT_SHARD_BY_SLICE;
    const char *out = NULL;
    rft_writer_opts wo = {.level = RFT_DEFAULT_LEVEL};
    int ch;
    while ((ch = cli_getopt(argc, argv, "o:", opts)) != -1) {
        switch (ch) {
        case 'n': n = (uint32_t)cli_uint("--shards", optarg, 1, 65536); break;
        case 'b':
            by = cli_choice("--shard-by", optarg, "slice|cu") == 1 ? RFT_SHARD_BY_CU
                                                                   : RFT_SHARD_BY_SLICE;
            break;
        case 'o': out = optarg; break;
        case 'l': wo.level = cli_level(optarg); break;
        case 'F': wo.flush_each = 1; break;
        default: cli_bad_option(argv);
        }
    }
    if (!n)
        usage_error("--shards N is required");
    if (!out || !*out)
        usage_error("-o PREFIX is required (the shards are files)");
    const char *input = cli_input(argc, argv);
    char err[400];
    rft_reader *r = rft_reader_open(input, err, sizeof err);
    if (!r)
        die("%s: %s", input, err);
    const rft_header *in = rft_reader_header(r);
    rft_split *sp = rft_split_new(n, by, in);
    if (!sp)
        die("%s: out of memory", input);
    rft_header h;
    rft_header_init(&h, in->producer);
    char key[32];
    snprintf(key, sizeof key, "0/%u", n);
    if (rft_header_copy(&h, in) || rft_header_set(&h, RFT_META_SPLIT, key) ||
        rft_header_set(&h, RFT_META_SPLIT_BY, by == RFT_SHARD_BY_CU ? "cu" : "slice"))
        die("%s: header: out of memory or full", input);
    rft_writer **w = xrealloc(NULL, n * sizeof *w);
    char **paths = xrealloc(NULL, n * sizeof *paths);
    for (uint32_t k = 0; k < n; k++) {
        snprintf(key, sizeof key, "%u/%u", k, n);
        rft_header_set(&h, RFT_META_SPLIT, key);
        paths[k] = shard_path(out, k);
        if (!(w[k] = rft_writer_open(paths[k], &h, &wo, err, sizeof err))) {
            for (uint32_t i = 0; i < k; i++)
                rft_writer_close(w[i], 0, NULL, 0);
            die("%s: %s", paths[k], err);
        }
    }
    rft_header_free(&h);
    rft_rec rec;
    int e;
    const char *bad = NULL;
    while ((e = rft_read(r, &rec)) == 0) {
        int64_t k = rft_split_route(sp, rec.kind, rec.raw, rec.len);
        for (uint32_t i = k < 0 ? 0 : (uint32_t)k; i < (k < 0 ? n : (uint32_t)k + 1); i++)
            if (rft_write_raw(w[i], rec.kind, rec.raw, rec.len)) {
                bad = paths[i];
                snprintf(err, sizeof err, "%s", rft_writer_error(w[i]));
                e = RFT_EIO;
                break;
            }
        if (bad)
            break;
    }
    if (e != RFT_EOF && !bad)
        snprintf(err, sizeof err, "record %llu: %s", (unsigned long long)rft_reader_count(r) + 1,
                 rft_reader_error(r));
    uint8_t whole[RFT_WHOLE_LEN];
    rft_whole_encode(rft_split_whole(sp), whole);
    int ok = e == RFT_EOF;
    for (uint32_t k = 0; k < n; k++) {
        char cerr[400];
        if (ok && rft_write_raw(w[k], RFT_WHOLE, whole, RFT_WHOLE_LEN)) {
            ok = 0;
            bad = paths[k];
            snprintf(err, sizeof err, "%s", rft_writer_error(w[k]));
        }
        if (rft_writer_close(w[k], ok, cerr, sizeof cerr) && ok) {
            ok = 0;
            bad = paths[k];
            snprintf(err, sizeof err, "%s", cerr);
        }
    }
    rft_split_free(sp);
    rft_reader_close(r);
    if (!ok) {
        /* the shards written before the failure are removed with the rest */
        for (uint32_t k = 0; k < n; k++)
            if (bad)
                remove(paths[k]);
        die("%s: %s", bad ? bad : input, err);
    }
    for (uint32_t k = 0; k < n; k++)
        free(paths[k]);
    free(paths);
    free(w);
    return 0;
}
