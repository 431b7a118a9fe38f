/* facto: the command line over the public C ABI only.
 *
 * simplicial_symnmf (default): reads a feature matrix (CSV or .npy; rows are points) and builds the
 * Gaussian affinity P, or reads P itself (--affinity). symnmf: builds the sparse kNN similarity graph
 * of Kuang et al. from the features, or reads M (--affinity; Matrix Market .mtx, CSV or .npy).
 * edm_completion: reads observed pairs (CSV rows i, j, d; 0-based) or generates the Helix (--helix N).
 * self_dictionary: reads the data points (rows) or generates separable data (--separable N); prints the
 * selected anchors. nomad: reads the data points (rows), whose Gram matrix the paper takes (kept as the points), or D
 * (--affinity), or generates two rings (--rings N); prints the feasibility of Q.
 * topics: reads a document-term count matrix (Matrix Market, plain or .gz), optionally one K-topic subset
 * of its documents (--subsets, --trial), and prints the anchor words, top terms and the paper's scores.
 * communities: reads an adjacency matrix (Matrix Market) and prints the pure nodes and, given the true
 * memberships (--truth), the averaged Spearman correlation.
 * Runs the chosen solver; shows progress on stderr (a live line on a terminal, plain lines
 * otherwise); writes the iterate and labels if asked; prints a JSON summary on stdout.
 * Exit status: 0 after a solve that ended (whatever its stop reason, which the summary gives), 1 when
 * anything failed (no summary then), 2 for bad options. */
#include <facto/facto_experimental.h>

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <zlib.h>

#include "group.h"

static const char* usage =
    "usage: facto [options] FILE\n"
    "\n"
    "  FILE                  feature matrix, CSV or .npy, one point per row (or P with --affinity)\n"
    "  -k, --rank K          number of clusters, the rank r, or the number of anchors (required)\n"
    "  --problem NAME        simplicial_symnmf (default), symnmf, edm_completion, self_dictionary, nomad,\n"
    "                        topics (FILE: document-term counts, .mtx) or communities (FILE: adjacency, .mtx)\n"
    "  --solver NAME         simplicial_symnmf: frank_wolfe (default), projected_gradient,\n"
    "                        penalty_method;\n"
    "                        symnmf: nolips (default), projected_gradient, beta_snmf, coordinate_descent,\n"
    "                        sym_hals, sym_anls; edm_completion: nolips (default), gradient_descent;\n"
    "                        self_dictionary, topics, communities: merit (default), spa, snpa,\n"
    "                        fast_gradient; self_dictionary, topics: fast_anchor; communities: geonmf\n"
    "                        nomad: nomad_cgm (default),\n"
    "                        burer_monteiro (facto-mpi's default and only one), nomad_admm\n"
    "  --set NAME=VALUE      set a solver parameter (repeatable; see --list-params)\n"
    "  --affinity            FILE is the n x n affinity matrix P itself\n"
    "  --bandwidth B         Gaussian kernel bandwidth, P_ij = exp(-||x_i - x_j||^2 / B) (default 1)\n"
    "  --scale MODE          feature scaling before the kernel: minmax (to [-1, 1], default), zscore, none\n"
    "  --graph KIND          symnmf from features: gaussian (self-tuning, default) or cosine kNN graph\n"
    "  --neighbors K         neighbours per point in that graph (default floor(log2 n) + 1)\n"
    "  --helix N             edm_completion on N Helix points (no FILE); reports the nRMSE\n"
    "  --fraction F          fraction of the Helix distances observed (default 0.1)\n"
    "  --separable N         self_dictionary on N generated points (Table I model, no FILE); reports success\n"
    "  --features M          dimension of those points (default 50)\n"
    "  --snr DB              their signal-to-noise ratio in dB (default 10)\n"
    "  --lambda L            self_dictionary's lambda (default: the heuristic ||X - X C0||_F / K;\n"
    "                        topics and communities: 5e-7, the paper's 1e-6 in its\n"
    "                        authors' objective, which has no 1/2)\n"
    "  --mu MU               self_dictionary's mu (default 1e-5)\n"
    "  --subsets FILE        topics: the K-topic document subsets file (rows dataset,K,trial,min_df,...)\n"
    "  --trial T             topics: use its subset of K = -k topics and trial T (default 1)\n"
    "  --min-df N            topics: drop terms in fewer documents (default: the subset's, else 2)\n"
    "  --vocabulary FILE     topics: one term per line, to print the top terms as words\n"
    "  --energy E            communities: keep the nodes carrying this fraction of the energy (default 0.99)\n"
    "  --truth FILE          communities: true memberships (N x K CSV) to report the averaged Spearman SRC\n"
    "  --rings N             nomad on N points of two rings (Fig. 4, no FILE); -k is NOMAD's K\n"
    "  --layers K2,K3,...    multi-layer NOMAD (Sec. 3.1): after -k, solve again on each layer's Q\n"
    "                        with these K (non-increasing); the results are the last layer's\n"
    "  --labels FILE         true labels, one per row, to report the clustering accuracy (topics: of\n"
    "                        the documents, one per row or doc,label rows of the full corpus)\n"
    "  --init FILE           starting iterate (n x k, feasible) instead of a seeded random one\n"
    "  --output-w FILE       write the iterate (W or X) as CSV; topics: the document-topic proportions;\n"
    "                        communities: the memberships\n"
    "  --output-labels FILE  write the cluster of each point (argmax of its row; nomad: the connected\n"
    "                        component of Q's graph) as CSV\n"
    "  --progress-every N    without a terminal, print a progress line every N iterations (default 10)\n"
    "  --bound               nomad: also print an upper bound of the optimum (the solver's output\n"
    "                        upper_bound; burer_monteiro on points: the partition dual bound)\n"
    "  --quiet               no progress output\n"
    "  --list-params         print the solver's parameters and exit\n"
    "  --version             print the library's version and exit\n"
    "  -h, --help            this help\n";

typedef struct options {
    const char* file;
    int64_t k;
    const char* solver;
    const char* problem;
    int32_t graph;
    int64_t neighbors;
    int64_t helix;
    double fraction;
    int64_t separable, features, rings;
    double snr, lambda, mu;
    int affinity;
    double bandwidth;
    int32_t scaling;
    const char* labels;
    const char* init;
    const char* output_w;
    const char* output_labels;
    int64_t progress_every;
    int quiet;
    int bound; /* --bound: print the solver's upper_bound */
    int list_params;
    const char* sets[64];
    int n_sets;
    int64_t layers[64]; /* --layers: the K of NOMAD's further layers */
    int n_layers;
    const char* subsets;
    int64_t trial, min_df;
    const char* vocabulary;
    double energy;
    const char* truth;
} options;

typedef struct progress_state {
    int tty;
    int64_t every;
    double last_print;
} progress_state;

static double now_seconds(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

static int fail(const char* what, facto_status status, const char* message)
{
    if (group_size() > 1) fprintf(stderr, "facto[rank %lld]: ", (long long)group_rank());
    else fprintf(stderr, "facto: ");
    fprintf(stderr, "%s: %s (%s)\n", what, message, facto_status_string(status));
    return 1;
}

static int32_t on_progress(const facto_solver* solver, const facto_progress* p, void* user_data)
{
    progress_state* state = (progress_state*)user_data;
    (void)solver;
    if (state->tty) {
        const double t = now_seconds();
        if (t - state->last_print < 0.1 && p->stop_reason == 0) return 0;
        state->last_print = t;
        fprintf(stderr, "\r  iteration %7lld   objective %.10e   stationarity %.4e   %7.2f s ", (long long)p->iteration,
                p->objective, p->stationarity, p->elapsed_seconds);
        fflush(stderr);
    } else if (p->iteration % state->every == 0 || p->stop_reason != 0) {
        fprintf(stderr, "iteration %lld objective %.10e stationarity %.4e step %.4e seconds %.3f\n",
                (long long)p->iteration, p->objective, p->stationarity, p->step_size, p->elapsed_seconds);
    }
    return 0;
}

static int parse_options(int argc, char** argv, options* o)
{
    memset(o, 0, sizeof *o);
    o->solver = NULL;
    o->problem = "simplicial_symnmf";
    o->fraction = 0.1;
    o->features = 50;
    o->snr = 10.0;
    o->lambda = NAN; /* self_dictionary: the heuristic; topics, communities: the paper's (5e-7 here) */
    o->mu = 1e-5;
    o->bandwidth = 1.0;
    o->scaling = FACTO_SCALE_MINMAX;
    o->progress_every = 10;
    o->trial = 1;
    o->energy = 0.99;
    for (int i = 1; i < argc; ++i) {
        const char* a = argv[i];
        const char* next = i + 1 < argc ? argv[i + 1] : NULL;
        int takes_value = 1;
        if (!strcmp(a, "-h") || !strcmp(a, "--help")) {
            fputs(usage, stdout);
            exit(0);
        } else if (!strcmp(a, "--version")) {
            printf("facto %s\n", facto_version());
            exit(0);
        } else if (!strcmp(a, "--affinity")) {
            o->affinity = 1, takes_value = 0;
        } else if (!strcmp(a, "--quiet")) {
            o->quiet = 1, takes_value = 0;
        } else if (!strcmp(a, "--bound")) {
            o->bound = 1, takes_value = 0;
        } else if (!strcmp(a, "--list-params")) {
            o->list_params = 1, takes_value = 0;
        } else if (a[0] != '-') {
            o->file = a, takes_value = 0;
        } else if (!next) {
            fprintf(stderr, "facto: option %s needs a value\n", a);
            return 0;
        } else if (!strcmp(a, "-k") || !strcmp(a, "--rank")) {
            char* end;
            o->k = strtoll(next, &end, 10);
            if (*end || o->k < 1) return fprintf(stderr, "facto: bad rank '%s'\n", next), 0;
        } else if (!strcmp(a, "--solver")) {
            o->solver = next;
        } else if (!strcmp(a, "--problem")) {
            o->problem = next;
            if (strcmp(next, "simplicial_symnmf") && strcmp(next, "symnmf") && strcmp(next, "edm_completion") &&
                strcmp(next, "self_dictionary") && strcmp(next, "nomad") && strcmp(next, "topics") &&
                strcmp(next, "communities"))
                return fprintf(stderr, "facto: --problem must be simplicial_symnmf, symnmf, edm_completion, "
                                       "self_dictionary or nomad\n"),
                       0;
        } else if (!strcmp(a, "--graph")) {
            if (!strcmp(next, "gaussian")) o->graph = FACTO_SIMILARITY_GAUSSIAN;
            else if (!strcmp(next, "cosine")) o->graph = FACTO_SIMILARITY_COSINE;
            else return fprintf(stderr, "facto: --graph must be gaussian or cosine\n"), 0;
        } else if (!strcmp(a, "--neighbors")) {
            char* end;
            o->neighbors = strtoll(next, &end, 10);
            if (*end || o->neighbors < 1) return fprintf(stderr, "facto: bad --neighbors '%s'\n", next), 0;
        } else if (!strcmp(a, "--helix")) {
            char* end;
            o->helix = strtoll(next, &end, 10);
            if (*end || o->helix < 2) return fprintf(stderr, "facto: bad --helix '%s'\n", next), 0;
        } else if (!strcmp(a, "--layers")) {
            for (const char* c = next; *c; ++c) {
                char* end;
                const long long v = strtoll(c, &end, 10);
                if (end == c || v < 1 || o->n_layers == 64 || (*end && *end != ','))
                    return fprintf(stderr, "facto: bad --layers '%s'\n", next), 0;
                o->layers[o->n_layers++] = v;
                c = *end ? end : end - 1;
            }
        } else if (!strcmp(a, "--rings")) {
            char* end;
            o->rings = strtoll(next, &end, 10);
            if (*end || o->rings < 2) return fprintf(stderr, "facto: bad --rings '%s'\n", next), 0;
        } else if (!strcmp(a, "--separable") || !strcmp(a, "--features")) {
            char* end;
            const long long v = strtoll(next, &end, 10);
            if (*end || v < 2) return fprintf(stderr, "facto: bad %s '%s'\n", a, next), 0;
            *(!strcmp(a, "--separable") ? &o->separable : &o->features) = v;
        } else if (!strcmp(a, "--snr") || !strcmp(a, "--lambda") || !strcmp(a, "--mu")) {
            char* end;
            const double v = strtod(next, &end);
            if (*end || end == next) return fprintf(stderr, "facto: bad %s '%s'\n", a, next), 0;
            *(!strcmp(a, "--snr") ? &o->snr : !strcmp(a, "--lambda") ? &o->lambda : &o->mu) = v;
        } else if (!strcmp(a, "--fraction")) {
            char* end;
            o->fraction = strtod(next, &end);
            if (*end || !(o->fraction > 0.0 && o->fraction <= 1.0))
                return fprintf(stderr, "facto: --fraction must be in (0, 1]\n"), 0;
        } else if (!strcmp(a, "--set")) {
            if (o->n_sets == 64) return fprintf(stderr, "facto: too many --set\n"), 0;
            o->sets[o->n_sets++] = next;
        } else if (!strcmp(a, "--bandwidth")) {
            char* end;
            o->bandwidth = strtod(next, &end);
            if (*end) return fprintf(stderr, "facto: bad bandwidth '%s'\n", next), 0;
        } else if (!strcmp(a, "--scale")) {
            if (!strcmp(next, "none")) o->scaling = FACTO_SCALE_NONE;
            else if (!strcmp(next, "minmax")) o->scaling = FACTO_SCALE_MINMAX;
            else if (!strcmp(next, "zscore")) o->scaling = FACTO_SCALE_ZSCORE;
            else return fprintf(stderr, "facto: --scale must be none, minmax or zscore\n"), 0;
        } else if (!strcmp(a, "--labels")) {
            o->labels = next;
        } else if (!strcmp(a, "--init")) {
            o->init = next;
        } else if (!strcmp(a, "--output-w")) {
            o->output_w = next;
        } else if (!strcmp(a, "--output-labels")) {
            o->output_labels = next;
        } else if (!strcmp(a, "--subsets")) {
            o->subsets = next;
        } else if (!strcmp(a, "--trial") || !strcmp(a, "--min-df")) {
            char* end = NULL;
            const long long v = next ? strtoll(next, &end, 10) : 0;
            if (!next || *end || v < 1) return fprintf(stderr, "facto: %s needs a positive integer\n", a), 0;
            *(!strcmp(a, "--trial") ? &o->trial : &o->min_df) = v;
        } else if (!strcmp(a, "--vocabulary")) {
            o->vocabulary = next;
        } else if (!strcmp(a, "--energy")) {
            char* end = NULL;
            o->energy = next ? strtod(next, &end) : 0.0;
            if (!next || *end) return fprintf(stderr, "facto: --energy needs a number\n"), 0;
        } else if (!strcmp(a, "--truth")) {
            o->truth = next;
        } else if (!strcmp(a, "--progress-every")) {
            o->progress_every = strtoll(next, NULL, 10);
            if (o->progress_every < 1) o->progress_every = 1;
        } else {
            fprintf(stderr, "facto: unknown option %s\n%s", a, usage);
            return 0;
        }
        if (takes_value) ++i;
    }
    if (!o->solver)
        o->solver = !strcmp(o->problem, "simplicial_symnmf") ? "frank_wolfe"
                    : !strcmp(o->problem, "self_dictionary") || !strcmp(o->problem, "topics") ||
                            !strcmp(o->problem, "communities")
                        ? "merit"
                    : !strcmp(o->problem, "nomad")           ? (group_distributed() ? "burer_monteiro" : "nomad_cgm")
                                                              : "nolips";
    if (o->list_params) return 1;
    if (!o->file && !o->helix && !o->separable && !o->rings)
        return fprintf(stderr, "facto: no input: give FILE, or --helix N, --separable N or --rings N "
                               "(facto --help lists the options)\n"),
               0;
    if (o->k < 1)
        return fprintf(stderr, "facto: -k is required: the number of clusters (simplicial_symnmf, nomad), the rank "
                               "(symnmf), the embedding dimension (edm_completion) or the number of anchors "
                               "(self_dictionary)\n"),
               0;
    return 1;
}

/* --set NAME=VALUE: the parameter's type comes from the solver's own table. */
static int apply_setting(facto_solver* solver, const char* setting)
{
    char name[128];
    const char* eq = strchr(setting, '=');
    if (!eq || (size_t)(eq - setting) >= sizeof name) {
        fprintf(stderr, "facto: --set needs NAME=VALUE, got '%s'\n", setting);
        return 0;
    }
    memcpy(name, setting, (size_t)(eq - setting));
    name[eq - setting] = '\0';
    const char* value = eq + 1;
    int64_t count = 0;
    facto_solver_param_count(solver, &count);
    int32_t type = 0;
    for (int64_t i = 0; i < count; ++i) {
        facto_param_info info;
        info.struct_size = sizeof info;
        facto_solver_param_info(solver, i, &info);
        if (!strcmp(info.name, name)) type = info.type;
    }
    facto_status st;
    char* end = NULL;
    if (type == FACTO_PARAM_INT) {
        errno = 0;
        const long long v = strtoll(value, &end, 10);
        if (*end || errno) return fprintf(stderr, "facto: parameter %s needs an integer, got '%s'\n", name, value), 0;
        st = facto_solver_set_int(solver, name, v);
    } else if (type == FACTO_PARAM_DOUBLE) {
        const double v = strtod(value, &end);
        if (*end) return fprintf(stderr, "facto: parameter %s needs a number, got '%s'\n", name, value), 0;
        st = facto_solver_set_double(solver, name, v);
    } else {
        st = facto_solver_set_string(solver, name, value);  /* unknown names get the library's message */
    }
    if (st < 0) return !fail("--set", st, facto_solver_last_error(solver));
    return 1;
}

static void list_params(facto_solver* solver)
{
    int64_t count = 0;
    facto_solver_param_count(solver, &count);
    printf("parameters of %s:\n", facto_solver_algorithm(solver));
    for (int64_t i = 0; i < count; ++i) {
        facto_param_info p;
        p.struct_size = sizeof p;
        facto_solver_param_info(solver, i, &p);
        if (p.type == FACTO_PARAM_DOUBLE)
            printf("  %-20s double  default %-10g in [%g, %g]\n      %s\n", p.name, p.default_double, p.lower_double,
                   p.upper_double, p.description);
        else if (p.type == FACTO_PARAM_INT)
            printf("  %-20s int     default %-10lld in [%lld, %lld]\n      %s\n", p.name, (long long)p.default_int,
                   (long long)p.lower_int, (long long)p.upper_int, p.description);
        else
            printf("  %-20s string  default %-10s one of %s\n      %s\n", p.name, p.default_string, p.choices,
                   p.description);
    }
}

/* Reads a labels file (one value per row) into a new int64 array of n entries. */
static int64_t* read_labels(const char* path, int64_t n)
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

/* The CSR arrays of a sparse matrix; 0 (after freeing what it took) when memory runs out. */
typedef struct csr_arrays {
    int64_t rows, cols, nnz;
    int64_t *indptr, *indices;
    double* values;
} csr_arrays;

static void free_csr(csr_arrays* a)
{
    free(a->indptr), free(a->indices), free(a->values);
}

static int copy_csr(const facto_sparse* M, csr_arrays* a)
{
    facto_sparse_shape(M, &a->rows, &a->cols, &a->nnz);
    a->indptr = malloc((size_t)(a->rows + 1) * sizeof *a->indptr);
    a->indices = malloc((size_t)(a->nnz > 0 ? a->nnz : 1) * sizeof *a->indices);
    a->values = malloc((size_t)(a->nnz > 0 ? a->nnz : 1) * sizeof *a->values);
    if (a->indptr && a->indices && a->values) return facto_sparse_copy_csr(M, a->indptr, a->indices, a->values) >= 0;
    free_csr(a);
    fail("sparse matrix", FACTO_ERROR_OUT_OF_MEMORY, "out of memory");
    return 0;
}

/* Takes ownership of a sparse M and makes the symnmf problem from its CSR arrays. */
static facto_problem* symnmf_from_sparse(facto_sparse* M, int64_t r)
{
    csr_arrays a;
    facto_problem* problem = NULL;
    if (copy_csr(M, &a)) {
        const facto_status st = group_symnmf(a.rows, a.cols, a.indptr, a.indices, a.values, r, &problem);
        if (st < 0) fail("problem", st, facto_last_error());
        free_csr(&a);
    }
    facto_sparse_free(M);
    return problem;
}

/* Refuses features that look like an affinity: a square matrix symmetric to 1e-10 of its largest entry
 * (n points in n dimensions are not symmetric but by accident), read without --affinity. */
static int check_features(const options* o, const facto_matrix* m)
{
    int64_t rows = 0, cols = 0;
    facto_matrix_shape(m, &rows, &cols);
    if (rows != cols || rows < 2) return 1;
    const double* a = facto_matrix_data(m);
    double largest = 0.0, asymmetry = 0.0;
    for (int64_t i = 0; i < rows; ++i)
        for (int64_t j = 0; j < cols; ++j) {
            const double x = a[i * cols + j], d = x - a[j * cols + i];
            if (x > largest || -x > largest) largest = x > 0 ? x : -x;
            if (d > asymmetry || -d > asymmetry) asymmetry = d > 0 ? d : -d;
        }
    if (asymmetry > 1e-10 * largest) return 1;
    fprintf(stderr,
            "facto: %s is a symmetric %lld x %lld matrix: pass --affinity if it is the affinity (nomad: D) itself; "
            "without it every row is read as a point\n",
            o->file, (long long)rows, (long long)cols);
    return 0;
}

static int ends_with(const char* s, const char* suffix)
{
    const size_t a = strlen(s), b = strlen(suffix);
    return a >= b && !strcmp(s + a - b, suffix);
}

/* edm_completion from a CSV of (i, j, d) rows, or on the Helix (whose points go to *truth). */
static facto_problem* build_edm(const options* o, double** truth, int64_t* n_truth)
{
    int64_t count = 0, n = 0;
    int64_t *i = NULL, *j = NULL;
    double* d = NULL;
    facto_status st;
    if (o->helix) {
        n = o->helix;
        *truth = malloc((size_t)(3 * n) * sizeof **truth);
        if (!*truth) return fail("helix", FACTO_ERROR_OUT_OF_MEMORY, "out of memory"), NULL;
        *n_truth = n;
        facto_sparse* pairs = NULL;
        st = facto_helix_points(n, 1, *truth, 3 * n);
        if (st >= 0) st = facto_sample_pairs(*truth, n, 3, 3, FACTO_ROW_MAJOR, o->fraction, 2, &pairs);
        if (st < 0) return fail("helix", st, facto_last_error()), NULL;
        int64_t rows = 0, cols = 0;
        facto_sparse_shape(pairs, &rows, &cols, &count);
        i = malloc((size_t)count * sizeof *i), j = malloc((size_t)count * sizeof *j), d = malloc((size_t)count * sizeof *d);
        if (i && j && d) facto_sparse_copy_coo(pairs, i, j, d);
        facto_sparse_free(pairs);
    } else {
        facto_matrix* m = NULL;
        st = facto_matrix_read(o->file, &m);
        if (st < 0) return fail(o->file, st, facto_last_error()), NULL;
        int64_t cols = 0;
        facto_matrix_shape(m, &count, &cols);
        if (cols != 3) {
            facto_matrix_free(m);
            return fprintf(stderr, "facto: %s: edm_completion needs rows i, j, d (3 columns)\n", o->file), NULL;
        }
        const double* v = facto_matrix_data(m);
        i = malloc((size_t)count * sizeof *i), j = malloc((size_t)count * sizeof *j), d = malloc((size_t)count * sizeof *d);
        for (int64_t k = 0; i && j && d && k < count; ++k) {
            i[k] = (int64_t)v[3 * k], j[k] = (int64_t)v[3 * k + 1], d[k] = v[3 * k + 2];
            if (i[k] + 1 > n) n = i[k] + 1;
            if (j[k] + 1 > n) n = j[k] + 1;
        }
        facto_matrix_free(m);
    }
    facto_problem* problem = NULL;
    st = i && j && d ? facto_problem_new_edm_completion(n, o->k, count, i, j, d, &problem) : FACTO_ERROR_OUT_OF_MEMORY;
    free(i);
    free(j);
    free(d);
    if (st < 0) fail("problem", st, facto_last_error());
    return problem;
}

/* self_dictionary from a file of points (rows; X is its transpose) or from generated separable data
 * (whose anchors go to *anchors). */
static facto_problem* build_self_dictionary(const options* o, int64_t** anchors)
{
    facto_matrix* m = NULL;
    int64_t n = o->separable, dim = o->features;
    double* generated = NULL;
    facto_status st;
    if (o->separable) {
        generated = malloc((size_t)(n * dim) * sizeof *generated);
        *anchors = malloc((size_t)o->k * sizeof **anchors);
        st = generated && *anchors ? facto_separable_data(FACTO_SEPARABLE_DIRICHLET, dim, n, o->k, o->snr, 1, generated,
                                                          n * dim, FACTO_COL_MAJOR, *anchors, o->k)
                                   : FACTO_ERROR_OUT_OF_MEMORY;
        if (st < 0) return free(generated), fail("separable data", st, facto_last_error()), NULL;
    } else {
        st = facto_matrix_read(o->file, &m);
        if (st < 0) return fail(o->file, st, facto_last_error()), NULL;
        facto_matrix_shape(m, &n, &dim);
    }
    /* points are rows of a row-major n x dim array: the column-major dim x n X */
    facto_problem* problem = NULL;
    st = group_self_dictionary(generated ? generated : facto_matrix_data(m), dim, n, o->k,
                               isnan(o->lambda) ? -1.0 : o->lambda, o->mu, &problem);
    free(generated);
    facto_matrix_free(m);
    if (st < 0) fail("problem", st, facto_last_error());
    return problem;
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
static int64_t* read_subset(const char* path, int64_t K, int64_t trial, int64_t* count, int64_t* min_df)
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
static int64_t* read_document_labels(const char* path, int64_t D, int64_t documents, const int64_t* position)
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

/* topics from a document-term count file, restricted to a K-topic subset (--subsets) when given; the
 * documents' true labels (--labels: one per row, or doc,label rows of the whole corpus) go to *truth. */
static facto_problem* build_topics(const options* o, int64_t** truth, int64_t* documents)
{
    facto_sparse* counts = NULL;
    facto_status st = facto_sparse_read(o->file, &counts);
    if (st < 0) return fail(o->file, st, facto_last_error()), NULL;
    int64_t D = 0, V = 0, nnz = 0, subset_min_df = 2;
    facto_sparse_shape(counts, &D, &V, &nnz);
    int64_t* r = malloc((size_t)(nnz > 0 ? nnz : 1) * sizeof *r);
    int64_t* c = malloc((size_t)(nnz > 0 ? nnz : 1) * sizeof *c);
    double* v = malloc((size_t)(nnz > 0 ? nnz : 1) * sizeof *v);
    int64_t* position = malloc((size_t)(D > 0 ? D : 1) * sizeof *position); /* the subset's row of each document */
    int64_t* docs = NULL;
    facto_problem* problem = NULL;
    *documents = D;
    if (!r || !c || !v || !position) goto done;
    facto_sparse_copy_coo(counts, r, c, v);
    for (int64_t i = 0; i < D; ++i) position[i] = o->subsets ? -1 : i;
    if (o->subsets) {
        if (!(docs = read_subset(o->subsets, o->k, o->trial, documents, &subset_min_df))) goto done;
        for (int64_t i = 0; i < *documents; ++i) {
            if (docs[i] >= D) {
                fprintf(stderr, "facto: %s names document %lld of %lld\n", o->subsets, (long long)docs[i] + 1, (long long)D);
                goto done;
            }
            position[docs[i]] = i;
        }
        int64_t kept = 0;
        for (int64_t e = 0; e < nnz; ++e)
            if (position[r[e]] >= 0) r[kept] = position[r[e]], c[kept] = c[e], v[kept++] = v[e];
        nnz = kept;
    }
    if (o->labels && !(*truth = read_document_labels(o->labels, D, *documents, position))) goto done;
    st = facto_problem_new_topics(FACTO_SPARSE_COO, *documents, V, nnz, r, c, v, o->k,
                                  o->min_df ? o->min_df : subset_min_df, 0, isnan(o->lambda) ? 5e-7 : o->lambda,
                                  o->mu, &problem);
    if (st < 0) fail("problem", st, facto_last_error());
done:
    if (!problem) free(*truth), *truth = NULL;
    free(r), free(c), free(v), free(position), free(docs);
    facto_sparse_free(counts);
    return problem;
}

/* communities from an adjacency file (Matrix Market, both triangles or a symmetric file). */
static facto_problem* build_communities(const options* o)
{
    facto_sparse* A = NULL;
    facto_status st = facto_sparse_read(o->file, &A);
    if (st < 0) return fail(o->file, st, facto_last_error()), NULL;
    csr_arrays a;
    facto_problem* problem = NULL;
    if (copy_csr(A, &a)) {
        st = facto_problem_new_communities(FACTO_SPARSE_CSR, a.rows, a.cols, a.nnz, a.indptr, a.indices, a.values,
                                           o->k, o->energy, isnan(o->lambda) ? 5e-7 : o->lambda, o->mu, &problem);
        if (st < 0) fail("problem", st, facto_last_error());
        free_csr(&a);
    }
    facto_sparse_free(A);
    return problem;
}

/* nomad from two generated rings or a file of points (D the paper's Gram matrix of them, never formed),
 * or D itself (--affinity). */
static facto_problem* build_nomad(const options* o)
{
    facto_matrix* m = NULL;
    facto_problem* problem = NULL;
    facto_status st;
    int64_t n = o->rings, dim = 2;
    if (o->rings) {
        double* points = malloc((size_t)(2 * n) * sizeof *points);
        int64_t* labels = malloc((size_t)n * sizeof *labels);
        st = points && labels ? facto_manifold_points(FACTO_MANIFOLD_TWO_RINGS, n, 0.5, 0.0, 1, points, 2 * n,
                                                      FACTO_ROW_MAJOR, labels, n)
                              : FACTO_ERROR_OUT_OF_MEMORY;
        if (st >= 0) st = group_nomad_points(points, n, dim, o->k, &problem);
        free(points);
        free(labels);
        if (st < 0) fail("two rings", st, facto_last_error());
        return problem;
    }
    st = facto_matrix_read(o->file, &m);
    if (st < 0) return fail(o->file, st, facto_last_error()), NULL;
    if (!o->affinity && !check_features(o, m)) return facto_matrix_free(m), NULL;
    facto_matrix_shape(m, &n, &dim);
    st = o->affinity ? facto_problem_new_nomad(facto_matrix_data(m), n, dim, dim, FACTO_ROW_MAJOR, o->k, &problem)
                     : group_nomad_points(facto_matrix_data(m), n, dim, o->k, &problem);
    facto_matrix_free(m);
    if (st < 0) fail("problem", st, facto_last_error());
    return problem;
}

static facto_problem* build_problem(const options* o, double* affinity_seconds, double** truth, int64_t* n_truth,
                                    int64_t** anchors)
{
    if (!strcmp(o->problem, "nomad")) return build_nomad(o);
    if (!strcmp(o->problem, "edm_completion")) return build_edm(o, truth, n_truth);
    if (!strcmp(o->problem, "self_dictionary")) return build_self_dictionary(o, anchors);
    if (!strcmp(o->problem, "communities")) return build_communities(o);
    const int symnmf = !strcmp(o->problem, "symnmf");
    const double t0 = now_seconds();
    facto_status st;
    if (symnmf && o->affinity && ends_with(o->file, ".mtx")) {
        facto_sparse* M = NULL;
        st = facto_sparse_read(o->file, &M);
        if (st < 0) return fail(o->file, st, facto_last_error()), NULL;
        *affinity_seconds = now_seconds() - t0;
        return symnmf_from_sparse(M, o->k);
    }
    facto_matrix* data = NULL;
    st = facto_matrix_read(o->file, &data);
    if (st < 0) return fail(o->file, st, facto_last_error()), NULL;
    if (!o->affinity && !check_features(o, data)) return facto_matrix_free(data), NULL;
    int64_t rows = 0, cols = 0;
    facto_matrix_shape(data, &rows, &cols);
    if (symnmf && !o->affinity) {
        facto_sparse* M = NULL;
        st = facto_knn_similarity(facto_matrix_data(data), rows, cols, cols, FACTO_ROW_MAJOR, o->neighbors, o->graph, &M);
        facto_matrix_free(data);
        if (st < 0) return fail("similarity graph", st, facto_last_error()), NULL;
        *affinity_seconds = now_seconds() - t0;
        return symnmf_from_sparse(M, o->k);
    }
    facto_matrix* P = data;
    if (!o->affinity) {
        st = facto_gaussian_affinity(facto_matrix_data(data), rows, cols, cols, FACTO_ROW_MAJOR, o->bandwidth,
                                     o->scaling, &P);
        facto_matrix_free(data);
        if (st < 0) return fail("affinity", st, facto_last_error()), NULL;
        facto_matrix_shape(P, &rows, &cols);
    }
    *affinity_seconds = now_seconds() - t0;
    facto_problem* problem = NULL;
    st = symnmf ? facto_problem_new_symnmf(facto_matrix_data(P), rows, cols, cols, FACTO_ROW_MAJOR, o->k, &problem)
                : facto_problem_new_simplicial_symnmf(facto_matrix_data(P), rows, cols, cols, FACTO_ROW_MAJOR, o->k,
                                                      &problem);
    facto_matrix_free(P);
    if (st < 0) return fail("problem", st, facto_last_error()), NULL;
    return problem;
}

static int set_initial_point(facto_solver* solver, const char* path)
{
    facto_matrix* W = NULL;
    facto_status st = facto_matrix_read(path, &W);
    if (st < 0) return !fail(path, st, facto_last_error());
    int64_t rows = 0, cols = 0;
    facto_matrix_shape(W, &rows, &cols);
    st = facto_solver_set_iterate(solver, facto_matrix_data(W), rows, cols, cols, FACTO_ROW_MAJOR);
    facto_matrix_free(W);
    if (st < 0) return !fail("--init", st, facto_solver_last_error(solver));
    return 1;
}

/* Gathers the processes' labels (`rows` here) into labels[0 .. n) on rank 0; 0 on failure. */
static int gather_labels(int64_t* labels, int64_t rows, int64_t n)
{
    if (group_size() == 1) return 1;
    double* mine = malloc((size_t)(rows > 0 ? rows : 1) * sizeof *mine);
    double* all = group_rank() == 0 ? malloc((size_t)n * sizeof *all) : NULL;
    for (int64_t i = 0; mine && i < rows; ++i) mine[i] = (double)labels[i];
    int ok = group_gather_rows(mine, rows, 1, all);
    for (int64_t i = 0; ok && all && i < n; ++i) labels[i] = (int64_t)all[i];
    free(mine);
    free(all);
    return ok || !fail("labels", FACTO_ERROR_OUT_OF_MEMORY, "out of memory");
}

/* The iterate and labels of this process's `rows` of n; rank 0 writes the files. */
static int write_results(facto_solver* solver, const options* o, int64_t n, int64_t rows, int64_t k, int64_t* labels)
{
    facto_status st = FACTO_OK;
    if (labels) {
        st = facto_solver_copy_output_int64(solver, "labels", labels, rows, FACTO_ROW_MAJOR);
        if (st < 0) return !fail("labels", st, facto_solver_last_error(solver));
        if (!gather_labels(labels, rows, n)) return 0;
    }
    if (o->output_w) {
        double* block = malloc((size_t)(rows * k > 0 ? rows * k : 1) * sizeof *block);
        double* W = group_rank() == 0 ? malloc((size_t)(n * k) * sizeof *W) : NULL;
        /* on every rank (a distributed nomad's iterate is collective); a rank that failed gives no block,
         * and then the gather fails on all */
        const int copied = facto_solver_copy_iterate(solver, block, rows * k, FACTO_ROW_MAJOR) >= 0;
        const int ok = group_gather_rows(copied ? block : NULL, rows, k, W);
        st = ok && W ? facto_write_csv(o->output_w, W, n, k, k, FACTO_ROW_MAJOR) : FACTO_OK;
        free(block);
        free(W);
        if (!ok) return !fail("output", FACTO_ERROR_OUT_OF_MEMORY, "out of memory");
        if (st < 0) return !fail(o->output_w, st, facto_last_error());
    }
    if (o->output_labels && labels && group_rank() == 0) {
        double* as_double = malloc((size_t)n * sizeof *as_double);
        if (!as_double) return !fail("output", FACTO_ERROR_OUT_OF_MEMORY, "out of memory");
        for (int64_t i = 0; i < n; ++i) as_double[i] = (double)labels[i];
        st = facto_write_csv(o->output_labels, as_double, n, 1, 1, FACTO_ROW_MAJOR);
        free(as_double);
        if (st < 0) return !fail(o->output_labels, st, facto_last_error());
    }
    return 1;
}

/* The selected anchors and nnz(C) into the JSON summary; "success" when the true anchors are known. */
/* The selected anchors (k of them, malloc'd) and nnz(C), or NULL; collective on several processes. */
static int64_t* fetch_selected(facto_solver* solver, int64_t k, int64_t* nnz)
{
    int64_t* selected = malloc((size_t)k * sizeof *selected);
    const int got = selected && facto_solver_copy_output_int64(solver, "selected", selected, k, FACTO_ROW_MAJOR) >= 0;
    if (got && facto_solver_copy_output_int64(solver, "nnz", nnz, 1, FACTO_ROW_MAJOR) >= 0) return selected;
    free(selected);
    return NULL;
}

/* Prints what fetch_selected returned (nothing for NULL). */
static void print_selected(const int64_t* selected, int64_t nnz, int64_t k, const int64_t* anchors)
{
    if (!selected) return;
    printf(", \"nnz\": %lld, \"selected\": [", (long long)nnz);
    int same = 1;
    for (int64_t i = 0; i < k; ++i) {
        printf("%s%lld", i ? ", " : "", (long long)selected[i]);
        same &= anchors && selected[i] == anchors[i];
    }
    printf("]");
    if (anchors) printf(", \"success\": %s", same ? "true" : "false");
}

/* A term as a JSON string: its word from the vocabulary when given, else its column. */
static void print_term(int64_t term, char** words, int64_t n_words)
{
    if (!words || term >= n_words) {
        printf("%lld", (long long)term);
        return;
    }
    putchar('"');
    for (const char* p = words[term]; *p; ++p) {
        if (*p == '"' || *p == '\\') putchar('\\');
        if ((unsigned char)*p >= 0x20) putchar(*p);
    }
    putchar('"');
}

/* The lines of a vocabulary file (plain or gzip), without their line ends; NULL after a message. */
static char** read_vocabulary(const char* path, int64_t* count)
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

/* topics and communities: their outputs and scores into the JSON summary, the files asked for. */
static int finish_job(facto_solver* solver, const options* o, const int64_t* doc_truth)
{
    const int topics = !strcmp(o->problem, "topics");
    int32_t type = 0;
    int64_t rows = 0, cols = 0;
    facto_status st = facto_solver_output_shape(solver, topics ? "document_topics" : "memberships", &type, &rows, &cols);
    if (st < 0) return !fail("output", st, facto_solver_last_error(solver));
    double* weights = malloc((size_t)(rows * cols) * sizeof *weights);
    int64_t* labels = malloc((size_t)rows * sizeof *labels);
    int ok = weights && labels;
    if (ok) ok = facto_solver_copy_output_double(solver, topics ? "document_topics" : "memberships", weights,
                                                 rows * cols, FACTO_ROW_MAJOR) >= 0 &&
                 facto_solver_copy_output_int64(solver, "labels", labels, rows, FACTO_ROW_MAJOR) >= 0;
    if (!ok) {
        free(weights), free(labels);
        return !fail("output", FACTO_ERROR_NUMERICAL, facto_solver_last_error(solver));
    }
    if (topics) {
        int64_t top_rows = 0, top_cols = 0, similarity = 0, n_words = 0;
        double coherence = 0.0;
        facto_solver_output_shape(solver, "top_terms", &type, &top_rows, &top_cols);
        int64_t* top = malloc((size_t)(top_rows * top_cols) * sizeof *top);
        char** words = o->vocabulary ? read_vocabulary(o->vocabulary, &n_words) : NULL;
        if (top && facto_solver_copy_output_int64(solver, "top_terms", top, top_rows * top_cols, FACTO_ROW_MAJOR) >= 0) {
            printf(", \"top_terms\": [");
            for (int64_t t = 0; t < top_rows; ++t) {
                printf("%s[", t ? ", " : "");
                for (int64_t j = 0; j < top_cols; ++j) printf("%s", j ? ", " : ""), print_term(top[t * top_cols + j], words, n_words);
                printf("]");
            }
            printf("]");
        }
        for (int64_t w = 0; w < n_words; ++w) free(words[w]);
        free(words), free(top);
        facto_solver_copy_output_double(solver, "coherence", &coherence, 1, FACTO_ROW_MAJOR);
        facto_solver_copy_output_int64(solver, "similarity_count", &similarity, 1, FACTO_ROW_MAJOR);
        printf(", \"documents\": %lld, \"coherence\": %.6f, \"similarity_count\": %lld", (long long)rows, coherence,
               (long long)similarity);
        double accuracy = 0.0;
        if (doc_truth && facto_clustering_accuracy(labels, doc_truth, rows, &accuracy) >= 0)
            printf(", \"accuracy\": %.6f", accuracy);
    } else {
        int64_t kept = 0;
        facto_solver_output_shape(solver, "nodes", &type, &kept, &cols);
        printf(", \"nodes\": %lld, \"nodes_kept\": %lld", (long long)rows, (long long)kept);
        if (o->truth) {
            facto_matrix* m = NULL;
            double src = 0.0;
            int64_t n = 0, K = 0;
            if ((st = facto_matrix_read(o->truth, &m)) >= 0) facto_matrix_shape(m, &n, &K);
            if (st >= 0 && (n != rows || K != o->k))
                fprintf(stderr, "facto: %s is %lld x %lld, the graph has %lld nodes and K = %lld\n", o->truth,
                        (long long)n, (long long)K, (long long)rows, (long long)o->k),
                    st = FACTO_ERROR_DIMENSION;
            else if (st >= 0)
                st = facto_averaged_spearman(weights, facto_matrix_data(m), n, K, FACTO_ROW_MAJOR, &src);
            else
                fail(o->truth, st, facto_last_error());
            facto_matrix_free(m);
            if (st < 0) ok = 0;
            else printf(", \"src\": %.6f", src);
        }
    }
    if (ok && o->output_w && (st = facto_write_csv(o->output_w, weights, rows, o->k, o->k, FACTO_ROW_MAJOR)) < 0)
        ok = !fail(o->output_w, st, facto_last_error());
    if (ok && o->output_labels) {
        for (int64_t i = 0; i < rows; ++i) weights[i] = (double)labels[i];
        if ((st = facto_write_csv(o->output_labels, weights, rows, 1, 1, FACTO_ROW_MAJOR)) < 0)
            ok = !fail(o->output_labels, st, facto_last_error());
    }
    free(weights), free(labels);
    return ok;
}

/* Refuses what facto-mpi (distributed problems, even on one rank) cannot run; 1 when the options are fine. */
static int runs_on_group(const options* o)
{
    if (!group_distributed()) return 1;
    const int sparse_symnmf = !strcmp(o->problem, "symnmf") && (!o->affinity || (o->file && ends_with(o->file, ".mtx")));
    const int nomad_points = !strcmp(o->problem, "nomad") && !o->affinity && !o->n_layers && !o->bound;
    const int dictionary = !strcmp(o->problem, "self_dictionary");
    if ((sparse_symnmf || nomad_points || dictionary) && !o->init && !o->list_params) return 1;
    if (group_rank() == 0)
        fprintf(stderr, "facto-mpi runs --problem symnmf (M from features or a Matrix Market file), --problem nomad "
                        "(points, burer_monteiro, without --layers or --bound) and --problem self_dictionary (merit), "
                        "without --init or --list-params; facto runs the rest\n");
    return 0;
}

static int run(int argc, char** argv)
{
    options o;
    if (!parse_options(argc, argv, &o)) return 2;
    if (!runs_on_group(&o)) return 2;
    if (group_rank() > 0) o.quiet = 1; /* progress and the summary come from rank 0 */
    if (facto_version_number() / 10000 != FACTO_VERSION_MAJOR) {
        fprintf(stderr, "facto: library version %s does not match the header's major version\n", facto_version());
        return 1;
    }
    const double t_start = now_seconds();
    if (o.list_params) {
        /* A tiny problem of the chosen kind just to instantiate the solver and read its table. */
        const double one = 1.0;
        const int64_t first = 0, second = 1;
        facto_problem* tiny = NULL;
        facto_solver* s = NULL;
        if (!strcmp(o.problem, "symnmf")) facto_problem_new_symnmf(&one, 1, 1, 1, FACTO_ROW_MAJOR, 1, &tiny);
        else if (!strcmp(o.problem, "edm_completion")) facto_problem_new_edm_completion(2, 1, 1, &first, &second, &one, &tiny);
        else if (!strcmp(o.problem, "self_dictionary")) {
            const double two[2] = {1.0, 2.0};
            facto_problem_new_self_dictionary(two, 1, 2, 2, FACTO_ROW_MAJOR, 1, 0.0, 1e-5, &tiny);
        } else if (!strcmp(o.problem, "nomad")) facto_problem_new_nomad(&one, 1, 1, 1, FACTO_ROW_MAJOR, 1, &tiny);
        else facto_problem_new_simplicial_symnmf(&one, 1, 1, 1, FACTO_ROW_MAJOR, 1, &tiny);
        facto_status st = facto_solver_new(tiny, o.solver, &s);
        facto_problem_free(tiny);
        if (st < 0) return fail("solver", st, facto_last_error());
        list_params(s);
        facto_solver_free(s);
        return 0;
    }

    double affinity_seconds = 0.0;
    double* truth_points = NULL;
    int64_t n_truth = 0;
    int64_t* anchors = NULL;
    int64_t* doc_truth = NULL; /* topics: the documents' true labels */
    int64_t n_docs = 0;
    const int job = !strcmp(o.problem, "topics") || !strcmp(o.problem, "communities");
    if ((job || !strcmp(o.problem, "self_dictionary")) && o.init)
        return fprintf(stderr, "facto: %s takes no --init\n", o.problem), 2;
    if (!strcmp(o.problem, "communities") && o.labels)
        return fprintf(stderr, "facto: communities takes --truth (memberships), not --labels\n"), 2;
    facto_problem* problem = !strcmp(o.problem, "topics")
                                 ? build_topics(&o, &doc_truth, &n_docs)
                                 : build_problem(&o, &affinity_seconds, &truth_points, &n_truth, &anchors);
    if (!problem) return free(truth_points), free(anchors), 1;
    const int dictionary = !strcmp(o.problem, "self_dictionary") || job, nomad = !strcmp(o.problem, "nomad");
    const int clusters = strcmp(o.problem, "edm_completion") != 0 && !dictionary;
    if (!job && dictionary && (o.output_w || o.output_labels || o.labels))
        return free(anchors), facto_problem_free(problem),
               fprintf(stderr, "facto: self_dictionary takes none of --output-w, --output-labels, --labels\n"), 2;
    if (!nomad && o.n_layers)
        return facto_problem_free(problem), fprintf(stderr, "facto: --layers is for --problem nomad\n"), 2;
    for (int l = 0; l < o.n_layers; ++l)
        if (o.layers[l] > (l ? o.layers[l - 1] : o.k))
            return facto_problem_free(problem),
                   fprintf(stderr, "facto: --layers must not increase K (-k %lld, then %lld)\n", (long long)o.k,
                           (long long)o.layers[l]),
                   2;
    int64_t rows = 0, k = 0; /* this process's rows of the iterate, n on one process */
    facto_problem_iterate_shape(problem, &rows, &k);
    const int64_t n = dictionary ? rows : group_sum(rows); /* self_dictionary: C's columns are distributed */
    facto_solver* solver = NULL;
    facto_status st = facto_solver_new(problem, o.solver, &solver);
    facto_problem_free(problem); /* the solver keeps what it needs */
    if (st < 0) return fail("solver", st, facto_last_error());

    int ok = 1;
    for (int i = 0; ok && i < o.n_sets; ++i) ok = apply_setting(solver, o.sets[i]);
    if (ok && o.init) ok = set_initial_point(solver, o.init);
    int64_t* truth = ok && o.labels && !job ? read_labels(o.labels, n) : NULL;
    if (o.labels && !job && !truth) ok = 0;

    progress_state state = {isatty(STDERR_FILENO), o.progress_every, 0.0};
    char layers_json[64 * 96] = "";
    facto_status reason = FACTO_OK;
    for (int layer = 0; ok && layer <= o.n_layers; ++layer) {
        if (layer > 0) { /* the next layer's D is this layer's Q */
            facto_progress p;
            p.struct_size = sizeof p;
            facto_solver_progress(solver, &p);
            const size_t used = strlen(layers_json);
            snprintf(layers_json + used, sizeof layers_json - used, "%s{\"k\": %lld, \"objective\": %.17g, \"iterations\": %lld}",
                     layer > 1 ? ", " : "", (long long)(layer > 1 ? o.layers[layer - 2] : o.k), p.objective,
                     (long long)p.iteration);
            facto_problem* next = NULL;
            st = facto_problem_new_nomad_layer(solver, o.layers[layer - 1], &next);
            facto_solver_free(solver);
            solver = NULL;
            if (st >= 0) st = facto_solver_new(next, o.solver, &solver);
            facto_problem_free(next);
            if (st < 0) return fail("layer", st, facto_last_error());
            for (int i = 0; ok && i < o.n_sets; ++i) ok = apply_setting(solver, o.sets[i]);
            if (!ok) break;
        }
        if (!o.quiet) facto_solver_set_callback(solver, on_progress, &state, NULL);
        reason = facto_solver_solve(solver);
        if (!o.quiet && state.tty) fputc('\n', stderr);
        if (reason < 0) ok = !fail("solve", reason, facto_solver_last_error(solver));
    }

    int64_t* labels = ok && clusters ? malloc((size_t)n * sizeof *labels) : NULL;
    if (ok && ((clusters && !labels) || !write_results(solver, &o, n, rows, k, labels))) ok = 0;
    double feasibility[4]; /* nomad: Q's feasibility (collective on several processes) */
    const int feasible_known = ok && nomad && facto_solver_copy_output_double(solver, "feasibility", feasibility, 4, FACTO_ROW_MAJOR) >= 0;
    double gaps[3]; /* Frank-Wolfe solvers: the Frank-Wolfe, away and pairwise gaps (absolute; collective) */
    const int gaps_known = ok && facto_solver_copy_output_double(solver, "gaps", gaps, 3, FACTO_ROW_MAJOR) >= 0;
    int64_t nnz = 0;
    int64_t* selected = ok && dictionary ? fetch_selected(solver, o.k, &nnz) : NULL;
    if (ok && group_rank() == 0) {
        facto_progress p;
        p.struct_size = sizeof p;
        facto_solver_progress(solver, &p);
        printf("{\"solver\": \"%s\", \"n\": %lld, \"k\": %lld, \"stop_reason\": \"%s\", \"iterations\": %lld, "
               "\"objective\": %.17g, \"stationarity\": %.6e, \"seconds\": %.6f, \"affinity_seconds\": %.6f, "
               "\"total_seconds\": %.6f",
               facto_solver_algorithm(solver), (long long)n,
               (long long)(o.n_layers ? o.layers[o.n_layers - 1] : dictionary || nomad ? o.k : k),
               facto_status_string(reason),
               (long long)p.iteration, p.objective, p.stationarity, p.elapsed_seconds, affinity_seconds,
               now_seconds() - t_start);
        double tolerance = 0.0;
        facto_solver_get_double(solver, "tolerance", &tolerance);
        printf(", \"tolerance\": %.1e", tolerance);
        if (o.n_layers) printf(", \"earlier_layers\": [%s]", layers_json);
        double accuracy = -1.0;
        if (truth && labels) {
            facto_clustering_accuracy(labels, truth, n, &accuracy);
            printf(", \"accuracy\": %.6f", accuracy);
        }
        if (truth_points && k == 3) {
            double* X = malloc((size_t)(n * k) * sizeof *X);
            double nrmse = 0.0;
            if (X && facto_solver_copy_iterate(solver, X, n * k, FACTO_ROW_MAJOR) >= 0 &&
                facto_distance_nrmse(X, truth_points, n, k, FACTO_ROW_MAJOR, 10000000, 1, &nrmse) >= 0)
                printf(", \"nrmse\": %.6e", nrmse);
            free(X);
        }
        print_selected(selected, nnz, o.k, anchors);
        if (job) ok = finish_job(solver, &o, doc_truth);
        if (gaps_known)
            printf(", \"gap\": %.6e, \"away_gap\": %.6e, \"pairwise_gap\": %.6e", gaps[0], gaps[1], gaps[2]);
        double limit = 0.0; /* solvers with constraints their iterates may violate: the measure and its bound */
        const int constrained = facto_solver_get_double(solver, "feasibility_tolerance", &limit) >= 0;
        if (constrained)
            printf(", \"feasibility\": %.6e, \"feasibility_tolerance\": %.1e", p.feasibility, limit);
        const double K = (double)(o.n_layers ? o.layers[o.n_layers - 1] : o.k);
        if (feasible_known)
            printf(", \"negative_rmse\": %.6e, \"negative_max\": %.6e, \"row_sum_error\": %.6e, "
                   "\"relative_trace_error\": %.6e",
                   feasibility[0], feasibility[1], feasibility[2], feasibility[3] / K);
        double bound = NAN; /* --bound: every feasible point's objective is at most this */
        if (o.bound && facto_solver_copy_output_double(solver, "upper_bound", &bound, 1, FACTO_ROW_MAJOR) >= 0)
            printf(", \"upper_bound\": %.9e", bound);
        printf("}\n");
        if (!o.quiet) { /* the same in a sentence */
            fprintf(stderr, "facto: %s after %lld iterations, %.2f s: stationarity %.2e (tolerance %.0e)",
                    facto_status_string(reason), (long long)p.iteration, p.elapsed_seconds, p.stationarity, tolerance);
            if (constrained) fprintf(stderr, ", feasibility %.2e (tolerance %.0e)", p.feasibility, limit);
            if (accuracy >= 0.0) fprintf(stderr, ", clustering accuracy %.4f", accuracy);
            if (!isnan(bound))
                fprintf(stderr, ", upper bound %.6g (%.2e above the objective)", bound,
                        (bound - p.objective) / fmax(fabs(bound), 1e-300));
            fputc('\n', stderr);
        }
    }
    free(selected);
    free(labels);
    free(anchors);
    free(truth);
    free(doc_truth);
    free(truth_points);
    facto_solver_free(solver);
    return ok ? 0 : 1;
}

int main(int argc, char** argv)
{
    if (!group_start(&argc, &argv)) return fprintf(stderr, "facto: MPI_Init failed\n"), 1;
    const int status = run(argc, argv);
    group_end(status);
    return status;
}
