/* libFuzzer harness of saved models (facto_model_load): the input is a model directory, as records of
 * [file, 1 byte][length, 2 bytes little-endian][contents]. The file byte's low five bits choose the name
 * (model.json or one of the kinds' arrays, NAME.npy), its next two bits what is made there: a regular file
 * with the contents, a symbolic link to a valid array outside the directory, a FIFO, or a directory.
 * Invariants besides the sanitizers: a failed load leaves *out NULL with a message and is no internal
 * error; a loaded model's arrays are regular files of the directory, its apply_columns succeeds, and
 * applying it to new data of every width its arrays suggest (dense and sparse) gives finite rows and
 * residuals and labels >= -1, or a clear error; it saves, and loads back with the same kind and arrays.
 * Build: cmake -DFACTO_FUZZ=ON with clang (tests/run.sh); corpus in tests/fuzz/corpus/models, made by
 * tests/fuzz/seed_models.py and grown by tests/fuzz/grow.sh models. */
#define _POSIX_C_SOURCE 200809L /* mkfifo, symlink, lstat */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <facto/facto.h>

#define require(condition) \
    ((condition) ? (void)0 : (fprintf(stderr, "fuzz_models: %s\n", #condition), __builtin_trap()))

/* Every name a model directory may hold: model.json, then each kind's arrays (src/models/model.hpp). */
static const char* names[] = {"model.json",   "W",          "H",           "X",            "topics",
                              "idf",          "extension",  "pure",        "labels",       "embedding",
                              "within",       "centers",    "center_labels", "rbf_features", "rbf_scaling",
                              "rbf_settings", "knn_features", "knn_settings", "knn_scale",  "knn_degree",
                              "knn_scaling",  "knn_csr_indptr", "knn_csr_indices", "knn_csr_data", "knn_csr_shape"};
enum { name_count = sizeof names / sizeof names[0] };

static char model_dir[512], saved_dir[512], outside[512];

static void path_of(char* out, size_t size, const char* dir, int name)
{
    if (name == 0)
        snprintf(out, size, "%s/model.json", dir);
    else
        snprintf(out, size, "%s/%s.npy", dir, names[name]);
}

static void clear(const char* dir)
{
    char path[640];
    for (int i = 0; i < name_count; ++i) {
        path_of(path, sizeof path, dir, i);
        if (remove(path) != 0) rmdir(path);
    }
}

static void remove_all(void)
{
    clear(model_dir);
    clear(saved_dir);
    rmdir(model_dir);
    rmdir(saved_dir);
    remove(outside);
}

/* A valid 1 x 1 float64 array outside the model directory, for links to point at. */
static void setup(void)
{
    if (model_dir[0]) return;
    const char* tmp = getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp";
    snprintf(model_dir, sizeof model_dir, "%s/facto_fuzz_model_%ld", tmp, (long)getpid());
    snprintf(saved_dir, sizeof saved_dir, "%s/facto_fuzz_saved_%ld", tmp, (long)getpid());
    snprintf(outside, sizeof outside, "%s/facto_fuzz_outside_%ld.npy", tmp, (long)getpid());
    require(mkdir(model_dir, 0700) == 0);
    char npy[128 + 8] = "\x93NUMPY\x01\x00\x76\x00";
    const char* header = "{'descr': '<f8', 'fortran_order': False, 'shape': (1, 1), }";
    memset(npy + 10, ' ', 118);
    memcpy(npy + 10, header, strlen(header));
    npy[127] = '\n';
    memset(npy + 128, 0, 8);
    FILE* f = fopen(outside, "wb");
    require(f && fwrite(npy, 1, sizeof npy, f) == sizeof npy && fclose(f) == 0);
    atexit(remove_all);
}

/* The directory the input describes. */
static void make_directory(const uint8_t* data, size_t size)
{
    clear(model_dir);
    char path[640];
    while (size >= 3) {
        const int name = (data[0] & 31) % name_count, what = (data[0] >> 5) & 3;
        size_t length = (size_t)data[1] | (size_t)data[2] << 8;
        data += 3, size -= 3;
        if (length > size) length = size;
        path_of(path, sizeof path, model_dir, name);
        if (remove(path) != 0) rmdir(path);
        if (what == 0) {
            FILE* f = fopen(path, "wb");
            require(f != NULL);
            require(fwrite(data, 1, length, f) == length && fclose(f) == 0);
        } else if (what == 1) {
            require(symlink(outside, path) == 0);
        } else if (what == 2) {
            require(mkfifo(path, 0600) == 0);
        } else {
            require(mkdir(path, 0700) == 0);
        }
        data += length, size -= length;
    }
}

static int all_finite(const double* x, int64_t n)
{
    for (int64_t i = 0; i < n; ++i)
        if (!isfinite(x[i])) return 0;
    return 1;
}

/* Applies the model to q new points of `width` (self_dictionary: width x q, its points being columns),
 * dense and sparse, with small nonnegative integer values (counts, for topics) drawn from the input. */
static void apply(facto_model* model, int64_t width, int64_t columns, const uint8_t* data, size_t size)
{
    const int columns_are_points = strcmp(facto_model_kind(model), "self_dictionary") == 0;
    const int64_t q = 3, rows = columns_are_points ? width : q, cols = columns_are_points ? q : width;
    double* Y = malloc(sizeof(double) * (size_t)(rows * cols));
    int64_t* ptr = malloc(sizeof(int64_t) * (size_t)(rows + 1));
    int64_t* idx = malloc(sizeof(int64_t) * (size_t)(rows * cols));
    double* values = malloc(sizeof(double) * (size_t)(rows * cols));
    double* out = malloc(sizeof(double) * (size_t)(q * columns + 1));
    int64_t labels[3];
    double residuals[3];
    require(Y && ptr && idx && values && out);
    int64_t nnz = 0;
    ptr[0] = 0;
    for (int64_t i = 0; i < rows; ++i) {
        for (int64_t j = 0; j < cols; ++j) {
            const size_t at = (size_t)(i * cols + j);
            Y[at] = size ? (double)(data[at % size] & 3) : 1.0;
            if (Y[at] != 0.0) idx[nnz] = j, values[nnz++] = Y[at];
        }
        ptr[i + 1] = nnz;
    }
    for (int sparse = 0; sparse < 2; ++sparse) {
        const facto_status st =
            sparse ? facto_model_apply_sparse(model, FACTO_SPARSE_CSR, rows, cols, nnz, ptr, idx, values, out,
                                              q * columns, labels, residuals)
                   : facto_model_apply(model, Y, rows, cols, cols, FACTO_ROW_MAJOR, out, q * columns, labels, residuals);
        require(st != FACTO_ERROR_INTERNAL);
        if (st != FACTO_OK) {
            require(facto_model_last_error(model)[0] != '\0');
            continue;
        }
        require(all_finite(out, q * columns) && all_finite(residuals, q));
        for (int64_t l = 0; l < q; ++l) require(labels[l] >= -1);
    }
    free(Y), free(ptr), free(idx), free(values), free(out);
}

/* A copy of array `index` of the model: its name, shape and values (the caller frees them). */
static double* array_of(const facto_model* model, int64_t index, const char** name, int64_t* rows, int64_t* cols)
{
    require(facto_model_array_name(model, index, name) == FACTO_OK);
    require(facto_model_array_shape(model, *name, rows, cols) == FACTO_OK && *rows >= 1 && *cols >= 1);
    double* values = malloc(sizeof(double) * (size_t)(*rows * *cols));
    require(values && facto_model_copy_array(model, *name, values, *rows * *cols) == FACTO_OK);
    return values;
}

int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size)
{
    setenv("FACTO_MEMORY_LIMIT_MB", "256", 1);
    setup();
    make_directory(data, size);
    facto_model* model = (facto_model*)&model; /* not NULL: a failed load must set it */
    const facto_status st = facto_model_load(model_dir, &model);
    require((st == FACTO_OK) == (model != NULL));
    if (st != FACTO_OK) {
        require(st != FACTO_ERROR_INTERNAL && facto_last_error()[0] != '\0');
        return 0;
    }
    int64_t count = 0, columns = 0;
    require(facto_model_array_count(model, &count) == FACTO_OK && count >= 1);
    require(facto_model_apply_columns(model, &columns) == FACTO_OK && columns >= 1);
    /* every array came from a regular file of the directory, and is finite within facto's input bound */
    int64_t widths[2 * name_count], width_count = 0;
    for (int64_t a = 0; a < count; ++a) {
        const char* name = NULL;
        int64_t rows = 0, cols = 0;
        double* values = array_of(model, a, &name, &rows, &cols);
        for (int64_t e = 0; e < rows * cols; ++e) require(fabs(values[e]) <= 1e100);
        free(values);
        char path[640];
        struct stat info;
        snprintf(path, sizeof path, "%s/%s.npy", model_dir, name);
        require(lstat(path, &info) == 0 && S_ISREG(info.st_mode));
        for (int side = 0; side < 2; ++side) {
            const int64_t w = side ? cols : rows;
            int seen = 0;
            for (int64_t i = 0; i < width_count; ++i) seen |= widths[i] == w;
            if (!seen && w <= 4096) widths[width_count++] = w;
        }
    }
    for (int64_t i = 0; i < width_count; ++i) apply(model, widths[i], columns, data, size);
    /* what load accepts, save writes and load gives back, bit for bit */
    clear(saved_dir);
    require(facto_model_save(model, saved_dir, NULL) == FACTO_OK);
    facto_model* again = NULL;
    require(facto_model_load(saved_dir, &again) == FACTO_OK);
    require(strcmp(facto_model_kind(again), facto_model_kind(model)) == 0);
    int64_t count_again = 0;
    require(facto_model_array_count(again, &count_again) == FACTO_OK && count_again == count);
    for (int64_t a = 0; a < count; ++a) {
        const char *name = NULL, *name_again = NULL;
        int64_t rows = 0, cols = 0, rows_again = 0, cols_again = 0;
        double* values = array_of(model, a, &name, &rows, &cols);
        double* values_again = array_of(again, a, &name_again, &rows_again, &cols_again);
        require(strcmp(name, name_again) == 0 && rows == rows_again && cols == cols_again);
        require(memcmp(values, values_again, sizeof(double) * (size_t)(rows * cols)) == 0);
        free(values), free(values_again);
    }
    facto_model_free(again);
    facto_model_free(model);
    return 0;
}
