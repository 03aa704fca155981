/* figure.h - a chart drawn by gnuplot (rft-plot(1)): its data as TSV, an
 * editable gnuplot script that plots the data, and the figure (SVG, PNG or
 * PDF) rendered from that script, side by side. */
#ifndef RFT_FIGURE_H
#define RFT_FIGURE_H

#include <stddef.h>

enum fig_kind { FIG_LINE, FIG_BAR, FIG_STACK };
#define FIG_KINDS "line|bar|stack"   /* in enum order, for cli_choice */
enum fig_term { FIG_SVG, FIG_PNG, FIG_PDF };
#define FIG_TERMS "svg|png|pdf"     /* in enum order, for cli_choice */

typedef struct fig_series {
    const char *name;
    double *v;                  /* a value per row; NAN: none (a gap, never 0) */
} fig_series;

typedef struct figure {
    enum fig_kind kind;
    enum fig_term term;
    int categories;             /* x: the rows in order, each labelled with its cell */
    const char *xname;
    const char **xcell;         /* the x cell of each row, as text */
    double *x;                  /* its number (when not categories) */
    size_t nrows;
    const char *gname;          /* the clusters' column (--group) */
    const char **group;         /* the cluster of each row, NULL: none */
    fig_series *s;
    size_t ns;
    const char *title, *xlabel, *ylabel;    /* NULL or "": none */
    int ymin_set, ymax_set;
    double ymin, ymax;
    unsigned width, height;     /* pixels (a PDF: at 96 a inch) */
    int width_set;              /* else widened when category labels need it */
    int height_set;             /* else made taller for rows of panels */
    int panels;                 /* each series in a panel of its own, its own y axis */
    const char *source;         /* the input's name, for the script's comment */
    char *const *note;          /* what the figures assumed: # lines of the data, */
    size_t nnotes;              /* and the caption under the figure */
} figure;

/* The terminal an output name asks for by its ending (.svg, .png, .pdf,
 * any case), or -1. */
int fig_term_of(const char *output);

/* The longest y label that a 480-pixel-high figure holds along its axis at
 * the font's size; a longer list of names becomes a word and the key. */
#define FIG_YLABEL_MAX 40
/* A y label from the series' names (allocated): see rft-plot(1). */
char *fig_ylabel(const fig_series *s, size_t ns);

/* What a column name means, for a label or a key (allocated): the name with
 * a unit suffix (_mV, _years, ...) as " (mV)", a duty column's ("0%",
 * "longest_1%") in words: see rft-plot(1). */
char *fig_meaning(const char *name);

/* Whether output is a file to write the data and script beside (not NULL,
 * "-" or a device). */
int fig_beside(const char *output);

/* Write the figure's data and script beside output (NAME.data.tsv and
 * NAME.gp, NAME being output without its .svg, .png or .pdf) and, when
 * render, the figure itself from them through gnuplot.  All three are made
 * in a temporary folder and renamed into place once complete.  Output NULL,
 * "-" or a device (render only): rendered in a temporary folder, the figure
 * copied there (render must be set).  Dies on failure; returns the exit
 * status. */
int fig_output(figure *f, const char *output, int render);

#endif
