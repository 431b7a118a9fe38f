/* libFuzzer harness of the C ABI: the input bytes choose a problem kind, its (small) shape, layout and
 * leading dimension, its entries (NaN, Inf and huge values included), a solver (or a name that does not
 * exist), then a sequence of calls on it: parameter settings by index and value, steps (some after a
 * request to stop), solves with a small iteration limit, iterates set from the bytes (of the right shape
 * or not), the iterate, the outputs and the objective copied into buffers of chosen capacity, callbacks
 * installed and removed; finally the outputs, NOMAD's next layer and the order the handles are freed in.
 * Any crash, leak, sanitizer report, a successful call with a non-finite result, a mutating call that
 * succeeds inside the callback, or a stop request or callback not honoured by the step is a finding.
 * Build: cmake -DFACTO_FUZZ=ON with clang (tests/run.sh); corpus in tests/fuzz/corpus/capi. */
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <stdio.h>
#include <string.h>

#include <facto/facto.h>

typedef struct {
    const uint8_t* p;
    size_t n;
} Bytes;

static unsigned take(Bytes* b)
{
    if (!b->n) return 0;
    b->n--;
    return *b->p++;
}

static double value(Bytes* b)
{
    const unsigned c = take(b);
    switch (c) {
    case 255: return NAN;
    case 254: return INFINITY;
    case 253: return -1e300;
    case 252: return 1e300;
    case 251: return 1e-300;
    default: return ((double)c - 100.0) / 16.0;
    }
}

/* A finding: say which invariant failed (and where), then stop as a crash so that libFuzzer keeps the input. */
#define require(condition) \
    ((condition) ? (void)0 : (fprintf(stderr, "fuzz_capi: %s (%s)\n", #condition, context), __builtin_trap()))
static const char* context = "";

static const char* pick_algorithm(const char* kind, unsigned c)
{
    static const char* all[] = {"frank_wolfe", "projected_gradient", "nolips", "beta_snmf", "coordinate_descent",
                                "sym_hals", "sym_anls", "gradient_descent", "merit", "spa", "nomad_cgm",
                                "burer_monteiro", "nomad_admm", "no_such_solver"};
    /* mostly a solver of the kind (the first ones listed for it), sometimes any name */
    if (c % 4 == 0) return all[(c / 4) % 14];
    if (!strcmp(kind, "simplicial_symnmf")) return all[c % 2];
    if (!strcmp(kind, "symnmf")) return all[1 + c % 6];
    if (!strcmp(kind, "edm_completion")) return c % 2 ? "nolips" : "gradient_descent";
    if (!strcmp(kind, "self_dictionary")) return c % 2 ? "merit" : "spa";
    return c % 3 == 0 ? "nomad_cgm" : c % 3 == 1 ? "burer_monteiro" : "nomad_admm";
}

/* Up to 15 (row, column, value) triplets, indices in [-1, 8] (so sometimes out of range); returns the count. */
static int64_t triplets(Bytes* b, int64_t* r, int64_t* c, double* v)
{
    const int64_t count = take(b) % 16;
    for (int64_t e = 0; e < count; ++e) {
        r[e] = (int64_t)(take(b) % 10) - 1;
        c[e] = (int64_t)(take(b) % 10) - 1;
        v[e] = value(b);
    }
    return count;
}

static facto_problem* make_problem(Bytes* b)
{
    const unsigned kind = take(b) % 6;
    const int64_t rows = take(b) % 8, cols = kind == 4 ? take(b) % 8 : rows;
    const int64_t k = (int64_t)(take(b) % 10) - 1;
    const int32_t layout = (int32_t)(take(b) % 3);
    const int64_t ld = (layout == FACTO_COL_MAJOR ? rows : cols) + (int64_t)(take(b) % 3) - 1;
    const int symmetric = take(b) % 4 != 0;
    double data[8 * 9];
    for (int64_t i = 0; i < 8 * 9; ++i) data[i] = 0.0;
    for (int64_t i = 0; i < rows; ++i)
        for (int64_t j = 0; j < cols; ++j) data[i * 9 + j] = value(b);
    if (symmetric)
        for (int64_t i = 0; i < rows; ++i)
            for (int64_t j = 0; j < i && j < cols; ++j) data[j * 9 + i] = data[i * 9 + j];
    facto_problem* p = NULL;
    facto_status st;
    int64_t r[16], c[16];
    double v[16];
    switch (kind) {
    case 0: st = facto_problem_new_simplicial_symnmf(data, rows, cols, ld < 0 ? 0 : 9, layout, k, &p); break;
    case 1: st = facto_problem_new_symnmf(data, rows, cols, 9, layout, k, &p); break;
    case 2: {
        const int64_t nnz = triplets(b, r, c, v);
        st = facto_problem_new_symnmf_sparse((int32_t)(take(b) % 4) == 3 ? 7 : FACTO_SPARSE_COO, rows, cols, nnz, r, c,
                                             v, k, &p);
        break;
    }
    case 3: {
        const int64_t count = triplets(b, r, c, v);
        st = facto_problem_new_edm_completion(rows, k, count, r, c, v, &p);
        break;
    }
    case 4: st = facto_problem_new_self_dictionary(data, rows, cols, 9, layout, k, value(b), fabs(value(b)), &p); break;
    default: st = facto_problem_new_nomad(data, rows, cols, 9, layout, k, &p); break;
    }
    require((st == FACTO_OK) == (p != NULL));
    require(st == FACTO_OK || facto_last_error()[0] != '\0');
    return p;
}

static void set_parameter(facto_solver* s, Bytes* b)
{
    int64_t count = 0;
    require(facto_solver_param_count(s, &count) == FACTO_OK);
    facto_param_info info;
    info.struct_size = sizeof info;
    const int64_t index = (int64_t)(take(b) % (unsigned)(count + 2)) - 1; /* -1 and count: out of range */
    if (facto_solver_param_info(s, index, &info) != FACTO_OK) return;
    const unsigned how = take(b) % 4;
    if (how == 0) {
        facto_solver_set_double(s, info.name, value(b));
    } else if (how == 1) {
        facto_solver_set_int(s, info.name, (int64_t)take(b) - 10);
    } else if (info.choices) { /* a listed choice, or a word that is not one */
        char choice[64] = "nonsense";
        unsigned which = take(b) % 5;
        const char* start = info.choices;
        while (which-- && strchr(start, '|')) start = strchr(start, '|') + 1;
        const size_t length = strchr(start, '|') ? (size_t)(strchr(start, '|') - start) : strlen(start);
        if (take(b) % 4 && length < sizeof choice) {
            memcpy(choice, start, length);
            choice[length] = '\0';
        }
        facto_solver_set_string(s, info.name, choice);
    } else {
        facto_solver_set_string(s, info.name, "1");
    }
}

/* A copy of `size` elements into a buffer of `capacity`: never OK into a buffer that is too small, a
 * message with every error, and finite values (doubles is NULL for an int64 copy) when it succeeded. */
static void check_copy(const facto_solver* s, facto_status st, int64_t capacity, int64_t size, const double* doubles)
{
    require(capacity >= size || st < 0);
    require(st == FACTO_OK || facto_solver_last_error(s)[0] != '\0');
    if (st == FACTO_OK && doubles)
        for (int64_t i = 0; i < size; ++i) require(isfinite(doubles[i]));
}

static void check_results(facto_solver* s, Bytes* b)
{
    int64_t count = 0;
    require(facto_solver_output_count(s, &count) == FACTO_OK);
    for (int64_t o = 0; o < count; ++o) {
        const char* name = NULL;
        int32_t type = 0;
        int64_t rows = 0, cols = 0;
        require(facto_solver_output_name(s, o, &name) == FACTO_OK);
        context = name;
        if (facto_solver_output_shape(s, name, &type, &rows, &cols) != FACTO_OK || rows * cols > 4096) continue;
        const int64_t capacity = rows * cols - (int64_t)(take(b) % 2); /* sometimes one too small */
        void* buffer = malloc(sizeof(double) * (size_t)(rows * cols + 1));
        const facto_status st = type == FACTO_OUTPUT_DOUBLE
                                    ? facto_solver_copy_output_double(s, name, buffer, capacity, (int32_t)(take(b) % 2))
                                    : facto_solver_copy_output_int64(s, name, buffer, capacity, (int32_t)(take(b) % 2));
        check_copy(s, st, capacity, rows * cols, type == FACTO_OUTPUT_DOUBLE ? (const double*)buffer : NULL);
        free(buffer);
    }
}

/* The iteration callback: const getters must work inside it and every mutating call must return
 * BAD_STATE; it asks to stop once `left` reaches 0. user_data is malloc'ed and freed by the destroy
 * function (the sanitizers' leak check sees a missed destroy). */
typedef struct {
    facto_solver* solver;
    int left;
    int stopped; /* it returned nonzero during the last step */
} Hook;

static int32_t hook(const facto_solver* solver, const facto_progress* progress, void* user_data)
{
    Hook* h = (Hook*)user_data;
    require(solver == h->solver);
    require(isfinite(progress->objective));
    facto_progress copy;
    copy.struct_size = sizeof copy;
    require(facto_solver_progress(solver, &copy) == FACTO_OK && copy.iteration == progress->iteration);
    int64_t rows = 0, cols = 0;
    require(facto_solver_iterate_shape(solver, &rows, &cols) == FACTO_OK);
    require(facto_solver_step(h->solver) == FACTO_ERROR_BAD_STATE);
    require(facto_solver_solve(h->solver) == FACTO_ERROR_BAD_STATE);
    require(facto_solver_set_int(h->solver, "max_iterations", 1) == FACTO_ERROR_BAD_STATE);
    require(facto_solver_reset_params(h->solver) == FACTO_ERROR_BAD_STATE);
    require(facto_solver_set_callback(h->solver, NULL, NULL, NULL) == FACTO_ERROR_BAD_STATE);
    h->stopped = --h->left <= 0;
    return h->stopped;
}

/* Set the iterate from the input bytes: the iterate's shape, or one row or column off. */
static void set_iterate(facto_solver* s, Bytes* b)
{
    int64_t rows = 0, cols = 0;
    require(facto_solver_iterate_shape(s, &rows, &cols) == FACTO_OK);
    const unsigned off = take(b) % 4;
    rows += off == 1 ? -1 : off == 2 ? 1 : 0;
    cols += off == 3 ? 1 : 0;
    if (rows < 0 || cols < 0 || rows * cols > 4096) return;
    double* X = malloc(sizeof(double) * (size_t)(rows * cols + 1));
    for (int64_t i = 0; i < rows * cols; ++i) X[i] = value(b) * (take(b) % 2 ? 1.0 : 0.0);
    const int32_t layout = (int32_t)(take(b) % 2);
    const facto_status st = facto_solver_set_iterate(s, X, rows, cols, layout == FACTO_ROW_MAJOR ? cols : rows, layout);
    require(st == FACTO_OK || facto_solver_last_error(s)[0] != '\0');
    if (st == FACTO_OK) {
        facto_progress progress;
        progress.struct_size = sizeof progress;
        require(facto_solver_progress(s, &progress) == FACTO_OK && progress.iteration == 0);
    }
    free(X);
}

/* Copy the iterate into a buffer of its size or one too small; an OK copy is finite. */
static void copy_iterate(facto_solver* s, Bytes* b)
{
    int64_t rows = 0, cols = 0;
    require(facto_solver_iterate_shape(s, &rows, &cols) == FACTO_OK);
    if (rows * cols > 4096) return;
    const int64_t capacity = rows * cols - (int64_t)(take(b) % 2);
    double* X = malloc(sizeof(double) * (size_t)(rows * cols + 1));
    check_copy(s, facto_solver_copy_iterate(s, X, capacity, (int32_t)(take(b) % 2)), capacity, rows * cols, X);
    free(X);
}

/* One step (after a request to stop, sometimes); a successful one has a finite objective. */
static int step(facto_solver* s, Hook* h, Bytes* b)
{
    const int stop = take(b) % 4 == 0;
    if (stop) require(facto_solver_request_stop(s) == FACTO_OK);
    if (h) h->stopped = 0;
    const facto_status st = facto_solver_step(s);
    if (st < 0) {
        require(facto_solver_last_error(s)[0] != '\0');
        return 0;
    }
    require(!stop || st != FACTO_OK);           /* the request is honoured by this step */
    require(!(h && h->stopped) || st != FACTO_OK); /* and so is the callback's */
    facto_progress progress;
    progress.struct_size = sizeof progress;
    require(facto_solver_progress(s, &progress) == FACTO_OK);
    require(isfinite(progress.objective)); /* a non-finite objective must come back as an error */
    require(progress.stop_reason == st);
    return 1;
}

/* Solve with a small iteration limit: it ends at the limit at the latest. */
static int solve(facto_solver* s, Bytes* b)
{
    const int64_t limit = (int64_t)(take(b) % 8);
    if (facto_solver_set_int(s, "max_iterations", limit) != FACTO_OK) return 1;
    facto_progress before, after;
    before.struct_size = after.struct_size = sizeof before;
    require(facto_solver_progress(s, &before) == FACTO_OK);
    const facto_status st = facto_solver_solve(s);
    require(st != FACTO_OK);
    if (st < 0) {
        require(facto_solver_last_error(s)[0] != '\0');
        return 0;
    }
    require(facto_solver_progress(s, &after) == FACTO_OK);
    require(after.iteration <= (before.iteration > limit ? before.iteration : limit));
    require(isfinite(after.objective));
    return 1;
}

/* The objective of the problem at a point from the input bytes: OK means a finite value. */
static void objective(facto_problem* p, Bytes* b)
{
    int64_t rows = 0, cols = 0;
    require(facto_problem_iterate_shape(p, &rows, &cols) == FACTO_OK);
    if (rows * cols > 4096) return;
    double* X = malloc(sizeof(double) * (size_t)(rows * cols + 1));
    for (int64_t i = 0; i < rows * cols; ++i) X[i] = value(b);
    double f = NAN;
    const facto_status st = facto_problem_objective(p, X, rows, cols, cols, FACTO_ROW_MAJOR, &f);
    require(st == FACTO_OK ? isfinite(f) : facto_problem_last_error(p)[0] != '\0');
    free(X);
}

int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size)
{
    Bytes b = {data, size};
    facto_problem* p = make_problem(&b);
    if (!p) return 0;
    facto_solver* s = NULL;
    const char* algorithm = pick_algorithm(facto_problem_kind(p), take(&b));
    context = algorithm;
    const facto_status made = facto_solver_new(p, algorithm, &s);
    require((made == FACTO_OK) == (s != NULL));
    Hook* h = NULL; /* the installed callback's data, owned by the solver */
    /* a sequence of up to 15 calls, then the outputs; at most 8 steps or solves, which end it on an error */
    for (unsigned op = s ? take(&b) % 16 : 0, iterations = 0; op > 0 && iterations < 8; --op) {
        switch (take(&b) % 9) {
        case 0: set_parameter(s, &b); break;
        case 1: iterations += 1; op = step(s, h, &b) ? op : 1; break;
        case 2: iterations += 1; op = solve(s, &b) ? op : 1; break;
        case 3: set_iterate(s, &b); break;
        case 4: copy_iterate(s, &b); break;
        case 5: check_results(s, &b); break;
        case 6: objective(p, &b); break;
        case 7: require(facto_solver_reset_params(s) == FACTO_OK); break;
        default: /* install a callback that stops after a few calls, or remove it */
            if (take(&b) % 4) {
                Hook* next = malloc(sizeof *next);
                next->solver = s;
                next->left = (int)(take(&b) % 4) + 1;
                next->stopped = 0;
                require(facto_solver_set_callback(s, hook, next, free) == FACTO_OK);
                h = next;
            } else {
                require(facto_solver_set_callback(s, NULL, NULL, NULL) == FACTO_OK);
                h = NULL;
            }
        }
    }
    if (s) {
        check_results(s, &b);
        if (take(&b) % 2) { /* the next layer of NOMAD from this solver */
            facto_problem* layer = NULL;
            if (facto_problem_new_nomad_layer(s, (int64_t)(take(&b) % 4), &layer) == FACTO_OK) facto_problem_free(layer);
        }
    }
    if (take(&b) % 2) { /* either free order */
        facto_problem_free(p);
        facto_solver_free(s);
    } else {
        facto_solver_free(s);
        facto_problem_free(p);
    }
    return 0;
}
