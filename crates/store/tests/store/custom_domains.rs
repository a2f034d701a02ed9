//! Custom domains: one per account and one account per domain, the same domain kept verified,
//! another one unverified, a check recorded only against the domain and token it checked, and
//! the lookups the host routing makes.

use store::StoreError;
use store::custom_domains::{
    Check, domain_for_user, record_check, remove_domain, set_domain, verified_domain,
    verified_owner,
};

use crate::support::{both, new_user};

const TOKEN: &str = "0123456789abcdef0123456789abcdef";
const OTHER_TOKEN: &str = "ffffffffffffffffffffffffffffffff";

both!(
    a_domain_is_verified_only_by_a_check_of_itself,
    |db, engine| {
        let agency = new_user(&db, "agency@example.com").await;
        let rival = new_user(&db, "rival@example.com").await;
        let set = set_domain(&db, agency.id, "reports.agency.example", TOKEN)
            .await
            .expect("set");
        assert_eq!(set.verified_at, None);
        assert_eq!(
            verified_owner(&db, "reports.agency.example")
                .await
                .expect("owner"),
            None
        );

        // Another account cannot take it.
        let taken = set_domain(&db, rival.id, "reports.agency.example", OTHER_TOKEN).await;
        assert!(
            matches!(taken, Err(StoreError::Conflict(_))),
            "{engine:?}: {taken:?}"
        );

        // A check of another token records nothing; one of this token verifies it.
        let stale = record_check(
            &db,
            agency.id,
            "reports.agency.example",
            OTHER_TOKEN,
            &Check::Verified,
            store::now(),
        )
        .await
        .expect("check");
        assert_eq!(stale, None);
        let first = store::now();
        let verified = record_check(
            &db,
            agency.id,
            "reports.agency.example",
            TOKEN,
            &Check::Verified,
            first,
        )
        .await
        .expect("check")
        .expect("row");
        assert_eq!(verified.verified_at, Some(first));
        assert_eq!(
            verified_owner(&db, "reports.agency.example")
                .await
                .expect("owner"),
            Some(agency.id)
        );
        assert_eq!(
            verified_domain(&db, agency.id)
                .await
                .expect("domain")
                .as_deref(),
            Some("reports.agency.example")
        );

        // Verified again: the first verification's time stays. Inconclusive: still verified.
        record_check(
            &db,
            agency.id,
            "reports.agency.example",
            TOKEN,
            &Check::Verified,
            store::now(),
        )
        .await
        .expect("check");
        let unsure = record_check(
            &db,
            agency.id,
            "reports.agency.example",
            TOKEN,
            &Check::Inconclusive("no answer".into()),
            store::now(),
        )
        .await
        .expect("check")
        .expect("row");
        assert_eq!(unsure.verified_at, Some(first));
        assert_eq!(unsure.last_error.as_deref(), Some("no answer"));

        // The same domain again changes nothing; a failed check un-verifies it.
        let again = set_domain(&db, agency.id, "reports.agency.example", OTHER_TOKEN)
            .await
            .expect("set");
        assert_eq!(
            (again.token.as_str(), again.verified_at),
            (TOKEN, Some(first))
        );
        let failed = record_check(
            &db,
            agency.id,
            "reports.agency.example",
            TOKEN,
            &Check::Failed("gone".into()),
            store::now(),
        )
        .await
        .expect("check")
        .expect("row");
        assert_eq!(failed.verified_at, None);
        assert_eq!(
            verified_owner(&db, "reports.agency.example")
                .await
                .expect("owner"),
            None
        );

        // Another domain replaces it, unverified, with its own token; the old one is free.
        record_check(
            &db,
            agency.id,
            "reports.agency.example",
            TOKEN,
            &Check::Verified,
            store::now(),
        )
        .await
        .expect("check");
        let moved = set_domain(&db, agency.id, "audits.agency.example", OTHER_TOKEN)
            .await
            .expect("set");
        assert_eq!((moved.verified_at, moved.last_error), (None, None));
        assert_eq!(
            verified_owner(&db, "reports.agency.example")
                .await
                .expect("owner"),
            None
        );
        set_domain(&db, rival.id, "reports.agency.example", TOKEN)
            .await
            .expect("free again");

        assert!(remove_domain(&db, agency.id).await.expect("remove"));
        assert!(!remove_domain(&db, agency.id).await.expect("remove"));
        assert_eq!(domain_for_user(&db, agency.id).await.expect("read"), None);
    }
);
