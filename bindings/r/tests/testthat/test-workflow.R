# The workflow around a fit: predict on new data, restarts, choosing k, saved models, the accessors and
# plots.

held_out <- function() {
  b <- blobs()
  test <- seq_len(nrow(b$X)) %% 5 == 1
  list(X = b$X[!test, ], y = b$y[!test], X_new = b$X[test, ], y_new = b$y[test])
}

test_that("held-out blobs get their blob through every clustering model", {
  d <- held_out()
  fits <- list(
    facto_use_features(symnmf(facto_knn_similarity(d$X), 3, seed = 1), d$X, affinity = "knn"),
    facto_use_features(simplicial_symnmf(facto_gaussian_affinity(d$X, 4, "none"), 3), d$X, bandwidth = 4,
                       scaling = "none"),
    nomad(d$X, 3))
  for (fit in fits) {
    predicted <- predict(fit, d$X_new)
    expect_equal(facto_accuracy(c(fit$labels, predicted), c(d$y, d$y_new)), 1)
    expect_equal(nrow(predict(fit, d$X_new, type = "rows")), nrow(d$X_new))
    expect_true(all(predict(fit, d$X_new, type = "residuals") >= 0))
  }
  expect_error(predict(fits[[3]], d$X_new[, 1:2]), "features")
})

test_that("nomad predicts by the nearest center, and its coef are the centers", {
  b <- blobs()
  fit <- nomad(b$X, 3)
  centers <- coef(fit)
  expect_equal(dim(centers), c(3L, ncol(b$X)))
  nearest <- apply(b$X, 1, function(x) which.min(colSums((t(centers) - x)^2)))
  expect_equal(predict(fit, b$X), nearest)
  expect_equal(ncol(fit$embedding), 2L)  # K - 1
})

test_that("fitted, coef, residuals and as.data.frame give the fit's parts, plot draws it", {
  fit <- simplicial_symnmf(affinity(), 3)
  expect_identical(fitted(fit), fit$W)
  expect_identical(coef(fit), fit$W)
  expect_length(residuals(fit), nrow(fit$W))
  frame <- as.data.frame(fit)
  expect_equal(names(frame), c("label", "v1", "v2", "v3", "residual"))
  expect_equal(frame$label, as.vector(fit$labels))
  expect_gt(nrow(fit$run$trace), 10)
  grDevices::pdf(NULL)
  on.exit(grDevices::dev.off())
  expect_silent(plot(fit))
  expect_silent(plot(nomad(blobs()$X, 3), which = "fit"))
})

test_that("n_init = 1 is a plain fit and more starts never do worse", {
  M <- facto_knn_similarity(blobs()$X)
  plain <- symnmf(M, 4, seed = 5)
  expect_identical(symnmf(M, 4, seed = 5, n_init = 1)$X, plain$X)
  singles <- vapply(5:8, function(s) symnmf(M, 4, seed = s)$run$objective, 0)
  expect_equal(symnmf(M, 4, seed = 5, n_init = 4)$run$objective, min(singles))
})

test_that("facto_select_k finds the blobs; identical restarts are perfectly stable", {
  b <- blobs()
  # burer_monteiro: restarts of the default, the certified SDP optimum, agree at every k
  table <- facto_select_k(nomad, b$X, 2:5, n_init = 4, algorithm = "burer_monteiro")
  expect_s3_class(table, "facto_select_k")
  expect_equal(best_k(table, "dispersion"), 3)
  expect_equal(best_k(table, "objective"), 3)
  grDevices::pdf(NULL)
  on.exit(grDevices::dev.off())
  expect_silent(plot(table))
  same <- facto_consensus(rbind(c(1, 1, 2, 2), c(1, 1, 2, 2)))
  expect_equal(c(same$cophenetic, same$dispersion), c(1, 1))
})

test_that("a fit saved with saveRDS or as a model directory predicts identically", {
  d <- held_out()
  fit <- nomad(d$X, 3)
  path <- tempfile(fileext = ".rds")
  saveRDS(fit, path)
  expect_identical(predict(readRDS(path), d$X_new), predict(fit, d$X_new))
  dir <- tempfile()
  facto_save_model(fit, dir)
  model <- facto_load_model(dir)
  expect_s3_class(model, "facto_model")
  expect_identical(predict(model, d$X_new), predict(fit, d$X_new))
  expect_error(facto_load_model(tempfile()), "model.json", class = "facto_error")
})

test_that("a model says it holds the training points and saves without them", {
  d <- held_out()
  fit <- facto_use_features(symnmf(facto_knn_similarity(d$X), 3, seed = 1), d$X, affinity = "knn")
  expect_true(attr(facto_describe_model(fit), "training_features"))
  expect_match(facto_describe_model(fit), sprintf('"name": "knn_features", "rows": %d, "cols": %d', nrow(d$X), ncol(d$X)),
               fixed = TRUE)
  full <- tempfile()
  bare <- tempfile()
  facto_save_model(fit, full)
  facto_save_model(fit, bare, training_features = FALSE)
  expect_true(file.exists(file.path(full, "knn_features.npy")))
  model <- facto_load_model(bare)
  expect_identical(names(model$arrays), "H")
  expect_false(attr(facto_describe_model(model), "training_features"))
  expect_error(predict(model, d$X_new), "fitted points", class = "facto_error")
})

# A float64 array as numpy.save writes it: a model file edited by hand.
write_npy <- function(path, x) {
  header <- sprintf("{'descr': '<f8', 'fortran_order': False, 'shape': (%d, %d), }", nrow(x), ncol(x))
  header <- paste0(header, strrep(" ", 127 - 10 - nchar(header)), "\n")
  con <- file(path, "wb")
  on.exit(close(con))
  writeBin(c(as.raw(c(0x93, charToRaw("NUMPY"), 1, 0)), writeBin(nchar(header), raw(), size = 2, endian = "little"),
             charToRaw(header)), con)
  writeBin(as.vector(t(x)), con, size = 8, endian = "little")
}

test_that("a saved model edited by hand or by a hostile file is refused, never followed out of its directory", {
  d <- held_out()
  fit <- facto_use_features(symnmf(facto_knn_similarity(d$X), 3, seed = 1), d$X, affinity = "knn")
  dir <- tempfile()
  facto_save_model(fit, dir)
  n <- nrow(d$X)
  write_npy(file.path(dir, "knn_settings.npy"), matrix(c(1000, 0, 7), 1))
  expect_error(facto_load_model(dir), sprintf("'knn_settings' holds k = 1000: it must be an integer in \\[1, %d\\]", n - 1),
               class = "facto_error")
  for (name in c("H", "knn_features", "knn_settings", "knn_scale", "knn_degree"))
    write_npy(file.path(dir, paste0(name, ".npy")), matrix(0.5, 1, if (name == "knn_settings") 3 else 1))
  expect_error(facto_load_model(dir), "kNN rule needs at least 2 fitted points", class = "facto_error")
  outside <- tempfile(fileext = ".npy")
  write_npy(outside, matrix(1, n, 3))
  unlink(file.path(dir, "H.npy"))
  file.symlink(outside, file.path(dir, "H.npy"))
  expect_error(facto_load_model(dir), "symbolic link", class = "facto_error")
  users <- tempfile()
  dir.create(users)
  writeLines("the user's data", file.path(users, "H.npy"))
  expect_error(facto_save_model(fit, users), "is not a file of the facto model", class = "facto_error")
  expect_identical(readLines(file.path(users, "H.npy")), "the user's data")
})

test_that("topics and communities of new documents and nodes", {
  counts <- facto_read_mtx(data_file("planted_corpus.mtx"))
  fit <- topic_model(counts, 3, algorithm = "spa", min_df = 1)
  expect_equal(predict(fit, counts), fit$labels)
  expect_equal(fit$umass_coherence, fit$coherence / 2)
  expect_true(is.na(predict(fit, matrix(0, 1, 9))))
})

test_that("a vector where a matrix is needed is named as such", {
  expect_error(facto_gaussian_affinity(blobs()$X[, 1], 1), "vector of length 90.*matrix\\(")
})
