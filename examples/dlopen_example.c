/* Loading libfacto at run time, as a plugin host would: every entry point is a plain C symbol.
 * Usage: dlopen_example [path/to/libfacto.so.0]   (default: "libfacto.so.0" from the loader's path) */
#include <facto/facto.h>

#include <dlfcn.h>
#include <stdio.h>

typedef const char* (*version_fn)(void);
typedef int32_t (*version_number_fn)(void);
typedef facto_status (*problem_new_fn)(const double*, int64_t, int64_t, int64_t, int32_t, int64_t, facto_problem**);
typedef void (*problem_free_fn)(facto_problem*);
typedef facto_status (*solver_new_fn)(facto_problem*, const char*, facto_solver**);
typedef void (*solver_free_fn)(facto_solver*);
typedef facto_status (*solver_set_string_fn)(facto_solver*, const char*, const char*);
typedef facto_status (*solver_solve_fn)(facto_solver*);
typedef facto_status (*solver_progress_fn)(const facto_solver*, facto_progress*);
typedef facto_status (*copy_int64_fn)(const facto_solver*, const char*, int64_t*, int64_t, int32_t);
typedef const char* (*status_string_fn)(facto_status);

#define N 12
#define K 3

int main(int argc, char** argv)
{
    const char* path = argc > 1 ? argv[1] : "libfacto.so.0";
    void* lib = dlopen(path, RTLD_NOW | RTLD_LOCAL);
    if (!lib) {
        fprintf(stderr, "dlopen: %s\n", dlerror());
        return 1;
    }
    /* POSIX allows converting dlsym's void* to a function pointer; go through a union for -pedantic. */
#define LOAD(type, name)                                                                                         \
    type name;                                                                                                     \
    {                                                                                                              \
        union { void* p; type f; } u;                                                                              \
        u.p = dlsym(lib, "facto_" #name);                                                                         \
        if (!u.p) return fprintf(stderr, "dlsym facto_%s: %s\n", #name, dlerror()), 1;                            \
        name = u.f;                                                                                                \
    }
    LOAD(version_fn, version)
    LOAD(version_number_fn, version_number)
    LOAD(problem_new_fn, problem_new_simplicial_symnmf)
    LOAD(problem_free_fn, problem_free)
    LOAD(solver_new_fn, solver_new)
    LOAD(solver_free_fn, solver_free)
    LOAD(solver_set_string_fn, solver_set_string)
    LOAD(solver_solve_fn, solver_solve)
    LOAD(solver_progress_fn, solver_progress)
    LOAD(copy_int64_fn, solver_copy_output_int64)
    LOAD(status_string_fn, status_string)
    if (version_number() / 10000 != FACTO_VERSION_MAJOR) {
        fprintf(stderr, "loaded facto %s, built against major version %d\n", version(), FACTO_VERSION_MAJOR);
        return 1;
    }

    /* Block-diagonal P: K groups of mutually similar points. */
    double P[N * N];
    for (int i = 0; i < N; ++i)
        for (int j = 0; j < N; ++j) P[i * N + j] = (i % K == j % K) ? 1.0 : 0.05;
    facto_problem* problem = NULL;
    facto_solver* solver = NULL;
    facto_status st = problem_new_simplicial_symnmf(P, N, N, N, FACTO_ROW_MAJOR, K, &problem);
    if (st >= 0) st = solver_new(problem, "frank_wolfe", &solver);
    if (st >= 0) st = solver_set_string(solver, "step_rule", "line_search");
    if (st >= 0) st = solver_solve(solver);
    int64_t labels[N];
    if (st >= 0) st = solver_copy_output_int64(solver, "labels", labels, N, FACTO_ROW_MAJOR);
    int ok = st >= 0;
    for (int i = K; ok && i < N; ++i) ok = labels[i] == labels[i % K];
    ok = ok && labels[0] != labels[1] && labels[1] != labels[2] && labels[0] != labels[2];
    facto_progress p;
    p.struct_size = sizeof p;
    if (solver) solver_progress(solver, &p);
    printf("dlopen(%s): facto %s, %s, %lld iterations, clusters %s\n", path, version(), status_string(st),
           solver ? (long long)p.iteration : 0LL, ok ? "recovered" : "NOT recovered");
    solver_free(solver);
    problem_free(problem);
    dlclose(lib);
    return ok ? 0 : 1;
}
