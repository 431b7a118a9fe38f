/* One builder per problem the command line runs, from a file or from one of the papers' generators; the
 * process group (group.h) decides whether the problem is one process's or a distributed one. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "group.h"

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
    const float* single = facto_matrix_data_float(m);
    double largest = 0.0, asymmetry = 0.0;
    for (int64_t i = 0; i < rows; ++i)
        for (int64_t j = 0; j < cols; ++j) {
            const double x = a ? a[i * cols + j] : single[i * cols + j];
            const double d = x - (a ? a[j * cols + i] : single[j * cols + i]);
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

/* o->file's matrix, a .npy file of points in single precision when `single` and it holds them exactly
 * (images: uint8, float32; half the memory of doubles), other values as doubles; 0 after a message. */
static int read_points(const options* o, int single, facto_matrix** m)
{
    facto_status st = single && ends_with(o->file, ".npy") ? facto_matrix_read_float(o->file, m) : FACTO_ERROR_UNSUPPORTED;
    if (st == FACTO_ERROR_UNSUPPORTED) st = facto_matrix_read(o->file, m);
    if (st < 0) return !fail(o->file, st, facto_last_error());
    return 1;
}

/* edm_completion from a CSV of (i, j, d) rows, or on the Helix (whose points go to b->truth_points). */
static facto_problem* build_edm(const options* o, built* b)
{
    int64_t count = 0, n = 0;
    int64_t *i = NULL, *j = NULL;
    double* d = NULL;
    facto_status st;
    if (o->helix) {
        n = o->helix;
        b->truth_points = malloc((size_t)(3 * n) * sizeof *b->truth_points);
        if (!b->truth_points) return fail("helix", FACTO_ERROR_OUT_OF_MEMORY, "out of memory"), NULL;
        b->n_truth = n;
        facto_sparse* pairs = NULL;
        st = facto_helix_points(n, 1, b->truth_points, 3 * n);
        if (st >= 0) st = facto_sample_pairs(b->truth_points, n, 3, 3, FACTO_ROW_MAJOR, o->fraction, 2, &pairs);
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
 * (whose anchors go to b->anchors). */
static facto_problem* build_self_dictionary(const options* o, built* b)
{
    facto_matrix* m = NULL;
    int64_t n = o->separable, dim = o->features;
    double* generated = NULL;
    facto_status st;
    if (o->separable) {
        generated = malloc((size_t)(n * dim) * sizeof *generated);
        b->anchors = malloc((size_t)o->k * sizeof *b->anchors);
        st = generated && b->anchors ? facto_separable_data(FACTO_SEPARABLE_DIRICHLET, dim, n, o->k, o->snr, 1, generated,
                                                          n * dim, FACTO_COL_MAJOR, b->anchors, o->k)
                                   : FACTO_ERROR_OUT_OF_MEMORY;
        if (st < 0) return free(generated), fail("separable data", st, facto_last_error()), NULL;
    } else if (ends_with(o->file, ".mtx")) { /* sparse points, rows of the file: kept sparse, never dense */
        if (group_distributed())
            return fprintf(stderr, "facto-mpi: self_dictionary on sparse points (%s) runs on one process: use facto\n",
                           o->file), NULL;
        csr_arrays a;
        if (!read_csr(o->file, &a)) return NULL;
        facto_problem* problem = NULL; /* the file's CSR rows (points) are the CSC columns of the dim x n X */
        st = facto_problem_new_self_dictionary_sparse(FACTO_SPARSE_CSC, a.cols, a.rows, a.nnz, a.indptr, a.indices,
                                                      a.values, o->k, o->n_params, o->param_names, o->param_values,
                                                      &problem);
        free_csr(&a);
        if (st < 0) fail("problem", st, facto_last_error());
        return problem;
    } else {
        st = facto_matrix_read(o->file, &m);
        if (st < 0) return fail(o->file, st, facto_last_error()), NULL;
        facto_matrix_shape(m, &n, &dim);
    }
    /* points are rows of a row-major n x dim array: the column-major dim x n X */
    facto_problem* problem = NULL;
    st = group_self_dictionary(generated ? generated : facto_matrix_data(m), dim, n, o->k, o, &problem);
    free(generated);
    facto_matrix_free(m);
    if (st < 0) fail("problem", st, facto_last_error());
    return problem;
}

/* topics from a document-term count file, restricted to a K-topic subset (--subsets) when given; the
 * documents' true labels (--labels: one per row, or doc,label rows of the whole corpus) go to b->doc_truth. */
static facto_problem* build_topics(const options* o, built* b)
{
    int64_t documents = 0; /* the subset's, else all */
    facto_sparse* counts = NULL;
    facto_status st = facto_sparse_read(o->file, &counts);
    if (st < 0) return fail(o->file, st, facto_last_error()), NULL;
    int64_t D = 0, V = 0, nnz = 0, subset_min_df = 0;
    facto_sparse_shape(counts, &D, &V, &nnz);
    int64_t* r = malloc((size_t)(nnz > 0 ? nnz : 1) * sizeof *r);
    int64_t* c = malloc((size_t)(nnz > 0 ? nnz : 1) * sizeof *c);
    double* v = malloc((size_t)(nnz > 0 ? nnz : 1) * sizeof *v);
    int64_t* position = malloc((size_t)(D > 0 ? D : 1) * sizeof *position); /* the subset's row of each document */
    int64_t* docs = NULL;
    facto_problem* problem = NULL;
    documents = D;
    if (!r || !c || !v || !position) goto done;
    facto_sparse_copy_coo(counts, r, c, v);
    for (int64_t i = 0; i < D; ++i) position[i] = o->subsets ? -1 : i;
    if (o->subsets) {
        if (!(docs = read_subset(o->subsets, o->k, o->trial, &documents, &subset_min_df))) goto done;
        for (int64_t i = 0; i < documents; ++i) {
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
    if (o->labels && !(b->doc_truth = read_document_labels(o->labels, D, documents, position))) goto done;
    /* the subset's min_df unless one was given */
    const char* names[17];
    double values[17];
    int count = o->n_params;
    memcpy(names, o->param_names, sizeof o->param_names), memcpy(values, o->param_values, sizeof o->param_values);
    if (subset_min_df > 0 && given_param(o, "min_df") < 0) names[count] = "min_df", values[count++] = (double)subset_min_df;
    st = facto_problem_new_topics_named(FACTO_SPARSE_COO, documents, V, nnz, r, c, v, o->k, count, names, values,
                                        &problem);
    if (st < 0) fail("problem", st, facto_last_error());
done:
    if (!problem) free(b->doc_truth), b->doc_truth = NULL;
    free(r), free(c), free(v), free(position), free(docs);
    facto_sparse_free(counts);
    return problem;
}

/* communities from an adjacency file (Matrix Market, both triangles or a symmetric file). */
static facto_problem* build_communities(const options* o, built* b)
{
    (void)b;
    csr_arrays a;
    facto_problem* problem = NULL;
    if (!read_csr(o->file, &a)) return NULL;
    const facto_status st = facto_problem_new_communities_named(FACTO_SPARSE_CSR, a.rows, a.cols, a.nnz, a.indptr,
                                                                a.indices, a.values, o->k, o->n_params, o->param_names,
                                                                o->param_values, &problem);
    if (st < 0) fail("problem", st, facto_last_error());
    free_csr(&a);
    return problem;
}

/* nomad from two generated rings or a file of points (D the paper's Gram matrix of them, never formed),
 * or D itself (--affinity). */
static facto_problem* build_nomad(const options* o, built* b)
{
    (void)b;
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
    if (!o->affinity && ends_with(o->file, ".mtx")) { /* sparse points (TF-IDF): centred implicitly, never dense */
        if (group_distributed())
            return fprintf(stderr, "facto-mpi: nomad on sparse points (%s) runs on one process: use facto\n", o->file), NULL;
        csr_arrays a;
        if (!read_csr(o->file, &a)) return NULL;
        st = facto_problem_new_nomad_points_sparse(FACTO_SPARSE_CSR, a.rows, a.cols, a.nnz, a.indptr, a.indices, a.values,
                                                   o->k, &problem);
        free_csr(&a);
        if (st < 0) fail("problem", st, facto_last_error());
        return problem;
    }
    if (!read_points(o, !o->affinity && !group_distributed(), &m)) return NULL;
    if (!o->affinity && !check_features(o, m)) return facto_matrix_free(m), NULL;
    facto_matrix_shape(m, &n, &dim);
    const float* single = facto_matrix_data_float(m);
    st = o->affinity ? facto_problem_new_nomad(facto_matrix_data(m), n, dim, dim, FACTO_ROW_MAJOR, o->k, &problem)
         : single    ? facto_problem_new_nomad_points_float(single, n, dim, dim, FACTO_ROW_MAJOR, o->k, &problem)
                     : group_nomad_points(facto_matrix_data(m), n, dim, o->k, &problem);
    facto_matrix_free(m);
    if (st < 0) fail("problem", st, facto_last_error());
    return problem;
}

/* simplicial_symnmf on the Gaussian affinity of a file's points, symnmf (`symnmf`) on their kNN graph (dense
 * or sparse features), either on the affinity itself (--affinity; a Matrix Market file sparse for symnmf). */
static facto_problem* build_affinity(const options* o, built* b, int symnmf)
{
    const double t0 = now_seconds();
    facto_status st;
    if (symnmf && o->affinity && ends_with(o->file, ".mtx")) {
        facto_sparse* M = NULL;
        st = facto_sparse_read(o->file, &M);
        if (st < 0) return fail(o->file, st, facto_last_error()), NULL;
        b->affinity_seconds = now_seconds() - t0;
        return symnmf_from_sparse(M, o->k);
    }
    if (symnmf && ends_with(o->file, ".mtx")) { /* sparse features (counts, TF-IDF): kept sparse where unscaled */
        csr_arrays a;
        if (!read_csr(o->file, &a)) return NULL;
        facto_sparse* M = NULL;
        st = facto_knn_similarity_sparse(FACTO_SPARSE_CSR, a.rows, a.cols, a.nnz, a.indptr, a.indices, a.values,
                                         o->neighbors, o->graph, o->scaling, o->search, &M);
        if (st >= 0) b->search = o->search == FACTO_SEARCH_AUTO ? FACTO_SEARCH_EXACT : o->search;
        free_csr(&a);
        if (st < 0) return fail("similarity graph", st, facto_last_error()), NULL;
        b->affinity_seconds = now_seconds() - t0;
        return symnmf_from_sparse(M, o->k);
    }
    facto_matrix* data = NULL;
    if (!read_points(o, symnmf && !o->affinity, &data)) return NULL;  /* the kNN graph's features */
    if (!o->affinity && !check_features(o, data)) return facto_matrix_free(data), NULL;
    int64_t rows = 0, cols = 0;
    facto_matrix_shape(data, &rows, &cols);
    if (symnmf && !o->affinity) {
        facto_sparse* M = NULL;
        const float* single = facto_matrix_data_float(data);
        st = single ? facto_knn_similarity_search_float(single, rows, cols, cols, FACTO_ROW_MAJOR, o->neighbors, o->graph,
                                                        o->scaling, o->search, &M)
                    : facto_knn_similarity_search(facto_matrix_data(data), rows, cols, cols, FACTO_ROW_MAJOR,
                                                  o->neighbors, o->graph, o->scaling, o->search, &M);
        facto_matrix_free(data);
        if (st < 0) return fail("similarity graph", st, facto_last_error()), NULL;
        b->search = facto_knn_search_for(rows, o->search);
        b->affinity_seconds = now_seconds() - t0;
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
    b->affinity_seconds = now_seconds() - t0;
    facto_problem* problem = NULL;
    st = symnmf ? facto_problem_new_symnmf(facto_matrix_data(P), rows, cols, cols, FACTO_ROW_MAJOR, o->k, &problem)
                : facto_problem_new_simplicial_symnmf(facto_matrix_data(P), rows, cols, cols, FACTO_ROW_MAJOR, o->k,
                                                      &problem);
    facto_matrix_free(P);
    if (st < 0) return fail("problem", st, facto_last_error()), NULL;
    return problem;
}

static facto_problem* build_simplicial(const options* o, built* b) { return build_affinity(o, b, 0); }
static facto_problem* build_symnmf(const options* o, built* b) { return build_affinity(o, b, 1); }

/* The smallest problem of each kind, whose solvers --list-params reads (topics: a self_dictionary one,
 * whose solvers it shares; communities: a triangle, for geonmf, which only they have). */
static const double one = 1.0;
static facto_problem* tiny_simplicial(void)
{
    facto_problem* p = NULL;
    facto_problem_new_simplicial_symnmf(&one, 1, 1, 1, FACTO_ROW_MAJOR, 1, &p);
    return p;
}
static facto_problem* tiny_symnmf(void)
{
    facto_problem* p = NULL;
    facto_problem_new_symnmf(&one, 1, 1, 1, FACTO_ROW_MAJOR, 1, &p);
    return p;
}
static facto_problem* tiny_edm(void)
{
    const int64_t first = 0, second = 1;
    facto_problem* p = NULL;
    facto_problem_new_edm_completion(2, 1, 1, &first, &second, &one, &p);
    return p;
}
static facto_problem* tiny_self_dictionary(void)
{
    const double two[2] = {1.0, 2.0};
    facto_problem* p = NULL;
    facto_problem_new_self_dictionary_named(two, 1, 2, 2, FACTO_ROW_MAJOR, 1, 0, NULL, NULL, &p);
    return p;
}
static facto_problem* tiny_communities(void)
{
    const double ones[6] = {1.0, 1.0, 1.0, 1.0, 1.0, 1.0};
    const int64_t rows[6] = {0, 0, 1, 1, 2, 2}, cols[6] = {1, 2, 0, 2, 0, 1};
    const char* every_node[1] = {"energy"};
    facto_problem* p = NULL;
    facto_problem_new_communities_named(FACTO_SPARSE_COO, 3, 3, 6, rows, cols, ones, 1, 1, every_node, &one, &p);
    return p;
}
static facto_problem* tiny_nomad(void)
{
    facto_problem* p = NULL;
    facto_problem_new_nomad(&one, 1, 1, 1, FACTO_ROW_MAJOR, 1, &p);
    return p;
}

/* What facto-mpi distributes: symnmf from features or a Matrix Market file, nomad on points (burer_monteiro)
 * without --layers or --bound, and self_dictionary (merit). */
static int distributed_symnmf(const options* o) { return !o->affinity || (o->file && ends_with(o->file, ".mtx")); }
static int distributed_nomad(const options* o) { return !o->affinity && !o->n_layers && !o->bound; }
static int distributed_self_dictionary(const options* o) { return (void)o, 1; }

static const kind_rule kind_rules[] = {
    {"simplicial_symnmf", KIND_CLUSTERS | KIND_LABELS | KIND_INIT, RULE_GAUSSIAN, build_simplicial, tiny_simplicial, NULL},
    {"symnmf", KIND_CLUSTERS | KIND_LABELS | KIND_INIT, RULE_KNN, build_symnmf, tiny_symnmf, distributed_symnmf},
    {"edm_completion", KIND_INIT, RULE_NONE, build_edm, tiny_edm, NULL},
    {"self_dictionary", KIND_SELECTS | KIND_COLUMNS, RULE_NONE, build_self_dictionary, tiny_self_dictionary,
     distributed_self_dictionary},
    {"topics", KIND_SELECTS | KIND_JOB | KIND_LABELS, RULE_NONE, build_topics, tiny_self_dictionary, NULL},
    {"communities", KIND_SELECTS | KIND_JOB | KIND_TRUTH, RULE_NONE, build_communities, tiny_communities, NULL},
    {"nomad", KIND_CLUSTERS | KIND_LABELS | KIND_INIT | KIND_LAYERS, RULE_POINTS, build_nomad, tiny_nomad,
     distributed_nomad},
};

const kind_rule* kind_rule_of(const char* name)
{
    for (size_t i = 0; i < sizeof kind_rules / sizeof *kind_rules; ++i)
        if (!strcmp(kind_rules[i].name, name)) return &kind_rules[i];
    fprintf(stderr, "facto: the command line has no builder for problem '%s'\n", name);
    return NULL;
}

int runs_on_group(const options* o, const kind_rule* kind)
{
    if (!group_distributed()) return 1;
    if (kind->distributed && kind->distributed(o) && !o->init && !o->list_params && !o->save_model && !o->apply_model)
        return 1;
    if (group_rank() == 0)
        fprintf(stderr, "facto-mpi runs --problem symnmf (M from features or a Matrix Market file), --problem nomad "
                        "(points, burer_monteiro, without --layers or --bound) and --problem self_dictionary (merit), "
                        "without --init, --list-params, --save-model or --apply; facto runs the rest\n");
    return 0;
}

void free_built(built* b)
{
    free(b->truth_points), free(b->anchors), free(b->doc_truth);
    b->truth_points = NULL, b->anchors = NULL, b->doc_truth = NULL;
}

/* --init FILE: the solver's starting iterate, read from a CSV or .npy matrix; 0 after a message. */
int set_initial_point(facto_solver* solver, const char* path)
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
