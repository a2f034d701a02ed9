//! The error types of the HTTP layer: every error body of the app's API is `{success: false,
//! error}` ([`AppError`]); the public API's is `{error: {code, message}}` ([`V1Error`]).
//!
//! A visitor's mistake is always a 4xx with a message they can act on. A database that cannot
//! serve is a 503 with a fixed message; any other internal failure a 500 with a generic text.
//! Both are logged with their whole chain of causes on one line; that detail never leaves the
//! server.

use axum::Json;
use axum::extract::rejection::{JsonRejection, PathRejection, QueryRejection};
use axum::http::header::RETRY_AFTER;
use axum::http::{HeaderValue, StatusCode};
use axum::response::{IntoResponse, Response};
use domain::api::{ApiErrorBody, ApiErrorCode, ApiErrorDetail};
use domain::forms::{FieldError, FieldErrorsResponse};
use domain::report::ErrorResponse;
use store::StoreError;

use crate::chain::Chain;
use crate::services::accounts::AccountError;
use crate::services::analyses::SubmitError;
use crate::services::api::PageError;
use crate::services::billing::BillingError;
use crate::services::blobs::BlobError;
use crate::services::contact::ContactError;
use crate::services::custom_domains::CustomDomainError;
use crate::services::mail::MailError;
use crate::services::reports::{ReportError, SendError};
use crate::services::whitelabel::WhiteLabelError;
use crate::services::widget::WidgetError;

/// An error answered to a client.
#[derive(Debug, thiserror::Error)]
pub enum AppError {
    /// 400: the request is malformed or a value is invalid.
    #[error("{0}")]
    BadRequest(String),
    /// 401: the caller must sign in.
    #[error("{0}")]
    Unauthorized(String),
    /// 402: the caller's credits do not cover what was asked for.
    #[error("{0}")]
    PaymentRequired(String),
    /// 403: signed in, but not allowed; or a cross-site request refused.
    #[error("{0}")]
    Forbidden(String),
    /// 404: nothing with that id.
    #[error("{0}")]
    NotFound(String),
    /// 405: the path exists, the method does not.
    #[error("this address does not accept that method")]
    MethodNotAllowed,
    /// 409: the request conflicts with stored data.
    #[error("{0}")]
    Conflict(String),
    /// 413: the body is too large; the text says what the limit is, where there is one to name.
    #[error("{0}")]
    PayloadTooLarge(String),
    /// 415: not JSON.
    #[error("{0}")]
    UnsupportedMediaType(String),
    /// 422: well-formed but fails validation.
    #[error("{0}")]
    Unprocessable(String),
    /// 422: a form with failing fields: the error body with every field's message
    /// (`domain::forms::FieldErrorsResponse`), so the form shows each under its field.
    #[error("{}", .0.first().map(|e| e.message.as_str()).unwrap_or("invalid form"))]
    InvalidFields(Vec<FieldError>),
    /// 429: an allowance is used up; `Retry-After` says in how many seconds to try again
    /// (RFC 6585 §4).
    #[error("{message}")]
    TooManyRequests {
        /// What the visitor sees.
        message: String,
        /// Seconds until a new attempt can succeed.
        retry_after: u64,
    },
    /// 502: the payment processor failed; logged with its causes, answered with the text given.
    #[error("{message}")]
    BadGateway {
        /// What the visitor reads.
        message: String,
        /// What failed.
        #[source]
        source: Box<dyn std::error::Error + Send + Sync>,
    },
    /// 503: a service this server offers is not configured here (mail); the text says what to
    /// do instead.
    #[error("{0}")]
    NotConfigured(String),
    /// 503: the database cannot serve now; logged, answered with a fixed message.
    #[error("the service is temporarily unavailable, please try again in a minute")]
    Unavailable(#[source] StoreError),
    /// 503: blob storage cannot serve now; logged, answered with a fixed message.
    #[error("the file storage is temporarily unavailable, please try again in a minute")]
    StorageUnavailable(#[source] BlobError),
    /// 500: logged with its causes, never detailed to the client.
    #[error("internal error")]
    Internal(#[source] Box<dyn std::error::Error + Send + Sync>),
}

impl AppError {
    /// An internal error; its causes are logged when it is answered.
    pub fn internal(e: impl Into<Box<dyn std::error::Error + Send + Sync>>) -> Self {
        Self::Internal(e.into())
    }

    pub(crate) fn status(&self) -> StatusCode {
        match self {
            Self::BadRequest(_) => StatusCode::BAD_REQUEST,
            Self::Unauthorized(_) => StatusCode::UNAUTHORIZED,
            Self::PaymentRequired(_) => StatusCode::PAYMENT_REQUIRED,
            Self::Forbidden(_) => StatusCode::FORBIDDEN,
            Self::NotFound(_) => StatusCode::NOT_FOUND,
            Self::MethodNotAllowed => StatusCode::METHOD_NOT_ALLOWED,
            Self::Conflict(_) => StatusCode::CONFLICT,
            Self::PayloadTooLarge(_) => StatusCode::PAYLOAD_TOO_LARGE,
            Self::UnsupportedMediaType(_) => StatusCode::UNSUPPORTED_MEDIA_TYPE,
            Self::Unprocessable(_) | Self::InvalidFields(_) => StatusCode::UNPROCESSABLE_ENTITY,
            Self::TooManyRequests { .. } => StatusCode::TOO_MANY_REQUESTS,
            Self::BadGateway { .. } => StatusCode::BAD_GATEWAY,
            Self::Unavailable(_) | Self::StorageUnavailable(_) | Self::NotConfigured(_) => {
                StatusCode::SERVICE_UNAVAILABLE
            }
            Self::Internal(_) => StatusCode::INTERNAL_SERVER_ERROR,
        }
    }
}

impl IntoResponse for AppError {
    fn into_response(self) -> Response {
        let status = self.status();
        if let Self::InvalidFields(fields) = self {
            let body = FieldErrorsResponse {
                success: false,
                error: fields
                    .first()
                    .map(|f| f.message.clone())
                    .unwrap_or_default(),
                fields,
            };
            return (status, Json(body)).into_response();
        }
        let message = match &self {
            Self::Internal(e) => {
                tracing::error!(error = %Chain(e.as_ref()), "internal error");
                "Internal Server Error".to_owned()
            }
            Self::Unavailable(e) => {
                tracing::error!(error = %Chain(e), "database unavailable");
                self.to_string()
            }
            Self::StorageUnavailable(e) => {
                tracing::error!(error = %Chain(e), "blob storage unavailable");
                self.to_string()
            }
            Self::BadGateway { message, source } => {
                tracing::error!(error = %Chain(source.as_ref()), "payment processor failed");
                message.clone()
            }
            other => other.to_string(),
        };
        let body = ErrorResponse {
            success: false,
            error: message,
        };
        let mut response = (status, Json(body)).into_response();
        if let Self::TooManyRequests { retry_after, .. } = self {
            response
                .headers_mut()
                .insert(RETRY_AFTER, HeaderValue::from(retry_after));
        }
        response
    }
}

impl From<StoreError> for AppError {
    fn from(e: StoreError) -> Self {
        match e {
            StoreError::NotFound => Self::NotFound("not found".to_owned()),
            StoreError::Conflict(detail) => {
                tracing::info!(%detail, "store conflict");
                Self::Conflict("that conflicts with existing data".to_owned())
            }
            e @ StoreError::Unavailable(_) => Self::Unavailable(e),
            e @ (StoreError::Database(_) | StoreError::Data { .. }) => Self::internal(e),
        }
    }
}

impl AppError {
    /// A store error where "not found" means `missing` (for example "analysis not found").
    pub fn from_store(e: StoreError, missing: &str) -> Self {
        match e {
            StoreError::NotFound => Self::NotFound(missing.to_owned()),
            other => other.into(),
        }
    }
}

impl From<SubmitError> for AppError {
    fn from(e: SubmitError) -> Self {
        match e {
            SubmitError::TooLong | SubmitError::InvalidUrl(_) => Self::BadRequest(e.to_string()),
            SubmitError::AllowanceUsed => Self::TooManyRequests {
                message: e.to_string(),
                retry_after: domain::commerce::seconds_until_next_utc_day(
                    store::now().timestamp_millis() as f64,
                ),
            },
            SubmitError::SignInRequired => Self::Unauthorized(e.to_string()),
            SubmitError::InsufficientCredits(m) => Self::PaymentRequired(m),
            SubmitError::IdempotencyKeyReused => Self::Conflict(e.to_string()),
            SubmitError::InvalidCallbackUrl(m) => Self::BadRequest(m),
            SubmitError::Store(e) => e.into(),
        }
    }
}

impl From<ReportError> for AppError {
    fn from(e: ReportError) -> Self {
        match e {
            ReportError::NotFound | ReportError::NotFinished | ReportError::Failed(_) => {
                Self::NotFound(e.to_string())
            }
            ReportError::Store(e) => e.into(),
        }
    }
}

impl From<SendError> for AppError {
    fn from(e: SendError) -> Self {
        match e {
            SendError::Invalid(m) => Self::Unprocessable(m),
            SendError::NotFound => Self::NotFound(e.to_string()),
            SendError::Forbidden(m) => Self::Forbidden(m),
            SendError::MailOff => Self::NotConfigured(e.to_string()),
            SendError::Limited {
                message,
                retry_after,
            } => Self::TooManyRequests {
                message,
                retry_after,
            },
            SendError::Pdf(e) => Self::internal(e),
            SendError::Store(e) => e.into(),
        }
    }
}

impl From<BlobError> for AppError {
    fn from(e: BlobError) -> Self {
        match e {
            // A report that names a screenshot the store does not have is worth a line in the
            // log (a lost blob, or a store the node is not configured for); the visitor gets a
            // plain 404.
            BlobError::NotFound(key) | BlobError::InvalidKey(key) => {
                tracing::warn!(key = %key, "requested file not found in blob storage");
                Self::NotFound("file not found".to_owned())
            }
            e @ (BlobError::Unavailable { .. } | BlobError::Setup { .. }) => {
                Self::StorageUnavailable(e)
            }
            e @ BlobError::NotModified(_) => Self::internal(e),
        }
    }
}

impl From<AccountError> for AppError {
    fn from(e: AccountError) -> Self {
        match e {
            AccountError::Invalid(_) | AccountError::CurrentPassword => {
                Self::Unprocessable(e.to_string())
            }
            AccountError::SignInFailed => Self::Unauthorized(e.to_string()),
            AccountError::Throttled => Self::TooManyRequests {
                message: e.to_string(),
                retry_after: u64::from(domain::accounts::THROTTLE_WINDOW_MINUTES) * 60,
            },
            AccountError::EmailTaken | AccountError::TrialUsed(_) | AccountError::Conflict(_) => {
                Self::Conflict(e.to_string())
            }
            AccountError::LinkInvalid => Self::BadRequest(e.to_string()),
            AccountError::Forbidden(m) => Self::Forbidden(m),
            AccountError::NotFound(m) => Self::NotFound(m),
            AccountError::Store(e) => e.into(),
            AccountError::Mail(MailError::Store(e)) => e.into(),
            e @ (AccountError::Mail(_) | AccountError::Hashing(_)) => Self::internal(e),
        }
    }
}

impl From<BillingError> for AppError {
    fn from(e: BillingError) -> Self {
        match e {
            BillingError::Invalid(m) => Self::Unprocessable(m),
            BillingError::Forbidden(m) => Self::Forbidden(m),
            BillingError::NotFound => Self::NotFound(e.to_string()),
            BillingError::UnknownUpgrade(m) => Self::NotFound(m),
            BillingError::Conflict(m) => Self::Conflict(m),
            BillingError::Signature(m) => {
                tracing::warn!(reason = %m, "webhook signature refused");
                Self::BadRequest(m)
            }
            BillingError::Provider { message, source } => Self::BadGateway {
                message: message.to_owned(),
                source,
            },
            BillingError::Store(e) => e.into(),
        }
    }
}

impl From<ContactError> for AppError {
    fn from(e: ContactError) -> Self {
        match e {
            ContactError::Invalid(message) => Self::Unprocessable(message),
            ContactError::Store(e) => e.into(),
        }
    }
}

impl From<WhiteLabelError> for AppError {
    fn from(e: WhiteLabelError) -> Self {
        match e {
            WhiteLabelError::NotEntitled => Self::Forbidden(e.to_string()),
            WhiteLabelError::Invalid(fields) => Self::InvalidFields(fields),
            WhiteLabelError::LogoType => Self::UnsupportedMediaType(e.to_string()),
            WhiteLabelError::LogoTooLarge => Self::PayloadTooLarge(e.to_string()),
            WhiteLabelError::LogoUnreadable | WhiteLabelError::LogoDimensions => {
                Self::Unprocessable(e.to_string())
            }
            WhiteLabelError::NoBranding => Self::Conflict(e.to_string()),
            WhiteLabelError::LogoNotFound => Self::NotFound(e.to_string()),
            WhiteLabelError::Store(e) => e.into(),
            WhiteLabelError::Blob(e) => e.into(),
            e @ WhiteLabelError::Encode(_) => Self::internal(e),
        }
    }
}

impl From<WidgetError> for AppError {
    fn from(e: WidgetError) -> Self {
        match e {
            WidgetError::NotEntitled | WidgetError::OriginRefused(_) => {
                Self::Forbidden(e.to_string())
            }
            WidgetError::Invalid(fields) => Self::InvalidFields(fields),
            WidgetError::BadQuery(m) => Self::BadRequest(m),
            WidgetError::NotFound(m) => Self::NotFound(m),
            WidgetError::TooManyKeys(m) => Self::Conflict(m),
            WidgetError::RateLimited {
                message,
                retry_after,
            } => Self::TooManyRequests {
                message,
                retry_after,
            },
            WidgetError::OutOfCredits => Self::PaymentRequired(e.to_string()),
            WidgetError::Internal(m) => Self::internal(m),
            WidgetError::Store(e) => e.into(),
        }
    }
}

impl From<JsonRejection> for AppError {
    fn from(r: JsonRejection) -> Self {
        match r {
            JsonRejection::MissingJsonContentType(_) => Self::UnsupportedMediaType(
                "send the body as JSON with Content-Type: application/json".to_owned(),
            ),
            JsonRejection::JsonSyntaxError(e) => Self::BadRequest(format!(
                "the body is not valid JSON: {}",
                clean(&e.body_text())
            )),
            JsonRejection::JsonDataError(e) => Self::Unprocessable(format!(
                "the body does not have the expected fields: {}",
                clean(&e.body_text())
            )),
            JsonRejection::BytesRejection(e) if e.status() == StatusCode::PAYLOAD_TOO_LARGE => {
                Self::PayloadTooLarge("the request body is too large".to_owned())
            }
            other => Self::BadRequest(format!(
                "the body could not be read: {}",
                clean(&other.body_text())
            )),
        }
    }
}

impl From<PathRejection> for AppError {
    fn from(r: PathRejection) -> Self {
        Self::BadRequest(format!("invalid address: {}", clean(&r.body_text())))
    }
}

impl From<QueryRejection> for AppError {
    fn from(r: QueryRejection) -> Self {
        Self::BadRequest(format!("invalid query: {}", clean(&r.body_text())))
    }
}

/// axum's rejection texts start with a prefix such as "Failed to parse the request body as
/// JSON: "; keep the part that names the problem, lower-case first, no trailing period.
fn clean(text: &str) -> String {
    let detail = text
        .rsplit_once(": ")
        .map_or(text, |(_, d)| d)
        .trim()
        .trim_end_matches('.');
    detail.to_owned()
}

/// Result of a handler.
pub type AppResult<T> = Result<T, AppError>;

/// An error of the public API (`/api/v1`): `{"error": {"code", "message"}}` with a stable
/// [`ApiErrorCode`] (`domain::api`). Built from the same service errors as [`AppError`], with
/// the same rule: internal detail is logged, never answered.
#[derive(Debug)]
pub struct V1Error {
    status: StatusCode,
    code: ApiErrorCode,
    message: String,
    retry_after: Option<u64>,
}

impl V1Error {
    /// An error with this status, code and message.
    pub fn new(status: StatusCode, code: ApiErrorCode, message: impl Into<String>) -> Self {
        V1Error {
            status,
            code,
            message: message.into(),
            retry_after: None,
        }
    }

    /// 401: no key, or an unknown or revoked one.
    pub fn unauthorized() -> Self {
        Self::new(
            StatusCode::UNAUTHORIZED,
            ApiErrorCode::Unauthorized,
            domain::api::KEY_REFUSED_MESSAGE,
        )
    }

    /// 429: the key's requests of this window are used up; try again in `retry_after` seconds.
    pub fn rate_limited(limit: u32, retry_after: u64) -> Self {
        V1Error {
            retry_after: Some(retry_after),
            ..Self::new(
                StatusCode::TOO_MANY_REQUESTS,
                ApiErrorCode::RateLimited,
                format!(
                    "this key made its {limit} requests of this minute: try again in {retry_after} s"
                ),
            )
        }
    }

    /// 400 or 422 `invalid_request` with a message saying what is wrong.
    pub fn invalid(status: StatusCode, message: impl Into<String>) -> Self {
        Self::new(status, ApiErrorCode::InvalidRequest, message)
    }
}

impl IntoResponse for V1Error {
    fn into_response(self) -> Response {
        let body = ApiErrorBody {
            error: ApiErrorDetail {
                code: self.code,
                message: self.message,
            },
        };
        let mut response = (self.status, Json(body)).into_response();
        if let Some(seconds) = self.retry_after {
            response
                .headers_mut()
                .insert(RETRY_AFTER, HeaderValue::from(seconds));
        }
        if self.code == ApiErrorCode::Unauthorized {
            response.headers_mut().insert(
                axum::http::header::WWW_AUTHENTICATE,
                HeaderValue::from_static("Bearer"),
            );
        }
        response
    }
}

impl From<AppError> for V1Error {
    fn from(e: AppError) -> Self {
        let status = e.status();
        let code = match &e {
            AppError::BadRequest(_) | AppError::Unprocessable(_) | AppError::InvalidFields(_) => {
                ApiErrorCode::InvalidRequest
            }
            AppError::Unauthorized(_) | AppError::Forbidden(_) => ApiErrorCode::Unauthorized,
            AppError::PaymentRequired(_) => ApiErrorCode::InsufficientCredits,
            AppError::NotFound(_) => ApiErrorCode::NotFound,
            AppError::MethodNotAllowed => ApiErrorCode::MethodNotAllowed,
            AppError::Conflict(_) => ApiErrorCode::InvalidRequest,
            AppError::PayloadTooLarge(_) => ApiErrorCode::PayloadTooLarge,
            AppError::UnsupportedMediaType(_) => ApiErrorCode::UnsupportedMediaType,
            AppError::TooManyRequests { .. } => ApiErrorCode::RateLimited,
            AppError::BadGateway { .. }
            | AppError::Unavailable(_)
            | AppError::StorageUnavailable(_)
            | AppError::NotConfigured(_) => ApiErrorCode::Unavailable,
            AppError::Internal(_) => ApiErrorCode::Internal,
        };
        let retry_after = match &e {
            AppError::TooManyRequests { retry_after, .. } => Some(*retry_after),
            _ => None,
        };
        // The 5xx texts (and their logging) are AppError's own.
        let message = match e {
            AppError::Internal(inner) => {
                tracing::error!(error = %Chain(inner.as_ref()), "internal error");
                "Internal Server Error".to_owned()
            }
            AppError::Unavailable(inner) => {
                tracing::error!(error = %Chain(&inner), "database unavailable");
                AppError::Unavailable(inner).to_string()
            }
            AppError::StorageUnavailable(inner) => {
                tracing::error!(error = %Chain(&inner), "blob storage unavailable");
                AppError::StorageUnavailable(inner).to_string()
            }
            AppError::BadGateway { message, source } => {
                tracing::error!(error = %Chain(source.as_ref()), "upstream failed");
                message
            }
            other => other.to_string(),
        };
        V1Error {
            status,
            code,
            message,
            retry_after,
        }
    }
}

impl From<StoreError> for V1Error {
    fn from(e: StoreError) -> Self {
        AppError::from(e).into()
    }
}

impl From<AccountError> for V1Error {
    fn from(e: AccountError) -> Self {
        AppError::from(e).into()
    }
}

impl From<SubmitError> for V1Error {
    fn from(e: SubmitError) -> Self {
        match e {
            SubmitError::TooLong | SubmitError::InvalidUrl(_) => Self::new(
                StatusCode::UNPROCESSABLE_ENTITY,
                ApiErrorCode::InvalidUrl,
                e.to_string(),
            ),
            SubmitError::IdempotencyKeyReused => Self::new(
                StatusCode::CONFLICT,
                ApiErrorCode::IdempotencyKeyReused,
                e.to_string(),
            ),
            SubmitError::InvalidCallbackUrl(message) => Self::new(
                StatusCode::UNPROCESSABLE_ENTITY,
                ApiErrorCode::InvalidCallbackUrl,
                message,
            ),
            other => AppError::from(other).into(),
        }
    }
}

impl From<ReportError> for V1Error {
    fn from(e: ReportError) -> Self {
        match e {
            ReportError::NotFound => {
                Self::new(StatusCode::NOT_FOUND, ApiErrorCode::NotFound, e.to_string())
            }
            ReportError::NotFinished => Self::new(
                StatusCode::CONFLICT,
                ApiErrorCode::AnalysisNotFinished,
                "the analysis is not finished yet: poll GET /api/v1/analyses/{id} until its status is complete",
            ),
            ReportError::Failed(message) => Self::new(
                StatusCode::CONFLICT,
                ApiErrorCode::AnalysisFailed,
                format!("the analysis failed, so it has no report: {message}"),
            ),
            ReportError::Store(e) => e.into(),
        }
    }
}

impl From<PageError> for V1Error {
    fn from(e: PageError) -> Self {
        match e {
            PageError::Invalid(message) => Self::invalid(StatusCode::BAD_REQUEST, message),
            PageError::Store(e) => e.into(),
        }
    }
}

impl From<JsonRejection> for V1Error {
    fn from(r: JsonRejection) -> Self {
        AppError::from(r).into()
    }
}

impl From<QueryRejection> for V1Error {
    fn from(r: QueryRejection) -> Self {
        AppError::from(r).into()
    }
}

impl From<CustomDomainError> for AppError {
    fn from(e: CustomDomainError) -> Self {
        match e {
            CustomDomainError::Forbidden(m) => Self::Forbidden(m),
            CustomDomainError::Invalid(_) => Self::Unprocessable(e.to_string()),
            CustomDomainError::Taken | CustomDomainError::NoBrand => Self::Conflict(e.to_string()),
            CustomDomainError::NoDomain => Self::NotFound(e.to_string()),
            CustomDomainError::Store(e) => e.into(),
        }
    }
}
