//! The measuring browser is hermetic and cleans up: Chromium receives every flag of the shared
//! list exactly, dies with the process that started it even when that process is killed with
//! SIGKILL, leaves no profile folder behind, makes no connection but to loopback while it
//! measures a loopback page, and shows that page online even in a network with only loopback.
//!
//! The SIGKILL, network and online tests start the browser in a child process of their own,
//! `sitelens-hermetic-child` (`hermetic_child.rs`), which cargo builds before these tests.

use std::io::{BufRead, BufReader};
use std::path::PathBuf;
use std::process::{Command, Stdio};
use std::time::Duration;

use analyzer::browser::launch;

use super::pool;
use crate::support::server::{Reply, Site, TestServer, fixture};

/// A process's state letter from /proc, or `None` when it is gone (a zombie counts as gone).
fn running(pid: u32) -> bool {
    let Ok(stat) = std::fs::read_to_string(format!("/proc/{pid}/stat")) else {
        return false;
    };
    let state = stat
        .rsplit_once(") ")
        .and_then(|(_, rest)| rest.chars().next());
    !matches!(state, Some('Z' | 'X') | None)
}

fn cmdline(pid: u32) -> Vec<String> {
    std::fs::read(format!("/proc/{pid}/cmdline"))
        .map(|raw| {
            raw.split(|b| *b == 0)
                .filter(|a| !a.is_empty())
                .map(|a| String::from_utf8_lossy(a).into_owned())
                .collect()
        })
        .unwrap_or_default()
}

/// Whether any running process names `profile` on its command line.
fn processes_on(profile: &std::path::Path) -> bool {
    let needle = profile.display().to_string();
    std::fs::read_dir("/proc")
        .map(|entries| {
            entries
                .flatten()
                .filter_map(|e| e.file_name().to_str()?.parse::<u32>().ok())
                .any(|pid| running(pid) && cmdline(pid).iter().any(|a| a.contains(&needle)))
        })
        .unwrap_or(false)
}

/// The child process (`hermetic_child.rs`) with `args`, under `wrapper` when given, its
/// standard output piped.
fn child(args: &[&str], wrapper: Option<(&str, Vec<String>)>) -> Command {
    let exe = env!("CARGO_BIN_EXE_sitelens-hermetic-child");
    let mut command = match wrapper {
        Some((program, wrapper_args)) => {
            let mut c = Command::new(program);
            c.args(wrapper_args).arg(exe);
            c
        }
        None => Command::new(exe),
    };
    command
        .args(args)
        .stdout(Stdio::piped())
        .stderr(Stdio::null());
    command
}

fn wait_until(what: &str, mut done: impl FnMut() -> bool) {
    // Generous: the machine may be busy; the assertion is that it happens, not how fast.
    for _ in 0..600 {
        if done() {
            return;
        }
        std::thread::sleep(Duration::from_millis(100));
    }
    panic!("{what} did not happen within a minute");
}

#[tokio::test]
async fn chromium_receives_every_flag_of_the_shared_list() {
    let pool = pool();
    pool.warm()
        .await
        .unwrap_or_else(|e| panic!("launch failed: {e}"));
    let pid = pool
        .browser_pid()
        .await
        .unwrap_or_else(|| panic!("no browser process"));
    let received = cmdline(pid);
    assert!(
        received.iter().any(|a| a.ends_with("chromium")),
        "not Chromium's command line: {received:?}"
    );
    for flag in launch::flags() {
        assert!(
            received.iter().any(|a| a == flag),
            "Chromium did not receive {flag}: {received:?}"
        );
    }
    assert!(
        !received.iter().any(|a| a.starts_with("---")),
        "a mangled flag: {received:?}"
    );
    assert!(received.iter().any(|a| a == "--headless=new"));
    // Secure DNS is off in the profile's preferences as well.
    let profile = received
        .iter()
        .find_map(|a| a.strip_prefix("--user-data-dir="))
        .map(PathBuf::from)
        .unwrap_or_else(|| panic!("no profile folder: {received:?}"));
    let state = std::fs::read_to_string(profile.join("Local State")).unwrap_or_default();
    assert!(state.contains("dns_over_https"), "{state}");
    pool.shutdown().await;
    assert!(!running(pid), "Chromium outlived shutdown");
    assert!(!profile.exists(), "the profile folder outlived shutdown");
}

#[test]
fn chromium_dies_with_a_killed_parent_and_its_profile_is_swept() {
    let mut parent = child(&["hold"], None)
        .spawn()
        .unwrap_or_else(|e| panic!("spawn: {e}"));
    let parent_pid = parent.id();
    let stdout = parent.stdout.take().unwrap_or_else(|| panic!("no stdout"));
    let mut seen = Vec::new();
    let browser: u32 = BufReader::new(stdout)
        .lines()
        .map_while(Result::ok)
        .find_map(|l| {
            let pid = l
                .split_once("BROWSER ")
                .and_then(|(_, p)| p.trim().parse().ok());
            seen.push(l);
            pid
        })
        .unwrap_or_else(|| panic!("the child printed no browser pid: {seen:?}"));
    assert!(browser > 0 && running(browser));
    let profile: PathBuf = launch::profile_root().join(format!("sitelens-chromium-{parent_pid}-0"));
    assert!(profile.is_dir(), "{} missing", profile.display());

    let _ = parent.kill(); // SIGKILL: no destructor, no clean-up code of the child runs
    let _ = parent.wait();
    wait_until("Chromium's death after its parent's SIGKILL", || {
        !running(browser)
    });
    // Its helper processes (zygote, renderers, utilities) follow it and may still write in the
    // profile for a moment; all of them must end too.
    wait_until(
        "the end of every process on the killed browser's profile",
        || !processes_on(&profile),
    );
    // The next start-up removes the folder the killed process left.
    launch::sweep_stale_profiles(&launch::profile_root());
    assert!(!profile.exists(), "{} was not swept", profile.display());
}

/// What an strace log (`-f -yy -e trace=%network`, sockets decorated with their protocol and
/// ends) shows leaving the machine: every TCP connection to an address other than loopback, and
/// every datagram sent on a UDP socket whose peer is not loopback. A UDP `connect()` alone sends
/// nothing (Chromium asks the routing table that way whether IPv6 is usable); a send would.
fn traffic_off_loopback(log: &str) -> Vec<String> {
    let loopback = |a: &str| a == "127.0.0.1" || a == "::1" || a == "::ffff:127.0.0.1";
    let mut out = Vec::new();
    for line in log.lines() {
        let call = line
            .split_once(' ')
            .map(|(_, c)| c.trim_start())
            .unwrap_or("");
        let connect = call.starts_with("connect(");
        let send = ["sendto(", "sendmsg(", "sendmmsg(", "send(", "write("]
            .iter()
            .any(|c| call.starts_with(c));
        if !connect && !send {
            continue;
        }
        // The socket's decoration, e.g. `25<UDPv6:[[::]:4321->[2001:db8::1]:443]>`.
        let Some(decoration) = call.split_once('<').map(|(_, d)| d) else {
            continue;
        };
        let udp = decoration.starts_with("UDP");
        let tcp = decoration.starts_with("TCP");
        if !udp && !tcp {
            continue; // UNIX, NETLINK, files
        }
        let address = if connect {
            call.split("inet_addr(\"")
                .nth(1)
                .or_else(|| call.split("inet_pton(AF_INET6, \"").nth(1))
                .and_then(|r| r.split('"').next())
                .map(str::to_owned)
        } else {
            // The peer after `->`, without brackets and port.
            decoration.split_once("->").map(|(_, peer)| {
                let peer = peer.split(']').next().unwrap_or(peer);
                let peer = peer.trim_start_matches('[');
                match peer.rsplit_once(':') {
                    Some((host, _)) if !peer.contains('[') && peer.matches(':').count() == 1 => {
                        host.to_owned()
                    }
                    _ => peer.to_owned(),
                }
            })
        };
        let Some(address) = address else {
            continue;
        };
        if loopback(&address) || address.is_empty() {
            continue;
        }
        if (connect && tcp) || (send && udp) || call.contains("htons(53)") {
            out.push(line.to_owned());
        }
    }
    out
}

#[test]
fn the_traffic_reading_tells_a_probe_from_a_send() {
    let log = "\
1 connect(25<UDPv6:[1234]>, {sa_family=AF_INET6, sin6_port=htons(443), inet_pton(AF_INET6, \"2001:db8::1\", &sin6_addr)}, 28) = 0
1 connect(26<TCP:[1235]>, {sa_family=AF_INET, sin_port=htons(9222), sin_addr=inet_addr(\"127.0.0.1\")}, 16) = 0
1 sendto(26<TCP:[127.0.0.1:4000->127.0.0.1:9222]>, \"GET\", 3, 0, NULL, 0) = 3
2 sendto(33<NETLINK:[ROUTE:1867]>, \"x\", 1, 0, NULL, 0) = 1
2 sendto(7<UDP:[10.0.0.2:5000->192.0.2.9:123]>, \"x\", 1, 0, NULL, 0) = 1
3 connect(9<TCP:[1236]>, {sa_family=AF_INET, sin_port=htons(443), sin_addr=inet_addr(\"192.0.2.10\")}, 16) = -1 EINPROGRESS
";
    let found = traffic_off_loopback(log);
    assert_eq!(found.len(), 2, "{found:?}");
    assert!(found[0].contains("192.0.2.9:123"));
    assert!(found[1].contains("192.0.2.10"));
}

#[tokio::test]
async fn measuring_a_loopback_page_connects_only_to_loopback() {
    assert!(
        Command::new("strace").arg("-V").output().is_ok(),
        "strace is missing: install Debian's package strace (`just setup` does as root)"
    );
    let site = TestServer::start(|base| {
        Site::new().route("/", Reply::html(fixture("browser/a11y.html", base)))
    })
    .await;
    let log = std::env::temp_dir().join(format!("sitelens-strace-{}.log", std::process::id()));
    let strace_args = vec![
        "-f".to_owned(),
        "-qq".to_owned(),
        "-yy".to_owned(),
        "-e".to_owned(),
        "trace=%network".to_owned(),
        "-o".to_owned(),
        log.display().to_string(),
    ];
    let output = tokio::task::spawn_blocking({
        let url = site.url("/");
        move || child(&["measure", &url], Some(("strace", strace_args))).output()
    })
    .await
    .unwrap_or_else(|e| panic!("{e}"))
    .unwrap_or_else(|e| panic!("strace: {e}"));
    let stdout = String::from_utf8_lossy(&output.stdout);
    assert!(
        stdout.contains("MEASURED true"),
        "the traced measurement did not complete: {stdout}"
    );
    let trace = std::fs::read_to_string(&log).unwrap_or_default();
    let _ = std::fs::remove_file(&log);
    // The page's own requests (through the guard's proxy) and DevTools are on loopback.
    assert!(
        trace.contains("inet_addr(\"127.0.0.1\")"),
        "no loopback connection seen: the trace caught nothing"
    );
    let off = traffic_off_loopback(&trace);
    assert!(off.is_empty(), "traffic the page did not cause: {off:#?}");
}

/// In a network that has only loopback (a sandboxed server, or the benchmark's namespace),
/// Chromium believes it is offline: it tells the page so (`navigator.onLine` is false) and
/// requests web fonts at its lowest priority. Lighthouse's run turns network emulation on,
/// throttling nothing, and so does ours: the measured page is online, as on a real phone.
#[tokio::test]
async fn a_page_measured_with_only_loopback_sees_itself_online() {
    let wrapper = vec![
        "--net".to_owned(),
        "--".to_owned(),
        "sh".to_owned(),
        "-c".to_owned(),
        "ip link set lo up && exec \"$0\" \"$@\"".to_owned(),
    ];
    let output = tokio::task::spawn_blocking(move || {
        child(&["online"], Some(("unshare", wrapper))).output()
    })
    .await
    .unwrap_or_else(|e| panic!("{e}"))
    .unwrap_or_else(|e| panic!("unshare (util-linux) is needed: {e}"));
    let stdout = String::from_utf8_lossy(&output.stdout);
    assert!(
        stdout.contains("ONLINE true"),
        "the page saw: {stdout:?} (this test needs a network namespace of its own: unshare and \
         ip (iproute2), run as root)"
    );
}
