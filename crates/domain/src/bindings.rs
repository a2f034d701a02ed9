//! TypeScript declarations of every contract type, generated from the Rust definitions.
//!
//! `crates/domain/bindings/contract.ts` holds the output of [`typescript`]. The test
//! `generated_typescript_is_current` fails when that file is stale; run
//! `just bindings` (which sets `UPDATE_BINDINGS=1`) to rewrite it.

use ts_rs::{Config, TS};

use crate::{
    accounts, admin, api, callbacks, checkout, commerce, constants, contact, credits, forms,
    performance, professional, report, robots, score, site_url, snippet, status,
};

macro_rules! declarations {
    ($cfg:expr; $($t:ty),* $(,)?) => {
        vec![$(format!("export {}", <$t as TS>::decl($cfg))),*]
    };
}

/// The whole generated file.
pub fn typescript() -> String {
    let cfg = Config::new();
    let decls = declarations![&cfg;
        credits::Credits,
        report::FindingType,
        report::Finding,
        report::SectionStatus,
        report::SectionGroup,
        report::DiagnosticType,
        report::DiagnosticDetail,
        report::Diagnostic,
        report::MetaSuggestion,
        report::OgTagSuggestions,
        report::MetaTagSuggestions,
        report::ContentAdvice,
        report::HeadingAdvice,
        report::ContentOptimizations,
        report::ImageOptimization,
        report::ImpactOptimization,
        report::AutoOptimizations,
        report::NewWebsiteProposal,
        report::PremiumOptimizations,
        report::LighthouseResult,
        report::LabScores,
        report::LabConditions,
        report::LabRun,
        report::PerformanceMetrics,
        report::Priority,
        report::ActionItem,
        report::Scores,
        report::Screenshots,
        report::ReportType,
        report::AnalysisReport,
        report::ProfessionalAnalysis,
        professional::GraphEvidence,
        professional::ReferringDomain,
        professional::BacklinkFigures,
        professional::BacklinkFailure,
        professional::BacklinkAnalysis,
        professional::RedirectHop,
        professional::CrawledPageSummary,
        professional::InternalLinkAnalysis,
        professional::KeywordCount,
        professional::PageContentSummary,
        professional::ContentQualityAssessment,
        professional::PageMetaSuggestions,
        professional::PageHeaderSuggestions,
        professional::RobotsRule,
        professional::RobotsGroup,
        professional::RobotsProblem,
        professional::RobotsAnalysis,
        professional::SitemapKind,
        professional::SitemapDocument,
        professional::SitemapAnalysis,
        report::ResultResponse,
        report::ProgressEventType,
        report::ProgressEvent,
        report::AnalyzeRequest,
        report::AnalyzeData,
        report::AnalyzeResponse,
        report::StatsData,
        report::StatsResponse,
        report::TrialEligibilityResponse,
        report::ErrorResponse,
        report::DownloadRequest,
        report::Point,
        report::Stroke,
        report::Pin,
        report::ShareInputs,
        report::ShareLinks,
        score::Band,
        score::OverallWeights,
        score::FormFactor,
        score::LabMetric,
        score::Curve,
        score::LabValues,
        site_url::UrlError,
        site_url::AddressCheck,
        snippet::SnippetField,
        snippet::LengthVerdict,
        snippet::LengthCheck,
        robots::RobotsError,
        robots::RobotsVerdict,
        forms::FieldError,
        forms::LeadForm,
        forms::CalculatorInput,
        forms::Registration,
        forms::ContactForm,
        contact::ContactKind,
        contact::Choice,
        contact::ContactChoices,
        contact::EnterpriseContactForm,
        contact::AgencyContactForm,
        contact::PartnerEnquiryForm,
        contact::ContactDetail,
        contact::MessageStatus,
        contact::ContactMessageView,
        contact::ContactMessagePage,
        contact::OutboxStatus,
        contact::OutboxEmailView,
        contact::OutboxPage,
        performance::GoodRange,
        performance::MeasuredMetrics,
        performance::FilledMetrics,
        performance::DiagnosedMetric,
        commerce::CreditPack,
        commerce::Purchase,
        commerce::Plan,
        commerce::ReportTypeInfo,
        commerce::PlanChoice,
        commerce::CalculatorResult,
        commerce::TrialState,
        commerce::TrialButton,
        constants::Step,
        constants::Timings,
        constants::Limits,
        constants::ProductConstants,
        accounts::SignInForm,
        accounts::PasswordChange,
        accounts::EmailChange,
        accounts::TeamRole,
        accounts::Account,
        accounts::TeamMembership,
        accounts::AnalysisSummary,
        accounts::SiteHistory,
        accounts::DashboardData,
        accounts::TeamMemberView,
        accounts::TeamView,
        checkout::PaymentMode,
        checkout::BillingInterval,
        checkout::CheckoutKind,
        checkout::CheckoutQuery,
        checkout::CheckoutItem,
        checkout::StartedCheckout,
        checkout::CheckoutView,
        checkout::SubscriptionStatus,
        checkout::PlanAction,
        checkout::SubscriptionView,
        checkout::PurchaseView,
        checkout::BillingOverview,
        api::ApiErrorCode,
        api::ApiErrorDetail,
        api::ApiErrorBody,
        api::NewApiKey,
        api::ApiKeyView,
        api::CreatedApiKey,
        api::CreateAnalysisRequest,
        api::AnalysisStatus,
        api::ApiAnalysis,
        api::ApiAnalysisPage,
        api::ApiUsage,
        callbacks::CallbackEventType,
        callbacks::CallbackAnalysis,
        callbacks::CallbackLinks,
        callbacks::CallbackEvent,
        callbacks::CallbackState,
        callbacks::CallbackAttempt,
        callbacks::ApiCallback,
        callbacks::CallbackSecretView,
        status::ServiceState,
        status::BrowserMode,
        status::ApiPart,
        status::DatabasePart,
        status::QueuePart,
        status::WorkersPart,
        status::BrowserPart,
        status::HealthSample,
        status::HistoryBar,
        status::HealthHistory,
        status::ApiStatus,
        admin::AdminLevel,
        admin::AdminMe,
        admin::AuditEntryView,
        admin::AuditPage,
    ];
    let mut out = String::from(
        "// GENERATED by crates/domain (src/bindings.rs) from the Rust contract types.\n\
         // Do not edit: run `just bindings` after changing a type.\n\n",
    );
    for d in decls {
        out.push_str(&d);
        out.push_str("\n\n");
    }
    out
}

#[cfg(test)]
mod tests {
    use std::path::PathBuf;

    /// The committed web copy must equal what the Rust types generate.
    #[test]
    fn generated_typescript_is_current() {
        let path = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("bindings/contract.ts");
        let fresh = super::typescript();
        if std::env::var_os("UPDATE_BINDINGS").is_some() {
            std::fs::write(&path, &fresh).expect("write the generated bindings");
            return;
        }
        let committed = std::fs::read_to_string(&path).unwrap_or_default();
        assert!(
            committed == fresh,
            "{} is stale: run `just bindings` and commit the result",
            path.display()
        );
    }
}
