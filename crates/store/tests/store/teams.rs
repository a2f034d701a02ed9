//! Teams by invitation, sign-in throttling counts, e-mail verification, the dashboard's site
//! histories, the data export and deleting an account with its reports.

use chrono::Duration;
use domain::report::ReportType;
use sea_orm::DatabaseConnection;
use store::StoreError;
use store::accounts::{
    NewInvitation, accept_invitation, create_invitation, members_of, membership_of,
    open_invitations, remove_team_member, seats_taken, withdraw_invitation,
};
use store::entity::users;
use store::history::{delete_account, export_user_data, requested_by_any, site_histories};
use store::jobs::{NewAnalysis, claim_next_job, complete_job, enqueue_analysis};
use store::results::{NewResult, get_result};
use store::throttle::{clear_sign_in_failures, record_sign_in_failure, sign_in_failures_since};
use store::users::{get_user, mark_email_verified, set_email};

use crate::support::both;

async fn user(db: &DatabaseConnection, email: &str) -> users::Model {
    crate::support::new_user(db, email).await
}

fn invitation(owner: i64, email: &str, token: &str) -> NewInvitation {
    NewInvitation {
        token_hash: token.into(),
        team_owner_id: owner,
        email: email.into(),
        role: "member".into(),
        expires_at: store::now() + Duration::days(7),
    }
}

both!(
    an_invitation_is_accepted_once_by_its_addressee,
    |db, engine| {
        let owner = user(&db, "owner@example.com").await;
        let member = user(&db, "member@example.com").await;
        let stranger = user(&db, "stranger@example.com").await;
        create_invitation(&db, &invitation(owner.id, "Member@Example.com", "t1"))
            .await
            .expect("invite");
        assert!(matches!(
            create_invitation(&db, &invitation(owner.id, "member@example.com", "t2")).await,
            Err(StoreError::Conflict(_))
        ));
        assert_eq!(
            seats_taken(&db, owner.id, store::now())
                .await
                .expect("seats"),
            1
        );
        let perms = vec!["reports:read".to_owned()];
        assert!(matches!(
            accept_invitation(&db, "t1", &stranger, &perms, store::now()).await,
            Err(StoreError::Conflict(_))
        ));
        let row = accept_invitation(&db, "t1", &member, &perms, store::now())
            .await
            .expect("accept");
        assert_eq!((row.status.as_str(), row.member_id), ("active", member.id));
        assert!(matches!(
            accept_invitation(&db, "t1", &member, &perms, store::now()).await,
            Err(StoreError::NotFound)
        ));
        let (membership, team_owner) = membership_of(&db, member.id)
            .await
            .expect("membership")
            .expect("a member");
        assert_eq!((membership.id, team_owner.id), (row.id, owner.id));
        assert_eq!(members_of(&db, owner.id).await.expect("members").len(), 1);
        assert!(
            open_invitations(&db, owner.id, store::now())
                .await
                .expect("open")
                .is_empty()
        );

        // Removal ends membership at once; another owner's removal finds nothing.
        assert!(matches!(
            remove_team_member(&db, stranger.id, row.id).await,
            Err(StoreError::NotFound)
        ));
        remove_team_member(&db, owner.id, row.id)
            .await
            .expect("remove");
        assert!(
            membership_of(&db, member.id)
                .await
                .expect("membership")
                .is_none()
        );
        assert_eq!(
            seats_taken(&db, owner.id, store::now())
                .await
                .expect("seats"),
            0
        );
    }
);

both!(
    expired_and_withdrawn_invitations_do_not_work,
    |db, engine| {
        let owner = user(&db, "o@example.com").await;
        let member = user(&db, "m@example.com").await;
        let mut old = invitation(owner.id, "m@example.com", "old");
        old.expires_at = store::now() - Duration::seconds(1);
        create_invitation(&db, &old).await.expect("invite");
        assert!(matches!(
            accept_invitation(&db, "old", &member, &[], store::now()).await,
            Err(StoreError::NotFound)
        ));
        let open = create_invitation(&db, &invitation(owner.id, "m@example.com", "new"))
            .await
            .expect("invite again once the first expired");
        withdraw_invitation(&db, owner.id, open.id)
            .await
            .expect("withdraw");
        assert!(matches!(
            accept_invitation(&db, "new", &member, &[], store::now()).await,
            Err(StoreError::NotFound)
        ));
    }
);

both!(
    failed_sign_ins_are_counted_by_address_and_account,
    |db, engine| {
        let now = store::now();
        for _ in 0..3 {
            record_sign_in_failure(&db, "192.0.2.1", "A@example.com", now)
                .await
                .expect("record");
        }
        record_sign_in_failure(&db, "192.0.2.2", "a@example.com", now)
            .await
            .expect("record");
        record_sign_in_failure(&db, "192.0.2.1", "b@example.com", now - Duration::hours(1))
            .await
            .expect("record");
        let since = now - Duration::minutes(15);
        assert_eq!(
            sign_in_failures_since(&db, "192.0.2.1", "a@example.com", since)
                .await
                .expect("count"),
            (3, 4)
        );
        clear_sign_in_failures(&db, "a@example.com")
            .await
            .expect("clear");
        assert_eq!(
            sign_in_failures_since(&db, "192.0.2.1", "a@example.com", since)
                .await
                .expect("count"),
            (0, 0)
        );
    }
);

both!(
    a_changed_address_is_unverified_until_confirmed,
    |db, engine| {
        let u = user(&db, "v@example.com").await;
        let other = user(&db, "taken@example.com").await;
        mark_email_verified(&db, u.id, store::now())
            .await
            .expect("verify");
        assert!(
            get_user(&db, u.id)
                .await
                .expect("user")
                .email_verified_at
                .is_some()
        );
        assert!(matches!(
            set_email(&db, u.id, &other.email).await,
            Err(StoreError::Conflict(_))
        ));
        set_email(&db, u.id, " New@Example.com ")
            .await
            .expect("change");
        let changed = get_user(&db, u.id).await.expect("user");
        assert_eq!(changed.email, "new@example.com");
        assert!(changed.email_verified_at.is_none());
    }
);

async fn analysed(db: &DatabaseConnection, url: &str, who: Option<i64>, score: u32) -> uuid::Uuid {
    enqueue_analysis(
        db,
        &NewAnalysis {
            url: url.into(),
            canonical_url: format!("https://{url}/"),
            report_type: ReportType::Basic,
            requested_pages: 1,
            requester_user_id: who,
            requester_ip: None,
        },
    )
    .await
    .expect("enqueue");
    let job = claim_next_job(db, "w").await.expect("claim").expect("job");
    let mut report = crate::report_rows::premium_report();
    report.url = format!("https://{url}/");
    report.scores.overall = score;
    complete_job(
        db,
        job.id,
        "w",
        &NewResult::from_report(&report).expect("row"),
    )
    .await
    .expect("complete")
}

both!(
    histories_exports_and_deletion_follow_the_requester,
    |db, engine| {
        let ann = user(&db, "ann@example.com").await;
        let bob = user(&db, "bob@example.com").await;
        let a1 = analysed(&db, "a.example", Some(ann.id), 50).await;
        let a2 = analysed(&db, "a.example", Some(ann.id), 70).await;
        let b1 = analysed(&db, "b.example", Some(bob.id), 90).await;
        let anonymous = analysed(&db, "a.example", None, 10).await;

        let sites = site_histories(&db, &[ann.id]).await.expect("history");
        assert_eq!(sites.len(), 1);
        assert_eq!(sites[0].url, "a.example");
        assert_eq!(
            sites[0]
                .analyses
                .iter()
                .map(|a| a.overall_score)
                .collect::<Vec<_>>(),
            vec![50, 70],
            "oldest first, only Ann's"
        );
        assert_eq!(sites[0].analyses[0].requested_by, "ann@example.com");
        let both_users = site_histories(&db, &[ann.id, bob.id]).await.expect("team");
        assert_eq!(both_users.len(), 2);
        assert!(requested_by_any(&db, a1, &[ann.id]).await.expect("own"));
        assert!(!requested_by_any(&db, b1, &[ann.id]).await.expect("other"));

        let export = export_user_data(&db, ann.id).await.expect("export");
        assert_eq!(export["account"]["email"], "ann@example.com");
        assert_eq!(export["analyses"].as_array().map(Vec::len), Some(2));
        assert!(export["account"].get("passwordHash").is_none());
        assert_eq!(export["analyses"][1]["report"]["scores"]["overall"], 70);

        delete_account(&db, ann.id).await.expect("delete");
        assert!(matches!(
            get_user(&db, ann.id).await,
            Err(StoreError::NotFound)
        ));
        for gone in [a1, a2] {
            assert!(matches!(
                get_result(&db, gone).await,
                Err(StoreError::NotFound)
            ));
        }
        for kept in [b1, anonymous] {
            get_result(&db, kept).await.expect("other reports stay");
        }
    }
);
