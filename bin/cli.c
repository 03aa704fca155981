/* cli.c - option parsing, messages and output closing shared by the
 * rft-* programs (their tables: table.c). */
#include "cli.h"

#include <errno.h>
#include <getopt.h>
#include <limits.h>
#ifdef __GLIBC__
#include <malloc.h>
#endif
#include <math.h>
#include <pthread.h>
#include <signal.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "rft.h"

const char *prog = "rft";
const char *cli_usage_text = "";
int cli_quiet;

/* argv without the options take uses (before any "--"): take returns how
 * many words from argv[i] it used, 0 for none.  The new argc. */
static int take_opts(int argc, char **argv, int (*take)(int argc, char **argv, int i))
{
    int n = 1;
    for (int i = 1; i < argc; i++) {
        if (strcmp(argv[i], "--") == 0) {
            while (i < argc)
                argv[n++] = argv[i++];
            break;
        }
        int used = take(argc, argv, i);
        if (used)
            i += used - 1;
        else
            argv[n++] = argv[i];
    }
    argv[n] = NULL;
    return n;
}

static int quiet_opt(int argc, char **argv, int i)
{
    return strcmp(argv[i], "--quiet") == 0 ? (cli_quiet = 1) : 0;
}

int cli_take_quiet(int argc, char **argv) { return take_opts(argc, argv, quiet_opt); }

uint32_t cli_shard_k, cli_shard_n;
int cli_shard_ok, cli_shard_by = RFT_SHARD_BY_SLICE, cli_shard_by_given;

/* K/N of --shard into cli_shard_k, cli_shard_n */
static void shard_arg(const char *s)
{
    const char *slash = strchr(s, '/');
    char *k = slash ? xasprintf("%.*s", (int)(slash - s), s) : NULL;
    if (!k)
        usage_error("--shard: '%s' is not K/N (shard K of N, 0 <= K < N)", s);
    cli_shard_n = (uint32_t)cli_uint("--shard", slash + 1, 1, UINT32_MAX);
    cli_shard_k = (uint32_t)cli_uint("--shard", k, 0, cli_shard_n - 1);
    free(k);
}

/* --shard-by cu|slice into cli_shard_by */
static void shard_by_arg(const char *s)
{
    if (strcmp(s, "cu") == 0)
        cli_shard_by = RFT_SHARD_BY_CU;
    else if (strcmp(s, "slice") == 0)
        cli_shard_by = RFT_SHARD_BY_SLICE;
    else
        usage_error("--shard-by: '%s' is not cu or slice", s);
    cli_shard_by_given = 1;
}

static int shard_opt(int argc, char **argv, int i)
{
    if (strncmp(argv[i], "--shard-by=", 11) == 0) {
        shard_by_arg(argv[i] + 11);
        return 1;
    }
    if (strcmp(argv[i], "--shard-by") == 0) {
        if (i + 1 == argc)
            usage_error("--shard-by: missing argument (cu or slice)");
        shard_by_arg(argv[i + 1]);
        return 2;
    }
    if (strncmp(argv[i], "--shard=", 8) == 0) {
        shard_arg(argv[i] + 8);
        return 1;
    }
    if (strcmp(argv[i], "--shard") != 0)
        return 0;
    if (i + 1 == argc)
        usage_error("--shard: missing argument (K/N)");
    shard_arg(argv[i + 1]);
    return 2;
}

int cli_take_shard(int argc, char **argv)
{
    argc = take_opts(argc, argv, shard_opt);
    if (cli_shard_by_given && !cli_shard_n)
        usage_error("--shard-by: without --shard K/N");
    return argc;
}

void cli_reader_shard(rft_reader *r, const char *input)
{
    if (cli_shard_n && rft_reader_shard_by(r, cli_shard_k, cli_shard_n, cli_shard_by)) {
        char why[400];
        snprintf(why, sizeof why, "%s", rft_reader_error(r));
        rft_reader_close(r);
        die("%s: %s", input, why);
    }
}

void cli_help(const char *usage)
{
    fputs(usage, stdout);
    if (cli_shard_ok)
        fputs(CLI_SHARD_HELP, stdout);
    fputs(CLI_COMMON_HELP, stdout);
    exit(cli_close_stdout());
}

void cli_init(int argc, char **argv, const char *usage)
{
    const char *slash = strrchr(argv[0], '/');
    prog = slash ? slash + 1 : argv[0];
    cli_usage_text = usage;
    /* A parent that ignores SIGPIPE passes that on through exec; we want to
     * end quietly when the reader of our output goes away. */
    signal(SIGPIPE, SIG_DFL);
#ifdef __GLIBC__
    /* A slice's arrays of 64 KiB and more come from mmap as zero pages, paid
     * for when touched: calloc from the heap zeroes them, and a stream of
     * thousands of slices of 65535 entries spent seconds and gigabytes
     * there before its refusal at the memory budget (rft-alloc 4 s and
     * 1 GB, now 0.3 s and 90 MB: bench/hostile, issue 31). */
    mallopt(M_MMAP_THRESHOLD, 64 << 10);
#endif
    opterr = 0; /* one message of ours, not getopt's too */
    for (int i = 1; i < argc && strcmp(argv[i], "--") != 0; i++) {
        if (strcmp(argv[i], "--help") == 0 || strcmp(argv[i], "-h") == 0)
            cli_help(usage);
        if (strcmp(argv[i], "--version") == 0) {
            printf("%s (rftrace) %s\n", prog, RFT_VERSION);
            exit(cli_close_stdout());
        }
    }
}

static void vmsg(const char *fmt, va_list ap)
{
    fflush(stdout);
    fprintf(stderr, "%s: ", prog);
    vfprintf(stderr, fmt, ap);
    fputc('\n', stderr);
}

int cli_level(const char *s)
{
    int64_t v = cli_int("--level", s, -99, 22);
    if (v == 0)
        usage_error("--level: 0 is out of range -99..-1, 1..22");
    return (int)v;
}

char *cli_read_file(const char *path, size_t max, size_t *n)
{
    FILE *in = fopen(path, "rb");
    if (!in)
        return NULL;
    char *buf = NULL;
    size_t cap = 0;
    *n = 0;
    do {
        if (max && cap > max) {
            free(buf), fclose(in);
            errno = EFBIG;
            return NULL;
        }
        buf = xrealloc(buf, cap += 1 << 16);
        *n += fread(buf + *n, 1, cap - *n, in);
    } while (*n == cap);
    int bad = ferror(in) ? errno ? errno : EIO : 0;
    fclose(in);
    if (bad || (max && *n > max)) {
        free(buf);
        errno = bad ? bad : EFBIG;
        return NULL;
    }
    return buf;
}

void *xrealloc(void *p, size_t n)
{
    if (!(p = realloc(p, n ? n : 1)))
        die("out of memory");
    return p;
}

char *xvasprintf(const char *fmt, va_list ap)
{
    va_list again;
    va_copy(again, ap);
    int n = vsnprintf(NULL, 0, fmt, ap);
    if (n < 0)
        die("%s", strerror(errno));
    char *s = xrealloc(NULL, (size_t)n + 1);
    vsnprintf(s, (size_t)n + 1, fmt, again);
    va_end(again);
    return s;
}

char *xasprintf(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    char *s = xvasprintf(fmt, ap);
    va_end(ap);
    return s;
}

void warnx(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vmsg(fmt, ap);
    va_end(ap);
}

void die(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vmsg(fmt, ap);
    va_end(ap);
    exit(1);
}

void usage_error(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    fflush(stdout);
    fprintf(stderr, "%s: ", prog);
    vfprintf(stderr, fmt, ap);
    va_end(ap);
    fprintf(stderr, " (see %s --help)\n", prog);
    exit(2);
}

/* The entry of old for the short option c (long_name NULL) or the long option
 * named long_name, or NULL. */
static const cli_old *old_spelling(const cli_old *old, int c, const char *long_name)
{
    for (; old && old->spelling; old++) {
        const char *s = old->spelling;
        if (long_name ? s[1] == '-' && strcmp(s + 2, long_name) == 0
                      : s[1] != '-' && s[1] == c && s[2] == '\0')
            return old;
    }
    return NULL;
}

/* The long option whose value is val, or NULL. */
static const char *long_of(const struct option *longopts, int val)
{
    for (; longopts->name; longopts++)
        if (longopts->val == val)
            return longopts->name;
    return NULL;
}

int cli_getopt_old(int argc, char **argv, const char *shortopts, const struct option *longopts,
                   const cli_old *old)
{
    if (optind <= 1 && argc == 2 && strcmp(argv[1], "--list-options") == 0) {
        /* the options of --help: an old spelling has no line there */
        for (const char *s = shortopts; *s; s++)
            if (*s != ':' && !old_spelling(old, *s, NULL))
                printf("-%c\n", *s);
        for (const struct option *l = longopts; l->name; l++)
            if (!old_spelling(old, 0, l->name))
                printf("--%s\n", l->name);
        fputs("-h\n--help\n--version\n--quiet\n", stdout);  /* cli_init, cli_take_quiet */
        if (cli_shard_ok)
            fputs("--shard\n--shard-by\n", stdout);    /* cli_take_shard */
        exit(cli_close_stdout());
    }
    if (optind <= 1 && argc == 2 && strcmp(argv[1], "--list-deprecated") == 0) {
        for (; old && old->spelling; old++) {
            const char *name = long_of(longopts, old->val);
            printf("%s\t--%s\t%s\n", old->spelling, name ? name : "?", old->use);
        }
        exit(cli_close_stdout());
    }
    int li = -1;
    int c = getopt_long(argc, argv, shortopts, longopts, &li);
    const cli_old *o = c == -1 || c == '?' || c == ':' ? NULL
                       : old_spelling(old, c, li >= 0 ? longopts[li].name : NULL);
    if (o) {
        const char *name = long_of(longopts, o->val);
        warnx("warning: %s for --%s is deprecated, use %s (rft(1), OPTIONS)", o->spelling,
              name ? name : "?", o->use);
        c = o->val;
    }
    return c;
}

int cli_getopt(int argc, char **argv, const char *shortopts, const struct option *longopts)
{
    return cli_getopt_old(argc, argv, shortopts, longopts, NULL);
}

void cli_bad_option(char **argv)
{
    /* getopt stops inside a word of short options without passing it: the
       word is then argv[optind], not the one before (issue 31: '-x.rft') */
    const char *arg = argv[optind - 1], *here = argv[optind];
    int whole = arg[0] == '-' && arg[1] == optopt && !arg[2];     /* "-x" passed */
    if (optopt && !whole && here && here[0] == '-' && here[1] != '-' && strchr(here + 1, optopt))
        arg = here;
    if (optopt && arg[0] == '-' && arg[1] != '-' && arg[2])
        usage_error("unknown option '-%c' in '%s' (a file named so: ./%s)", optopt, arg, arg);
    if (optopt && arg[0] == '-' && arg[1] != '-' && arg[1] != optopt)
        usage_error("unknown option '-%c'", optopt);
    usage_error("unknown option or missing argument: '%s'", arg);
}

uint64_t cli_uint(const char *opt, const char *s, uint64_t lo, uint64_t hi)
{
    char *end;
    errno = 0;
    if (!s || !*s || *s == '-' || *s == '+' || *s == ' ')
        usage_error("%s: '%s' is not a number", opt, s ? s : "");
    /* decimal, or hex with 0x; never octal */
    int hex = s[0] == '0' && (s[1] == 'x' || s[1] == 'X');
    unsigned long long v = strtoull(hex ? s + 2 : s, &end, hex ? 16 : 10);
    if (errno || *end)
        usage_error("%s: '%s' is not a number", opt, s);
    if (v < lo || v > hi)
        usage_error("%s: %llu is out of range %llu..%llu", opt, v,
                    (unsigned long long)lo, (unsigned long long)hi);
    return v;
}

uint64_t cli_bytes(const char *opt, const char *s)
{
    static const char units[] = "KMGT";
    size_t n = s ? strlen(s) : 0;
    const char *u = n ? strchr(units, s[n - 1]) : NULL;
    if (!u || !s[n - 1])
        return cli_uint(opt, s, 0, UINT64_MAX);
    char num[32];
    if (n - 1 >= sizeof num)
        usage_error("%s: '%s' is not a size", opt, s);
    memcpy(num, s, n - 1);
    num[n - 1] = 0;
    int shift = 10 * (int)(u - units + 1);
    return cli_uint(opt, num, 0, UINT64_MAX >> shift) << shift;
}

int64_t cli_int(const char *opt, const char *s, int64_t lo, int64_t hi)
{
    char *end;
    errno = 0;
    long long v = s && *s && *s != ' ' ? strtoll(s, &end, 10) : 0;
    if (!s || !*s || *s == ' ' || errno || *end)
        usage_error("%s: '%s' is not a number", opt, s ? s : "");
    if (v < lo || v > hi)
        usage_error("%s: %lld is out of range %lld..%lld", opt, v, (long long)lo, (long long)hi);
    return v;
}

double cli_double(const char *opt, const char *s, double lo, double hi)
{
    char *end;
    errno = 0;
    double v = strtod(s, &end);
    if (errno || end == s || *end || !isfinite(v))
        usage_error("%s: '%s' is not a number", opt, s);
    if (v < lo || v > hi)
        usage_error("%s: %g is out of range %g..%g", opt, v, lo, hi);
    return v;
}

void cli_slice(const char *opt, const char *s, unsigned max, const char *form, uint16_t *cu,
               uint16_t *simd)
{
    char buf[32];
    const char *colon = strchr(s, ':');
    if (!colon || (size_t)(colon - s) >= sizeof buf)
        usage_error("%s: '%s' is not %s", opt, s, form);
    snprintf(buf, sizeof buf, "%.*s", (int)(colon - s), s);
    *cu = (uint16_t)cli_uint(opt, buf, 0, max);
    *simd = (uint16_t)cli_uint(opt, colon + 1, 0, max);
}

int cli_choice(const char *opt, const char *arg, const char *choices)
{
    size_t n = strlen(arg);
    int i = 0;
    for (const char *p = choices;; i++) {
        const char *bar = strchr(p, '|');
        size_t len = bar ? (size_t)(bar - p) : strlen(p);
        if (len == n && strncmp(p, arg, n) == 0)
            return i;
        if (!bar)
            break;
        p = bar + 1;
    }
    char list[512];
    size_t k = 0;
    for (const char *p = choices; *p && k + 3 < sizeof list; p++)
        if (*p == '|') {
            list[k++] = ',';
            list[k++] = ' ';
        } else {
            list[k++] = *p;
        }
    list[k] = 0;
    usage_error("%s: '%s' is not one of %s", opt, arg, list);
}

enum cli_fmt cli_format(const char *s)
{
    static const enum cli_fmt f[] = {FMT_TABLE, FMT_TSV, FMT_CSV, FMT_JSON};
    return f[cli_choice("--format", s, "table|tsv|csv|json")];
}

/* ---- temporaries: removed at exit and on a signal ----------------------------
 * Every file written under a temporary name (-o of a stream or a table, the
 * side outputs) is listed here until it is renamed: exit() removes what is
 * left, and so does INT, TERM, HUP or PIPE before the signal's own default
 * action ends the program (the status is the signal's).  The list changes
 * with every signal blocked, so the handler sees it whole; librft's threads
 * take no signal. */
typedef struct {
    char *tmp;                  /* NULL: the slot is free */
    char *final;                /* side outputs: renamed to it by cli_side_commit */
    FILE *f;                    /* side outputs: the open file, NULL once closed */
} cli_tmp;
static cli_tmp *volatile tmps;
static volatile sig_atomic_t ntmps;
static size_t tmps_cap;

static void tmp_remove_all(void)
{
    for (sig_atomic_t i = 0; i < ntmps; i++)
        if (tmps[i].tmp)
            unlink(tmps[i].tmp);
}

static void tmp_signal(int sig)
{
    tmp_remove_all();
    raise(sig);     /* SA_RESETHAND: the default action, once this returns */
}

static void tmp_block(sigset_t *old)
{
    sigset_t all;
    sigfillset(&all);
    pthread_sigmask(SIG_BLOCK, &all, old);
}

/* A free slot for tmp (copied; final copied too unless NULL): its index. */
static size_t tmp_add(const char *tmp, const char *final, FILE *f)
{
    static const int sigs[] = {SIGINT, SIGTERM, SIGHUP, SIGPIPE};
    if (!tmps_cap) {
        atexit(tmp_remove_all);
        for (size_t i = 0; i < sizeof sigs / sizeof sigs[0]; i++) {
            struct sigaction sa, old;
            /* a signal ignored since our start (a background job's INT)
             * stays ignored */
            if (sigaction(sigs[i], NULL, &old) == 0 && old.sa_handler == SIG_IGN)
                continue;
            memset(&sa, 0, sizeof sa);
            sa.sa_handler = tmp_signal;
            sigfillset(&sa.sa_mask);
            sa.sa_flags = SA_RESETHAND;
            sigaction(sigs[i], &sa, NULL);
        }
    }
    cli_tmp t = {xstrdup(tmp), final ? xstrdup(final) : NULL, f};
    sigset_t old;
    tmp_block(&old);
    size_t i = 0;
    while (i < (size_t)ntmps && tmps[i].tmp)
        i++;
    if (i == (size_t)ntmps && i == tmps_cap) {
        size_t cap = tmps_cap ? 2 * tmps_cap : 8;
        cli_tmp *n = realloc(tmps, cap * sizeof *n);
        if (!n) {
            pthread_sigmask(SIG_SETMASK, &old, NULL);
            unlink(tmp);
            die("out of memory");
        }
        tmps = n;
        tmps_cap = cap;
    }
    tmps[i] = t;
    if (i == (size_t)ntmps)
        ntmps++;
    pthread_sigmask(SIG_SETMASK, &old, NULL);
    return i;
}

/* Slot i is done with (its file renamed or removed): freed. */
static void tmp_forget(size_t i)
{
    sigset_t old;
    tmp_block(&old);
    cli_tmp t = tmps[i];
    tmps[i] = (cli_tmp){0};
    pthread_sigmask(SIG_SETMASK, &old, NULL);
    free(t.tmp);
    free(t.final);
}

/* The slot of temporary tmp (a string equal to it), or -1. */
static long tmp_find(const char *tmp)
{
    for (sig_atomic_t i = 0; tmp && i < ntmps; i++)
        if (tmps[i].tmp && strcmp(tmps[i].tmp, tmp) == 0)
            return i;
    return -1;
}

/* A new file under a temporary name for path, in the slot *slot, with the
 * mode open(2) would give path; dies on failure. */
static FILE *tmp_open(const char *path, const char *final, size_t *slot)
{
    char *tmp = rft_tmp_template(path);
    if (!tmp)
        die("out of memory");
    sigset_t old;
    tmp_block(&old);        /* no signal between its making and its listing */
    int fd = mkstemp(tmp);
    FILE *f = fd >= 0 ? fdopen(fd, "w") : NULL;
    if (!f) {
        int e = errno;
        if (fd >= 0)
            unlink(tmp);
        pthread_sigmask(SIG_SETMASK, &old, NULL);
        free(tmp);
        die("%s: %s", path, strerror(e));
    }
    *slot = tmp_add(tmp, final, f);
    pthread_sigmask(SIG_SETMASK, &old, NULL);
    free(tmp);
    mode_t mask = umask(0);     /* mkstemp makes 0600; give what open(2) would */
    umask(mask);
    fchmod(fd, 0666 & ~mask);
    return f;
}

rft_writer *cli_writer_open(const char *path, const rft_header *h, const rft_writer_opts *o,
                            char *err, size_t errlen)
{
    sigset_t old;
    tmp_block(&old);
    rft_writer *w = rft_writer_open(path, h, o, err, errlen);
    if (w && rft_writer_tmp(w))
        tmp_add(rft_writer_tmp(w), NULL, NULL);
    pthread_sigmask(SIG_SETMASK, &old, NULL);
    return w;
}

int cli_writer_close(rft_writer *w, int complete, char *err, size_t errlen)
{
    long i = w ? tmp_find(rft_writer_tmp(w)) : -1;
    int e = rft_writer_close(w, complete, err, errlen);
    if (i >= 0)
        tmp_forget((size_t)i);
    return e;
}

/* -o FILE of text: cli_output_open, cli_stdout_to */
static struct {
    const char *name;
    long slot;                  /* its temporary's, -1 when none */
} text_out = {NULL, -1};

static const char *stdout_name = "standard output";    /* or cli_stdout_to's FILE */
static long stdout_tmp = -1;    /* its slot, renamed to stdout_name when stdout closes well */

int cli_close_stdout(void)
{
    /* fflush and ferror catch a full disk; fclose catches the rest */
    int bad = fflush(stdout) != 0 || ferror(stdout);
    int e = errno;
    if (fclose(stdout) != 0 && !bad) {
        bad = 1;
        e = errno;
    }
    if (!bad && stdout_tmp >= 0 && rename(tmps[stdout_tmp].tmp, stdout_name) != 0) {
        bad = 1;
        e = errno;
    }
    if (bad) {
        if (e == EPIPE)
            cli_epipe(RFT_EPIPE);
        fprintf(stderr, "%s: %s: %s\n", prog, stdout_name, strerror(e));
        return 1;
    }
    if (stdout_tmp >= 0)
        tmp_forget((size_t)stdout_tmp);     /* renamed: not removed at exit */
    stdout_tmp = text_out.slot = -1;
    return 0;
}

void cli_stdout_to(const char *output)
{
    if (!output || strcmp(output, "-") == 0)
        return;
    FILE *o = cli_output_open(output);
    fflush(stdout);
    if (dup2(fileno(o), STDOUT_FILENO) < 0)
        die("%s: %s", output, strerror(errno));
    fclose(o);
    stdout_name = output;
    stdout_tmp = text_out.slot;
}

void cli_epipe(int err)
{
    if (err == RFT_EPIPE) {
        tmp_remove_all();
        signal(SIGPIPE, SIG_DFL);
        raise(SIGPIPE);
        _exit(141);
    }
}

const char *cli_self_dir(const char *argv0)
{
    static char dir[PATH_MAX];
    char buf[PATH_MAX];
    ssize_t n = readlink("/proc/self/exe", buf, sizeof buf);
    if (n > 0 && (size_t)n < sizeof buf)
        buf[n] = 0;
    else if (strlen(argv0) < sizeof buf)
        snprintf(buf, sizeof buf, "%s", argv0);
    else
        return "";      /* not a path the system takes: unknown, never a cut one */
    char *slash = strrchr(buf, '/');
    if (slash) {
        *slash = 0;
        snprintf(dir, sizeof dir, "%s", buf);
    }
    return dir;
}

const char *cli_input(int argc, char **argv)
{
    if (argc - optind > 1)
        usage_error("one input at most");
    return optind < argc ? argv[optind] : "-";
}

const char *cli_spool_stdin(int *fd)
{
    static char name[32];   /* "/dev/fd/N" */
    static char *path;      /* static: still reachable if we die */
    const char *dir = getenv("TMPDIR");
    char buf[1 << 16];
    path = xasprintf("%s/%s.XXXXXX", dir && *dir ? dir : "/tmp", prog);
    if ((*fd = mkstemp(path)) < 0)
        die("%s: %s", path, strerror(errno));
    unlink(path);
    ssize_t n;
    while ((n = read(STDIN_FILENO, buf, sizeof buf)) > 0)
        for (ssize_t off = 0, k; off < n; off += k)
            if ((k = write(*fd, buf + off, (size_t)(n - off))) < 0)
                die("%s: %s", path, strerror(errno));
    if (n < 0)
        die("standard input: %s", strerror(errno));
    free(path);
    path = NULL;
    snprintf(name, sizeof name, "/dev/fd/%d", *fd);
    return name;
}

int cli_number(const char *s, double *v)
{
    char *end;
    if (!*s)
        return 0;
    double d = strtod(s, &end);
    if (*end || !isfinite(d))
        return 0;
    *v = d;
    return 1;
}

/* Split line at tabs in place, each cell trimmed of spaces; *cells grows. */
static size_t split_tabs(char *line, char ***cells, size_t *cap)
{
    size_t n = 0;
    for (char *p = line;; p++) {
        char *tab = strchr(p, '\t');
        if (tab)
            *tab = 0;
        while (*p == ' ')
            p++;
        for (char *e = p + strlen(p); e > p && e[-1] == ' ';)
            *--e = 0;
        if (n == *cap) {
            *cap = *cap ? 2 * *cap : 16;
            *cells = xrealloc(*cells, *cap * sizeof **cells);
        }
        (*cells)[n++] = p;
        if (!tab)
            return n;
        p = tab;
    }
}

void cli_tsv_read(const char *path, const char *name, cli_tsv *t)
{
    *t = (cli_tsv){0};
    FILE *in = strcmp(path, "-") ? fopen(path, "r") : stdin;
    if (!in)
        die("%s: %s", name, strerror(errno));
    char *line = NULL, **cells = NULL;
    size_t cap = 0, ccap = 0, rcap = 0, lineno = 0;
    ssize_t n;
    while ((n = getline(&line, &cap, in)) != -1) {
        lineno++;
        if (memchr(line, 0, (size_t)n))
            die("%s: line %zu: a NUL byte: not a text table", name, lineno);
        if (n && line[n - 1] == '\n')
            line[--n] = 0;
        if (n && line[n - 1] == '\r')   /* a table saved on Windows */
            line[--n] = 0;
        if (line[0] == '#' && !t->col) {    /* a note: kept */
            t->note = xrealloc(t->note, (t->nnotes + 1) * sizeof *t->note);
            t->note[t->nnotes++] = line + 1 + (line[1] == ' ');
            t->lines = xrealloc(t->lines, (t->nlines + 1) * sizeof *t->lines);
            t->lines[t->nlines++] = line;
            line = NULL;
            cap = 0;
            continue;
        }
        if (line[0] == '#' || strspn(line, " ") == (size_t)n)
            continue;
        size_t k = split_tabs(line, &cells, &ccap);
        if (!t->col) {
            t->col = xrealloc(NULL, k * sizeof *t->col);
            memcpy(t->col, cells, k * sizeof *cells);
            t->ncols = k;
        } else {
            if (k != t->ncols)
                die("%s: line %zu: %zu field%s, the header has %zu", name, lineno, k,
                    k == 1 ? "" : "s", t->ncols);
            if (t->nrows == rcap) {
                rcap = rcap ? 2 * rcap : 64;
                t->cell = xrealloc(t->cell, rcap * t->ncols * sizeof *t->cell);
            }
            memcpy(t->cell + t->nrows++ * t->ncols, cells, k * sizeof *cells);
        }
        t->lines = xrealloc(t->lines, (t->nlines + 1) * sizeof *t->lines);
        t->lines[t->nlines++] = line;   /* the cells point into it: keep it */
        line = NULL;
        cap = 0;
    }
    if (ferror(in))
        die("%s: %s", name, strerror(errno));
    if (in != stdin)
        fclose(in);
    free(line);
    free(cells);
    if (!t->col)
        die("%s: empty input: no header line", name);
    if (!t->nrows)
        die("%s: no data rows after the header", name);
}

void cli_tsv_free(cli_tsv *t)
{
    for (size_t i = 0; i < t->nlines; i++)
        free(t->lines[i]);
    free(t->lines);
    free(t->note);
    free(t->col);
    free(t->cell);
    *t = (cli_tsv){0};
}

/* ---- text output under a temporary name ------------------------------------ */
FILE *cli_output_open(const char *output)
{
    struct stat st;
    FILE *o;
    size_t slot;
    text_out.name = output;
    if (!output || strcmp(output, "-") == 0)
        return stdout;
    if (stat(output, &st) == 0 && !S_ISREG(st.st_mode)) {
        if (!(o = fopen(output, "w")))
            die("%s: %s", output, strerror(errno));
        return o;
    }
    o = tmp_open(output, NULL, &slot);
    text_out.slot = (long)slot;
    return o;
}

int cli_output_close(FILE *o)
{
    const char *name = text_out.name;
    if (o == stdout)
        return cli_close_stdout();
    if (fflush(o) != 0 || ferror(o))
        die("%s: %s", name, strerror(errno));
    if (fclose(o) != 0)
        die("%s: %s", name, strerror(errno));
    if (text_out.slot >= 0 && rename(tmps[text_out.slot].tmp, name) != 0)
        die("%s: %s", name, strerror(errno));
    if (text_out.slot >= 0)
        tmp_forget((size_t)text_out.slot);
    text_out.slot = -1;
    return 0;
}

/* ---- the stage's streams ---------------------------------------------------- */
cli_stage stage;

int cli_filter_option(int c, const char **output, rft_writer_opts *wo)
{
    switch (c) {
    case 'o': *output = optarg; return 1;
    case 'l': wo->level = cli_level(optarg); return 1;
    case 'F': wo->flush_each = 1; return 1;
    default: return 0;
    }
}

uint64_t cli_max_memory(const char *s)
{
    uint64_t mib = cli_uint("--max-memory", s, 0, UINT64_MAX >> 20);
    return mib << 20;
}

rft_reader *stage_open(const char *input)
{
    char err[320];
    stage.input = input;
    if (!(stage.r = rft_reader_open_flags(input, stage.read_flags | RFT_READ_ORDER, err, sizeof err)))
        die("%s: %s", input, err);
    cli_reader_shard(stage.r, input);
    return stage.r;
}

void cli_no_terminal(const char *output)
{
    if ((!output || strcmp(output, "-") == 0) && isatty(STDOUT_FILENO))
        die("standard output is a terminal: an rft stream is binary (use -o FILE or a pipe)");
}

void cli_header_set(rft_header *h, const char *key, const char *val)
{
    int e = rft_header_set(h, key, val);
    if (e == RFT_EMEM)
        die("out of memory");
    if (e && strlen(val) > RFT_MAX_STR)
        die("header value of %s longer than %d bytes", key, RFT_MAX_STR);
    if (e)
        die("header: more than %d metadata keys", RFT_MAX_META);
}

/* The stage failed: close the output without its end record, stop the
 * reader, print msg (allocated: freed here) and exit 1. */
void (*cli_abandon_hook)(void);

static noreturn void abandon_with(char *msg)
{
    if (cli_abandon_hook)
        cli_abandon_hook();
    if (stage.w)
        cli_writer_close(stage.w, 0, NULL, 0);
    stage.w = NULL;
    rft_reader_close(stage.r);          /* and stop its reading thread */
    stage.r = NULL;
    warnx("%s", msg);
    free(msg);
    exit(1);
}

static noreturn void abandon(const char *name, const char *msg)
{
    abandon_with(xasprintf("%s: %s", name, msg));   /* msg may live in the reader */
}

void stage_fail(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(NULL, 0, fmt, ap);
    va_end(ap);
    char *what = xrealloc(NULL, n > 0 ? (size_t)n + 1 : 1);  /* it may name a file */
    va_start(ap, fmt);
    vsnprintf(what, n > 0 ? (size_t)n + 1 : 1, fmt, ap);
    va_end(ap);
    char *msg = stage.r ? xasprintf("%s: record %llu: %s", stage.input ? stage.input : "-",
                                    (unsigned long long)rft_reader_count(stage.r), what)
                        : xasprintf("%s: %s", stage.input ? stage.input : "-", what);
    free(what);
    abandon_with(msg);
}

void stage_read_end(int e)
{
    if (e != RFT_EOF)
        abandon(stage.input, rft_reader_error(stage.r));
}

FILE *side_open(const char *path)
{
    struct stat st;
    size_t slot;
    if (strcmp(path, "-") == 0)
        return stdout;
    if (stat(path, &st) == 0 && !S_ISREG(st.st_mode)) {    /* /dev/null: directly */
        FILE *f = fopen(path, "w");
        if (!f)
            die("%s: %s", path, strerror(errno));
        return f;
    }
    return tmp_open(path, path, &slot);
}

void side_close(FILE *f, const char *path)
{
    int bad = fflush(f) != 0 || ferror(f);
    int e = errno;
    for (sig_atomic_t i = 0; i < ntmps; i++)
        if (tmps[i].tmp && tmps[i].f == f)
            tmps[i].f = NULL;       /* closed: cli_side_commit renames it */
    if (f != stdout && fclose(f) != 0 && !bad) {
        bad = 1;
        e = errno;
    }
    if (!bad)
        return;
    if (f == stdout && e == EPIPE) {    /* the reader went away: quietly, and incomplete */
        if (cli_abandon_hook)
            cli_abandon_hook();
        if (stage.w)
            cli_writer_close(stage.w, 0, NULL, 0);
        stage.w = NULL;
        cli_epipe(RFT_EPIPE);
    }
    abandon(f == stdout ? "standard output" : path, strerror(e));
}

void cli_side_commit(void)
{
    for (sig_atomic_t i = 0; i < ntmps; i++)
        if (tmps[i].tmp && tmps[i].final && !tmps[i].f) {
            if (rename(tmps[i].tmp, tmps[i].final) != 0)
                die("%s: %s", tmps[i].final, strerror(errno));
            tmp_forget((size_t)i);
        }
}

void cli_params_fail(const char *why)
{
    if (strncmp(why, CLI_SET_ORIGIN ": ", sizeof CLI_SET_ORIGIN + 1) == 0)
        usage_error("%s", why);     /* a --set of the command line */
    die("%s", why);
}

void cli_nbti_params(rft_nbti *p, const char *path, rft_params *set)
{
    rft_params ps;
    char why[RFT_PARAM_WHY];
    rft_params_init(&ps);
    if (path && rft_params_read_file(&ps, path, why, sizeof why))
        die("%s", why);
    for (int i = 0; i < set->n; i++)
        if (rft_params_set(&ps, set->p[i].key, set->p[i].val, CLI_SET_ORIGIN))
            die("out of memory");
    if (rft_nbti_from_params(p, &ps, path != NULL, why, sizeof why))
        cli_params_fail(why);
    rft_params_free(&ps);
}

char *xstrdup(const char *s)
{
    size_t n = strlen(s) + 1;
    return memcpy(xrealloc(NULL, n), s, n);
}

void cli_read_each(void (*fn)(void *ctx, rft_rec *rec), void *ctx)
{
    rft_rec *rec = xrealloc(NULL, sizeof *rec);
    int e;
    while ((e = rft_read(stage.r, rec)) == 0)
        fn(ctx, rec);
    stage_read_end(e);
    free(rec);
    rft_reader_close(stage.r);
    stage.r = NULL;
}
