"""A minimal PEP 517 build backend for the pure-Python facto package: it zips facto/ into a wheel.

It exists so that `pip install bindings/python` works without network access (no setuptools download).
"""
import base64
import hashlib
import io
import os
import re
import tarfile
import zipfile

NAME = "facto"
HERE = os.path.dirname(os.path.abspath(__file__))


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
    wheel_name = f"{NAME}-{version}-py3-none-any.whl"
    records = []
    with zipfile.ZipFile(os.path.join(wheel_directory, wheel_name), "w", zipfile.ZIP_DEFLATED) as whl:
        def add(arcname, data):
            whl.writestr(arcname, data)
            records.append(_record_line(arcname, data))
        for path, arcname in _package_files():
            with open(path, "rb") as f:
                add(arcname, f.read())
        add(f"{dist_info}/METADATA", _metadata().encode())
        add(f"{dist_info}/WHEEL", b"Wheel-Version: 1.0\nGenerator: facto_build\nRoot-Is-Purelib: true\n"
                                  b"Tag: py3-none-any\n")
        records.append(f"{dist_info}/RECORD,,")
        whl.writestr(f"{dist_info}/RECORD", "\n".join(records) + "\n")
    return wheel_name


def build_sdist(sdist_directory, config_settings=None):
    base = f"{NAME}-{_version()}"
    name = f"{base}.tar.gz"
    with tarfile.open(os.path.join(sdist_directory, name), "w:gz") as tar:
        for rel in ("pyproject.toml", "facto_build.py", "README.md"):
            tar.add(os.path.join(HERE, rel), arcname=f"{base}/{rel}")
        for path, arcname in _package_files():
            tar.add(path, arcname=f"{base}/{arcname}")
        info = tarfile.TarInfo(f"{base}/PKG-INFO")
        data = _metadata().encode()
        info.size = len(data)
        tar.addfile(info, io.BytesIO(data))
    return name
