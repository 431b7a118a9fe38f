/* Fitted models on the command line: --save-model DIR writes the solved problem's model (with the rule
 * that turns new points' features into the fit's input, when the fit was built from features), and
 * --apply DIR FILE gives FILE's new points their rows and labels by a saved model (facto.h, "Models"). */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"

/* s as a JSON string (quotes and backslashes escaped) into out. */
static void json_string(char* out, size_t capacity, const char* s)
{
    size_t used = 0;
    if (capacity < 3) return;
    out[used++] = '"';
    for (; s && *s && used + 3 < capacity; ++s) {
        if (*s == '"' || *s == '\\') out[used++] = '\\';
        out[used++] = *s;
    }
    out[used++] = '"';
    out[used] = '\0';
}

/* The fit's own settings, for the record in model.json. */
static void settings_of(const options* o, char* out, size_t capacity)
{
    char file[1024], solver[128], problem[128];
    json_string(file, sizeof file, o->file ? o->file : "");
    json_string(solver, sizeof solver, o->solver);
    json_string(problem, sizeof problem, o->problem);
    static const char* const scalings[] = {"none", "minmax", "zscore", "auto"};
    static const char* const graphs[] = {"gaussian", "cosine", "auto"};
    snprintf(out, capacity,
             "{\"problem\": %s, \"solver\": %s, \"k\": %lld, \"file\": %s, \"affinity\": %s, \"bandwidth\": %.17g, "
             "\"scale\": \"%s\", \"graph\": \"%s\", \"neighbors\": %lld, \"search\": \"%s\"}",
             problem, solver, (long long)o->k, file, o->affinity ? "true" : "false", o->bandwidth, scalings[o->scaling],
             graphs[o->graph], (long long)o->neighbors, search_names[o->search]);
}

/* The feature rule of a fit built from the features in o->file (read again here), the kind's `rule`: the
 * Gaussian affinity (simplicial_symnmf), the kNN graph (symnmf), the points' cluster means (nomad); 0 after
 * a message. */
static int attach_features(facto_model* model, const options* o, enum feature_rule rule)
{
    if (o->affinity || !o->file || rule == RULE_NONE) return 1;
    if (ends_with(o->file, ".mtx") && rule != RULE_GAUSSIAN) { /* sparse features, as the fit read them: the
                                                                  * clusters' means, or the kNN rule's rows */
        csr_arrays a;
        if (!read_csr(o->file, &a)) return 0;
        facto_status st = rule == RULE_POINTS
                              ? facto_model_use_points_sparse(model, FACTO_SPARSE_CSR, a.rows, a.cols, a.nnz, a.indptr,
                                                              a.indices, a.values)
                              : facto_model_use_knn_similarity_sparse(model, FACTO_SPARSE_CSR, a.rows, a.cols, a.nnz,
                                                                      a.indptr, a.indices, a.values, o->neighbors,
                                                                      o->graph, o->scaling, o->search);
        free_csr(&a);
        return st < 0 ? !fail("--save-model", st, facto_model_last_error(model)) : 1;
    }
    facto_matrix* X = NULL;
    facto_status st = facto_matrix_read(o->file, &X);
    if (st < 0) return !fail(o->file, st, facto_last_error());
    int64_t n = 0, p = 0;
    facto_matrix_shape(X, &n, &p);
    const double* x = facto_matrix_data(X);
    st = rule == RULE_GAUSSIAN ? facto_model_use_gaussian_affinity(model, x, n, p, p, FACTO_ROW_MAJOR, o->bandwidth, o->scaling)
         : rule == RULE_KNN    ? facto_model_use_knn_similarity_search(model, x, n, p, p, FACTO_ROW_MAJOR, o->neighbors,
                                                                    o->graph, o->scaling, o->search)
                               : facto_model_use_points(model, x, n, p, p, FACTO_ROW_MAJOR);
    facto_matrix_free(X);
    if (st < 0) return !fail("--save-model", st, facto_model_last_error(model));
    return 1;
}

int save_model(const facto_solver* solver, const options* o, const kind_rule* kind)
{
    facto_model* model = NULL;
    facto_status st = facto_solver_model(solver, &model);
    if (st < 0) return !fail("--save-model", st, facto_solver_last_error(solver));
    char settings[2048];
    settings_of(o, settings, sizeof settings);
    int ok = attach_features(model, o, kind->features);
    if (ok && o->without_training_features && (st = facto_model_drop_training_features(model)) < 0)
        ok = !fail("--without-training-features", st, facto_model_last_error(model));
    if (ok && (st = facto_model_save(model, o->save_model, settings)) < 0)
        ok = !fail(o->save_model, st, facto_model_last_error(model));
    facto_model_free(model);
    return ok;
}

/* --apply DIR FILE: FILE's new points (a Matrix Market file sparse, anything else dense; for
 * self_dictionary one point per row, as the fit reads them) through the model in DIR; writes
 * --output-w (the rows) and --output-labels, reports accuracy against --labels, prints a JSON summary. */
int apply_saved_model(const options* o)
{
    const double t0 = now_seconds();
    facto_model* model = NULL;
    facto_status st = facto_model_load(o->apply_model, &model);
    if (st < 0) return !fail(o->apply_model, st, facto_last_error());
    const char* kind = facto_model_kind(model);
    const kind_rule* rule = kind_rule_of(kind);
    int64_t cols = 0, q = 0, width = 0, nnz = 0;
    double *rows = NULL, *residuals = NULL;
    int64_t* labels = NULL;
    int ok = rule != NULL;
    if (ok && (st = facto_model_apply_columns(model, &cols)) < 0) ok = !fail(o->apply_model, st, facto_model_last_error(model));
    const double t_read = now_seconds();
    facto_matrix* dense = NULL;
    facto_sparse* sparse = NULL;
    if (ok) {
        st = ends_with(o->file, ".mtx") || ends_with(o->file, ".mtx.gz") ? facto_sparse_read(o->file, &sparse)
                                                                         : facto_matrix_read(o->file, &dense);
        if (st < 0) ok = !fail(o->file, st, facto_last_error());
    }
    if (ok) {
        if (sparse) facto_sparse_shape(sparse, &q, &width, &nnz);
        else facto_matrix_shape(dense, &q, &width);
        rows = malloc((size_t)(q * cols > 0 ? q * cols : 1) * sizeof *rows);
        labels = malloc((size_t)(q > 0 ? q : 1) * sizeof *labels);
        residuals = malloc((size_t)(q > 0 ? q : 1) * sizeof *residuals);
        if (!rows || !labels || !residuals) ok = !fail("--apply", FACTO_ERROR_OUT_OF_MEMORY, "out of memory");
    }
    const double t_apply = now_seconds();
    /* points are rows of FILE; a kind of columns takes them as the columns of the width x q X: the CSR rows as
     * CSC columns, the row-major array as a column-major one */
    const int by_columns = rule && (rule->traits & KIND_COLUMNS) != 0;
    if (ok && sparse) {
        csr_arrays a;
        if (!copy_csr(sparse, &a)) ok = 0;
        if (ok && (st = facto_model_apply_sparse(model, by_columns ? FACTO_SPARSE_CSC : FACTO_SPARSE_CSR,
                                                 by_columns ? a.cols : a.rows, by_columns ? a.rows : a.cols, a.nnz,
                                                 a.indptr, a.indices, a.values, rows, q * cols, labels, residuals)) < 0)
            ok = !fail("--apply", st, facto_model_last_error(model));
        if (a.indptr) free_csr(&a);
    } else if (ok) {
        st = by_columns ? facto_model_apply(model, facto_matrix_data(dense), width, q, width, FACTO_COL_MAJOR, rows,
                                            q * cols, labels, residuals)
                        : facto_model_apply(model, facto_matrix_data(dense), q, width, width, FACTO_ROW_MAJOR, rows,
                                            q * cols, labels, residuals);
        if (st < 0) ok = !fail("--apply", st, facto_model_last_error(model));
    }
    const double apply_seconds = now_seconds() - t_apply;
    facto_matrix_free(dense);
    facto_sparse_free(sparse);
    if (ok && o->output_w && (st = facto_write_csv(o->output_w, rows, q, cols, cols, FACTO_ROW_MAJOR)) < 0)
        ok = !fail(o->output_w, st, facto_last_error());
    if (ok && o->output_labels) ok = write_labels(o->output_labels, labels, q);
    int64_t* truth = ok && o->labels ? read_labels(o->labels, q) : NULL;
    if (o->labels && !truth) ok = 0;
    if (ok) {
        int64_t unknown = 0;
        double residual = 0.0;
        for (int64_t i = 0; i < q; ++i) unknown += labels[i] < 0, residual += residuals[i];
        double accuracy = NAN;
        if (truth && facto_clustering_accuracy(labels, truth, q, &accuracy) < 0) accuracy = NAN;
        printf("{\"apply\": \"%s\", \"kind\": \"%s\", \"points\": %lld, \"columns\": %lld, \"unlabelled\": %lld, "
               "\"mean_residual\": %.9g, \"read_seconds\": %.6g, \"apply_seconds\": %.6g, \"seconds_per_point\": %.6g",
               o->apply_model, kind, (long long)q, (long long)cols, (long long)(rule->traits & (KIND_CLUSTERS | KIND_SELECTS) ? unknown : 0),
               q > 0 ? residual / (double)q : 0.0, t_apply - t_read, apply_seconds, q > 0 ? apply_seconds / (double)q : 0.0);
        if (truth) printf(", \"accuracy\": %.6f", accuracy);
        printf(", \"seconds\": %.6g, \"fitted_with\": %s}\n", now_seconds() - t0, facto_model_settings(model));
    }
    free(truth);
    free(rows);
    free(labels);
    free(residuals);
    facto_model_free(model);
    return ok;
}

int describe_saved_model(const options* o)
{
    facto_model* model = NULL;
    facto_status st = facto_model_load(o->describe_model, &model);
    if (st < 0) return !fail(o->describe_model, st, facto_last_error());
    const char* json = NULL;
    if ((st = facto_model_describe(model, &json)) >= 0) printf("%s\n", json);
    else fail(o->describe_model, st, facto_model_last_error(model));
    facto_model_free(model);
    return st >= 0;
}
