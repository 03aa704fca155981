/* replay.c - runs a harness over saved inputs without libFuzzer, so that any
 * C compiler with AddressSanitizer (gcc too) can replay the corpora:
 *     replay FILE|DIR ...
 * Each file (a directory: its files, in name order, not those whose name
 * starts with '.' or is README) is read into a buffer of its exact size and
 * passed to LLVMFuzzerTestOneInput, which runs it every way it knows
 * (fuzz_every_way).  A crash ends the run with the sanitizer's report and
 * the name of the input.  Build it with -fsanitize=address (it calls the
 * sanitizers' death callback). */
#include <dirent.h>
#include <errno.h>
#include <sanitizer/common_interface_defs.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "fuzz.h"

static unsigned long inputs;
static const char *current;     /* the input being run, named if it crashes */

static void name_current(void)
{
    if (current) {
        fputs("replay: the input that failed: ", stderr);
        fputs(current, stderr);
        fputs("\n", stderr);
    }
}

static void on_signal(int sig)
{
    name_current();
    signal(sig, SIG_DFL);
    raise(sig);
}

static int run_file(const char *path)
{
    struct stat st;
    FILE *f = fopen(path, "rb");
    if (!f || fstat(fileno(f), &st) != 0) {
        fprintf(stderr, "replay: %s: %s\n", path, strerror(errno));
        if (f)
            fclose(f);
        return 1;
    }
    /* exactly its size, nothing after it, as libFuzzer passes an input */
    size_t n = (size_t)st.st_size;
    uint8_t *buf = malloc(n ? n : 1);
    int bad = !buf || fread(buf, 1, n, f) != n;
    fclose(f);
    if (bad) {
        fprintf(stderr, "replay: %s: cannot read\n", path);
        free(buf);
        return 1;
    }
    current = path;
    LLVMFuzzerTestOneInput(buf, n);
    current = NULL;
    free(buf);
    inputs++;
    return 0;
}

static int by_name(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

static int run_dir(const char *dir)
{
    DIR *d = opendir(dir);
    if (!d) {
        fprintf(stderr, "replay: %s: %s\n", dir, strerror(errno));
        return 1;
    }
    char **names = NULL;
    size_t n = 0, cap = 0;
    int bad = 0;
    for (struct dirent *e; (e = readdir(d));) {
        if (e->d_name[0] == '.' || strcmp(e->d_name, "README") == 0)
            continue;
        if (n == cap && !(names = realloc(names, (cap = cap ? 2 * cap : 64) * sizeof *names)))
            return 1;
        size_t len = strlen(dir) + strlen(e->d_name) + 2;
        if (!(names[n] = malloc(len)))
            return 1;
        snprintf(names[n++], len, "%s/%s", dir, e->d_name);
    }
    closedir(d);
    qsort(names, n, sizeof *names, by_name);
    for (size_t i = 0; i < n; i++) {
        struct stat st;
        if (stat(names[i], &st) == 0 && S_ISDIR(st.st_mode))
            bad |= run_dir(names[i]);
        else
            bad |= run_file(names[i]);
        free(names[i]);
    }
    free(names);
    return bad;
}

int main(int argc, char **argv)
{
    int bad = 0;
    fuzz_every_way = 1;
    __sanitizer_set_death_callback(name_current);
    signal(SIGABRT, on_signal);
    signal(SIGSEGV, on_signal);
    if (argc < 2) {
        fprintf(stderr, "usage: %s FILE|DIR ...\n", argv[0]);
        return 2;
    }
    for (int i = 1; i < argc; i++) {
        struct stat st;
        if (stat(argv[i], &st) != 0) {
            fprintf(stderr, "replay: %s: %s\n", argv[i], strerror(errno));
            bad = 1;
        } else {
            bad |= S_ISDIR(st.st_mode) ? run_dir(argv[i]) : run_file(argv[i]);
        }
    }
    fprintf(stderr, "replay: %lu inputs%s\n", inputs, bad ? ", some unreadable" : "");
    return bad;
}
