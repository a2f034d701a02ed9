//! [`PaymentProvider`]: who takes the payment. Stripe when its keys are configured, otherwise
//! the labelled test-payment mode, whose pages (`/test-checkout`, `/test-credit-checkout`) pay or
//! decline through the same [`super::apply_event`] as Stripe's webhook.

use domain::checkout::{CheckoutItem, CheckoutKind, PaymentMode, PlanAction};
use store::DatabaseConnection;
use store::entity::{checkout_sessions, users};

use super::BillingError;
use super::stripe::{PlanChange, StripeApi};

/// Who takes payments.
#[derive(Clone)]
pub enum PaymentProvider {
    /// Test payments: no money moves; pages say so.
    Test,
    /// Stripe Checkout and its signed webhooks (boxed: the client is large, and test mode
    /// carries nothing).
    Stripe(Box<StripeApi>),
}

impl PaymentProvider {
    /// The provider the configuration asks for.
    pub fn from_config(config: &crate::config::Config) -> Self {
        match &config.stripe {
            Some(stripe) => {
                PaymentProvider::Stripe(Box::new(StripeApi::new(stripe, &config.public_origin())))
            }
            None => PaymentProvider::Test,
        }
    }

    /// Stripe or test.
    pub fn mode(&self) -> PaymentMode {
        match self {
            PaymentProvider::Test => PaymentMode::Test,
            PaymentProvider::Stripe(_) => PaymentMode::Stripe,
        }
    }

    /// Stripe's webhook signing secret, when Stripe takes payments.
    pub fn webhook_secret(&self) -> Option<&str> {
        match self {
            PaymentProvider::Test => None,
            PaymentProvider::Stripe(api) => Some(api.webhook_secret()),
        }
    }

    /// Where the buyer pays for a recorded checkout: Stripe's hosted page, or our test page
    /// (custom credit amounts on `/test-credit-checkout`, everything else on `/test-checkout`).
    pub async fn payment_page(
        &self,
        db: &DatabaseConnection,
        account: &users::Model,
        row: &checkout_sessions::Model,
        item: &CheckoutItem,
    ) -> Result<String, BillingError> {
        match self {
            PaymentProvider::Test => Ok(test_page(item.kind, &row.id)),
            PaymentProvider::Stripe(api) => {
                let (reference, url) = api.create_checkout_session(db, account, row, item).await?;
                store::billing::set_provider_ref(db, &row.id, &reference).await?;
                Ok(url)
            }
        }
    }

    /// Moves a Stripe subscription to another plan in place (its item replaced, prorated);
    /// `false` in test-payment mode, where a plan change is paid on the test page like a new
    /// plan.
    pub async fn change_plan(
        &self,
        subscription: &str,
        change: &PlanChange<'_>,
    ) -> Result<bool, BillingError> {
        match self {
            PaymentProvider::Test => Ok(false),
            PaymentProvider::Stripe(api) => {
                api.change_plan(subscription, change).await?;
                Ok(true)
            }
        }
    }

    /// Asks the processor to pause, resume, cancel or keep a subscription (test mode: nothing
    /// to ask).
    pub async fn change_subscription(
        &self,
        subscription: &str,
        action: PlanAction,
    ) -> Result<(), BillingError> {
        match self {
            PaymentProvider::Test => Ok(()),
            PaymentProvider::Stripe(api) => api.change_subscription(subscription, action).await,
        }
    }
}

/// The test-payment page of a checkout.
pub fn test_page(kind: CheckoutKind, checkout_id: &str) -> String {
    let page = if kind == CheckoutKind::Credits {
        "/test-credit-checkout"
    } else {
        "/test-checkout"
    };
    format!("{page}?session={checkout_id}")
}
