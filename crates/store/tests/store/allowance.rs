//! The free daily allowance per visitor address.

use chrono::{Duration, TimeZone, Utc};
use sea_orm::{EntityTrait, PaginatorTrait};
use store::allowance::{FreeAnalysis, free_analyses_used, record_free_analysis};
use store::entity::ip_analysis_tracking;

use crate::support::both;

both!(
    twenty_concurrent_free_analyses_let_exactly_three_through,
    |db, engine| {
        let at = Utc
            .with_ymd_and_hms(2026, 11, 22, 10, 0, 0)
            .single()
            .expect("time");
        let mut handles = Vec::new();
        for i in 0..20 {
            let db = db.clone();
            handles.push(tokio::spawn(async move {
                record_free_analysis(
                    &db,
                    "203.0.113.7",
                    &format!("https://site{i}.example/"),
                    at,
                    3,
                )
                .await
                .expect("record")
            }));
        }
        let mut used = Vec::new();
        for handle in handles {
            if let FreeAnalysis::Allowed { used: n } = handle.await.expect("join") {
                used.push(n);
            }
        }
        used.sort_unstable();
        assert_eq!(used, vec![1, 2, 3]);
        assert_eq!(
            free_analyses_used(&db, "203.0.113.7", at)
                .await
                .expect("used"),
            3
        );
        assert_eq!(
            ip_analysis_tracking::Entity::find()
                .count(&db)
                .await
                .expect("count"),
            3
        );
    }
);

both!(
    the_allowance_is_per_address_and_per_utc_day,
    |db, engine| {
        let late = Utc
            .with_ymd_and_hms(2026, 11, 22, 23, 59, 59)
            .single()
            .expect("time");
        for _ in 0..3 {
            assert!(matches!(
                record_free_analysis(&db, "198.51.100.1", "https://a.example/", late, 3)
                    .await
                    .expect("record"),
                FreeAnalysis::Allowed { .. }
            ));
        }
        assert_eq!(
            record_free_analysis(&db, "198.51.100.1", "https://a.example/", late, 3)
                .await
                .expect("record"),
            FreeAnalysis::LimitReached
        );
        // Another address is unaffected.
        assert_eq!(
            record_free_analysis(&db, "198.51.100.2", "https://a.example/", late, 3)
                .await
                .expect("record"),
            FreeAnalysis::Allowed { used: 1 }
        );
        // One second later it is the next UTC day.
        let next_day = late + Duration::seconds(1);
        assert_eq!(
            record_free_analysis(&db, "198.51.100.1", "https://a.example/", next_day, 3)
                .await
                .expect("record"),
            FreeAnalysis::Allowed { used: 1 }
        );
        // The limit is the caller's.
        assert_eq!(
            record_free_analysis(&db, "198.51.100.3", "https://a.example/", late, 0)
                .await
                .expect("record"),
            FreeAnalysis::LimitReached
        );
        assert_eq!(
            free_analyses_used(&db, "198.51.100.3", late)
                .await
                .expect("used"),
            0
        );
    }
);

both!(
    a_refund_gives_one_analysis_back_and_never_goes_below_zero,
    |db, engine| {
        use store::allowance::refund_free_analysis;
        let at = Utc
            .with_ymd_and_hms(2026, 11, 22, 9, 0, 0)
            .single()
            .expect("time");
        let ip = "198.51.100.9";
        assert!(
            !refund_free_analysis(&db, ip, at).await.expect("refund"),
            "{engine:?}: nothing to refund yet"
        );
        for _ in 0..3 {
            record_free_analysis(&db, ip, "https://a.example/", at, 3)
                .await
                .expect("record");
        }
        assert_eq!(
            record_free_analysis(&db, ip, "https://a.example/", at, 3)
                .await
                .expect("record"),
            FreeAnalysis::LimitReached
        );
        assert!(refund_free_analysis(&db, ip, at).await.expect("refund"));
        assert_eq!(free_analyses_used(&db, ip, at).await.expect("used"), 2);
        assert!(matches!(
            record_free_analysis(&db, ip, "https://b.example/", at, 3)
                .await
                .expect("record"),
            FreeAnalysis::Allowed { used: 3 }
        ));
        // A refund on another day touches nothing of this day.
        assert!(
            !refund_free_analysis(&db, ip, at + Duration::days(1))
                .await
                .expect("refund")
        );
        assert_eq!(free_analyses_used(&db, ip, at).await.expect("used"), 3);
    }
);
