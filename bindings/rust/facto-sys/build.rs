// Locates libfacto: FACTO_LIB_DIR (a directory holding libfacto.so), else `pkg-config --libs-only-L
// facto`, else the linker's default path. No external crates, so that cargo works offline.
use std::env;
use std::process::Command;

fn main() {
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
