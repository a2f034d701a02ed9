//! Where screenshots go: a small blob-store interface with a local-folder implementation (for
//! `sitelens analyze --screenshots`). The server implements the same trait over its own blob
//! storage, a local folder or an S3-compatible bucket.

use std::path::PathBuf;

use futures::future::BoxFuture;

/// Stores bytes under a key and answers the address the report should reference.
pub trait BlobStore: Send + Sync {
    /// Store `bytes` (of `content_type`) under `key` and return its URL or path.
    fn put<'a>(
        &'a self,
        key: &'a str,
        content_type: &'a str,
        bytes: &'a [u8],
    ) -> BoxFuture<'a, std::io::Result<String>>;
}

/// A folder on local disk; addresses are `url_prefix` + key (for example `/blobs/` served by the
/// server, or a `file://` path).
#[derive(Debug, Clone)]
pub struct LocalBlobStore {
    dir: PathBuf,
    url_prefix: String,
}

impl LocalBlobStore {
    /// Store files in `dir` and reference them as `url_prefix` + key.
    pub fn new(dir: impl Into<PathBuf>, url_prefix: impl Into<String>) -> Self {
        Self {
            dir: dir.into(),
            url_prefix: url_prefix.into(),
        }
    }

    /// The folder.
    pub fn dir(&self) -> &std::path::Path {
        &self.dir
    }
}

/// Whether `key` is one a blob store accepts: keys may hold `/` for sub-folders but never an
/// empty segment, `.` or `..`, an absolute path, a backslash or a control character, so a key
/// from a request can never name something outside the store.
pub fn safe_key(key: &str) -> bool {
    !key.is_empty()
        && !key.starts_with('/')
        && key.split('/').all(|part| {
            !part.is_empty()
                && part != "."
                && part != ".."
                && !part.chars().any(|c| c == '\\' || c.is_control())
        })
}

impl BlobStore for LocalBlobStore {
    fn put<'a>(
        &'a self,
        key: &'a str,
        _content_type: &'a str,
        bytes: &'a [u8],
    ) -> BoxFuture<'a, std::io::Result<String>> {
        Box::pin(async move {
            if !safe_key(key) {
                return Err(std::io::Error::new(
                    std::io::ErrorKind::InvalidInput,
                    format!("unsafe blob key {key:?}"),
                ));
            }
            let path = self.dir.join(key);
            if let Some(parent) = path.parent() {
                tokio::fs::create_dir_all(parent).await?;
            }
            // Write then rename, so a reader never sees half a file.
            let tmp = path.with_extension("part");
            tokio::fs::write(&tmp, bytes).await?;
            tokio::fs::rename(&tmp, &path).await?;
            Ok(format!("{}{key}", self.url_prefix))
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn keys_stay_inside_the_folder() {
        assert!(safe_key("screens/abc-desktop.png"));
        assert!(!safe_key("../etc/passwd"));
        assert!(!safe_key("/abs.png"));
        assert!(!safe_key("a//b.png"));
        assert!(!safe_key("a\\b.png"));
        assert!(!safe_key("a\nb.png"));
    }
}
