//! `sitelens serve`, `sitelens worker` and `sitelens migrate`.

use std::process::ExitCode;

use clap::Args;
use server::{Config, Roles};

/// Options of `sitelens serve`.
#[derive(Debug, Args)]
pub struct ServeArgs {
    /// Serve HTTP only; analyses run in separate `sitelens worker` processes.
    #[arg(long)]
    pub no_worker: bool,
}

fn runtime() -> std::io::Result<tokio::runtime::Runtime> {
    tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()
}

fn run_roles(config: Config, roles: Roles) -> ExitCode {
    server::init_tracing(&config.log_filter);
    let result = runtime().map_err(anyhow::Error::from).and_then(|rt| {
        rt.block_on(async move {
            let running = server::start(config, roles).await?;
            if let Some(addr) = running.addr {
                println!("Sitelens is running on http://{addr}");
            } else {
                println!("Sitelens worker is running");
            }
            running.run_until_signal().await;
            anyhow::Ok(())
        })
    });
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("sitelens: {}", server::chain::Chain(e.as_ref()));
            ExitCode::FAILURE
        }
    }
}

/// Serves the web app and the API, with an in-process worker unless `--no-worker`.
pub fn serve(args: ServeArgs, config: Config) -> ExitCode {
    run_roles(
        config,
        Roles {
            web: true,
            worker: !args.no_worker,
        },
    )
}

/// Runs analyses only.
pub fn worker(config: Config) -> ExitCode {
    run_roles(
        config,
        Roles {
            web: false,
            worker: true,
        },
    )
}

/// Applies pending migrations and exits.
pub fn migrate(config: &Config) -> ExitCode {
    server::init_tracing(&config.log_filter);
    let result = runtime().map_err(anyhow::Error::from).and_then(|rt| {
        rt.block_on(async {
            store::connect(&config.database_url).await?;
            anyhow::Ok(())
        })
    });
    match result {
        Ok(()) => {
            println!("The database is up to date.");
            ExitCode::SUCCESS
        }
        Err(e) => {
            eprintln!(
                "sitelens: migration failed: {}",
                server::chain::Chain(e.as_ref())
            );
            ExitCode::FAILURE
        }
    }
}
