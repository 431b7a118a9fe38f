/* Linking against libfacto: cluster three well separated groups of 2-D points with Frank-Wolfe.
 * Build: cc link_example.c $(pkg-config --cflags --libs facto) */
#include <facto/facto.h>

#include <math.h>
#include <stdio.h>

#define N 30
#define K 3

static int check(facto_status st, const char* what)
{
    if (st < 0) fprintf(stderr, "%s failed: %s (%s)\n", what, facto_last_error(), facto_status_string(st));
    return st >= 0;
}

int main(void)
{
    /* Points on three circles of radius 0.3 around far-apart centres; point i belongs to group i % 3. */
    double X[N][2];
    int64_t truth[N];
    for (int i = 0; i < N; ++i) {
        truth[i] = i % K;
        X[i][0] = 4.0 * (double)(i % K) + 0.3 * cos(i);
        X[i][1] = 0.3 * sin(i);
    }
    facto_matrix* P = NULL;
    if (!check(facto_gaussian_affinity(&X[0][0], N, 2, 2, FACTO_ROW_MAJOR, 1.0, FACTO_SCALE_NONE, &P), "affinity"))
        return 1;
    facto_problem* problem = NULL;
    facto_status st = facto_problem_new_simplicial_symnmf(facto_matrix_data(P), N, N, N, FACTO_ROW_MAJOR, K, &problem);
    facto_matrix_free(P);
    if (!check(st, "problem")) return 1;

    facto_solver* solver = NULL;
    if (!check(facto_solver_new(problem, "frank_wolfe", &solver), "solver")) return 1;
    facto_problem_free(problem);
    /* The default step rule (auto = open_loop) is the fastest to a given objective on large data; on small,
     * well separated data the monotone exact line search more often reaches the global solution. */
    facto_solver_set_string(solver, "step_rule", "line_search");
    facto_solver_set_double(solver, "tolerance", 1e-9);
    st = facto_solver_solve(solver);
    if (!check(st, "solve")) return 1;

    facto_progress p;
    p.struct_size = sizeof p;
    facto_solver_progress(solver, &p);
    int64_t labels[N];
    facto_solver_copy_output_int64(solver, "labels", labels, N, FACTO_ROW_MAJOR);
    double accuracy = 0.0;
    facto_clustering_accuracy(labels, truth, N, &accuracy);
    printf("facto %s: %s after %lld iterations, objective %.3e, gap %.3e, accuracy %.3f\n", facto_version(),
           facto_status_string(st), (long long)p.iteration, p.objective, p.stationarity, accuracy);
    facto_solver_free(solver);
    return accuracy == 1.0 ? 0 : 1;
}
