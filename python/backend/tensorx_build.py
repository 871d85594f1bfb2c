# SPDX-License-Identifier: Apache-2.0
"""The PEP 517 build backend of the tensorx Python package (python/pyproject.toml).

Where scikit-build-core is importable -- pip's isolated build installs it, with numpy>=2, from
pyproject.toml's build-system.requires -- every hook is scikit-build-core's, once tensorx's own
knobs are passed on: $TENSORX_CMAKE_ARGS is added to $CMAKE_ARGS, $TENSORX_JOBS sets
$CMAKE_BUILD_PARALLEL_LEVEL, and a sanitizer build ($TENSORX_SANITIZE) is not stripped.

Where it is not (Debian 12 packages no scikit-build-core: `pip install --no-build-isolation
--no-index ./python` with Debian's python3-numpy, offline), the hooks below configure, build and
install the same CMake project (python/CMakeLists.txt, component "python", the same SKBUILD_*_DIR
variables) and write the wheel with the standard library, its metadata from pyproject.toml's
[project] table and its version from the same [tool.scikit-build.metadata.version] settings.
Source lists and flags are CMake's alone either way.  TENSORX_BUILD_BACKEND=cmake takes this path
even where scikit-build-core is installed.
"""
import base64
import hashlib
import os
import re
import shlex
import subprocess
import sys
import sysconfig
import tempfile
import time
import zipfile
from pathlib import Path

HERE = Path(__file__).resolve().parent.parent  # python/, where pyproject.toml is

try:
    if os.environ.get("TENSORX_BUILD_BACKEND", "") == "cmake":
        raise ImportError("TENSORX_BUILD_BACKEND=cmake")
    import scikit_build_core.build as _skbuild
except ImportError:
    _skbuild = None


def _sdist_refused(*_args, **_kwargs):
    raise RuntimeError(
        "tensorx: no sdist of python/ alone: the extension is built from the whole repository "
        "(its CMakeLists.txt, src/, frontend/, tools/); build a wheel from a clone instead "
        "(pip wheel ./python)")


def get_requires_for_build_sdist(config_settings=None):
    return []


build_sdist = _sdist_refused


def _tensorx_settings(config_settings):
    """tensorx's environment knobs in scikit-build-core's terms."""
    extra = os.environ.get("TENSORX_CMAKE_ARGS", "").strip()
    if extra:
        os.environ["CMAKE_ARGS"] = (os.environ.get("CMAKE_ARGS", "") + " " + extra).strip()
    jobs = os.environ.get("TENSORX_JOBS", "").strip()
    if jobs:
        os.environ["CMAKE_BUILD_PARALLEL_LEVEL"] = jobs
    settings = dict(config_settings or {})
    if os.environ.get("TENSORX_SANITIZE"):
        settings.setdefault("install.strip", "false")  # keep the symbols sanitizer reports name
    return settings


if _skbuild is not None:
    def get_requires_for_build_wheel(config_settings=None):
        return _skbuild.get_requires_for_build_wheel(_tensorx_settings(config_settings))

    if hasattr(_skbuild, "prepare_metadata_for_build_wheel"):  # optional hooks
        def prepare_metadata_for_build_wheel(metadata_directory, config_settings=None):
            return _skbuild.prepare_metadata_for_build_wheel(metadata_directory,
                                                             _tensorx_settings(config_settings))

    def build_wheel(wheel_directory, config_settings=None, metadata_directory=None):
        return _skbuild.build_wheel(wheel_directory, _tensorx_settings(config_settings),
                                    metadata_directory)

    def get_requires_for_build_editable(config_settings=None):
        return _skbuild.get_requires_for_build_editable(_tensorx_settings(config_settings))

    def build_editable(wheel_directory, config_settings=None, metadata_directory=None):
        return _skbuild.build_editable(wheel_directory, _tensorx_settings(config_settings),
                                       metadata_directory)
else:
    def get_requires_for_build_wheel(config_settings=None):
        # Nothing to fetch: numpy and CMake must be installed (Debian: python3-numpy, cmake).
        return []

    def build_wheel(wheel_directory, config_settings=None, metadata_directory=None):
        return _build_wheel_with_cmake(Path(wheel_directory))


# ---- the build without scikit-build-core ----------------------------------------------------------
def _pyproject():
    try:
        import tomllib
    except ImportError:  # Python 3.10
        try:
            import tomli as tomllib
        except ImportError:
            raise RuntimeError("tensorx: building without scikit-build-core on Python 3.10 needs "
                               "tomli (Debian: python3-tomli)") from None
    with open(HERE / "pyproject.toml", "rb") as f:
        return tomllib.load(f)


def _version(pyproject):
    """The version as scikit-build-core's regex provider reads it (pyproject.toml's settings)."""
    s = pyproject["tool"]["scikit-build"]["metadata"]["version"]
    # The input is a path from python/; a copy of python/ built with $TENSORX_SOURCE_DIR (as
    # scripts/test.sh's asan stage builds one) reads it from the repository's python/.
    src = os.environ.get("TENSORX_SOURCE_DIR")
    text = ((Path(src) / "python" if src else HERE) / s["input"]).read_text(encoding="utf-8")
    m = re.search(s["regex"], text, re.MULTILINE)
    if not m:
        raise RuntimeError(f"tensorx: no version in {s['input']} (regex {s['regex']!r})")
    return s.get("result", "{value}").format(*m.groups(), **m.groupdict())


def _run(cmd, **kw):
    print("tensorx:", " ".join(shlex.quote(str(c)) for c in cmd), file=sys.stderr, flush=True)
    subprocess.run([str(c) for c in cmd], check=True, **kw)


def _requirement(req, extra=None):
    req, _, marker = req.partition(";")
    req, marker = req.strip(), marker.strip()
    if extra is not None:
        marker = f'({marker}) and extra == "{extra}"' if marker else f'extra == "{extra}"'
    return f"{req}; {marker}" if marker else req


def _metadata(project, version, numpy_major):
    lines = ["Metadata-Version: 2.1", f"Name: {project['name']}", f"Version: {version}"]
    if "description" in project:
        lines.append(f"Summary: {project['description']}")
    lic = project.get("license")
    if isinstance(lic, str):
        lines.append(f"License: {lic}")
    lines += [f"Classifier: {c}" for c in project.get("classifiers", [])]
    if "requires-python" in project:
        lines.append(f"Requires-Python: {project['requires-python']}")
    for dep in project.get("dependencies", []):
        # An extension built against NumPy 1.x headers does not import under NumPy 2.
        if numpy_major < 2 and re.match(r"numpy\s*[<>=!~]", dep, re.I) and ";" not in dep:
            dep += ",<2"
        lines.append(f"Requires-Dist: {_requirement(dep)}")
    for extra, deps in project.get("optional-dependencies", {}).items():
        lines.append(f"Provides-Extra: {extra}")
        lines += [f"Requires-Dist: {_requirement(d, extra)}" for d in deps]
    return "\n".join(lines) + "\n"


def _wheel_tag():
    if sys.implementation.name != "cpython":
        raise RuntimeError("tensorx: building without scikit-build-core supports CPython only")
    py = f"cp{sys.version_info[0]}{sys.version_info[1]}"
    plat = re.sub(r"[-.]", "_", sysconfig.get_platform())
    return f"{py}-{py}{sys.abiflags}-{plat}"


def _build_wheel_with_cmake(wheel_directory):
    import numpy

    pyproject = _pyproject()
    project = pyproject["project"]
    skb = pyproject["tool"]["scikit-build"]
    version = _version(pyproject)
    name = re.sub(r"[-_.]+", "_", project["name"]).lower()
    sanitize = bool(os.environ.get("TENSORX_SANITIZE"))
    jobs = (os.environ.get("TENSORX_JOBS") or os.environ.get("CMAKE_BUILD_PARALLEL_LEVEL")
            or str(os.cpu_count() or 2))
    with tempfile.TemporaryDirectory(prefix="tensorx-wheel-") as tmp:
        tmp = Path(tmp)
        build, stage = tmp / "build", tmp / "stage"
        trees = {t: stage / t for t in ("platlib", "scripts", "metadata")}
        cfg = ["cmake", "-S", HERE, "-B", build,
               f"-DCMAKE_BUILD_TYPE={skb.get('cmake', {}).get('build-type', 'Release')}",
               f"-DPython_EXECUTABLE={sys.executable}",
               f"-DCMAKE_INSTALL_PREFIX={trees['platlib']}",
               f"-DSKBUILD_SCRIPTS_DIR={trees['scripts']}",
               f"-DSKBUILD_METADATA_DIR={trees['metadata']}"]
        cfg += shlex.split(os.environ.get("CMAKE_ARGS", ""))
        cfg += shlex.split(os.environ.get("TENSORX_CMAKE_ARGS", ""))
        _run(cfg)
        _run(["cmake", "--build", build, "-j", jobs])
        for component in skb.get("install", {}).get("components", ["python"]):
            _run(["cmake", "--install", build, "--component", component]
                 + ([] if sanitize else ["--strip"]))

        files = {}  # path in the wheel -> file on disk
        for root, _, names in os.walk(trees["platlib"]):
            for n in names:
                p = Path(root) / n
                files[p.relative_to(trees["platlib"]).as_posix()] = p
        data = f"{name}-{version}.data"
        for root, _, names in os.walk(trees["scripts"]):
            for n in names:
                p = Path(root) / n
                files[f"{data}/scripts/{p.relative_to(trees['scripts']).as_posix()}"] = p
        exclude = [re.compile(_glob_regex(g)) for g in skb.get("wheel", {}).get("exclude", [])]
        for pkg in skb.get("wheel", {}).get("packages", [name]):
            for p in sorted((HERE / pkg).rglob("*")):
                rel = p.relative_to(HERE).as_posix()
                if (p.is_dir() or "__pycache__" in p.parts or p.suffix in (".pyc", ".so")
                        or any(e.fullmatch(rel) for e in exclude)):
                    continue
                files.setdefault(rel, p)

        dist_info = f"{name}-{version}.dist-info"
        meta = {
            f"{dist_info}/METADATA": _metadata(project, version, int(numpy.__version__.split(".")[0])),
            f"{dist_info}/WHEEL": ("Wheel-Version: 1.0\nGenerator: tensorx_build\n"
                                   f"Root-Is-Purelib: false\nTag: {_wheel_tag()}\n"),
        }
        for root, _, names in os.walk(trees["metadata"]):
            for n in names:
                p = Path(root) / n
                files[f"{dist_info}/{p.relative_to(trees['metadata']).as_posix()}"] = p

        wheel_name = f"{name}-{version}-{_wheel_tag()}.whl"
        wheel_directory.mkdir(parents=True, exist_ok=True)
        epoch = int(os.environ.get("SOURCE_DATE_EPOCH", "315532800"))  # 1980-01-01, zip's first
        stamp = time.gmtime(max(epoch, 315532800))[:6]
        record = []
        with zipfile.ZipFile(wheel_directory / wheel_name, "w", zipfile.ZIP_DEFLATED) as zf:
            def add(arc, content, mode):
                info = zipfile.ZipInfo(arc, stamp)
                info.external_attr = (mode | 0o100000) << 16
                info.compress_type = zipfile.ZIP_DEFLATED
                zf.writestr(info, content)
                digest = base64.urlsafe_b64encode(hashlib.sha256(content).digest()).rstrip(b"=")
                record.append(f"{arc},sha256={digest.decode()},{len(content)}")

            for arc in sorted(files):
                p = files[arc]
                add(arc, p.read_bytes(), 0o755 if os.access(p, os.X_OK) else 0o644)
            for arc, text in meta.items():
                add(arc, text.encode(), 0o644)
            record.append(f"{dist_info}/RECORD,,")
            info = zipfile.ZipInfo(f"{dist_info}/RECORD", stamp)
            info.external_attr = 0o100644 << 16
            zf.writestr(info, "\n".join(record) + "\n", zipfile.ZIP_DEFLATED)
    return wheel_name


def _glob_regex(glob):
    """A wheel.exclude pattern (gitignore-like, relative to python/) as a regex on a path."""
    out = ""
    for part in re.split(r"(\*\*/|\*|\?)", glob.lstrip("/")):
        out += {"**/": "(?:.*/)?", "*": "[^/]*", "?": "[^/]"}.get(part, re.escape(part))
    return out
