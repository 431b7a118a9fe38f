/* facto: the command line over the public C ABI only (cli.h says which file does what).
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
 * --save-model DIR keeps the fitted model; --apply DIR FILE applies a saved one to new points (model.c).
 * Exit status: 0 after a solve that ended (whatever its stop reason, which the summary gives), 1 when
 * anything failed (no summary then), 2 for bad options. */

#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli.h"
#include "group.h"

/* The options that depend on the problem, checked before it is built; 0 after a message. */
static int check_problem_options(const options* o, const kind_rule* kind)
{
    const unsigned t = kind->traits;
    if (o->init && !(t & KIND_INIT)) return fprintf(stderr, "facto: %s takes no --init\n", o->problem), 0;
    if (o->labels && !(t & KIND_LABELS))
        return fprintf(stderr, "facto: %s takes no --labels%s\n", o->problem,
                       t & KIND_TRUTH ? " (its truth is --truth: memberships)" : ""),
               0;
    if (o->truth && !(t & KIND_TRUTH)) return fprintf(stderr, "facto: %s takes no --truth\n", o->problem), 0;
    if ((t & KIND_SELECTS) && !(t & KIND_JOB) && (o->output_w || o->output_labels))
        return fprintf(stderr, "facto: %s takes neither --output-w nor --output-labels\n", o->problem), 0;
    if (o->n_layers && !(t & KIND_LAYERS)) return fprintf(stderr, "facto: %s takes no --layers\n", o->problem), 0;
    for (int l = 0; l < o->n_layers; ++l)
        if (o->layers[l] > (l ? o->layers[l - 1] : o->k))
            return fprintf(stderr, "facto: --layers must not increase K (-k %lld, then %lld)\n", (long long)o->k,
                           (long long)o->layers[l]),
                   0;
    return 1;
}

/* A new solver of o->solver on `problem` (released here: the solver keeps what it needs) with the --set
 * settings; NULL after a message. */
static facto_solver* new_solver(facto_problem* problem, const options* o)
{
    facto_solver* solver = NULL;
    const facto_status st = facto_solver_new(problem, o->solver, &solver);
    facto_problem_free(problem);
    if (st < 0) return fail("solver", st, facto_last_error()), NULL;
    for (int i = 0; i < o->n_sets; ++i)
        if (!apply_setting(solver, o->sets[i])) return facto_solver_free(solver), NULL;
    return solver;
}

/* Solves, and with --layers solves again on each layer's Q ([TSC] Sec. 3.1, facto.h's loop), the earlier layers' results
 * appended to `layers_json`; *solver becomes the last layer's. 0 after a message. */
static int solve_layers(facto_solver** solver, const options* o, facto_status* reason, char* layers_json,
                        size_t capacity)
{
    progress_state state = {isatty(STDERR_FILENO), o->progress_every, 0.0};
    for (int layer = 0; layer <= o->n_layers; ++layer) {
        if (layer > 0) { /* the next layer's D is this layer's Q */
            facto_progress p;
            p.struct_size = sizeof p;
            facto_solver_progress(*solver, &p);
            const size_t used = strlen(layers_json);
            snprintf(layers_json + used, capacity - used, "%s{\"k\": %lld, \"objective\": %.17g, \"iterations\": %lld}",
                     layer > 1 ? ", " : "", (long long)(layer > 1 ? o->layers[layer - 2] : o->k), p.objective,
                     (long long)p.iteration);
            facto_solver* next = NULL; /* the same algorithm and settings (facto_solver_new_nomad_layer) */
            const facto_status st = facto_solver_new_nomad_layer(*solver, o->layers[layer - 1], &next);
            facto_solver_free(*solver);
            *solver = next;
            if (st < 0) return !fail("layer", st, facto_last_error());
        }
        if (!o->quiet) facto_solver_set_callback(*solver, on_progress, &state, NULL);
        *reason = facto_solver_solve(*solver);
        if (!o->quiet && state.tty) fputc('\n', stderr);
        if (*reason < 0) return !fail("solve", *reason, facto_solver_last_error(*solver));
    }
    return 1;
}

static int run(int argc, char** argv)
{
    options o;
    if (!parse_options(argc, argv, &o)) return 2;
    const kind_rule* kind = kind_rule_of(o.problem);
    if (!kind) return 2;
    if (!runs_on_group(&o, kind)) return 2;
    if (group_rank() > 0) o.quiet = 1; /* progress and the summary come from rank 0 */
    if (facto_version_number() / 10000 != FACTO_VERSION_MAJOR) {
        fprintf(stderr, "facto: library version %s does not match the header's major version\n", facto_version());
        return 1;
    }
    if (o.list_params) return list_params_of(&o, kind->tiny()) ? 0 : 1;
    if (o.apply_model) return apply_saved_model(&o) ? 0 : 1;
    if (o.describe_model) return describe_saved_model(&o) ? 0 : 1;
    if (!check_problem_options(&o, kind)) return 2;

    summary s = {.start_seconds = now_seconds()};
    built inputs = {.search = -1};
    facto_problem* problem = kind->build(&o, &inputs);
    if (!problem) return free_built(&inputs), 1;
    const int clusters = (kind->traits & KIND_CLUSTERS) != 0, selects = (kind->traits & KIND_SELECTS) != 0;
    int64_t rows = 0, k = 0; /* this process's rows of the iterate, n on one process */
    facto_problem_iterate_shape(problem, &rows, &k);
    const int64_t n = selects ? rows : group_sum(rows); /* self_dictionary: C's columns are distributed */
    facto_solver* solver = new_solver(problem, &o);
    int ok = solver != NULL;
    if (ok && o.init) ok = set_initial_point(solver, o.init);
    int64_t* truth = ok && o.labels && clusters ? read_labels(o.labels, n) : NULL;
    if (o.labels && clusters && !truth) ok = 0;

    char layers_json[64 * 96] = "";
    if (ok) ok = solve_layers(&solver, &o, &s.reason, layers_json, sizeof layers_json);
    int64_t* labels = ok && clusters ? malloc((size_t)n * sizeof *labels) : NULL;
    if (ok && ((clusters && !labels) || !write_results(solver, &o, n, rows, k, labels))) ok = 0;
    int64_t* selected = ok && selects ? fetch_selected(solver, o.k, &s.nnz) : NULL;
    if (ok && o.save_model) ok = save_model(solver, &o, kind);
    if (ok) {
        s.n = n, s.k = k, s.earlier_layers = layers_json, s.truth = truth, s.labels = labels;
        s.selected = selected, s.inputs = &inputs;
        ok = print_summary(solver, &o, kind, &s);
    }
    free(selected);
    free(labels);
    free(truth);
    free_built(&inputs);
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
