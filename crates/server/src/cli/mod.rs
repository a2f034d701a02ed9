//! The `sitelens` command line. Each subcommand lives in its own module beside `analyze`
//! (`serve`, `worker` and `migrate` join it here; `remote` is `analyze --remote`, `users` the
//! operator's account commands, `admin` among them).

use std::process::ExitCode;

use clap::{Parser, Subcommand};
use server::Config;

pub mod analyze;
pub mod remote;
pub mod serve;
pub mod users;

/// Sitelens: a self-hostable website analyzer and SEO audit service.
#[derive(Debug, Parser)]
#[command(name = "sitelens", version, about)]
pub struct Cli {
    /// What to do.
    #[command(subcommand)]
    pub command: Command,
}

/// The subcommands.
#[derive(Debug, Subcommand)]
pub enum Command {
    /// Analyse a website from the terminal and print a summary or the full report as JSON.
    Analyze(analyze::AnalyzeArgs),
    /// Serve the web app and the API, and run analyses in the same process.
    Serve(serve::ServeArgs),
    /// Run analyses only, sharing the database with `serve --no-worker` processes.
    Worker,
    /// Apply pending database migrations and exit.
    Migrate,
    /// Give an account a subscription plan (and so its team seats) without a payment.
    SetPlan(users::SetPlanArgs),
    /// Set how many API requests a minute each of an account's keys may make (100 unless set).
    SetApiRateLimit(users::SetApiRateLimitArgs),
    /// Make an account an administrator, or an ordinary user again.
    Admin(users::AdminArgs),
    /// Panic on purpose: shows how an internal error is reported (for the tests).
    #[command(hide = true)]
    InternalPanic,
}

/// The one line an internal error (a panic) prints: what happened and where, and a request to
/// report it.
pub fn internal_error(
    payload: &(dyn std::any::Any + Send),
    location: Option<&std::panic::Location<'_>>,
) -> String {
    let message = payload
        .downcast_ref::<&str>()
        .copied()
        .or_else(|| payload.downcast_ref::<String>().map(String::as_str))
        .unwrap_or("unknown cause");
    let place = location
        .map(|l| format!(" at {}:{}", l.file(), l.line()))
        .unwrap_or_default();
    format!(
        "sitelens: internal error: {}{place}; please report it with the command that caused it",
        one_line(message)
    )
}

/// `text` on one line: line breaks and the indentation after them become single spaces.
pub fn one_line(text: &str) -> String {
    text.split_whitespace().collect::<Vec<_>>().join(" ")
}

/// Parse the command line. Help and version print as usual; a mistake prints one line (clap's
/// own first paragraph, which names the argument and the problem) and exits with status 2.
fn parse() -> Result<Cli, ExitCode> {
    use clap::error::ErrorKind;
    match Cli::try_parse() {
        Ok(cli) => Ok(cli),
        Err(e)
            if matches!(
                e.kind(),
                ErrorKind::DisplayHelp
                    | ErrorKind::DisplayVersion
                    | ErrorKind::DisplayHelpOnMissingArgumentOrSubcommand
            ) =>
        {
            e.exit()
        }
        Err(e) => {
            // The first paragraph names the problem; usage and tips follow after a blank line.
            let text = e.to_string();
            let first = text.trim_start().split("\n\n").next().unwrap_or("");
            eprintln!("sitelens: {} (see sitelens --help)", one_line(first));
            Err(ExitCode::from(2))
        }
    }
}

/// Parse the command line, read the configuration (the environment and `./.env`), and run
/// the chosen subcommand. A bad setting stops every subcommand before it starts (exit 2).
pub fn run() -> ExitCode {
    let cli = match parse() {
        Ok(cli) => cli,
        Err(code) => return code,
    };
    let config = match Config::from_env() {
        Ok(c) => c,
        Err(e) => {
            eprintln!("sitelens: configuration error: {e}");
            return ExitCode::from(2);
        }
    };
    match cli.command {
        Command::Analyze(args) => analyze::run(args, &config),
        Command::Serve(args) => serve::serve(args, config),
        Command::Worker => serve::worker(config),
        Command::Migrate => serve::migrate(&config),
        Command::SetPlan(args) => users::set_plan(args, &config),
        Command::SetApiRateLimit(args) => users::set_api_rate_limit(args, &config),
        Command::Admin(args) => users::admin(args, &config),
        Command::InternalPanic => panic!("a deliberate panic\nover two lines"),
    }
}
