//! The store-backed link graph the analyzer records into.

use crate::support::{TestDb, each_engine};

/// The store-backed link graph keeps what the analyzer records, on both engines.
async fn link_graph(db: TestDb) {
    use analyzer::LinkGraph;
    use analyzer::authority::OutLink;
    let engine = db.engine;
    let conn = store::connect(&db.url).await.expect("connect");
    let graph = server::services::graph::StoreLinkGraph::new(conn.clone());
    let link = |to: &str, nofollow| OutLink {
        to_url: to.to_owned(),
        nofollow,
    };
    graph
        .record_page(
            "https://blog.example/post",
            &[
                link("https://shop.example/", false),
                link("https://ads.example/", true),
            ],
        )
        .await
        .expect("record");
    graph
        .record_page(
            "https://news.example/",
            &[link("https://shop.example/item", false)],
        )
        .await
        .expect("record");
    let into = graph.edges_into("shop.example").await.expect("edges");
    assert_eq!(into.len(), 2, "{engine:?}: {into:?}");
    let mut hosts = graph.host_edges().await.expect("host edges");
    hosts.sort();
    assert_eq!(
        hosts,
        vec![
            ("blog.example".to_owned(), "shop.example".to_owned()),
            ("news.example".to_owned(), "shop.example".to_owned())
        ],
        "nofollow links carry no authority"
    );
    let stats = graph.stats().await.expect("stats");
    assert_eq!((stats.pages, stats.domains), (2, 2));
    conn.close().await.expect("close");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn link_graph_is_stored_on_both_engines() {
    each_engine(link_graph).await;
}
