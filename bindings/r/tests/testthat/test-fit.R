# Tests of the fit functions: R inputs (data frames, dense and sparse Matrix objects), what they return,
# and their print and summary methods.

test_that("simplicial_symnmf returns W on the simplex, its labels and the run; print and summary show them", {
  fit <- simplicial_symnmf(as.data.frame(affinity()), 3, max_iterations = 400, seed = 1)
  expect_s3_class(fit, c("facto_simplicial_symnmf", "facto_fit"))
  expect_equal(dim(fit$W), c(90, 3))
  expect_equal(rowSums(fit$W), rep(1, 90), tolerance = 1e-12)
  expect_identical(fit$labels, max.col(fit$W, ties.method = "first"))
  expect_equal(facto_accuracy(fit$labels, blobs()$y), 1)
  expect_identical(fit$run$parameters$max_iterations, 400L)
  expect_equal(fit$run$objective, 0.25 * sum((affinity() - fit$W %*% t(fit$W))^2), tolerance = 1e-10)
  expect_output(print(fit), "simplicial_symnmf fit by frank_wolfe")
  expect_output(print(fit), "\\$W: 90 x 3 matrix")
  s <- summary(fit)
  expect_equal(as.vector(s$cluster_sizes), c(30, 30, 30))
  expect_setequal(s$parameters$name[s$parameters$changed], c("max_iterations", "seed"))
  expect_output(print(s), "Cluster sizes")
  expect_output(print(s), "max_iterations +400 +1000")
})

test_that("symnmf takes a dgCMatrix or a one-triangle dsCMatrix and gives the dense matrix's fit", {
  skip_if_not_installed("Matrix")
  d <- blobs()
  graph <- facto_knn_similarity(d$X)
  general <- Matrix::sparseMatrix(i = graph$i, j = graph$j, x = graph$x, dims = c(90, 90))
  upper <- Matrix::triu(general)
  symmetric <- Matrix::forceSymmetric(upper, uplo = "U")
  expect_s4_class(symmetric, "dsCMatrix")
  dense <- symnmf(as.matrix(graph), 3, seed = 2, max_iterations = 50)
  for (M in list(general, symmetric)) {
    fit <- symnmf(M, 3, seed = 2, max_iterations = 50)
    expect_s3_class(fit, "facto_symnmf")
    expect_equal(fit$X, dense$X, tolerance = 1e-10)
  }
  expect_equal(facto_accuracy(symnmf(general, 3, seed = 2)$labels, d$y), 1)
  expect_error(symnmf(general[, 1:80], 3), "square")
  expect_error(symnmf(matrix("a", 3, 3), 1), "numeric matrix")
})

test_that("separable_nmf finds the planted anchors and X = W H", {
  d <- facto_separable_data(50, 55, 10, kind = "midpoints", seed = 3)
  fit <- separable_nmf(d$X, 10)
  expect_s3_class(fit, "facto_separable_nmf")
  expect_equal(fit$anchors, d$anchors)
  expect_identical(fit$W, d$X[, d$anchors])
  expect_equal(fit$W %*% fit$H, d$X, tolerance = 1e-8)
  expect_output(print(summary(fit)), "Anchors:")
  expect_equal(separable_nmf(d$X, 10, "spa")$anchors, d$anchors)
})

test_that("separable_nmf keeps a sparse Matrix sparse and finds the dense data's anchors", {
  skip_if_not_installed("Matrix")
  set.seed(4)
  topics <- matrix(0, 40, 4)  # each anchor on its own 10 of 40 features
  for (t in 1:4) topics[(10 * t - 9):(10 * t), t] <- runif(10) + 0.5
  mix <- runif(36)
  weights <- cbind(diag(4), sapply(1:36, function(l) {
    w <- numeric(4); w[(l - 1) %% 4 + 1] <- mix[l]; w[l %% 4 + 1] <- w[l %% 4 + 1] + 1 - mix[l]; w
  }))
  dense <- topics %*% weights
  X <- Matrix::Matrix(dense, sparse = TRUE)
  for (algorithm in c("snpa", "spa")) {
    fit <- separable_nmf(X, 4, algorithm)
    expect_equal(fit$anchors, 1:4)
    expect_equal(fit$anchors, separable_nmf(dense, 4, algorithm)$anchors)
    expect_equal(fit$W, dense[, 1:4])
    expect_equal(fit$H, separable_nmf(dense, 4, algorithm)$H, tolerance = 1e-10)
  }
  expect_error(separable_nmf(X, 4, "merit"), "on sparse X take spa")
  # a facto_sparse of the same triplets: the same anchors, W and residuals as the Matrix's
  s <- Matrix::summary(X)
  by_triplets <- separable_nmf(facto_sparse(s$i, s$j, s$x, nrow(X), ncol(X)), 4)
  by_matrix <- separable_nmf(X, 4)
  expect_equal(by_triplets$anchors, by_matrix$anchors)
  expect_equal(by_triplets$W, by_matrix$W)
  expect_equal(residuals(by_triplets), residuals(by_matrix))
  expect_equal(predict(by_matrix, X[, 5:9], type = "rows"), predict(by_matrix, dense[, 5:9], type = "rows"),
               tolerance = 1e-10)
})

test_that("nomad clusters points and a Gram matrix, with a certified upper bound", {
  set.seed(3)
  X <- 20 * diag(10)[rep(1:4, each = 30), ] + matrix(rnorm(1200, sd = 0.3), 120, 10)
  fit <- nomad(X, 4, "burer_monteiro")  # the factored solver: its factor Y (the default, above 50 points too)
  expect_s3_class(fit, "facto_nomad")
  expect_identical(fit$run$stop_reason, "converged")
  expect_equal(facto_accuracy(fit$labels, rep(1:4, each = 30)), 1)
  expect_equal(nrow(fit$factor), 120)
  expect_gte(ncol(fit$factor), 4)
  expect_true(all(fit$factor >= 0))
  # Q is feasible to 1e-5 of K / n per row, so Tr(D Q) may pass the bound by that times ||D||_1 / n
  expect_gte(fit$upper_bound, fit$run$objective * (1 - 1e-4))
  expect_named(fit$feasibility, c("rms_negative", "max_negative", "row_sums", "trace"))
  expect_output(print(summary(fit)), "Upper bound of the optimum")
  # the same points as a dgCMatrix stay sparse: the same labels, the same centers, new points alike
  sparse_fit <- nomad(Matrix::Matrix(X, sparse = TRUE), 4, "burer_monteiro")
  expect_identical(sparse_fit$labels, fit$labels)
  expect_equal(sparse_fit$centers, fit$centers, tolerance = 1e-12)
  expect_identical(predict(sparse_fit, Matrix::Matrix(X[1:9, ], sparse = TRUE)), predict(fit, X[1:9, ]))

  angle <- 2 * pi * (0:99) / 100
  rings <- rbind(cbind(cos(angle), sin(angle)), 0.5 * cbind(cos(angle), sin(angle)))
  gram <- nomad(facto_nomad_gram(rings), 16, gram = TRUE, assign_labels = "components", component_threshold = 1 / 16)
  expect_identical(gram$run$algorithm, "burer_monteiro")  # auto above 50 points: the factor, not Q
  expect_equal(nrow(gram$factor), 200)
  expect_equal(facto_accuracy(gram$labels, rep(1:2, each = 100)), 1)
  expect_lte(gram$run$objective, gram$upper_bound)
})

test_that("edm_completion embeds the Helix from a matrix with NA or from a sparse Matrix", {
  points <- facto_helix(150, seed = 3)
  p <- facto_sample_pairs(points, 0.25, seed = 4)
  D <- matrix(NA_real_, 150, 150)
  D[cbind(p$i, p$j)] <- sqrt(p$d)
  D[cbind(p$j, p$i)] <- sqrt(p$d)
  fit <- edm_completion(D, 3, max_iterations = 20000, tolerance = 1e-9)
  expect_s3_class(fit, "facto_edm_completion")
  expect_identical(fit$pairs, length(p$i))
  expect_lt(facto_distance_nrmse(fit$X, points), 1e-6)
  expect_output(print(summary(fit)), paste("Observed pairs:", length(p$i)))
  skip_if_not_installed("Matrix")
  S <- Matrix::sparseMatrix(i = p$i, j = p$j, x = p$d, dims = c(150, 150))  # one triangle, squared
  sparse <- edm_completion(S, 3, squared = TRUE, max_iterations = 20000, tolerance = 1e-9)
  expect_lt(facto_distance_nrmse(sparse$X, points), 1e-6)
  D[p$j[1], p$i[1]] <- 2 * D[p$i[1], p$j[1]] + 1
  expect_error(edm_completion(D, 3), "given two distances")
  expect_error(edm_completion(-abs(D), 3), "nonnegative")
})

test_that("topic_model and detect_communities take sparse Matrix input", {
  skip_if_not_installed("Matrix")
  counts <- as.matrix(facto_read_mtx(data_file("planted_corpus.mtx")))
  model <- topic_model(Matrix::Matrix(counts, sparse = TRUE), 3, min_df = 1)
  expect_s3_class(model, "facto_topic_model")
  expect_equal(model$anchors, 1:3)
  A <- facto_read_mtx(data_file("planted_graph.mtx.gz"))
  found <- detect_communities(Matrix::sparseMatrix(i = A$i, j = A$j, x = A$x, dims = c(A$n, A$n)), 3, energy = 1)
  expect_equal(found$pure_nodes, 1:3)
  expect_output(print(found), "communities fit by merit")
})

test_that("bad input is an error naming the user's argument and call, never a silent edit", {
  P <- affinity()
  bad <- P
  bad[3, ] <- NA
  bad[, 3] <- NA
  e <- tryCatch(detect_communities(bad, 3), facto_error = function(e) e)  # dense NA reaches the library
  expect_s3_class(e, "facto_not_finite")
  expect_identical(e$call[[1]], as.name("detect_communities"))
  expect_error(simplicial_symnmf(P, 3, "frank_wolfe", 5), "by name")
  expect_error(simplicial_symnmf(P, 3, max_iterations = 5, max_iterations = 7), "given twice")
  expect_error(symnmf(P, 2.7), "r must be one whole number")
  expect_error(symnmf(P, NA), "r must be one whole number")
  expect_error(nomad(iris, 3), "x has columns that are not numeric: Species")
  expect_error(separable_nmf(t(P), 0), "needs K")
  D <- as.matrix(dist(facto_helix(10, seed = 1)))
  D[1, 2] <- Inf
  expect_error(edm_completion(D, 3), "finite and nonnegative")
  D[1, 2] <- D[2, 1]
  diag(D) <- -1  # the diagonal is ignored
  expect_s3_class(edm_completion(D, 3, max_iterations = 10), "facto_edm_completion")
  expect_error(topic_model(matrix(1, 4, 6), 2, vocabulary = c("a", "b")), "2 words for 6 terms")
  skip_if_not_installed("Matrix")
  expect_error(edm_completion(Matrix::sparseMatrix(i = 1, j = 2, dims = c(3, 3)), 2), "pattern")
})

test_that("row names and column names carry over; a document without a kept term has label NA", {
  P <- affinity()
  dimnames(P) <- list(paste0("p", 1:90), paste0("p", 1:90))
  fit <- symnmf(P, 3, seed = 1, max_iterations = 20)
  expect_identical(rownames(fit$X), rownames(P))
  expect_identical(names(fit$labels), rownames(P))
  counts <- rbind(diag(3)[rep(1:3, each = 4), ] * 5, 0)  # the last document has no term
  colnames(counts) <- c("x", "y", "z")
  model <- topic_model(counts, 3, "spa", min_df = 1)
  expect_setequal(model$anchors, c("x", "y", "z"))
  expect_identical(colnames(model$topics), c("x", "y", "z"))
  expect_true(is.na(model$labels[13]))
  expect_false(anyNA(model$labels[1:12]))
})

test_that("Ctrl-C during a fit raises the interrupt with the partial fit", {
  t <- 2 * pi * (0:149) / 150
  D <- facto_nomad_gram(rbind(cbind(cos(t), sin(t)), 0.5 * cbind(cos(t), sin(t))))
  interrupt_at_3 <- function(p) {
    if (p$iteration == 3) tools::pskill(Sys.getpid(), tools::SIGINT)
    FALSE
  }
  caught <- tryCatch(nomad(D, 16, "nomad_cgm", gram = TRUE, tolerance = 0, feasibility_tolerance = 0, objective_tolerance = 0,
                           max_iterations = 1e9, time_limit = 60, callback = interrupt_at_3),
                     interrupt = function(e) e)
  expect_s3_class(caught, "facto_interrupt")
  expect_s3_class(caught$fit, "facto_nomad")
  expect_identical(caught$fit$run$stop_reason, "stopped_by_request")
  expect_identical(caught$fit$run$iterations, 3L)
  expect_equal(dim(caught$fit$Q), c(300, 300))
})

test_that("verbose reports progress as messages without changing the fit", {
  d <- facto_separable_data(50, 55, 10, kind = "midpoints", seed = 3)
  quiet <- separable_nmf(d$X, 10, "merit", max_iterations = 25)
  # the solve's messages come from inside the C callback, outside R's condition handlers: captured by a
  # sink on stderr, not by capture_messages
  shown <- capture.output(loud <- separable_nmf(d$X, 10, "merit", max_iterations = 25, verbose = TRUE),
                          type = "message")
  expect_equal(loud$anchors, quiet$anchors)
  expect_identical(loud$run$iterations, quiet$run$iterations)
  expect_match(shown[1], "^\\[merit\\] iteration 10: objective ")
  expect_length(grep("^\\[merit\\] iteration", shown), loud$run$iterations %/% 10)
  expect_match(shown[length(shown)], sprintf("^\\[merit\\] %s after %d iterations", toupper(loud$run$stop_reason),
                                             loud$run$iterations))
  every <- capture.output(separable_nmf(d$X, 10, max_iterations = 3, verbose = 2), type = "message")
  expect_length(grep("iteration [123]:", every), 3)
  expect_length(capture.output(separable_nmf(d$X, 10, max_iterations = 3), type = "message"), 0)
  for (bad in list(NA, "yes", c(TRUE, FALSE), -1, NULL))
    expect_error(separable_nmf(d$X, 10, verbose = bad), "verbose must be TRUE, FALSE or a number")
})
