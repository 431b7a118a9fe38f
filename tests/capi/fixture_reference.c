/* Computes the cross-language fixture's reference iterate (tests/data/fixture/README.md) and writes it
 * as CSV to argv[2]; argv[1] is the fixture's affinity.csv. */
#include <facto/facto.h>

#include <stdio.h>
#include <stdlib.h>

int main(int argc, char** argv)
{
    if (argc != 3) return fprintf(stderr, "usage: fixture_reference affinity.csv out.csv\n"), 2;
    facto_matrix* P = NULL;
    facto_problem* problem = NULL;
    facto_solver* solver = NULL;
    int64_t n = 0, cols = 0;
    facto_status st = facto_matrix_read(argv[1], &P);
    if (st >= 0) facto_matrix_shape(P, &n, &cols);
    if (st >= 0) st = facto_problem_new_simplicial_symnmf(facto_matrix_data(P), n, cols, cols, FACTO_ROW_MAJOR, 3,
                                                          &problem);
    if (st >= 0) st = facto_solver_new(problem, "frank_wolfe", &solver);
    if (st >= 0) st = facto_solver_set_int(solver, "seed", 7);
    if (st >= 0) st = facto_solver_set_int(solver, "max_iterations", 40);
    if (st >= 0) st = facto_solver_set_double(solver, "tolerance", 0.0);
    if (st >= 0) st = facto_solver_set_double(solver, "objective_tolerance", 0.0);
    if (st >= 0) st = facto_solver_solve(solver);
    double* W = malloc((size_t)(3 * n) * sizeof *W);
    if (st >= 0) st = facto_solver_copy_iterate(solver, W, 3 * n, FACTO_ROW_MAJOR);
    if (st >= 0) st = facto_write_csv(argv[2], W, n, 3, 3, FACTO_ROW_MAJOR);
    if (st < 0) fprintf(stderr, "fixture_reference: %s (%s)\n", solver ? facto_solver_last_error(solver) : facto_last_error(),
                        facto_status_string(st));
    free(W);
    facto_solver_free(solver);
    facto_problem_free(problem);
    facto_matrix_free(P);
    return st < 0;
}
