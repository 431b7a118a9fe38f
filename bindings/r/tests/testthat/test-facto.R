# Tests of the R binding: native matrices in and out, parameters, stepping, callbacks (and errors in
# them), conditions, handle lifetimes, and the cross-language fixture.
test_that("a problem is built from an R matrix and its objective matches the dense formula", {
  P <- affinity()
  problem <- facto_simplicial_symnmf(P, 3)
  W <- matrix(1 / 3, nrow(P), 3)
  expect_equal(facto_objective(problem, W), 0.25 * sum((P - W %*% t(W))^2), tolerance = 1e-12)
  expect_output(print(problem), "simplicial_symnmf, iterate 90 x 3")
})

test_that("parameters are set and read by name", {
  solver <- facto_solver(facto_simplicial_symnmf(affinity(), 3), tolerance = 1e-9, max_iterations = 25)
  expect_equal(facto_get(solver, "tolerance"), 1e-9)
  expect_identical(facto_get(solver, "max_iterations"), 25L)
  facto_set(solver, "step_rule", "line_search")
  expect_identical(facto_get(solver, "step_rule"), "line_search")
  table <- facto_params(solver)
  expect_true(all(c("tolerance", "seed", "step_rule") %in% table$name))
  expect_identical(table$range[table$name == "step_rule"], "auto|open_loop|line_search|curvature")
  facto_reset_params(solver)
  expect_identical(facto_get(solver, "step_rule"), "auto")
})

test_that("the registry lists each kind's algorithms with one default first, and a solver runs it", {
  table <- facto_algorithms()
  expect_true(all(c("simplicial_symnmf", "nomad") %in% table$kind))
  for (kind in unique(table$kind)) {
    rows <- table[table$kind == kind, ]
    expect_identical(rows$default, c(TRUE, rep(FALSE, nrow(rows) - 1)), info = kind)
    expect_false(anyDuplicated(rows$name) > 0)
    expect_identical(facto_algorithms(kind), rows, ignore_attr = TRUE)
  }
  problem <- facto_simplicial_symnmf(affinity(), 3)
  default <- table$name[table$kind == "simplicial_symnmf" & table$default]
  expect_output(print(facto_solver(problem)), paste0("<facto solver ", default, ": iteration 0"))
  expect_error(facto_algorithms("no_such_kind"), "simplicial_symnmf", class = "facto_error")
})

test_that("problem parameters left NULL are the library's defaults, which its table gives", {
  table <- facto_problem_params("self_dictionary")
  expect_setequal(table$name, c("lambda", "mu"))
  expect_true(all(nzchar(table$description)))
  expect_equal(nrow(facto_problem_params("symnmf")), 0)
  data <- facto_separable_data(8, 12, 3, snr_db = 30, seed = 2)
  C <- diag(12)  # at a constant C, Phi_mu is 1 whatever mu
  default <- function(name) as.numeric(table$default[table$name == name])
  chosen <- facto_objective(facto_self_dictionary(data$X, 3), C)
  expect_identical(chosen, facto_objective(facto_self_dictionary(data$X, 3, default("lambda"), default("mu")), C))
  expect_false(chosen == facto_objective(facto_self_dictionary(data$X, 3, mu = 1e-2), C))
  expect_error(facto_self_dictionary(data$X, 3, mu = -1), "mu", class = "facto_error")
  expect_error(facto_problem_params("no_such_kind"), "simplicial_symnmf", class = "facto_error")
})

test_that("step once, then solve with a callback that stops early; iterate and labels", {
  solver <- facto_solver(facto_simplicial_symnmf(affinity(), 3), objective_tolerance = 0)
  expect_identical(facto_step(solver), "running")
  expect_equal(facto_progress(solver)$iteration, 1)
  seen <- c()
  facto_set_callback(solver, function(p) {
    seen <<- c(seen, p$iteration)
    p$iteration >= 6
  })
  expect_identical(facto_solve(solver), "stopped_by_callback")
  expect_equal(seen, 2:6)
  W <- facto_iterate(solver)
  expect_equal(dim(W), c(90, 3))
  expect_true(all(W >= 0))
  expect_equal(rowSums(W), rep(1, 90), tolerance = 1e-12)
  expect_identical(facto_labels(solver), max.col(W, ties.method = "first"))
})

test_that("an error in the callback stops the solve and is re-raised as the same condition", {
  solver <- facto_solver(facto_simplicial_symnmf(affinity(), 3))
  facto_set_callback(solver, function(p) if (p$iteration == 3) stop("from the callback") else FALSE)
  expect_error(facto_solve(solver), "from the callback")
  expect_equal(facto_progress(solver)$iteration, 3)
  facto_set_callback(solver, NULL)
  expect_true(facto_step(solver) %in% c("running", "converged"))
})

test_that("bad input gives facto_error conditions with the status", {
  P <- affinity()
  bad <- P
  bad[1, 2] <- NaN
  e <- tryCatch(facto_simplicial_symnmf(bad, 3), facto_error = function(e) e)
  expect_s3_class(e, "facto_not_finite")
  expect_identical(e$status_name, "FACTO_ERROR_NOT_FINITE")
  expect_error(facto_simplicial_symnmf(P[, 1:10], 3), class = "facto_dimension")
  expect_error(facto_simplicial_symnmf(P, 0), "rank")
  problem <- facto_simplicial_symnmf(P, 3)
  expect_error(facto_solver(problem, "simplex"), class = "facto_unsupported")
  solver <- facto_solver(problem)
  expect_error(facto_set(solver, "tolerence", 1e-3), "tolerence", class = "facto_unknown_parameter")
  expect_error(facto_set(solver, "max_iterations", 2.5), class = "facto_parameter_type")
  expect_error(facto_iterate(solver), class = "facto_bad_state")
  expect_error(facto_set_iterate(solver, matrix(1, 90, 3)), class = "facto_infeasible")
  expect_identical(facto_step(solver), "running")  # still usable
})

test_that("handles are freed in any order, explicitly or by the garbage collector", {
  problem <- facto_simplicial_symnmf(affinity(), 3)
  a <- facto_solver(problem, max_iterations = 5)
  b <- facto_solver(problem, "projected_gradient", max_iterations = 5)
  facto_free(problem)
  facto_free(problem)
  expect_error(facto_solver(problem), class = "facto_null_pointer")
  expect_identical(facto_solve(a), "iteration_limit")
  rm(a)
  gc()
  expect_identical(facto_solve(b), "iteration_limit")
  facto_free(b)
  expect_error(facto_step(b), class = "facto_null_pointer")
})

test_that("the data helpers agree with R", {
  d <- blobs()
  sq <- rowSums(d$X^2)
  reference <- exp(-pmax(outer(sq, sq, "+") - 2 * d$X %*% t(d$X), 0) / 4)
  expect_equal(facto_gaussian_affinity(d$X, 4, "none"), reference, tolerance = 1e-12)
  # no bandwidth: the median rule, a quarter of the median squared distance over the pairs i < j (the
  # upper middle of an even count, as the library's nth_element takes it); 0 is refused
  D2 <- pmax(outer(sq, sq, "+") - 2 * d$X %*% t(d$X), 0)
  pairs <- sort(D2[upper.tri(D2)])
  median_rule <- exp(-D2 / (pairs[length(pairs) %/% 2 + 1] / 4))
  diag(median_rule) <- 1
  expect_equal(facto_gaussian_affinity(d$X, scaling = "none"), median_rule, tolerance = 1e-10)
  expect_error(facto_gaussian_affinity(d$X, 0), "median rule")
  expect_equal(facto_accuracy(c(5, 5, 4, 5), c(0, 0, 1, 1)), 0.75)
  solver <- facto_solver(facto_simplicial_symnmf(affinity(), 3), seed = 1)
  facto_solve(solver)
  expect_equal(facto_accuracy(facto_labels(solver), d$y), 1)
})

test_that("the cross-language fixture gives the C library's iterate", {
  reference <- Sys.getenv("FACTO_FIXTURE_REFERENCE")
  skip_if(reference == "", "FACTO_FIXTURE_REFERENCE not set (CTest sets it)")
  P <- as.matrix(read.csv(data_file("fixture", "affinity.csv"), header = FALSE))
  dimnames(P) <- NULL
  solver <- facto_solver(facto_simplicial_symnmf(P, 3), seed = 7, max_iterations = 40, tolerance = 0,
                         objective_tolerance = 0)
  facto_solve(solver)
  expected <- unname(as.matrix(read.csv(reference, header = FALSE)))
  expect_lte(max(abs(facto_iterate(solver) - expected)), 1e-12)
})

test_that("the kNN graph by HNSW is the exact one on the blobs, and its rule searches alike", {
  # 90 points, 32 candidates searched: the exact neighbours (well-separated blobs), the same graph
  d <- blobs()
  expect_equal(as.matrix(facto_knn_similarity(d$X, search = "hnsw")), as.matrix(facto_knn_similarity(d$X, search = "exact")),
               tolerance = 1e-12)
  fit <- facto_use_features(symnmf(facto_knn_similarity(d$X, search = "hnsw"), 3, seed = 1), d$X, affinity = "knn",
                            search = "hnsw")
  expect_equal(facto_accuracy(predict(fit, d$X), d$y), 1)
  expect_error(facto_knn_similarity(d$X, search = "annoy"))
})

test_that("a sparse Matrix gives the kNN graph of its dense form", {
  skip_if_not_installed("Matrix")
  set.seed(3)
  dense <- matrix(runif(60 * 40) * (runif(60 * 40) < 0.1), 60, 40)
  X <- Matrix::Matrix(dense, sparse = TRUE)
  # the cosine graph keeps the rows sparse; the Gaussian one (min-max scaled) makes them dense first
  expect_equal(as.matrix(facto_knn_similarity(X, kind = "cosine")), as.matrix(facto_knn_similarity(dense, kind = "cosine")),
               tolerance = 1e-12)
  expect_equal(as.matrix(facto_knn_similarity(X, kind = "gaussian")), as.matrix(facto_knn_similarity(dense, kind = "gaussian")),
               tolerance = 1e-12)
  # the cosine graph's model keeps the rows sparse (their non-zeros only) and gives new points, sparse or
  # dense, the dense model's rows
  fit <- symnmf(facto_knn_similarity(X, kind = "cosine"), 3, seed = 1)
  sparse_fit <- facto_use_features(fit, X, affinity = "knn", similarity = "cosine")
  dense_fit <- facto_use_features(fit, dense, affinity = "knn", similarity = "cosine")
  expect_null(sparse_fit$model$arrays$knn_features)
  expect_equal(length(sparse_fit$model$arrays$knn_csr_data), Matrix::nnzero(X))
  expect_equal(predict(sparse_fit, X[1:10, ], type = "rows"), predict(dense_fit, dense[1:10, ], type = "rows"),
               tolerance = 1e-10)
  expect_equal(predict(sparse_fit, dense[1:10, ]), predict(dense_fit, dense[1:10, ]))
})

test_that("symnmf on the kNN graph clusters the blobs with every solver, dense or sparse", {
  d <- blobs()
  graph <- facto_knn_similarity(d$X)
  dense <- as.matrix(graph)
  expect_equal(dense, t(dense))
  expect_true(all(diag(dense) == 0))
  for (name in c("nolips", "projected_gradient", "coordinate_descent", "sym_hals", "sym_anls")) {
    solver <- facto_solver(facto_symnmf(graph, 3), name, seed = 2, max_iterations = 2000, objective_tolerance = 0)
    facto_solve(solver)
    expect_equal(facto_accuracy(facto_labels(solver), d$y), 1, info = name)
  }
  Z <- matrix(runif(90 * 3), 90, 3)
  expect_equal(facto_objective(facto_symnmf(dense, 3), Z), facto_objective(facto_symnmf(graph, 3), Z),
               tolerance = 1e-12)
})

test_that("EDM completion recovers the Helix with both kernels", {
  points <- facto_helix(200, seed = 3)
  p <- facto_sample_pairs(points, 0.2, seed = 4)
  expect_true(all(p$i < p$j))
  expect_equal(p$d, rowSums((points[p$i, ] - points[p$j, ])^2))
  problem <- facto_edm_completion(200, 3, p$i, p$j, p$d)
  expect_lt(facto_objective(problem, points), 1e-20)
  for (kernel in c("universal", "gram")) {
    solver <- facto_solver(problem, "nolips", kernel = kernel, max_iterations = 20000, tolerance = 1e-9)
    facto_solve(solver)
    expect_lt(facto_distance_nrmse(facto_iterate(solver), points), 1e-6)
  }
  expect_error(facto_edm_completion(200, 3, p$i, p$i, p$d), class = "facto_error")
})

test_that("Matrix Market files are read as 1-based triplets", {
  path <- tempfile(fileext = ".mtx")
  writeLines(c("%%MatrixMarket matrix coordinate real symmetric", "3 3 2", "2 1 0.5", "3 3 2"), path)
  expect_equal(as.matrix(facto_read_mtx(path)), matrix(c(0, 0.5, 0, 0.5, 0, 0, 0, 0, 2), 3, 3))
})

test_that("MERIT and SPA find the anchors of noiseless separable data", {
  d <- facto_separable_data(50, 55, 10, kind = "midpoints", seed = 3)
  expect_equal(dim(d$X), c(50, 55))
  for (name in c("merit", "spa")) {
    solver <- facto_solver(facto_self_dictionary(d$X, 10), name, max_iterations = 300)
    facto_solve(solver)
    expect_equal(facto_selected(solver), d$anchors, info = name)
    H <- facto_output(solver, "H")
    expect_equal(dim(H), c(10, 55))
    expect_equal(colSums(H), rep(1, 55), tolerance = 1e-12)
    expect_equal(d$X[, facto_selected(solver)] %*% H, d$X, tolerance = 1e-8)
  }
  expect_error(facto_self_dictionary(d$X), "needs K")  # the heuristic lambda
  expect_error(facto_separable_data(10, 20, 5, kind = "midpoints"), class = "facto_error")
})

test_that("away-step and pairwise Frank-Wolfe reach the stationary point and report their gaps", {
  problem <- facto_simplicial_symnmf(affinity(), 3)
  stationarity <- function(variant) {
    solver <- facto_solver(problem, variant = variant, max_iterations = 300, tolerance = 1e-12,
                           objective_tolerance = 0)
    facto_solve(solver)
    gaps <- facto_output(solver, "gaps")
    p <- facto_progress(solver)
    expect_equal(dim(gaps), c(1, 3))
    # each gap a sum of terms nonnegative up to rounding
    expect_gte(gaps[1, 1], 0)
    expect_gte(gaps[1, 2], -1e-12 * p$objective)
    expect_gte(gaps[1, 3], gaps[1, 1] - 1e-12 * p$objective)
    p$stationarity
  }
  expect_gt(stationarity("vanilla"), 1e-8)
  expect_lte(stationarity("away"), 1e-12)
  expect_lte(stationarity("pairwise"), 1e-12)
  # a step rule the variant cannot take is refused when set
  expect_error(facto_solver(problem, variant = "pairwise", step_rule = "open_loop"), class = "facto_invalid_argument")
})

test_that("NOMAD separates two rings", {
  t <- 2 * pi * (0:99) / 100
  X <- rbind(cbind(cos(t), sin(t)), 0.5 * cbind(cos(t), sin(t)))  # Fig. 4: two rings, 200 points
  D <- facto_nomad_gram(X)
  expect_equal(D, t(D))
  expect_equal(unname(rowSums(D)), rep(0, 200), tolerance = 1e-12)
  solver <- facto_solver(facto_nomad(D, 16), "nomad_cgm", component_threshold = 1 / 16,
                        label_rule = "components")
  expect_equal(facto_solve(solver), "converged")
  Q <- facto_iterate(solver)
  expect_lt(abs(sum(D * Q) - 120.32), 0.6)  # the reference implementation's, within the duality gap 5e-3
  expect_lt(max(Q[1:100, 101:200]), 0.08 / 16)  # no mass between the rings: entries within are ~0.08
  expect_equal(facto_accuracy(facto_labels(solver), rep(1:2, each = 100)), 1)  # Q's connected components
  feasibility <- facto_output(solver, "feasibility")
  expect_lt(feasibility[3], 1e-10)
  expect_lt(feasibility[4], 1e-10)
  expect_error(facto_nomad(D, 201), class = "facto_error")
})

test_that("Burer-Monteiro NOMAD is feasible and multi-layer NOMAD stacks layers", {
  t <- 2 * pi * (0:49) / 50
  D <- facto_nomad_gram(rbind(cbind(cos(t), sin(t)), 0.5 * cbind(cos(t), sin(t))))
  solver <- facto_solver(facto_nomad(D, 8), "burer_monteiro")
  expect_equal(facto_solve(solver), "converged")
  Y <- facto_output(solver, "factor")
  expect_equal(dim(Y), c(100L, 24L))  # r = 3 K
  expect_true(all(Y >= 0))
  expect_equal(facto_iterate(solver), Y %*% t(Y), tolerance = 1e-12)
  feasibility <- facto_output(solver, "feasibility")
  expect_lte(feasibility[3], facto_get(solver, "feasibility_tolerance"))
  expect_lte(facto_progress(solver)$feasibility, facto_get(solver, "feasibility_tolerance"))
  # tolerance 0 is automatic: the progress carries the bound in force (1e-6 on the feasible factors)
  expect_equal(facto_progress(solver)$tolerance, 1e-6)
  expect_lte(facto_progress(solver)$stationarity, facto_progress(solver)$tolerance)
  expect_error(facto_nomad_layer(solver, 9), class = "facto_error")  # K must not grow
  facto_set(solver, "seed", 7)
  next_layer <- facto_solver_nomad_layer(solver, 4)  # the same algorithm and settings
  expect_identical(facto_get(next_layer, "seed"), 7L)
  expect_output(print(next_layer), "<facto solver burer_monteiro")
  layers <- facto_multilayer_nomad(D, c(8, 4), "burer_monteiro")
  expect_length(layers, 2)
  expect_equal(sum(diag(layers[[2]])), 4, tolerance = 1e-5)
  expect_equal(unname(rowSums(layers[[2]])), rep(1, 100), tolerance = 1e-5)
})

test_that("NOMAD on points keeps D implicit and finds separated blobs", {
  set.seed(3)
  X <- 20 * diag(10)[rep(1:4, each = 30), ] + matrix(rnorm(1200, sd = 0.3), 120, 10)
  problem <- facto_nomad_points(X, 4)
  solver <- facto_solver(problem, "burer_monteiro")
  expect_equal(facto_solve(solver), "converged")
  expect_equal(facto_accuracy(facto_labels(solver), rep(1:4, each = 30)), 1)
  Q <- facto_iterate(solver)
  expect_equal(facto_progress(solver)$objective, sum(facto_nomad_gram(X) * Q), tolerance = 1e-10)
  expect_equal(facto_objective(problem, Q), facto_objective(facto_nomad(facto_nomad_gram(X), 4), Q),
               tolerance = 1e-12)
  expect_error(facto_nomad_points(matrix(0, 5, 2), 2), class = "facto_error")
  # the same points as a sparse Matrix: their centring implicit, the same D to rounding
  if (requireNamespace("Matrix", quietly = TRUE))
    expect_equal(facto_objective(facto_nomad_points(Matrix::Matrix(X, sparse = TRUE), 4), Q),
                 facto_objective(problem, Q), tolerance = 1e-12)
})

test_that("topic modeling finds the planted anchor words and labels every document", {
  counts <- facto_read_mtx(data_file("planted_corpus.mtx"))
  truth <- read.csv(data_file("planted_corpus_labels.csv"))$label
  words <- paste0("w", 0:8)
  for (solver in c("merit", "spa", "snpa", "fast_anchor")) {
    model <- topic_model(counts, 3, algorithm = solver, vocabulary = words, min_df = 1)
    expect_equal(model$anchors, c("w0", "w1", "w2"))
    expect_equal(model$top_terms[, 1], c("w0", "w1", "w2"))
    expect_equal(rowSums(model$topics), rep(1, 3), tolerance = 1e-12)
    expect_equal(facto_accuracy(model$labels, truth), 1)
    expect_lt(model$coherence, 0)
  }
  dense <- topic_model(as.matrix(counts), 3, algorithm = "spa", min_df = 1)
  expect_equal(dense$anchors, 1:3)
})

test_that("communities recover planted memberships, SRC is 1, and bad energy is an error", {
  A <- facto_read_mtx(data_file("planted_graph.mtx.gz"))
  truth <- as.matrix(read.csv(data_file("planted_graph_membership.csv"), header = FALSE))
  for (solver in c("merit", "spa", "geonmf")) {
    found <- detect_communities(A, 3, algorithm = solver, energy = 1)
    expect_equal(found$pure_nodes, 1:3)
    expect_equal(unname(found$memberships), unname(truth), tolerance = 1e-8)
    expect_equal(facto_spearman(found$memberships, truth), 1, tolerance = 1e-12)
  }
  expect_error(facto_communities(A, 3, energy = 0), "energy")
  expect_equal(facto_accuracy(facto_kmeans(truth, 3, seed = 1), facto_kmeans(truth, 3, seed = 1)), 1)
})

test_that("the penalty method ends feasible", {
  solver <- facto_solver(facto_simplicial_symnmf(affinity(), 3), "penalty_method")
  expect_true(facto_solve(solver) %in% c("converged", "stalled"))
  tolerance <- facto_get(solver, "feasibility_tolerance")
  expect_lte(facto_progress(solver)$feasibility, tolerance)
  expect_lte(max(abs(rowSums(facto_iterate(solver)) - 1)), tolerance)
  expect_equal(facto_accuracy(facto_labels(solver), blobs()$y), 1)
})

test_that("Ctrl-C stops a long solve at the end of an iteration, with or without a callback", {
  t <- 2 * pi * (0:149) / 150
  X <- rbind(cbind(cos(t), sin(t)), 0.5 * cbind(cos(t), sin(t)))
  # nomad_cgm with every tolerance 0: ~15 ms per iteration, for hours (the time limit makes a failure end)
  solver <- facto_solver(facto_nomad(facto_nomad_gram(X), 16), "nomad_cgm", tolerance = 0,
                         feasibility_tolerance = 0, objective_tolerance = 0, max_iterations = 1e9,
                         time_limit = 60)
  interrupt_soon <- list(
    callback = function() facto_set_callback(solver, function(p) {  # SIGINT from inside the callback
      if (p$iteration == 3) tools::pskill(Sys.getpid(), tools::SIGINT)
      FALSE
    }),
    none = function() {  # SIGINT while facto computes, no R code running
      facto_set_callback(solver, NULL)
      system(sprintf("(sleep 0.5; kill -INT %d)", Sys.getpid()), wait = FALSE)  # system appends &
    })
  for (how in names(interrupt_soon)) {
    before <- facto_progress(solver)$iteration
    interrupt_soon[[how]]()
    caught <- tryCatch(facto_solve(solver), interrupt = function(e) e)
    expect_s3_class(caught, "facto_interrupt")
    p <- facto_progress(solver)
    expect_equal(p$stop_reason, "stopped_by_request", info = how)
    expect_gt(p$iteration, before)
    expect_true(all(is.finite(facto_iterate(solver))))
  }
  # an interrupt during facto_step ends that step; the next one runs
  facto_set_callback(solver, function(p) {
    tools::pskill(Sys.getpid(), tools::SIGINT)
    FALSE
  })
  expect_s3_class(tryCatch(facto_step(solver), interrupt = function(e) e), "facto_interrupt")
  facto_set_callback(solver, NULL)
  expect_equal(facto_step(solver), "running")
  facto_set(solver, "max_iterations", facto_progress(solver)$iteration + 3)  # it goes on, no request left
  expect_equal(facto_solve(solver), "iteration_limit")
})
