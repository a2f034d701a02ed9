//! Several machines at once (README "Growing past one machine"): two web nodes
//! (`sitelens serve --no-worker`) and two workers (`sitelens worker`), four processes of the
//! real binary, each with its own data folder as separate machines would have, sharing one
//! PostgreSQL database and one S3-compatible bucket (moto's server on 127.0.0.1, installed by
//! `just setup`). A job queued on one web node is streamed and read on the other; its
//! screenshots and PDF come from either; a worker killed mid-job (SIGKILL) leaves its job to
//! the other worker, which finishes it; an API key's requests are counted once across both
//! web nodes.
//!
//! Without PostgreSQL, moto or Chromium the test is skipped with a loud warning, except under
//! `CI=true`, where each is required.

use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::sync::atomic::Ordering;
use std::time::{Duration, Instant};

use serde_json::json;
use server::services::blobs::Blobs;
use store::jobs::JobStatus;

use crate::support::{
    Engine, Web, client, fixture_site, fresh_window, run_on, stalling_site, under_ci, wait_for_job,
};

const CHROMIUM: &str = "/usr/bin/chromium";
const BUCKET: &str = "sitelens-cluster";
/// The heartbeat timeout of the workers: the shortest allowed, so a killed worker's job is
/// taken over within seconds.
const HEARTBEAT_TIMEOUT_SECS: &str = "5";

/// Where `just setup` installs moto (`SITELENS_TEST_MOTO` overrides it).
fn moto_dir() -> PathBuf {
    std::env::var_os("SITELENS_TEST_MOTO").map_or_else(
        || PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../.tools/moto"),
        PathBuf::from,
    )
}

/// Whether the test can run here; `false` after a loud warning, a failure under CI.
fn prerequisites() -> bool {
    let missing: Vec<&str> = [
        (moto_dir().join("moto").is_dir(), "moto (run `just setup`)"),
        (Path::new(CHROMIUM).exists(), "Chromium"),
    ]
    .into_iter()
    .filter_map(|(there, what)| (!there).then_some(what))
    .collect();
    if missing.is_empty() {
        return true;
    }
    assert!(
        !under_ci(),
        "the multi-node test needs {missing:?} under CI=true"
    );
    eprintln!("\n!!!!! {missing:?} missing: SKIPPING the multi-node test !!!!!\n");
    false
}

/// A child process whose output goes to files in its folder; killed when dropped.
struct Proc {
    name: String,
    child: Child,
    out: PathBuf,
    log: PathBuf,
}

impl Proc {
    fn spawn(name: &str, mut command: Command, dir: &Path) -> Proc {
        std::fs::create_dir_all(dir).expect("process folder");
        let out = dir.join("stdout.txt");
        let log = dir.join("stderr.txt");
        let child = command
            .current_dir(dir)
            .stdin(Stdio::null())
            .stdout(std::fs::File::create(&out).expect("stdout file"))
            .stderr(std::fs::File::create(&log).expect("stderr file"))
            .spawn()
            .unwrap_or_else(|e| panic!("{name} starts: {e}"));
        Proc {
            name: name.to_owned(),
            child,
            out,
            log,
        }
    }

    /// Waits until `file` of this process has a line containing `marker`; returns that line.
    async fn wait_for_line(&mut self, file: &Path, marker: &str) -> String {
        let deadline = Instant::now() + Duration::from_secs(90);
        loop {
            let text = std::fs::read_to_string(file).unwrap_or_default();
            if let Some(line) = text.lines().find(|l| l.contains(marker)) {
                return line.to_owned();
            }
            if let Ok(Some(status)) = self.child.try_wait() {
                panic!("{} exited ({status}) before saying {marker:?}", self.name);
            }
            assert!(
                Instant::now() < deadline,
                "{} never said {marker:?}",
                self.name
            );
            tokio::time::sleep(Duration::from_millis(50)).await;
        }
    }

    /// Waits for the line of `file` where `before` is followed by an `http://` address;
    /// returns the address.
    async fn wait_for_address(&mut self, file: &Path, before: &str) -> String {
        let line = self
            .wait_for_line(file, &format!("{before}http://127.0.0.1:"))
            .await;
        let (_, address) = line.split_once(before).expect("the marker");
        address.trim().to_owned()
    }

    /// What the process wrote (its log lines go to standard output).
    fn logs(&self) -> String {
        let read = |p: &Path| std::fs::read_to_string(p).unwrap_or_default();
        format!("{}{}", read(&self.out), read(&self.log))
    }

    /// Sends SIGTERM (a graceful stop) and waits for the exit status.
    async fn terminate(&mut self) -> std::process::ExitStatus {
        let pid = self.child.id().to_string();
        let sent = Command::new("kill").args(["-TERM", &pid]).status();
        assert!(sent.is_ok_and(|s| s.success()), "SIGTERM to {}", self.name);
        let deadline = Instant::now() + Duration::from_secs(30);
        loop {
            if let Some(status) = self.child.try_wait().expect("wait") {
                return status;
            }
            assert!(Instant::now() < deadline, "{} ignored SIGTERM", self.name);
            tokio::time::sleep(Duration::from_millis(50)).await;
        }
    }
}

impl Drop for Proc {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
        if std::thread::panicking() {
            let logs = self.logs();
            let tail: Vec<&str> = logs.lines().rev().take(40).collect();
            eprintln!(
                "----- last lines of {} -----\n{}",
                self.name,
                tail.into_iter().rev().collect::<Vec<_>>().join("\n")
            );
        }
    }
}

/// moto's S3 server on 127.0.0.1 (a port of its choosing), with the test's bucket created.
async fn start_moto(dir: &Path) -> (Proc, String) {
    let mut command = Command::new("python3");
    // `-S`: only the pinned packages in the moto folder, none of the machine's own.
    command
        .args(["-S", "-m", "moto.server", "-H", "127.0.0.1", "-p", "0"])
        .env("PYTHONPATH", moto_dir());
    let mut moto = Proc::spawn("moto", command, &dir.join("moto"));
    let log = moto.log.clone();
    let endpoint = moto.wait_for_address(&log, "Running on ").await;
    // Creating a bucket is the operator's job, not Sitelens's: the test does it here.
    let created = client()
        .put(format!("{endpoint}/{BUCKET}"))
        .send()
        .await
        .expect("create bucket");
    assert!(
        created.status().is_success(),
        "bucket: {}",
        created.status()
    );
    (moto, endpoint)
}

/// The settings every node shares: the database and the bucket.
fn shared(db_url: &str, s3: &str) -> [(&'static str, String); 5] {
    [
        ("SITELENS_DATABASE_URL", db_url.to_owned()),
        ("SITELENS_BLOB_URL", format!("s3://{BUCKET}/reports")),
        ("SITELENS_BLOB_ENDPOINT", s3.to_owned()),
        ("SITELENS_BLOB_ACCESS_KEY_ID", "cluster-test".to_owned()),
        (
            "SITELENS_BLOB_SECRET_ACCESS_KEY",
            "cluster-test-secret".to_owned(),
        ),
    ]
}

/// The configuration the nodes read from [`shared`], for the test to look into the bucket.
fn shared_config(db_url: &str, s3: &str) -> server::Config {
    let vars = shared(db_url, s3);
    server::Config::from_vars(|name| {
        vars.iter()
            .find(|(n, _)| *n == name)
            .map(|(_, v)| v.clone())
    })
    .expect("the shared settings are valid")
}

/// A `sitelens` process (`serve --no-worker` or `worker`, by `args`) with its own folder and
/// the cluster's shared database and bucket.
fn node(args: &[&str], name: &str, dir: &Path, db_url: &str, s3: &str) -> Proc {
    let mut command = Command::new(env!("CARGO_BIN_EXE_sitelens"));
    command.args(args);
    for (variable, _) in server::config::VARIABLES {
        command.env_remove(variable);
    }
    let data = dir.join(name);
    let worker = args == ["worker"];
    command
        .envs(shared(db_url, s3))
        .env("SITELENS_BIND", "127.0.0.1:0")
        .env(
            "SITELENS_WEB_DIR",
            Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/server/webapp"),
        )
        .env("SITELENS_DATA_DIR", data.join("data"))
        .env("SITELENS_ALLOW_PRIVATE_TARGETS", "true")
        .env("SITELENS_CHROMIUM", if worker { CHROMIUM } else { "off" })
        .env("SITELENS_WORKERS", "1")
        .env("SITELENS_HEARTBEAT_TIMEOUT_SECS", HEARTBEAT_TIMEOUT_SECS)
        .env("HOSTNAME", name)
        .env("RUST_LOG", "info,sqlx=warn,sea_orm=warn");
    Proc::spawn(name, command, &data)
}

/// A client for a web node, from the address it printed.
async fn web_client(node: &mut Proc) -> Web {
    let out = node.out.clone();
    Web::at(node.wait_for_address(&out, "Sitelens is running on ").await)
}

/// The width of a PNG, from its header.
fn png_width(bytes: &[u8]) -> u32 {
    assert_eq!(&bytes[1..4], b"PNG", "a PNG");
    u32::from_be_bytes([bytes[16], bytes[17], bytes[18], bytes[19]])
}

/// The sizes (width, height) of the images a PDF embeds.
fn pdf_images(pdf: &[u8]) -> Vec<(i64, i64)> {
    let doc = lopdf::Document::load_mem(pdf).expect("the PDF parses");
    doc.objects
        .values()
        .filter_map(|o| o.as_stream().ok())
        .filter(|s| {
            s.dict
                .get(b"Subtype")
                .and_then(|v| v.as_name())
                .is_ok_and(|n| n == b"Image")
        })
        .filter_map(|s| {
            let size = |key: &[u8]| s.dict.get(key).and_then(|v| v.as_i64()).ok();
            Some((size(b"Width")?, size(b"Height")?))
        })
        .collect()
}

/// Every file under `dir` whose name ends with `.png`.
fn pngs_under(dir: &Path) -> Vec<PathBuf> {
    let mut found = Vec::new();
    let mut stack = vec![dir.to_owned()];
    while let Some(d) = stack.pop() {
        for entry in std::fs::read_dir(&d).into_iter().flatten().flatten() {
            let path = entry.path();
            if path.is_dir() {
                stack.push(path);
            } else if path.extension().is_some_and(|e| e == "png") {
                found.push(path);
            }
        }
    }
    found
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn two_web_nodes_and_two_workers_share_database_and_bucket() {
    if !prerequisites() {
        return;
    }
    run_on(Engine::Postgres, |db| async move {
        let dir = db.dir().to_owned();
        let (_moto, s3) = start_moto(&dir).await;
        let conn = store::connect(&db.url).await.expect("database");
        let web = ["serve", "--no-worker"];
        let mut web_a = node(&web, "web-a", &dir, &db.url, &s3);
        let mut web_b = node(&web, "web-b", &dir, &db.url, &s3);
        let mut workers = [
            node(&["worker"], "worker-a", &dir, &db.url, &s3),
            node(&["worker"], "worker-b", &dir, &db.url, &s3),
        ];
        let a = web_client(&mut web_a).await;
        let b = web_client(&mut web_b).await;
        for w in &mut workers {
            let out = w.out.clone();
            w.wait_for_line(&out, "Sitelens worker is running").await;
        }
        for app in [&a, &b] {
            let ready = app.get("/readyz").await;
            assert_eq!(ready.status, 200, "{}", ready.json);
            assert_eq!(
                ready.json["blobs"],
                json!({"store": format!("s3://{BUCKET}/reports"), "reachable": true})
            );
        }

        // 1. Queued on web A, streamed on web B, read on both.
        let site = fixture_site().await;
        let res = a
            .post_json("/api/analyze", &json!({"url": format!("http://{site}/")}))
            .await;
        assert_eq!(res.status, 200, "{}", res.json);
        let id = res.json["analysisId"].as_str().expect("id").to_owned();
        let events = b.follow(&id).await;
        let done = events.last().expect("event");
        assert_eq!(done["type"], "complete", "{events:?}");
        assert!(
            events.iter().any(|e| e["type"] == "progress"),
            "web B saw the worker's progress: {events:?}"
        );
        let result_id = done["resultId"].as_str().expect("result id").to_owned();
        let on_a = a.get(&format!("/api/results/{result_id}")).await;
        let on_b = b.get(&format!("/api/results/{result_id}")).await;
        assert_eq!((on_a.status, on_b.status), (200, 200));
        assert_eq!(on_a.json, on_b.json);
        let data = &on_a.json["data"];

        // 2. The screenshots, written by a worker to the bucket, come from either web node.
        let mut keys = Vec::new();
        for (shot, width) in [("desktop", 1280u32), ("mobile", 375u32)] {
            let path = data["screenshots"][shot]
                .as_str()
                .unwrap_or_else(|| panic!("{shot} screenshot in {data}"))
                .to_owned();
            let mut bodies = Vec::new();
            for app in [&a, &b] {
                let res = app
                    .http
                    .get(format!("{}{path}", app.base))
                    .send()
                    .await
                    .expect("screenshot");
                assert_eq!(res.status(), 200, "{path} from {}", app.base);
                assert_eq!(res.headers()["content-type"], "image/png");
                assert_eq!(
                    res.headers()["cache-control"],
                    "public, max-age=31536000, immutable"
                );
                bodies.push(res.bytes().await.expect("png"));
            }
            assert_eq!(bodies[0], bodies[1], "the same blob from both nodes");
            assert_eq!(png_width(&bodies[0]), width, "{shot}");
            keys.push(path.trim_start_matches("/files/").to_owned());
        }
        // They are in the bucket (under the configured prefix), on no node's disk.
        let bucket = Blobs::from_config(&shared_config(&db.url, &s3)).expect("bucket");
        for key in &keys {
            let png = bucket.read(key).await.expect("in the bucket");
            assert_eq!(&png[1..4], b"PNG", "{key}");
        }
        assert_eq!(pngs_under(&dir.join("worker-a")), Vec::<PathBuf>::new());
        assert_eq!(pngs_under(&dir.join("worker-b")), Vec::<PathBuf>::new());

        // 3. The PDF, which embeds both screenshots, from either web node.
        for app in [&a, &b] {
            let res = app
                .http
                .get(format!("{}/api/download-report/{result_id}", app.base))
                .send()
                .await
                .expect("pdf");
            assert_eq!(res.status(), 200);
            assert_eq!(res.headers()["content-type"], "application/pdf");
            let mut images = pdf_images(&res.bytes().await.expect("pdf"));
            images.sort_unstable();
            // The mobile shot as taken; the desktop one keeps its 1280x800 shape (the PDF
            // writer may scale it down).
            assert_eq!(images.len(), 2, "both screenshots embedded: {images:?}");
            assert_eq!(images[0], (375, 667));
            let (w, h) = images[1];
            assert!(w > h && (w * 800 - h * 1280).abs() <= 1280 * 2, "{images:?}");
        }

        // 4. A blob that is not there is a 404, and the node says so in its log.
        let missing = b
            .get("/files/00000000-0000-4000-8000-000000000000-desktop.png")
            .await;
        assert_eq!(missing.status, 404);
        assert_eq!(missing.json["success"], false);
        assert!(
            web_b
                .logs()
                .contains("requested file not found in blob storage"),
            "a log line for the missing blob"
        );

        // 5. A worker killed mid-job: the other worker takes the job over and finishes it.
        let (slow, hits) = stalling_site().await;
        let res = b
            .post_json("/api/analyze", &json!({"url": format!("http://{slow}/")}))
            .await;
        let id = res.json["analysisId"].as_str().expect("id").to_owned();
        let running = wait_for_job(&conn, &id, Duration::from_secs(60), |j| {
            j.status == JobStatus::Running && hits.load(Ordering::SeqCst) > 0
        })
        .await;
        let owner = running.claimed_by.clone().expect("owner");
        let victim = workers
            .iter()
            .position(|w| owner.starts_with(&format!("{}-", w.name)))
            .unwrap_or_else(|| panic!("{owner} is one of the workers"));
        let survivor = workers[1 - victim].name.clone();
        workers[victim].child.kill().expect("SIGKILL");
        let killed = Instant::now();
        let taken = wait_for_job(&conn, &id, Duration::from_secs(60), |j| {
            j.claimed_by
                .as_deref()
                .is_some_and(|c| c.starts_with(&format!("{survivor}-")))
        })
        .await;
        let taken_after = killed.elapsed();
        assert_eq!(taken.attempts, 2, "{taken:?}");
        let events = a.follow(&id).await;
        let finished_after = killed.elapsed();
        assert_eq!(
            events.last().and_then(|e| e["type"].as_str()),
            Some("complete"),
            "{events:?}"
        );
        let job = store::jobs::get_job(&conn, id.parse().expect("uuid"))
            .await
            .expect("job");
        assert_eq!(job.status, JobStatus::Complete);
        assert!(job.claimed_by.is_some_and(|c| c.starts_with(&survivor)));
        eprintln!(
            "multi-node: the job of the killed worker was taken over by {survivor} {:.1} s after \
             the SIGKILL and finished {:.1} s after it (heartbeat timeout {HEARTBEAT_TIMEOUT_SECS} s)",
            taken_after.as_secs_f64(),
            finished_after.as_secs_f64()
        );

        // 6. An API key's limit is one count, kept in the database, whichever web node answers.
        let user = store::users::create_user(
            &conn,
            &store::users::NewUser {
                email: "api@example.com".to_owned(),
                ..Default::default()
            },
        )
        .await
        .expect("user");
        store::users::set_api_rate_limit(&conn, user.id, 4)
            .await
            .expect("limit");
        let secret = domain::api::format_key(&[7; domain::api::KEY_BYTES]);
        store::api_keys::create_api_key(
            &conn,
            &store::api_keys::NewApiKey {
                user_id: user.id,
                name: "cluster".to_owned(),
                prefix: domain::api::key_prefix(&secret),
                key_hash: server::services::accounts::hash_token(&secret),
            },
            domain::api::MAX_KEYS_PER_ACCOUNT,
        )
        .await
        .expect("key");
        fresh_window().await;
        let mut remaining = Vec::new();
        for node in [&a, &b, &a, &b, &a, &b] {
            let res = node
                .http
                .get(format!("{}/api/v1/usage", node.base))
                .bearer_auth(&secret)
                .send()
                .await
                .expect("API call");
            remaining.push((
                res.status().as_u16(),
                res.headers()
                    .get("ratelimit-remaining")
                    .and_then(|v| v.to_str().ok())
                    .unwrap_or_default()
                    .to_owned(),
            ));
        }
        let expected: Vec<(u16, String)> = [(200, "3"), (200, "2"), (200, "1"), (200, "0")]
            .into_iter()
            .chain([(429, "0"), (429, "0")])
            .map(|(s, r)| (s, r.to_owned()))
            .collect();
        assert_eq!(remaining, expected, "one count across both web nodes");

        // 7. The survivors stop gracefully on SIGTERM.
        let survivor = &mut workers[1 - victim];
        assert!(survivor.terminate().await.success(), "worker exit status");
        assert!(web_a.terminate().await.success(), "web A exit status");
        assert!(web_b.terminate().await.success(), "web B exit status");
        conn.close().await.expect("close");
    })
    .await;
}
