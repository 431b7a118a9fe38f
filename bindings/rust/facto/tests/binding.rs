// Tests of the Rust binding: native slices in and out, parameters, stepping, callbacks (and panics in
// them), errors, drop order, threads, and the cross-language fixture.
use facto::{Layout, MatrixRef, Problem, Scaling, Solver, StopReason, Value};
use std::path::PathBuf;

fn data_dir() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../../tests/data")
}

fn read_csv(path: PathBuf, skip_header: bool) -> (Vec<f64>, usize, usize) {
    let text = std::fs::read_to_string(&path).expect("fixture file");
    let mut values = Vec::new();
    let mut rows = 0;
    for line in text.lines().skip(if skip_header { 1 } else { 0 }).filter(|l| !l.trim().is_empty()) {
        values.extend(line.split(',').map(|v| v.trim().parse::<f64>().expect("number")));
        rows += 1;
    }
    let cols = values.len() / rows;
    (values, rows, cols)
}

fn blobs_affinity() -> (Vec<f64>, usize) {
    let (x, n, d) = read_csv(data_dir().join("blobs.csv"), true);
    let p = facto::gaussian_affinity(MatrixRef::new(&x, n, d, Layout::RowMajor).unwrap(), Some(4.0), Scaling::None).unwrap();
    (p.data, n)
}

#[test]
fn no_bandwidth_is_the_median_rule() {
    // a quarter of the median squared distance over the pairs i < j (the upper middle of an even count,
    // as the library's nth_element takes it); Some(0.0) is refused, not taken for the rule
    let (x, n, d) = read_csv(data_dir().join("blobs.csv"), true);
    let d2 = |i: usize, j: usize| (0..d).map(|c| (x[i * d + c] - x[j * d + c]).powi(2)).sum::<f64>();
    let mut pairs: Vec<f64> = (0..n).flat_map(|i| (i + 1..n).map(move |j| (i, j))).map(|(i, j)| d2(i, j)).collect();
    pairs.sort_by(|a, b| a.partial_cmp(b).unwrap());
    let b = pairs[pairs.len() / 2] / 4.0;
    let m = MatrixRef::new(&x, n, d, Layout::RowMajor).unwrap();
    let p = facto::gaussian_affinity(m, None, Scaling::None).unwrap();
    for i in 0..n {
        for j in 0..n {
            let want = if i == j { 1.0 } else { (-d2(i, j) / b).exp() };
            assert!((p.data[i * n + j] - want).abs() <= 1e-10 * want.max(1e-4), "P[{i},{j}]");
        }
    }
    assert!(facto::gaussian_affinity(m, Some(0.0), Scaling::None).is_err());
}

#[test]
fn problem_from_either_layout_has_the_same_objective() {
    let (p, n) = blobs_affinity();
    let row = Problem::simplicial_symnmf(MatrixRef::new(&p, n, n, Layout::RowMajor).unwrap(), 3).unwrap();
    assert_eq!(row.kind(), "simplicial_symnmf");
    assert_eq!(row.iterate_shape(), (n, 3));
    let w_row: Vec<f64> = (0..n * 3).map(|i| if i % 3 == 0 { 0.5 } else { 0.25 }).collect();
    let mut w_col = vec![0.0; n * 3];
    for i in 0..n {
        for j in 0..3 {
            w_col[i + j * n] = w_row[i * 3 + j];
        }
    }
    let a = row.objective(MatrixRef::new(&w_row, n, 3, Layout::RowMajor).unwrap()).unwrap();
    let b = row.objective(MatrixRef::new(&w_col, n, 3, Layout::ColMajor).unwrap()).unwrap();
    assert_eq!(a, b);
    assert!(a > 0.0);
}

#[test]
fn the_registry_lists_each_kinds_algorithms_with_one_default_first() {
    let kinds = facto::problem_kinds();
    assert!(kinds.iter().any(|k| k == "nomad"));
    for kind in &kinds {
        let table = facto::algorithms(kind).unwrap();
        let defaults: Vec<bool> = table.iter().map(|a| a.is_default).collect();
        assert!(!table.is_empty() && defaults[0] && !defaults[1..].contains(&true), "{kind}");
        assert_eq!(facto::default_algorithm(kind).unwrap(), table[0].name);
    }
    let (p, n) = blobs_affinity();
    let problem = Problem::simplicial_symnmf(MatrixRef::new(&p, n, n, Layout::RowMajor).unwrap(), 3).unwrap();
    let solver = Solver::with_default(&problem).unwrap();
    assert_eq!(solver.algorithm(), facto::default_algorithm("simplicial_symnmf").unwrap());
    let error = facto::algorithms("no_such_kind").unwrap_err();
    assert!(error.to_string().contains("simplicial_symnmf"), "{error}");
}

#[test]
fn parameters_by_name() {
    let (p, n) = blobs_affinity();
    let problem = Problem::simplicial_symnmf(MatrixRef::new(&p, n, n, Layout::RowMajor).unwrap(), 3).unwrap();
    let mut s = Solver::new(&problem, "frank_wolfe").unwrap();
    s.set("tolerance", 1e-9).unwrap();
    s.set("max_iterations", 25).unwrap();
    s.set("step_rule", "line_search").unwrap();
    assert_eq!(s.get("tolerance").unwrap(), Value::F64(1e-9));
    assert_eq!(s.get("max_iterations").unwrap(), Value::I64(25));
    assert_eq!(s.get("step_rule").unwrap(), Value::Str("line_search".into()));
    let table = s.params().unwrap();
    let rule = table.iter().find(|p| p.name == "step_rule").unwrap();
    assert_eq!(rule.choices, vec!["auto", "open_loop", "line_search", "curvature"]);
    s.reset_params().unwrap();
    assert_eq!(s.get("step_rule").unwrap(), Value::Str("auto".into()));
}

#[test]
fn step_then_solve_with_a_callback_that_stops_early() {
    let (p, n) = blobs_affinity();
    let problem = Problem::simplicial_symnmf(MatrixRef::new(&p, n, n, Layout::ColMajor).unwrap(), 3).unwrap();
    let mut s = Solver::new(&problem, "frank_wolfe").unwrap();
    s.set("objective_tolerance", 0.0).unwrap();
    assert_eq!(s.step().unwrap(), StopReason::Running);
    assert_eq!(s.progress().iteration, 1);
    let seen = std::sync::Arc::new(std::sync::Mutex::new(Vec::new()));
    let log = seen.clone();
    s.set_callback(move |p| {
        log.lock().unwrap().push(p.iteration);
        p.iteration >= 6
    })
    .unwrap();
    assert_eq!(s.solve().unwrap(), StopReason::StoppedByCallback);
    assert_eq!(*seen.lock().unwrap(), vec![2, 3, 4, 5, 6]);
    let w = s.iterate(Layout::ColMajor).unwrap();
    assert_eq!((w.rows, w.cols), (n, 3));
    let labels = s.labels().unwrap();
    assert_eq!(labels.len(), n);
    for i in 0..n {
        let sum: f64 = (0..3).map(|j| w.get(i, j)).sum();
        assert!((sum - 1.0).abs() < 1e-12);
        let mut best = 0; // the first largest entry, as facto documents
        for j in 1..3 {
            if w.get(i, j) > w.get(i, best) {
                best = j;
            }
        }
        assert_eq!(labels[i], best as i64);
    }
}

#[test]
fn a_panic_in_the_callback_stops_the_solve_and_resumes() {
    let (p, n) = blobs_affinity();
    let problem = Problem::simplicial_symnmf(MatrixRef::new(&p, n, n, Layout::RowMajor).unwrap(), 3).unwrap();
    let mut s = Solver::new(&problem, "frank_wolfe").unwrap();
    s.set_callback(|p| {
        if p.iteration == 3 {
            panic!("from the callback");
        }
        false
    })
    .unwrap();
    let caught = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| s.solve()));
    assert!(caught.is_err());
    assert_eq!(s.progress().iteration, 3);
    s.clear_callback().unwrap();
    assert!(s.step().is_ok());
}

#[test]
fn native_errors_for_bad_input() {
    let (mut p, n) = blobs_affinity();
    p[1] = f64::NAN;
    let e = Problem::simplicial_symnmf(MatrixRef::new(&p, n, n, Layout::RowMajor).unwrap(), 3).err().unwrap();
    assert_eq!(e.status_name(), "FACTO_ERROR_NOT_FINITE");
    assert!(e.message().contains('P'));
    assert!(MatrixRef::new(&p, n, n - 1, Layout::RowMajor).is_err());
    let (p, n) = blobs_affinity();
    let e = Problem::simplicial_symnmf(MatrixRef::new(&p[..n * 10], n, 10, Layout::RowMajor).unwrap(), 3).err().unwrap();
    assert_eq!(e.status(), facto_sys::FACTO_ERROR_DIMENSION);
    let problem = Problem::simplicial_symnmf(MatrixRef::new(&p, n, n, Layout::RowMajor).unwrap(), 3).unwrap();
    assert_eq!(Solver::new(&problem, "simplex").err().unwrap().status_name(), "FACTO_ERROR_UNSUPPORTED");
    let mut s = Solver::new(&problem, "frank_wolfe").unwrap();
    let e = s.set("tolerence", 1e-3).unwrap_err();
    assert_eq!(e.status_name(), "FACTO_ERROR_UNKNOWN_PARAMETER");
    assert!(e.to_string().contains("tolerence"));
    assert_eq!(s.set("max_iterations", 2.5).unwrap_err().status_name(), "FACTO_ERROR_PARAMETER_TYPE");
    assert_eq!(s.iterate(Layout::RowMajor).unwrap_err().status_name(), "FACTO_ERROR_BAD_STATE");
    assert!(s.step().is_ok()); // usable after the errors
}

#[test]
fn handles_drop_in_any_order_and_solvers_run_on_threads() {
    let (p, n) = blobs_affinity();
    let problem = Problem::simplicial_symnmf(MatrixRef::new(&p, n, n, Layout::RowMajor).unwrap(), 3).unwrap();
    let mut a = Solver::new(&problem, "frank_wolfe").unwrap();
    let mut b = Solver::new(&problem, "projected_gradient").unwrap();
    drop(problem); // the solvers keep its data alive
    a.set("max_iterations", 30).unwrap();
    b.set("max_iterations", 30).unwrap();
    let mut serial = Solver::new(
        &Problem::simplicial_symnmf(MatrixRef::new(&p, n, n, Layout::RowMajor).unwrap(), 3).unwrap(),
        "frank_wolfe",
    )
    .unwrap();
    serial.set("max_iterations", 30).unwrap();
    serial.solve().unwrap();
    let (wa, _) = std::thread::scope(|scope| {
        let ta = scope.spawn(move || {
            a.solve().unwrap();
            a.iterate(Layout::RowMajor).unwrap()
        });
        let tb = scope.spawn(move || b.solve().unwrap());
        (ta.join().unwrap(), tb.join().unwrap())
    });
    assert_eq!(wa, serial.iterate(Layout::RowMajor).unwrap());
}

#[test]
fn cross_language_fixture() {
    let reference = match std::env::var("FACTO_FIXTURE_REFERENCE") {
        Ok(path) => path,
        Err(_) => {
            eprintln!("FACTO_FIXTURE_REFERENCE not set (CTest sets it): skipped");
            return;
        }
    };
    let (p, n, _) = read_csv(data_dir().join("fixture/affinity.csv"), false);
    let problem = Problem::simplicial_symnmf(MatrixRef::new(&p, n, n, Layout::RowMajor).unwrap(), 3).unwrap();
    let mut s = Solver::new(&problem, "frank_wolfe").unwrap();
    s.set("seed", 7).unwrap();
    s.set("max_iterations", 40).unwrap();
    s.set("tolerance", 0.0).unwrap();
    s.set("objective_tolerance", 0.0).unwrap();
    s.solve().unwrap();
    let w = s.iterate(Layout::RowMajor).unwrap();
    let (expected, rows, cols) = read_csv(PathBuf::from(reference), false);
    assert_eq!((rows, cols), (n, 3));
    let worst = w.data.iter().zip(&expected).map(|(a, b)| (a - b).abs()).fold(0.0, f64::max);
    assert!(worst <= 1e-12, "largest difference {}", worst);
}

#[test]
fn data_helpers() {
    let x = facto::read_matrix(data_dir().join("blobs.csv").to_str().unwrap()).unwrap();
    let (native, n, d) = read_csv(data_dir().join("blobs.csv"), true);
    assert_eq!((x.rows, x.cols), (n, d));
    assert_eq!(x.data, native);
    assert!(facto::read_matrix("/nonexistent.csv").unwrap_err().status_name() == "FACTO_ERROR_IO");
    assert_eq!(facto::clustering_accuracy(&[5, 5, 4, 5], &[0, 0, 1, 1]).unwrap(), 0.75);
    assert!(facto::version().starts_with("0."));
}

#[test]
fn symnmf_on_a_knn_graph_and_dense_agree() {
    let (x, n, d) = read_csv(data_dir().join("blobs.csv"), true);
    let (labels, _, _) = read_csv(data_dir().join("blobs_labels.csv"), false);
    let truth: Vec<i64> = labels.iter().map(|&v| v as i64).collect();
    let graph = facto::knn_similarity(MatrixRef::new(&x, n, d, Layout::RowMajor).unwrap(), 0,
                                      facto::Similarity::Gaussian, Scaling::Auto).unwrap();
    assert_eq!((graph.rows, graph.cols), (n, n));
    assert!(graph.values.len() >= n * 7);
    let mut dense = vec![0.0; n * n];
    for i in 0..n {
        for p in graph.indptr[i]..graph.indptr[i + 1] {
            dense[i * n + graph.indices[p as usize] as usize] = graph.values[p as usize];
        }
    }
    let sparse_problem = Problem::symnmf_sparse(&graph, 3).unwrap();
    let dense_problem = Problem::symnmf(MatrixRef::new(&dense, n, n, Layout::RowMajor).unwrap(), 3).unwrap();
    let z = vec![0.3; n * 3];
    let (a, b) = (sparse_problem.objective(MatrixRef::new(&z, n, 3, Layout::RowMajor).unwrap()).unwrap(),
                  dense_problem.objective(MatrixRef::new(&z, n, 3, Layout::RowMajor).unwrap()).unwrap());
    assert!((a - b).abs() <= 1e-12 * a.abs());
    for name in ["nolips", "projected_gradient", "coordinate_descent", "sym_hals", "sym_anls"] {
        let mut s = Solver::new(&sparse_problem, name).unwrap();
        s.set("seed", 2).unwrap();
        s.set("max_iterations", 2000).unwrap();
        s.set("objective_tolerance", 0.0).unwrap();
        s.solve().unwrap();
        let labels = s.labels().unwrap();
        assert_eq!(facto::clustering_accuracy(&labels, &truth).unwrap(), 1.0, "{}", name);
    }
}

#[test]
fn edm_completion_recovers_the_helix() {
    let points = facto::helix(200, 3).unwrap();
    let (i, j, d) = facto::sample_pairs(points.view(), 0.2, 4).unwrap();
    assert!(i.iter().zip(&j).all(|(a, b)| a < b));
    let problem = Problem::edm_completion(200, 3, &i, &j, &d).unwrap();
    assert_eq!(problem.kind(), "edm_completion");
    for kernel in ["universal", "gram"] {
        let mut s = Solver::new(&problem, "nolips").unwrap();
        s.set("kernel", kernel).unwrap();
        s.set("max_iterations", 20000).unwrap();
        s.set("tolerance", 1e-9).unwrap();
        s.solve().unwrap();
        let x = s.iterate(Layout::RowMajor).unwrap();
        assert!(facto::distance_nrmse(x.view(), points.view(), 10_000_000, 0).unwrap() < 1e-6, "{}", kernel);
    }
    match Problem::edm_completion(200, 3, &i, &i, &d) {
        Err(err) => assert_eq!(err.status_name(), "FACTO_ERROR_INVALID_ARGUMENT"),
        Ok(_) => panic!("a pair joining a point to itself was accepted"),
    }
    assert_eq!(facto::read_matrix_market("/nonexistent.mtx").unwrap_err().status_name(), "FACTO_ERROR_IO");
}

#[test]
fn merit_and_spa_find_the_anchors_of_noiseless_separable_data() {
    let (x, anchors) = facto::separable_data(facto::Separable::Midpoints, 50, 55, 10, f64::INFINITY, 3).unwrap();
    let problem = facto::Problem::self_dictionary(x.view(), 10, &[]).unwrap();
    assert_eq!(problem.kind(), "self_dictionary");
    for name in ["merit", "spa"] {
        let mut solver = facto::Solver::new(&problem, name).unwrap();
        solver.set("max_iterations", 300).unwrap();
        solver.solve().unwrap();
        assert_eq!(solver.selected().unwrap(), anchors, "{}", name);
        let h = solver.output_f64("H", facto::Layout::RowMajor).unwrap();
        assert_eq!((h.rows, h.cols), (10, 55));
        for l in 0..55 {
            let sum: f64 = (0..10).map(|k| h.get(k, l)).sum();
            assert!((sum - 1.0).abs() < 1e-12);
        }
    }
    // the same X as sparse rows of its entries: SPA and SNPA pick the anchors; merit refuses sparse points
    let rows = every_entry(&x);
    let sparse = facto::Problem::self_dictionary_sparse(&rows, 10, &[]).unwrap();
    for name in ["spa", "snpa"] {
        let mut solver = facto::Solver::new(&sparse, name).unwrap();
        assert_eq!(solver.solve().unwrap(), facto::StopReason::Converged);
        assert_eq!(solver.selected().unwrap(), anchors, "{} on sparse points", name);
    }
    assert_eq!(facto::Solver::new(&sparse, "merit").err().unwrap().status_name(), "FACTO_ERROR_UNSUPPORTED");
    // the heuristic lambda needs K; the midpoints model needs N = K + K (K - 1) / 2
    assert!(facto::Problem::self_dictionary(x.view(), 0, &[]).is_err());
    assert!(facto::separable_data(facto::Separable::Midpoints, 10, 20, 5, 10.0, 0).is_err());
}

#[test]
fn problem_parameters_not_given_are_the_librarys_defaults() {
    let table = facto::problem_params("self_dictionary").unwrap();
    let names: Vec<&str> = table.iter().map(|p| p.name.as_str()).collect();
    assert_eq!(names, ["lambda", "mu"]);
    assert!(facto::problem_params("symnmf").unwrap().is_empty());
    let default = |name: &str| match table.iter().find(|p| p.name == name).unwrap().default {
        Value::F64(v) => v,
        _ => panic!("{} is not a double", name),
    };
    let (x, _) = facto::separable_data(facto::Separable::Dirichlet, 8, 12, 3, 30.0, 2).unwrap();
    let mut c = vec![0.0; 144]; // the identity: at a constant C, Phi_mu is 1 whatever mu
    for i in 0..12 {
        c[i * 13] = 1.0;
    }
    let at = |p: &Problem| p.objective(MatrixRef::new(&c, 12, 12, Layout::RowMajor).unwrap()).unwrap();
    let chosen = Problem::self_dictionary(x.view(), 3, &[]).unwrap();
    let given = Problem::self_dictionary(x.view(), 3, &[("lambda", default("lambda")), ("mu", default("mu"))]).unwrap();
    let other = Problem::self_dictionary(x.view(), 3, &[("mu", 1e-2)]).unwrap();
    assert_eq!(at(&chosen), at(&given));
    assert_ne!(at(&chosen), at(&other));
    let refused = Problem::self_dictionary(x.view(), 3, &[("lam", 1.0)]).err().unwrap();
    assert_eq!(refused.status_name(), "FACTO_ERROR_UNKNOWN_PARAMETER");
}

#[test]
fn away_and_pairwise_frank_wolfe_reach_the_stationary_point_and_report_their_gaps() {
    let (p, n) = blobs_affinity();
    let problem = Problem::simplicial_symnmf(MatrixRef::new(&p, n, n, Layout::RowMajor).unwrap(), 3).unwrap();
    let run = |variant: &str| {
        let mut s = Solver::new(&problem, "frank_wolfe").unwrap();
        s.set("variant", variant).unwrap();
        s.set("max_iterations", 300).unwrap();
        s.set("tolerance", 1e-12).unwrap();
        s.set("objective_tolerance", 0.0).unwrap();
        s.solve().unwrap();
        let gaps = s.output_f64("gaps", Layout::RowMajor).unwrap();
        // each gap a sum of terms nonnegative up to rounding
        let slack = 1e-12 * s.progress().objective;
        assert!(gaps.get(0, 0) >= 0.0 && gaps.get(0, 1) >= -slack && gaps.get(0, 2) >= gaps.get(0, 0) - slack);
        s.progress().stationarity
    };
    assert!(run("vanilla") > 1e-8);
    assert!(run("away") <= 1e-12);
    assert!(run("pairwise") <= 1e-12);
    // a step rule the variant cannot take is refused when set
    let mut s = Solver::new(&problem, "frank_wolfe").unwrap();
    s.set("variant", "pairwise").unwrap();
    assert_eq!(s.set("step_rule", "curvature").unwrap_err().status_name(), "FACTO_ERROR_INVALID_ARGUMENT");
}

#[test]
fn the_penalty_method_ends_feasible() {
    let (p, n) = blobs_affinity();
    let problem = Problem::simplicial_symnmf(MatrixRef::new(&p, n, n, Layout::RowMajor).unwrap(), 3).unwrap();
    let mut s = Solver::new(&problem, "penalty_method").unwrap();
    let reason = s.solve().unwrap();
    assert!(reason == facto::StopReason::Converged || reason == facto::StopReason::Stalled, "{:?}", reason);
    let limit = match s.get("feasibility_tolerance").unwrap() {
        facto::Value::F64(v) => v,
        other => panic!("{:?}", other),
    };
    assert!(s.progress().feasibility <= limit);
    let penalties = s.output_f64("penalties", Layout::RowMajor).unwrap();
    assert!(penalties.data.iter().all(|&c| c >= 1.0)); // they start at 1 and only grow
}

#[test]
fn nomad_by_both_solvers_and_in_layers() {
    let (x, labels) = facto::manifold_points(facto::Manifold::TwoRings, 100, 0.5, 0.0, 0).unwrap();
    assert_eq!((x.rows, x.cols), (100, 2));
    assert_eq!((labels[0], labels[99]), (0, 1));
    let d = facto::nomad_gram(x.view()).unwrap();
    let problem = Problem::nomad(d.view(), 8).unwrap();
    assert_eq!(problem.kind(), "nomad");
    for name in ["nomad_cgm", "burer_monteiro"] {
        let mut solver = Solver::new(&problem, name).unwrap();
        assert_eq!(solver.solve().unwrap(), facto::StopReason::Converged, "{}", name);
        let limit = match solver.get("feasibility_tolerance").unwrap() {
            facto::Value::F64(v) => v,
            other => panic!("{:?}", other),
        };
        assert!(solver.progress().feasibility <= limit, "{}", name);
        // the stationarity bound in force (burer_monteiro's tolerance 0 resolves to 1e-6 on the feasible factors)
        assert!(solver.progress().stationarity <= solver.progress().tolerance, "{}", name);
        if name == "burer_monteiro" {
            assert_eq!(solver.progress().tolerance, 1e-6);
        }
        let q = solver.iterate(Layout::RowMajor).unwrap();
        let f = solver.output_f64("feasibility", Layout::RowMajor).unwrap();
        // nomad_cgm keeps the equalities by construction; burer_monteiro to its feasibility tolerance
        let tolerance = if name == "nomad_cgm" { 1e-10 } else { limit };
        assert!(f.data[2] <= tolerance && f.data[3] <= 8.0 * tolerance, "{}: {:?}", name, f.data);
        let row: f64 = (0..100).map(|j| q.get(3, j)).sum();
        assert!((row - 1.0).abs() <= tolerance, "{}", name);
        // Sec. 3's hard assignment: Q's connected components, numbered by their smallest point; at
        // threshold 0 every positive entry is an edge, so there are at most as many (the rule named: by
        // default k-means takes over where the components are not K)
        solver.set("label_rule", "components").unwrap();
        let components = solver.output_i64("labels").unwrap();
        assert_eq!((components.len(), components[0]), (100, 0), "{}", name);
        solver.set("component_threshold", 0.0).unwrap();
        let coarse = solver.output_i64("labels").unwrap();
        assert!(coarse.iter().max() <= components.iter().max(), "{}", name);
        if name == "burer_monteiro" {
            let y = solver.output_f64("factor", Layout::RowMajor).unwrap();
            assert_eq!((y.rows, y.cols), (100, 24)); // r = 3 K
            assert!(y.data.iter().all(|&v| v >= 0.0));
            assert!(Problem::nomad_layer(&solver, 9).is_err()); // K must not grow
        }
    }
    let layers = facto::multilayer_nomad(d.view(), &[8, 4], Some("burer_monteiro"), |s| s.set("seed", 3i64)).unwrap();
    assert_eq!(layers.len(), 2);
    let trace: f64 = (0..100).map(|i| layers[1].get(i, i)).sum();
    assert!((trace - 4.0).abs() < 1e-4);
    assert!(facto::multilayer_nomad(d.view(), &[4, 8], None, |_| Ok(())).is_err());
}

#[test]
fn nomad_on_points_never_forms_d() {
    // the rings as points: the same objective as on their Gram matrix at any Q, and burer_monteiro
    // converges through products with the points
    let (x, _) = facto::manifold_points(facto::Manifold::TwoRings, 60, 0.5, 0.0, 0).unwrap();
    let points = Problem::nomad_points(x.view(), 4).unwrap();
    let dense = Problem::nomad(facto::nomad_gram(x.view()).unwrap().view(), 4).unwrap();
    assert_eq!(points.kind(), "nomad");
    let mut solver = Solver::new(&points, "burer_monteiro").unwrap();
    assert_eq!(solver.solve().unwrap(), facto::StopReason::Converged);
    let q = solver.iterate(Layout::RowMajor).unwrap();
    let (a, b) = (points.objective(q.view()).unwrap(), dense.objective(q.view()).unwrap());
    assert!((a - b).abs() <= 1e-12 * b.abs(), "{a} against {b}");
    assert!((solver.progress().objective - b).abs() <= 1e-10 * b.abs());
    // the same points as sparse rows: their centring implicit, the same D to rounding
    let rows = every_entry(&x);
    let sparse = Problem::nomad_points_sparse(&rows, 4).unwrap();
    let s = sparse.objective(q.view()).unwrap();
    assert!((s - b).abs() <= 1e-12 * b.abs(), "{s} against {b}");
    // the model's means from the points dense or sparse: the same labels for new points
    let (mut by_dense, mut by_sparse) = (facto::Model::from_solver(&solver).unwrap(), facto::Model::from_solver(&solver).unwrap());
    by_dense.use_points(x.view()).unwrap();
    by_sparse.use_points_sparse(&rows).unwrap();
    assert_eq!(by_dense.apply(x.view()).unwrap().labels, by_sparse.apply_sparse(&rows).unwrap().labels);
    // the same points in single precision: D of their values as f64, to the rounding of its sums
    let single: Vec<f32> = (0..x.rows * x.cols).map(|k| x.get(k / x.cols, k % x.cols) as f32).collect();
    let widened: Vec<f64> = single.iter().map(|&v| v as f64).collect();
    let of_single = Problem::nomad_points(MatrixRef::new(&single, x.rows, x.cols, Layout::RowMajor).unwrap(), 4).unwrap();
    let of_widened = Problem::nomad_points(MatrixRef::new(&widened, x.rows, x.cols, Layout::RowMajor).unwrap(), 4).unwrap();
    let (f, w) = (of_single.objective(q.view()).unwrap(), of_widened.objective(q.view()).unwrap());
    assert!((f - w).abs() <= 1e-12 * w.abs(), "{f} against {w}");
    let zeros = facto::Matrix { data: vec![0.0; 10], rows: 5, cols: 2, layout: Layout::RowMajor };
    assert!(Problem::nomad_points(zeros.view(), 2).is_err()); // every point is 0
}

#[test]
fn topics_and_communities_recover_planted_structure() {
    let counts = facto::read_matrix_market(data_dir().join("planted_corpus.mtx").to_str().unwrap()).unwrap();
    for algorithm in ["merit", "spa", "snpa", "fast_anchor"] {
        let problem = Problem::topics(&counts, 3, &[("min_df", 1.0), ("lambda", 1e-6)]).unwrap();
        let mut solver = Solver::new(&problem, algorithm).unwrap();
        solver.solve().unwrap();
        assert_eq!(solver.selected().unwrap(), vec![0, 1, 2], "{algorithm}");
        let labels = solver.labels().unwrap();
        let truth: Vec<i64> = (0..60).map(|d| d % 3).collect();
        assert_eq!(facto::clustering_accuracy(&labels, &truth).unwrap(), 1.0);
    }
    let graph = facto::read_matrix_market(data_dir().join("planted_graph.mtx.gz").to_str().unwrap()).unwrap();
    let (truth, n, k) = read_csv(data_dir().join("planted_graph_membership.csv"), false);
    let problem = Problem::communities(&graph, 3, &[("energy", 1.0), ("lambda", 1e-6)]).unwrap();
    let mut solver = Solver::new(&problem, "geonmf").unwrap();
    solver.solve().unwrap();
    assert_eq!(solver.selected().unwrap(), vec![0, 1, 2]);
    let memberships = solver.output_f64("memberships", Layout::RowMajor).unwrap();
    let src = facto::averaged_spearman(MatrixRef::new(&memberships.data, n, k, Layout::RowMajor).unwrap(),
                                       MatrixRef::new(&truth, n, k, Layout::RowMajor).unwrap()).unwrap();
    assert!((src - 1.0).abs() < 1e-12);
    let labels = facto::kmeans(MatrixRef::new(&truth, n, k, Layout::RowMajor).unwrap(), 3, 5, 1).unwrap();
    assert_eq!(labels.len(), n);
    assert!(Problem::communities(&graph, 3, &[("energy", 0.0)]).is_err());
}

#[test]
fn a_fitted_model_labels_new_points_and_survives_a_save() {
    // SymNMF on the blobs' kNN graph; its model with the kNN rule gives every blob point the fit's label
    // (each finds its blob's points as neighbours), and a saved and loaded model applies identically
    let (x, n, d) = read_csv(data_dir().join("blobs.csv"), true);
    let (truth, _, _) = read_csv(data_dir().join("blobs_labels.csv"), false);
    let truth: Vec<i64> = truth.iter().map(|&v| v as i64).collect();
    let features = MatrixRef::new(&x, n, d, Layout::RowMajor).unwrap();
    let graph = facto::knn_similarity(features, 0, facto::Similarity::Gaussian, Scaling::None).unwrap();
    let problem = Problem::symnmf_sparse(&graph, 3).unwrap();
    let mut solver = Solver::with_default(&problem).unwrap();
    assert_eq!(solver.solve().unwrap(), StopReason::Converged);
    let mut model = facto::Model::from_solver(&solver).unwrap();
    assert_eq!(model.kind(), "symnmf");
    model.use_knn_similarity(features, 0, facto::Similarity::Gaussian, Scaling::None).unwrap();
    let applied = model.apply(features).unwrap();
    assert_eq!(facto::clustering_accuracy(&applied.labels, &truth).unwrap(), 1.0);
    assert!(applied.residuals.iter().all(|&r| r >= 0.0));
    let directory = std::env::temp_dir().join(format!("facto_rust_model_{}", std::process::id()));
    model.save(directory.to_str().unwrap(), Some("{\"by\": \"rust\"}")).unwrap();
    let loaded = facto::Model::load(directory.to_str().unwrap()).unwrap();
    assert_eq!(loaded.settings(), "{\"by\": \"rust\"}");
    assert_eq!(loaded.apply(features).unwrap(), applied);
    std::fs::remove_dir_all(&directory).unwrap();
    let wrong = MatrixRef::new(&x[..2 * (d - 1)], 2, d - 1, Layout::RowMajor).unwrap();
    let error = model.apply(wrong).unwrap_err();
    assert_eq!(error.status_name(), "FACTO_ERROR_DIMENSION");
    // described, the kNN rule's copy of the training points is named; dropped, the factor is left, which
    // takes affinity rows to the fitted points, not their features
    let described = model.describe().unwrap();
    assert!(described.contains(&format!("{{\"name\": \"knn_features\", \"rows\": {}, \"cols\": {},", n, d)));
    assert!(described.contains("\"training_features\": true, \"arrays\""));
    model.drop_training_features().unwrap();
    assert_eq!(model.array_names().unwrap(), vec!["H".to_string()]);
    assert!(model.describe().unwrap().contains("\"training_features\": false, \"arrays\""));
    assert_eq!(model.apply(features).unwrap_err().status_name(), "FACTO_ERROR_DIMENSION");
    // the HNSW rule: on the 90 blob points its search (32 candidates) finds the exact neighbours
    let mut by_hnsw = facto::Model::from_solver(&solver).unwrap();
    by_hnsw.use_knn_similarity_search(features, 0, facto::Similarity::Gaussian, Scaling::None, facto::Search::Hnsw)
        .unwrap();
    assert_eq!(facto::clustering_accuracy(&by_hnsw.apply(features).unwrap().labels, &truth).unwrap(), 1.0);
    assert_eq!(facto::knn_search_for(n, facto::Search::Auto), facto::Search::Exact);
    assert_eq!(facto::knn_search_for(1_000_000, facto::Search::Auto), facto::Search::Hnsw);
    // the same features as sparse rows give the same graph, to the rounding of the products
    let mut sparse_x = facto::CsrMatrix { rows: n, cols: d, indptr: vec![0], indices: vec![], values: vec![] };
    for row in 0..n {
        for c in 0..d {
            if x[row * d + c] != 0.0 {
                sparse_x.indices.push(c as i64);
                sparse_x.values.push(x[row * d + c]);
            }
        }
        sparse_x.indptr.push(sparse_x.values.len() as i64);
    }
    let from_sparse = facto::knn_similarity_sparse(&sparse_x, 0, facto::Similarity::Gaussian, Scaling::None,
                                                   facto::Search::Auto).unwrap();
    assert_eq!(from_sparse.indices, graph.indices);
    assert!(from_sparse.values.iter().zip(&graph.values).all(|(a, b)| (a - b).abs() <= 1e-12));
    // their rule keeps the rows sparse, never a dense copy, and labels the points as the dense rule does,
    // given sparse or dense
    let mut by_rows = facto::Model::from_solver(&solver).unwrap();
    by_rows.use_knn_similarity_sparse(&sparse_x, 0, facto::Similarity::Gaussian, Scaling::None, facto::Search::Auto)
        .unwrap();
    let names = by_rows.array_names().unwrap();
    assert!(names.contains(&"knn_csr_data".to_string()) && !names.contains(&"knn_features".to_string()));
    assert_eq!(by_rows.apply_sparse(&sparse_x).unwrap().labels, applied.labels);
    assert_eq!(by_rows.apply(features).unwrap().labels, applied.labels);
    assert!(by_rows.use_knn_similarity_sparse(&sparse_x, 0, facto::Similarity::Gaussian, Scaling::None,
                                              facto::Search::Hnsw).is_err());
    // f32 features are read in single precision: the graph of the same values as f64, exactly
    let single: Vec<f32> = x.iter().map(|&v| v as f32).collect();
    let widened: Vec<f64> = single.iter().map(|&v| v as f64).collect();
    for search in [facto::Search::Exact, facto::Search::Hnsw] {
        let of_single = facto::knn_similarity_search(MatrixRef::new(&single, n, d, Layout::RowMajor).unwrap(), 0,
                                                     facto::Similarity::Gaussian, Scaling::Auto, search).unwrap();
        let of_double = facto::knn_similarity_search(MatrixRef::new(&widened, n, d, Layout::RowMajor).unwrap(), 0,
                                                     facto::Similarity::Gaussian, Scaling::Auto, search).unwrap();
        assert_eq!(of_single, of_double);
    }
    let (_, cophenetic, dispersion) = facto::consensus(&[applied.labels.clone(), applied.labels].concat(), n).unwrap();
    assert!((cophenetic - 1.0).abs() < 1e-12 && (dispersion - 1.0).abs() < 1e-12);
}

// Every entry of a dense matrix (zeros too) as CSR rows: the same data given sparse.
fn every_entry(x: &facto::Matrix) -> facto::CsrMatrix {
    let mut rows = facto::CsrMatrix { rows: x.rows, cols: x.cols, indptr: vec![0], indices: vec![], values: vec![] };
    for i in 0..x.rows {
        for c in 0..x.cols {
            rows.indices.push(c as i64);
            rows.values.push(x.get(i, c));
        }
        rows.indptr.push(rows.values.len() as i64);
    }
    rows
}

// A float64 array as numpy.save writes it: a model file edited by hand.
fn write_npy(path: &std::path::Path, values: &[f64], rows: usize, cols: usize) {
    let mut header = format!("{{'descr': '<f8', 'fortran_order': False, 'shape': ({}, {}), }}", rows, cols);
    header.push_str(&" ".repeat(127 - 10 - header.len()));
    header.push('\n');
    let mut bytes = b"\x93NUMPY\x01\x00".to_vec();
    bytes.extend_from_slice(&(header.len() as u16).to_le_bytes());
    bytes.extend_from_slice(header.as_bytes());
    values.iter().for_each(|v| bytes.extend_from_slice(&v.to_le_bytes()));
    std::fs::write(path, bytes).unwrap();
}

fn refused_load(directory: &std::path::Path) -> facto::Error {
    match facto::Model::load(directory.to_str().unwrap()) {
        Ok(_) => panic!("{} loaded", directory.display()),
        Err(error) => error,
    }
}

#[test]
fn a_saved_model_is_untrusted_input() {
    // a hand-edited file with more neighbours than fitted points, an array that is a symbolic link, and a
    // model rebuilt from arrays that break its kind's contract are refused by name; saving does not replace
    // a user's file
    let (x, n, d) = read_csv(data_dir().join("blobs.csv"), true);
    let features = MatrixRef::new(&x, n, d, Layout::RowMajor).unwrap();
    let graph = facto::knn_similarity(features, 0, facto::Similarity::Gaussian, Scaling::None).unwrap();
    let problem = Problem::symnmf_sparse(&graph, 3).unwrap();
    let mut solver = Solver::with_default(&problem).unwrap();
    solver.solve().unwrap();
    let mut model = facto::Model::from_solver(&solver).unwrap();
    model.use_knn_similarity(features, 0, facto::Similarity::Gaussian, Scaling::None).unwrap();
    let directory = std::env::temp_dir().join(format!("facto_rust_untrusted_{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&directory);
    model.save(directory.to_str().unwrap(), None).unwrap();
    write_npy(&directory.join("knn_settings.npy"), &[1000.0, 0.0, 7.0], 1, 3);
    let error = refused_load(&directory);
    assert_eq!(error.status_name(), "FACTO_ERROR_BAD_STATE");
    assert!(error.message().contains("'knn_settings' holds k = 1000"), "{}", error.message());
    let outside = directory.with_extension("npy");
    std::fs::rename(directory.join("H.npy"), &outside).unwrap();
    std::os::unix::fs::symlink(&outside, directory.join("H.npy")).unwrap();
    let error = refused_load(&directory);
    assert_eq!(error.status_name(), "FACTO_ERROR_IO");
    assert!(error.message().contains("symbolic link"), "{}", error.message());
    let mut rebuilt = facto::Model::new("symnmf").unwrap();
    rebuilt.set_array("H", &[1.0, -1.0, 0.0, 1.0], 2, 2).unwrap();
    let error = rebuilt.apply(MatrixRef::new(&[0.5, 0.5], 1, 2, Layout::RowMajor).unwrap()).unwrap_err();
    assert_eq!(error.status_name(), "FACTO_ERROR_BAD_STATE");
    assert!(error.message().contains("'H' has entry (0, 1) = -1"), "{}", error.message());
    std::fs::remove_dir_all(&directory).unwrap();
    std::fs::create_dir(&directory).unwrap();
    std::fs::write(directory.join("H.npy"), "the user's data").unwrap();
    let error = model.save(directory.to_str().unwrap(), None).unwrap_err();
    assert_eq!(error.status_name(), "FACTO_ERROR_IO");
    assert_eq!(std::fs::read_to_string(directory.join("H.npy")).unwrap(), "the user's data");
    std::fs::remove_dir_all(&directory).unwrap();
    std::fs::remove_file(&outside).unwrap();
}
