//! Starting the measuring Chromium ourselves: the flags of `assets/chromium-flags.txt` exactly as
//! written, a profile folder of its own with secure DNS off, a parent-death signal so the browser
//! dies with the process that started it (even on SIGKILL), and the sweep of profile folders that
//! earlier processes left behind.

use std::path::{Path, PathBuf};
use std::process::Stdio;
use std::time::Duration;

use tokio::io::{AsyncBufReadExt, BufReader};
use tokio::process::{Child, Command};

use super::BrowserError;

/// The shared flag list (one flag per line, `#` comments), also read by the e2e suite.
const FLAGS_FILE: &str = include_str!("../../assets/chromium-flags.txt");

/// Prefix of the profile folders under [`profile_root`]: `sitelens-chromium-<pid>-<n>`.
const PROFILE_PREFIX: &str = "sitelens-chromium-";

/// Every flag of the shared list, in its order.
pub fn flags() -> Vec<&'static str> {
    FLAGS_FILE
        .lines()
        .map(str::trim)
        .filter(|l| !l.is_empty() && !l.starts_with('#'))
        .collect()
}

/// The flags one launch adds to the shared list.
fn launch_flags(profile: &Path) -> Vec<String> {
    let mut flags = vec![
        "--headless=new".to_owned(),
        "--remote-debugging-port=0".to_owned(),
        format!("--user-data-dir={}", profile.display()),
    ];
    if !roomy_dev_shm(&std::fs::read_to_string("/proc/mounts").unwrap_or_default()) {
        flags.push("--disable-dev-shm-usage".to_owned());
    }
    flags.push("about:blank".to_owned());
    flags
}

/// Whether `/dev/shm` (from `/proc/mounts`) is a tmpfs with room for Chromium's shared memory:
/// 512 MB or more, or no size limit of its own (then half the memory). Containers often give it
/// 64 MB, where Chromium's renderers crash unless it keeps shared memory in /tmp
/// (`--disable-dev-shm-usage`), which is slower: every image and IPC buffer goes through a file.
fn roomy_dev_shm(mounts: &str) -> bool {
    let Some(options) = mounts.lines().find_map(|l| {
        let mut f = l.split_whitespace();
        let (_, point, kind, options) = (f.next()?, f.next()?, f.next()?, f.next()?);
        (point == "/dev/shm" && kind == "tmpfs").then_some(options)
    }) else {
        return false;
    };
    let Some(size) = options.split(',').find_map(|o| o.strip_prefix("size=")) else {
        return true;
    };
    let (digits, unit) =
        size.split_at(size.len() - size.trim_start_matches(|c: char| c.is_ascii_digit()).len());
    let Ok(n) = digits.parse::<u64>() else {
        return false;
    };
    let bytes = match unit.to_ascii_lowercase().as_str() {
        "" => n,
        "k" => n << 10,
        "m" => n << 20,
        "g" => n << 30,
        "t" => n << 40,
        // A share of memory ("50%"), which any machine that runs Chromium has room for.
        "%" => return n >= 10,
        _ => return false,
    };
    bytes >= 512 << 20
}

/// A running Chromium: its process (killed when dropped) and its DevTools address.
pub struct Launched {
    /// The browser process.
    pub child: Child,
    /// The DevTools WebSocket URL it printed.
    pub ws_url: String,
}

/// Where profile folders go: the shared-memory folder `/dev/shm` when it is there and writable,
/// else the temporary directory. On a disk, Chromium's databases in the profile wait on the disk
/// while it runs, and removing the folder on exit took 170-370 ms of a cold CLI run; in memory
/// it takes a few. Decided once per process.
pub fn profile_root() -> PathBuf {
    static ROOT: std::sync::OnceLock<PathBuf> = std::sync::OnceLock::new();
    ROOT.get_or_init(|| {
        let shm = Path::new("/dev/shm");
        // Permissions alone do not say whether a folder can be made there (a read-only mount).
        let probe = shm.join(format!("{PROFILE_PREFIX}probe-{}", std::process::id()));
        let writable = std::fs::create_dir_all(&probe).is_ok();
        let _ = std::fs::remove_dir(&probe);
        if writable {
            shm.to_path_buf()
        } else {
            std::env::temp_dir()
        }
    })
    .clone()
}

/// A new profile folder for launch `n` of this process (under [`profile_root`]), with secure
/// DNS switched off in its `Local State` (a flag alone does not stop the secure-DNS probes of
/// every build).
pub fn new_profile(n: u64) -> Result<PathBuf, BrowserError> {
    let dir = profile_root().join(format!("{PROFILE_PREFIX}{}-{n}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).map_err(|e| BrowserError::Launch(e.to_string()))?;
    let local_state = r#"{"dns_over_https":{"mode":"off","templates":""},"browser":{"has_seen_welcome_page":true}}"#;
    std::fs::write(dir.join("Local State"), local_state)
        .map_err(|e| BrowserError::Launch(e.to_string()))?;
    Ok(dir)
}

/// Remove the profile folders of processes that no longer run (a killed server or CLI leaves its
/// folder behind). Returns how many were removed.
pub fn sweep_stale_profiles(temp: &Path) -> usize {
    let Ok(entries) = std::fs::read_dir(temp) else {
        return 0;
    };
    let mut removed = 0;
    for entry in entries.flatten() {
        let name = entry.file_name();
        let Some(pid) = name
            .to_str()
            .and_then(|n| n.strip_prefix(PROFILE_PREFIX))
            .and_then(|rest| rest.split('-').next())
            .and_then(|pid| pid.parse::<u32>().ok())
        else {
            continue;
        };
        let alive = Path::new("/proc").join(pid.to_string()).exists();
        if pid != std::process::id() && !alive && std::fs::remove_dir_all(entry.path()).is_ok() {
            removed += 1;
        }
    }
    removed
}

/// The browser executable behind `path`. Debian's `/usr/bin/chromium` is a launcher script: it
/// sources `/etc/chromium.d` (which exports Google API keys and adds extension flags), runs a
/// dozen commands, then executes `/usr/lib/chromium/chromium`. The measuring browser runs that
/// binary directly: a tenth of a second sooner, and with nothing on its command line or in its
/// environment but ours. Any other path (a binary, or a script we do not know) is used as given.
pub fn browser_binary(path: &Path) -> PathBuf {
    use std::io::Read;
    let mut head = [0u8; 2];
    let is_script = std::fs::File::open(path)
        .and_then(|mut f| f.read_exact(&mut head))
        .is_ok()
        && &head == b"#!";
    if let (true, Some(name)) = (is_script, path.file_name()) {
        let binary = Path::new("/usr/lib").join(name).join(name);
        if binary.is_file() {
            return binary;
        }
    }
    path.to_path_buf()
}

/// The parent-death signal wrapper: util-linux's `setpriv --pdeathsig KILL` sets the signal and
/// then executes Chromium, so the browser gets SIGKILL when the thread that started it ends.
fn pdeathsig_wrapper() -> Option<PathBuf> {
    ["/usr/bin/setpriv", "/bin/setpriv"]
        .iter()
        .map(PathBuf::from)
        .find(|p| p.is_file())
}

/// Start Chromium at `path` with the shared flags and `extra` on `profile` and wait (at most
/// `timeout`) for its DevTools address.
pub async fn start(
    path: &Path,
    profile: &Path,
    timeout: Duration,
    extra: &[String],
) -> Result<Launched, BrowserError> {
    let mut args: Vec<String> = flags().into_iter().map(str::to_owned).collect();
    args.extend(extra.iter().cloned());
    args.extend(launch_flags(profile));
    let path = &browser_binary(path);
    let mut command = match pdeathsig_wrapper() {
        Some(setpriv) => {
            let mut c = Command::new(setpriv);
            c.arg("--pdeathsig").arg("KILL").arg("--").arg(path);
            c
        }
        None => {
            tracing::warn!(
                "setpriv is missing: Chromium will not die with this process if it is killed"
            );
            Command::new(path)
        }
    };
    command
        .args(&args)
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .kill_on_drop(true);
    let mut child = command
        .spawn()
        .map_err(|e| BrowserError::Launch(format!("{}: {e}", path.display())))?;
    let Some(stderr) = child.stderr.take() else {
        return Err(BrowserError::Launch("no stderr from Chromium".into()));
    };
    let mut lines = BufReader::new(stderr).lines();
    let mut seen = Vec::new();
    let found = tokio::time::timeout(timeout, async {
        while let Ok(Some(line)) = lines.next_line().await {
            if let Some(url) = line.trim().strip_prefix("DevTools listening on ") {
                return Some(url.to_owned());
            }
            if seen.len() < 20 {
                seen.push(line);
            }
        }
        None
    })
    .await;
    let ws_url = match found {
        Ok(Some(url)) => url,
        Ok(None) => {
            let _ = child.kill().await;
            return Err(BrowserError::Launch(format!(
                "Chromium exited before it listened: {}",
                seen.join(" | ")
            )));
        }
        Err(_) => {
            let _ = child.kill().await;
            return Err(BrowserError::Timeout {
                what: "its launch",
                seconds: timeout.as_secs(),
            });
        }
    };
    // Keep reading what Chromium writes, so a full pipe never blocks it.
    tokio::spawn(async move {
        while let Ok(Some(line)) = lines.next_line().await {
            tracing::trace!(target: "chromium", "{line}");
        }
    });
    Ok(Launched { child, ws_url })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_flag_file_gives_whole_flags() {
        let flags = flags();
        assert!(flags.len() > 20);
        for f in &flags {
            assert!(f.starts_with("--") && !f.starts_with("---"), "{f}");
            assert_eq!(f.trim(), *f);
        }
        for needed in [
            "--disable-background-networking",
            "--disable-component-update",
            "--dns-prefetch-disable",
            "--no-sandbox",
        ] {
            assert!(flags.contains(&needed), "{needed}");
        }
        let features = flags
            .iter()
            .find_map(|f| f.strip_prefix("--disable-features="))
            .unwrap_or_default();
        assert!(features.split(',').any(|f| f == "DnsOverHttps"));
    }

    #[test]
    fn shared_memory_in_dev_shm_only_where_it_has_room() {
        let line = |o: &str| format!("tmpfs /dev/shm tmpfs {o} 0 0\nproc /proc proc rw 0 0\n");
        assert!(roomy_dev_shm(&line("rw,nosuid,nodev")));
        assert!(roomy_dev_shm(&line("rw,nosuid,nodev,size=24575984k")));
        assert!(roomy_dev_shm(&line("rw,size=1g")));
        assert!(roomy_dev_shm(&line("rw,size=50%")));
        assert!(!roomy_dev_shm(&line(
            "rw,nosuid,nodev,noexec,relatime,size=65536k"
        )));
        assert!(!roomy_dev_shm("proc /proc proc rw 0 0\n"));
        assert!(!roomy_dev_shm("shm /dev/shm ext4 rw 0 0\n"));
    }

    #[test]
    fn a_launcher_script_gives_way_to_the_binary_it_wraps() {
        let dir = std::env::temp_dir().join(format!("sitelens-launcher-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap_or_else(|e| panic!("{e}"));
        let script = dir.join("sitelens-no-such-browser");
        std::fs::write(&script, "#!/bin/sh\nexec true\n").unwrap_or_else(|e| panic!("{e}"));
        // A script whose binary is not installed, and a path that is no script, stay as given.
        assert_eq!(browser_binary(&script), script);
        let binary = dir.join("binary");
        std::fs::write(&binary, b"\x7fELF").unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(browser_binary(&binary), binary);
        let _ = std::fs::remove_dir_all(&dir);
        // Debian's launcher, where it is installed.
        let debian = Path::new("/usr/bin/chromium");
        if debian.is_file() && Path::new("/usr/lib/chromium/chromium").is_file() {
            assert_eq!(
                browser_binary(debian),
                Path::new("/usr/lib/chromium/chromium")
            );
        }
    }

    #[test]
    fn stale_profiles_of_dead_processes_are_swept() {
        let temp = std::env::temp_dir().join(format!("sitelens-sweep-test-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&temp);
        // A pid far above Linux's limit is never running; our own pid always is.
        let dead = temp.join(format!("{PROFILE_PREFIX}4294967000-0"));
        let ours = temp.join(format!("{PROFILE_PREFIX}{}-0", std::process::id()));
        let other = temp.join("unrelated-folder");
        for d in [&dead, &ours, &other] {
            std::fs::create_dir_all(d.join("Default")).unwrap_or_else(|e| panic!("{e}"));
        }
        assert_eq!(sweep_stale_profiles(&temp), 1);
        assert!(!dead.exists() && ours.exists() && other.exists());
        let _ = std::fs::remove_dir_all(&temp);
    }
}
