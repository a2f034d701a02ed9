//! The visitor's address, believing `X-Forwarded-For` only from our own proxies.

use std::convert::Infallible;
use std::net::{IpAddr, SocketAddr};
use std::sync::Arc;

use axum::extract::{ConnectInfo, FromRef, FromRequestParts};
use axum::http::HeaderMap;
use axum::http::request::Parts;

use crate::config::IpBlock;

/// The proxies whose `X-Forwarded-For` is believed (`SITELENS_TRUSTED_PROXIES`).
#[derive(Clone, Debug, Default)]
pub struct TrustedProxies(pub Arc<[IpBlock]>);

impl TrustedProxies {
    fn contains(&self, ip: IpAddr) -> bool {
        self.0.iter().any(|b| b.contains(ip))
    }
}

/// The visitor's address: the socket peer, or the first untrusted hop of `X-Forwarded-For`
/// when the peer is a trusted proxy.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ClientIp(pub IpAddr);

/// The client address of a request from `peer` with `headers`.
///
/// `X-Forwarded-For` is walked from the right: each proxy appends the address it saw, so the
/// first address that is not one of our proxies is the client. Anything further left was
/// written by the client itself and proves nothing.
pub fn client_address(peer: IpAddr, headers: &HeaderMap, trusted: &TrustedProxies) -> IpAddr {
    if !trusted.contains(peer) {
        return peer;
    }
    let hops: Vec<IpAddr> = headers
        .get_all("x-forwarded-for")
        .iter()
        .filter_map(|v| v.to_str().ok())
        .flat_map(|v| v.split(','))
        .filter_map(|s| s.trim().parse().ok())
        .collect();
    hops.into_iter()
        .rev()
        .find(|ip| !trusted.contains(*ip))
        .unwrap_or(peer)
}

impl<S> FromRequestParts<S> for ClientIp
where
    S: Send + Sync,
    TrustedProxies: FromRef<S>,
{
    type Rejection = Infallible;

    async fn from_request_parts(parts: &mut Parts, state: &S) -> Result<Self, Self::Rejection> {
        // Without connection info (a router called directly in a test) the peer is loopback.
        let peer = parts
            .extensions
            .get::<ConnectInfo<SocketAddr>>()
            .map_or(IpAddr::from([127, 0, 0, 1]), |c| c.0.ip());
        let trusted = TrustedProxies::from_ref(state);
        Ok(Self(client_address(peer, &parts.headers, &trusted)))
    }
}

#[cfg(test)]
mod tests {
    use axum::http::HeaderValue;

    use super::*;

    fn ip(text: &str) -> IpAddr {
        text.parse().expect("ip")
    }

    fn forwarded(value: &str) -> HeaderMap {
        let mut headers = HeaderMap::new();
        headers.insert(
            "x-forwarded-for",
            HeaderValue::from_str(value).expect("header"),
        );
        headers
    }

    fn proxies(blocks: &[&str]) -> TrustedProxies {
        TrustedProxies(
            blocks
                .iter()
                .map(|b| IpBlock::parse(b).expect("block"))
                .collect(),
        )
    }

    #[test]
    fn an_untrusted_peer_is_the_client_whatever_it_forwards() {
        let headers = forwarded("198.51.100.7");
        assert_eq!(
            client_address(ip("203.0.113.1"), &headers, &proxies(&["10.0.0.0/8"])),
            ip("203.0.113.1")
        );
    }

    #[test]
    fn a_trusted_proxy_names_the_first_untrusted_hop_from_the_right() {
        // The client claims to be 1.1.1.1; our two proxies saw 198.51.100.7 and 10.0.0.2.
        let headers = forwarded("1.1.1.1, 198.51.100.7, 10.0.0.2");
        assert_eq!(
            client_address(ip("10.0.0.1"), &headers, &proxies(&["10.0.0.0/8"])),
            ip("198.51.100.7")
        );
        // Without the header the proxy itself is all we know.
        assert_eq!(
            client_address(ip("10.0.0.1"), &HeaderMap::new(), &proxies(&["10.0.0.0/8"])),
            ip("10.0.0.1")
        );
    }
}
