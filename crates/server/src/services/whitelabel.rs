//! White-label branding settings and the logo (docs/PRODUCT.md §1.5, §3.3, §9.2; issue 15
//! item 2). Who may brand and how each field is checked is `domain::whitelabel`'s; this module
//! reads and writes the settings through `store::branding` and turns an uploaded logo into the
//! one image Sitelens ever serves for it.
//!
//! A logo is never served as uploaded. Its declared type and size are checked first
//! (`domain::whitelabel::check_logo_upload`); its real format is then read from its bytes and
//! must be PNG, JPEG or WebP; it is decoded under [`Limits`] (at most
//! [`LOGO_DECODE_MAX_SIDE`] pixels a side and a bounded allocation, so a small file declaring a
//! huge image is refused before its pixels exist), turned upright by its EXIF orientation,
//! scaled down to fit [`LOGO_MAX_WIDTH`] × [`LOGO_MAX_HEIGHT`], and written anew as an 8-bit
//! RGB or RGBA PNG with nothing but its pixels (no text, EXIF or colour-profile chunks). That
//! PNG is served at [`LOGO_PATH`]`{user id}-{16 hex digits of its SHA-256}.png`, so its address
//! changes with its content and may be cached for good, and stored in blob storage under the key
//! [`logo_blob_key`] gives that address (`logos/{name}`), which is how the PDF reads it too.
//! Reports read the brand as it is now: a replaced or removed logo's image is deleted.

use std::io::Cursor;

use bytes::Bytes;
use domain::forms::FieldError;
use domain::whitelabel::{
    self as rules, LOGO_DECODE_MAX_SIDE, LOGO_DIMENSIONS_MESSAGE, LOGO_MAX_HEIGHT, LOGO_MAX_WIDTH,
    LOGO_TYPE_MESSAGE, WhiteLabelSettings,
};
use image::codecs::png::{CompressionType, FilterType as PngFilter, PngEncoder};
use image::imageops::FilterType;
use image::metadata::Orientation;
use image::{DynamicImage, ImageDecoder, ImageError, ImageFormat, ImageReader, Limits};
use sha2::{Digest, Sha256};
use store::entity::users;
use store::{DatabaseConnection, StoreError};

use crate::chain::Chain;
use crate::services::blobs::{BlobError, Blobs};
use crate::services::pdf::{LOGO_PATH, logo_blob_key};
/// The most a logo's decoder may allocate: a 16-bit RGBA image of the largest accepted size.
const DECODE_MAX_ALLOC: u64 = LOGO_DECODE_MAX_SIDE as u64 * LOGO_DECODE_MAX_SIDE as u64 * 8;

/// The refusal of a logo upload made before any branding was saved.
pub const LOGO_BEFORE_SETTINGS_MESSAGE: &str = "Save your company name first, then add the logo.";

/// Why a white-label request was refused or failed.
#[derive(Debug, thiserror::Error)]
pub enum WhiteLabelError {
    /// The account may not brand (`domain::whitelabel::may_brand`).
    #[error("{}", rules::NOT_ENTITLED)]
    NotEntitled,
    /// A settings field is wrong; the messages are `domain`'s, in form order.
    #[error("{}", .0.first().map(|e| e.message.as_str()).unwrap_or("invalid form"))]
    Invalid(Vec<FieldError>),
    /// The upload declares a type other than PNG, JPEG or WebP, or its bytes are none of them.
    #[error("{}", LOGO_TYPE_MESSAGE)]
    LogoType,
    /// The upload is larger than `domain::whitelabel::LOGO_MAX_BYTES`.
    #[error("{}", rules::LOGO_SIZE_MESSAGE)]
    LogoTooLarge,
    /// The bytes start as a PNG, JPEG or WebP but do not decode as one.
    #[error("{}", LOGO_TYPE_MESSAGE)]
    LogoUnreadable,
    /// The image is wider or taller than [`LOGO_DECODE_MAX_SIDE`].
    #[error("{}", LOGO_DIMENSIONS_MESSAGE)]
    LogoDimensions,
    /// A logo was sent before the branding it belongs to.
    #[error("{}", LOGO_BEFORE_SETTINGS_MESSAGE)]
    NoBranding,
    /// No logo has that name.
    #[error("logo not found")]
    LogoNotFound,
    /// The database failed.
    #[error(transparent)]
    Store(#[from] StoreError),
    /// Blob storage failed.
    #[error(transparent)]
    Blob(#[from] BlobError),
    /// Re-encoding failed (a bug, or an exhausted machine).
    #[error("the logo could not be re-encoded")]
    Encode(#[source] Box<dyn std::error::Error + Send + Sync>),
}

/// The user's settings view: whether their own plan includes white-label (a team member's
/// plan is their own, not the team owner's), whether they may brand, and their saved brand.
pub async fn settings(
    db: &DatabaseConnection,
    user: &users::Model,
) -> Result<WhiteLabelSettings, WhiteLabelError> {
    let account_white_label =
        rules::account_white_label(&user.subscription_plan, user.has_white_label);
    let owns_paid_premium = store::branding::owns_paid_premium(db, user.id).await?;
    Ok(WhiteLabelSettings {
        account_white_label,
        may_brand: rules::may_brand(account_white_label, owns_paid_premium),
        branding: store::branding::branding(db, user.id).await?,
    })
}

/// The settings view of a user who may brand; [`WhiteLabelError::NotEntitled`] otherwise.
async fn entitled(
    db: &DatabaseConnection,
    user: &users::Model,
) -> Result<WhiteLabelSettings, WhiteLabelError> {
    let view = settings(db, user).await?;
    if view.may_brand {
        Ok(view)
    } else {
        Err(WhiteLabelError::NotEntitled)
    }
}

/// Checks and saves the user's settings (not the logo, the embed code or the custom domain).
pub async fn save_settings(
    db: &DatabaseConnection,
    user: &users::Model,
    input: &rules::BrandingInput,
) -> Result<WhiteLabelSettings, WhiteLabelError> {
    let view = entitled(db, user).await?;
    let checked = rules::validate_branding(input).map_err(WhiteLabelError::Invalid)?;
    let branding = store::branding::save_settings(db, user.id, &checked).await?;
    Ok(WhiteLabelSettings {
        branding: Some(branding),
        ..view
    })
}

/// Replaces the user's logo with `body` (see the module's documentation), declared as
/// `media_type`, and deletes the image it replaces. `body` is `None` when the upload went past
/// `domain::whitelabel::LOGO_MAX_BYTES` and was not kept; an account that may not brand hears
/// that first, whatever it sent.
pub async fn upload_logo(
    db: &DatabaseConnection,
    blobs: &Blobs,
    user: &users::Model,
    media_type: &str,
    body: Option<Bytes>,
) -> Result<WhiteLabelSettings, WhiteLabelError> {
    entitled(db, user).await?;
    let body = body.ok_or(WhiteLabelError::LogoTooLarge)?;
    rules::check_logo_upload(media_type, body.len()).map_err(|message| {
        if message == rules::LOGO_SIZE_MESSAGE {
            WhiteLabelError::LogoTooLarge
        } else {
            WhiteLabelError::LogoType
        }
    })?;
    if store::branding::branding(db, user.id).await?.is_none() {
        return Err(WhiteLabelError::NoBranding);
    }
    let png = tokio::task::spawn_blocking(move || reencode(&body))
        .await
        .map_err(|e| WhiteLabelError::Encode(Box::new(e)))??;
    let name = logo_name(user.id, &png);
    let key = key_of(&name)
        .ok_or_else(|| WhiteLabelError::Encode(format!("{name:?} names no logo blob").into()))?;
    blobs.put(&key, "image/png", &png).await?;
    let url = format!("{LOGO_PATH}{name}");
    let replaced = match store::branding::set_logo_url(db, user.id, Some(&url)).await {
        Err(StoreError::NotFound) => return Err(WhiteLabelError::NoBranding),
        other => other?,
    };
    if replaced.as_deref() != Some(url.as_str()) {
        delete_logo(blobs, replaced.as_deref()).await;
    }
    settings(db, user).await
}

/// Removes the user's logo (nothing to remove is no error) and deletes its image.
pub async fn remove_logo(
    db: &DatabaseConnection,
    blobs: &Blobs,
    user: &users::Model,
) -> Result<WhiteLabelSettings, WhiteLabelError> {
    entitled(db, user).await?;
    match store::branding::set_logo_url(db, user.id, None).await {
        Ok(replaced) => delete_logo(blobs, replaced.as_deref()).await,
        Err(StoreError::NotFound) => {}
        Err(e) => return Err(e.into()),
    }
    settings(db, user).await
}

/// The stored PNG of the logo named `name` (the last segment of its address).
pub async fn read_logo(blobs: &Blobs, name: &str) -> Result<Bytes, WhiteLabelError> {
    let key = key_of(name).ok_or(WhiteLabelError::LogoNotFound)?;
    match blobs.read(&key).await {
        Err(BlobError::NotFound(_)) => Err(WhiteLabelError::LogoNotFound),
        other => Ok(other?),
    }
}

/// The blob key of the logo named `name`, when it is a name [`logo_name`] writes.
fn key_of(name: &str) -> Option<String> {
    if !is_logo_name(name) {
        return None;
    }
    logo_blob_key(&format!("{LOGO_PATH}{name}"))
}

/// `{user id}-{the first 16 hex digits of the PNG's SHA-256}.png`.
fn logo_name(user_id: i64, png: &[u8]) -> String {
    let digest = Sha256::digest(png);
    let hash: String = digest[..8].iter().map(|b| format!("{b:02x}")).collect();
    format!("{user_id}-{hash}.png")
}

/// Whether `name` is a name [`logo_name`] writes; nothing else is looked up.
fn is_logo_name(name: &str) -> bool {
    let Some((user, hash)) = name
        .strip_suffix(".png")
        .and_then(|stem| stem.split_once('-'))
    else {
        return false;
    };
    !user.is_empty()
        && user.len() <= 19
        && user.bytes().all(|b| b.is_ascii_digit())
        && hash.len() == 16
        && hash.bytes().all(|b| matches!(b, b'0'..=b'9' | b'a'..=b'f'))
}

/// Deletes a replaced logo's image; a failure is logged (the image is orphaned, not wrong).
async fn delete_logo(blobs: &Blobs, logo_url: Option<&str>) {
    let Some(key) = logo_url.and_then(logo_blob_key) else {
        return;
    };
    match blobs.delete(&key).await {
        Ok(()) | Err(BlobError::NotFound(_)) => {}
        Err(e) => tracing::warn!(key = %key, error = %Chain(&e), "a replaced logo was not deleted"),
    }
}

/// The decoder's limits: dimensions and allocation (see the module's documentation).
fn limits() -> Limits {
    let mut limits = Limits::default();
    limits.max_image_width = Some(LOGO_DECODE_MAX_SIDE);
    limits.max_image_height = Some(LOGO_DECODE_MAX_SIDE);
    limits.max_alloc = Some(DECODE_MAX_ALLOC);
    limits
}

/// Decodes an uploaded logo whose format its bytes say is PNG, JPEG or WebP, and writes it
/// anew as a PNG that fits the logo box. Runs on a blocking thread.
fn reencode(bytes: &[u8]) -> Result<Vec<u8>, WhiteLabelError> {
    let mut reader = ImageReader::new(Cursor::new(bytes))
        .with_guessed_format()
        .map_err(|_| WhiteLabelError::LogoType)?;
    if !matches!(
        reader.format(),
        Some(ImageFormat::Png | ImageFormat::Jpeg | ImageFormat::WebP)
    ) {
        return Err(WhiteLabelError::LogoType);
    }
    reader.limits(limits());
    let mut decoder = reader.into_decoder().map_err(refusal)?;
    if decoder.total_bytes() > DECODE_MAX_ALLOC {
        return Err(WhiteLabelError::LogoDimensions);
    }
    let orientation = decoder.orientation().unwrap_or(Orientation::NoTransforms);
    let mut image = DynamicImage::from_decoder(decoder).map_err(refusal)?;
    image.apply_orientation(orientation);
    if image.width() > LOGO_MAX_WIDTH || image.height() > LOGO_MAX_HEIGHT {
        // Fits the box, keeping the aspect ratio.
        image = image.resize(LOGO_MAX_WIDTH, LOGO_MAX_HEIGHT, FilterType::CatmullRom);
    }
    let image = if image.color().has_alpha() {
        DynamicImage::ImageRgba8(image.to_rgba8())
    } else {
        DynamicImage::ImageRgb8(image.to_rgb8())
    };
    let mut png = Vec::new();
    let encoder =
        PngEncoder::new_with_quality(&mut png, CompressionType::Best, PngFilter::Adaptive);
    image
        .write_with_encoder(encoder)
        .map_err(|e| WhiteLabelError::Encode(Box::new(e)))?;
    Ok(png)
}

/// A decoding failure as the uploader reads it: too large, or not an image of its kind.
fn refusal(e: ImageError) -> WhiteLabelError {
    match e {
        ImageError::Limits(_) => WhiteLabelError::LogoDimensions,
        _ => WhiteLabelError::LogoUnreadable,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_names_we_write_are_logo_names() {
        let name = logo_name(42, b"png bytes");
        assert!(is_logo_name(&name), "{name}");
        assert_eq!(name.len(), "42-".len() + 16 + ".png".len());
        assert_eq!(key_of(&name), Some(format!("logos/{name}")));
        for bad in [
            "",
            "42.png",
            "-0123456789abcdef.png",
            "42-0123456789ABCDEF.png",
            "42-0123456789abcde.png",
            "42-0123456789abcdef.jpg",
            "x2-0123456789abcdef.png",
            "42-0123456789abcdef.png/..",
            "../42-0123456789abcdef.png",
            "42-0123456789abcdef0.png",
        ] {
            assert_eq!(key_of(bad), None, "{bad:?}");
        }
    }

    #[test]
    fn what_is_not_an_image_of_the_three_kinds_is_refused_before_decoding() {
        for bytes in [
            b"GIF89a\x01\x00\x01\x00\x00\x00\x00;".as_slice(),
            b"not an image at all",
            b"",
        ] {
            assert!(matches!(reencode(bytes), Err(WhiteLabelError::LogoType)));
        }
        // A PNG signature followed by nothing a decoder can read.
        let broken = b"\x89PNG\r\n\x1a\n\x00\x00\x00\x0dIHDR";
        assert!(matches!(
            reencode(broken),
            Err(WhiteLabelError::LogoUnreadable)
        ));
    }
}
