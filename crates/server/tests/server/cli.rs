//! The binary reads one configuration for every command: a bad value stops any command before
//! it starts, with an error naming the variable, whether it comes from the environment or from
//! `./.env`.

use std::process::{Command, Output};

/// Runs the binary with `args` in `dir`, with only `env` of the settings.
pub fn sitelens(args: &[&str], env: &[(&str, &str)], dir: &std::path::Path) -> Output {
    let mut command = Command::new(env!("CARGO_BIN_EXE_sitelens"));
    command.args(args).current_dir(dir);
    // Only what the test sets: no setting of the caller's environment leaks in.
    for (name, _) in server::config::VARIABLES {
        command.env_remove(name);
    }
    command.env_remove("SITELENS_API_KEY");
    command.envs(env.iter().copied());
    command.output().expect("the binary runs")
}

fn temp_dir() -> std::path::PathBuf {
    let dir = std::env::temp_dir().join(format!("sitelens-cli-{}", uuid::Uuid::new_v4()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    dir
}

#[test]
fn a_bad_value_stops_every_command_naming_the_variable() {
    let dir = temp_dir();
    for args in [
        &["migrate"][..],
        &["worker"][..],
        &["serve"][..],
        &["analyze", "example.com", "--no-browser"][..],
    ] {
        for (name, value) in [
            ("SITELENS_CHROMIUM", "false"),
            ("SITELENS_ALLOW_PRIVATE_TARGETS", "maybe"),
            ("SITELENS_WORKERS", "lots"),
        ] {
            let out = sitelens(args, &[(name, value)], &dir);
            let stderr = String::from_utf8_lossy(&out.stderr);
            assert_eq!(
                out.status.code(),
                Some(2),
                "{args:?} {name}={value}: {stderr}"
            );
            assert!(
                stderr.contains(&format!("configuration error: {name}: ")),
                "{args:?}: {stderr}"
            );
        }
    }
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn dot_env_in_the_working_folder_is_read_and_the_environment_wins() {
    let dir = temp_dir();
    std::fs::write(dir.join(".env"), "SITELENS_HEARTBEAT_TIMEOUT_SECS=1\n").expect(".env");
    let out = sitelens(&["migrate"], &[], &dir);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{stderr}");
    assert!(
        stderr.contains("SITELENS_HEARTBEAT_TIMEOUT_SECS: expected whole seconds"),
        "{stderr}"
    );
    // The environment's value wins over the file's: the configuration is valid and the
    // database it names is migrated.
    let db = dir.join("db.sqlite");
    let url = format!("sqlite://{}?mode=rwc", db.display());
    let out = sitelens(
        &["migrate"],
        &[
            ("SITELENS_HEARTBEAT_TIMEOUT_SECS", "30"),
            ("SITELENS_DATABASE_URL", &url),
        ],
        &dir,
    );
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(db.exists());
    let _ = std::fs::remove_dir_all(&dir);
}

/// A command line, its environment and what its one line of stderr says.
type Case<'a> = (&'a [&'a str], &'a [(&'a str, &'a str)], &'a str);

/// Every failure of `analyze` is one line on stderr and a non-zero status, never a backtrace.
#[test]
fn analyze_reports_any_failure_as_one_line() {
    let dir = temp_dir();
    let allow = [("SITELENS_ALLOW_PRIVATE_TARGETS", "true")];
    // Port 1 on loopback: nothing listens, the connection is refused at once.
    let cases: &[Case<'_>] = &[
        (
            &["analyze", "http://", "--no-browser"],
            &[],
            "error: could not analyse",
        ),
        (
            &["analyze", "ftp://example.com/", "--no-browser"],
            &[],
            "error: could not analyse",
        ),
        (
            &["analyze", "http://127.0.0.1:1/", "--no-browser"],
            &allow,
            "could not connect",
        ),
        (
            &["analyze", "http://127.0.0.1:1/", "--no-browser"],
            &[],
            "loopback",
        ),
        (&["analyze", "example.com", "--pages", "0"], &[], "--pages"),
        (
            &["analyze", "example.com", "--pages", "lots"],
            &[],
            "--pages",
        ),
        (
            &["analyze", "example.com", "--frobnicate"],
            &[],
            "--frobnicate",
        ),
        (&["analyze"], &[], "<URL>"),
        (
            &["internal-panic"],
            &[],
            "internal error: a deliberate panic over two lines at ",
        ),
    ];
    for (args, env, want) in cases {
        let out = sitelens(args, env, &dir);
        let stderr = String::from_utf8_lossy(&out.stderr);
        let lines: Vec<&str> = stderr.lines().filter(|l| !l.trim().is_empty()).collect();
        assert!(
            out.status.code().is_some_and(|c| c != 0),
            "{args:?}: {:?} {stderr}",
            out.status
        );
        assert_eq!(lines.len(), 1, "{args:?}: one line, not {stderr}");
        assert!(lines[0].contains(want), "{args:?}: {want:?} in {stderr}");
        assert!(
            !stderr.contains("panicked at") && !stderr.contains("backtrace"),
            "{args:?}: {stderr}"
        );
        assert!(out.stdout.is_empty(), "{args:?}");
    }
    let _ = std::fs::remove_dir_all(&dir);
}
