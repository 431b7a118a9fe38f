// Links libfacto. With the `bundled` feature: builds libfacto.a from the repository's sources with CMake
// (FACTO_SOURCE_DIR, else the repository three directories above this crate) and links it statically,
// with the system libraries its pkg-config file lists (Libs.private). Without it: the installed
// libfacto.so, found through FACTO_LIB_DIR (a directory holding it), else `pkg-config --libs-only-L
// facto`, else the linker's default path. No external crates, so that cargo works offline.
use std::env;
use std::fs;
use std::path::{Path, PathBuf};
use std::process::Command;

fn main() {
    if env::var_os("CARGO_FEATURE_BUNDLED").is_some() {
        bundled();
    } else {
        installed();
    }
}

fn installed() {
    println!("cargo:rerun-if-env-changed=FACTO_LIB_DIR");
    println!("cargo:rerun-if-env-changed=PKG_CONFIG_PATH");
    if let Ok(dir) = env::var("FACTO_LIB_DIR") {
        println!("cargo:rustc-link-search=native={}", dir);
    } else if let Ok(out) = Command::new("pkg-config").args(["--libs-only-L", "facto"]).output() {
        if out.status.success() {
            for flag in String::from_utf8_lossy(&out.stdout).split_whitespace() {
                if let Some(dir) = flag.strip_prefix("-L") {
                    println!("cargo:rustc-link-search=native={}", dir);
                }
            }
        }
    }
    println!("cargo:rustc-link-lib=dylib=facto");
}

fn run(command: &mut Command, what: &str) {
    let status = command
        .status()
        .unwrap_or_else(|e| panic!("facto-sys (bundled): cannot run {} ({}); install cmake", what, e));
    if !status.success() {
        panic!(
            "facto-sys (bundled): {} failed ({}); libfacto needs cmake, a C++17 compiler and Debian's \
             libxtensor-dev, libxtensor-blas-dev, libopenblas-dev, liblapack-dev, liblbfgsb-dev, libhnswlib-dev, zlib1g-dev \
             (bash cmake/install-deps.sh in the repository installs them)",
            what, status
        );
    }
}

fn bundled() {
    println!("cargo:rerun-if-env-changed=FACTO_SOURCE_DIR");
    let manifest = PathBuf::from(env::var("CARGO_MANIFEST_DIR").unwrap());
    let root = env::var_os("FACTO_SOURCE_DIR")
        .map(PathBuf::from)
        .unwrap_or_else(|| manifest.join("../../.."));
    if !root.join("include/facto/facto.h").is_file() {
        panic!(
            "facto-sys (bundled): no facto sources at {} (set FACTO_SOURCE_DIR to the repository)",
            root.display()
        );
    }
    for tracked in ["CMakeLists.txt", "cmake", "include", "src", "capi"] {
        println!("cargo:rerun-if-changed={}", root.join(tracked).display());
    }
    let root = root.canonicalize().unwrap_or(root);
    let build = PathBuf::from(env::var("OUT_DIR").unwrap()).join("libfacto-build");
    // a build tree configured for other sources (another FACTO_SOURCE_DIR) starts over
    let home = format!("CMAKE_HOME_DIRECTORY:INTERNAL={}", root.display());
    if let Ok(cache) = fs::read_to_string(build.join("CMakeCache.txt")) {
        if !cache.lines().any(|line| line == home) {
            let _ = fs::remove_dir_all(&build);
        }
    }
    run(
        Command::new("cmake")
            .arg("-S")
            .arg(&root)
            .arg("-B")
            .arg(&build)
            .args([
                "-DCMAKE_BUILD_TYPE=Release",
                "-DFACTO_BUILD_TESTS=OFF",
                "-DFACTO_BUILD_EXAMPLES=OFF",
                "-DFACTO_BUILD_PROGRAMS=OFF",
                "-DFACTO_BUILD_STATIC=ON",
            ]),
        "cmake's configure step",
    );
    let jobs = env::var("NUM_JOBS").unwrap_or_else(|_| "1".to_string());
    run(
        Command::new("cmake")
            .arg("--build")
            .arg(&build)
            .args(["--target", "facto_static", "--parallel", &jobs]),
        "cmake's build of libfacto.a",
    );
    println!("cargo:rustc-link-search=native={}", build.display());
    println!("cargo:rustc-link-lib=static=facto");
    for library in private_libraries(&build.join("facto.pc")) {
        println!("cargo:rustc-link-lib=dylib={}", library);
    }
    println!("cargo:root={}", root.display());
}

// The -l names of facto.pc's Libs.private: what libfacto.a needs from the system.
fn private_libraries(pc: &Path) -> Vec<String> {
    let text = fs::read_to_string(pc).unwrap_or_else(|e| panic!("facto-sys (bundled): {}: {}", pc.display(), e));
    text.lines()
        .filter_map(|line| line.strip_prefix("Libs.private:"))
        .flat_map(|flags| flags.split_whitespace())
        .filter_map(|flag| flag.strip_prefix("-l"))
        .map(str::to_string)
        .collect()
}
