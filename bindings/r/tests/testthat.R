library(testthat)
library(facto)
test_check("facto")
