"""A minimal PEP 517 build backend for facto: it builds libfacto from the repository's C++ sources with
CMake and zips it, with the facto/ package, into a wheel. It needs nothing from the network (no
setuptools download); libfacto's build needs Debian's cmake, g++, libxtensor-dev, libxtensor-blas-dev,
libopenblas-dev, liblapack-dev, liblbfgsb-dev, libhnswlib-dev and zlib1g-dev (bash cmake/install-deps.sh installs them).

The C++ sources are the repository two directories up (pip builds a local directory in place), or the
copy an sdist carries under native/. The config setting `prebuilt=PATH` (pip install
--config-settings prebuilt=PATH), or the environment variable FACTO_PREBUILT_LIBRARY, ships an already
built libfacto.so.0 instead of building one.
"""
import base64
import hashlib
import io
import os
import re
import shutil
import subprocess
import sys
import sysconfig
import tarfile
import tempfile
import zipfile

NAME = "facto"
HERE = os.path.dirname(os.path.abspath(__file__))
NATIVE_SOURCES = ("CMakeLists.txt", "cmake", "include", "src", "capi")  # what libfacto's build reads
LIBRARY = "libfacto.so.0"


def _version():
    with open(os.path.join(HERE, "pyproject.toml"), encoding="utf-8") as f:
        return re.search(r'^version\s*=\s*"([^"]+)"', f.read(), re.M).group(1)


def _metadata():
    return (f"Metadata-Version: 2.1\nName: {NAME}\nVersion: {_version()}\n"
            "Summary: Python bindings to facto (ctypes + numpy)\nRequires-Python: >=3.8\n"
            "Requires-Dist: numpy\n")


def _package_files():
    for root, _, files in os.walk(os.path.join(HERE, NAME)):
        for name in sorted(files):
            if name.endswith(".py"):
                path = os.path.join(root, name)
                yield path, os.path.relpath(path, HERE).replace(os.sep, "/")


def _record_line(arcname, data):
    digest = base64.urlsafe_b64encode(hashlib.sha256(data).digest()).rstrip(b"=").decode()
    return f"{arcname},sha256={digest},{len(data)}"


def _source_root():
    for root in (os.path.join(HERE, "native"), os.path.normpath(os.path.join(HERE, "..", ".."))):
        if os.path.isfile(os.path.join(root, "include", "facto", "facto.h")):
            return root
    raise RuntimeError("facto: libfacto's C++ sources were not found (neither native/ nor the repository two "
                       "directories up); build from the repository's bindings/python, or pass "
                       "--config-settings prebuilt=/path/to/libfacto.so.0")


def _build_library(build_dir):
    """Builds libfacto with CMake in build_dir; returns the path of the shared library."""
    cmake = shutil.which("cmake")
    if cmake is None:
        raise RuntimeError("facto: building libfacto needs cmake and a C++17 compiler (bash cmake/install-deps.sh "
                           "in the repository installs them and the libraries on Debian)")
    configure = [cmake, "-S", _source_root(), "-B", build_dir, "-DCMAKE_BUILD_TYPE=Release",
                 "-DFACTO_BUILD_TESTS=OFF", "-DFACTO_BUILD_EXAMPLES=OFF", "-DFACTO_BUILD_PROGRAMS=OFF",
                 "-DFACTO_BUILD_BENCHMARKS=OFF"]
    jobs = str(max(1, len(os.sched_getaffinity(0))))
    # The build's lines go to stderr, which pip shows with -v and otherwise turns into its spinner:
    # about 8 minutes on 2 cores, never a silent wait.
    print(f"facto: building libfacto from {_source_root()} with {jobs} jobs (about 15 core-minutes; "
          "pip install -v shows each step)", file=sys.stderr, flush=True)
    subprocess.run(configure, check=True, stdout=sys.stderr)
    subprocess.run([cmake, "--build", build_dir, "--target", "facto", "--parallel", jobs], check=True,
                   stdout=sys.stderr)
    return os.path.join(build_dir, LIBRARY)


def _native_library(config_settings):
    """The bytes of libfacto.so.0: the prebuilt one named by the settings or the environment, else built."""
    prebuilt = (config_settings or {}).get("prebuilt") or os.environ.get("FACTO_PREBUILT_LIBRARY")
    if prebuilt:
        with open(prebuilt, "rb") as f:
            return f.read()
    with tempfile.TemporaryDirectory(prefix="facto-build-") as build_dir:
        with open(os.path.realpath(_build_library(build_dir)), "rb") as f:
            return f.read()


def _wheel_tag():
    return "py3-none-" + sysconfig.get_platform().replace("-", "_").replace(".", "_")


def get_requires_for_build_wheel(config_settings=None):
    return []


def get_requires_for_build_sdist(config_settings=None):
    return []


def prepare_metadata_for_build_wheel(metadata_directory, config_settings=None):
    dist_info = f"{NAME}-{_version()}.dist-info"
    os.makedirs(os.path.join(metadata_directory, dist_info), exist_ok=True)
    with open(os.path.join(metadata_directory, dist_info, "METADATA"), "w", encoding="utf-8") as f:
        f.write(_metadata())
    return dist_info


def build_wheel(wheel_directory, config_settings=None, metadata_directory=None):
    version = _version()
    dist_info = f"{NAME}-{version}.dist-info"
    tag = _wheel_tag()
    wheel_name = f"{NAME}-{version}-{tag}.whl"
    library = _native_library(config_settings)
    records = []
    with zipfile.ZipFile(os.path.join(wheel_directory, wheel_name), "w", zipfile.ZIP_DEFLATED) as whl:
        def add(arcname, data, mode=0o644):
            info = zipfile.ZipInfo(arcname, date_time=(2020, 1, 1, 0, 0, 0))
            info.external_attr = mode << 16
            info.compress_type = zipfile.ZIP_DEFLATED
            whl.writestr(info, data)
            records.append(_record_line(arcname, data))
        for path, arcname in _package_files():
            with open(path, "rb") as f:
                add(arcname, f.read())
        add(f"{NAME}/_native/{LIBRARY}", library, 0o755)
        add(f"{dist_info}/METADATA", _metadata().encode())
        add(f"{dist_info}/WHEEL", f"Wheel-Version: 1.0\nGenerator: facto_build\nRoot-Is-Purelib: false\n"
                                  f"Tag: {tag}\n".encode())
        record = f"{dist_info}/RECORD"
        add(record, ("\n".join(records + [f"{record},,"]) + "\n").encode())
    return wheel_name


def build_sdist(sdist_directory, config_settings=None):
    """The Python package plus libfacto's C++ sources under native/, so that the sdist builds alone."""
    base = f"{NAME}-{_version()}"
    name = f"{base}.tar.gz"
    root = _source_root()
    with tarfile.open(os.path.join(sdist_directory, name), "w:gz") as tar:
        for rel in ("pyproject.toml", "facto_build.py", "README.md"):
            tar.add(os.path.join(HERE, rel), arcname=f"{base}/{rel}")
        for path, arcname in _package_files():
            tar.add(path, arcname=f"{base}/{arcname}")
        for rel in NATIVE_SOURCES:
            tar.add(os.path.join(root, rel), arcname=f"{base}/native/{rel}")
        info = tarfile.TarInfo(f"{base}/PKG-INFO")
        data = _metadata().encode()
        info.size = len(data)
        tar.addfile(info, io.BytesIO(data))
    return name
