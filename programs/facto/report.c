/* What the command line reports: progress on stderr, the iterate and labels as files, and the JSON
 * summary on stdout (with the job's own outputs for topics and communities). */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "group.h"

/* The solver's callback: a live line on a terminal, else a line every state->every iterations and at the end. */
int32_t on_progress(const facto_solver* solver, const facto_progress* p, void* user_data)
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
int write_results(facto_solver* solver, const options* o, int64_t n, int64_t rows, int64_t k, int64_t* labels)
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
    if (o->output_labels && labels && group_rank() == 0) return write_labels(o->output_labels, labels, n);
    return 1;
}

/* Labels as a one-column CSV; 0 after a message. */
int write_labels(const char* path, const int64_t* labels, int64_t n)
{
    double* as_double = malloc((size_t)(n > 0 ? n : 1) * sizeof *as_double);
    if (!as_double) return !fail("output", FACTO_ERROR_OUT_OF_MEMORY, "out of memory");
    for (int64_t i = 0; i < n; ++i) as_double[i] = (double)labels[i];
    const facto_status st = facto_write_csv(path, as_double, n, 1, 1, FACTO_ROW_MAJOR);
    free(as_double);
    if (st < 0) return !fail(path, st, facto_last_error());
    return 1;
}

/* The selected anchors (k of them, malloc'd) and nnz(C), or NULL; collective on several processes. */
int64_t* fetch_selected(facto_solver* solver, int64_t k, int64_t* nnz)
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

/* The jobs (KIND_JOB): their outputs and scores into the JSON summary, the files asked for; topics by their
 * documents' topic weights, communities by their nodes' memberships, as the solver names them. */
static int finish_job(facto_solver* solver, const options* o, const int64_t* doc_truth)
{
    int32_t type = 0;
    int64_t rows = 0, cols = 0;
    const int topics = facto_solver_output_shape(solver, "document_topics", &type, &rows, &cols) >= 0;
    facto_status st = topics ? FACTO_OK : facto_solver_output_shape(solver, "memberships", &type, &rows, &cols);
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
    if (ok && o->output_labels) ok = write_labels(o->output_labels, labels, rows);
    free(weights), free(labels);
    return ok;
}

/* The JSON summary on stdout (rank 0) and, unless --quiet, the same in a sentence on stderr; the jobs
 * add their outputs and scores. 0 when the job's own outputs failed. */
int print_summary(facto_solver* solver, const options* o, const kind_rule* kind, const summary* s)
{
    int ok = 1;
    double feasibility[4]; /* nomad: Q's feasibility (collective on several processes) */
    const int feasible_known = facto_solver_copy_output_double(solver, "feasibility", feasibility, 4, FACTO_ROW_MAJOR) >= 0;
    int64_t label_rule = -1; /* nomad: which rule made the labels (the solver's parameter label_rule; collective) */
    facto_solver_copy_output_int64(solver, "label_rule", &label_rule, 1, FACTO_ROW_MAJOR);
    double gaps[3]; /* Frank-Wolfe solvers: the Frank-Wolfe, away and pairwise gaps (absolute; collective) */
    const int gaps_known = facto_solver_copy_output_double(solver, "gaps", gaps, 3, FACTO_ROW_MAJOR) >= 0;
    if (group_rank() == 0) {
        facto_progress p;
        p.struct_size = sizeof p;
        facto_solver_progress(solver, &p);
        printf("{\"solver\": \"%s\", \"n\": %lld, \"k\": %lld, \"stop_reason\": \"%s\", \"iterations\": %lld, "
               "\"objective\": %.17g, \"stationarity\": %.6e, \"seconds\": %.6f, \"affinity_seconds\": %.6f, "
               "\"total_seconds\": %.6f",
               facto_solver_algorithm(solver), (long long)s->n,
               (long long)(o->n_layers ? o->layers[o->n_layers - 1] : kind->traits & (KIND_SELECTS | KIND_CLUSTERS) ? o->k : s->k),
               facto_status_string(s->reason),
               (long long)p.iteration, p.objective, p.stationarity, p.elapsed_seconds, s->inputs->affinity_seconds,
               now_seconds() - s->start_seconds);
        const double tolerance = p.tolerance; /* the one in force: the parameter's automatic value resolved */
        printf(", \"tolerance\": %.1e", tolerance);
        if (s->inputs->search >= 0) printf(", \"neighbor_search\": \"%s\"", search_names[s->inputs->search]);
        if (o->n_layers) printf(", \"earlier_layers\": [%s]", s->earlier_layers);
        double accuracy = -1.0;
        if (s->truth && s->labels) {
            facto_clustering_accuracy(s->labels, s->truth, s->n, &accuracy);
            printf(", \"accuracy\": %.6f", accuracy);
        }
        if (s->inputs->truth_points && s->k == 3) {
            double* X = malloc((size_t)(s->n * s->k) * sizeof *X);
            double nrmse = 0.0;
            if (X && facto_solver_copy_iterate(solver, X, s->n * s->k, FACTO_ROW_MAJOR) >= 0 &&
                facto_distance_nrmse(X, s->inputs->truth_points, s->n, s->k, FACTO_ROW_MAJOR, 10000000, 1, &nrmse) >= 0)
                printf(", \"nrmse\": %.6e", nrmse);
            free(X);
        }
        print_selected(s->selected, s->nnz, o->k, s->inputs->anchors);
        if (kind->traits & KIND_JOB) ok = finish_job(solver, o, s->inputs->doc_truth);
        if (gaps_known)
            printf(", \"gap\": %.6e, \"away_gap\": %.6e, \"pairwise_gap\": %.6e", gaps[0], gaps[1], gaps[2]);
        double limit = 0.0; /* solvers with constraints their iterates may violate: the measure and its bound */
        const int constrained = facto_solver_get_double(solver, "feasibility_tolerance", &limit) >= 0;
        if (constrained)
            printf(", \"feasibility\": %.6e, \"feasibility_tolerance\": %.1e", p.feasibility, limit);
        const double K = (double)(o->n_layers ? o->layers[o->n_layers - 1] : o->k);
        if (feasible_known)
            printf(", \"negative_rmse\": %.6e, \"negative_max\": %.6e, \"row_sum_error\": %.6e, "
                   "\"relative_trace_error\": %.6e",
                   feasibility[0], feasibility[1], feasibility[2], feasibility[3] / K);
        if (label_rule >= 0) printf(", \"label_rule\": \"%s\"", label_rule == 0 ? "components" : "kmeans");
        double bound = NAN; /* --bound: every feasible point's objective is at most this */
        if (o->bound && facto_solver_copy_output_double(solver, "upper_bound", &bound, 1, FACTO_ROW_MAJOR) >= 0)
            printf(", \"upper_bound\": %.9e", bound);
        const double bound_gap = (bound - p.objective) / fmax(fabs(p.objective), 1e-300); /* (U - f) / |f| */
        if (!isnan(bound)) printf(", \"bound_gap_over_objective\": %.6e", bound_gap);
        printf("}\n");
        if (!o->quiet) { /* the same in a sentence */
            fprintf(stderr, "facto: %s after %lld iterations, %.2f s: stationarity %.2e (tolerance %.0e)",
                    facto_status_string(s->reason), (long long)p.iteration, p.elapsed_seconds, p.stationarity, tolerance);
            if (constrained) fprintf(stderr, ", feasibility %.2e (tolerance %.0e)", p.feasibility, limit);
            if (accuracy >= 0.0) fprintf(stderr, ", clustering accuracy %.4f", accuracy);
            if (!isnan(bound))
                fprintf(stderr, ", upper bound %.6g ((U - f)/|f| = %.2e above the objective)", bound, bound_gap);
            fputc('\n', stderr);
        }
    }
    return ok;
}
