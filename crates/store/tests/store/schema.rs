//! Migrations up, down and fresh; connecting; constraints.

use migration::{Migrator, MigratorTrait, SchemaManager};
use sea_orm::{ConnectionTrait, DatabaseConnection, EntityTrait, PaginatorTrait, Statement};
use store::StoreError;
use store::users::{NewUser, create_user};

use crate::support::{Engine, both, each_engine_url};

const TABLES: [&str; 25] = [
    "users",
    "sessions",
    "team_members",
    "whitelabel_branding",
    "api_usage",
    "websites",
    "analysis_results",
    "email_reports",
    "analysis_jobs",
    "credit_purchases",
    "credit_ledger",
    "ip_analysis_tracking",
    "ip_daily_usage",
    "affiliates",
    "affiliate_clicks",
    "affiliate_conversions",
    "affiliate_payouts",
    "email_outbox",
    "contact_messages",
    "crawled_pages",
    "page_links",
    "counters",
    "one_time_tokens",
    "webhook_events",
    "seaql_migrations",
];

async fn present(db: &DatabaseConnection) -> Vec<&'static str> {
    let manager = SchemaManager::new(db);
    let mut found = Vec::new();
    for table in TABLES {
        if manager.has_table(table).await.expect("has_table") {
            found.push(table);
        }
    }
    found
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn migrations_go_up_down_and_fresh_on_both_engines() {
    each_engine_url(|url, _engine| async move {
        // One connection, as store::connect migrates an SQLite file.
        let db = store::open(&url, Some(1)).await.expect("open");
        assert_eq!(present(&db).await, Vec::<&str>::new());

        Migrator::up(&db, None).await.expect("up");
        assert_eq!(present(&db).await, TABLES.to_vec());
        assert!(
            Migrator::get_pending_migrations(&db)
                .await
                .expect("pending")
                .is_empty()
        );
        // Running up again is a no-op.
        Migrator::up(&db, None).await.expect("up again");

        // Down removes every table it created (only the bookkeeping table stays).
        Migrator::down(&db, None).await.expect("down");
        assert_eq!(present(&db).await, vec!["seaql_migrations"]);
        assert_eq!(
            Migrator::get_pending_migrations(&db)
                .await
                .expect("pending")
                .len(),
            Migrator::migrations().len()
        );

        // Each migration's down undoes exactly its up: step up one at a time, then back.
        for step in 1..=Migrator::migrations().len() {
            Migrator::up(&db, Some(1)).await.expect("one step up");
            assert_eq!(
                Migrator::get_applied_migrations(&db)
                    .await
                    .expect("applied")
                    .len(),
                step
            );
        }
        Migrator::down(&db, Some(3))
            .await
            .expect("three steps down");
        Migrator::up(&db, None).await.expect("and up again");

        // Fresh drops everything, data included, and rebuilds the schema.
        create_user(
            &db,
            &NewUser {
                email: "a@example.com".into(),
                ..Default::default()
            },
        )
        .await
        .expect("user");
        store::reset(&url).await.expect("fresh");
        assert_eq!(present(&db).await, TABLES.to_vec());
        assert!(
            store::users::find_user_by_email(&db, "a@example.com")
                .await
                .expect("query")
                .is_none()
        );
        db.close().await.expect("close");
    })
    .await;
}

both!(counters_are_seeded_by_the_migration, |db, engine| {
    let stats = store::stats::stats(&db).await.expect("stats");
    assert_eq!(stats, store::stats::Stats::default());
    let count = db
        .query_one_raw(Statement::from_string(
            db.get_database_backend(),
            "SELECT COUNT(*) AS n FROM counters",
        ))
        .await
        .expect("count")
        .expect("row");
    assert_eq!(count.try_get::<i64>("", "n").expect("n"), 2);
});

both!(
    sqlite_connections_use_wal_and_enforce_foreign_keys,
    |db, engine| {
        if engine != Engine::Sqlite {
            return;
        }
        let pragma = |name: &'static str| {
            let db = db.clone();
            async move {
                let row = db
                    .query_one_raw(Statement::from_string(
                        db.get_database_backend(),
                        format!("PRAGMA {name}"),
                    ))
                    .await
                    .expect("pragma")
                    .expect("row");
                row.try_get_by_index::<String>(0)
                    .or_else(|_| row.try_get_by_index::<i64>(0).map(|n| n.to_string()))
                    .expect("value")
            }
        };
        assert_eq!(pragma("journal_mode").await, "wal");
        assert_eq!(pragma("foreign_keys").await, "1");
        assert_eq!(pragma("busy_timeout").await, "30000");
    }
);

#[tokio::test]
async fn in_memory_sqlite_keeps_one_database_across_queries() {
    let db = store::connect("sqlite::memory:").await.expect("connect");
    // Many sequential and concurrent statements all see the migrated schema and each other's
    // rows: with more than one pooled connection each would see its own empty database.
    let mut handles = Vec::new();
    for i in 0..10 {
        let db = db.clone();
        handles.push(tokio::spawn(async move {
            create_user(
                &db,
                &NewUser {
                    email: format!("u{i}@example.com"),
                    ..Default::default()
                },
            )
            .await
            .expect("create")
        }));
    }
    for handle in handles {
        handle.await.expect("join");
    }
    for i in 0..10 {
        assert!(
            store::users::find_user_by_email(&db, &format!("U{i}@example.com"))
                .await
                .expect("find")
                .is_some()
        );
    }
}

#[tokio::test]
async fn sqlite_file_url_without_mode_creates_the_file_and_its_folder() {
    let dir =
        std::env::temp_dir().join(format!("sitelens-create-{}", uuid::Uuid::new_v4().simple()));
    let path = dir.join("data").join("sitelens.sqlite");
    let db = store::connect(&format!("sqlite://{}", path.display()))
        .await
        .expect("connect");
    assert!(path.exists());
    db.close().await.expect("close");
    std::fs::remove_dir_all(&dir).expect("clean up");
}

both!(unique_email_and_external_id_are_conflicts, |db, engine| {
    let first = create_user(
        &db,
        &NewUser {
            email: "Ann@Example.com".into(),
            clerk_id: Some("ext-1".into()),
            ..Default::default()
        },
    )
    .await
    .expect("first");
    assert_eq!(first.email, "ann@example.com");
    assert_eq!(first.report_credits, 0);
    assert_eq!(first.subscription_plan, "basic");
    assert_eq!(first.api_rate_limit, 100);

    let same_email = create_user(
        &db,
        &NewUser {
            email: " ann@example.COM ".into(),
            ..Default::default()
        },
    )
    .await;
    assert!(
        matches!(same_email, Err(StoreError::Conflict(_))),
        "{same_email:?}"
    );

    let same_external = create_user(
        &db,
        &NewUser {
            email: "bob@example.com".into(),
            clerk_id: Some("ext-1".into()),
            ..Default::default()
        },
    )
    .await;
    assert!(
        matches!(same_external, Err(StoreError::Conflict(_))),
        "{same_external:?}"
    );

    // Many users may have no external identity.
    for email in ["c@example.com", "d@example.com"] {
        create_user(
            &db,
            &NewUser {
                email: email.into(),
                ..Default::default()
            },
        )
        .await
        .expect("no clerk id");
    }
});

both!(
    missing_references_are_conflicts_and_user_deletion_cascades,
    |db, engine| {
        use chrono::Duration;
        use store::sessions::{NewSession, create_session, find_session};

        let orphan = create_session(
            &db,
            &NewSession {
                id_hash: "h0".into(),
                user_id: 999_999,
                csrf_token: "c".into(),
                expires_at: store::now() + Duration::hours(1),
            },
        )
        .await;
        assert!(matches!(orphan, Err(StoreError::Conflict(_))), "{orphan:?}");

        let user = create_user(
            &db,
            &NewUser {
                email: "e@example.com".into(),
                ..Default::default()
            },
        )
        .await
        .expect("user");
        create_session(
            &db,
            &NewSession {
                id_hash: "h1".into(),
                user_id: user.id,
                csrf_token: "c".into(),
                expires_at: store::now() + Duration::hours(1),
            },
        )
        .await
        .expect("session");
        assert!(
            find_session(&db, "h1", store::now())
                .await
                .expect("find")
                .is_some()
        );
        store::users::delete_user(&db, user.id)
            .await
            .expect("delete");
        let left = store::entity::sessions::Entity::find()
            .count(&db)
            .await
            .expect("count");
        assert_eq!(left, 0, "sessions are deleted with their user");
        assert!(matches!(
            store::users::delete_user(&db, user.id).await,
            Err(StoreError::NotFound)
        ));
    }
);

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn processes_starting_together_migrate_once() {
    each_engine_url(|url, engine| async move {
        // On SQLite the file must exist before several connects race to create it; a
        // single-binary deployment never starts twice at once, PostgreSQL deployments do.
        if engine == Engine::Sqlite {
            store::connect(&url)
                .await
                .expect("first")
                .close()
                .await
                .expect("close");
        }
        let mut handles = Vec::new();
        for _ in 0..4 {
            let url = url.clone();
            handles.push(tokio::spawn(async move { store::connect(&url).await }));
        }
        for handle in handles {
            let db = handle.await.expect("join").expect("every node connects");
            assert!(
                Migrator::get_pending_migrations(&db)
                    .await
                    .expect("pending")
                    .is_empty()
            );
            assert_eq!(
                Migrator::get_applied_migrations(&db)
                    .await
                    .expect("applied")
                    .len(),
                Migrator::migrations().len()
            );
            db.close().await.expect("close");
        }
    })
    .await;
}

/// Migration 14 counts credits in halves: every balance and ledger row written before it keeps
/// its value (doubled in storage), and going back is refused while a half credit exists.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn half_credit_migration_keeps_every_value() {
    use domain::credits::Credits;
    use store::credits::{credit_balance, credit_history, grant_credits, start_trial};
    each_engine_url(|url, engine| async move {
        let db = store::open(&url, Some(1)).await.expect("open");
        let before = Migrator::migrations()
            .iter()
            .position(|m| m.name() == "m20261125_000014_half_credits")
            .expect("migration 14 is listed");
        Migrator::up(&db, Some(u32::try_from(before).expect("count")))
            .await
            .expect("up to 13");
        // Inserted with the columns of that schema only (the entity knows later ones, such as
        // `disabled_at` of migration 24), the defaults doing the rest.
        let at = store::now();
        let user = store::entity::users::Entity::insert(store::entity::users::ActiveModel {
            email: sea_orm::ActiveValue::Set("old@example.com".into()),
            created_at: sea_orm::ActiveValue::Set(at),
            updated_at: sea_orm::ActiveValue::Set(at),
            ..Default::default()
        })
        .exec(&db)
        .await
        .expect("user")
        .last_insert_id;
        // Before the migration the columns counted whole credits: these calls write the raw
        // numbers 3 (paid, in two ledger rows) and 1 (trial).
        grant_credits(&db, user, Credits::from_halves(2), "purchase", Some("pi_1"))
            .await
            .expect("grant");
        grant_credits(&db, user, Credits::from_halves(1), "admin", None)
            .await
            .expect("grant");
        start_trial(
            &db,
            user,
            Credits::from_halves(1),
            chrono::Duration::days(7),
        )
        .await
        .expect("trial");

        Migrator::up(&db, None).await.expect("migration 14");
        let balance = credit_balance(&db, user, store::now())
            .await
            .expect("balance");
        assert_eq!(
            (balance.paid, balance.trial),
            (Credits::whole(3), Credits::whole(1)),
            "{engine:?}"
        );
        let mut deltas: Vec<i32> = credit_history(&db, user, 10)
            .await
            .expect("ledger")
            .into_iter()
            .map(|e| e.delta)
            .collect();
        deltas.sort_unstable();
        assert_eq!(
            deltas,
            vec![2, 2, 4],
            "{engine:?}: ledger rows in half credits"
        );

        // Down again while every value is whole (the later migrations first): back to whole
        // credits exactly.
        let later = u32::try_from(Migrator::migrations().len() - before - 1).expect("count");
        Migrator::down(&db, Some(later + 1)).await.expect("down");
        let row: (i32, i32) = {
            use sea_orm::{EntityTrait, QuerySelect};
            use store::entity::users::{Column, Entity};
            Entity::find_by_id(user)
                .select_only()
                .column(Column::ReportCredits)
                .column(Column::TrialCredits)
                .into_tuple()
                .one(&db)
                .await
                .expect("user")
                .expect("row")
        };
        assert_eq!(row, (3, 1), "{engine:?}: whole credits again");
        Migrator::up(&db, None).await.expect("up again");

        // A half credit cannot go back to whole credits: the way down is refused, unchanged.
        grant_credits(&db, user, Credits::HALF, "admin", None)
            .await
            .expect("half");
        if later > 0 {
            Migrator::down(&db, Some(later))
                .await
                .expect("down to migration 14");
        }
        let refused = Migrator::down(&db, Some(1)).await;
        assert!(refused.is_err(), "{engine:?}: {refused:?}");
        Migrator::up(&db, None).await.expect("up after the refusal");
        assert!(
            Migrator::get_pending_migrations(&db)
                .await
                .expect("pending")
                .is_empty()
        );
        assert_eq!(
            credit_balance(&db, user, store::now())
                .await
                .expect("balance")
                .paid,
            Credits::from_halves(7)
        );
        db.close().await.expect("close");
    })
    .await;
}
