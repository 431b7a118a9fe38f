# Tests of the Julia binding (not run where facto is developed: no Julia there). Run with
#   FACTO_LIBRARY=/path/to/libfacto.so.0 julia --project=bindings/julia/Facto -e 'using Pkg; Pkg.test()'
using Facto, Test, DelimitedFiles, SparseArrays

const DATA = joinpath(@__DIR__, "..", "..", "..", "..", "tests", "data")

blobs() = readdlm(joinpath(DATA, "blobs.csv"), ',', Float64; skipstart = 1)
affinity() = gaussian_affinity(blobs(); bandwidth = 4.0, scaling = :none)

@testset "Facto" begin
    @testset "problem from a Julia matrix" begin
        P = affinity()
        problem = simplicial_symnmf(P, 3)
        W = fill(1 / 3, size(P, 1), 3)
        @test Facto.objective(problem, W) ≈ 0.25 * sum(abs2, P - W * W') rtol = 1e-12
    end

    @testset "the registry: one default per kind, first; a solver runs it" begin
        for k in problem_kinds()
            table = algorithms(k)
            @test [a.is_default for a in table] == [true; fill(false, length(table) - 1)]
            @test default_algorithm(k) == table[1].name
        end
        problem = simplicial_symnmf(affinity(), 3)
        @test kind(problem) == "simplicial_symnmf"
        @test Facto.algorithm(Solver(problem)) == default_algorithm("simplicial_symnmf")
        @test_throws FactoError algorithms("no_such_kind")
    end

    @testset "parameters by name, step, callback, iterate, labels" begin
        s = Solver(simplicial_symnmf(affinity(), 3); tolerance = 1e-9, objective_tolerance = 0)
        @test s["tolerance"] == 1e-9
        s["max_iterations"] = 25
        @test s["max_iterations"] === Int64(25)
        @test step!(s) == :running
        seen = Int64[]
        set_callback!(s, p -> (push!(seen, p.iteration); p.iteration >= 6))
        @test solve!(s) == :stopped_by_callback
        @test seen == 2:6
        W = iterate_matrix(s)
        @test size(W) == (90, 3) && all(W .>= 0) && all(abs.(sum(W, dims = 2) .- 1) .< 1e-12)
        @test labels(s) == [argmax(W[i, :]) for i in 1:90]
    end

    @testset "an exception in the callback is rethrown" begin
        s = Solver(simplicial_symnmf(affinity(), 3); callback = p -> p.iteration == 3 ? error("boom") : false)
        @test_throws ErrorException solve!(s)
        @test progress(s).iteration == 3
    end

    @testset "errors" begin
        P = affinity()
        bad = copy(P); bad[1, 2] = NaN
        @test_throws FactoError simplicial_symnmf(bad, 3)
        @test_throws FactoError simplicial_symnmf(P[:, 1:10], 3)
        s = Solver(simplicial_symnmf(P, 3))
        e = try s["tolerence"] = 1.0; nothing catch err; err end
        @test e isa FactoError && e.name == "FACTO_ERROR_UNKNOWN_PARAMETER"
        @test step!(s) == :running
    end

    @testset "any free order" begin
        problem = simplicial_symnmf(affinity(), 3)
        s = Solver(problem; max_iterations = 5)
        close(problem)
        @test solve!(s) == :iteration_limit
        close(s); close(s)
    end

    if haskey(ENV, "FACTO_FIXTURE_REFERENCE")
        @testset "cross-language fixture" begin
            P = readdlm(joinpath(DATA, "fixture", "affinity.csv"), ',', Float64)
            s = Solver(simplicial_symnmf(P, 3); seed = 7, max_iterations = 40, tolerance = 0, objective_tolerance = 0)
            solve!(s)
            @test maximum(abs.(iterate_matrix(s) - readdlm(ENV["FACTO_FIXTURE_REFERENCE"], ',', Float64))) <= 1e-12
        end
    end
end

@testset "symnmf on a kNN graph, EDM completion on the Helix" begin
    points = Facto.helix(200; seed = 3)
    i, j, d = Facto.sample_pairs(points, 0.2; seed = 4)
    @test all(i .< j)
    problem = Facto.edm_completion(200, 3, i, j, d)
    @test Facto.objective(problem, points) < 1e-20
    for kernel in ("universal", "gram")
        s = Solver(problem, "nolips"; kernel = kernel, max_iterations = 20000, tolerance = 1e-9)
        solve!(s)
        @test Facto.distance_nrmse(iterate_matrix(s), points) < 1e-6
    end
    graph = Facto.knn_similarity(points)
    @test graph == graph'
    # :auto scales the Gaussian graph's features to [-1, 1] first: the graph of the features scaled by hand
    low, high = minimum(points; dims = 1), maximum(points; dims = 1)
    @test Facto.knn_similarity(points) ≈ Facto.knn_similarity(2 .* (points .- low) ./ (high .- low) .- 1; scaling = :none)
    # Float32 features are read in single precision: the graph of the same values as Float64, exactly
    single = Float32.(points)
    for search in (:exact, :hnsw)
        @test Facto.knn_similarity(single; search = search) == Facto.knn_similarity(Float64.(single); search = search)
    end
    # no bandwidth: the median rule, a quarter of the median squared distance over the pairs
    d2 = [sum(abs2, points[i, :] .- points[j, :]) for i in 1:200, j in 1:200]
    pairs = sort([d2[i, j] for i in 1:200 for j in i+1:200])
    P = Facto.gaussian_affinity(points; scaling = :none)
    @test P[1, 2] ≈ exp(-d2[1, 2] / (pairs[length(pairs) ÷ 2 + 1] / 4))
    s = Solver(Facto.symnmf(graph, 3), "sym_hals"; max_iterations = 50)
    solve!(s)
    @test progress(s).objective < Facto.objective(Facto.symnmf(graph, 3), fill(0.1, 200, 3))
    # the kNN rule of sparse rows keeps their non-zeros (no dense copy) and labels new points, sparse or
    # dense, as the dense rule does
    counts = [max(0.0, v) for v in points]
    cosine = Facto.knn_similarity(sparse(counts); kind = :cosine)
    fit = Solver(Facto.symnmf(cosine, 3), "sym_hals"; max_iterations = 50)
    solve!(fit)
    by_rows = use_features!(Model(fit), sparse(counts); kind = :cosine)
    by_dense = use_features!(Model(fit), counts; affinity = :knn, kind = :cosine)
    @test occursin("\"name\": \"knn_csr_data\"", describe_model(by_rows))
    @test !occursin("\"name\": \"knn_features\"", describe_model(by_rows))
    @test apply_model(by_rows, sparse(counts))[2] == apply_model(by_dense, counts)[2]
    @test apply_model(by_rows, counts)[1] ≈ apply_model(by_dense, counts)[1] rtol = 1e-10
end


@testset "MERIT and SPA find the anchors of noiseless separable data" begin
    X, anchors = Facto.separable_data(50, 55, 10; kind = :midpoints, seed = 3)
    for name in ("merit", "spa")
        s = Solver(Facto.self_dictionary(X, 10), name; max_iterations = 300)
        solve!(s)
        @test Facto.selected(s) == anchors
        H = Facto.output(s, "H")
        @test size(H) == (10, 55)
        @test all(abs.(sum(H; dims = 1) .- 1) .< 1e-12)
        @test X[:, Facto.selected(s)] * H ≈ X atol = 1e-8
    end
    @test_throws FactoError Facto.self_dictionary(X)  # the heuristic lambda needs K
    # the same X as a SparseMatrixCSC: kept sparse, the same anchors; merit refuses sparse points
    for name in ("spa", "snpa")
        s = Solver(Facto.self_dictionary(sparse(X), 10), name)
        solve!(s)
        @test Facto.selected(s) == anchors
    end
    @test_throws FactoError Solver(Facto.self_dictionary(sparse(X), 10), "merit")
end

@testset "problem parameters left at nothing are the library's defaults" begin
    table = Facto.problem_params("self_dictionary")
    @test Set(p.name for p in table) == Set(["lambda", "mu"])
    @test isempty(Facto.problem_params("symnmf"))
    default(name) = first(p.default for p in table if p.name == name)
    X, _ = Facto.separable_data(8, 12, 3; snr_db = 30, seed = 2)
    C = [Float64(i == j) for i in 1:12, j in 1:12]  # at a constant C, Phi_mu is 1 whatever mu
    chosen = Facto.objective(Facto.self_dictionary(X, 3), C)
    @test chosen == Facto.objective(Facto.self_dictionary(X, 3; lambda = default("lambda"), mu = default("mu")), C)
    @test chosen != Facto.objective(Facto.self_dictionary(X, 3; mu = 1e-2), C)
    @test_throws FactoError Facto.self_dictionary(X, 3; mu = -1.0)
end

@testset "NOMAD by both solvers and in layers" begin
    X, labels = Facto.manifold_points(:two_rings, 100)
    @test size(X) == (100, 2) && labels[1] == 1 && labels[100] == 2
    D = Facto.nomad_gram(X)
    @test D == D' && all(abs.(sum(D; dims = 2)) .< 1e-12)
    for name in ("nomad_cgm", "burer_monteiro")
        s = Solver(Facto.nomad(D, 8), name; max_iterations = 500)
        solve!(s)
        Q = iterate_matrix(s)
        tolerance = name == "nomad_cgm" ? 1e-10 : 1e-6
        @test all(abs.(sum(Q; dims = 2) .- 1) .<= tolerance)
        if name == "burer_monteiro"
            Y = Facto.output(s, "factor")
            @test size(Y) == (100, 24) && all(Y .>= 0)  # r = 3 K
            @test Q ≈ Y * Y' atol = 1e-12
            @test_throws FactoError Facto.nomad_layer(s, 9)  # K must not grow
            # tolerance 0 is automatic: the progress carries the bound in force
            @test progress(s).tolerance == 1e-6 && progress(s).stationarity <= progress(s).tolerance
        end
    end
    layers = Facto.multilayer_nomad(D, [8, 4]; algorithm = "burer_monteiro", seed = 3)
    @test length(layers) == 2 && abs(sum(layers[2][i, i] for i in 1:100) - 4) < 1e-4
end

@testset "a fitted model labels new points and survives a save" begin
    X = [i % 3 == 0 ? 10.0 + 0.01i : (i % 3 == 1 ? 0.01i : -10.0 - 0.01i) for i in 1:60, j in 1:2]
    s = Solver(Facto.nomad_points(X, 3), "burer_monteiro")
    solve!(s)
    # the same points as a SparseMatrixCSC: their centring implicit, the same D to rounding
    Q = iterate_matrix(s)
    @test Facto.objective(Facto.nomad_points(sparse(X), 3), Q) ≈ Facto.objective(Facto.nomad_points(X, 3), Q) rtol = 1e-12
    # the same points in single precision: D of their values as Float64
    @test Facto.objective(Facto.nomad_points(Float32.(X), 3), Q) ≈ Facto.objective(Facto.nomad_points(Float64.(Float32.(X)), 3), Q) rtol = 1e-12
    m = Model(s)
    use_features!(m, X; affinity = :points)
    rows, labels, residuals = apply_model(m, X)
    @test clustering_accuracy(labels, [i % 3 for i in 1:60]) == 1.0
    @test all(residuals .>= 0)
    dir = mktempdir()
    save_model(m, dir; settings = "{\"by\": \"julia\"}")
    @test apply_model(load_model(dir), X)[2] == labels
    # NOMAD's points rule keeps cluster means, not the points: no training features to drop
    @test occursin("\"training_features\": false, \"arrays\"", describe_model(m))
    @test occursin("\"name\": \"centers\"", describe_model(drop_training_features!(m)))
    # the means of the same points given sparse: the same labels for new points
    ms = Model(s)
    use_features!(ms, sparse(X))
    @test apply_model(ms, X)[2] == labels
    C, cophenetic, dispersion = consensus(vcat(labels', labels'))
    @test cophenetic ≈ 1 && dispersion ≈ 1
end
