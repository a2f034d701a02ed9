//! The link graph behind backlinks and domain authority.

use store::links::{
    GraphSize, HostEdge, NewLink, ReferringDomain, graph_size, host_edges, inbound_links,
    page_links, record_page_links, referring_domains,
};

use crate::support::both;

fn link(url: &str, nofollow: bool) -> NewLink {
    NewLink {
        to_url: url.into(),
        nofollow,
    }
}

both!(
    referring_domains_count_links_from_other_hosts,
    |db, engine| {
        let stored = record_page_links(
            &db,
            "https://a.example/blog",
            &[
                link("https://b.example/", false),
                link("https://b.example/pricing", true),
                link("https://b.example/pricing", true),
                link("https://a.example/about", false),
                link("mailto:someone@a.example", false),
                link("/relative", false),
            ],
        )
        .await
        .expect("record");
        assert_eq!(
            stored, 3,
            "duplicates, non-http and relative links are not stored"
        );
        record_page_links(
            &db,
            "https://c.example/",
            &[link("https://b.example/", false)],
        )
        .await
        .expect("record");
        record_page_links(
            &db,
            "https://b.example/",
            &[link("https://b.example/pricing", false)],
        )
        .await
        .expect("record");

        assert_eq!(
            referring_domains(&db, "b.example").await.expect("domains"),
            vec![
                ReferringDomain {
                    host: "a.example".into(),
                    links: 2,
                    followed_links: 1
                },
                ReferringDomain {
                    host: "c.example".into(),
                    links: 1,
                    followed_links: 1
                },
            ]
        );
        let inbound = inbound_links(&db, "b.example", 10).await.expect("inbound");
        assert_eq!(inbound.len(), 3);
        assert_eq!(inbound[0].from_url, "https://a.example/blog");
        assert!(inbound.iter().all(|l| l.from_host != "b.example"));

        assert_eq!(
            host_edges(&db, false).await.expect("edges"),
            vec![
                HostEdge {
                    from_host: "a.example".into(),
                    to_host: "b.example".into(),
                    links: 1
                },
                HostEdge {
                    from_host: "c.example".into(),
                    to_host: "b.example".into(),
                    links: 1
                },
            ]
        );
        assert_eq!(host_edges(&db, true).await.expect("edges")[0].links, 2);
        assert_eq!(
            graph_size(&db).await.expect("size"),
            GraphSize {
                pages: 3,
                links: 5,
                hosts: 3
            }
        );
    }
);

both!(a_recrawl_replaces_the_links_of_a_page, |db, engine| {
    record_page_links(
        &db,
        "https://a.example/",
        &[link("https://b.example/", false)],
    )
    .await
    .expect("first");
    record_page_links(
        &db,
        "https://a.example/",
        &[link("https://c.example/", true)],
    )
    .await
    .expect("second");
    assert_eq!(
        page_links(&db, "https://a.example/").await.expect("links"),
        vec![link("https://c.example/", true)]
    );
    assert!(
        referring_domains(&db, "b.example")
            .await
            .expect("domains")
            .is_empty()
    );
    assert_eq!(
        graph_size(&db).await.expect("size"),
        GraphSize {
            pages: 1,
            links: 1,
            hosts: 1
        }
    );

    // Hundreds of links go in batches.
    let many: Vec<NewLink> = (0..450)
        .map(|i| link(&format!("https://d{i}.example/"), false))
        .collect();
    assert_eq!(
        record_page_links(&db, "https://a.example/", &many)
            .await
            .expect("many"),
        450
    );
    assert!(record_page_links(&db, "not a url", &many).await.is_err());
});
