"""facto: first-order solvers for structured low-rank matrix problems (Python bindings over the C ABI).

    import facto
    W = facto.SimplicialSymNMF(n_clusters=6).fit_transform(X)        # scikit-learn style estimators
    with facto.Problem.simplicial_symnmf(P, k=6) as problem, \\
         facto.Solver(problem, "frank_wolfe", max_iterations=300) as solver:
        solver.solve(); W = solver.iterate; labels = solver.labels   # thin layer

Estimators (scikit-learn conventions; scikit-learn itself is optional): SimplicialSymNMF,
SymNMFClustering and NOMADClustering (facto.cluster), SeparableNMF and AnchorTopicModel
(facto.decomposition), EDMCompletion (facto.manifold); fitted, they apply to new data (predict,
transform, score; facto.Model underneath, which also saves and loads models), and select_k chooses k
from restarts (consensus, cophenetic correlation, dispersion).

The shared library is found through FACTO_LIBRARY, then the copy built into the package by
`pip install`, then the loader's path (libfacto.so.0).
"""
from ._lib import (FactoError, FactoIOError, FactoKeyError, FactoMemoryError, FactoStateError, FactoTypeError,
                   FactoValueError)
from .cluster import NOMADClustering, SimplicialSymNMF, SymNMFClustering
from .decomposition import AnchorTopicModel, SeparableNMF
from .manifold import EDMCompletion
from ._base import InvalidParameterError, NotFittedError
from .core import (Algorithm, Applied, CsrMatrix, Model, ParamInfo, Problem, Progress, Solver, StopReason, algorithms,
                   default_algorithm, problem_kinds, problem_params)
from .data import (Communities, TopicModel, averaged_spearman, clustering_accuracy, detect_communities,
                   distance_nrmse, gaussian_affinity, helix, kmeans, knn_search_for, knn_similarity, manifold_points, multilayer_nomad,
                   nomad, nomad_gram, read_matrix, read_matrix_market, sample_pairs, select_anchors, separable_data,
                   topic_model, write_csv)
from .selection import KSelection, consensus, select_k
from ._lib import lib as _lib_handle

__version__ = "0.4.0"
library_version = _lib_handle.facto_version().decode()

__all__ = ["Algorithm", "AnchorTopicModel", "Applied", "Communities", "CsrMatrix", "EDMCompletion", "FactoError",
           "FactoIOError", "FactoKeyError", "FactoMemoryError", "FactoStateError", "FactoTypeError",
           "FactoValueError", "InvalidParameterError", "KSelection", "Model", "NOMADClustering", "NotFittedError",
           "ParamInfo", "Problem", "Progress", "SeparableNMF", "SimplicialSymNMF", "Solver", "StopReason",
           "SymNMFClustering", "TopicModel", "algorithms", "averaged_spearman", "clustering_accuracy", "consensus",
           "default_algorithm", "detect_communities", "distance_nrmse", "gaussian_affinity", "helix", "kmeans",
           "knn_search_for", "knn_similarity", "library_version", "manifold_points", "multilayer_nomad", "nomad", "nomad_gram",
           "problem_kinds", "problem_params", "read_matrix", "read_matrix_market", "sample_pairs", "select_anchors", "select_k",
           "separable_data", "topic_model", "write_csv"]
