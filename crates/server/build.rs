//! Embeds the public site's articles (`content/` at the repository root) into the binary, so the
//! server needs no content folder at run time and a page can never go missing in a deployment.

use std::fmt::Write as _;
use std::path::{Path, PathBuf};

fn collect(dir: &Path, root: &Path, out: &mut Vec<(String, PathBuf)>) {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    for entry in entries.flatten() {
        let path = entry.path();
        if path.is_dir() {
            collect(&path, root, out);
        } else if path.extension().is_some_and(|e| e == "md") {
            let rel = path
                .strip_prefix(root)
                .expect("inside the content folder")
                .to_string_lossy()
                .replace('\\', "/");
            out.push((rel, path));
        }
    }
}

fn main() {
    let manifest = PathBuf::from(std::env::var("CARGO_MANIFEST_DIR").expect("cargo sets it"));
    let root = manifest.join("../../content");
    println!("cargo:rerun-if-changed={}", root.display());
    let mut files = Vec::new();
    collect(&root, &root, &mut files);
    files.sort();
    let mut code = String::from(
        "/// Every markdown file under `content/`: its path there and its text.\npub static FILES: &[(&str, &str)] = &[\n",
    );
    for (rel, path) in files {
        let abs = path.canonicalize().expect("content file");
        writeln!(
            code,
            "    ({rel:?}, include_str!({:?})),",
            abs.display().to_string()
        )
        .expect("string");
    }
    code.push_str("];\n");
    let out =
        PathBuf::from(std::env::var("OUT_DIR").expect("cargo sets it")).join("content_files.rs");
    std::fs::write(out, code).expect("write content_files.rs");
}
