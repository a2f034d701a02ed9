//! The `sitelens` command line. Each subcommand lives in its own module beside `analyze`
//! (`serve`, `worker` and `migrate` join it here).

use std::process::ExitCode;

use clap::{Parser, Subcommand};

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

/// Parse the command line and run the chosen subcommand.
pub fn run() -> ExitCode {
    let cli = Cli::parse();
    match cli.command {
        Command::Analyze(args) => analyze::run(args),
        Command::Serve(args) => serve::serve(args),
        Command::Worker => serve::worker(),
        Command::Migrate => serve::migrate(),
    }
}
