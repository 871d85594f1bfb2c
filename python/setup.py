# SPDX-License-Identifier: Apache-2.0
"""Builds the `tensorx` Python package: the C extension tensorx._tensorx over the same libtensorx.

build_ext configures the repository's own CMake build (the repository root is this file's parent
folder, or $TENSORX_SOURCE_DIR) for static, position-independent archives, builds the target
tx_tools (the op table, which pulls in tensorx_internal, the library's objects) and links the
extension against both, so the source lists and ISA flags stay in CMake alone.

Install (Debian's python3-dev, python3-setuptools, python3-numpy; no other registry):
    python3 -m pip install --no-build-isolation ./python
$TENSORX_CMAKE_ARGS adds CMake arguments.  $TENSORX_SANITIZE ("address,undefined") builds the
library and the extension with those sanitizers (with CC=clang LDSHARED="clang -shared" for both;
the runtime is then LD_PRELOADed into python, as scripts/test.sh's asan stage does).
$TENSORX_BUILD_DIR names a build tree of the repository that is already configured (any build
type and options, TX_SANITIZE matching $TENSORX_SANITIZE): its archives are built there and
linked instead of a Release build of setup.py's own (scripts/test.sh's asan stage reuses its
ASan tree so).
"""
import os
import re
import shlex
import subprocess
from pathlib import Path

from setuptools import Extension, setup
from setuptools.command.build_ext import build_ext

HERE = Path(__file__).resolve().parent
ROOT = Path(os.environ.get("TENSORX_SOURCE_DIR", HERE.parent)).resolve()
if not (ROOT / "include" / "tensorx.h").is_file():
    raise SystemExit(f"tensorx: {ROOT} is not the tensorx repository (set TENSORX_SOURCE_DIR)")


def version():
    text = (ROOT / "include" / "tensorx.h").read_text()
    parts = [re.search(rf"#define TX_VERSION_{k} +(\d+)", text).group(1)
             for k in ("MAJOR", "MINOR", "PATCH")]
    return ".".join(parts)


class CMakeBuildExt(build_ext):
    @staticmethod
    def configure(build, san):
        cfg = ["cmake", "-S", str(ROOT), "-B", str(build), "-DCMAKE_BUILD_TYPE=Release",
               "-DBUILD_SHARED_LIBS=OFF", "-DCMAKE_POSITION_INDEPENDENT_CODE=ON",
               "-DBUILD_TESTING=OFF", "-DTX_BUILD_BENCH=OFF", "-DTX_BUILD_CLI=ON"]
        if san:
            cfg += ["-DTX_SANITIZE=" + san.replace(",", ";")]
        cfg += shlex.split(os.environ.get("TENSORX_CMAKE_ARGS", ""))
        subprocess.check_call(cfg)

    def build_extensions(self):
        import numpy

        jobs = os.environ.get("TENSORX_JOBS", "2")
        san = os.environ.get("TENSORX_SANITIZE", "")
        given = os.environ.get("TENSORX_BUILD_DIR")
        if given:
            build = Path(given).resolve()
            cache = build / "CMakeCache.txt"
            if not cache.is_file():
                raise SystemExit(f"tensorx: TENSORX_BUILD_DIR={given} is not a configured "
                                 "CMake build tree")
            # The extension must be built with the sanitizers the archives were built with, or
            # it fails to link or to load.
            m = re.search(r"^TX_SANITIZE:STRING=(.*)$", cache.read_text(), re.M)
            tree_san = m.group(1).replace(";", ",") if m else ""
            if tree_san != san:
                raise SystemExit(f"tensorx: TENSORX_BUILD_DIR={given} was built with "
                                 f"TX_SANITIZE='{tree_san}' but TENSORX_SANITIZE is '{san}': "
                                 "set them alike")
        else:
            build = Path(self.build_temp).resolve() / "libtensorx"
            self.configure(build, san)
        subprocess.check_call(["cmake", "--build", str(build), "--target", "tx_tools",
                               "-j", jobs])
        libs = [build / "libtx_tools.a", build / "libtensorx_internal.a"]
        for ext in self.extensions:
            # src/io for dlpack_versioned.h (DLPack 1.x's versioned struct over Debian's 0.6)
            ext.include_dirs += [str(ROOT / "include"), str(ROOT / "tools"),
                                 str(ROOT / "src" / "io"), numpy.get_include()]
            ext.extra_objects += [str(p) for p in libs]
            ext.define_macros += [("TX_STATIC", None)]
            ext.libraries += ["m"]
            ext.extra_compile_args += ["-Wall", "-Wextra", "-Wno-missing-field-initializers"]
            ext.extra_link_args += ["-pthread"]
            if san:
                ext.extra_compile_args += [f"-fsanitize={san}", "-fno-omit-frame-pointer",
                                           "-fno-sanitize-recover=all"]
                ext.extra_link_args += [f"-fsanitize={san}"]
            ext.depends += [str(p) for p in libs]
        super().build_extensions()


setup(
    name="tensorx",
    version=version(),
    description="TensorFlow's tensor transformations, bit for bit, on NumPy arrays",
    license="Apache-2.0",
    packages=["tensorx"],
    package_dir={"tensorx": "tensorx"},
    ext_modules=[Extension("tensorx._tensorx", ["tensorx/_tensorx.c"])],
    cmdclass={"build_ext": CMakeBuildExt},
    python_requires=">=3.9",
    install_requires=["numpy"],
    zip_safe=False,
)
