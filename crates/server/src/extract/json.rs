//! JSON bodies whose rejections use our error shape.

use axum::extract::FromRequest;

use crate::error::AppError;

/// Like `axum::Json`, but a body that is missing, malformed or of the wrong shape is answered
/// with `{success: false, error}` and the matching 4xx (see [`AppError`]'s `From<JsonRejection>`).
#[derive(Debug, Clone, Copy, Default, FromRequest)]
#[from_request(via(axum::Json), rejection(AppError))]
pub struct ApiJson<T>(pub T);
