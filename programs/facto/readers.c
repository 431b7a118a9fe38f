/* The command line's text inputs: labels, the K-topic subsets of a corpus, documents' labels and
 * vocabularies (plain or gzip-compressed lines). Matrices are read by the library (facto_matrix_read,
 * facto_sparse_read). */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <zlib.h>

#include "cli.h"

/* Reads a labels file (one value per row) into a new int64 array of n entries. */
int64_t* read_labels(const char* path, int64_t n)
{
    facto_matrix* m = NULL;
    facto_status st = facto_matrix_read(path, &m);
    if (st < 0) return fail(path, st, facto_last_error()), NULL;
    int64_t rows = 0, cols = 0;
    facto_matrix_shape(m, &rows, &cols);
    if (rows * cols != n) {
        fprintf(stderr, "facto: %s has %lld labels, the data has %lld points\n", path, (long long)(rows * cols),
                (long long)n);
        facto_matrix_free(m);
        return NULL;
    }
    int64_t* labels = malloc((size_t)n * sizeof *labels);
    const double* values = facto_matrix_data(m);
    for (int64_t i = 0; labels && i < n; ++i) labels[i] = (int64_t)values[i];
    facto_matrix_free(m);
    return labels;
}

/* One line of a plain or gzip-compressed text file into *line (grown as needed, NUL-terminated);
 * its length, or -1 at the end of the file. */
static long read_line(gzFile f, char** line, size_t* capacity)
{
    size_t used = 0;
    for (;;) {
        if (*capacity - used < 2) {
            char* grown = realloc(*line, *capacity ? 2 * *capacity : 4096);
            if (!grown) return -1;
            *line = grown, *capacity = *capacity ? 2 * *capacity : 4096;
        }
        if (!gzgets(f, *line + used, (int)(*capacity - used))) return used ? (long)used : -1;
        used += strlen(*line + used);
        if (used && (*line)[used - 1] == '\n') return (long)used;
    }
}

/* The documents (0-based rows) of trial `trial` of the K-topic subsets in a subsets file: rows
 * "dataset,K,trial,min_df,n_docs,classes,sampleIdx" ('#' comments), sampleIdx 1-based and
 * space-separated. *count receives their number, *min_df the subset's. NULL (after a message) when the
 * file has no such row or it is malformed. */
int64_t* read_subset(const char* path, int64_t K, int64_t trial, int64_t* count, int64_t* min_df)
{
    gzFile f = gzopen(path, "rb");
    if (!f) return fprintf(stderr, "facto: cannot open %s\n", path), NULL;
    char* line = NULL;
    size_t capacity = 0;
    int64_t* rows = NULL;
    int found = 0;
    while (!found && read_line(f, &line, &capacity) >= 0) {
        char* field[7];
        int n = 0;
        for (char* p = line; n < 7 && p; ++n) {
            field[n] = p;
            if ((p = strchr(p, ',')) != NULL) *p++ = '\0';
        }
        if (line[0] == '#' || n < 7 || atoll(field[1]) != K || atoll(field[2]) != trial) continue;
        found = 1;
        *count = atoll(field[4]), *min_df = atoll(field[3]);
        rows = *count > 0 ? malloc((size_t)*count * sizeof *rows) : NULL;
        int64_t got = 0;
        for (char* q = field[6]; rows && got < *count; ++got) {
            char* end = NULL;
            const long long v = strtoll(q, &end, 10);
            if (end == q || v < 1) break;
            rows[got] = v - 1, q = end;
        }
        if (got != *count) free(rows), rows = NULL;
    }
    gzclose(f);
    free(line);
    if (!rows)
        fprintf(stderr, found ? "facto: %s: the row of K = %lld, trial %lld is malformed\n"
                              : "facto: %s has no row for K = %lld, trial %lld\n",
                path, (long long)K, (long long)trial);
    return rows;
}

/* The documents' labels (plain or gzip): one label per row, or "doc,label[,...]" rows whose second field
 * is the label (a non-numeric first line is a header); rows of the whole corpus (D, then mapped through
 * `position` to the subset) or of the subset's `documents`. NULL after a message. */
int64_t* read_document_labels(const char* path, int64_t D, int64_t documents, const int64_t* position)
{
    gzFile f = gzopen(path, "rb");
    if (!f) return fprintf(stderr, "facto: cannot open %s\n", path), NULL;
    char* line = NULL;
    size_t capacity = 0;
    int64_t rows = 0, size = 0;
    int64_t* labels = NULL;
    int ok = 1;
    while (ok && read_line(f, &line, &capacity) >= 0) {
        const char* comma = strchr(line, ',');
        char* end = NULL;
        const long long label = strtoll(comma ? comma + 1 : line, &end, 10);
        if (end == (comma ? comma + 1 : line)) {
            ok = rows == 0; /* a header, or a malformed row */
            continue;
        }
        if (rows == size) {
            int64_t* grown = realloc(labels, (size_t)(size ? 2 * size : 1024) * sizeof *labels);
            if (!grown) break;
            labels = grown, size = size ? 2 * size : 1024;
        }
        labels[rows++] = label;
    }
    gzclose(f);
    free(line);
    int64_t* truth = ok && (rows == D || rows == documents) ? malloc((size_t)(documents > 0 ? documents : 1) * sizeof *truth) : NULL;
    for (int64_t i = 0; truth && i < rows; ++i) {
        const int64_t at = rows == D ? position[i] : i;
        if (at >= 0) truth[at] = labels[i];
    }
    free(labels);
    if (!truth)
        fprintf(stderr, "facto: %s: %s (%lld rows for %lld documents)\n", path, ok ? "wrong number of labels" : "a row without a label",
                (long long)rows, (long long)D);
    return truth;
}

/* The lines of a vocabulary file (plain or gzip), without their line ends; NULL after a message. */
char** read_vocabulary(const char* path, int64_t* count)
{
    gzFile f = gzopen(path, "rb");
    if (!f) return fprintf(stderr, "facto: cannot open %s\n", path), NULL;
    char** words = NULL;
    char* line = NULL;
    size_t capacity = 0;
    long length;
    *count = 0;
    while ((length = read_line(f, &line, &capacity)) >= 0) {
        while (length > 0 && (line[length - 1] == '\n' || line[length - 1] == '\r')) line[--length] = '\0';
        char** grown = realloc(words, (size_t)(*count + 1) * sizeof *words);
        if (!grown || !(grown[*count] = strdup(line))) {
            words = grown ? grown : words;
            break;
        }
        words = grown, ++*count;
    }
    gzclose(f);
    free(line);
    return words;
}
