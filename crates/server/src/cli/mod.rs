//! The `sitelens` command line. Each subcommand lives in its own module beside `analyze`
//! (`serve`, `worker` and `migrate` join it here).

use std::process::ExitCode;

use clap::{Parser, Subcommand};
use server::Config;

pub mod analyze;
pub mod serve;

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
}

/// Parse the command line, read the configuration (the environment and `./.env`), and run
/// the chosen subcommand. A bad setting stops every subcommand before it starts (exit 2).
pub fn run() -> ExitCode {
    let cli = Cli::parse();
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
    }
}
