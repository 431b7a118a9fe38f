"""
    Facto

Julia bindings to facto's C ABI (`facto.h`): first-order solvers for structured low-rank matrix
problems. Column-major `Matrix{Float64}` in and out, handles freed by finalizers (or `close`),
`FactoError` exceptions, Julia functions as iteration callbacks.

The library is found through `ENV["FACTO_LIBRARY"]`, else `"libfacto.so.0"` on the loader's path.
NOT TESTED HERE: Julia could not be installed where facto is developed (see README.md).
"""
module Facto

using Libdl
using SparseArrays

export Problem, Solver, FactoError, Progress, algorithms, default_algorithm, problem_kinds, problem_params, kind,
       simplicial_symnmf,
       step!, solve!, progress, iterate_matrix,
       labels, set_callback!, set_iterate!, params, gaussian_affinity, clustering_accuracy, symnmf,
       edm_completion, knn_similarity, read_mtx, helix, sample_pairs, distance_nrmse, self_dictionary, topics,
       communities, averaged_spearman, kmeans,
       separable_data, output, selected, nomad, nomad_points, nomad_layer, next_nomad_layer, nomad_gram, manifold_points,
       multilayer_nomad, Model, apply_model, save_model, load_model, describe_model, drop_training_features!, use_features!, consensus,
       Collectives, symnmf_distributed, nomad_distributed, self_dictionary_distributed

const ROW_MAJOR = Int32(0)
const COL_MAJOR = Int32(1)
const SPARSE_COO = Int32(2)
const PARAM_DOUBLE, PARAM_INT, PARAM_STRING = Int32(1), Int32(2), Int32(3)
const STOP_REASONS = (:running, :converged, :iteration_limit, :time_limit, :stopped_by_callback,
                      :stopped_by_request, :stalled)

# ---- loading: symbols are resolved at run time so that FACTO_LIBRARY works without recompiling ----

const LIB = Ref{Ptr{Cvoid}}(C_NULL)
const SYMBOLS = Dict{Symbol,Ptr{Cvoid}}()

function __init__()
    path = get(ENV, "FACTO_LIBRARY", "libfacto.so.0")
    LIB[] = Libdl.dlopen(path)
    empty!(SYMBOLS)
    major = ccall(sym(:facto_version_number), Int32, ()) ÷ 10000
    major == 0 || error("Facto: $path has ABI major version $major, this package needs 0")
end

sym(name::Symbol) = get!(() -> Libdl.dlsym(LIB[], name), SYMBOLS, name)

version() = unsafe_string(ccall(sym(:facto_version), Cstring, ()))

# ---- errors ----

"""A facto call failed: `status` is the C status value, `name` its name, `message` the library's text."""
struct FactoError <: Exception
    status::Int32
    name::String
    message::String
end
Base.showerror(io::IO, e::FactoError) = print(io, "FactoError: ", e.message, " (", e.name, ")")

status_name(st) = unsafe_string(ccall(sym(:facto_status_string), Cstring, (Int32,), st))
thread_message() = unsafe_string(ccall(sym(:facto_last_error), Cstring, ()))

function check(st::Int32, message::Function)
    st < 0 && throw(FactoError(st, status_name(st), message()))
    return st
end

# ---- structs of facto.h ----

struct Progress
    struct_size::UInt32
    stop_reason::Int32
    iteration::Int64
    objective::Float64
    stationarity::Float64
    step_size::Float64
    relative_change::Float64
    elapsed_seconds::Float64
    feasibility::Float64  # since 0.2.0
    tolerance::Float64    # since 0.4.0: the bound on stationarity in force
end

struct ParamInfo
    struct_size::UInt32
    type::Int32
    name::Cstring
    description::Cstring
    default_double::Float64
    lower_double::Float64
    upper_double::Float64
    default_int::Int64
    lower_int::Int64
    upper_int::Int64
    default_string::Cstring
    choices::Cstring
end

struct AlgorithmInfo
    struct_size::UInt32
    is_default::Int32
    name::Cstring
    description::Cstring
end

empty_progress() = Progress(UInt32(sizeof(Progress)), 0, 0, NaN, NaN, NaN, NaN, 0.0, 0.0, NaN)

# ---- problems ----

"""An optimization problem; its data are copied in and never change."""
mutable struct Problem
    ptr::Ptr{Cvoid}
    function Problem(ptr::Ptr{Cvoid})
        p = new(ptr)
        finalizer(close, p)
        return p
    end
end

function Base.close(p::Problem)
    p.ptr == C_NULL || ccall(sym(:facto_problem_free), Cvoid, (Ptr{Cvoid},), p.ptr)
    p.ptr = C_NULL
    return nothing
end

live(p::Problem) = p.ptr == C_NULL ? throw(FactoError(-2, "FACTO_ERROR_NULL_POINTER", "the problem is closed")) : p.ptr

"""
    simplicial_symnmf(P, k) -> Problem

min 1/4 ||P - W W'||², W ≥ 0, rows of W summing to 1, for a symmetric n×n `P` and rank `k`.
"""
function simplicial_symnmf(P::AbstractMatrix{<:Real}, k::Integer)
    A = Matrix{Float64}(P)
    out = Ref{Ptr{Cvoid}}(C_NULL)
    st = ccall(sym(:facto_problem_new_simplicial_symnmf), Int32,
               (Ptr{Float64}, Int64, Int64, Int64, Int32, Int64, Ref{Ptr{Cvoid}}),
               A, size(A, 1), size(A, 2), max(size(A, 1), 1), COL_MAJOR, k, out)
    check(st, thread_message)
    return Problem(out[])
end

"""
    symnmf(M, r) -> Problem

min 1/2 ||M - X X'||², X ≥ 0, X n×r, for a symmetric `M`: dense, or a `SparseMatrixCSC` stored in full.
"""
function symnmf(M::AbstractMatrix{<:Real}, r::Integer)
    A = Matrix{Float64}(M)
    out = Ref{Ptr{Cvoid}}(C_NULL)
    st = ccall(sym(:facto_problem_new_symnmf), Int32, (Ptr{Float64}, Int64, Int64, Int64, Int32, Int64, Ref{Ptr{Cvoid}}),
               A, size(A, 1), size(A, 2), max(size(A, 1), 1), COL_MAJOR, r, out)
    check(st, thread_message)
    return Problem(out[])
end

# The 0-based CSC arrays of M: (colptr, rowval, values), as FACTO_SPARSE_CSC takes them.
csc_arrays(M::SparseMatrixCSC) = (Vector{Int64}(M.colptr) .- 1, Vector{Int64}(M.rowval) .- 1, Vector{Float64}(M.nzval))

function symnmf(M::SparseMatrixCSC{<:Real}, r::Integer)
    colptr, rowval, values = csc_arrays(M)
    out = Ref{Ptr{Cvoid}}(C_NULL)
    st = ccall(sym(:facto_problem_new_symnmf_sparse), Int32,
               (Int32, Int64, Int64, Int64, Ptr{Int64}, Ptr{Int64}, Ptr{Float64}, Int64, Ref{Ptr{Cvoid}}),
               Int32(1), size(M, 1), size(M, 2), length(values), colptr, rowval, values, r, out)  # FACTO_SPARSE_CSC
    check(st, thread_message)
    return Problem(out[])
end

"""
    edm_completion(n, r, i, j, d) -> Problem

min 1/2 Σ_k (||x_i[k] - x_j[k]||² - d[k])² over X (n×r), for observed pairs (1-based `i`, `j`; squared
distances `d`).
"""
function edm_completion(n::Integer, r::Integer, i::AbstractVector{<:Integer}, j::AbstractVector{<:Integer},
                        d::AbstractVector{<:Real})
    length(i) == length(j) == length(d) || throw(DimensionMismatch("i, j and d differ in length"))
    I, J, D = Vector{Int64}(i) .- 1, Vector{Int64}(j) .- 1, Vector{Float64}(d)
    out = Ref{Ptr{Cvoid}}(C_NULL)
    st = ccall(sym(:facto_problem_new_edm_completion), Int32,
               (Int64, Int64, Int64, Ptr{Int64}, Ptr{Int64}, Ptr{Float64}, Ref{Ptr{Cvoid}}), n, r, length(D), I, J, D, out)
    check(st, thread_message)
    return Problem(out[])
end

"""
    self_dictionary(X, K = 0; lambda = nothing, mu = nothing) -> Problem

Self-dictionary separable NMF (Nguyen, Fu & Wu): min 1/2 ||X - X C||² + λ Φ_μ(C), columns of C on the
simplex, for data `X` (M×N, one point per column) with `K` anchors (0 = unknown). `nothing` takes the
library's default (`problem_params("self_dictionary")`: lambda the paper's heuristic ||X - X C₀|| / K,
which needs K); lambda 0 is MERIT(0). Solvers "merit" and "spa"; read `selected(solver)` and
`output(solver, "H")`.
"""
function self_dictionary(X::AbstractMatrix{<:Real}, K::Integer = 0; lambda = nothing, mu = nothing)
    A = Matrix{Float64}(X)
    names, values = chosen(lambda = lambda, mu = mu)
    out = Ref{Ptr{Cvoid}}(C_NULL)
    st = ccall(sym(:facto_problem_new_self_dictionary_named), Int32,
               (Ptr{Float64}, Int64, Int64, Int64, Int32, Int64, Int64, Ptr{Cstring}, Ptr{Float64}, Ref{Ptr{Cvoid}}),
               A, size(A, 1), size(A, 2), max(size(A, 1), 1), COL_MAJOR, K, length(names), names, values, out)
    check(st, thread_message)
    return Problem(out[])
end

"""
    self_dictionary(X::SparseMatrixCSC, K = 0; lambda = nothing, mu = nothing) -> Problem

The same problem of a sparse `X` (TF-IDF), kept as its non-zeros: "spa", "snpa" and "fast_anchor" run on
it; "merit" and "fast_gradient", which would make it dense, refuse it.
"""
function self_dictionary(X::SparseMatrixCSC{<:Real}, K::Integer = 0; lambda = nothing, mu = nothing)
    colptr, rowval, values = csc_arrays(X)
    names, chosen_values = chosen(lambda = lambda, mu = mu)
    out = Ref{Ptr{Cvoid}}(C_NULL)
    st = ccall(sym(:facto_problem_new_self_dictionary_sparse), Int32,
               (Int32, Int64, Int64, Int64, Ptr{Int64}, Ptr{Int64}, Ptr{Float64}, Int64, Int64, Ptr{Cstring},
                Ptr{Float64}, Ref{Ptr{Cvoid}}),
               Int32(1), size(X, 1), size(X, 2), length(values), colptr, rowval, values, K,  # FACTO_SPARSE_CSC
               length(names), names, chosen_values, out)
    check(st, thread_message)
    return Problem(out[])
end

# ---- distributed problems (MPI, through libfacto_mpi) ----

"""
    Collectives(fortran_comm::Integer) -> Collectives

An MPI communicator's collective operations, for the distributed problems, from its Fortran handle
(with MPI.jl: `Collectives(MPI.API.MPI_Comm_c2f(comm))`). libfacto_mpi is loaded from
`ENV["FACTO_MPI_LIBRARY"]`, else `"libfacto_mpi.so.0"`; it duplicates the communicator, so `comm` may be
freed afterwards. The problems built on it keep what they need. Every distributed call is collective:
each rank makes the same calls in the same order. Close the solvers, the problems and the Collectives
yourself, in the same order on every rank and before `MPI.Finalize()`: the last one frees the duplicated
communicator (`MPI_Comm_free`, collective), and the finalizers would run whenever each rank's garbage
collector decides.
"""
mutable struct Collectives
    ptr::Ptr{Cvoid}
    function Collectives(fortran_comm::Integer)
        lib = Libdl.dlopen(get(ENV, "FACTO_MPI_LIBRARY", "libfacto_mpi.so.0"))
        out = Ref{Ptr{Cvoid}}(C_NULL)
        st = ccall(Libdl.dlsym(lib, :facto_collectives_new_mpi), Int32, (Int64, Ref{Ptr{Cvoid}}), fortran_comm, out)
        check(st, thread_message)
        c = new(out[])
        finalizer(close, c)
        return c
    end
end

function Base.close(c::Collectives)
    c.ptr == C_NULL || ccall(sym(:facto_collectives_free), Cvoid, (Ptr{Cvoid},), c.ptr)
    c.ptr = C_NULL
    return nothing
end

"""
    symnmf_distributed(c, n, first_row, M_rows, r) -> Problem

Collective: SymNMF of the symmetric n×n `M` distributed by rows; this rank gives rows `first_row` ..
`first_row + size(M_rows, 1) - 1` (1-based) as `M_rows` (sparse or dense, columns global), the ranks'
blocks following each other in rank order. The iterate and outputs are this rank's rows of X.
Solvers "nolips", "projected_gradient".
"""
function symnmf_distributed(c::Collectives, n::Integer, first_row::Integer, M_rows::AbstractMatrix{<:Real}, r::Integer)
    _, _, i, j, v = _triplets(M_rows)
    out = Ref{Ptr{Cvoid}}(C_NULL)
    st = ccall(sym(:facto_problem_new_symnmf_distributed), Int32,
               (Ptr{Cvoid}, Int64, Int64, Int32, Int64, Int64, Ptr{Int64}, Ptr{Int64}, Ptr{Float64}, Int64, Ref{Ptr{Cvoid}}),
               c.ptr, n, first_row - 1, SPARSE_COO, size(M_rows, 1), length(v), i, j, v, r, out)
    check(st, thread_message)
    return Problem(out[])
end

"""
    nomad_distributed(c, n, first_row, X_rows, K) -> Problem

Collective: NOMAD on n points distributed by rows; this rank gives points `first_row` ..
`first_row + size(X_rows, 1) - 1` (1-based) as the rows of `X_rows`. Solver "burer_monteiro" (SPG inner
solves, kernel k-means start); outputs "factor" (this rank's rows), "labels" (this rank's points'),
"feasibility".
"""
function nomad_distributed(c::Collectives, n::Integer, first_row::Integer, X_rows::AbstractMatrix{<:Real}, K::Integer)
    A = Matrix{Float64}(X_rows)
    out = Ref{Ptr{Cvoid}}(C_NULL)
    st = ccall(sym(:facto_problem_new_nomad_distributed), Int32,
               (Ptr{Cvoid}, Int64, Int64, Ptr{Float64}, Int64, Int64, Int64, Int32, Int64, Ref{Ptr{Cvoid}}),
               c.ptr, n, first_row - 1, A, size(A, 1), size(A, 2), max(size(A, 1), 1), COL_MAJOR, K, out)
    check(st, thread_message)
    return Problem(out[])
end

"""
    self_dictionary_distributed(c, N, first_col, X_cols, K = 0; lambda = nothing, mu = nothing) -> Problem

Collective: the self-dictionary problem with the N data points (columns of X) distributed; this rank gives
columns `first_col` .. `first_col + size(X_cols, 2) - 1` (1-based). Every rank then holds all of X and its
columns of C. `nothing` takes the library's default (`problem_params("distributed_self_dictionary")`).
Solver "merit"; outputs "selected", "H" (this rank's columns), "nnz".
"""
function self_dictionary_distributed(c::Collectives, N::Integer, first_col::Integer, X_cols::AbstractMatrix{<:Real},
                                     K::Integer = 0; lambda = nothing, mu = nothing)
    A = Matrix{Float64}(X_cols)
    default(name) = first(p.default for p in problem_params("distributed_self_dictionary") if p.name == name)
    out = Ref{Ptr{Cvoid}}(C_NULL)
    st = ccall(sym(:facto_problem_new_self_dictionary_distributed), Int32,
               (Ptr{Cvoid}, Int64, Int64, Ptr{Float64}, Int64, Int64, Int64, Int32, Int64, Float64, Float64,
                Ref{Ptr{Cvoid}}),
               c.ptr, N, first_col - 1, A, size(A, 1), size(A, 2), max(size(A, 1), 1), COL_MAJOR, K,
               Float64(something(lambda, default("lambda"))), Float64(something(mu, default("mu"))), out)
    check(st, thread_message)
    return Problem(out[])
end

# (rows, cols, 0-based COO arrays) of a dense matrix's nonzeros or of a SparseMatrixCSC-like value with findnz.
function _triplets(M::AbstractMatrix{<:Real})
    I = Int64[]; J = Int64[]; V = Float64[]
    for j in axes(M, 2), i in axes(M, 1)
        M[i, j] != 0 && (push!(I, i - 1); push!(J, j - 1); push!(V, M[i, j]))
    end
    return size(M, 1), size(M, 2), I, J, V
end

"""
    topics(counts, K; min_df = nothing, rank = nothing, lambda = nothing, mu = nothing, refine = nothing) -> Problem

Anchor-word topic modeling (Nguyen, Fu & Wu Sec. V-B) from a documents×terms count matrix: rare terms
dropped, TF-IDF, the word-word correlation reduced to `rank` dimensions (0: 2K), as a self-dictionary
problem whose anchors are anchor words, their topics refined with the documents' weights until a sweep
gains less than `refine` (0: the paper's topics); `nothing` takes the library's default
(`problem_params("topics")`).
Outputs "selected", "topics", "top_terms", "document_topics", "labels", "coherence", "similarity_count".
"""
function topics(counts::AbstractMatrix{<:Real}, K::Integer; min_df = nothing, rank = nothing, lambda = nothing,
                mu = nothing, refine = nothing)
    rows, cols, I, J, V = _triplets(counts)
    names, values = chosen(min_df = min_df, rank = rank, lambda = lambda, mu = mu, refine = refine)
    out = Ref{Ptr{Cvoid}}(C_NULL)
    st = ccall(sym(:facto_problem_new_topics_named), Int32,
               (Int32, Int64, Int64, Int64, Ptr{Int64}, Ptr{Int64}, Ptr{Float64}, Int64, Int64, Ptr{Cstring},
                Ptr{Float64}, Ref{Ptr{Cvoid}}), SPARSE_COO, rows, cols, length(V), I, J, V, K, length(names), names,
               values, out)
    check(st, thread_message)
    return Problem(out[])
end

"""
    communities(A, K; energy = nothing, lambda = nothing, mu = nothing) -> Problem

Mixed-membership community detection (Nguyen, Fu & Wu Sec. V-C) from a symmetric adjacency matrix: the
top-K eigenvectors over the nodes carrying `energy` of the energy, as a self-dictionary problem whose
anchors are pure nodes; `nothing` takes the library's default (`problem_params("communities")`). Outputs
"selected", "memberships", "labels", "nodes".
"""
function communities(A::AbstractMatrix{<:Real}, K::Integer; energy = nothing, lambda = nothing, mu = nothing)
    rows, cols, I, J, V = _triplets(A)
    names, values = chosen(energy = energy, lambda = lambda, mu = mu)
    out = Ref{Ptr{Cvoid}}(C_NULL)
    st = ccall(sym(:facto_problem_new_communities_named), Int32,
               (Int32, Int64, Int64, Int64, Ptr{Int64}, Ptr{Int64}, Ptr{Float64}, Int64, Int64, Ptr{Cstring},
                Ptr{Float64}, Ref{Ptr{Cvoid}}), SPARSE_COO, rows, cols, length(V), I, J, V, K, length(names), names,
               values, out)
    check(st, thread_message)
    return Problem(out[])
end

"""
    averaged_spearman(estimated, truth) -> Float64

Averaged Spearman rank correlation (SRC) of estimated memberships against true ones (n×K each).
"""
function averaged_spearman(estimated::AbstractMatrix{<:Real}, truth::AbstractMatrix{<:Real})
    size(estimated) == size(truth) || throw(DimensionMismatch("estimated and truth differ in shape"))
    E, T = Matrix{Float64}(estimated), Matrix{Float64}(truth)
    src = Ref{Float64}(0.0)
    st = ccall(sym(:facto_averaged_spearman), Int32, (Ptr{Float64}, Ptr{Float64}, Int64, Int64, Int32, Ref{Float64}),
               E, T, size(T, 1), size(T, 2), COL_MAJOR, src)
    check(st, thread_message)
    return src[]
end

"""
    kmeans(X, K; replicates = 10, seed = 0) -> Vector{Int}

k-means labels (1-based) of the rows of `X`: Lloyd from k-means++ seeds, the best of `replicates` runs.
"""
function kmeans(X::AbstractMatrix{<:Real}, K::Integer; replicates::Integer = 10, seed::Integer = 0)
    A = Matrix{Float64}(X)
    labels = Vector{Int64}(undef, size(A, 1))
    st = ccall(sym(:facto_kmeans), Int32, (Ptr{Float64}, Int64, Int64, Int64, Int32, Int64, Int32, UInt64, Ptr{Int64}),
               A, size(A, 1), size(A, 2), max(size(A, 1), 1), COL_MAJOR, K, replicates, seed, labels)
    check(st, thread_message)
    return labels .+ 1
end

"""
    nomad(D, K) -> Problem

NOMAD (Tepper, Sengupta & Chklovskii): max Tr(D Q) s.t. Q 1 = 1, Tr Q = K, Q psd, Q ≥ 0, for a symmetric
n×n `D` (`nomad_gram` forms the paper's from points). Solvers "nomad_cgm" (conditional gradient) and
"burer_monteiro" (Q = Y Y' with Y ≥ 0 n×r, a local solution; extra output "factor"); the iterate is Q;
outputs "embedding" (n×(K-1)) and "feasibility" (RMS and max of Q's negative part, row-sum and trace errors).
"""
function nomad(D::AbstractMatrix{<:Real}, K::Integer)
    A = Matrix{Float64}(D)
    out = Ref{Ptr{Cvoid}}(C_NULL)
    st = ccall(sym(:facto_problem_new_nomad), Int32, (Ptr{Float64}, Int64, Int64, Int64, Int32, Int64, Ref{Ptr{Cvoid}}),
               A, size(A, 1), size(A, 2), max(size(A, 1), 1), COL_MAJOR, K, out)
    check(st, thread_message)
    return Problem(out[])
end

"""
    nomad_points(X, K) -> Problem

NOMAD on the points `X` (n×d, rows): D is the paper's Gram matrix of them (as `nomad_gram`), kept as their
centered, scaled coordinates and never formed, so memory is linear in n. "burer_monteiro" works through
products with them (its default start is then kernel k-means) and computes every output but "Q" from its
factor; "nomad_cgm" forms D when it starts. A `Matrix{Float32}` (images) is kept in single precision, half
the memory, and centred in Float64 as the products read it: the same D.
"""
function nomad_points(X::AbstractMatrix{<:Real}, K::Integer)
    out = Ref{Ptr{Cvoid}}(C_NULL)
    if eltype(X) == Float32
        S = X isa Matrix{Float32} ? X : Matrix{Float32}(X)
        st = ccall(sym(:facto_problem_new_nomad_points_float), Int32,
                   (Ptr{Float32}, Int64, Int64, Int64, Int32, Int64, Ref{Ptr{Cvoid}}),
                   S, size(S, 1), size(S, 2), max(size(S, 1), 1), COL_MAJOR, K, out)
    else
        A = X isa Matrix{Float64} ? X : Matrix{Float64}(X)
        st = ccall(sym(:facto_problem_new_nomad_points), Int32,
                   (Ptr{Float64}, Int64, Int64, Int64, Int32, Int64, Ref{Ptr{Cvoid}}),
                   A, size(A, 1), size(A, 2), max(size(A, 1), 1), COL_MAJOR, K, out)
    end
    check(st, thread_message)
    return Problem(out[])
end

"""
    nomad_points(X::SparseMatrixCSC, K) -> Problem

The same problem of sparse points (counts, TF-IDF; rows are points): their centring left implicit, memory
in the non-zeros.
"""
function nomad_points(X::SparseMatrixCSC{<:Real}, K::Integer)
    colptr, rowval, values = csc_arrays(X)
    out = Ref{Ptr{Cvoid}}(C_NULL)
    st = ccall(sym(:facto_problem_new_nomad_points_sparse), Int32,
               (Int32, Int64, Int64, Int64, Ptr{Int64}, Ptr{Int64}, Ptr{Float64}, Int64, Ref{Ptr{Cvoid}}),
               Int32(1), size(X, 1), size(X, 2), length(values), colptr, rowval, values, K, out)  # FACTO_SPARSE_CSC
    check(st, thread_message)
    return Problem(out[])
end

function objective(p::Problem, X::AbstractMatrix{<:Real})
    A = Matrix{Float64}(X)
    value = Ref{Float64}(0.0)
    st = ccall(sym(:facto_problem_objective), Int32,
               (Ptr{Cvoid}, Ptr{Float64}, Int64, Int64, Int64, Int32, Ref{Float64}),
               live(p), A, size(A, 1), size(A, 2), max(size(A, 1), 1), COL_MAJOR, value)
    check(st, () -> unsafe_string(ccall(sym(:facto_problem_last_error), Cstring, (Ptr{Cvoid},), p.ptr)))
    return value[]
end

"""The problem's kind ("simplicial_symnmf", "nomad", ...)."""
kind(p::Problem) = unsafe_string(ccall(sym(:facto_problem_kind), Cstring, (Ptr{Cvoid},), live(p)))

# ---- the registry: which algorithms exist for which problem kind ----

"""The problem kinds that have algorithms, from the library's registry."""
problem_kinds() = [unsafe_string(ccall(sym(:facto_problem_kind_name), Cstring, (Int64,), i))
                   for i in 0:ccall(sym(:facto_problem_kind_count), Int64, ())-1]

"""
    algorithms(kind) -> Vector of (name, is_default, description)

The algorithms of a problem kind, its default first, from the library's registry.
"""
function algorithms(kind::AbstractString)
    count = Ref{Int64}(0)
    check(ccall(sym(:facto_algorithm_count), Int32, (Cstring, Ref{Int64}), kind, count), thread_message)
    table = []
    for i in 0:count[]-1
        info = Ref(AlgorithmInfo(UInt32(sizeof(AlgorithmInfo)), 0, C_NULL, C_NULL))
        check(ccall(sym(:facto_algorithm_describe), Int32, (Cstring, Int64, Ref{AlgorithmInfo}), kind, i, info),
              thread_message)
        a = info[]
        push!(table, (name = unsafe_string(a.name), is_default = a.is_default != 0,
                      description = unsafe_string(a.description)))
    end
    return table
end

"""The default algorithm of a problem kind."""
default_algorithm(kind::AbstractString) = first(a.name for a in algorithms(kind) if a.is_default)

# ---- solvers ----

"""
    Solver(problem, algorithm = "auto"; callback = nothing, params...)

One algorithm bound to one problem ("auto": the library's default for its kind); owns the iterate.
Parameters may be given as keywords.
"""
mutable struct Solver
    ptr::Ptr{Cvoid}
    callback::Any       # Julia function (Progress -> Bool) or nothing
    pending::Any        # exception thrown by the callback, rethrown after step!/solve!
end

function Solver(problem::Problem, algorithm::AbstractString = "auto"; callback = nothing,
                kwargs...)
    out = Ref{Ptr{Cvoid}}(C_NULL)
    st = ccall(sym(:facto_solver_new), Int32, (Ptr{Cvoid}, Cstring, Ref{Ptr{Cvoid}}), live(problem), algorithm, out)
    check(st, thread_message)
    s = Solver(out[], nothing, nothing)
    finalizer(close, s)
    for (name, value) in kwargs
        s[String(name)] = value
    end
    callback === nothing || set_callback!(s, callback)
    return s
end

function Base.close(s::Solver)
    s.ptr == C_NULL || ccall(sym(:facto_solver_free), Cvoid, (Ptr{Cvoid},), s.ptr)
    s.ptr = C_NULL
    return nothing
end

live(s::Solver) = s.ptr == C_NULL ? throw(FactoError(-2, "FACTO_ERROR_NULL_POINTER", "the solver is closed")) : s.ptr
"""The solver's algorithm ("frank_wolfe", ...)."""
algorithm(s::Solver) = unsafe_string(ccall(sym(:facto_solver_algorithm), Cstring, (Ptr{Cvoid},), live(s)))

message(s::Solver) = () -> unsafe_string(ccall(sym(:facto_solver_last_error), Cstring, (Ptr{Cvoid},), s.ptr))

"""The parameter table: a vector of named tuples (name, type, default, lower, upper, choices, description)."""
function params(s::Solver)
    count = Ref{Int64}(0)
    check(ccall(sym(:facto_solver_param_count), Int32, (Ptr{Cvoid}, Ref{Int64}), live(s), count), message(s))
    table = []
    for i in 0:count[]-1
        info = Ref(ParamInfo(UInt32(sizeof(ParamInfo)), 0, C_NULL, C_NULL, 0, 0, 0, 0, 0, 0, C_NULL, C_NULL))
        check(ccall(sym(:facto_solver_param_info), Int32, (Ptr{Cvoid}, Int64, Ref{ParamInfo}), s.ptr, i, info),
              message(s))
        push!(table, param_entry(info[]))
    end
    return table
end

# A parameter table entry (name, type, default, lower, upper, choices, description) from the library's record.
function param_entry(p::ParamInfo)
    kind = p.type == PARAM_DOUBLE ? :double : p.type == PARAM_INT ? :int : :string
    default = kind == :double ? p.default_double : kind == :int ? p.default_int : unsafe_string(p.default_string)
    choices = kind == :string ? split(unsafe_string(p.choices), '|') : String[]
    return (name = unsafe_string(p.name), type = kind, default = default,
            lower = kind == :int ? p.lower_int : p.lower_double, upper = kind == :int ? p.upper_int : p.upper_double,
            choices = choices, description = unsafe_string(p.description))
end

"""
    problem_params(kind) -> Vector

The named parameters of a problem kind (what its constructor takes beyond the data and the rank), as
`params` lists a solver's, with the library's defaults and the reason for each; empty for a kind without any.
"""
function problem_params(kind::AbstractString)
    count = Ref{Int64}(0)
    check(ccall(sym(:facto_problem_param_count), Int32, (Cstring, Ref{Int64}), kind, count), thread_message)
    table = []
    for i in 0:count[]-1
        info = Ref(ParamInfo(UInt32(sizeof(ParamInfo)), 0, C_NULL, C_NULL, 0, 0, 0, 0, 0, 0, C_NULL, C_NULL))
        check(ccall(sym(:facto_problem_param_info), Int32, (Cstring, Int64, Ref{ParamInfo}), kind, i, info),
              thread_message)
        push!(table, param_entry(info[]))
    end
    return table
end

# The problem parameters a caller chose (`nothing`: the library's default) as names and values for the
# by-name constructors.
function chosen(; given...)
    picked = [(String(name), Float64(value)) for (name, value) in given if value !== nothing]
    return String[first(p) for p in picked], Float64[last(p) for p in picked]
end

# Type of a parameter; an unknown name is left to the library, whose error names it.
function param_type(s::Solver, name)
    for p in params(s)
        p.name == name && return p.type
    end
    return :double
end

"""`solver["tolerance"] = 1e-8`: set a parameter by name (type from the solver's table)."""
function Base.setindex!(s::Solver, value, name::AbstractString)
    kind = param_type(s, name)
    st = if value isa AbstractString || kind == :string
        ccall(sym(:facto_solver_set_string), Int32, (Ptr{Cvoid}, Cstring, Cstring), live(s), name, string(value))
    elseif kind == :int
        isinteger(value) || throw(FactoError(-7, "FACTO_ERROR_PARAMETER_TYPE", "parameter '$name' is an integer"))
        ccall(sym(:facto_solver_set_int), Int32, (Ptr{Cvoid}, Cstring, Int64), live(s), name, Int64(value))
    else
        ccall(sym(:facto_solver_set_double), Int32, (Ptr{Cvoid}, Cstring, Float64), live(s), name, Float64(value))
    end
    check(st, message(s))
    return value
end

"""`solver["tolerance"]`: read a parameter by name, in its own type."""
function Base.getindex(s::Solver, name::AbstractString)
    kind = param_type(s, name)
    if kind == :string
        v = Ref{Cstring}(C_NULL)
        check(ccall(sym(:facto_solver_get_string), Int32, (Ptr{Cvoid}, Cstring, Ref{Cstring}), live(s), name, v),
              message(s))
        return unsafe_string(v[])
    elseif kind == :int
        v = Ref{Int64}(0)
        check(ccall(sym(:facto_solver_get_int), Int32, (Ptr{Cvoid}, Cstring, Ref{Int64}), live(s), name, v), message(s))
        return v[]
    end
    v = Ref{Float64}(0.0)
    check(ccall(sym(:facto_solver_get_double), Int32, (Ptr{Cvoid}, Cstring, Ref{Float64}), live(s), name, v),
          message(s))
    return v[]
end

function set_iterate!(s::Solver, X::AbstractMatrix{<:Real})
    A = Matrix{Float64}(X)
    st = ccall(sym(:facto_solver_set_iterate), Int32, (Ptr{Cvoid}, Ptr{Float64}, Int64, Int64, Int64, Int32),
               live(s), A, size(A, 1), size(A, 2), max(size(A, 1), 1), COL_MAJOR)
    check(st, message(s))
    return s
end

# The C callback: must never throw (an exception may not unwind through C), so it stores it.
function trampoline(solver::Ptr{Cvoid}, progress::Ptr{Progress}, user_data::Ptr{Cvoid})::Int32
    s = unsafe_pointer_to_objref(user_data)::Solver
    try
        return s.callback(unsafe_load(progress)) === true ? Int32(1) : Int32(0)
    catch e
        s.pending = e
        return Int32(1)
    end
end

"""Install `f(progress::Progress) -> Bool` (true stops the solve), or remove it with `nothing`.
An exception thrown by `f` stops the solve and is rethrown by `step!`/`solve!`."""
function set_callback!(s::Solver, f)
    if f === nothing
        st = ccall(sym(:facto_solver_set_callback), Int32, (Ptr{Cvoid}, Ptr{Cvoid}, Ptr{Cvoid}, Ptr{Cvoid}),
                   live(s), C_NULL, C_NULL, C_NULL)
    else
        fptr = @cfunction(trampoline, Int32, (Ptr{Cvoid}, Ptr{Progress}, Ptr{Cvoid}))
        st = ccall(sym(:facto_solver_set_callback), Int32, (Ptr{Cvoid}, Ptr{Cvoid}, Any, Ptr{Cvoid}),
                   live(s), fptr, s, C_NULL)
    end
    check(st, message(s))
    s.callback = f
    return s
end

function run(s::Solver, name::Symbol)
    s.pending = nothing
    st = GC.@preserve s ccall(sym(name), Int32, (Ptr{Cvoid},), live(s))
    if s.pending !== nothing
        e, s.pending = s.pending, nothing
        throw(e)
    end
    check(st, message(s))
    return STOP_REASONS[st+1]
end

"""One iteration; returns `:running` or why a stopping rule fired."""
step!(s::Solver) = run(s, :facto_solver_step)
"""Iterate until a stopping rule fires; returns why (`:converged`, `:iteration_limit`, ...)."""
solve!(s::Solver) = run(s, :facto_solver_solve)

function progress(s::Solver)
    p = Ref(empty_progress())
    check(ccall(sym(:facto_solver_progress), Int32, (Ptr{Cvoid}, Ref{Progress}), live(s), p), message(s))
    return p[]
end

"""The current iterate as a column-major `Matrix{Float64}`."""
function iterate_matrix(s::Solver)
    rows, cols = Ref{Int64}(0), Ref{Int64}(0)
    check(ccall(sym(:facto_solver_iterate_shape), Int32, (Ptr{Cvoid}, Ref{Int64}, Ref{Int64}), live(s), rows, cols),
          message(s))
    out = Matrix{Float64}(undef, rows[], cols[])
    check(ccall(sym(:facto_solver_copy_iterate), Int32, (Ptr{Cvoid}, Ptr{Float64}, Int64, Int32),
                s.ptr, out, length(out), COL_MAJOR), message(s))
    return out
end

"""
    output(solver, name)

A named output as facto stores it: a `Matrix{Float64}` for real outputs (e.g. "H"), a `Vector{Int64}` of
the stored (0-based) values for integer ones (e.g. "labels", "selected"; see `labels` and `selected`).
"""
function output(s::Solver, name::AbstractString)
    kind, rows, cols = Ref{Int32}(0), Ref{Int64}(0), Ref{Int64}(0)
    check(ccall(sym(:facto_solver_output_shape), Int32, (Ptr{Cvoid}, Cstring, Ref{Int32}, Ref{Int64}, Ref{Int64}),
                live(s), name, kind, rows, cols), message(s))
    if kind[] == Int32(1)  # FACTO_OUTPUT_DOUBLE
        out = Matrix{Float64}(undef, rows[], cols[])
        check(ccall(sym(:facto_solver_copy_output_double), Int32, (Ptr{Cvoid}, Cstring, Ptr{Float64}, Int64, Int32),
                    s.ptr, name, out, length(out), COL_MAJOR), message(s))
        return out
    end
    out = Vector{Int64}(undef, rows[] * cols[])
    check(ccall(sym(:facto_solver_copy_output_int64), Int32, (Ptr{Cvoid}, Cstring, Ptr{Int64}, Int64, Int32),
                s.ptr, name, out, length(out), COL_MAJOR), message(s))
    return out
end

"""Cluster of each point, 1-based (facto's 0-based labels + 1)."""
labels(s::Solver) = output(s, "labels") .+ 1

"""
    nomad_layer(solver, K) -> Problem

The next layer of multi-layer NOMAD (Sec. 3.1): NOMAD on D = the current Q of `solver` (a solver of a
NOMAD problem that has an iterate) with `K` no larger than that problem's.
"""
function nomad_layer(s::Solver, K::Integer)
    out = Ref{Ptr{Cvoid}}(C_NULL)
    check(ccall(sym(:facto_problem_new_nomad_layer), Int32, (Ptr{Cvoid}, Int64, Ref{Ptr{Cvoid}}), live(s), K, out),
          thread_message)
    return Problem(out[])
end

"""
    next_nomad_layer(s, K) -> Solver

Multi-layer NOMAD's next layer ([TSC] Sec. 3.1): a solver of `s`'s algorithm and parameter values (not its
callback) on NOMAD whose D is `s`'s Q, with `K` no larger than that problem's (facto_solver_new_nomad_layer).
"""
function next_nomad_layer(s::Solver, K::Integer)
    out = Ref{Ptr{Cvoid}}(C_NULL)
    check(ccall(sym(:facto_solver_new_nomad_layer), Int32, (Ptr{Cvoid}, Int64, Ref{Ptr{Cvoid}}), live(s), K, out),
          thread_message)
    next = Solver(out[], nothing, nothing)
    finalizer(close, next)
    return next
end

"""
    multilayer_nomad(D, Ks; algorithm = "auto", params...) -> Vector{Matrix{Float64}}

Multi-layer NOMAD ([TSC] Sec. 3.1): layer 1 is NOMAD on `D` with `Ks[1]`, layer l + 1 NOMAD on layer l's Q
with `Ks[l + 1]` (non-increasing), each solved by `algorithm` with the keyword parameters, which every layer
keeps. Returns every layer's Q: facto.h's loop over facto_solver_new_nomad_layer, the same in every binding.
"""
function multilayer_nomad(D::AbstractMatrix{<:Real}, Ks::AbstractVector{<:Integer};
                          algorithm = "auto", kwargs...)
    isempty(Ks) && throw(ArgumentError("multilayer_nomad needs at least one K"))
    layers = Matrix{Float64}[]
    s = Solver(nomad(D, Ks[1]), algorithm; kwargs...)
    for l in eachindex(Ks)
        if l > 1
            previous, s = s, next_nomad_layer(s, Ks[l])
            close(previous)
        end
        solve!(s)
        push!(layers, iterate_matrix(s))
    end
    close(s)
    return layers
end

"""The anchor columns a self_dictionary solver selected, 1-based and increasing."""
selected(s::Solver) = output(s, "selected") .+ 1

# ---- data helpers ----

const SCALINGS = Dict(:none => Int32(0), :minmax => Int32(1), :zscore => Int32(2), :auto => Int32(3))
const SIMILARITIES = Dict(:gaussian => Int32(0), :cosine => Int32(1), :auto => Int32(2))  # FACTO_SIMILARITY_*
const SEARCHES = Dict(:exact => Int32(0), :hnsw => Int32(1), :auto => Int32(2))  # FACTO_SEARCH_*
const BANDWIDTH_MEDIAN_RULE = 0.0  # FACTO_BANDWIDTH_MEDIAN_RULE

# The ABI's bandwidth: nothing is the median rule; a number must be positive (a computed 0 stays an
# error, not a request for the median rule).
function bandwidth_code(bandwidth::Union{Nothing,Real})
    bandwidth === nothing && return BANDWIDTH_MEDIAN_RULE
    bandwidth > 0 || throw(FactoError(-8, "FACTO_ERROR_OUT_OF_RANGE",
                                      "bandwidth must be positive or nothing (the median rule), got $bandwidth"))
    return Float64(bandwidth)
end

"""P_ij = exp(-||x_i - x_j||² / bandwidth) for the rows of X, after scaling its columns; `bandwidth = nothing`
(the default): the median rule, a quarter of the median of ||x_i - x_j||² over the pairs."""
function gaussian_affinity(X::AbstractMatrix{<:Real}; bandwidth::Union{Nothing,Real} = nothing, scaling::Symbol = :minmax)
    bandwidth = bandwidth_code(bandwidth)
    A = Matrix{Float64}(X)
    out = Ref{Ptr{Cvoid}}(C_NULL)
    st = ccall(sym(:facto_gaussian_affinity), Int32,
               (Ptr{Float64}, Int64, Int64, Int64, Int32, Float64, Int32, Ref{Ptr{Cvoid}}),
               A, size(A, 1), size(A, 2), max(size(A, 1), 1), COL_MAJOR, bandwidth, SCALINGS[scaling], out)
    check(st, thread_message)
    return take_matrix(out[])
end

# Copies a facto_matrix (row-major) into a Matrix{Float64} and frees it.
function take_matrix(raw::Ptr{Cvoid})
    rows, cols = Ref{Int64}(0), Ref{Int64}(0)
    ccall(sym(:facto_matrix_shape), Int32, (Ptr{Cvoid}, Ref{Int64}, Ref{Int64}), raw, rows, cols)
    data = ccall(sym(:facto_matrix_data), Ptr{Float64}, (Ptr{Cvoid},), raw)
    M = permutedims(copy(unsafe_wrap(Matrix{Float64}, data, (cols[], rows[]))))
    ccall(sym(:facto_matrix_free), Cvoid, (Ptr{Cvoid},), raw)
    return M
end

"""NOMAD's input: the Gram matrix of the rows of X centered by their mean, divided by the largest row norm."""
function nomad_gram(X::AbstractMatrix{<:Real})
    A = Matrix{Float64}(X)
    out = Ref{Ptr{Cvoid}}(C_NULL)
    st = ccall(sym(:facto_nomad_gram), Int32, (Ptr{Float64}, Int64, Int64, Int64, Int32, Ref{Ptr{Cvoid}}),
               A, size(A, 1), size(A, 2), max(size(A, 1), 1), COL_MAJOR, out)
    check(st, thread_message)
    return take_matrix(out[])
end

const MANIFOLDS = Dict(:two_rings => (Int32(0), 2), :trefoil => (Int32(1), 3), :two_moons => (Int32(2), 2),
                       :blobs => (Int32(3), 2))

"""
    manifold_points(kind, n; parameter = 0.5, noise = 0.0, seed = 0) -> (X, labels)

The synthetic manifolds of Tepper et al.: `n` points (rows of X) and the 1-based manifold or blob of each.
`kind` :two_rings (`parameter` the inner radius), :trefoil, :two_moons or :blobs (`parameter` their
deviation); `noise` is added to the rings and moons.
"""
function manifold_points(kind::Symbol, n::Integer; parameter::Real = 0.5, noise::Real = 0.0, seed::Integer = 0)
    haskey(MANIFOLDS, kind) || throw(ArgumentError("kind must be one of $(sort(collect(keys(MANIFOLDS))))"))
    code, dim = MANIFOLDS[kind]
    X = Matrix{Float64}(undef, n, dim)
    labels = Vector{Int64}(undef, n)
    check(ccall(sym(:facto_manifold_points), Int32,
                (Int32, Int64, Float64, Float64, UInt64, Ptr{Float64}, Int64, Int32, Ptr{Int64}, Int64),
                code, n, parameter, noise, seed, X, length(X), COL_MAJOR, labels, n), thread_message)
    return X, labels .+ 1
end

function clustering_accuracy(predicted::AbstractVector{<:Integer}, truth::AbstractVector{<:Integer})
    p, t = Vector{Int64}(predicted), Vector{Int64}(truth)
    length(p) == length(t) || throw(FactoError(-4, "FACTO_ERROR_DIMENSION", "label vectors differ in length"))
    value = Ref{Float64}(0.0)
    st = ccall(sym(:facto_clustering_accuracy), Int32, (Ptr{Int64}, Ptr{Int64}, Int64, Ref{Float64}), p, t,
               length(p), value)
    check(st, thread_message)
    return value[]
end

# ---- sparse helpers and EDM data ----

# Copies a facto_sparse into a SparseMatrixCSC (1-based) and frees it.
function take_sparse(raw::Ptr{Cvoid})
    rows, cols, nnz = Ref{Int64}(0), Ref{Int64}(0), Ref{Int64}(0)
    ccall(sym(:facto_sparse_shape), Int32, (Ptr{Cvoid}, Ref{Int64}, Ref{Int64}, Ref{Int64}), raw, rows, cols, nnz)
    I, J, V = zeros(Int64, nnz[]), zeros(Int64, nnz[]), zeros(Float64, nnz[])
    ccall(sym(:facto_sparse_copy_coo), Int32, (Ptr{Cvoid}, Ptr{Int64}, Ptr{Int64}, Ptr{Float64}), raw, I, J, V)
    ccall(sym(:facto_sparse_free), Cvoid, (Ptr{Cvoid},), raw)
    return sparse(I .+ 1, J .+ 1, V, rows[], cols[])
end

"""
    knn_similarity(X; k = 0, kind = :auto, scaling = :auto, search = :auto) -> SparseMatrixCSC

The normalized kNN similarity graph (Kuang et al. 2015, Sec. 7.1) of the rows of `X`; `k = 0` means
floor(log2 n) + 1; `kind` is `:auto` (the cosine for nonnegative `X` with at least 90% zeros, as counts
and TF-IDF, the Gaussian otherwise), `:gaussian` (self-tuning) or `:cosine`; `X`'s columns are scaled first
(`:auto`: min-max for the Gaussian graph, none for the cosine one; `:none`: Kuang et al.'s graph);
`search` finds the neighbours: `:auto` (exact below 20,000 points, an HNSW index from there), `:exact`
or `:hnsw`. A `Matrix{Float32}` is read in single precision (half the memory of Float64: images), the
graph of its values as Float64.
"""
function knn_similarity(X::AbstractMatrix{<:Real}; k::Integer = 0, kind::Symbol = :auto, scaling::Symbol = :auto,
                        search::Symbol = :auto)
    out = Ref{Ptr{Cvoid}}(C_NULL)
    kind_code, scaling_code, search_code = SIMILARITIES[kind], SCALINGS[scaling], SEARCHES[search]
    if eltype(X) == Float32
        S = X isa Matrix{Float32} ? X : Matrix{Float32}(X)
        st = ccall(sym(:facto_knn_similarity_search_float), Int32,
                   (Ptr{Float32}, Int64, Int64, Int64, Int32, Int64, Int32, Int32, Int32, Ref{Ptr{Cvoid}}),
                   S, size(S, 1), size(S, 2), max(size(S, 1), 1), COL_MAJOR, k, kind_code, scaling_code, search_code,
                   out)
    else
        A = X isa Matrix{Float64} ? X : Matrix{Float64}(X)
        st = ccall(sym(:facto_knn_similarity_search), Int32,
                   (Ptr{Float64}, Int64, Int64, Int64, Int32, Int64, Int32, Int32, Int32, Ref{Ptr{Cvoid}}),
                   A, size(A, 1), size(A, 2), max(size(A, 1), 1), COL_MAJOR, k, kind_code, scaling_code, search_code,
                   out)
    end
    check(st, thread_message)
    return take_sparse(out[])
end

"""
    knn_similarity(X::SparseMatrixCSC; k = 0, kind = :auto, scaling = :auto, search = :auto) -> SparseMatrixCSC

The graph of the dense form of sparse rows (counts, TF-IDF); unscaled (`:none`, or `:auto` for the
cosine graph) the rows stay sparse, never made dense, and are searched exactly (`search` `:auto` or
`:exact`).
"""
function knn_similarity(X::SparseMatrixCSC{<:Real}; k::Integer = 0, kind::Symbol = :auto, scaling::Symbol = :auto,
                        search::Symbol = :auto)
    A = SparseMatrixCSC{Float64,Int64}(X)
    out = Ref{Ptr{Cvoid}}(C_NULL)
    st = ccall(sym(:facto_knn_similarity_sparse), Int32,
               (Int32, Int64, Int64, Int64, Ptr{Int64}, Ptr{Int64}, Ptr{Float64}, Int64, Int32, Int32, Int32,
                Ref{Ptr{Cvoid}}),
               Int32(1), size(A, 1), size(A, 2), nnz(A), A.colptr .- 1, A.rowval .- 1, A.nzval, k,  # FACTO_SPARSE_CSC
               SIMILARITIES[kind], SCALINGS[scaling], SEARCHES[search], out)
    check(st, thread_message)
    return take_sparse(out[])
end

"""    read_mtx(path) -> SparseMatrixCSC   (Matrix Market; symmetric files expanded)"""
function read_mtx(path::AbstractString)
    out = Ref{Ptr{Cvoid}}(C_NULL)
    check(ccall(sym(:facto_sparse_read), Int32, (Cstring, Ref{Ptr{Cvoid}}), path, out), thread_message)
    return take_sparse(out[])
end

"""
    separable_data(M, N, K; snr_db = Inf, kind = :dirichlet, seed = 0) -> (X, anchors)

Separable data X = W H + V of Nguyen, Fu & Wu Sec. V-A (M×N) and its K anchor columns (1-based,
increasing). `kind` :dirichlet (Table I) or :midpoints (Fig. 2, N = K + K(K-1)/2).
"""
function separable_data(M::Integer, N::Integer, K::Integer; snr_db::Real = Inf, kind::Symbol = :dirichlet,
                        seed::Integer = 0)
    kind in (:dirichlet, :midpoints) || throw(ArgumentError("kind must be :dirichlet or :midpoints"))
    X = Matrix{Float64}(undef, M, N)
    anchors = Vector{Int64}(undef, K)
    check(ccall(sym(:facto_separable_data), Int32,
                (Int32, Int64, Int64, Int64, Float64, UInt64, Ptr{Float64}, Int64, Int32, Ptr{Int64}, Int64),
                kind === :midpoints ? Int32(0) : Int32(1), M, N, K, snr_db, seed, X, length(X), COL_MAJOR, anchors, K),
          thread_message)
    return X, anchors .+ 1
end

"""    helix(n; seed = 0) -> n×3 Matrix of points (cos 3t, sin 3t, 2t), t uniform on [0, 2π]"""
function helix(n::Integer; seed::Integer = 0)
    rowmajor = zeros(Float64, 3 * n)
    check(ccall(sym(:facto_helix_points), Int32, (Int64, UInt64, Ptr{Float64}, Int64), n, seed, rowmajor, 3 * n),
          thread_message)
    return permutedims(reshape(rowmajor, 3, n))
end

"""    sample_pairs(X, fraction; seed = 0) -> (i, j, d): each pair i < j kept with probability `fraction`"""
function sample_pairs(X::AbstractMatrix{<:Real}, fraction::Real; seed::Integer = 0)
    A = Matrix{Float64}(X)
    out = Ref{Ptr{Cvoid}}(C_NULL)
    st = ccall(sym(:facto_sample_pairs), Int32, (Ptr{Float64}, Int64, Int64, Int64, Int32, Float64, UInt64, Ref{Ptr{Cvoid}}),
               A, size(A, 1), size(A, 2), max(size(A, 1), 1), COL_MAJOR, fraction, seed, out)
    check(st, thread_message)
    I, J, D = findnz(take_sparse(out[]))
    return I, J, D
end

"""    distance_nrmse(X, Xtrue; max_pairs = 10^7, seed = 0): normalized RMSE of all pairwise squared distances"""
function distance_nrmse(X::AbstractMatrix{<:Real}, Xtrue::AbstractMatrix{<:Real}; max_pairs::Integer = 10^7,
                        seed::Integer = 0)
    size(X) == size(Xtrue) || throw(DimensionMismatch("X and Xtrue differ in shape"))
    A, B, value = Matrix{Float64}(X), Matrix{Float64}(Xtrue), Ref{Float64}(0.0)
    st = ccall(sym(:facto_distance_nrmse), Int32, (Ptr{Float64}, Ptr{Float64}, Int64, Int64, Int32, Int64, UInt64, Ref{Float64}),
               A, B, size(A, 1), size(A, 2), COL_MAJOR, max_pairs, seed, value)
    check(st, thread_message)
    return value[]
end

# ---- models: a fit applied to new data (facto.h, "Models") ----

"""A fitted model: what applying a solved problem to new points needs, as named arrays."""
mutable struct Model
    ptr::Ptr{Cvoid}
    function Model(ptr::Ptr{Cvoid})
        m = new(ptr)
        finalizer(close, m)
        return m
    end
end

function Base.close(m::Model)
    m.ptr == C_NULL || ccall(sym(:facto_model_free), Cvoid, (Ptr{Cvoid},), m.ptr)
    m.ptr = C_NULL
    return nothing
end

live(m::Model) = m.ptr == C_NULL ? throw(FactoError(-2, "FACTO_ERROR_NULL_POINTER", "the model is closed")) : m.ptr
message(m::Model) = () -> unsafe_string(ccall(sym(:facto_model_last_error), Cstring, (Ptr{Cvoid},), m.ptr))
kind(m::Model) = unsafe_string(ccall(sym(:facto_model_kind), Cstring, (Ptr{Cvoid},), live(m)))

"""    describe_model(m) -> String   (what the model holds as the library's JSON: kind, what apply takes,
columns, "training_features" when a copy of the fitted points' features is inside, and each array's name,
shape, what it holds and whether it is that copy)"""
function describe_model(m::Model)
    json = Ref{Cstring}(C_NULL)
    check(ccall(sym(:facto_model_describe), Int32, (Ptr{Cvoid}, Ref{Cstring}), live(m), json), message(m))
    return unsafe_string(json[])
end

"""    drop_training_features!(m)   (removes the feature rule and its copy of the training points; apply then
takes affinity rows, not features)"""
function drop_training_features!(m::Model)
    check(ccall(sym(:facto_model_drop_training_features), Int32, (Ptr{Cvoid},), live(m)), message(m))
    return m
end

"""    Model(solver) -> Model   (the model of a solver's current iterate)"""
function Model(s::Solver)
    out = Ref{Ptr{Cvoid}}(C_NULL)
    check(ccall(sym(:facto_solver_model), Int32, (Ptr{Cvoid}, Ref{Ptr{Cvoid}}), live(s), out), message(s))
    return Model(out[])
end

"""    load_model(directory) -> Model   (saved by save_model or the command line's --save-model; its arrays must
be regular files there, no link followed, and keep the kind's contract, else a FactoError names them)"""
function load_model(directory::AbstractString)
    out = Ref{Ptr{Cvoid}}(C_NULL)
    check(ccall(sym(:facto_model_load), Int32, (Cstring, Ref{Ptr{Cvoid}}), directory, out), thread_message)
    return Model(out[])
end

"""    save_model(m, directory; settings = "{}")   (one .npy per array and model.json; only a facto model's
own files there are replaced)"""
function save_model(m::Model, directory::AbstractString; settings::AbstractString = "{}")
    check(ccall(sym(:facto_model_save), Int32, (Ptr{Cvoid}, Cstring, Cstring), live(m), directory, settings), message(m))
    return nothing
end

"""
    use_features!(m, X; affinity = :rbf, bandwidth = nothing, scaling = :auto, k = 0, kind = :auto, search = :auto)

The model of a fit on the affinity built from the features `X` (n×p) takes new points' features:
`affinity = :rbf` (as `gaussian_affinity`), `:knn` (as `knn_similarity`), or `:points` (NOMAD's means).
"""
function use_features!(m::Model, X::AbstractMatrix{<:Real}; affinity::Symbol = :rbf,
                       bandwidth::Union{Nothing,Real} = nothing,
                       scaling::Symbol = :auto, k::Integer = 0, kind::Symbol = :auto, search::Symbol = :auto)
    A = Matrix{Float64}(X)
    n, p, ld = size(A, 1), size(A, 2), max(size(A, 1), 1)
    st = if affinity === :rbf
        ccall(sym(:facto_model_use_gaussian_affinity), Int32,
              (Ptr{Cvoid}, Ptr{Float64}, Int64, Int64, Int64, Int32, Float64, Int32),
              live(m), A, n, p, ld, COL_MAJOR, bandwidth_code(bandwidth), SCALINGS[scaling])
    elseif affinity === :knn
        ccall(sym(:facto_model_use_knn_similarity_search), Int32,
              (Ptr{Cvoid}, Ptr{Float64}, Int64, Int64, Int64, Int32, Int64, Int32, Int32, Int32),
              live(m), A, n, p, ld, COL_MAJOR, k, SIMILARITIES[kind], SCALINGS[scaling], SEARCHES[search])
    else
        ccall(sym(:facto_model_use_points), Int32, (Ptr{Cvoid}, Ptr{Float64}, Int64, Int64, Int64, Int32),
              live(m), A, n, p, ld, COL_MAJOR)
    end
    check(st, message(m))
    return m
end

"""
    use_features!(m, X::SparseMatrixCSC; affinity = (nomad: :points, else :knn), k = 0, kind = :auto,
                  scaling = :auto, search = :auto)

Sparse fitted points (counts, TF-IDF; rows are points). NOMAD's means (`:points`): the model keeps the
clusters' means, not the points. The kNN rule (`:knn`, as `knn_similarity` of the same `X`): unscaled (the
cosine graph's `:auto`), the model keeps the rows' non-zeros, never a dense copy, and new points are
searched exactly among them. `:rbf` takes `X`'s dense form.
"""
function use_features!(m::Model, X::SparseMatrixCSC{<:Real};
                       affinity::Symbol = Facto.kind(m) == "nomad" ? :points : :knn, bandwidth::Union{Nothing,Real} = nothing,
                       scaling::Symbol = :auto, k::Integer = 0, kind::Symbol = :auto, search::Symbol = :auto)
    affinity === :rbf && return use_features!(m, Matrix(X); affinity, bandwidth, scaling)
    colptr, rowval, values = csc_arrays(X)
    st = if affinity === :knn
        ccall(sym(:facto_model_use_knn_similarity_sparse), Int32,
              (Ptr{Cvoid}, Int32, Int64, Int64, Int64, Ptr{Int64}, Ptr{Int64}, Ptr{Float64}, Int64, Int32, Int32, Int32),
              live(m), Int32(1), size(X, 1), size(X, 2), length(values), colptr, rowval, values, k,  # FACTO_SPARSE_CSC
              SIMILARITIES[kind], SCALINGS[scaling], SEARCHES[search])
    else
        ccall(sym(:facto_model_use_points_sparse), Int32,
              (Ptr{Cvoid}, Int32, Int64, Int64, Int64, Ptr{Int64}, Ptr{Int64}, Ptr{Float64}),
              live(m), Int32(1), size(X, 1), size(X, 2), length(values), colptr, rowval, values)  # FACTO_SPARSE_CSC
    end
    check(st, message(m))
    return m
end

"""
    apply_model(m, Y) -> (rows, labels, residuals)

New points through the model: their rows (one per point), labels (1-based; 0 where the job has none) and
residuals. `Y` is dense (self_dictionary: one point per column) or a SparseMatrixCSC.
"""
function apply_model(m::Model, Y::AbstractMatrix{<:Real})
    cols = Ref{Int64}(0)
    check(ccall(sym(:facto_model_apply_columns), Int32, (Ptr{Cvoid}, Ref{Int64}), live(m), cols), message(m))
    q = kind(m) == "self_dictionary" ? size(Y, 2) : size(Y, 1)
    rows = Matrix{Float64}(undef, cols[], q)  # row-major q x cols, read as its transpose
    labels, residuals = Vector{Int64}(undef, q), Vector{Float64}(undef, q)
    if Y isa SparseMatrixCSC
        I, J, V = findnz(Y)
        st = ccall(sym(:facto_model_apply_sparse), Int32,
                   (Ptr{Cvoid}, Int32, Int64, Int64, Int64, Ptr{Int64}, Ptr{Int64}, Ptr{Float64}, Ptr{Float64}, Int64,
                    Ptr{Int64}, Ptr{Float64}),
                   live(m), Int32(2), size(Y, 1), size(Y, 2), length(V), Vector{Int64}(I .- 1), Vector{Int64}(J .- 1),
                   Vector{Float64}(V), rows, length(rows), labels, residuals)
    else
        A = Matrix{Float64}(Y)
        st = ccall(sym(:facto_model_apply), Int32,
                   (Ptr{Cvoid}, Ptr{Float64}, Int64, Int64, Int64, Int32, Ptr{Float64}, Int64, Ptr{Int64}, Ptr{Float64}),
                   live(m), A, size(A, 1), size(A, 2), max(size(A, 1), 1), COL_MAJOR, rows, length(rows), labels,
                   residuals)
    end
    check(st, message(m))
    return permutedims(rows), labels .+ 1, residuals
end

"""
    consensus(labels) -> (C, cophenetic, dispersion)

The consensus of clusterings of the same points (`labels`: runs×n, 1-based; 0 shares with nothing) and its
stability scores (cophenetic correlation, dispersion; both 1 when every run agrees).
"""
function consensus(labels::AbstractMatrix{<:Integer})
    runs, n = size(labels)
    L = Vector{Int64}(vec(permutedims(labels) .- 1))  # row-major runs x n, 0-based
    C = Matrix{Float64}(undef, n, n)
    cophenetic, dispersion = Ref{Float64}(0.0), Ref{Float64}(0.0)
    check(ccall(sym(:facto_consensus), Int32, (Ptr{Int64}, Int64, Int64, Ptr{Float64}, Ref{Float64}, Ref{Float64}),
                L, runs, n, C, cophenetic, dispersion), thread_message)
    return C, cophenetic[], dispersion[]
end

end
