/* The command line's options and usage, and what it reads from the library's tables: the problems, their
 * algorithms and defaults (the registry: facto_problem_kind_name, facto_algorithm_describe) and each
 * solver's parameters (facto_solver_param_info). */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "group.h"

#define DEFAULT_PROBLEM "simplicial_symnmf"

/* The library's default algorithm for a problem kind (its registry lists it first); NULL for no kind. */
static const char* default_algorithm(const char* kind)
{
    facto_algorithm_info info;
    info.struct_size = sizeof info;
    return facto_algorithm_describe(kind, 0, &info) >= 0 && info.is_default ? info.name : NULL;
}

/* The kind of problem --problem NAME builds here: facto-mpi builds the distributed one, when there is one. */
static const char* problem_kind(const char* name)
{
    static char kind[96];
    snprintf(kind, sizeof kind, "distributed_%s", name);
    return group_distributed() && default_algorithm(kind) ? kind : name;
}

/* The problems --problem takes (the library's kinds; facto-mpi maps three to their distributed kinds),
 * separated by ", ", the command line's default marked. */
static void print_problems(FILE* out)
{
    const int64_t count = facto_problem_kind_count();
    int printed = 0;
    for (int64_t i = 0; i < count; ++i) {
        const char* kind = facto_problem_kind_name(i);
        if (!strncmp(kind, "distributed_", 12)) continue;
        fprintf(out, "%s%s%s", printed ? ", " : "", kind, strcmp(kind, DEFAULT_PROBLEM) ? "" : " (default)");
        ++printed;
    }
}

/* The named parameters of problem kind `kind` with their defaults and reasons, from the library. */
static void print_problem_params(FILE* out, const char* kind)
{
    int64_t count = 0;
    facto_problem_param_count(kind, &count);
    for (int64_t i = 0; i < count; ++i) {
        facto_param_info p;
        p.struct_size = sizeof p;
        if (facto_problem_param_info(kind, i, &p) < 0) continue;
        if (p.type == FACTO_PARAM_INT)
            fprintf(out, "  %s %s: int, default %lld\n      %s\n", kind, p.name, (long long)p.default_int, p.description);
        else
            fprintf(out, "  %s %s: double, default %g\n      %s\n", kind, p.name, p.default_double, p.description);
    }
}

/* The usage text; the problems, their default algorithms and parameters come from the library. */
static void print_usage(FILE* out)
{
    fputs(
    "usage: facto [options] FILE\n"
    "\n"
    "  FILE                  feature matrix, CSV or .npy, one point per row (or P with --affinity); symnmf's\n"
    "                        and nomad's points in a Matrix Market .mtx file (counts, TF-IDF) stay sparse\n"
    "  -k, --rank K          number of clusters, the rank r, or the number of anchors (required)\n", out);
    fputs("  --problem NAME        ", out);
    print_problems(out);
    fputs("\n                        (topics: FILE is document-term counts, .mtx; communities: an adjacency, .mtx)\n"
          "  --solver NAME         the problem's algorithm (--list-algorithms lists them); defaults:\n", out);
    const int64_t count = facto_problem_kind_count();
    for (int64_t i = 0; i < count; ++i) {
        const char* kind = facto_problem_kind_name(i);
        if (strncmp(kind, "distributed_", 12)) fprintf(out, "                        %s: %s\n", kind, default_algorithm(kind));
    }
    fputs(
    "  --set NAME=VALUE      set a solver parameter (repeatable; see --list-params)\n"
    "  --affinity            FILE is the n x n affinity matrix P itself\n"
    "  --bandwidth B         Gaussian kernel bandwidth, P_ij = exp(-||x_i - x_j||^2 / B); 0 (default): the median rule,\n"
    "                        a quarter of the median of ||x_i - x_j||^2 over the pairs (Zhao & Gordon's: 1)\n"
    "  --scale MODE          feature scaling before the kernel or the kNN graph: auto (default: minmax, to [-1, 1],\n"
    "                        for Gaussian kernels and graphs, none for the cosine graph), minmax, zscore, none\n"
    "  --graph KIND          symnmf from features: the kNN graph's kernel: auto (default: cosine for nonnegative\n"
    "                        features at least 90% zeros, as counts and TF-IDF; gaussian otherwise), gaussian\n"
    "                        (self-tuning) or cosine; features in a .mtx file (counts, TF-IDF) stay sparse\n"
    "                        rows, searched exactly, unless --scale fills their zeros (auto does for gaussian)\n"
    "  --neighbors K         neighbours per point in that graph (default floor(log2 n) + 1)\n", out);
    fprintf(out,
    "  --search MODE         how that graph finds them: auto (default: exact below %d points, hnsw from there),\n"
    "                        exact, or hnsw (an approximate HNSW index: about 97%% of the exact neighbours)\n",
            FACTO_SEARCH_HNSW_FROM);
    fputs(
    "  --helix N             edm_completion on N Helix points (no FILE); reports the nRMSE\n"
    "  --fraction F          fraction of the Helix distances observed (default 0.1)\n"
    "  --separable N         self_dictionary on N generated points (Table I model, no FILE); reports success\n"
    "  --features M          dimension of those points (default 50)\n"
    "  --snr DB              their signal-to-noise ratio in dB (default 10)\n"
    "  --param NAME=VALUE    set a problem parameter (repeatable; the list below); --lambda L, --mu MU,\n"
    "                        --min-df N and --energy E are short for --param lambda=L, ...\n"
    "  --subsets FILE        topics: the K-topic document subsets file (rows dataset,K,trial,min_df,...)\n"
    "  --trial T             topics: use its subset of K = -k topics and trial T (default 1)\n"
    "                        (topics: --min-df defaults to the subset's when it gives one)\n"
    "  --vocabulary FILE     topics: one term per line, to print the top terms as words\n"
    "  --truth FILE          communities: true memberships (N x K CSV) to report the averaged Spearman SRC\n"
    "  --rings N             nomad on N points of two rings (Fig. 4, no FILE); -k is NOMAD's K\n"
    "  --layers K2,K3,...    multi-layer NOMAD (Sec. 3.1): after -k, solve again on each layer's Q\n"
    "                        with these K (non-increasing); the results are the last layer's\n"
    "  --labels FILE         true labels, one per row, to report the clustering accuracy (topics: of\n"
    "                        the documents, one per row or doc,label rows of the full corpus)\n"
    "  --init FILE           starting iterate (n x k, feasible) instead of a seeded random one\n"
    "  --output-w FILE       write the iterate (W or X) as CSV; topics: the document-topic proportions;\n"
    "                        communities: the memberships\n"
    "  --output-labels FILE  write the cluster of each point (argmax of its row; nomad: by the solver's\n"
    "                        label_rule, Q's connected components or k-means) as CSV\n"
    "  --save-model DIR      after the solve, save the fitted model in DIR (one .npy per array and\n"
    "                        model.json); fitted from features, it keeps the rule that makes new points'\n"
    "                        input from their features (a copy of the training points: --describe)\n"
    "  --without-training-features  with --save-model: leave the feature rule out, so the model holds no\n"
    "                        copy of the data; it then applies to affinity rows, not features\n"
    "  --describe DIR        no solve: print what the model saved in DIR holds (its arrays, whether the\n"
    "                        training points are among them, what --apply takes) as JSON\n"
    "  --apply DIR           no solve: give FILE's new points their rows and labels by the model saved in\n"
    "                        DIR (features, affinity rows, counts, edges or distances, as the model was\n"
    "                        fitted; .mtx sparse); writes --output-w and --output-labels, scores --labels\n"
    "  --progress-every N    without a terminal, print a progress line every N iterations (default 10)\n"
    "  --bound               nomad: also print an upper bound of the optimum (the solver's output\n"
    "                        upper_bound; burer_monteiro on points: the partition dual bound)\n"
    "  --quiet               no progress output\n"
    "  --list-params         print the solver's parameters and exit\n"
    "  --list-algorithms     print each problem's algorithms (the library's registry) and exit\n"
    "  --version             print the library's version and exit\n"
    "  -h, --help            this help\n"
    "\n"
    "problem parameters (--param NAME=VALUE), with the library's defaults:\n", out);
    for (int64_t i = 0; i < count; ++i) {
        const char* kind = facto_problem_kind_name(i);
        if (!strncmp(kind, "distributed_", 12)) continue;
        print_problem_params(out, kind);
    }
}

/* --list-algorithms: every problem kind's algorithms, the default first, with their descriptions; 0 when
 * the library fails to describe one. */
static int list_algorithms(void)
{
    const int64_t count = facto_problem_kind_count();
    for (int64_t i = 0; i < count; ++i) {
        const char* kind = facto_problem_kind_name(i);
        int64_t n = 0;
        if (facto_algorithm_count(kind, &n) < 0) return !fail(kind, FACTO_ERROR_INTERNAL, facto_last_error());
        printf("%s:\n", kind);
        for (int64_t a = 0; a < n; ++a) {
            facto_algorithm_info info;
            info.struct_size = sizeof info;
            const facto_status st = facto_algorithm_describe(kind, a, &info);
            if (st < 0) return !fail(kind, st, facto_last_error());
            printf("  %s%s: %s\n", info.name, info.is_default ? " (default)" : "", info.description);
        }
    }
    return 1;
}

/* --param NAME=VALUE, or --lambda/--mu/--energy/--min-df VALUE: one problem parameter by the library's name
 * (the library checks the name and value when the problem is built); 0 after a message. */
static int add_param(options* o, const char* flag, const char* text)
{
    const char* value = text;
    if (!strcmp(flag, "--param")) {
        const char* eq = strchr(text, '=');
        if (!eq || eq == text || (size_t)(eq - text) >= sizeof o->param_text[0])
            return fprintf(stderr, "facto: --param needs NAME=VALUE, got '%s'\n", text), 0;
        value = eq + 1;
    }
    if (o->n_params == 16) return fprintf(stderr, "facto: too many problem parameters\n"), 0;
    char* name = o->param_text[o->n_params];
    if (!strcmp(flag, "--param")) {
        memcpy(name, text, (size_t)(value - 1 - text));
        name[value - 1 - text] = '\0';
    } else {
        snprintf(name, sizeof o->param_text[0], "%s", !strcmp(flag, "--min-df") ? "min_df" : flag + 2);
    }
    char* end;
    const double v = strtod(value, &end);
    if (*end || end == value) return fprintf(stderr, "facto: bad value '%s' of %s\n", value, name), 0;
    o->param_names[o->n_params] = name;
    o->param_values[o->n_params++] = v;
    return 1;
}

int given_param(const options* o, const char* name)
{
    for (int i = o->n_params - 1; i >= 0; --i)
        if (!strcmp(o->param_names[i], name)) return i;
    return -1;
}

double problem_param(const options* o, const char* kind, const char* name)
{
    const int given = given_param(o, name);
    if (given >= 0) return o->param_values[given];
    int64_t count = 0;
    facto_problem_param_count(kind, &count);
    for (int64_t i = 0; i < count; ++i) {
        facto_param_info p;
        p.struct_size = sizeof p;
        if (facto_problem_param_info(kind, i, &p) >= 0 && !strcmp(p.name, name))
            return p.type == FACTO_PARAM_INT ? (double)p.default_int : p.default_double;
    }
    return NAN;
}

int parse_options(int argc, char** argv, options* o)
{
    memset(o, 0, sizeof *o);
    o->solver = NULL;
    o->problem = DEFAULT_PROBLEM;
    o->fraction = 0.1;
    o->features = 50;
    o->snr = 10.0;
    o->bandwidth = FACTO_BANDWIDTH_MEDIAN_RULE;
    o->scaling = FACTO_SCALE_AUTO;
    o->graph = FACTO_SIMILARITY_AUTO;
    o->search = FACTO_SEARCH_AUTO;
    o->progress_every = 10;
    o->trial = 1;
    for (int i = 1; i < argc; ++i) {
        const char* a = argv[i];
        const char* next = i + 1 < argc ? argv[i + 1] : NULL;
        int takes_value = 1;
        if (!strcmp(a, "-h") || !strcmp(a, "--help")) {
            print_usage(stdout);
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
        } else if (!strcmp(a, "--without-training-features")) {
            o->without_training_features = 1, takes_value = 0;
        } else if (!strcmp(a, "--list-algorithms")) {
            exit(list_algorithms() ? 0 : 1);
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
            if (!default_algorithm(next) || !strncmp(next, "distributed_", 12)) {
                fprintf(stderr, "facto: --problem must be one of ");
                print_problems(stderr);
                return fprintf(stderr, "\n"), 0;
            }
        } else if (!strcmp(a, "--graph")) {
            if (!strcmp(next, "gaussian")) o->graph = FACTO_SIMILARITY_GAUSSIAN;
            else if (!strcmp(next, "cosine")) o->graph = FACTO_SIMILARITY_COSINE;
            else if (!strcmp(next, "auto")) o->graph = FACTO_SIMILARITY_AUTO;
            else return fprintf(stderr, "facto: --graph must be auto, gaussian or cosine\n"), 0;
        } else if (!strcmp(a, "--search")) {
            int found = 0;
            for (int32_t c = FACTO_SEARCH_EXACT; c <= FACTO_SEARCH_AUTO; ++c)
                if (!strcmp(next, search_names[c])) o->search = c, found = 1;
            if (!found) return fprintf(stderr, "facto: --search must be auto, exact or hnsw\n"), 0;
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
        } else if (!strcmp(a, "--snr")) {
            char* end;
            o->snr = strtod(next, &end);
            if (*end || end == next) return fprintf(stderr, "facto: bad %s '%s'\n", a, next), 0;
        } else if (!strcmp(a, "--param") || !strcmp(a, "--lambda") || !strcmp(a, "--mu") || !strcmp(a, "--energy") ||
                   !strcmp(a, "--min-df")) {
            if (!add_param(o, a, next)) return 0;
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
            else if (!strcmp(next, "auto")) o->scaling = FACTO_SCALE_AUTO;
            else return fprintf(stderr, "facto: --scale must be auto, none, minmax or zscore\n"), 0;
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
        } else if (!strcmp(a, "--trial")) {
            char* end = NULL;
            o->trial = next ? strtoll(next, &end, 10) : 0;
            if (!next || *end || o->trial < 1) return fprintf(stderr, "facto: %s needs a positive integer\n", a), 0;
        } else if (!strcmp(a, "--vocabulary")) {
            o->vocabulary = next;
        } else if (!strcmp(a, "--truth")) {
            o->truth = next;
        } else if (!strcmp(a, "--save-model")) {
            o->save_model = next;
        } else if (!strcmp(a, "--apply")) {
            o->apply_model = next;
        } else if (!strcmp(a, "--describe")) {
            o->describe_model = next;
        } else if (!strcmp(a, "--progress-every")) {
            o->progress_every = strtoll(next, NULL, 10);
            if (o->progress_every < 1) o->progress_every = 1;
        } else {
            fprintf(stderr, "facto: unknown option %s\n", a);
            print_usage(stderr);
            return 0;
        }
        if (takes_value) ++i;
    }
    if (!o->solver) o->solver = default_algorithm(problem_kind(o->problem));
    if (o->list_params || o->describe_model) return 1;
    if (o->without_training_features && !o->save_model)
        return fprintf(stderr, "facto: --without-training-features is for --save-model\n"), 0;
    if (o->apply_model) {
        if (!o->file) return fprintf(stderr, "facto: --apply DIR needs FILE, the new points\n"), 0;
        if (o->save_model || o->init || o->helix || o->separable || o->rings)
            return fprintf(stderr, "facto: --apply solves nothing: it takes none of --save-model, --init, --helix, "
                                   "--separable, --rings\n"),
                   0;
        return 1;
    }
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
int apply_setting(facto_solver* solver, const char* setting)
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

/* --list-params: the parameters of o->solver, read from a solver on the kind's tiny problem (kind_rule). */
int list_params_of(const options* o, facto_problem* tiny)
{
    facto_solver* s = NULL;
    const facto_status st = facto_solver_new(tiny, o->solver, &s);
    facto_problem_free(tiny);
    if (st < 0) return !fail("solver", st, facto_last_error());
    if (strcmp(facto_solver_algorithm(s), o->solver)) /* a rule that makes another solver by the problem's size */
        printf("%s makes its solver by the problem (--list-algorithms); on the smallest problems:\n", o->solver);
    list_params(s);
    facto_solver_free(s);
    printf("parameters of the problem %s (--param NAME=VALUE):\n", o->problem);
    print_problem_params(stdout, o->problem);
    return 1;
}
