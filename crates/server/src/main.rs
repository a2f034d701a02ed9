//! The `sitelens` binary: parse the command line and run the subcommand.

mod cli;

fn main() -> std::process::ExitCode {
    // A bug shows as one line naming it, never as a backtrace; the process then exits non-zero
    // (101 when the panic reaches `main`).
    std::panic::set_hook(Box::new(|info| {
        let line = cli::internal_error(info.payload(), info.location());
        eprintln!("{line}");
    }));
    cli::run()
}
