# The model-fitting interface: one function per job, taking R matrices (dense, data frames, or sparse
# Matrix objects), solving to the end and returning a "facto_fit" (a list with the answer in R's terms,
# 1-based, and the run's record) with print and summary methods. The handle API underneath
# (facto_solver, facto_step, ...) stays available for stepping and warm starts.

# Solves `problem` with `algorithm` ("auto": the library's default), the solver parameters `params` (a
# named list) and `callback` from
# n_init starts (seeds seed, seed + 1, ...; the default seed when params has none), keeps the best
# objective (the largest when maximize), reads the outputs named in `outputs` ("iterate" is the iterate; a
# function of the algorithm that ran gives them)
# and the model (list(kind, arrays), with `rule` applied to it when given), frees the handles, and
# returns make(values, run, model), the fit; run$trace is the kept start's objective by iteration. Ctrl-C
# ends the solve at the end of an iteration and raises the interrupt condition with the best fit so far,
# the partial one included, in its $fit. verbose: a message every 10 iterations (every one when verbose >= 2)
# and at each start's end, as the Python estimators print them.
solve_and_read <- function(problem, algorithm, params, callback, outputs, make, n_init = 1, maximize = FALSE,
                           rule = NULL, verbose = FALSE) {
  force(problem)  # before on.exit: a problem that fails to build is not built again there
  on.exit(facto_free(problem))
  n_init <- whole_number(n_init)
  if (n_init < 1) argument_error("n_init must be at least 1, got ", n_init)
  if (!(is.logical(verbose) || is.numeric(verbose)) || length(verbose) != 1 || is.na(verbose) || verbose < 0)
    argument_error("verbose must be TRUE, FALSE or a number of at least 0, got ", deparse(verbose))
  verbose <- as.numeric(verbose)
  every <- if (verbose >= 2) 1 else 10
  best <- NULL
  for (start in seq_len(n_init) - 1) {
    trace <- list()
    prefix <- NULL  # once the solver is made: the algorithm that runs
    recorder <- function(p) {
      trace[[length(trace) + 1L]] <<- c(p$iteration, p$objective)
      if (verbose > 0 && p$iteration %% every == 0)
        message(sprintf("%s iteration %d: objective %.8g, stationarity %.3g, %.1f s", prefix, as.integer(p$iteration),
                        p$objective, p$stationarity, p$elapsed_seconds))
      if (is.null(callback)) FALSE else callback(p)
    }
    solver <- do.call(facto_solver, c(list(problem, algorithm), params, list(callback = recorder)))
    seeded <- "seed" %in% facto_params(solver)$name
    ran <- checked(.Call(C_facto_r_solver_algorithm, solver$ptr))
    prefix <- sprintf("[%s]%s", ran,
                      if (n_init > 1 && seeded) sprintf(" start %d/%d", start + 1, n_init) else "")
    if (seeded && start > 0) facto_set(solver, "seed", facto_get(solver, "seed") + start)
    read <- function() {
      p <- facto_progress(solver)
      table <- facto_params(solver)
      steps <- do.call(rbind, trace)
      run <- list(algorithm = ran, stop_reason = p$stop_reason, iterations = as.integer(p$iteration),
                  objective = p$objective, stationarity = p$stationarity, feasibility = p$feasibility,
                  seconds = p$elapsed_seconds,
                  parameters = stats::setNames(lapply(table$name, function(n) facto_get(solver, n)), table$name),
                  defaults = stats::setNames(table$default, table$name),
                  trace = data.frame(iteration = if (is.null(steps)) integer() else as.integer(steps[, 1]),
                                     objective = if (is.null(steps)) numeric() else steps[, 2]))
      wanted <- if (is.function(outputs)) outputs(ran) else outputs
      values <- lapply(stats::setNames(wanted, wanted),
                       function(o) if (o == "iterate") facto_iterate(solver) else facto_output(solver, o))
      model <- checked(.Call(C_facto_r_solver_model, solver$ptr))[c("kind", "arrays")]
      list(values = values, run = run, model = if (is.null(rule)) model else rule(model))
    }
    better <- function(o) is.null(best) || (if (maximize) o > best$run$objective else o < best$run$objective)
    interrupted <- tryCatch({
      facto_solve(solver)
      NULL
    }, facto_interrupt = function(e) e)
    p <- facto_progress(solver)
    if (verbose > 0)
      message(sprintf("%s %s after %d iterations: objective %.8g", prefix, toupper(p$stop_reason),
                      as.integer(p$iteration), p$objective))
    if (better(p$objective)) best <- read()
    facto_free(solver)
    if (!is.null(interrupted)) {
      interrupted$fit <- make(best$values, best$run, best$model)
      interrupted$message <- sprintf("facto: interrupted at iteration %d; the partial fit is the condition's $fit",
                                     interrupted$fit$run$iterations)
      stop(interrupted)
    }
    if (!seeded) break
  }
  make(best$values, best$run, best$model)
}

# A fitted model applied to new data: list(rows, labels (1-based; NA where the job has none), residuals).
# newdata: a dense matrix (by_columns: its columns are the points) or a sparse one (Matrix, facto_sparse).
apply_model <- function(model, newdata) {
  if (inherits(newdata, c("facto_sparse", "sparseMatrix"))) {
    t <- as_triplets(newdata, "newdata")
    out <- checked(.Call(C_facto_r_model_apply, model, NULL, as.double(t$i), as.double(t$j), t$x, as.double(t$rows),
                         as.double(t$cols)))
  } else {
    if (is.null(dim(newdata)) && is.numeric(newdata))
      argument_error("newdata must be a matrix, one new point per row (per column for separable_nmf); got a ",
                     "vector of length ", length(newdata), ": use matrix(newdata, nrow = 1) for one point")
    out <- checked(.Call(C_facto_r_model_apply, model, numeric_matrix(newdata, "newdata"), NULL, NULL, NULL, NULL,
                         NULL))
  }
  labels <- as.integer(out[[2]]) + 1L
  labels[labels == 0L] <- NA_integer_
  list(rows = out[[1]], labels = labels, residuals = out[[3]])
}

new_fit <- function(class, values, run, call, model = NULL, residuals = NULL)
  structure(c(values, list(run = run, call = call, model = model, residuals = residuals)), class = c(class, "facto_fit"))

# 1-based labels from facto's 0-based ones.
one_based <- function(labels) as.integer(labels) + 1L

# The names of the points (rows) of x; none for a data frame's automatic row names.
point_names <- function(x) if (is.data.frame(x) && .row_names_info(x) < 0) NULL else rownames(x)

# m with the row names `names` (when there are some).
named_rows <- function(m, names) {
  if (!is.null(names)) rownames(m) <- names
  m
}

# The fit of a factorization whose rows are the points (W of simplicial SymNMF, X of SymNMF): the factor,
# named `factor`, each row's largest column as its label, the model and the residuals of the fitted rows.
row_factor_fit <- function(class, factor, problem, data, points, algorithm, params, callback, call, n_init,
                           verbose)
  solve_and_read(problem, algorithm, params, callback, c("iterate", "labels"), function(v, run, model)
    new_fit(class, stats::setNames(list(named_rows(v$iterate, points), stats::setNames(one_based(v$labels), points)),
                                   c(factor, "labels")), run, call, model,
            stats::setNames(apply_model(model, data)$residuals, points)), n_init = n_init, verbose = verbose)

simplicial_symnmf <- function(P, k, algorithm = "auto", ..., n_init = 1, callback = NULL, verbose = FALSE) {
  call <- match.call()  # here: a promise of it would be evaluated in another frame
  row_factor_fit("facto_simplicial_symnmf", "W", facto_simplicial_symnmf(P, k), P, point_names(P), algorithm,
                 list(...), callback, call, n_init, verbose)
}

symnmf <- function(M, r, algorithm = "auto", ..., n_init = 1, callback = NULL, verbose = FALSE) {
  call <- match.call()
  row_factor_fit("facto_symnmf", "X", facto_symnmf(M, r), M, point_names(M), algorithm, list(...), callback, call,
                 n_init, verbose)
}

# The fit of a simplicial_symnmf or symnmf made from the affinity that facto_gaussian_affinity (affinity =
# "rbf") or facto_knn_similarity ("knn") built from the features X: predict then takes new points' features.
# A sparse X (dgCMatrix, facto_sparse) of an unscaled kNN graph stays sparse in the model.
facto_use_features <- function(fit, X, affinity = c("rbf", "knn"), bandwidth = NULL,
                               scaling = c("auto", "minmax", "zscore", "none"), k = 0,
                               similarity = c("auto", "gaussian", "cosine"), search = c("auto", "exact", "hnsw")) {
  if (!inherits(fit, c("facto_simplicial_symnmf", "facto_symnmf")))
    argument_error("facto_use_features is for simplicial_symnmf and symnmf fits, not ", class(fit)[1])
  affinity <- match.arg(affinity)
  scaling <- SCALINGS[[match.arg(scaling)]]
  if (affinity == "knn" && inherits(X, c("facto_sparse", "sparseMatrix"))) {
    t <- as_triplets(X)
    settings <- as.double(c(whole_number(k), SIMILARITIES[[match.arg(similarity)]], scaling, SEARCHES[[match.arg(search)]]))
    fit$model <- checked(.Call(C_facto_r_model_rule, fit$model, "sparse_knn", t$x, as.double(t$i), as.double(t$j),
                               as.double(c(t$rows, t$cols)), settings))[c("kind", "arrays")]
    return(fit)
  }
  X <- numeric_matrix(X)
  fit$model <- if (affinity == "rbf")
    checked(.Call(C_facto_r_model_rule, fit$model, "rbf", X, bandwidth_code(bandwidth), scaling, NULL, NULL))
  else checked(.Call(C_facto_r_model_rule, fit$model, "knn", X, whole_number(k),
                     SIMILARITIES[[match.arg(similarity)]], scaling, SEARCHES[[match.arg(search)]]))
  fit$model <- fit$model[c("kind", "arrays")]
  fit
}

# The columns `columns` of a numeric matrix, a Matrix or a facto_sparse (from its triplets, duplicates
# summed), as a dense matrix.
dense_columns <- function(X, columns) {
  if (!inherits(X, "facto_sparse")) return(as.matrix(X[, columns, drop = FALSE]))
  t <- as_triplets(X)
  keep <- t$j %in% columns
  W <- matrix(0, t$rows, length(columns))
  for (e in which(keep)) W[t$i[e], match(t$j[e], columns)] <- W[t$i[e], match(t$j[e], columns)] + t$x[e]
  W
}

separable_nmf <- function(X, K, algorithm = "auto", lambda = NULL, mu = NULL, ..., n_init = 1, callback = NULL,
                          verbose = FALSE) {
  call <- match.call()
  if (!inherits(X, c("facto_sparse", "sparseMatrix"))) X <- numeric_matrix(X)  # a sparse X stays sparse
  solve_and_read(facto_self_dictionary(X, K, lambda, mu), algorithm, list(...), callback, c("selected", "H"),
                 function(v, run, model) {
                   anchors <- one_based(v$selected)
                   H <- v$H
                   dimnames(H) <- list(colnames(X)[anchors], colnames(X))
                   W <- dense_columns(X, anchors)
                   new_fit("facto_separable_nmf", list(anchors = anchors, W = W, H = H),
                           run, call, model, stats::setNames(apply_model(model, X)$residuals, colnames(X)))
                 }, n_init = n_init, verbose = verbose)
}

nomad <- function(x, K, algorithm = "auto", gram = FALSE, assign_labels = c("kmeans", "components"), certify = TRUE,
                  ..., n_init = 1, callback = NULL, verbose = FALSE) {
  call <- match.call()
  assign_labels <- match.arg(assign_labels)
  points <- point_names(x)
  sparse <- !gram && inherits(x, c("facto_sparse", "sparseMatrix"))  # sparse points stay sparse
  if (!sparse) x <- numeric_matrix(x)
  if (!gram && !sparse && nrow(x) == ncol(x) && nrow(x) > 2 && isSymmetric(unname(x)))
    warning("x is square and symmetric: if it is NOMAD's D rather than points, set gram = TRUE", call. = FALSE)
  problem <- if (gram) facto_nomad(x, K) else facto_nomad_points(x, K)
  rule <- function(model) {  # the clusters' means of the points, or each cluster's mean of D (gram)
    if (!sparse) return(.Call(C_facto_r_model_rule, model, if (gram) "gram" else "points", x, NULL, NULL, NULL, NULL))
    t <- as_triplets(x)
    .Call(C_facto_r_model_rule, model, "sparse_points", t$x, as.double(t$i), as.double(t$j), as.double(c(t$rows, t$cols)),
          NULL)
  }
  outputs <- function(ran)  # burer_monteiro keeps its factor Y, the others Q
    c(if (ran == "burer_monteiro") "factor" else "Q", if (assign_labels == "components") "labels", "embedding",
      "feasibility", if (certify) "upper_bound")
  params <- c(list(...), if (assign_labels == "components") list(label_rule = "components"))
  solve_and_read(problem, algorithm, params, callback, outputs, function(v, run, model) {
    kept <- if (is.null(v$factor)) "Q" else "factor"
    labels <- if (assign_labels == "components") one_based(v$labels)
              else facto_kmeans(v[[kept]], K, seed = run$parameters$seed)
    model <- checked(rule(list(kind = "nomad", arrays = list(labels = labels - 1, embedding = v$embedding))))[c("kind",
                                                                                                             "arrays")]
    values <- list(labels = stats::setNames(labels, points), embedding = named_rows(v$embedding, points),
                   feasibility = stats::setNames(as.numeric(v$feasibility), c("rms_negative", "max_negative",
                                                                               "row_sums", "trace")),
                   upper_bound = if (certify) as.numeric(v$upper_bound) else NA_real_,
                   centers = if (gram) NULL else model$arrays$centers)
    values[[kept]] <- named_rows(v[[kept]], points)
    new_fit("facto_nomad", values, run, call, model, stats::setNames(apply_model(model, x)$residuals, points))
  }, n_init = n_init, maximize = TRUE, verbose = verbose)
}

# The observed pairs i < j of a dissimilarity matrix: a dense matrix whose NA entries are unobserved, or a
# sparse Matrix whose stored entries are observed. A pair given in both triangles must agree (1e-9 relative).
observed_pairs <- function(x) {
  if (inherits(x, "nsparseMatrix")) argument_error("x is a pattern matrix: it holds no distances")
  names <- point_names(x)
  if (inherits(x, "sparseMatrix")) {
    t <- as_triplets(x, "x")
  } else {
    x <- numeric_matrix(x)
    t <- list(i = as.vector(row(x)), j = as.vector(col(x)), x = as.vector(x), rows = nrow(x), cols = ncol(x))
  }
  if (t$rows != t$cols) argument_error("x must be square, got ", t$rows, " x ", t$cols)
  keep <- !is.na(t$x) & t$i != t$j
  i <- pmin(t$i, t$j)[keep]
  j <- pmax(t$i, t$j)[keep]
  d <- t$x[keep]
  if (any(!is.finite(d) | d < 0)) {
    k <- which(!is.finite(d) | d < 0)[1]
    argument_error("distances must be finite and nonnegative, got ", d[k], " for the pair (", i[k], ", ", j[k], ")")
  }
  key <- (j - 1) * t$rows + i
  first <- match(key, key)
  clash <- which(abs(d - d[first]) > 1e-9 * pmax(d, d[first]))
  if (length(clash)) argument_error(sprintf("the pair (%d, %d) is given two distances, %g and %g", i[clash[1]],
                                            j[clash[1]], d[first[clash[1]]], d[clash[1]]))
  unique_ <- !duplicated(key)
  list(n = t$rows, i = i[unique_], j = j[unique_], d = d[unique_], names = names)
}

edm_completion <- function(x, r, algorithm = "auto", squared = FALSE, ..., n_init = 1, callback = NULL,
                           verbose = FALSE) {
  call <- match.call()
  p <- observed_pairs(x)
  d <- if (squared) p$d else p$d^2
  solve_and_read(facto_edm_completion(p$n, r, p$i, p$j, d), algorithm, list(...), callback, "iterate",
                 function(v, run, model) {
                   X <- v$iterate  # each point's sum of squared errors over its observed pairs
                   e2 <- (rowSums((X[p$i, , drop = FALSE] - X[p$j, , drop = FALSE])^2) - d)^2
                   residuals <- as.vector(tapply(c(e2, e2), factor(c(p$i, p$j), levels = seq_len(p$n)), sum,
                                                 default = 0))
                   new_fit("facto_edm_completion", list(X = named_rows(X, p$names), pairs = length(p$i),
                                                        squared = squared),
                           run, call, model, stats::setNames(residuals, p$names))
                 }, n_init = n_init, verbose = verbose)
}

topic_model <- function(counts, K, algorithm = "auto", vocabulary = NULL, min_df = NULL, rank = NULL, lambda = NULL,
                        mu = NULL, refine = NULL, ..., n_init = 1, callback = NULL, verbose = FALSE) {
  call <- match.call()
  if (is.null(vocabulary) && !inherits(counts, "facto_sparse")) vocabulary <- colnames(counts)
  terms <- if (inherits(counts, "facto_sparse")) counts$ncol else ncol(counts)
  if (!is.null(vocabulary) && length(vocabulary) != terms)
    argument_error("vocabulary has ", length(vocabulary), " words for ", terms, " terms (columns of counts)")
  outputs <- c("selected", "topics", "top_terms", "document_topics", "labels", "coherence", "umass_coherence",
               "similarity_count")
  solve_and_read(facto_topics(counts, K, min_df, rank, lambda, mu, refine), algorithm, list(...), callback, outputs,
                 function(v, run, model) {
                   name <- function(columns) if (is.null(vocabulary)) columns
                                             else matrix(vocabulary[columns], nrow(columns))
                   anchors <- one_based(v$selected)
                   labels <- one_based(v$labels)
                   labels[labels == 0L] <- NA_integer_  # a document without a kept term
                   topics <- v$topics
                   colnames(topics) <- vocabulary
                   values <- list(anchors = if (is.null(vocabulary)) anchors else vocabulary[anchors], topics = topics,
                                  top_terms = name(matrix(one_based(v$top_terms), nrow = K)),
                                  document_topics = v$document_topics, labels = labels,
                                  coherence = as.numeric(v$coherence), umass_coherence = as.numeric(v$umass_coherence),
                                  similarity_count = as.numeric(v$similarity_count))
                   new_fit("facto_topic_model", values, run, call, model, apply_model(model, counts)$residuals)
                 }, n_init = n_init, verbose = verbose)
}

detect_communities <- function(A, K, algorithm = "auto", energy = NULL, lambda = NULL, mu = NULL, ...,
                               n_init = 1, callback = NULL, verbose = FALSE) {
  call <- match.call()
  solve_and_read(facto_communities(A, K, energy, lambda, mu), algorithm, list(...), callback,
                 c("selected", "memberships", "labels", "nodes"),
                 function(v, run, model)
                   new_fit("facto_communities", list(pure_nodes = one_based(v$selected), memberships = v$memberships,
                                                     labels = one_based(v$labels), nodes_kept = one_based(v$nodes)),
                           run, call, model, apply_model(model, A)$residuals), n_init = n_init, verbose = verbose)
}

# "n x m" for a matrix, "length n" for a vector, the value for a scalar.
shape <- function(v) {
  if (is.matrix(v)) sprintf("%d x %d matrix", nrow(v), ncol(v))
  else if (length(v) == 1) format(v, digits = 6)
  else sprintf("%s vector of length %d", typeof(v), length(v))
}

fit_kind <- function(x) sub("^facto_", "", class(x)[1])

print.facto_fit <- function(x, ...) {
  r <- x$run
  cat(sprintf("facto %s fit by %s: %s after %d iterations (%.3g s)\n", fit_kind(x), r$algorithm, r$stop_reason,
              r$iterations, r$seconds))
  cat(sprintf("objective %.8g, stationarity %.3g\n", r$objective, r$stationarity))
  parts <- setdiff(names(x), c("run", "call", "model"))
  for (n in parts) cat(sprintf("  $%s: %s\n", n, shape(x[[n]])))
  invisible(x)
}

summary.facto_fit <- function(object, ...) {
  r <- object$run
  defaults <- r$defaults[names(r$parameters)]
  differs <- function(value, default) {
    if (!is.numeric(value)) return(!identical(as.character(value), default))
    d <- suppressWarnings(as.numeric(default))
    is.na(d) || abs(value - d) > 1e-12 * abs(d)  # the table prints defaults to 15 digits
  }
  parameters <- data.frame(name = names(r$parameters), stringsAsFactors = FALSE,
                           value = unname(vapply(r$parameters, function(v) format(v, digits = 10), "")),
                           default = unname(defaults),
                           changed = unname(mapply(differs, r$parameters, defaults)))
  structure(class = "summary.facto_fit",
            list(kind = fit_kind(object), call = object$call,
                 run = r[c("algorithm", "stop_reason", "iterations", "objective", "stationarity", "feasibility",
                           "seconds")],
                 parameters = parameters,
                 cluster_sizes = if (!is.null(object$labels)) table(object$labels, useNA = "ifany"),
                 upper_bound = object$upper_bound, anchors = object$anchors, pairs = object$pairs))
}

print.summary.facto_fit <- function(x, ...) {
  cat("facto", x$kind, "fit\n\nCall:\n")
  print(x$call)
  r <- x$run
  cat(sprintf("\nAlgorithm %s: %s after %d iterations in %.3g s\n", r$algorithm, r$stop_reason, r$iterations,
              r$seconds))
  cat(sprintf("Objective %.10g, stationarity %.3g, feasibility %.3g\n", r$objective, r$stationarity, r$feasibility))
  if (!is.null(x$upper_bound) && is.finite(x$upper_bound))
    cat(sprintf("Upper bound of the optimum %.10g ((U - f)/|f| = %.3g%s)\n", x$upper_bound,
                (x$upper_bound - r$objective) / max(.Machine$double.xmin, abs(r$objective)),
                if (x$upper_bound < r$objective) ": Q's infeasibility; the bound holds for feasible Q"
                else ""))
  if (!is.null(x$anchors)) cat("Anchors:", utils::head(x$anchors, 20), if (length(x$anchors) > 20) "...", "\n")
  if (!is.null(x$pairs)) cat("Observed pairs:", x$pairs, "\n")
  if (!is.null(x$cluster_sizes)) {
    cat("Cluster sizes:\n")
    print(x$cluster_sizes)
  }
  changed <- x$parameters[x$parameters$changed, c("name", "value", "default")]
  cat("\nParameters set (", nrow(changed), " of ", nrow(x$parameters), " differ from the defaults):\n", sep = "")
  if (nrow(changed)) print(changed, row.names = FALSE)
  invisible(x)
}

# ---- the fitted model on new data, and the usual accessors

# New points through the fit's model: their cluster (type "class", 1-based; NA where the job has none),
# their rows ("rows": memberships, coefficients, topic proportions, positions or NOMAD's embedding) or
# residuals. newdata is what the fit took, for new points: affinity rows to the fitted points
# (simplicial_symnmf, symnmf; features after facto_use_features), points (nomad; new rows of D with gram =
# TRUE), data columns (separable_nmf), counts (topic_model), edges to the fitted nodes (detect_communities),
# squared distances to the fitted points (edm_completion; NA or unstored where unobserved).
predict.facto_fit <- function(object, newdata, type = c("class", "rows", "residuals"), ...) {
  type <- match.arg(type)
  if (missing(newdata)) argument_error("predict needs newdata, the new points (fitted(object) gives the fitted ones)")
  if (is.null(object$model)) argument_error("this fit has no model (it was made by an older facto)")
  if (inherits(object, "facto_edm_completion") && !inherits(newdata, c("facto_sparse", "sparseMatrix"))) {
    newdata <- numeric_matrix(newdata, "newdata")
    if (!isTRUE(object$squared)) newdata <- newdata^2
    at <- which(!is.na(newdata), arr.ind = TRUE)
    newdata <- facto_sparse(at[, 1], at[, 2], newdata[at], nrow(newdata), ncol(newdata))
  }
  applied <- apply_model(object$model, newdata)
  switch(type, class = applied$labels, rows = applied$rows, residuals = applied$residuals)
}

# The fitted points' rows: W, X, t(H), the document topics, the memberships, NOMAD's embedding, EDM's X.
fitted.facto_fit <- function(object, ...) {
  switch(fit_kind(object), simplicial_symnmf = object$W, symnmf = object$X, separable_nmf = t(object$H),
         topic_model = object$document_topics, communities = object$memberships, nomad = object$embedding,
         edm_completion = object$X)
}

# The model's parameters: the factor (W, X), the anchors' columns (separable_nmf), the topics, NOMAD's
# cluster centers (points; NULL on a Gram matrix), EDM's positions; memberships for communities.
coef.facto_fit <- function(object, ...) {
  switch(fit_kind(object), simplicial_symnmf = object$W, symnmf = object$X, separable_nmf = object$W,
         topic_model = object$topics, communities = object$memberships, nomad = object$centers,
         edm_completion = object$X)
}

# One row per fitted point: its label (where the job has labels), its row of fitted() and its residual.
as.data.frame.facto_fit <- function(x, row.names = NULL, optional = FALSE, ...) {
  rows <- fitted(x)
  if (is.null(colnames(rows))) colnames(rows) <- paste0(if (fit_kind(x) == "edm_completion") "x" else "v",
                                                        seq_len(ncol(rows)))
  out <- data.frame(rows, check.names = !optional)
  if (!is.null(x$labels)) out <- cbind(label = as.vector(x$labels), out)
  if (!is.null(x$residuals)) out$residual <- as.vector(x$residuals)
  if (!is.null(row.names)) rownames(out) <- row.names
  out
}

# The objective by iteration (the kept start's), and the fit itself: rows of fitted() as an image
# (memberships, coefficients), or the embedding's first two columns coloured by label (nomad, edm).
plot.facto_fit <- function(x, which = c("objective", "fit"), ...) {
  which <- match.arg(which, several.ok = TRUE)
  old <- graphics::par(mfrow = c(1, length(which)))
  on.exit(graphics::par(old))
  if ("objective" %in% which) {
    t <- x$run$trace
    if (nrow(t)) graphics::plot(t$iteration, t$objective, type = "l", xlab = "iteration", ylab = "objective",
                                main = paste(fit_kind(x), x$run$algorithm))
    else graphics::plot.new()
  }
  if ("fit" %in% which) {
    rows <- fitted(x)
    if (fit_kind(x) %in% c("nomad", "edm_completion")) {
      second <- if (ncol(rows) > 1) rows[, 2] else rep(0, nrow(rows))
      colour <- if (is.null(x$labels)) 1 else as.integer(factor(x$labels))
      graphics::plot(rows[, 1], second, col = colour, pch = 19, xlab = "1", ylab = "2", main = "embedding")
    } else {
      order <- if (is.null(x$labels)) seq_len(nrow(rows)) else order(x$labels)
      graphics::image(seq_len(ncol(rows)), seq_len(nrow(rows)), t(rows[order, , drop = FALSE]), xlab = "component",
                      ylab = "point (by label)", main = "fitted rows")
    }
  }
  invisible(x)
}

# The fit's model saved as the command line's --save-model does (facto --apply reads it), and read back as
# a "facto_model" that predict() takes (saveRDS(fit) keeps it too).
# training_features = FALSE leaves a feature rule's copy of the fitted points out (the model then takes
# affinity rows).
facto_save_model <- function(fit, directory, training_features = TRUE) {
  settings <- sprintf('{"fit": "%s", "algorithm": "%s"}', fit_kind(fit), fit$run$algorithm)
  checked(.Call(C_facto_r_model_save, fit$model, path.expand(directory), settings, isTRUE(training_features)))
  invisible(directory)
}

# What a fit's or a loaded model's model holds: the library's JSON (arrays, what each holds, what predict
# takes), with the attribute training_features, TRUE when a copy of the fitted points is among them.
facto_describe_model <- function(x) {
  model <- if (inherits(x, "facto_model")) unclass(x)[c("kind", "arrays")] else x$model
  json <- checked(.Call(C_facto_r_model_describe, model))
  structure(json, class = "facto_description", training_features = grepl('"training_features": true', json, fixed = TRUE))
}

print.facto_description <- function(x, ...) {
  cat(unclass(x), "\n", sep = "")
  invisible(x)
}

facto_load_model <- function(directory) {
  m <- checked(.Call(C_facto_r_model_load, path.expand(directory)))
  structure(class = "facto_model", m)
}

predict.facto_model <- function(object, newdata, type = c("class", "rows", "residuals"), ...) {
  type <- match.arg(type)
  applied <- apply_model(unclass(object)[c("kind", "arrays")], newdata)
  switch(type, class = applied$labels, rows = applied$rows, residuals = applied$residuals)
}

print.facto_model <- function(x, ...) {
  cat(sprintf("facto %s model: %s\n", x$kind, paste(names(x$arrays), collapse = ", ")))
  invisible(x)
}

# ---- choosing k

# The consensus of clusterings of the same points (one per row; NA labels share with nothing): its
# matrix and stability scores (cophenetic correlation, dispersion; both 1 when every clustering agrees).
facto_consensus <- function(labels) {
  labels <- as.matrix(labels)
  labels[is.na(labels)] <- 0
  out <- checked(.Call(C_facto_r_consensus, labels - 1))
  list(consensus = out[[1]], cophenetic = out[[2]], dispersion = out[[3]])
}

# fit(x, k, seed = ...) for each k in ks, n_init times (seeds seed, seed + 1, ...): the best objective, the
# consensus's cophenetic correlation and dispersion, and the best run's coherence for topic models. fit is
# one of the fitting functions (simplicial_symnmf, symnmf, nomad, topic_model, ...); `...` go to it.
# Read with plot() and best_k(): stability criteria favour the k before they first drop (Brunet et al.),
# the objective its elbow; see docs/architecture.md, "Choosing k", for when each misleads.
facto_select_k <- function(fit, x, ks, n_init = 10, seed = 0, ...) {
  fit <- match.fun(fit)
  rows <- lapply(ks, function(k) {
    runs <- lapply(seq_len(n_init) - 1, function(r) fit(x, k, seed = seed + r, ...))
    labels <- do.call(rbind, lapply(runs, function(f) as.vector(f$labels)))
    objectives <- vapply(runs, function(f) f$run$objective, 0)
    best <- if (inherits(runs[[1]], "facto_nomad")) which.max(objectives) else which.min(objectives)
    scores <- facto_consensus(labels)
    data.frame(k = k, objective = objectives[best], cophenetic = scores$cophenetic, dispersion = scores$dispersion,
               coherence = if (is.null(runs[[best]]$umass_coherence)) NA_real_ else runs[[best]]$umass_coherence)
  })
  table <- do.call(rbind, rows)
  if (all(is.na(table$coherence))) table$coherence <- NULL
  structure(table, class = c("facto_select_k", "data.frame"),
            maximize = identical(match.fun(fit), nomad))
}

best_k <- function(x, criterion = c("dispersion", "cophenetic", "objective", "coherence")) {
  criterion <- match.arg(criterion)
  v <- x[[criterion]]
  if (criterion == "coherence") return(x$k[which.max(v)])
  steps <- diff(v)
  if (criterion == "objective") return(x$k[which.max(if (isTRUE(attr(x, "maximize"))) steps else -steps) + 1])
  falls <- which(-steps > 1e-9)
  if (!length(falls)) return(NA_integer_)
  x$k[falls[1]]
}

plot.facto_select_k <- function(x, ...) {
  criteria <- intersect(c("objective", "cophenetic", "dispersion", "coherence"), names(x))
  old <- graphics::par(mfrow = c(1, length(criteria)))
  on.exit(graphics::par(old))
  for (criterion in criteria) graphics::plot(x$k, x[[criterion]], type = "b", xlab = "k", ylab = criterion,
                                             main = criterion)
  invisible(x)
}
