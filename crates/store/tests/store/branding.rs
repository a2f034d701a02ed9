//! White-label branding as its settings page writes it (`store::branding`): the settings leave
//! the columns other features own alone, the logo's address is set and cleared on its own, and
//! who owns a paid Premium report.

use domain::credits::Credits;
use domain::report::ReportType;
use domain::whitelabel::BrandingInput;
use store::StoreError;
use store::accounts::{Branding as Row, branding_for_user, save_branding};
use store::branding::{branding, owns_paid_premium, save_settings, set_logo_url};
use store::credits::{Payer, grant_credits};
use store::jobs::{NewAnalysis, PaidAnalysis, claim_next_job, complete_job, enqueue_paid_analysis};
use store::results::NewResult;

use crate::support::{both, new_user};

fn settings(name: &str) -> BrandingInput {
    BrandingInput {
        company_name: name.into(),
        primary_color: "#0F766E".into(),
        secondary_color: "#F59E0B".into(),
        font_family: "Georgia, 'Times New Roman', serif".into(),
        contact_email: "hello@studio.example".into(),
        contact_phone: String::new(),
        website_url: "https://studio.example/".into(),
    }
}

both!(
    settings_leave_the_logo_embed_code_and_domain_alone,
    |db, engine| {
        let agency = new_user(&db, "agency@example.com").await.id;
        let first = save_settings(&db, agency, &settings("Studio Grace"))
            .await
            .expect("create");
        assert_eq!(first.company_name, "Studio Grace");
        assert_eq!(first.contact_email.as_deref(), Some("hello@studio.example"));
        assert_eq!(first.contact_phone, None, "{engine:?}: empty is absent");
        assert_eq!(first.logo_url, None);

        // Another feature's columns, written the way it writes them.
        let row = branding_for_user(&db, agency)
            .await
            .expect("read")
            .expect("row");
        let id = row.id;
        save_branding(
            &db,
            agency,
            &Row {
                company_name: row.company_name,
                logo_url: Some("/api/white-label/logos/1-0123456789abcdef.png".into()),
                embed_code: Some("<script></script>".into()),
                custom_domain: Some("reports.studio.example".into()),
                ..Row::default()
            },
        )
        .await
        .expect("other columns");

        let renamed = save_settings(
            &db,
            agency,
            &BrandingInput {
                contact_email: String::new(),
                ..settings("Studio Grace & Co")
            },
        )
        .await
        .expect("update");
        assert_eq!(renamed.company_name, "Studio Grace & Co");
        assert_eq!(renamed.primary_color, "#0F766E");
        assert_eq!(renamed.contact_email, None, "a cleared field is cleared");
        assert_eq!(
            renamed.logo_url.as_deref(),
            Some("/api/white-label/logos/1-0123456789abcdef.png")
        );
        let row = branding_for_user(&db, agency)
            .await
            .expect("read")
            .expect("row");
        assert_eq!(row.id, id, "one row per user");
        assert_eq!(row.embed_code.as_deref(), Some("<script></script>"));
        assert_eq!(row.custom_domain.as_deref(), Some("reports.studio.example"));
    }
);

both!(the_logo_is_set_and_cleared_on_its_own, |db, engine| {
    let agency = new_user(&db, "agency@example.com").await.id;
    assert!(
        matches!(
            set_logo_url(&db, agency, Some("/x.png")).await,
            Err(StoreError::NotFound)
        ),
        "{engine:?}: no brand, no logo"
    );
    save_settings(&db, agency, &settings("Studio"))
        .await
        .expect("save");
    assert_eq!(
        set_logo_url(&db, agency, Some("/a.png"))
            .await
            .expect("set"),
        None
    );
    assert_eq!(
        set_logo_url(&db, agency, Some("/b.png"))
            .await
            .expect("replace"),
        Some("/a.png".to_owned())
    );
    let saved = branding(&db, agency).await.expect("read").expect("brand");
    assert_eq!(saved.logo_url.as_deref(), Some("/b.png"));
    assert_eq!(saved.company_name, "Studio", "the settings stay");
    assert_eq!(
        set_logo_url(&db, agency, None).await.expect("clear"),
        Some("/b.png".to_owned())
    );
    let cleared = branding(&db, agency).await.expect("read").expect("brand");
    assert_eq!(cleared.logo_url, None);
    assert_eq!(branding(&db, 999_999).await.expect("none"), None);
});

fn analysis(report_type: ReportType, requester: i64) -> NewAnalysis {
    NewAnalysis {
        url: "studio.example".into(),
        canonical_url: "https://studio.example/".into(),
        report_type,
        requested_pages: report_type.pages(),
        requester_user_id: Some(requester),
        requester_ip: None,
    }
}

/// Queues a paid analysis for `user` and completes it; returns once its result is stored.
async fn paid_report(db: &sea_orm::DatabaseConnection, user: i64, report_type: ReportType) {
    let cost = domain::commerce::report_cost(report_type);
    let PaidAnalysis::Queued(job) =
        enqueue_paid_analysis(db, Payer::own(user), cost, &analysis(report_type, user))
            .await
            .expect("enqueue")
    else {
        panic!("funded");
    };
    let claimed = claim_next_job(db, "w")
        .await
        .expect("claim")
        .expect("a job");
    assert_eq!(claimed.id, job.id);
    complete_job(db, job.id, "w", &NewResult::default())
        .await
        .expect("complete");
}

both!(a_completed_paid_premium_report_is_owned, |db, engine| {
    let owner = new_user(&db, "owner@example.com").await.id;
    let other = new_user(&db, "other@example.com").await.id;
    grant_credits(&db, owner, Credits::whole(10), "admin", None)
        .await
        .expect("grant");
    assert!(!owns_paid_premium(&db, owner).await.expect("none"));

    paid_report(&db, owner, ReportType::Standard).await;
    assert!(
        !owns_paid_premium(&db, owner).await.expect("standard"),
        "{engine:?}: a Standard report is not white-label"
    );

    let PaidAnalysis::Queued(_) = enqueue_paid_analysis(
        &db,
        Payer::own(owner),
        domain::commerce::report_cost(ReportType::Premium),
        &analysis(ReportType::Premium, owner),
    )
    .await
    .expect("enqueue") else {
        panic!("funded");
    };
    assert!(
        !owns_paid_premium(&db, owner).await.expect("queued"),
        "{engine:?}: a queued report is no report yet"
    );
    let job = claim_next_job(&db, "w").await.expect("claim").expect("job");
    complete_job(&db, job.id, "w", &NewResult::default())
        .await
        .expect("complete");
    assert!(owns_paid_premium(&db, owner).await.expect("premium"));
    assert!(!owns_paid_premium(&db, other).await.expect("other"));
});
