# The model-fitting interface: one function per job, taking R matrices (dense, data frames, or sparse
# Matrix objects), solving to the end and returning a "facto_fit" (a list with the answer in R's terms,
# 1-based, and the run's record) with print and summary methods. The handle API underneath
# (facto_solver, facto_step, ...) stays available for stepping and warm starts.

# Solves `problem` with `algorithm`, the solver parameters `params` (a named list) and `callback`, reads the
# outputs named in `outputs` ("iterate" is the iterate), frees both handles, and returns make(values, run),
# the fit. Ctrl-C ends the solve at the end of an iteration and raises the interrupt condition with the
# partial fit in its $fit.
solve_and_read <- function(problem, algorithm, params, callback, outputs, make) {
  force(problem)  # before on.exit: a problem that fails to build is not built again there
  on.exit(facto_free(problem))
  solver <- do.call(facto_solver, c(list(problem, algorithm), params, list(callback = callback)))
  on.exit(facto_free(solver), add = TRUE)
  read <- function() {
    p <- facto_progress(solver)
    table <- facto_params(solver)
    run <- list(algorithm = algorithm, stop_reason = p$stop_reason, iterations = as.integer(p$iteration),
                objective = p$objective, stationarity = p$stationarity, feasibility = p$feasibility,
                seconds = p$elapsed_seconds,
                parameters = stats::setNames(lapply(table$name, function(n) facto_get(solver, n)), table$name),
                defaults = stats::setNames(table$default, table$name))
    values <- lapply(stats::setNames(outputs, outputs),
                     function(o) if (o == "iterate") facto_iterate(solver) else facto_output(solver, o))
    make(values, run)
  }
  tryCatch(facto_solve(solver), facto_interrupt = function(e) {
    e$fit <- read()
    e$message <- sprintf("facto: interrupted at iteration %d; the partial fit is the condition's $fit",
                         e$fit$run$iterations)
    stop(e)
  })
  read()
}

new_fit <- function(class, values, run, call)
  structure(c(values, list(run = run, call = call)), class = c(class, "facto_fit"))

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
# named `factor`, and each row's largest column as its label.
row_factor_fit <- function(class, factor, problem, points, algorithm, params, callback, call)
  solve_and_read(problem, algorithm, params, callback, c("iterate", "labels"), function(v, run)
    new_fit(class, stats::setNames(list(named_rows(v$iterate, points), stats::setNames(one_based(v$labels), points)),
                                   c(factor, "labels")), run, call))

simplicial_symnmf <- function(P, k, algorithm = "frank_wolfe", ..., callback = NULL) {
  call <- match.call()  # here: a promise of it would be evaluated in another frame
  row_factor_fit("facto_simplicial_symnmf", "W", facto_simplicial_symnmf(P, k), point_names(P), algorithm, list(...),
                 callback, call)
}

symnmf <- function(M, r, algorithm = "nolips", ..., callback = NULL) {
  call <- match.call()
  row_factor_fit("facto_symnmf", "X", facto_symnmf(M, r), point_names(M), algorithm, list(...), callback, call)
}

separable_nmf <- function(X, K, algorithm = "merit", lambda = NULL, mu = 1e-5, ..., callback = NULL) {
  call <- match.call()
  X <- numeric_matrix(X)
  solve_and_read(facto_self_dictionary(X, K, lambda, mu), algorithm, list(...), callback, c("selected", "H"),
                 function(v, run) {
                   anchors <- one_based(v$selected)
                   H <- v$H
                   dimnames(H) <- list(colnames(X)[anchors], colnames(X))
                   new_fit("facto_separable_nmf", list(anchors = anchors, W = X[, anchors, drop = FALSE], H = H),
                           run, call)
                 })
}

nomad <- function(x, K, algorithm = NULL, gram = FALSE, assign_labels = c("kmeans", "components"), certify = TRUE,
                  ..., callback = NULL) {
  call <- match.call()
  assign_labels <- match.arg(assign_labels)
  points <- point_names(x)
  x <- numeric_matrix(x)
  if (!gram && nrow(x) == ncol(x) && nrow(x) > 2 && isSymmetric(unname(x)))
    warning("x is square and symmetric: if it is NOMAD's D rather than points, set gram = TRUE", call. = FALSE)
  if (is.null(algorithm)) algorithm <- if (gram) "nomad_cgm" else "burer_monteiro"
  kept <- if (algorithm == "burer_monteiro") "factor" else "Q"
  problem <- if (gram) facto_nomad(x, K) else facto_nomad_points(x, K)
  outputs <- c(kept, "labels", "embedding", "feasibility", if (certify) "upper_bound")
  solve_and_read(problem, algorithm, list(...), callback, outputs, function(v, run) {
    labels <- if (assign_labels == "components") one_based(v$labels)
              else facto_kmeans(v[[kept]], K, seed = run$parameters$seed)
    values <- list(labels = stats::setNames(labels, points), embedding = named_rows(v$embedding, points),
                   feasibility = stats::setNames(as.numeric(v$feasibility), c("rms_negative", "max_negative",
                                                                               "row_sums", "trace")),
                   upper_bound = if (certify) as.numeric(v$upper_bound) else NA_real_)
    values[[kept]] <- named_rows(v[[kept]], points)
    new_fit("facto_nomad", values, run, call)
  })
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

edm_completion <- function(x, r, algorithm = "nolips", squared = FALSE, ..., callback = NULL) {
  call <- match.call()
  p <- observed_pairs(x)
  d <- if (squared) p$d else p$d^2
  solve_and_read(facto_edm_completion(p$n, r, p$i, p$j, d), algorithm, list(...), callback, "iterate",
                 function(v, run)
                   new_fit("facto_edm_completion", list(X = named_rows(v$iterate, p$names), pairs = length(p$i)),
                           run, call))
}

topic_model <- function(counts, K, algorithm = "merit", vocabulary = NULL, min_df = 2, rank = 0, lambda = 5e-7,
                        mu = 1e-5, ..., callback = NULL) {
  call <- match.call()
  if (is.null(vocabulary) && !inherits(counts, "facto_sparse")) vocabulary <- colnames(counts)
  terms <- if (inherits(counts, "facto_sparse")) counts$ncol else ncol(counts)
  if (!is.null(vocabulary) && length(vocabulary) != terms)
    argument_error("vocabulary has ", length(vocabulary), " words for ", terms, " terms (columns of counts)")
  outputs <- c("selected", "topics", "top_terms", "document_topics", "labels", "coherence", "similarity_count")
  solve_and_read(facto_topics(counts, K, min_df, rank, lambda, mu), algorithm, list(...), callback, outputs,
                 function(v, run) {
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
                                  coherence = as.numeric(v$coherence), similarity_count = as.numeric(v$similarity_count))
                   new_fit("facto_topic_model", values, run, call)
                 })
}

detect_communities <- function(A, K, algorithm = "merit", energy = 0.99, lambda = 5e-7, mu = 1e-5, ...,
                               callback = NULL) {
  call <- match.call()
  solve_and_read(facto_communities(A, K, energy, lambda, mu), algorithm, list(...), callback,
                 c("selected", "memberships", "labels", "nodes"),
                 function(v, run)
                   new_fit("facto_communities", list(pure_nodes = one_based(v$selected), memberships = v$memberships,
                                                     labels = one_based(v$labels), nodes_kept = one_based(v$nodes)),
                           run, call))
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
  parts <- setdiff(names(x), c("run", "call"))
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
    cat(sprintf("Upper bound of the optimum %.10g (relative gap %.3g%s)\n", x$upper_bound,
                (x$upper_bound - r$objective) / max(1, abs(x$upper_bound)),
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
