//! Blob storage (screenshots) behind one interface: the local `blobs` folder by default, or an
//! S3-compatible bucket shared by every node (`SITELENS_BLOB_URL`, docs/ARCHITECTURE.md §6).
//!
//! Both are `object_store` stores, so the worker writes and the web nodes read through the same
//! code whichever is configured. A blob's key never changes once written (a report's
//! screenshots are named after the report), so any web node can stream it to visitors with
//! immutable caching; the public address stays `/files/{key}` on our own origin (the content
//! security policy allows images from `'self'` only, which rules out redirects to signed
//! bucket addresses).

use std::sync::Arc;
use std::time::Duration;

use bytes::Bytes;
use futures::future::BoxFuture;
use futures::stream::BoxStream;
use futures::{StreamExt, TryStreamExt};
use object_store::aws::AmazonS3Builder;
use object_store::local::LocalFileSystem;
use object_store::path::Path;
use object_store::prefix::PrefixStore;
use object_store::{
    Attribute, Attributes, BackoffConfig, ClientOptions, ObjectStore, ObjectStoreExt, PutOptions,
    PutPayload, RetryConfig,
};

use crate::config::{BlobStorage, Config, S3Storage};

/// How long one request to the bucket may take, and how long retries may go on: a visitor
/// waiting for a screenshot, or `/readyz`, must get an answer quickly.
const REQUEST_TIMEOUT: Duration = Duration::from_secs(20);
const RETRY_TIMEOUT: Duration = Duration::from_secs(10);
/// How long the readiness probe waits for the store.
pub const CHECK_TIMEOUT: Duration = Duration::from_secs(3);

/// Why a blob could not be stored or read.
#[derive(Debug, thiserror::Error)]
pub enum BlobError {
    /// No blob has this key.
    #[error("no blob {0:?}")]
    NotFound(String),
    /// The client's copy (named by its `If-None-Match`) is current.
    #[error("blob {0:?} not modified")]
    NotModified(String),
    /// The key is not one Sitelens writes (empty, `..`, a control character, ...).
    #[error("{0:?} is not a blob key")]
    InvalidKey(String),
    /// The store could not be configured.
    #[error("blob storage {store} could not be set up")]
    Setup {
        /// The store, as [`BlobStorage::describe`] names it.
        store: String,
        /// Why.
        #[source]
        source: object_store::Error,
    },
    /// The store failed or could not be reached.
    #[error("blob storage {store} failed")]
    Unavailable {
        /// The store, as [`BlobStorage::describe`] names it.
        store: String,
        /// Why.
        #[source]
        source: Box<dyn std::error::Error + Send + Sync>,
    },
}

/// A blob being read: its metadata and its bytes as a stream.
pub struct Blob {
    /// `Content-Type`: as stored, or from the key's extension.
    pub content_type: String,
    /// Size in bytes.
    pub size: u64,
    /// The store's entity tag, quoted, when it has one.
    pub etag: Option<String>,
    /// When it was written.
    pub last_modified: chrono::DateTime<chrono::Utc>,
    /// The bytes.
    pub body: BoxStream<'static, std::io::Result<Bytes>>,
}

/// The blob store of this process (shared by the worker role and the web role).
#[derive(Clone)]
pub struct Blobs {
    store: Arc<dyn ObjectStore>,
    /// `local` or `s3://bucket/prefix`.
    name: String,
    /// Whether the store keeps content types (S3 does; the local folder does not, and the type
    /// is read from the key's extension).
    keeps_attributes: bool,
}

impl std::fmt::Debug for Blobs {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Blobs").field("store", &self.name).finish()
    }
}

impl Blobs {
    /// The store `config` names. The local folder must exist (see [`crate::start`]); a bucket
    /// is not contacted here ([`Blobs::check`] does that).
    pub fn from_config(config: &Config) -> Result<Self, BlobError> {
        let name = config.blob_storage.describe();
        let setup = |source| BlobError::Setup {
            store: name.clone(),
            source,
        };
        match &config.blob_storage {
            BlobStorage::Local => {
                let store = LocalFileSystem::new_with_prefix(config.blob_dir()).map_err(setup)?;
                Ok(Self {
                    store: Arc::new(store),
                    name,
                    keeps_attributes: false,
                })
            }
            BlobStorage::S3(s3) => {
                let bucket = s3_store(s3).map_err(setup)?;
                let store: Arc<dyn ObjectStore> = if s3.prefix.is_empty() {
                    Arc::new(bucket)
                } else {
                    Arc::new(PrefixStore::new(bucket, s3.prefix.as_str()))
                };
                Ok(Self {
                    store,
                    name,
                    keeps_attributes: true,
                })
            }
        }
    }

    /// `local` or `s3://bucket/prefix`, for `/readyz` and the logs.
    pub fn name(&self) -> &str {
        &self.name
    }

    fn unavailable(&self, source: object_store::Error) -> BlobError {
        BlobError::Unavailable {
            store: self.name.clone(),
            source: Box::new(source),
        }
    }

    /// Maps a store error on `key` to ours.
    fn error(&self, key: &str, e: object_store::Error) -> BlobError {
        match e {
            object_store::Error::NotFound { .. } => BlobError::NotFound(key.to_owned()),
            object_store::Error::NotModified { .. } => BlobError::NotModified(key.to_owned()),
            object_store::Error::InvalidPath { .. } => BlobError::InvalidKey(key.to_owned()),
            other => self.unavailable(other),
        }
    }

    /// Stores `bytes` of `content_type` under `key`, replacing any blob there (a reader sees
    /// the old blob or the new one, never part of one).
    pub async fn put(&self, key: &str, content_type: &str, bytes: &[u8]) -> Result<(), BlobError> {
        let path = blob_path(key)?;
        let mut options = PutOptions::default();
        if self.keeps_attributes {
            let mut attributes = Attributes::new();
            attributes.insert(Attribute::ContentType, content_type.to_owned().into());
            attributes.insert(Attribute::CacheControl, IMMUTABLE.into());
            options.attributes = attributes;
        }
        let payload = PutPayload::from(Bytes::copy_from_slice(bytes));
        self.store
            .put_opts(&path, payload, options)
            .await
            .map(|_| ())
            .map_err(|e| self.error(key, e))
    }

    /// Opens the blob `key` for streaming. `if_none_match` is the client's `If-None-Match`:
    /// when it names this blob's entity tag (or is `*`), the answer is
    /// [`BlobError::NotModified`] and no bytes are read. The comparison is made here, the
    /// same for every store (they quote their tags differently).
    pub async fn open(&self, key: &str, if_none_match: Option<&str>) -> Result<Blob, BlobError> {
        let got = self.get(key).await?;
        let etag = got.meta.e_tag.as_deref().map(quoted);
        if let (Some(wanted), Some(tag)) = (if_none_match, &etag)
            && wanted
                .split(',')
                .map(str::trim)
                .any(|t| t == "*" || t == tag)
        {
            return Err(BlobError::NotModified(key.to_owned()));
        }
        let content_type = got
            .attributes
            .get(&Attribute::ContentType)
            .map(|v| v.to_string())
            .unwrap_or_else(|| content_type_of(key).to_owned());
        let (size, last_modified) = (got.meta.size, got.meta.last_modified);
        let name = self.name.clone();
        let body = got
            .into_stream()
            .map_err(move |e| {
                std::io::Error::other(BlobError::Unavailable {
                    store: name.clone(),
                    source: Box::new(e),
                })
            })
            .boxed();
        Ok(Blob {
            content_type,
            size,
            etag,
            last_modified,
            body,
        })
    }

    /// The whole blob `key` (for the PDF, which embeds screenshots).
    pub async fn read(&self, key: &str) -> Result<Bytes, BlobError> {
        let got = self.get(key).await?;
        got.bytes().await.map_err(|e| self.error(key, e))
    }

    /// Deletes the blob `key` (a replaced logo); [`BlobError::NotFound`] when the store says there
    /// is none (a bucket says nothing).
    pub async fn delete(&self, key: &str) -> Result<(), BlobError> {
        let path = blob_path(key)?;
        self.store
            .delete(&path)
            .await
            .map_err(|e| self.error(key, e))
    }

    /// Starts reading the blob `key`.
    async fn get(&self, key: &str) -> Result<object_store::GetResult, BlobError> {
        let path = blob_path(key)?;
        self.store.get(&path).await.map_err(|e| self.error(key, e))
    }

    /// Whether the store answers: a listing of a prefix that holds nothing, which fails on a
    /// missing bucket, refused credentials or an unreachable endpoint, within
    /// [`CHECK_TIMEOUT`].
    pub async fn check(&self) -> Result<(), BlobError> {
        let probe = Path::from("sitelens-readiness-probe");
        match tokio::time::timeout(CHECK_TIMEOUT, self.store.list_with_delimiter(Some(&probe)))
            .await
        {
            Ok(Ok(_)) => Ok(()),
            Ok(Err(e)) => Err(self.unavailable(e)),
            Err(elapsed) => Err(BlobError::Unavailable {
                store: self.name.clone(),
                source: Box::new(elapsed),
            }),
        }
    }
}

/// The store for a bucket: path-style requests (what S3-compatible services expect), plain
/// HTTP allowed only when the endpoint says `http://`, short timeouts and few retries.
fn s3_store(s3: &S3Storage) -> object_store::Result<object_store::aws::AmazonS3> {
    // reqwest is built without a crypto provider of its own (docs/TOOLCHAIN.md §1.2).
    let _ = rustls::crypto::ring::default_provider().install_default();
    let mut builder = AmazonS3Builder::new()
        .with_bucket_name(&s3.bucket)
        .with_region(&s3.region)
        .with_client_options(
            ClientOptions::new()
                .with_timeout(REQUEST_TIMEOUT)
                .with_connect_timeout(Duration::from_secs(5)),
        )
        .with_retry(RetryConfig {
            backoff: BackoffConfig::default(),
            max_retries: 3,
            retry_timeout: RETRY_TIMEOUT,
        });
    if let Some(endpoint) = &s3.endpoint {
        builder = builder
            .with_endpoint(endpoint)
            .with_allow_http(endpoint.starts_with("http://"))
            .with_virtual_hosted_style_request(false);
    }
    if let Some((key_id, secret)) = &s3.credentials {
        builder = builder
            .with_access_key_id(key_id)
            .with_secret_access_key(&secret.0);
    }
    builder.build()
}

/// Blobs under this prefix are private (mail attachments: a report's PDF on its way to one
/// reader): `/files/` never serves them.
pub const PRIVATE_PREFIX: &str = "mail/";

/// Whether the blob `key` may be served at `/files/{key}`.
pub fn is_public(key: &str) -> bool {
    !key.starts_with(PRIVATE_PREFIX)
}

/// `Cache-Control` of every blob: its key never changes, so it may be cached for a year.
pub const IMMUTABLE: &str = "public, max-age=31536000, immutable";

/// A key as a store path, refusing anything Sitelens never writes
/// ([`analyzer::browser::blob::safe_key`]).
fn blob_path(key: &str) -> Result<Path, BlobError> {
    let invalid = || BlobError::InvalidKey(key.to_owned());
    if !analyzer::browser::blob::safe_key(key) {
        return Err(invalid());
    }
    Path::parse(key).map_err(|_| invalid())
}

/// The content type of a key, from its extension.
fn content_type_of(key: &str) -> &'static str {
    mime_guess::from_path(key)
        .first_raw()
        .unwrap_or("application/octet-stream")
}

/// An entity tag as HTTP writes it: in double quotes.
fn quoted(tag: &str) -> String {
    if tag.starts_with('"') || tag.starts_with("W/\"") {
        tag.to_owned()
    } else {
        format!("\"{tag}\"")
    }
}

/// The worker's screenshots go to the same store; the report references them as
/// `/files/{key}` ([`store::results::blob_url`]).
impl analyzer::browser::BlobStore for Blobs {
    fn put<'a>(
        &'a self,
        key: &'a str,
        content_type: &'a str,
        bytes: &'a [u8],
    ) -> BoxFuture<'a, std::io::Result<String>> {
        Box::pin(async move {
            Blobs::put(self, key, content_type, bytes)
                .await
                .map_err(std::io::Error::other)?;
            Ok(store::results::blob_url(key))
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn keys_sitelens_never_writes_are_refused() {
        for bad in [
            "",
            "../etc/passwd",
            "/abs.png",
            "a//b.png",
            "a/./b.png",
            "a\\b.png",
            "a\nb.png",
            "dir/",
        ] {
            assert!(
                matches!(blob_path(bad), Err(BlobError::InvalidKey(_))),
                "{bad:?}"
            );
        }
        assert_eq!(
            blob_path("3f2b-desktop.png").expect("key").as_ref(),
            "3f2b-desktop.png"
        );
        assert_eq!(
            blob_path("screens/a.png").expect("key").as_ref(),
            "screens/a.png"
        );
    }

    #[test]
    fn content_types_come_from_the_extension() {
        assert_eq!(content_type_of("x-desktop.png"), "image/png");
        assert_eq!(content_type_of("x.jpg"), "image/jpeg");
        assert_eq!(content_type_of("x.webp"), "image/webp");
        assert_eq!(content_type_of("x"), "application/octet-stream");
    }

    #[test]
    fn etags_are_quoted_once() {
        assert_eq!(quoted("abc"), "\"abc\"");
        assert_eq!(quoted("\"abc\""), "\"abc\"");
        assert_eq!(quoted("W/\"abc\""), "W/\"abc\"");
    }
}
