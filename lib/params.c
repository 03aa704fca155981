/* params.c - "key = value" parameter files (see params.h). */
#include "params.h"

#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "rft.h"

#define MAX_FILE (1u << 20) /* a parameter file is a page of text, not a megabyte */

void rft_params_init(rft_params *ps) { memset(ps, 0, sizeof *ps); }

void rft_params_free(rft_params *ps)
{
    for (int i = 0; i < ps->n; i++) {
        free(ps->p[i].key);
        free(ps->p[i].val);
        free(ps->p[i].origin);
    }
    free(ps->p);
    free(ps->name);
    memset(ps, 0, sizeof *ps);
}

static int key_char(char c)
{
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
           c == '.' || c == '_' || c == '-' || c == '+';
}

static rft_param *lookup(const rft_params *ps, const char *key)
{
    for (int i = 0; i < ps->n; i++)
        if (strcmp(ps->p[i].key, key) == 0)
            return &ps->p[i];
    return NULL;
}

/* Add or replace; the strings are copied.  RFT_EFORMAT if one is too long
 * (callers with a better message check first). */
static int put(rft_params *ps, const char *key, size_t kl, const char *val, size_t vl,
               const char *origin, int line)
{
    if (kl > RFT_PARAM_KEY_MAX || vl > RFT_PARAM_VAL_MAX || strlen(origin) >= PATH_MAX)
        return RFT_EFORMAT;
    char *k = strndup(key, kl), *v = strndup(val, vl), *o = strdup(origin);
    if (!k || !v || !o)
        goto nomem;
    rft_param *p = lookup(ps, k);
    if (p) {
        free(p->key);
        free(p->val);
        free(p->origin);
    } else {
        if (ps->n == ps->cap) {
            int cap = ps->cap ? 2 * ps->cap : 32;
            rft_param *np = realloc(ps->p, (size_t)cap * sizeof *np);
            if (!np)
                goto nomem;
            ps->p = np;
            ps->cap = cap;
        }
        p = &ps->p[ps->n++];
    }
    *p = (rft_param){.key = k, .val = v, .origin = o, .line = line};
    return 0;
nomem:
    free(k);
    free(v);
    free(o);
    return RFT_EMEM;
}

int rft_params_parse(rft_params *ps, const char *name, const char *text, size_t len, char *why,
                     size_t whylen)
{
    size_t i = 0;
    int line = 0, first = ps->n;
    if (strlen(name) >= PATH_MAX) {
        snprintf(why, whylen, "parameter file name longer than %d bytes", PATH_MAX - 1);
        return RFT_EFORMAT;
    }
    if (!ps->name && !(ps->name = strdup(name))) {
        snprintf(why, whylen, "out of memory");
        return RFT_EMEM;
    }
    while (i < len) {
        size_t end = i;
        while (end < len && text[end] != '\n')
            end++;
        line++;
        size_t a = i, b = end;
        i = end + 1;
        if (b > a && text[b - 1] == '\r')
            b--;
        while (a < b && (text[a] == ' ' || text[a] == '\t'))
            a++;
        if (a == b || text[a] == '#')
            continue;
        size_t k = a;
        while (k < b && key_char(text[k]))
            k++;
        size_t kend = k;
        while (k < b && (text[k] == ' ' || text[k] == '\t'))
            k++;
        if (kend == a || k == b || text[k] != '=') {     /* 60 bytes of the line shown */
            snprintf(why, whylen, "%s: line %d: not 'key = value': %.*s%s", name, line,
                     (int)(b - a > 60 ? 60 : b - a), text + a, b - a > 60 ? "..." : "");
            return RFT_EFORMAT;
        }
        if (kend - a > RFT_PARAM_KEY_MAX) {
            snprintf(why, whylen, "%s: line %d: key longer than %d bytes", name, line,
                     RFT_PARAM_KEY_MAX);
            return RFT_EFORMAT;
        }
        size_t v = k + 1, vend = v;
        while (vend < b && text[vend] != '#')
            vend++;
        while (v < vend && (text[v] == ' ' || text[v] == '\t'))
            v++;
        while (vend > v && (text[vend - 1] == ' ' || text[vend - 1] == '\t'))
            vend--;
        if (v == vend) {
            snprintf(why, whylen, "%s: line %d: %.*s: no value", name, line, (int)(kend - a), text + a);
            return RFT_EFORMAT;
        }
        if (vend - v > RFT_PARAM_VAL_MAX) {
            snprintf(why, whylen, "%s: line %d: %.*s: value longer than %d bytes", name, line,
                     (int)(kend - a), text + a, RFT_PARAM_VAL_MAX);
            return RFT_EFORMAT;
        }
        for (int j = first; j < ps->n; j++)
            if (strlen(ps->p[j].key) == kend - a && memcmp(ps->p[j].key, text + a, kend - a) == 0) {
                snprintf(why, whylen, "%s: line %d: %.*s: given twice (first on line %d)", name,
                         line, (int)(kend - a), text + a, ps->p[j].line);
                return RFT_EFORMAT;
            }
        if (put(ps, text + a, kend - a, text + v, vend - v, name, line)) {
            snprintf(why, whylen, "out of memory");
            return RFT_EMEM;
        }
    }
    return 0;
}

int rft_params_read_file(rft_params *ps, const char *path, char *why, size_t whylen)
{
    FILE *f = fopen(path, "rb");
    if (!f) {
        snprintf(why, whylen, "%s: %s", path, strerror(errno));
        return RFT_EIO;
    }
    char *buf = malloc(MAX_FILE + 1);
    if (!buf) {
        fclose(f);
        snprintf(why, whylen, "out of memory");
        return RFT_EMEM;
    }
    size_t n = fread(buf, 1, MAX_FILE + 1, f);
    int bad = ferror(f);
    int e = errno;
    fclose(f);
    int rc;
    if (bad) {
        snprintf(why, whylen, "%s: %s", path, strerror(e));
        rc = RFT_EIO;
    } else if (n > MAX_FILE) {
        snprintf(why, whylen, "%s: larger than %u bytes: not a parameter file", path, MAX_FILE);
        rc = RFT_EFORMAT;
    } else if (memchr(buf, 0, n)) {
        snprintf(why, whylen, "%s: binary data: not a parameter file", path);
        rc = RFT_EFORMAT;
    } else {
        rc = rft_params_parse(ps, path, buf, n, why, whylen);
    }
    free(buf);
    return rc;
}

int rft_params_set(rft_params *ps, const char *key, const char *val, const char *origin)
{
    return put(ps, key, strlen(key), val, strlen(val), origin, 0);
}

int rft_params_set_arg(rft_params *ps, const char *arg, const char *origin, char *why, size_t whylen)
{
    const char *eq = strchr(arg, '=');
    size_t k = 0;
    while (arg + k < (eq ? eq : arg) && key_char(arg[k]))
        k++;
    if (strlen(origin) >= PATH_MAX) {
        snprintf(why, whylen, "origin name longer than %d bytes", PATH_MAX - 1);
        return RFT_EFORMAT;
    }
    if (k > RFT_PARAM_KEY_MAX || (eq && strlen(eq + 1) > RFT_PARAM_VAL_MAX)) {
        snprintf(why, whylen, "%s: key longer than %d bytes or value longer than %d bytes",
                 origin, RFT_PARAM_KEY_MAX, RFT_PARAM_VAL_MAX);
        return RFT_EFORMAT;
    }
    if (!eq || k == 0 || arg + k != eq || !eq[1]) {
        snprintf(why, whylen, "%s: '%s' is not KEY=VALUE", origin, arg);
        return RFT_EFORMAT;
    }
    if (put(ps, arg, k, eq + 1, strlen(eq + 1), origin, 0)) {
        snprintf(why, whylen, "out of memory");
        return RFT_EMEM;
    }
    return 0;
}

const rft_param *rft_params_find(rft_params *ps, const char *key)
{
    rft_param *p = lookup(ps, key);
    if (p)
        p->used = 1;
    return p;
}

const char *rft_params_str(rft_params *ps, const char *key)
{
    const rft_param *p = rft_params_find(ps, key);
    return p ? p->val : NULL;
}

const char *rft_param_where(const rft_param *p, char *buf, size_t n)
{
    if (p->line)
        snprintf(buf, n, "%s: line %d", p->origin, p->line);
    else
        snprintf(buf, n, "%s", p->origin);
    return buf;
}

int rft_param_fail(const rft_param *p, char *why, size_t whylen, const char *fmt, ...)
{
    int n = p->line ? snprintf(why, whylen, "%s: line %d: ", p->origin, p->line)
                    : snprintf(why, whylen, "%s: ", p->origin);
    if (n >= 0 && (size_t)n < whylen) {
        va_list ap;
        va_start(ap, fmt);
        vsnprintf(why + n, whylen - (size_t)n, fmt, ap);
        va_end(ap);
    }
    return RFT_EFORMAT;
}

int rft_params_num(rft_params *ps, const char *key, int required, double lo, double *v,
                   char *why, size_t whylen)
{
    const rft_param *p = rft_params_find(ps, key);
    if (!p) {
        if (!required)
            return 1;
        snprintf(why, whylen, "%s: missing key '%s'", ps->name ? ps->name : "parameters", key);
        return RFT_EFORMAT;
    }
    char *end;
    errno = 0;
    double x = strtod(p->val, &end);
    if (end == p->val || *end || errno == ERANGE || !isfinite(x))
        return rft_param_fail(p, why, whylen, "%s: '%s' is not a number", key, p->val);
    if (x < lo && lo == 0)
        return rft_param_fail(p, why, whylen, "%s: '%s' is negative", key, p->val);
    if (x < lo)
        return rft_param_fail(p, why, whylen, "%s: '%s' is below %g", key, p->val, lo);
    *v = x;
    return 0;
}

const rft_param *rft_params_unused(const rft_params *ps)
{
    for (int i = 0; i < ps->n; i++)
        if (!ps->p[i].used)
            return &ps->p[i];
    return NULL;
}
