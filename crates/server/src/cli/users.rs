//! `sitelens set-plan`: an operator gives an account a subscription plan, for instances that
//! take no payments (a self-hosted team, support, a sales agreement settled elsewhere).

use std::process::ExitCode;

use clap::Args;
use server::Config;

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
    let result = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .map_err(anyhow::Error::from)
        .and_then(|rt| {
            rt.block_on(async {
                let db = store::connect(&config.database_url).await?;
                let Some(user) = store::users::find_user_by_email(&db, &args.email).await? else {
                    return Ok(false);
                };
                store::users::set_subscription_plan(&db, user.id, &plan).await?;
                anyhow::Ok(true)
            })
        });
    match result {
        Ok(true) => {
            println!("{} now has the {plan} plan.", args.email.trim());
            ExitCode::SUCCESS
        }
        Ok(false) => {
            eprintln!("sitelens: no account has the address {}", args.email.trim());
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
