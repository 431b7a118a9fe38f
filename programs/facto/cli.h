/* The facto command line, split by job, each file using only those listed before it: common.c (clock,
 * error messages), readers.c (text inputs: labels, subsets, vocabularies), options.c (options, usage,
 * the library's tables of algorithms and parameters), problems.c (the table of problem kinds: one row, one builder each), report.c
 * (progress, output files, the JSON summary), model.c (saving and applying fitted models) and main.c
 * (one run). group.h says on which processes it runs. Everything goes through the public C ABI only. */
#pragma once

#include <stdint.h>
#include <stdio.h>

#include <facto/facto_experimental.h>

typedef struct options {
    const char* file;
    int64_t k;
    const char* solver; /* --solver, else the problem's default from the library's registry */
    const char* problem;
    int32_t graph;
    int64_t neighbors;
    int32_t search; /* --search: the kNN graph's neighbour search, FACTO_SEARCH_* */
    int64_t helix;
    double fraction;
    int64_t separable, features, rings;
    double snr;
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
    const char* param_names[16]; /* problem parameters given (--param, --lambda, ...), the library's names, */
    char param_text[16][64];     /* held here */
    double param_values[16];
    int n_params;
    int n_sets;
    int64_t layers[64]; /* --layers: the K of NOMAD's further layers */
    int n_layers;
    const char* subsets;
    int64_t trial;
    const char* vocabulary;
    const char* truth;
    const char* save_model;  /* --save-model DIR */
    const char* apply_model; /* --apply DIR: FILE holds new points for the model saved there */
    const char* describe_model; /* --describe DIR */
    int without_training_features; /* --without-training-features: the saved model drops its feature rule */
} options;

typedef struct progress_state {
    int tty;
    int64_t every;
    double last_print;
} progress_state;

/* What building a problem leaves besides it (problems.c's builders). */
typedef struct built {
    double affinity_seconds;  /* building P, M or the graph */
    int32_t search;           /* the kNN graph's neighbour search as run (FACTO_SEARCH_EXACT or _HNSW), -1: no graph */
    double* truth_points;     /* --helix: the true points (n_truth x 3), or NULL */
    int64_t n_truth;
    int64_t* anchors;         /* --separable: the true anchors, or NULL */
    int64_t* doc_truth;       /* topics: the documents' labels (--labels), or NULL */
} built;

/* What one run leaves for the JSON summary besides the solver (report.c's print_summary). */
typedef struct summary {
    facto_status reason;
    int64_t n, k;                /* points (columns for self_dictionary) and the iterate's columns */
    double start_seconds;        /* now_seconds() when the run began */
    const char* earlier_layers;  /* --layers: the JSON of the layers before the last */
    const int64_t* truth;        /* --labels, or NULL */
    const int64_t* labels;       /* the clusters found, or NULL */
    const int64_t* selected;     /* self_dictionary: the anchors picked, or NULL */
    int64_t nnz;                 /* ... and nnz(C) */
    const built* inputs;         /* what building the problem left */
} summary;

/* What the command line knows of one problem kind: a row of problems.c's table, the only place a kind's
 * name decides anything here. */
enum kind_traits {
    KIND_CLUSTERS = 1 << 0, /* its solve labels its points ("labels"): --labels scores them, --output-labels writes them */
    KIND_SELECTS = 1 << 1,  /* it selects columns ("selected", "nnz"): anchors, anchor words, pure nodes */
    KIND_JOB = 1 << 2,      /* a job on the selected columns, with rows and labels of its own (report.c's finish_job) */
    KIND_LABELS = 1 << 3,   /* takes --labels, the true labels of its points or documents */
    KIND_TRUTH = 1 << 4,    /* takes --truth, the true memberships */
    KIND_INIT = 1 << 5,     /* takes --init, a starting iterate */
    KIND_LAYERS = 1 << 6,   /* takes --layers */
    KIND_COLUMNS = 1 << 7   /* its points are the columns of its data: a file's rows transposed */
};
/* The rule a model fitted from features keeps (--save-model), to take new points' features. */
enum feature_rule { RULE_NONE, RULE_GAUSSIAN, RULE_KNN, RULE_POINTS };
typedef struct kind_rule {
    const char* name;
    unsigned traits;
    enum feature_rule features;
    /* The problem of o's options (NULL after a message), what building it left in *b. */
    facto_problem* (*build)(const options* o, built* b);
    /* The smallest problem of the kind, whose solvers --list-params reads. */
    facto_problem* (*tiny)(void);
    /* facto-mpi runs it with o's options (its other options checked by runs_on_group); NULL: never. */
    int (*distributed)(const options* o);
} kind_rule;

/* common.c */
/* The names of the FACTO_SEARCH_* codes, indexed by code. */
extern const char* const search_names[3];
double now_seconds(void);
int fail(const char* what, facto_status status, const char* message);
int ends_with(const char* s, const char* suffix);
/* The CSR arrays of a sparse matrix (copy_csr: 0 after a message when memory runs out, the arrays NULL). */
typedef struct csr_arrays {
    int64_t rows, cols, nnz;
    int64_t *indptr, *indices;
    double* values;
} csr_arrays;
int copy_csr(const facto_sparse* M, csr_arrays* a);
/* The CSR arrays of the Matrix Market file at `path`: 0 after a message. */
int read_csr(const char* path, csr_arrays* a);
void free_csr(csr_arrays* a);

/* readers.c */
int64_t* read_labels(const char* path, int64_t n);
int64_t* read_subset(const char* path, int64_t K, int64_t trial, int64_t* count, int64_t* min_df);
int64_t* read_document_labels(const char* path, int64_t D, int64_t documents, const int64_t* position);
char** read_vocabulary(const char* path, int64_t* count);

/* options.c */
int parse_options(int argc, char** argv, options* o);
int apply_setting(facto_solver* solver, const char* setting);
/* --list-params of o->solver, read from a solver on `tiny` (released here); 0 after a message. */
int list_params_of(const options* o, facto_problem* tiny);
/* The index in o->param_names of the problem parameter `name` given last, or -1. */
int given_param(const options* o, const char* name);
/* Problem parameter `name` of `kind`: the value given, else the library's default (NaN for no such). */
double problem_param(const options* o, const char* kind, const char* name);

/* problems.c */
/* The row of problem kind `name`; NULL after a message for a kind the command line has no row for. */
const kind_rule* kind_rule_of(const char* name);
/* Refuses what facto-mpi (distributed problems, even on one rank) cannot run; 1 when the options are fine. */
int runs_on_group(const options* o, const kind_rule* kind);
void free_built(built* b);
int set_initial_point(facto_solver* solver, const char* path);

/* report.c */
int32_t on_progress(const facto_solver* solver, const facto_progress* p, void* user_data);
int write_results(facto_solver* solver, const options* o, int64_t n, int64_t rows, int64_t k, int64_t* labels);
int64_t* fetch_selected(facto_solver* solver, int64_t k, int64_t* nnz);
int print_summary(facto_solver* solver, const options* o, const kind_rule* kind, const summary* s);
int write_labels(const char* path, const int64_t* labels, int64_t n);

/* model.c */
int save_model(const facto_solver* solver, const options* o, const kind_rule* kind);
int apply_saved_model(const options* o);
/* --describe DIR: the saved model's facto_model_describe on stdout; 0 after a message. */
int describe_saved_model(const options* o);
