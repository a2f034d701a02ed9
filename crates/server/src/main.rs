//! The `sitelens` binary: parse the command line and run the subcommand.

mod cli;

fn main() -> std::process::ExitCode {
    cli::run()
}
