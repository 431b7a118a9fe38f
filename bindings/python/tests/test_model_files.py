"""A saved model is untrusted input: Model.load refuses a model directory edited as a truncated download, a
hand edit or a hostile file would edit it, with the library's message naming the array and the rule, and
never crashes the process; saving replaces only a model's own files."""
import json
import os

import numpy as np
import pytest

import facto


@pytest.fixture
def saved(tmp_path):
    rng = np.random.default_rng(0)
    X = np.vstack([rng.normal(0, 1, (30, 2)), rng.normal(6, 1, (30, 2))])
    directory = tmp_path / "model"
    facto.SymNMFClustering(2).fit(X).save_model(directory)
    return X, directory


def test_every_array_cut_to_its_first_row_is_refused(saved):
    X, directory = saved
    for name in os.listdir(directory):
        if name.endswith(".npy"):
            np.save(directory / name, np.load(directory / name)[:1])
    with pytest.raises(facto.FactoStateError, match="'H' is 1 x 2: its rank is at most its number of points, 1"):
        facto.Model.load(directory)


def test_more_neighbours_than_fitted_points_is_refused(saved):
    X, directory = saved
    settings = np.load(directory / "knn_settings.npy")
    settings[0, 0] = 1000
    np.save(directory / "knn_settings.npy", settings)
    with pytest.raises(facto.FactoStateError, match=r"'knn_settings' holds k = 1000: it must be an integer in \[1, 59\]"):
        facto.Model.load(directory)


def test_names_and_links_cannot_reach_outside_the_directory(saved, tmp_path):
    X, directory = saved
    text = (directory / "model.json").read_text()
    meta = json.loads(text)
    meta["arrays"] = ["../outside/H"] + meta["arrays"]
    (directory / "model.json").write_text(json.dumps(meta))
    with pytest.raises(facto.FactoKeyError, match=r"no array '\.\./outside/H'"):
        facto.Model.load(directory)
    (directory / "model.json").write_text(text)
    os.replace(directory / "H.npy", tmp_path / "H.npy")
    os.symlink(tmp_path / "H.npy", directory / "H.npy")
    with pytest.raises(facto.FactoIOError, match="symbolic link"):
        facto.Model.load(directory)


def test_arrays_that_break_the_contract_are_refused_when_applied(saved):
    X, directory = saved
    with facto.Model.load(directory) as model:
        arrays = model.arrays
    arrays["H"][0, 0] = -1.0  # a model rebuilt from arrays (as a pickled estimator is) is checked whole
    with facto.Model("symnmf", arrays) as model:
        with pytest.raises(facto.FactoStateError, match=r"'H' has entry \(0, 0\) = -1"):
            model.apply(X)


def test_saving_does_not_replace_a_users_file(saved, tmp_path):
    X, directory = saved
    target = tmp_path / "data"
    target.mkdir()
    (target / "H.npy").write_bytes(b"the user's data")
    with facto.Model.load(directory) as model, pytest.raises(facto.FactoIOError, match="is not a file of the facto model"):
        model.save(target)
    assert (target / "H.npy").read_bytes() == b"the user's data"
