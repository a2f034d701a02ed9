//! The operator's account commands. `sitelens set-plan` gives an account a subscription plan, for
//! instances that take no payments (a self-hosted team, support, a sales agreement settled
//! elsewhere); `sitelens set-api-rate-limit` sets how many API requests a minute each of an
//! account's keys may make (docs/PRODUCT.md §3.4 `apiRateLimit`, 100 unless set);
//! `sitelens admin grant` and `revoke` make the first administrators (docs/PRODUCT.md §6.6),
//! each change written to the audit log as the operator's.

use std::process::ExitCode;

use clap::{Args, Subcommand};
use domain::admin::AdminLevel;
use server::Config;
use store::audit::NewAuditEntry;

/// Options of `sitelens set-plan`.
#[derive(Debug, Args)]
pub struct SetPlanArgs {
    /// The account's e-mail address.
    pub email: String,
    /// `basic` (no plan), `business`, `agency` or `enterprise` (docs/PRODUCT.md §9.3).
    pub plan: String,
}

/// The plan's stored short name, or `None` when no plan has that name.
fn plan_name(raw: &str) -> Option<String> {
    let name = raw.trim().to_ascii_lowercase();
    let name = name.strip_suffix("-plan").unwrap_or(&name).to_owned();
    let known = name == "basic"
        || domain::commerce::plans()
            .iter()
            .any(|p| p.id.strip_suffix("-plan") == Some(name.as_str()));
    known.then_some(name)
}

/// Sets the plan of the account with the address, which decides its seats at once.
pub fn set_plan(args: SetPlanArgs, config: &Config) -> ExitCode {
    let Some(plan) = plan_name(&args.plan) else {
        let names: Vec<String> = std::iter::once("basic".to_owned())
            .chain(
                domain::commerce::plans()
                    .iter()
                    .map(|p| p.id.trim_end_matches("-plan").to_owned()),
            )
            .collect();
        eprintln!(
            "sitelens: unknown plan '{}' (one of: {})",
            args.plan,
            names.join(", ")
        );
        return ExitCode::from(2);
    };
    on_account(config, &args.email, |db, user| async move {
        store::users::set_subscription_plan(&db, user.id, &plan).await?;
        Ok(format!("{} now has the {plan} plan.", user.email))
    })
}

/// Options of `sitelens set-api-rate-limit`.
#[derive(Debug, Args)]
pub struct SetApiRateLimitArgs {
    /// The account's e-mail address.
    pub email: String,
    /// Requests per minute each of the account's API keys may make, from 1 to 1000000.
    #[arg(allow_hyphen_values = true)]
    pub limit: String,
}

/// Sets the account's API rate limit; its keys' next requests are counted against it.
pub fn set_api_rate_limit(args: SetApiRateLimitArgs, config: &Config) -> ExitCode {
    let limit = match domain::api::parse_rate_limit(&args.limit) {
        Ok(l) => l,
        Err(message) => {
            eprintln!("sitelens: {message}");
            return ExitCode::from(2);
        }
    };
    on_account(config, &args.email, |db, user| async move {
        store::users::set_api_rate_limit(&db, user.id, limit).await?;
        Ok(format!(
            "{}'s API keys may now make {limit} requests a minute each.",
            user.email
        ))
    })
}

/// Options of `sitelens admin`.
#[derive(Debug, Args)]
pub struct AdminArgs {
    /// What to do.
    #[command(subcommand)]
    pub command: AdminCommand,
}

/// The subcommands of `sitelens admin`.
#[derive(Debug, Subcommand)]
pub enum AdminCommand {
    /// Make an account an administrator (an owner unless --level says otherwise).
    Grant(GrantArgs),
    /// Make an administrator an ordinary user again.
    Revoke(RevokeArgs),
}

/// Options of `sitelens admin grant`.
#[derive(Debug, Args)]
pub struct GrantArgs {
    /// The account's e-mail address.
    pub email: String,
    /// `support` (reads only), `admin` (reads and changes) or `owner` (also manages
    /// administrators).
    #[arg(long, default_value = "owner")]
    pub level: String,
}

/// Options of `sitelens admin revoke`.
#[derive(Debug, Args)]
pub struct RevokeArgs {
    /// The account's e-mail address.
    pub email: String,
}

/// Runs `sitelens admin grant` or `revoke`.
pub fn admin(args: AdminArgs, config: &Config) -> ExitCode {
    match args.command {
        AdminCommand::Grant(grant) => {
            let Some(level) = AdminLevel::parse(&grant.level) else {
                eprintln!(
                    "sitelens: unknown admin level '{}' (one of: support, admin, owner)",
                    grant.level
                );
                return ExitCode::from(2);
            };
            on_account(config, &grant.email, |db, user| async move {
                let entry = NewAuditEntry::operator(
                    "admin.grant",
                    "user",
                    Some(user.id.to_string()),
                    serde_json::json!({
                        "email": user.email,
                        "from": admin_level_name(&user),
                        "to": level.as_str(),
                    }),
                );
                store::users::set_admin_level(&db, user.id, Some(level.as_str()), &entry).await?;
                Ok(format!(
                    "{} is now an administrator at the {} level.",
                    user.email,
                    level.as_str()
                ))
            })
        }
        AdminCommand::Revoke(revoke) => on_account(config, &revoke.email, |db, user| async move {
            if AdminLevel::of(user.is_admin, &user.admin_level).is_none() {
                return Ok(format!(
                    "{} is not an administrator; nothing changed.",
                    user.email
                ));
            }
            let entry = NewAuditEntry::operator(
                "admin.revoke",
                "user",
                Some(user.id.to_string()),
                serde_json::json!({
                    "email": user.email,
                    "from": admin_level_name(&user),
                    "to": "user",
                }),
            );
            store::users::set_admin_level(&db, user.id, None, &entry).await?;
            Ok(format!("{} is no longer an administrator.", user.email))
        }),
    }
}

/// The user's admin level by name, `user` for anyone who is not an administrator.
fn admin_level_name(user: &store::entity::users::Model) -> &'static str {
    AdminLevel::of(user.is_admin, &user.admin_level).map_or("user", AdminLevel::as_str)
}

/// Runs `change` on the account with the address `email` and prints the line it returns; an
/// unknown address or a database failure is one line on standard error and exit status 1.
fn on_account<F, Fut>(config: &Config, email: &str, change: F) -> ExitCode
where
    F: FnOnce(store::DatabaseConnection, store::entity::users::Model) -> Fut,
    Fut: std::future::Future<Output = anyhow::Result<String>>,
{
    let result = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .map_err(anyhow::Error::from)
        .and_then(|rt| {
            rt.block_on(async {
                let db = store::connect(&config.database_url).await?;
                match store::users::find_user_by_email(&db, email).await? {
                    Some(user) => change(db, user).await.map(Some),
                    None => anyhow::Ok(None),
                }
            })
        });
    match result {
        Ok(Some(done)) => {
            println!("{done}");
            ExitCode::SUCCESS
        }
        Ok(None) => {
            eprintln!("sitelens: no account has the address {}", email.trim());
            ExitCode::FAILURE
        }
        Err(e) => {
            eprintln!("sitelens: {}", server::chain::Chain(e.as_ref()));
            ExitCode::FAILURE
        }
    }
}

#[cfg(test)]
mod tests {
    use super::plan_name;

    #[test]
    fn plans_are_named_by_id_or_short_name() {
        assert_eq!(plan_name("Business").as_deref(), Some("business"));
        assert_eq!(plan_name("agency-plan").as_deref(), Some("agency"));
        assert_eq!(plan_name("basic").as_deref(), Some("basic"));
        assert_eq!(plan_name("gold"), None);
    }
}
