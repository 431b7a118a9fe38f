# Shared by the test files: facto's test data and the blobs affinity.
data_dir <- Sys.getenv("FACTO_TEST_DATA")

# A file of facto's test data (tests/data); the test is skipped where it is not given (R CMD check of a
# tarball on its own).
data_file <- function(...) {
  skip_if(data_dir == "", "FACTO_TEST_DATA not set (CTest sets it)")
  file.path(data_dir, ...)
}

blobs <- function() {
  X <- as.matrix(read.csv(data_file("blobs.csv")))
  list(X = X, y = scan(data_file("blobs_labels.csv"), quiet = TRUE))
}

affinity <- function() facto_gaussian_affinity(blobs()$X, bandwidth = 4, scaling = "none")
