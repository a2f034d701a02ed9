//! White-label branding as its settings page writes it (docs/PRODUCT.md §3.3, issue 15 item 2)
//! and as reports and pages read it.
//!
//! One `whitelabel_branding` row per user holds columns with different writers: the settings
//! (name, colours, font, contact details) saved by [`save_settings`], the logo's address set by
//! [`set_logo_url`] after the server has stored the re-encoded image, and the embed code and
//! custom domain, which neither function touches. (`accounts::save_branding` writes every
//! column at once; the settings page never calls it.)

use sea_orm::sea_query::{Expr, OnConflict, Query};
use sea_orm::{
    ActiveValue::Set, ColumnTrait, DatabaseConnection, EntityTrait, PaginatorTrait, QueryFilter,
};

use domain::report::ReportType;
use domain::whitelabel::{Branding, BrandingInput};

use crate::clock::now;
use crate::entity::{analysis_jobs, analysis_results, whitelabel_branding};
use crate::{StoreError, StoreResult, begin_write};

/// The user's brand, if they saved one.
pub async fn branding(db: &DatabaseConnection, user_id: i64) -> StoreResult<Option<Branding>> {
    Ok(crate::accounts::branding_for_user(db, user_id)
        .await?
        .as_ref()
        .map(crate::accounts::branding_view))
}

/// Creates the user's branding row or updates its settings columns from `settings`, which
/// `domain::whitelabel::validate_branding` has checked and normalised (an empty optional field
/// is stored as NULL). The logo, the embed code and the custom domain are left as they are.
pub async fn save_settings(
    db: &DatabaseConnection,
    user_id: i64,
    settings: &BrandingInput,
) -> StoreResult<Branding> {
    use whitelabel_branding::Column as C;
    let at = now();
    let optional = |v: &str| (!v.is_empty()).then(|| v.to_owned());
    let row = whitelabel_branding::ActiveModel {
        user_id: Set(user_id),
        company_name: Set(settings.company_name.clone()),
        primary_color: Set(settings.primary_color.clone()),
        secondary_color: Set(settings.secondary_color.clone()),
        font_family: Set(settings.font_family.clone()),
        contact_email: Set(optional(&settings.contact_email)),
        contact_phone: Set(optional(&settings.contact_phone)),
        website_url: Set(optional(&settings.website_url)),
        created_at: Set(at),
        updated_at: Set(at),
        ..Default::default()
    };
    whitelabel_branding::Entity::insert(row)
        .on_conflict(
            OnConflict::column(C::UserId)
                .update_columns([
                    C::CompanyName,
                    C::PrimaryColor,
                    C::SecondaryColor,
                    C::FontFamily,
                    C::ContactEmail,
                    C::ContactPhone,
                    C::WebsiteUrl,
                    C::UpdatedAt,
                ])
                .to_owned(),
        )
        .exec_without_returning(db)
        .await?;
    branding(db, user_id).await?.ok_or(StoreError::NotFound)
}

/// Sets (or, with `None`, clears) the address of the user's logo and returns the address it
/// replaces, so the caller can remove that image. [`StoreError::NotFound`] when the user has
/// saved no branding yet: a logo belongs to a brand with a name.
pub async fn set_logo_url(
    db: &DatabaseConnection,
    user_id: i64,
    logo_url: Option<&str>,
) -> StoreResult<Option<String>> {
    use whitelabel_branding::Column as C;
    let txn = begin_write(db).await?;
    let Some(row) = whitelabel_branding::Entity::find()
        .filter(C::UserId.eq(user_id))
        .one(&txn)
        .await?
    else {
        txn.rollback().await?;
        return Err(StoreError::NotFound);
    };
    whitelabel_branding::Entity::update_many()
        .col_expr(C::LogoUrl, Expr::value(logo_url.map(str::to_owned)))
        .col_expr(C::UpdatedAt, Expr::value(now()))
        .filter(C::UserId.eq(user_id))
        .exec(&txn)
        .await?;
    txn.commit().await?;
    Ok(row.logo_url)
}

/// Whether the user requested a Premium report that was paid for and completed: Premium is
/// white-label by its type (docs/PRODUCT.md §9.2), so its owner may save a brand
/// (`domain::whitelabel::may_brand`).
pub async fn owns_paid_premium(db: &DatabaseConnection, user_id: i64) -> StoreResult<bool> {
    let theirs = Query::select()
        .column(analysis_jobs::Column::ResultId)
        .from(analysis_jobs::Entity)
        .and_where(analysis_jobs::Column::RequesterUserId.eq(user_id))
        .and_where(analysis_jobs::Column::ResultId.is_not_null())
        .to_owned();
    let count = analysis_results::Entity::find()
        .filter(analysis_results::Column::Paid.eq(true))
        .filter(analysis_results::Column::Tier.eq(ReportType::Premium.as_str()))
        .filter(analysis_results::Column::Id.in_subquery(theirs))
        .count(db)
        .await?;
    Ok(count > 0)
}
