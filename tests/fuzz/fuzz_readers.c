/* libFuzzer harness of the file readers: the first input byte chooses the reader (facto_matrix_read of
 * a .npy or a .csv file, facto_sparse_read of a Matrix Market file), the rest is the file. A read that
 * succeeds must give finite values and a consistent shape (CSR: indptr nondecreasing from 0 to nnz,
 * columns in range and increasing within a row), and a dense matrix must come back unchanged through
 * facto_write_csv and facto_matrix_read; a failed one must leave *out NULL and give a message. Any
 * crash, leak, sanitizer report, or allocation beyond -rss_limit_mb (a size in a header trusted before
 * the memory estimate, which is held to FACTO_MEMORY_LIMIT_MB = 256 here) is a finding.
 * Build: cmake -DFACTO_FUZZ=ON with clang (tests/run.sh); corpus in tests/fuzz/corpus/readers. */
#define _POSIX_C_SOURCE 200809L /* setenv, getpid */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <facto/facto.h>

#define require(condition) \
    ((condition) ? (void)0 : (fprintf(stderr, "fuzz_readers: %s\n", #condition), __builtin_trap()))

static char path[4][512];
static const char* extensions[4] = {".npy", ".csv", ".mtx", ".round.csv"};

static void remove_scratch(void)
{
    for (int i = 0; i < 4; ++i) remove(path[i]);
}

/* A file of this process in the temporary directory, with the given extension (removed at exit). */
static const char* scratch(const char* extension)
{
    if (!path[0][0]) {
        const char* dir = getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp";
        for (int i = 0; i < 4; ++i)
            snprintf(path[i], sizeof path[i], "%s/facto_fuzz_readers_%ld%s", dir, (long)getpid(), extensions[i]);
        atexit(remove_scratch);
    }
    for (int i = 0; i < 4; ++i)
        if (!strcmp(extension, extensions[i])) return path[i];
    return NULL;
}

static void write_file(const char* path, const uint8_t* data, size_t size)
{
    FILE* f = fopen(path, "wb");
    require(f != NULL);
    require(fwrite(data, 1, size, f) == size);
    require(fclose(f) == 0);
}

static void check_dense(const char* path)
{
    facto_matrix* m = (facto_matrix*)&m; /* not NULL: a failed read must set it */
    const facto_status st = facto_matrix_read(path, &m);
    require((st == FACTO_OK) == (m != NULL));
    if (st != FACTO_OK) {
        require(facto_last_error()[0] != '\0');
        return;
    }
    int64_t rows = -1, cols = -1;
    require(facto_matrix_shape(m, &rows, &cols) == FACTO_OK && rows >= 0 && cols >= 0);
    const double* x = facto_matrix_data(m);
    for (int64_t i = 0; i < rows * cols; ++i) require(isfinite(x[i]));
    /* the round trip through CSV (17 significant digits) gives the same values */
    const char* copy = scratch(".round.csv");
    if (rows > 0 && cols > 0 && facto_write_csv(copy, x, rows, cols, cols, FACTO_ROW_MAJOR) == FACTO_OK) {
        facto_matrix* back = NULL;
        require(facto_matrix_read(copy, &back) == FACTO_OK);
        int64_t r = 0, c = 0;
        require(facto_matrix_shape(back, &r, &c) == FACTO_OK && r == rows && c == cols);
        require(memcmp(facto_matrix_data(back), x, sizeof(double) * (size_t)(rows * cols)) == 0 ||
                rows * cols == 0);
        facto_matrix_free(back);
    }
    facto_matrix_free(m);
}

static void check_sparse(const char* path)
{
    facto_sparse* m = (facto_sparse*)&m;
    const facto_status st = facto_sparse_read(path, &m);
    require((st == FACTO_OK) == (m != NULL));
    if (st != FACTO_OK) {
        require(facto_last_error()[0] != '\0');
        return;
    }
    int64_t rows = -1, cols = -1, nnz = -1;
    require(facto_sparse_shape(m, &rows, &cols, &nnz) == FACTO_OK && rows >= 0 && cols >= 0 && nnz >= 0);
    require(nnz <= 1 << 20);
    int64_t* indptr = malloc(sizeof(int64_t) * (size_t)(rows + 1));
    int64_t* indices = malloc(sizeof(int64_t) * (size_t)(nnz + 1));
    double* values = malloc(sizeof(double) * (size_t)(nnz + 1));
    require(facto_sparse_copy_csr(m, indptr, indices, values) == FACTO_OK);
    require(indptr[0] == 0 && indptr[rows] == nnz);
    for (int64_t i = 0; i < rows; ++i) {
        require(indptr[i] <= indptr[i + 1]);
        for (int64_t e = indptr[i]; e < indptr[i + 1]; ++e) {
            require(indices[e] >= 0 && indices[e] < cols);
            require(e == indptr[i] || indices[e - 1] < indices[e]);
            require(isfinite(values[e]));
        }
    }
    free(indptr);
    free(indices);
    free(values);
    facto_sparse_free(m);
}

/* facto's memory budget: a header may declare a legitimate matrix too large for the fuzzer's 2 GB (an
 * array of 2e9 empty rows needs 16 GB of row pointers), which must then be OUT_OF_MEMORY */
int LLVMFuzzerInitialize(int* argc, char*** argv)
{
    (void)argc;
    (void)argv;
    setenv("FACTO_MEMORY_LIMIT_MB", "256", 1);
    return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size)
{
    if (size == 0) return 0;
    const unsigned reader = data[0] % 3;
    const char* path = scratch(reader == 0 ? ".npy" : reader == 1 ? ".csv" : ".mtx");
    write_file(path, data + 1, size - 1);
    if (reader == 2)
        check_sparse(path);
    else
        check_dense(path);
    return 0;
}
