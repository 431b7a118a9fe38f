"""The mark of a long test: the sanitizers' run (run_tests.sh with FACTO_PRELOAD) leaves it out, since the
short tests make the same calls into the library; every other run takes it (tests/README.md)."""


def pytest_configure(config):
    config.addinivalue_line("markers", "long: seconds of solves the sanitizers' run leaves to the others")
