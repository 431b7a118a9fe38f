// [NFW]'s real-data experiments (Sec. V-B, V-C) on merit/ of the benchmark data directory
// (measure.hpp's data_dir; benchmarks/README.md lists the files):
//   topics DATASET TRIALS FG_TRIALS CSV [K...]   Table II: coherence, similarity count and
//       clustering accuracy for K = 3..10 (or the Ks given) over the authors' K-topic subsets (trials
//       1..TRIALS; FastGradient on the first FG_TRIALS only: it costs O(M N^2) per iteration), each
//       method's mean and standard deviation; rows already in CSV are kept, so a stopped run resumes;
//   communities CSV                       Tables III-IV: nodes kept at 99% energy and SRC on DBLP1-5;
//   defaults [SECONDS] [JOB]              MERIT's previous and current defaults and SPA on TDT2's and
//       Reuters' first K = 10 subsets and all of TDT2 (JOB topics) and on DBLP1-5 (JOB communities), each
//       solve within SECONDS (600); both jobs when JOB is not given;
//   memory CSV                            Figs. 6-7: peak memory and time against the vocabulary
//       size N (TDT2, every document, K = 10, N set by min_df), MERIT against FastGradient (refused by the
//       memory check where its three N x N arrays do not fit), SPA as the reference of the same run; each
//       run in a fresh process (memory-one MIN_DF ALGORITHM).
// The protocol is the authors' (docs/nfw_real_data.md): MERIT with lambda = 1e-6, mu = 1e-5 in
// their objective and its counter run to 100 (120 on DBLP) as their code does (authors_merit), MERIT(0)
// with lambda = 0, FastGradient 50 iterations (20 on DBLP), SPA, SNPA as "XRAY", FastAnchor (with
// facto's topics and with its authors'); on topics also "MERIT-c (converged)", MERIT's corrective steps at
// the authors' lambda to facto's own stop, with facto's selection; accuracy by k-means (10 replicates) on the documents' topic weights scaled
// to unit norm, averaged over 10 clusterings.
#include <algorithm>
#include <cmath>
#include <malloc.h>
#include <cstdio>
#include <fstream>
#include <map>
#include <memory>
#include <sstream>
#include <string>
#include <tuple>
#include <vector>

#include <xtensor/xadapt.hpp>
#include <xtensor/xsort.hpp>
#include <xtensor/xview.hpp>

#include "data/data.hpp"
#include "base/error.hpp"
#include "data/input_file.hpp"
#include "linalg/blas.hpp"
#include "linalg/nonnegative_least_squares.hpp"
#include "linalg/simplex_least_squares.hpp"
#include "linalg/sparse.hpp"
#include "facto/facto.h"
#include "measure.hpp"
#include "metrics/metrics.hpp"
#include "problems/community_model.hpp"
#include "problems/topic_model.hpp"
#include "solvers/registry.hpp"
#include "solvers/self_dictionary/self_dictionary_solver.hpp"

using namespace facto;
using namespace facto::bench;

namespace {

struct Method {
    const char* name;
    const char* algorithm;
    double lambda;
    int64_t iterations;  // 0: the solver's own stop
    bool authors_fast_anchor = false;  // topics as FastAnchor's authors form them (fast_anchor_topics)
    const char* variant = nullptr;     // MERIT: this variant to facto's own stop (else the authors' protocol)
};

// The documents (0-based) and min_df of trial `trial` of the K-topic subsets file.
bool read_subset(const std::string& path, int64_t K, int64_t trial, std::vector<int64_t>& docs, int64_t& min_df)
{
    const auto in = open_input(path);
    std::string line;
    while (std::getline(*in, line)) {
        if (line.empty() || line[0] == '#') continue;
        std::vector<std::string> field;
        std::stringstream parts(line);
        for (std::string f; std::getline(parts, f, ',');) field.push_back(f);
        if (field.size() < 7 || std::stoll(field[1]) != K || std::stoll(field[2]) != trial) continue;
        min_df = std::stoll(field[3]);
        docs.clear();
        std::stringstream ids(field[6]);
        for (int64_t d; ids >> d;) docs.push_back(d - 1);
        return true;
    }
    return false;
}

// FastAnchor's topics as its authors' code estimates them (arora.m, 2013, and loadIt's
// estimatePTypeForFastAnchor) from the anchors `selected` (kept-term indices): Arora et al.'s RecoverL2
// writes each word's co-occurrence distribution q_i = P(i, :) / s_i as a combination of the anchors'
// with weights >= 0 summing to at most 1 (least squares; the authors' capped simplex, where Arora et al.
// take the simplex) and forms A(i, k) = c_ik s_i, each column A(:, k) scaled to sum 1; the topics are then
// min_{S >= 0} ||P - A S||_F, each row scaled to sum 1 (K x N). Only the Gram entries q_i . q_a enter
// RecoverL2: with G_AA = V L V^T, the rows of G(:, A) V L^{-1/2} are points of R^K whose least squares
// on the anchors' rows is the same problem.
Matrix fast_anchor_topics(const TopicModel& model, const std::vector<int64_t>& selected)
{
    const CsrMatrix& F = model.tfidf().F;
    const CsrMatrix& Ft = model.term_documents();
    const auto D = static_cast<std::size_t>(F.rows), N = static_cast<std::size_t>(F.cols), K = selected.size();
    auto times_P = [&](const std::vector<double>& x) {  // P x = F^T (F x) / D
        std::vector<double> f(D), y(N);
        spmv(F, x.data(), f.data());
        spmv(Ft, f.data(), y.data());
        for (double& v : y) v /= static_cast<double>(D);
        return y;
    };
    const std::vector<double> s = times_P(std::vector<double>(N, 1.0));
    Matrix G = Matrix::from_shape({N, K});  // q_i . q_a = (P P)(i, a) / (s_i s_a)
    for (std::size_t k = 0; k < K; ++k) {
        const auto a = static_cast<std::size_t>(selected[k]);
        std::vector<double> e(N, 0.0);
        e[a] = 1.0;
        const std::vector<double> PPe = times_P(times_P(e));
        for (std::size_t i = 0; i < N; ++i) G(i, k) = PPe[i] / (s[i] * s[a]);
    }
    Matrix V = Matrix::from_shape({K, K});
    for (std::size_t k = 0; k < K; ++k)
        for (std::size_t l = 0; l < K; ++l) V(k, l) = G(static_cast<std::size_t>(selected[k]), l);
    Vector L;
    blas::symmetric_eigen(V, L);  // V now holds the eigenvectors
    for (std::size_t l = 0; l < K; ++l) {
        const double scale = 1.0 / std::sqrt(std::max(L(l), 1e-14 * L(K - 1)));
        for (std::size_t k = 0; k < K; ++k) V(k, l) *= scale;
    }
    Matrix Y = Matrix::from_shape({N, K});
    blas::gemm(false, false, 1.0, G, V, 0.0, Y);
    // weights >= 0 summing to at most 1 (the authors' FGMfcnls): the nonnegative least squares where it
    // sums to at most 1, else the simplex's, since the constraint then binds at the minimizer
    Matrix C = simplex_least_squares(Y, selected);  // N x K
    Matrix W = Matrix::from_shape({K, K}), WtW = Matrix::from_shape({K, K}), B = Matrix::from_shape({K, N});
    for (std::size_t k = 0; k < K; ++k)
        std::copy(&Y(static_cast<std::size_t>(selected[k]), 0), &Y(static_cast<std::size_t>(selected[k]), 0) + K, &W(k, 0));
    blas::gemm(false, true, 1.0, W, W, 0.0, WtW);
    blas::gemm(false, true, 1.0, W, Y, 0.0, B);
    Matrix H = xt::zeros<double>({K, N});
    nonnegative_least_squares(WtW, B, H, 1e-12, 2000);
    for (std::size_t i = 0; i < N; ++i)
        if (xt::sum(xt::col(H, static_cast<std::ptrdiff_t>(i)))() <= 1.0)
            for (std::size_t k = 0; k < K; ++k) C(i, k) = H(k, i);
    Matrix At = Matrix::from_shape({K, N});  // A^T
    for (std::size_t k = 0; k < K; ++k) {
        double sum = 0.0;
        for (std::size_t i = 0; i < N; ++i) sum += At(k, i) = C(i, k) * s[i];
        for (std::size_t i = 0; i < N && sum > 0.0; ++i) At(k, i) /= sum;
    }
    Matrix AtA = Matrix::from_shape({K, K}), AtP = Matrix::from_shape({K, N});
    blas::gemm(false, true, 1.0, At, At, 0.0, AtA);
    for (std::size_t k = 0; k < K; ++k) {
        const std::vector<double> PA = times_P(std::vector<double>(&At(k, 0), &At(k, 0) + N));
        std::copy(PA.begin(), PA.end(), &AtP(k, 0));
    }
    Matrix S = xt::zeros<double>({K, N});
    nonnegative_least_squares(AtA, AtP, S, 1e-10, 500);
    for (std::size_t k = 0; k < K; ++k) {
        double sum = 0.0;
        for (std::size_t i = 0; i < N; ++i) sum += S(k, i);
        for (std::size_t i = 0; i < N && sum > 0.0; ++i) S(k, i) /= sum;
    }
    return S;
}

// Table II's accuracy: k-means (10 replicates) on the document weights scaled to unit 2-norm, the
// best matching of clusters to topics, averaged over 10 clusterings.
double kmeans_accuracy(Matrix W, const std::vector<int64_t>& truth, int64_t K)
{
    for (std::size_t i = 0; i < W.shape()[0]; ++i) {
        double norm = 0.0;
        for (std::size_t k = 0; k < W.shape()[1]; ++k) norm += W(i, k) * W(i, k);
        for (std::size_t k = 0; k < W.shape()[1] && norm > 0.0; ++k) W(i, k) /= std::sqrt(norm);
    }
    double sum = 0.0;
    for (uint64_t run = 0; run < 10; ++run) sum += clustering_accuracy(kmeans(W, K, 10, 1000 + run), truth);
    return sum / 10.0;
}

// MERIT as its authors' code runs it (runByMERIT.m, MERIT.m, fw_core/fwCoreMex.cpp): the Frank-Wolfe
// counter t runs from iterStart to maxIters inclusive with step 2 / (t + 1), which is facto's 2 / (t + 2)
// from t_init = iterStart - 1, and it stops once the Frank-Wolfe gap falls below 0.5. On topics it
// starts from SPA's warm start with iterStart = sqrt(N) / ||X - X C0||_2 (the spectral norm: MATLAB's
// norm of a matrix); on communities from C = 0 with iterStart = 1. Their objective is
// ||X - X C||_F^2 + lambda Phi, without the paper's 1/2 (eq. 18a): facto's half of it has lambda / 2
// (kAuthorsLambda, where the problems are built) and half their gap, so their 0.5 is 0.25 here.
// The paper's lambda = 1e-6 (Sec. V) in facto's objective, 1/2 ||X - X C||_F^2 + lambda Phi_mu(C).
constexpr double kAuthorsLambda = 0.5e-6;

void authors_merit(Solver& solver, const SelfDictionary& problem, bool warm, int64_t max_t)
{
    double f_start = 0.5 * static_cast<double>(xt::sum(xt::square(problem.Xt()))());  // C = 0
    int64_t t0 = 1;
    if (warm) {
        const SimplexColumns C0 = problem.warm_start(1);
        Matrix R;
        problem.residual(C0, R, 1);
        Matrix gram = Matrix::from_shape({R.shape()[1], R.shape()[1]});
        blas::gemm(true, false, 1.0, R, R, 0.0, gram);
        Vector lambda;
        blas::symmetric_eigen(gram, lambda);
        t0 = static_cast<int64_t>(std::llround(std::sqrt(static_cast<double>(problem.N()) / lambda(lambda.size() - 1))));
        f_start = 0.5 * problem.residual_squared(C0) + problem.lambda() * problem.row_softmax(C0).phi;
    }
    solver.mutable_params().set_string("variant", "vanilla");  // Alg. 1
    solver.mutable_params().set_string("warm_start", warm ? "spa" : "none");
    solver.mutable_params().set_int("t_init", t0 - 1);
    solver.mutable_params().set_int("max_iterations", std::max<int64_t>(0, max_t - t0 + 1));
    solver.mutable_params().set_double("tolerance", 0.25 / f_start);  // facto's gap is relative to f at the start
}

// The authors' selection ([NFW] Sec. II) at MERIT's C: the K rows with the largest entries, as the
// problem's columns.
std::vector<int64_t> largest_row_maxima(const Solver& solver, const SelfDictionary& problem)
{
    return problem.largest_row_maxima(problem.row_softmax(dynamic_cast<const SelfDictionarySolver&>(solver).columns()));
}

struct Stats {
    std::vector<double> values;
    void add(double v) { values.push_back(v); }
    double mean() const
    {
        double s = 0.0;
        for (double v : values) s += v;
        return values.empty() ? NAN : s / static_cast<double>(values.size());
    }
    double deviation() const
    {
        if (values.size() < 2) return 0.0;
        double s = 0.0;
        for (double v : values) s += (v - mean()) * (v - mean());
        return std::sqrt(s / static_cast<double>(values.size() - 1));
    }
};

// One trial's measurements of one method, as a row of the topics CSV.
struct TopicRow {
    double N, coherence, similarity, accuracy, argmax, seconds;
};
using TopicKey = std::tuple<std::string, int64_t, int, std::string>;  // dataset, K, trial, method

// The rows already in `csv` (none if it does not exist), so that a run resumes where one stopped.
std::map<TopicKey, TopicRow> read_topic_rows(const std::string& csv)
{
    std::map<TopicKey, TopicRow> rows;
    std::ifstream in(csv);
    std::string line;
    std::getline(in, line);  // header
    while (std::getline(in, line)) {
        std::vector<std::string> f;
        std::stringstream parts(line);
        for (std::string field; std::getline(parts, field, ',');) f.push_back(field);
        if (f.size() != 10) continue;
        rows[{f[0], std::stoll(f[1]), std::stoi(f[2]), f[3]}] = {std::stod(f[4]), std::stod(f[5]), std::stod(f[6]),
                                                                 std::stod(f[7]), std::stod(f[8]), std::stod(f[9])};
    }
    return rows;
}

// Each document's label in the corpus `dataset` (rows "doc,label[,split]" of its labels file; Reuters
// adds a non-numeric split column).
std::vector<int64_t> read_labels(const std::string& dataset)
{
    std::vector<int64_t> label_of;
    const auto in = open_input(data_file("merit/" + dataset + "_labels.csv.gz"));
    std::string line;
    std::getline(*in, line);  // header
    while (std::getline(*in, line)) {
        const std::size_t comma = line.find(',');
        if (comma != std::string::npos) label_of.push_back(std::stoll(line.substr(comma + 1)));
    }
    return label_of;
}

// Table II on `dataset` for each K in Ks: the trials' rows are appended to `csv` (its header is written
// if it is new), rows already there are kept and not run again, and the summary covers them all.
void topics(const std::string& dataset, int trials, int fg_trials, const std::string& csv,
            const std::vector<int64_t>& Ks)
{
    std::map<TopicKey, TopicRow> done = read_topic_rows(csv);
    const CsrMatrix counts = read_matrix_market(data_file("merit/" + dataset + "_doc_term.mtx.gz"));
    const std::vector<int64_t> label_of = read_labels(dataset);
    const std::vector<Method> methods = {{"MERIT", "merit", kAuthorsLambda, 100},     {"MERIT(0)", "merit", 0.0, 100},
                                         {"SPA", "spa", 0.0, 0},            {"XRAY (SNPA)", "snpa", 0.0, 0},
                                         {"FastAnchor", "fast_anchor", 0.0, 0}, {"FastGradient", "fast_gradient", 0.0, 50},
                                         {"FastAnchor (authors' topics)", "fast_anchor", 0.0, 0, true},
                                         {"MERIT-c (converged)", "merit", kAuthorsLambda, 0, false, "corrective"}};
    std::ifstream before(csv, std::ios::ate);
    const bool fresh = !before.good() || before.tellg() == 0;
    char last = '\n';  // a run killed mid-row leaves a partial line, closed here so that it stays apart
    if (!fresh) before.seekg(-1, std::ios::end), before.get(last);
    std::ofstream out(csv, std::ios::app);
    if (last != '\n') out << '\n';
    if (fresh) out << "dataset,K,trial,method,N,coherence,similarity_count,accuracy_kmeans,accuracy_argmax,seconds\n";
    std::printf("%s: K, method, coherence, similarity count, accuracy (k-means), accuracy (argmax), seconds; mean "
                "(standard deviation) over the trials\n", dataset.c_str());
    for (const int64_t K : Ks) {
        for (int trial = 1; trial <= trials; ++trial) {
            std::vector<const Method*> to_run;
            for (const Method& m : methods)
                if (!done.count({dataset, K, trial, m.name}) && (std::string(m.algorithm) != "fast_gradient" || trial <= fg_trials))
                    to_run.push_back(&m);
            if (to_run.empty()) continue;
            std::vector<int64_t> docs;
            int64_t min_df = 2;
            if (!read_subset(data_file("merit/" + dataset + "_kclass_subsets.csv.gz"), K, trial, docs, min_df)) break;
            std::vector<int64_t> truth;
            for (int64_t d : docs) truth.push_back(label_of.at(static_cast<std::size_t>(d)));
            const auto t0 = Clock::now();
            const CsrMatrix subset = select_rows(counts, docs);
            std::map<double, std::shared_ptr<const TopicModel>> problems;  // one per lambda
            for (const Method* m : to_run)
                if (!problems.count(m->lambda))
                    problems[m->lambda] = std::make_shared<const TopicModel>(subset, K, min_df, 0, m->lambda, 1e-5, 0.0);
            for (const Method* m : to_run) {
                const auto& problem = problems[m->lambda];
                auto solver = make_solver(problem, m->algorithm);
                if (m->iterations > 0) solver->mutable_params().set_int("max_iterations", m->iterations);
                const bool merit = std::string(m->algorithm) == "merit" && m->variant == nullptr;  // the authors' protocol
                if (merit) authors_merit(*solver, *problem, true, m->iterations);
                if (m->variant) solver->mutable_params().set_string("variant", m->variant);
                const auto start = Clock::now();
                try {
                    solver->solve();
                } catch (const Error& e) {
                    std::printf("  K %lld trial %d %s: %s\n", static_cast<long long>(K), trial, m->name, e.what());
                    continue;
                }
                const double s = seconds_since(start);
                const Output W = solver->output("document_topics");
                Matrix weights = xt::adapt(W.doubles, std::vector<std::size_t>{docs.size(), static_cast<std::size_t>(K)});
                double coherence = solver->output("coherence").doubles[0];
                auto similarity = static_cast<double>(solver->output("similarity_count").ints[0]);
                std::vector<int64_t> labels = solver->output("labels").ints;
                // the topics (and what follows from them) as the authors form them: FastAnchor's from its
                // anchors, MERIT's from the K rows of C with the largest entries (their selection)
                if (m->authors_fast_anchor || merit) {
                    std::vector<int64_t> anchors;
                    for (int64_t v : solver->output("selected").ints)
                        anchors.push_back(std::lower_bound(problem->terms().begin(), problem->terms().end(), v) -
                                          problem->terms().begin());
                    if (merit) anchors = largest_row_maxima(*solver, *problem);
                    const Matrix T = merit ? problem->topics(anchors) : fast_anchor_topics(*problem, anchors);
                    const auto top = top_terms(T, static_cast<std::size_t>(std::min<int64_t>(TopicModel::kTopTerms, problem->N())));
                    coherence = topic_coherence(problem->term_documents(), top, true);
                    similarity = static_cast<double>(similarity_count(top));
                    weights = problem->document_topics(T);
                    for (std::size_t d = 0; d < weights.shape()[0]; ++d) {
                        const auto row = xt::row(weights, static_cast<std::ptrdiff_t>(d));
                        labels[d] = xt::amax(row)() > 0.0 ? static_cast<int64_t>(xt::argmax(row)()) : -1;
                    }
                }
                const TopicRow row{static_cast<double>(problem->N()), coherence, similarity,
                                   kmeans_accuracy(weights, truth, K), clustering_accuracy(labels, truth), s};
                done[{dataset, K, trial, m->name}] = row;
                out << dataset << ',' << K << ',' << trial << ',' << m->name << ',' << row.N << ',' << row.coherence << ','
                    << row.similarity << ',' << row.accuracy << ',' << row.argmax << ',' << row.seconds << std::endl;
            }
            std::fprintf(stderr, "  %s K %lld trial %d: N = %lld, %.1f s\n", dataset.c_str(), static_cast<long long>(K),
                         trial, static_cast<long long>(problems.begin()->second->N()), seconds_since(t0));
        }
        for (const Method& m : methods) {
            Stats coherence, similarity, accuracy, argmax, seconds;
            const int last = std::string(m.algorithm) == "fast_gradient" ? fg_trials : trials;
            for (int trial = 1; trial <= last; ++trial) {
                const auto row = done.find({dataset, K, trial, m.name});
                if (row == done.end()) continue;
                const TopicRow& r = row->second;
                coherence.add(r.coherence), similarity.add(r.similarity), accuracy.add(r.accuracy);
                argmax.add(r.argmax), seconds.add(r.seconds);
            }
            std::printf("%lld, %-13s, %7.1f (%5.1f), %6.2f (%5.2f), %.3f (%.3f), %.3f (%.3f), %6.2f  [%zu trials]\n",
                        static_cast<long long>(K), m.name, coherence.mean(), coherence.deviation(), similarity.mean(),
                        similarity.deviation(), accuracy.mean(), accuracy.deviation(), argmax.mean(), argmax.deviation(),
                        seconds.mean(), coherence.values.size());
        }
        std::fflush(stdout);
    }
}

// SPOC's memberships as its authors' code forms them: V V(J, :)^{-1} floored at machine epsilon (not 0)
// before the rows are scaled to sum 1, which orders the otherwise tied zeros by each row's sum.
Matrix epsilon_floored_memberships(const CommunityModel& model, const std::vector<int64_t>& anchors)
{
    const Matrix& V = model.eigenvectors();
    const std::size_t N = V.shape()[0], K = V.shape()[1];
    Matrix pure = Matrix::from_shape({K, K});
    for (std::size_t a = 0; a < K; ++a)
        for (std::size_t k = 0; k < K; ++k) pure(a, k) = V(static_cast<std::size_t>(anchors[a]), k);
    Matrix H = V;
    blas::solve_general(pure.data(), K, H.data(), N);
    for (std::size_t i = 0; i < N; ++i) {
        double sum = 0.0;
        for (std::size_t k = 0; k < K; ++k) sum += H(i, k) = std::max(H(i, k), 2.220446049250313e-16);
        for (std::size_t k = 0; k < K; ++k) H(i, k) /= sum;
    }
    return H;
}

// SRC of the solver's "memberships" output (every node's) against the truth (nodes x K).
double memberships_src(const Solver& solver, const Matrix& truth)
{
    const Output H = solver.output("memberships");
    return averaged_spearman(xt::adapt(H.doubles, std::vector<std::size_t>{truth.shape()[0], truth.shape()[1]}), truth);
}

void communities(const std::string& csv)
{
    const int64_t table3[] = {6437, 3248, 3129, 1032, 3509};
    const double table4[5][5] = {{0.2974, 0.2996, 0.3145, 0.2937, 0.2912},  // GeoNMF SPOC FastGradient MERIT MERIT(0)
                                 {0.2948, 0.2126, 0.3237, 0.3257, 0.2931},
                                 {0.2629, 0.2972, 0.1933, 0.2763, 0.2766},
                                 {0.2661, 0.3479, 0.1601, 0.3559, 0.3559},
                                 {0.1977, 0.1720, 0.0912, 0.1983, 0.1983}};
    std::ofstream out(csv);
    out << "graph,method,src,paper,seconds\n";
    std::printf("graph, nodes kept (Table III), then per method: SRC facto / paper (Table IV), seconds\n");
    for (int g = 1; g <= 5; ++g) {
        const std::string name = "dblp" + std::to_string(g);
        const CsrMatrix A = read_matrix_market(data_file("merit/" + name + "_adjacency.mtx.gz"));
        const Matrix truth = read_csv(data_file("merit/" + name + "_membership.csv.gz"));
        const auto K = static_cast<int64_t>(truth.shape()[1]);
        auto t0 = Clock::now();
        const auto pruned = std::make_shared<const CommunityModel>(A, K, 0.99, kAuthorsLambda, 1e-5);
        const double spectral_seconds = seconds_since(t0);
        const auto pruned0 = std::make_shared<const CommunityModel>(A, K, 0.99, 0.0, 1e-5);
        const auto full = std::make_shared<const CommunityModel>(A, K, 1.0, 0.0, 1e-5);
        std::printf("%s (K = %lld): %lld nodes kept, Table III %lld; eigenvectors %.2f s\n", name.c_str(),
                    static_cast<long long>(K), static_cast<long long>(pruned->N()), static_cast<long long>(table3[g - 1]),
                    spectral_seconds);
        struct Run {
            const char* method;
            std::shared_ptr<const CommunityModel> problem;
            const char* algorithm;
            int64_t iterations;
            double paper;
        };
        const Run runs[] = {{"GeoNMF", full, "geonmf", 0, table4[g - 1][0]},
                            {"SPOC", full, "spa", 0, table4[g - 1][1]},
                            {"FastGradient", pruned0, "fast_gradient", 20, table4[g - 1][2]},
                            {"MERIT", pruned, "merit", 120, table4[g - 1][3]},
                            {"MERIT(0)", pruned0, "merit", 120, table4[g - 1][4]},
                            {"SPA (pruned)", pruned0, "spa", 0, NAN},
                            {"SNPA (pruned)", pruned0, "snpa", 0, NAN}};
        for (const Run& r : runs) {
            auto solver = make_solver(r.problem, r.algorithm);
            if (r.iterations > 0) solver->mutable_params().set_int("max_iterations", r.iterations);
            if (std::string(r.algorithm) == "merit") authors_merit(*solver, *r.problem, false, r.iterations);
            t0 = Clock::now();
            solver->solve();
            const double s = seconds_since(t0);
            const double facto_src = memberships_src(*solver, truth);
            // MERIT as the authors select: the K rows of C with the largest entries (facto's "selected"
            // takes SPA's weighted picks instead when they fit X better: SelfDictionary::select)
            std::vector<int64_t> anchors = solver->output("selected").ints;
            double src = facto_src;
            if (std::string(r.algorithm) == "merit") {
                anchors = largest_row_maxima(*solver, *r.problem);
                for (int64_t& a : anchors) a = r.problem->nodes()[static_cast<std::size_t>(a)];
                src = averaged_spearman(r.problem->memberships(anchors), truth);
            }
            std::printf("  %-14s SRC %.4f  paper %.4f  %7.2f s", r.method, src, r.paper, s);
            if (r.problem != full) {  // anchors as the authors' result.mat lists them: 1-based among the kept nodes
                const std::vector<int64_t>& kept = r.problem->nodes();
                std::printf("  anchors");
                for (int64_t v : anchors)
                    std::printf(" %lld", static_cast<long long>(std::lower_bound(kept.begin(), kept.end(), v) - kept.begin() + 1));
            }
            if (src != facto_src) std::printf("  (facto's selection: SRC %.4f)", facto_src);
            std::printf("\n");
            out << name << ',' << r.method << ',' << src << ',' << r.paper << ',' << s << '\n';
            if (std::string(r.method) == "SPOC" || std::string(r.method) == "GeoNMF") {  // with SPOC's floor
                std::vector<int64_t> anchors = solver->output("selected").ints;
                const double floored = averaged_spearman(epsilon_floored_memberships(*r.problem, anchors), truth);
                std::printf("  %-14s SRC %.4f  (memberships floored at machine epsilon, as SPOC's code does)\n",
                            r.method, floored);
                out << name << ',' << r.method << " eps floor," << floored << ',' << r.paper << ',' << s << '\n';
            }
        }
        std::fflush(stdout);
    }
}

// The defaults runs' solver: MERIT with `variant` = method, or SPA for "spa", within `limit` seconds.
std::unique_ptr<Solver> defaults_solver(const std::shared_ptr<const SelfDictionary>& problem, const std::string& method,
                                        double limit)
{
    auto solver = make_solver(problem, method == "spa" ? "spa" : "merit");
    if (method != "spa") solver->mutable_params().set_string("variant", method);
    solver->mutable_params().set_double("time_limit", limit);
    return solver;
}

// MERIT's defaults on the corpora as a user meets them (K = 10 topics, lambda = 5e-7, facto's stop):
// TDT2's and Reuters' first K = 10 subsets and all of TDT2 (min_df = 1: N = 36,093). Per corpus: the
// problem's build (TF-IDF, reduction, SPA), then MERIT's previous default ("vanilla", Alg. 1) and its
// current one ("auto": corrective on topics), each within `limit` seconds, and SPA: how each stopped,
// iterations, seconds, one iteration's median seconds against the X^T R product of the sweep as GEMMs
// (SweepReference, timed before the solves), the paper's metrics from facto's outputs and the accuracy
// of the documents' largest topic weights.
void topic_defaults(double limit)
{
    struct Corpus {
        const char* dataset;
        bool whole;  // every document, min_df 1; else the K = 10 subset of trial 1
    };
    std::printf("%-11s %-8s %6s %-16s %6s %8s %7s %8s %7s %8s %6s %10s %6s %8s\n", "corpus", "method", "N", "stop",
                "iters", "seconds", "start", "outputs", "s/iter", "product", "ratio", "coherence", "simcnt", "accuracy");
    for (const Corpus& corpus : {Corpus{"tdt2", false}, Corpus{"reuters21578", false}, Corpus{"tdt2", true}}) {
        const CsrMatrix counts = read_matrix_market(data_file(std::string("merit/") + corpus.dataset + "_doc_term.mtx.gz"));
        const std::vector<int64_t> label_of = read_labels(corpus.dataset);
        std::vector<int64_t> docs;
        int64_t min_df = 1;
        if (corpus.whole) {
            for (int64_t d = 0; d < counts.rows; ++d) docs.push_back(d);
        } else if (!read_subset(data_file(std::string("merit/") + corpus.dataset + "_kclass_subsets.csv.gz"), 10, 1, docs,
                                min_df)) {
            continue;
        }
        std::vector<int64_t> truth;
        for (int64_t d : docs) truth.push_back(label_of.at(static_cast<std::size_t>(d)));
        const auto t0 = Clock::now();
        const auto problem = std::make_shared<const TopicModel>(corpus.whole ? counts : select_rows(counts, docs), 10,
                                                                min_df, 0, 5e-7, 1e-5, 0.0);
        const double built = seconds_since(t0);
        const char* name = corpus.whole ? "tdt2-all" : corpus.dataset;
        SweepReference reference(static_cast<std::size_t>(problem->N()), problem->Xt().shape()[1]);
        const double product = reference.typical_seconds(problem->Xt());
        std::printf("%-11s %-8s %6lld problem built in %.2f s (documents %zu, min_df %lld)\n", name, "",
                    static_cast<long long>(problem->N()), built, docs.size(), static_cast<long long>(min_df));
        for (const char* method : {"vanilla", "auto", "spa"}) {
            const bool merit = std::string(method) != "spa";
            const auto solver = defaults_solver(problem, method, limit);
            const auto [reason, start, solved, each] = timed_solve(*solver);
            const auto o0 = Clock::now();
            const double coherence = solver->output("coherence").doubles[0];
            const int64_t similarity = solver->output("similarity_count").ints[0];
            const double accuracy = clustering_accuracy(solver->output("labels").ints, truth);
            const double outputs = seconds_since(o0), seconds = solved + outputs;  // as a fit reads them
            std::printf("%-11s %-8s %6lld %-16s %6lld %8.2f %7.2f %8.2f %7.4f %8.4f %6.2f %10.1f %6lld %8.3f\n", name,
                        method, static_cast<long long>(problem->N()), stop_name(reason),
                        static_cast<long long>(solver->progress().iteration), seconds, start, outputs, each, product,
                        merit ? each / product : 0.0, coherence, static_cast<long long>(similarity), accuracy);
            std::fflush(stdout);
        }
    }
}

// The community job on DBLP1-5 with its defaults (energy 0.99, lambda 5e-7): MERIT's previous defaults
// ("vanilla", then "corrective"), the current one ("auto": pairwise) and SPA, each within `limit`
// seconds, and the SRC of facto's memberships against the truth ("refused": the pure nodes' eigenvector
// rows are dependent).
void community_defaults(double limit)
{
    std::printf("%-6s %-10s %6s %-16s %6s %8s %7s\n", "graph", "method", "nodes", "stop", "iters", "seconds", "SRC");
    for (int g = 1; g <= 5; ++g) {
        const std::string name = "dblp" + std::to_string(g);
        const CsrMatrix A = read_matrix_market(data_file("merit/" + name + "_adjacency.mtx.gz"));
        const Matrix truth = read_csv(data_file("merit/" + name + "_membership.csv.gz"));
        const auto K = static_cast<int64_t>(truth.shape()[1]);
        const auto problem = std::make_shared<const CommunityModel>(A, K, 0.99, 5e-7, 1e-5);
        for (const char* method : {"vanilla", "corrective", "auto", "spa"}) {
            const auto solver = defaults_solver(problem, method, limit);
            const auto [reason, start, solved, each] = timed_solve(*solver);
            std::string src = "refused";
            try {
                src = std::to_string(memberships_src(*solver, truth));
            } catch (const Error& e) {
                if (e.status() != FACTO_ERROR_NUMERICAL) throw;
            }
            std::printf("%-6s %-10s %6lld %-16s %6lld %8.2f %7s\n", name.c_str(), method,
                        static_cast<long long>(problem->N()), stop_name(reason),
                        static_cast<long long>(solver->progress().iteration), solved, src.c_str());
            std::fflush(stdout);
        }
    }
}

// One measurement in a fresh process (memory_one): every byte the problem and the solver touch is new to
// the process, so its peak resident size counts them (in one long process, memory freed by an earlier
// run would be reused without showing). Prints "N problem_mib solve_mib seconds_per_iteration status".
void memory_one(int64_t min_df, const std::string& algorithm)
{
    const CsrMatrix counts = read_matrix_market(data_file("merit/tdt2_doc_term.mtx.gz"));
    malloc_trim(0);  // the decompressed text goes back to the system
    reset_peak();
    double base = resident_mib("VmRSS:");
    const auto problem = std::make_shared<const TopicModel>(counts, 10, min_df, 0, 1e-6, 1e-5, 0.0);
    const double problem_mib = resident_mib("VmHWM:") - base;
    reset_peak();
    base = resident_mib("VmRSS:");
    auto solver = make_solver(problem, algorithm);
    // peak memory is reached in the first iterations: FastGradient runs 3 (its 50 would take half an hour
    // at N = 2e4), MERIT the paper's 100; the time is reported per iteration
    if (algorithm == "merit") {
        solver->mutable_params().set_string("variant", "vanilla");  // Alg. 1, as the paper times it
        solver->mutable_params().set_int("max_iterations", 100);
    }
    if (algorithm == "fast_gradient") solver->mutable_params().set_int("max_iterations", 3);
    const auto t0 = Clock::now();
    std::string status = "ok";
    try {
        solver->solve();
    } catch (const Error& e) {
        status = e.status() == FACTO_ERROR_OUT_OF_MEMORY ? "refused" : "error";
    }
    const double seconds = seconds_since(t0);
    const auto iterations = std::max<int64_t>(1, solver->progress().iteration);
    std::printf("%lld %.1f %.1f %.4f %s\n", static_cast<long long>(problem->N()), problem_mib,
                resident_mib("VmHWM:") - base, seconds / static_cast<double>(iterations), status.c_str());
}

void memory(const std::string& self, const std::string& csv)
{
    std::ofstream out(csv);
    out << "min_df,N,method,problem_mib,peak_mib,seconds_per_iteration,status\n";
    std::printf("TDT2, every document, K = 10; per run, in a fresh process: peak resident memory of building the "
                "problem and of the solve, and the solve's seconds per iteration\n");
    for (int64_t min_df : {400, 200, 100, 50, 20, 10, 5, 2, 1})
        for (const char* algorithm : {"spa", "merit", "fast_gradient"}) {
            const std::string command = self + " memory-one " + std::to_string(min_df) + " " + algorithm;
            FILE* pipe = popen(command.c_str(), "r");
            char line[256] = "";
            const bool read = pipe && std::fgets(line, sizeof line, pipe);
            if (pipe) pclose(pipe);
            long long N = 0;
            double problem_mib = 0.0, peak = 0.0, seconds = 0.0;
            char status[32] = "failed";
            if (read) std::sscanf(line, "%lld %lf %lf %lf %31s", &N, &problem_mib, &peak, &seconds, status);
            std::printf("min_df %3lld N %5lld %-13s problem %7.1f MiB  solve peak %8.1f MiB  %8.4f s per iteration  %s\n",
                        static_cast<long long>(min_df), N, algorithm, problem_mib, peak, seconds, status);
            std::fflush(stdout);
            out << min_df << ',' << N << ',' << algorithm << ',' << problem_mib << ',' << peak << ',' << seconds << ','
                << status << '\n';
        }
}

}  // namespace

int main(int argc, char** argv)
{
    const std::string mode = argc > 1 ? argv[1] : "";
    if (mode == "topics" && argc > 5) {
        std::vector<int64_t> Ks;
        for (int a = 6; a < argc; ++a) Ks.push_back(std::stoll(argv[a]));
        if (Ks.empty()) Ks = {3, 4, 5, 6, 7, 8, 9, 10};
        topics(argv[2], std::stoi(argv[3]), std::stoi(argv[4]), argv[5], Ks);
    }
    else if (mode == "communities" && argc > 2) communities(argv[2]);
    else if (mode == "memory" && argc > 2) memory(argv[0], argv[2]);
    else if (mode == "memory-one" && argc > 3) memory_one(std::stoll(argv[2]), argv[3]);
    else if (mode == "defaults" && argc <= 4) {
        const double limit = argc > 2 ? std::stod(argv[2]) : 600.0;
        const std::string job = argc > 3 ? argv[3] : "both";
        if (job == "topics" || job == "both") topic_defaults(limit);
        if (job == "communities" || job == "both") community_defaults(limit);
    } else {
        std::fprintf(stderr, "usage: bench_separable_jobs topics DATASET TRIALS FG_TRIALS CSV [K...] | communities CSV | "
                             "memory CSV | defaults [SECONDS] [topics|communities]\n");
        return 2;
    }
    return 0;
}
