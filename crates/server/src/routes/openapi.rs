//! The OpenAPI 3.1 document of `/api/v1`, generated from the handlers' `#[utoipa::path]`
//! attributes and the contract types of `domain` (the report schema is `AnalysisReport`, the
//! type the web app reads). `api_v1::router` registers each route through the same
//! description, so a route cannot exist undocumented; what every gated operation shares (the
//! bearer key, the `RateLimit-*` headers, 401, 429, 500 and 503) is added here once.

use domain::api::ApiErrorBody;
use domain::callbacks::{
    ATTEMPT_HEADER, CallbackEvent, EVENT_ID_HEADER, EVENT_TYPE_HEADER, SIGNATURE_HEADER,
};
use utoipa::openapi::security::{HttpAuthScheme, HttpBuilder, SecurityScheme};
use utoipa::openapi::{
    ContentBuilder, HeaderBuilder, ObjectBuilder, OpenApi, RefOr, ResponseBuilder, Schema,
    schema::Type,
};
use utoipa::{PartialSchema, ToSchema};

/// The name of the bearer-key security scheme (written out in each `security(('apiKey' ...))`).
pub const SECURITY: &str = "apiKey";

/// The document's frame: title, version, server and tags; the operations come from
/// `api_v1`'s routes, then [`add_shared`] completes them.
#[derive(utoipa::OpenApi)]
#[openapi(
    info(
        title = "Sitelens API",
        version = "1",
        description = "Analyses over HTTP with an API key. The guide is at /api-docs.",
        license(name = "AGPL-3.0-or-later", identifier = "AGPL-3.0-or-later")
    ),
    servers((url = "/api/v1", description = "this server")),
    tags(
        (name = "analyses", description = "submit analyses, follow them and read their reports"),
        (name = "account", description = "credits, calls and the rate limit"),
        (name = "status", description = "whether the service works: public, no key"),
        (name = "meta", description = "this document")
    ),
    components(schemas(ApiErrorBody, CallbackEvent))
)]
pub struct ApiDoc;

/// A PDF file: a binary body, described by its media type.
pub struct PdfFile;

impl PartialSchema for PdfFile {
    fn schema() -> RefOr<Schema> {
        ObjectBuilder::new()
            .schema_type(Type::String)
            .content_media_type("application/pdf")
            .into()
    }
}

impl ToSchema for PdfFile {}

/// Adds the bearer scheme, and to every operation that requires it the answers of
/// `extract::gate`: the `RateLimit-*` headers on each of its responses but a 401 (the limit is
/// counted once the key is known), and the 401, 429 (with `Retry-After`), 500 and 503 it may
/// answer whatever the operation. Run once every operation is in the document.
pub fn add_shared(doc: &mut OpenApi) {
    {
        let components = doc.components.get_or_insert_with(Default::default);
        components.add_security_scheme(
            SECURITY,
            SecurityScheme::Http(
                HttpBuilder::new()
                    .scheme(HttpAuthScheme::Bearer)
                    .bearer_format("slk_ followed by 64 hex digits, from the dashboard")
                    .description(Some(
                        "an API key created on the dashboard, sent as `Authorization: Bearer slk_…`",
                    ))
                    .build(),
            ),
        );
        for item in doc.paths.paths.values_mut() {
            for op in [
                &mut item.get,
                &mut item.put,
                &mut item.post,
                &mut item.delete,
                &mut item.patch,
            ]
            .into_iter()
            .flatten()
            {
                let gated = op.security.as_ref().is_some_and(|s| !s.is_empty());
                if !gated {
                    continue;
                }
                let responses = &mut op.responses.responses;
                for (status, description) in [
                    (
                        "401",
                        "no key, or an unknown or revoked one (`unauthorized`)",
                    ),
                    (
                        "429",
                        "this key's requests of this minute are used up (`rate_limited`)",
                    ),
                    ("500", "an unexpected failure on our side (`internal`)"),
                    (
                        "503",
                        "the service cannot serve now; try again shortly (`unavailable`)",
                    ),
                ] {
                    responses
                        .entry(status.to_owned())
                        .or_insert_with(|| error_response(description).into());
                }
                for (status, response) in responses.iter_mut() {
                    let RefOr::T(response) = response else {
                        continue;
                    };
                    if status != "401" {
                        add_rate_headers(&mut response.headers);
                    }
                    if status == "401" {
                        response.headers.insert(
                            "WWW-Authenticate".to_owned(),
                            header("`Bearer`", Type::String),
                        );
                    }
                    if status == "429" {
                        response.headers.insert(
                            "Retry-After".to_owned(),
                            header("seconds until the key may call again", Type::Integer),
                        );
                    }
                }
            }
        }
    }
}

/// Adds the callback Sitelens posts to an analysis's `callbackUrl` as the document's
/// `analysisCallback` webhook (OpenAPI 3.1 `webhooks`): its body, headers and what counts as
/// delivered.
pub fn add_webhooks(doc: &mut OpenApi) {
    use utoipa::openapi::path::{HttpMethod, OperationBuilder, ParameterBuilder, ParameterIn};
    use utoipa::openapi::request_body::RequestBodyBuilder;
    use utoipa::openapi::{PathItem, PathsBuilder, Required};

    let mut op = OperationBuilder::new()
        .operation_id(Some("analysisCallback"))
        .tag("analyses")
        .summary(Some("Analysis callback"))
        .description(Some(
            "Posted to the `callbackUrl` of an analysis when it completes (`analysis.completed`) or fails (`analysis.failed`). Verify `Sitelens-Signature` with your account's callback secret (dashboard, API keys): `t=<unix seconds>,v1=<hex HMAC-SHA256(secret, \"<t>.<raw body>\")>`. Deduplicate by the event id. An answer other than 2xx, a redirect (never followed) or no answer within 10 s is retried after 30 s, 2 min, 10 min, 1 h and 6 h, then given up.",
        ))
        .request_body(Some(
            RequestBodyBuilder::new()
                .content(
                    "application/json",
                    ContentBuilder::new()
                        .schema(Some(CallbackEvent::schema_ref()))
                        .build(),
                )
                .required(Some(Required::True))
                .build(),
        ))
        .response(
            "200",
            ResponseBuilder::new()
                .description("any 2xx answer acknowledges the event; its body is ignored")
                .build(),
        );
    for (name, description) in [
        (
            SIGNATURE_HEADER,
            "`t=<unix seconds>,v1=<hex HMAC-SHA256(secret, \"<t>.<raw body>\")>`",
        ),
        (
            EVENT_ID_HEADER,
            "the event id, the same on every retry: deduplicate by it",
        ),
        (
            EVENT_TYPE_HEADER,
            "`analysis.completed` or `analysis.failed`",
        ),
        (ATTEMPT_HEADER, "this attempt's number, from 1"),
    ] {
        op = op.parameter(
            ParameterBuilder::new()
                .name(name)
                .parameter_in(ParameterIn::Header)
                .required(Required::True)
                .description(Some(description))
                .schema(Some(ObjectBuilder::new().schema_type(Type::String))),
        );
    }
    doc.webhooks = Some(
        PathsBuilder::new()
            .path("analysisCallback", PathItem::new(HttpMethod::Post, op))
            .build(),
    );
}

/// An answer in the one error shape, `{"error": {"code", "message"}}`.
pub fn error_response(description: &str) -> utoipa::openapi::Response {
    ResponseBuilder::new()
        .description(description)
        .content(
            "application/json",
            ContentBuilder::new()
                .schema(Some(ApiErrorBody::schema_ref()))
                .build(),
        )
        .build()
}

fn add_rate_headers(
    headers: &mut std::collections::BTreeMap<String, RefOr<utoipa::openapi::header::Header>>,
) {
    for (name, description) in [
        ("RateLimit-Limit", "requests this key may make per minute"),
        ("RateLimit-Remaining", "requests left in this minute"),
        (
            "RateLimit-Reset",
            "seconds until this minute's count starts again",
        ),
    ] {
        headers.insert(name.to_owned(), header(description, Type::Integer));
    }
}

fn header(description: &str, kind: Type) -> RefOr<utoipa::openapi::header::Header> {
    HeaderBuilder::new()
        .schema(Some(ObjectBuilder::new().schema_type(kind)))
        .description(Some(description))
        .build()
        .into()
}

/// A reference to a schema of `components`, for hand-built responses.
trait SchemaRef {
    fn schema_ref() -> RefOr<Schema>;
}

impl<T: ToSchema> SchemaRef for T {
    fn schema_ref() -> RefOr<Schema> {
        RefOr::Ref(utoipa::openapi::Ref::from_schema_name(T::name()))
    }
}
