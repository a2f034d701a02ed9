//! Runs each test body on SQLite and on PostgreSQL, each time on a fresh database that is
//! removed afterwards, even when the body panics (see the `test-support` crate).

use std::future::Future;

use sea_orm::DatabaseConnection;
pub use test_support::Engine;

/// Runs `test` on a fresh, migrated SQLite file and a fresh, migrated PostgreSQL database.
pub async fn each_engine<F, Fut>(test: F)
where
    F: Fn(DatabaseConnection, Engine) -> Fut,
    Fut: Future<Output = ()>,
{
    each_engine_url(|url, engine| {
        let test = &test;
        async move {
            let db = store::connect(&url).await.expect("connect and migrate");
            test(db.clone(), engine).await;
            db.close().await.expect("close pool");
        }
    })
    .await;
}

/// Runs `test` with the URL of a fresh, empty SQLite file and of a fresh, empty PostgreSQL
/// database; the test opens its own connections and must close them.
pub async fn each_engine_url<F, Fut>(test: F)
where
    F: Fn(String, Engine) -> Fut,
    Fut: Future<Output = ()>,
{
    test_support::each_engine(|db| test(db.url, db.engine)).await;
}

/// Defines a test that runs its body on both engines: `both!(name, |db, engine| { ... });`
macro_rules! both {
    ($name:ident, |$db:ident, $engine:ident| $body:block) => {
        #[tokio::test(flavor = "multi_thread", worker_threads = 4)]
        async fn $name() {
            $crate::support::each_engine(
                |$db: sea_orm::DatabaseConnection, $engine: $crate::support::Engine| async move {
                    let _ = &$engine;
                    $body
                },
            )
            .await;
        }
    };
}
pub(crate) use both;

/// A new user with only an e-mail address.
pub async fn new_user(db: &DatabaseConnection, email: &str) -> store::entity::users::Model {
    store::users::create_user(
        db,
        &store::users::NewUser {
            email: email.into(),
            ..Default::default()
        },
    )
    .await
    .expect("user")
}
