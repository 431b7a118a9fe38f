/* facto: command-line clustering by simplicial symmetric NMF, written against the public C ABI only.
 *
 * Reads a feature matrix (CSV or .npy; rows are points) and builds the Gaussian affinity P, or reads P
 * itself (--affinity); runs the chosen solver; shows progress on stderr (a live line on a terminal,
 * plain lines otherwise); writes W and labels if asked; prints a JSON summary on stdout. */
#include <facto/facto.h>

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

static const char* usage =
    "usage: facto [options] FILE\n"
    "\n"
    "  FILE                  feature matrix, CSV or .npy, one point per row (or P with --affinity)\n"
    "  -k, --rank K          number of clusters (required)\n"
    "  --solver NAME         frank_wolfe (default) or projected_gradient\n"
    "  --set NAME=VALUE      set a solver parameter (repeatable; see --list-params)\n"
    "  --affinity            FILE is the n x n affinity matrix P itself\n"
    "  --bandwidth B         Gaussian kernel bandwidth, P_ij = exp(-||x_i - x_j||^2 / B) (default 1)\n"
    "  --scale MODE          feature scaling before the kernel: minmax (to [-1, 1], default), zscore, none\n"
    "  --labels FILE         true labels, one per row, to report the clustering accuracy\n"
    "  --init FILE           starting W (n x k, rows on the simplex) instead of a seeded random one\n"
    "  --output-w FILE       write W as CSV\n"
    "  --output-labels FILE  write the cluster of each point (argmax of its row of W) as CSV\n"
    "  --progress-every N    without a terminal, print a progress line every N iterations (default 10)\n"
    "  --quiet               no progress output\n"
    "  --list-params         print the solver's parameters and exit\n"
    "  --version             print the library's version and exit\n"
    "  -h, --help            this help\n";

typedef struct options {
    const char* file;
    int64_t k;
    const char* solver;
    int affinity;
    double bandwidth;
    int32_t scaling;
    const char* labels;
    const char* init;
    const char* output_w;
    const char* output_labels;
    int64_t progress_every;
    int quiet;
    int list_params;
    const char* sets[64];
    int n_sets;
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
    fprintf(stderr, "facto: %s: %s (%s)\n", what, message, facto_status_string(status));
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
        fprintf(stderr, "\r  iteration %7lld   objective %.10e   gap %.4e   %7.2f s ", (long long)p->iteration,
                p->objective, p->stationarity, p->elapsed_seconds);
        fflush(stderr);
    } else if (p->iteration % state->every == 0 || p->stop_reason != 0) {
        fprintf(stderr, "iteration %lld objective %.10e gap %.4e step %.4e seconds %.3f\n", (long long)p->iteration,
                p->objective, p->stationarity, p->step_size, p->elapsed_seconds);
    }
    return 0;
}

static int parse_options(int argc, char** argv, options* o)
{
    memset(o, 0, sizeof *o);
    o->solver = "frank_wolfe";
    o->bandwidth = 1.0;
    o->scaling = FACTO_SCALE_MINMAX;
    o->progress_every = 10;
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
        } else if (!strcmp(a, "--progress-every")) {
            o->progress_every = strtoll(next, NULL, 10);
            if (o->progress_every < 1) o->progress_every = 1;
        } else {
            fprintf(stderr, "facto: unknown option %s\n%s", a, usage);
            return 0;
        }
        if (takes_value) ++i;
    }
    if (o->list_params) return 1;
    if (!o->file || o->k < 1) {
        fputs(usage, stderr);
        return 0;
    }
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

static facto_problem* build_problem(const options* o, double* affinity_seconds)
{
    facto_matrix* data = NULL;
    facto_status st = facto_matrix_read(o->file, &data);
    if (st < 0) return fail(o->file, st, facto_last_error()), NULL;
    int64_t rows = 0, cols = 0;
    facto_matrix_shape(data, &rows, &cols);
    const double t0 = now_seconds();
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
    st = facto_problem_new_simplicial_symnmf(facto_matrix_data(P), rows, cols, cols, FACTO_ROW_MAJOR, o->k, &problem);
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

static int write_results(facto_solver* solver, const options* o, int64_t n, int64_t k, int64_t* labels)
{
    facto_status st = facto_solver_copy_output_int64(solver, "labels", labels, n, FACTO_ROW_MAJOR);
    if (st < 0) return !fail("labels", st, facto_solver_last_error(solver));
    if (o->output_w) {
        double* W = malloc((size_t)(n * k) * sizeof *W);
        if (!W) return !fail("output", FACTO_ERROR_OUT_OF_MEMORY, "out of memory");
        facto_solver_copy_iterate(solver, W, n * k, FACTO_ROW_MAJOR);
        st = facto_write_csv(o->output_w, W, n, k, k, FACTO_ROW_MAJOR);
        free(W);
        if (st < 0) return !fail(o->output_w, st, facto_last_error());
    }
    if (o->output_labels) {
        double* as_double = malloc((size_t)n * sizeof *as_double);
        if (!as_double) return !fail("output", FACTO_ERROR_OUT_OF_MEMORY, "out of memory");
        for (int64_t i = 0; i < n; ++i) as_double[i] = (double)labels[i];
        st = facto_write_csv(o->output_labels, as_double, n, 1, 1, FACTO_ROW_MAJOR);
        free(as_double);
        if (st < 0) return !fail(o->output_labels, st, facto_last_error());
    }
    return 1;
}

int main(int argc, char** argv)
{
    options o;
    if (!parse_options(argc, argv, &o)) return 2;
    if (facto_version_number() / 10000 != FACTO_VERSION_MAJOR) {
        fprintf(stderr, "facto: library version %s does not match the header's major version\n", facto_version());
        return 1;
    }
    const double t_start = now_seconds();
    if (o.list_params) {
        /* A 1 x 1 problem just to instantiate the solver and read its table. */
        const double one = 1.0;
        facto_problem* tiny = NULL;
        facto_solver* s = NULL;
        facto_problem_new_simplicial_symnmf(&one, 1, 1, 1, FACTO_ROW_MAJOR, 1, &tiny);
        facto_status st = facto_solver_new(tiny, o.solver, &s);
        facto_problem_free(tiny);
        if (st < 0) return fail("solver", st, facto_last_error());
        list_params(s);
        facto_solver_free(s);
        return 0;
    }

    double affinity_seconds = 0.0;
    facto_problem* problem = build_problem(&o, &affinity_seconds);
    if (!problem) return 1;
    int64_t n = 0, k = 0;
    facto_problem_iterate_shape(problem, &n, &k);
    facto_solver* solver = NULL;
    facto_status st = facto_solver_new(problem, o.solver, &solver);
    facto_problem_free(problem); /* the solver keeps what it needs */
    if (st < 0) return fail("solver", st, facto_last_error());

    int ok = 1;
    for (int i = 0; ok && i < o.n_sets; ++i) ok = apply_setting(solver, o.sets[i]);
    if (ok && o.init) ok = set_initial_point(solver, o.init);
    int64_t* truth = ok && o.labels ? read_labels(o.labels, n) : NULL;
    if (o.labels && !truth) ok = 0;

    progress_state state = {isatty(STDERR_FILENO), o.progress_every, 0.0};
    if (ok && !o.quiet) facto_solver_set_callback(solver, on_progress, &state, NULL);
    const facto_status reason = ok ? facto_solver_solve(solver) : FACTO_OK;
    if (ok && !o.quiet && state.tty) fputc('\n', stderr);
    if (ok && reason < 0) ok = fail("solve", reason, facto_solver_last_error(solver));

    int64_t* labels = ok ? malloc((size_t)n * sizeof *labels) : NULL;
    if (ok && (!labels || !write_results(solver, &o, n, k, labels))) ok = 0;
    if (ok) {
        facto_progress p;
        p.struct_size = sizeof p;
        facto_solver_progress(solver, &p);
        printf("{\"solver\": \"%s\", \"n\": %lld, \"k\": %lld, \"stop_reason\": \"%s\", \"iterations\": %lld, "
               "\"objective\": %.17g, \"gap\": %.17g, \"seconds\": %.6f, \"affinity_seconds\": %.6f, "
               "\"total_seconds\": %.6f",
               facto_solver_algorithm(solver), (long long)n, (long long)k, facto_status_string(reason),
               (long long)p.iteration, p.objective, p.stationarity, p.elapsed_seconds, affinity_seconds,
               now_seconds() - t_start);
        if (truth) {
            double accuracy = 0.0;
            facto_clustering_accuracy(labels, truth, n, &accuracy);
            printf(", \"accuracy\": %.6f", accuracy);
        }
        printf("}\n");
    }
    free(labels);
    free(truth);
    facto_solver_free(solver);
    return ok ? 0 : 1;
}
