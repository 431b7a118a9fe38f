// The jobs built on self-dictionary separable NMF ([NFW] Sec. V-B, V-C): topic modeling from a
// corpus with planted anchor words, and community detection on a noiseless mixed-membership graph with
// planted pure nodes. In the noiseless planted cases the anchors, topics, document topics and
// memberships are known exactly; the word-word reduction is checked against a dense reference.
#include <boost/test/unit_test.hpp>

#include <algorithm>
#include <cmath>
#include <memory>
#include <numeric>
#include <utility>
#include <vector>

#include <xtensor/xadapt.hpp>
#include <xtensor/xsort.hpp>

#include "base/random.hpp"
#include "fixtures.hpp"
#include "linalg/blas.hpp"
#include "metrics/metrics.hpp"
#include "models/model.hpp"
#include "problems/community_model.hpp"
#include "problems/topic_model.hpp"
#include "solvers/registry.hpp"
#include "long_case.hpp"

using namespace facto;
using namespace facto::test;

namespace {

// 80 documents over 30 words with Poisson counts of rate 1 + 4 u, u uniform: no planted structure, so
// MERIT's variants take different paths from SPA's start.
CsrMatrix random_corpus()
{
    Rng rng(5);
    std::vector<int64_t> row, col;
    std::vector<double> value;
    for (int64_t d = 0; d < 80; ++d)
        for (int64_t w = 0; w < 30; ++w) {
            const double rate = 1.0 + 4.0 * rng.uniform();
            double count = 0.0;  // Poisson by counting unit-rate exponential arrivals before `rate`
            for (double t = rng.exponential(); t < rate; t += rng.exponential()) count += 1.0;
            if (count > 0.0) row.push_back(d), col.push_back(w), value.push_back(count);
        }
    return csr_from_triplets(80, 30, row.data(), col.data(), value.data(), static_cast<int64_t>(value.size()));
}

// A sampled mixed-membership graph: 300 nodes in 3 communities, the first 20 of each pure, the others'
// memberships proportional to e^4 for independent exponentials e (most nodes near one community, as a
// Dirichlet of small concentration makes them); edges drawn with probabilities Theta B Theta^T, B = 0.05
// off the diagonal and 0.5 on it.
PlantedGraph sampled_graph(uint64_t seed)
{
    const std::size_t n = 300, K = 3, pure = 20;
    PlantedGraph g{xt::zeros<double>({n, K}), {}};
    Rng rng(seed);
    for (std::size_t i = 0; i < n; ++i) {
        if (i < K * pure) {
            g.theta(i, i / pure) = 1.0;
            continue;
        }
        double sum = 0.0;
        for (std::size_t k = 0; k < K; ++k) sum += g.theta(i, k) = std::pow(rng.exponential(), 4.0);
        for (std::size_t k = 0; k < K; ++k) g.theta(i, k) /= sum;
    }
    std::vector<int64_t> row, col;
    for (std::size_t i = 0; i < n; ++i)
        for (std::size_t j = i + 1; j < n; ++j) {
            double p = 0.0;
            for (std::size_t k = 0; k < K; ++k) p += g.theta(i, k) * (0.05 + 0.45 * g.theta(j, k));
            if (rng.uniform() < p) {
                row.push_back(static_cast<int64_t>(i)), col.push_back(static_cast<int64_t>(j));
                row.push_back(static_cast<int64_t>(j)), col.push_back(static_cast<int64_t>(i));
            }
        }
    const std::vector<double> ones(row.size(), 1.0);
    g.A = csr_from_triplets(static_cast<int64_t>(n), static_cast<int64_t>(n), row.data(), col.data(), ones.data(),
                            static_cast<int64_t>(row.size()));
    return g;
}

std::unique_ptr<Solver> solved(const std::shared_ptr<const Problem>& problem, const char* algorithm)
{
    auto solver = make_solver(problem, algorithm);
    solver->solve();
    return solver;
}

}  // namespace

BOOST_AUTO_TEST_SUITE(separable_jobs)

// X^T X = P-bar^T U U^T P-bar equals P-bar^T P-bar when U spans P-bar's range (rank 3 <= 2K = 6):
// the implicit TF-IDF, correlation and column scaling against the matrix formed densely.
BOOST_AUTO_TEST_CASE(topic_reduction_matches_the_dense_word_word_matrix)
{
    const PlantedCorpus c = planted_corpus();
    const TopicModel model(c.counts, 3, 1, 0, 0.0, 1e-5, 0.0);
    BOOST_TEST(model.M() == 6);
    const std::size_t N = 9, D = 60;
    Matrix F = xt::zeros<double>({D, N});  // every count is 1: F_dj = ln(D / df_j) where word j occurs
    for (std::size_t d = 0; d < D; ++d)
        for (int64_t w : c.words[static_cast<std::size_t>(c.topic[d])])
            F(d, static_cast<std::size_t>(w)) = std::log(60.0 / (w < 3 ? 20.0 : 40.0));
    Matrix P = Matrix::from_shape({N, N});
    blas::gemm(true, false, 1.0 / 60.0, F, F, 0.0, P);
    const Matrix column_sums = xt::sum(P, {0}, xt::keep_dims);
    const Matrix Pbar = P / column_sums;
    Matrix expected = Matrix::from_shape({N, N}), got = Matrix::from_shape({N, N});
    blas::gemm(true, false, 1.0, Pbar, Pbar, 0.0, expected);
    const Matrix X = xt::transpose(model.Xt());
    blas::gemm(true, false, 1.0, X, X, 0.0, got);
    BOOST_TEST(xt::amax(xt::abs(got - expected))() <= 1e-12 * xt::amax(xt::abs(expected))());
}

// Noiseless planted anchors: SPA and MERIT find the three anchor words, the topics are the rows of
// the TF-IDF weights normalized, every document's topic proportions are its topic's indicator; with the
// refinement too (the anchors' topics fit every unit TF-IDF row exactly, so it has nothing to gain).
BOOST_AUTO_TEST_CASE(planted_anchor_words_and_topics_are_recovered_exactly)
{
    const PlantedCorpus c = planted_corpus();
    for (const double refine : {0.0, 1e-3})
    for (const char* algorithm : {"spa", "merit", "snpa", "fast_anchor", "fast_gradient"}) {
        const auto model = std::make_shared<const TopicModel>(c.counts, 3, 1, 0, 1e-6, 1e-5, refine);
        BOOST_TEST_CONTEXT(algorithm << ", refine " << refine)
        {
            const auto solver = solved(model, algorithm);
            BOOST_TEST(solver->output("selected").ints == (std::vector<int64_t>{0, 1, 2}),
                       boost::test_tools::per_element());
            const Output topics = solver->output("topics");
            for (std::size_t k = 0; k < 3; ++k) {
                double total = 0.0;
                for (int64_t w : c.words[k]) total += std::log(60.0 / (w < 3 ? 20.0 : 40.0));
                for (std::size_t w = 0; w < 9; ++w) {
                    const auto& mine = c.words[k];
                    const double expected = std::find(mine.begin(), mine.end(), static_cast<int64_t>(w)) == mine.end()
                                                ? 0.0
                                                : std::log(60.0 / (w < 3 ? 20.0 : 40.0)) / total;
                    BOOST_TEST(std::abs(topics.doubles[k * 9 + w] - expected) <= 1e-8);
                }
            }
            const Output weights = solver->output("document_topics");
            const Output labels = solver->output("labels");
            for (std::size_t d = 0; d < 60; ++d) {
                BOOST_TEST(labels.ints[d] == c.topic[d]);
                for (std::size_t k = 0; k < 3; ++k)
                    BOOST_TEST(std::abs(weights.doubles[d * 3 + k] - (static_cast<int64_t>(k) == c.topic[d])) <= 1e-8);
            }
            const Output top = solver->output("top_terms");  // each topic's anchor word ranks first
            for (std::size_t k = 0; k < 3; ++k) BOOST_TEST(top.ints[k * 9] == static_cast<int64_t>(k));
            BOOST_TEST(solver->output("coherence").doubles[0] < 0.0);
        }
    }
}

// The automatic threshold (min_df 0) is 1% of the documents rounded, at least 2: a word in every document
// of a topic holding at least max(2, ceil(D / 100)) documents is never dropped, so a planted anchor
// word of such a topic stays a candidate; on the planted corpus the automatic model finds the anchors.
BOOST_AUTO_TEST_CASE(the_automatic_min_df_keeps_every_anchor_of_a_topic_with_one_percent_of_the_documents)
{
    for (int64_t D = 2; D <= 100000; ++D) {
        const int64_t threshold = TopicModel::automatic_min_df(D), one_percent = (D + 99) / 100;
        BOOST_TEST_REQUIRE(threshold <= std::max<int64_t>(2, one_percent));
        BOOST_TEST_REQUIRE(100 * threshold >= D - 50);
    }
    const PlantedCorpus c = planted_corpus();
    const auto model = std::make_shared<const TopicModel>(c.counts, 3, 0, 0, 1e-6, 1e-5, 1e-3);
    BOOST_TEST(model->N() == 9);
    BOOST_TEST(solved(model, "auto")->output("selected").ints == (std::vector<int64_t>{0, 1, 2}),
               boost::test_tools::per_element());
}

// The refinement on an unstructured corpus: its topics are distributions over the kept terms, it fits the
// unit-row TF-IDF G better than the anchors' topics with their weights (each HALS sweep lowers the fit;
// the document weights of the scaled topics can only fit as well), refine = 1 stops after one sweep, and
// refine = 0 reports the anchors' topics themselves.
BOOST_AUTO_TEST_CASE(the_refined_topics_are_distributions_that_fit_the_documents_better)
{
    const auto fit_of = [](const TopicModel& problem, const Matrix& T) {  // ||G - W T||_F^2, W = NNLS weights
        const CsrMatrix& G = problem.weighted_documents();
        const Matrix W = TopicModel::document_weights(G, T);
        Matrix dense = xt::zeros<double>({static_cast<std::size_t>(G.rows), static_cast<std::size_t>(G.cols)});
        for (std::size_t d = 0; d < dense.shape()[0]; ++d)
            for (int64_t p = G.indptr[d]; p < G.indptr[d + 1]; ++p)
                dense(d, static_cast<std::size_t>(G.indices[static_cast<std::size_t>(p)])) = G.values[static_cast<std::size_t>(p)];
        Matrix WT = Matrix::from_shape(dense.shape());
        blas::gemm(false, false, 1.0, W, T, 0.0, WT);
        return xt::sum(xt::square(dense - WT))();
    };
    const TopicModel unrefined(random_corpus(), 4, 1, 0, 5e-7, 1e-5, 0.0);
    const TopicModel refined(random_corpus(), 4, 1, 0, 5e-7, 1e-5, 1e-3), one_sweep(random_corpus(), 4, 1, 0, 5e-7, 1e-5, 1.0);
    std::vector<int64_t> anchors;  // kept columns of the anchors SPA selects
    for (int64_t v : solved(std::make_shared<const TopicModel>(random_corpus(), 4, 1, 0, 5e-7, 1e-5, 0.0), "spa")
                         ->output("selected").ints)
        anchors.push_back(std::lower_bound(refined.terms().begin(), refined.terms().end(), v) - refined.terms().begin());
    const Matrix T0 = refined.topics(anchors), T = refined.fitted_topics(anchors), T1 = one_sweep.fitted_topics(anchors);
    BOOST_TEST(xt::amax(xt::abs(unrefined.fitted_topics(anchors) - T0))() == 0.0);
    BOOST_TEST(xt::amin(T)() >= 0.0);
    for (std::size_t k = 0; k < 4; ++k) BOOST_TEST(std::abs(xt::sum(xt::row(T, static_cast<std::ptrdiff_t>(k)))() - 1.0) <= 1e-12);
    const double start = fit_of(refined, T0), after_one = fit_of(refined, T1), end = fit_of(refined, T);
    BOOST_TEST(after_one < start);
    BOOST_TEST(end <= after_one);
}

// Terms pruned by min_df keep their vocabulary columns in every output.
BOOST_AUTO_TEST_CASE(topic_outputs_name_vocabulary_columns)
{
    PlantedCorpus c = planted_corpus();
    std::vector<int64_t> row, col;  // shift every word to column w + 2, so columns 0 and 1 are empty
    std::vector<double> value;
    for (int64_t d = 0; d < 60; ++d)
        for (int64_t p = c.counts.indptr[static_cast<std::size_t>(d)]; p < c.counts.indptr[static_cast<std::size_t>(d) + 1]; ++p)
            row.push_back(d), col.push_back(c.counts.indices[static_cast<std::size_t>(p)] + 2), value.push_back(1.0);
    const CsrMatrix shifted = csr_from_triplets(60, 11, row.data(), col.data(), value.data(), static_cast<int64_t>(value.size()));
    const auto model = std::make_shared<const TopicModel>(shifted, 3, 1, 0, 1e-6, 1e-5, 1e-3);
    BOOST_TEST(model->terms().front() == 2);
    const auto solver = solved(model, "spa");
    BOOST_TEST(solver->output("selected").ints == (std::vector<int64_t>{2, 3, 4}), boost::test_tools::per_element());
    const Output topics = solver->output("topics");
    BOOST_TEST(topics.spec.cols == 11);
    BOOST_TEST(topics.doubles[0] == 0.0);
}

// Noiseless mixed memberships with one pure node per community: SPA (SPOC) and MERIT pick the pure
// nodes, the memberships are Theta exactly (up to the communities' order), and SRC against the truth is 1.
BOOST_AUTO_TEST_CASE(planted_pure_nodes_and_memberships_are_recovered_exactly)
{
    const PlantedGraph g = planted_graph();
    const auto model = std::make_shared<const CommunityModel>(g.A, 3, 1.0, 1e-6, 1e-5);
    BOOST_TEST(model->nodes().size() == 60u);
    for (const char* algorithm : {"spa", "merit", "snpa", "fast_gradient", "geonmf"}) {
        BOOST_TEST_CONTEXT(algorithm)
        {
            const auto solver = solved(model, algorithm);
            BOOST_TEST(solver->output("selected").ints == (std::vector<int64_t>{0, 1, 2}),
                       boost::test_tools::per_element());
            const Output H = solver->output("memberships");
            for (std::size_t e = 0; e < H.doubles.size(); ++e) BOOST_TEST(std::abs(H.doubles[e] - g.theta.data()[e]) <= 1e-8);
            const Matrix estimated = xt::adapt(H.doubles, std::vector<std::size_t>{60, 3});
            BOOST_TEST(std::abs(averaged_spearman(estimated, g.theta) - 1.0) <= 1e-12);
        }
    }
}

// The pipeline's defaults (energy 0.99, lambda 5e-7, MERIT's own stop) on sampled graphs: the
// eigenvector rows' hull has more vertices than K, MERIT keeps them near 1 at this lambda, and the K
// largest row maxima alone took two nodes of one community, or a mixed node, on each of these graphs. The
// pure nodes must be nearly pure, one per community, and the default solve must certify its answer (Alg. 1's
// open-loop steps stopped at the iteration limit on each of them).
BOOST_AUTO_TEST_CASE(default_merit_takes_one_pure_node_per_community_on_sampled_graphs, FACTO_LONG_CASE)
{
    for (uint64_t seed = 1; seed <= 3; ++seed) {
        BOOST_TEST_CONTEXT("seed " << seed)
        {
            const PlantedGraph g = sampled_graph(seed);
            const auto model = std::make_shared<const CommunityModel>(g.A, 3, 0.99, 5e-7, 1e-5);
            const auto solver = solved(model, "merit");
            BOOST_TEST(solver->progress().stop_reason == FACTO_CONVERGED);
            std::vector<std::size_t> communities;
            for (int64_t node : solver->output("selected").ints) {
                const auto row = xt::row(g.theta, node);
                BOOST_TEST(xt::amax(row)() > 0.9);
                communities.push_back(static_cast<std::size_t>(xt::argmax(row)()));
            }
            std::sort(communities.begin(), communities.end());
            BOOST_TEST(communities == (std::vector<std::size_t>{0, 1, 2}), boost::test_tools::per_element());
        }
    }
}

// MERIT's default variant "auto" is corrective on the topic job, pairwise on the community job and
// vanilla (Alg. 1) on the plain problem: its iterates are that variant's exactly, and no other's.
BOOST_AUTO_TEST_CASE(merit_auto_is_corrective_on_topics_pairwise_on_communities_and_vanilla_otherwise)
{
    const auto iterate_after = [](const std::shared_ptr<const Problem>& problem, const char* variant, int64_t steps) {
        auto solver = make_solver(problem, "merit");
        solver->mutable_params().set_string("variant", variant);
        solver->mutable_params().set_int("max_iterations", steps);
        solver->mutable_params().set_double("tolerance", 0.0);
        solver->solve();
        return solver->iterate();
    };
    const SeparableData data = separable_dirichlet(8, 40, 4, 25.0, 11);
    const auto plain = std::make_shared<const SelfDictionary>(data.X, 4, -1.0, 1e-5);
    const auto corpus = std::make_shared<const TopicModel>(random_corpus(), 4, 1, 0, 5e-7, 1e-5, 0.0);
    const auto graph = std::make_shared<const CommunityModel>(sampled_graph(1).A, 3, 0.99, 5e-7, 1e-5);
    for (const auto& [problem, runs] : {std::pair{std::shared_ptr<const Problem>(plain), "vanilla"},
                                        std::pair{std::shared_ptr<const Problem>(corpus), "corrective"},
                                        std::pair{std::shared_ptr<const Problem>(graph), "pairwise"}}) {
        const Matrix automatic = iterate_after(problem, "auto", 3);
        for (const char* variant : {"vanilla", "away", "pairwise", "corrective"}) {
            BOOST_TEST_CONTEXT(problem->kind() << ", " << variant)
            {
                BOOST_TEST((automatic == iterate_after(problem, variant, 3)) == (std::string(variant) == runs));
            }
        }
    }
}

// Pruning keeps the fewest nodes whose squared eigenvector-row norms reach the energy asked, plus any
// tied at the cut: recomputed here from the eigenvectors.
BOOST_AUTO_TEST_CASE(community_pruning_keeps_the_nodes_carrying_the_energy)
{
    const PlantedGraph g = planted_graph();
    for (double energy : {0.5, 0.9, 0.99}) {
        const CommunityModel model(g.A, 3, energy, 0.0, 1e-5);
        const Matrix& V = model.eigenvectors();
        std::vector<double> norm2(60);
        for (std::size_t i = 0; i < 60; ++i) norm2[i] = V(i, 0) * V(i, 0) + V(i, 1) * V(i, 1) + V(i, 2) * V(i, 2);
        std::vector<double> sorted = norm2;
        std::sort(sorted.rbegin(), sorted.rend());
        const double total = std::accumulate(sorted.begin(), sorted.end(), 0.0);
        double sum = 0.0;
        std::size_t count = 0;
        while ((sum += sorted[count]) < energy * total * (1.0 - 1e-12)) ++count;
        std::vector<int64_t> expected;
        for (std::size_t i = 0; i < 60; ++i)
            if (norm2[i] >= sorted[count]) expected.push_back(static_cast<int64_t>(i));
        BOOST_TEST(model.nodes() == expected, boost::test_tools::per_element());
        BOOST_TEST(model.N() == static_cast<int64_t>(expected.size()));
        BOOST_TEST((energy == 0.99 || model.N() < 60));
    }
}

// Memberships refuse pure nodes whose eigenvector rows are dependent (a node given twice).
BOOST_AUTO_TEST_CASE(memberships_refuse_dependent_pure_nodes)
{
    const CommunityModel model(planted_graph().A, 3, 1.0, 0.0, 1e-5);
    BOOST_TEST(status_of([&] { model.memberships({0, 0, 1}); }) == FACTO_ERROR_NUMERICAL);
}

// A topics model applied to the fitted counts gives the fit's document topics (the same HALS from the same
// start on the same TF-IDF rows: 1e-12), refined or not, and a model without "weighting" weighs counts
// as [NFW]; a new document of one topic's words gets that topic, one with no kept term gets label -1 and
// zeros, and counts in (0, 1) are refused.
BOOST_AUTO_TEST_CASE(a_topics_model_gives_new_documents_their_proportions)
{
    const PlantedCorpus c = planted_corpus();
    for (const double refine : {0.0, 1e-3}) {  // each weighs new counts as its fit did
        BOOST_TEST_CONTEXT("refine " << refine)
        {
            const auto corpus = std::make_shared<const TopicModel>(random_corpus(), 4, 1, 0, 5e-7, 1e-5, refine);
            const auto fit = solved(corpus, "spa");
            Model fitted_model = capture_model(*fit);
            const Output weights = fit->output("document_topics");
            const Applied fitted = apply_model(fitted_model, random_corpus(), 1);
            for (std::size_t e = 0; e < weights.doubles.size(); ++e)
                BOOST_TEST(std::abs(fitted.rows.data()[e] - weights.doubles[e]) <= 1e-12);
            BOOST_TEST(fitted.labels == fit->output("labels").ints, boost::test_tools::per_element());
            fitted_model.arrays.erase("weighting");  // a model saved before 0.4.0 weighs them as [NFW]
            const Applied old = apply_model(fitted_model, random_corpus(), 1);
            BOOST_TEST((xt::amax(xt::abs(old.rows - fitted.rows))() == 0.0) == (refine == 0.0));
            fitted_model.arrays["weighting"] = Matrix({1, 1}, 2.0);
            BOOST_CHECK_EXCEPTION(apply_model(fitted_model, random_corpus(), 1), Error,
                                  [](const Error& e) { return e.status() == FACTO_ERROR_BAD_STATE; });
        }
    }
    const auto problem = std::make_shared<const TopicModel>(c.counts, 3, 1, 0, 1e-6, 1e-5, 1e-3);
    const auto solver = solved(problem, "spa");
    const Model model = capture_model(*solver);
    Matrix fresh({2, 9}, 0.0);
    for (int64_t w : c.words[1]) fresh(0, static_cast<std::size_t>(w)) = 2.0;  // topic 1's words, twice each
    const Applied applied = apply_model(model, fresh, 1);
    BOOST_TEST(applied.labels == (std::vector<int64_t>{1, -1}), boost::test_tools::per_element());
    for (std::size_t k = 0; k < 3; ++k) {
        BOOST_TEST(std::abs(applied.rows(0, k) - (k == 1)) <= 1e-8);
        BOOST_TEST(applied.rows(1, k) == 0.0);
    }
    fresh(1, 0) = 0.5;
    BOOST_CHECK_EXCEPTION(apply_model(model, fresh, 1), Error, [](const Error& e) { return e.status() == FACTO_ERROR_OUT_OF_RANGE; });
    BOOST_CHECK_EXCEPTION(apply_model(model, Matrix({1, 8}, 1.0), 1), Error,
                          [](const Error& e) { return e.status() == FACTO_ERROR_DIMENSION; });
}

// A communities model applied to the fitted adjacency gives the fit's memberships (the Nystrom rows equal
// V's rows up to the eigensolver's residual, 1e-8 on memberships in [0, 1]); a node with no edge gets -1.
BOOST_AUTO_TEST_CASE(a_communities_model_gives_new_nodes_their_memberships)
{
    const PlantedGraph g = planted_graph();
    const auto problem = std::make_shared<const CommunityModel>(g.A, 3, 1.0, 1e-6, 1e-5);
    const auto solver = solved(problem, "spa");
    const Model model = capture_model(*solver);
    const Applied fitted = apply_model(model, g.A, 1);
    const Output H = solver->output("memberships");
    for (std::size_t e = 0; e < H.doubles.size(); ++e) BOOST_TEST(std::abs(fitted.rows.data()[e] - H.doubles[e]) <= 1e-8);
    BOOST_TEST(fitted.labels == solver->output("labels").ints, boost::test_tools::per_element());
    const Applied alone = apply_model(model, Matrix({1, 60}, 0.0), 1);
    BOOST_TEST(alone.labels[0] == -1);
}

// A new node whose edges reach only nodes outside the K eigenvectors' support (here a weak second
// component, a 4-cycle of weight 0.01 beside the planted graph, whose eigenvalues are far below its
// three) has a zero eigenvector row: it takes its neighbours' fitted memberships (their edge-weighted
// mean), not -1; a node with no edge still gets -1, and one joined to a pure node gets that community.
BOOST_AUTO_TEST_CASE(a_node_beyond_the_eigenvectors_gets_its_neighbours_memberships)
{
    const PlantedGraph g = planted_graph();
    std::vector<int64_t> row, col;
    std::vector<double> value;
    for (int64_t i = 0; i < 60; ++i)
        for (int64_t e = g.A.indptr[static_cast<std::size_t>(i)]; e < g.A.indptr[static_cast<std::size_t>(i) + 1]; ++e)
            row.push_back(i), col.push_back(g.A.indices[static_cast<std::size_t>(e)]),
                value.push_back(g.A.values[static_cast<std::size_t>(e)]);
    for (int64_t i = 0; i < 4; ++i)
        for (int64_t j : {(i + 1) % 4, (i + 3) % 4}) row.push_back(60 + i), col.push_back(60 + j), value.push_back(0.01);
    const CsrMatrix A = csr_from_triplets(64, 64, row.data(), col.data(), value.data(), static_cast<int64_t>(value.size()));
    const auto solver = solved(std::make_shared<const CommunityModel>(A, 3, 1.0, 1e-6, 1e-5), "spa");
    const Model model = capture_model(*solver);
    const Output H = solver->output("memberships");
    const auto fitted = [&](std::size_t i, std::size_t k) { return H.doubles[i * 3 + k]; };
    Matrix edges({3, 64}, 0.0);
    edges(0, 60) = 1.0, edges(0, 61) = 3.0;  // the cycle only
    const int64_t pure = solver->output("selected").ints[1];
    edges(2, static_cast<std::size_t>(pure)) = 1.0;
    const Applied applied = apply_model(model, edges, 1);
    BOOST_TEST(applied.labels[0] != -1);
    for (std::size_t k = 0; k < 3; ++k)
        BOOST_TEST(std::abs(applied.rows(0, k) - (fitted(60, k) + 3.0 * fitted(61, k)) / 4.0) <= 1e-12);
    BOOST_TEST(applied.labels[1] == -1);
    BOOST_TEST(applied.labels[2] == solver->output("labels").ints[static_cast<std::size_t>(pure)]);
}

BOOST_AUTO_TEST_SUITE_END()
