//! White-label branding (docs/PRODUCT.md §1.5, §3.3, §9.2, §9.5; issue 15 item 2): who may set
//! a brand, what a brand holds and how each field is checked, and when a report wears the brand
//! instead of Sitelens' own identity.
//!
//! - An account *is white-label* when its plan includes it (Agency or Enterprise) or an
//!   administrator turned `hasWhiteLabel` on ([`account_white_label`]).
//! - A Premium report is white-label by its type (§9.2), so whoever owns a paid Premium report
//!   may also save a brand for it ([`may_brand`]).
//! - A report wears its owner's brand when the owner has saved one and either the account is
//!   white-label or the report is a paid Premium one ([`report_branded`]). A branded report shows
//!   nothing of Sitelens: its PDF watermark, where its tier has one, names the agency
//!   ([`watermark`]).

use serde::{Deserialize, Serialize};
use ts_rs::TS;

use crate::forms::{EMAIL_MESSAGE, FieldError, err, is_valid_email};
use crate::report::{AnalysisReport, ReportType};
use crate::site_url::normalize_input;

/// Sitelens' primary colour, the default of a brand's primary colour (§9.5).
pub const DEFAULT_PRIMARY: &str = "#4F46E5";
/// Sitelens' secondary colour, the default of a brand's secondary colour (§9.5).
pub const DEFAULT_SECONDARY: &str = "#10B981";
/// The default font (§3.3).
pub const DEFAULT_FONT: &str = "Inter, sans-serif";

/// The fonts a brand may choose, as CSS font-family values with the name shown in the picker.
/// System and bundled families only: a branded page loads no font from a third party.
pub const FONTS: [(&str, &str); 6] = [
    (DEFAULT_FONT, "Inter"),
    ("Arial, Helvetica, sans-serif", "Arial"),
    ("Verdana, Geneva, sans-serif", "Verdana"),
    ("Georgia, 'Times New Roman', serif", "Georgia"),
    ("'Trebuchet MS', sans-serif", "Trebuchet MS"),
    ("system-ui, sans-serif", "System"),
];

/// Longest company name, in characters.
pub const COMPANY_NAME_MAX: usize = 80;
/// Longest contact phone, in characters.
pub const PHONE_MAX: usize = 32;
/// Largest logo upload, in bytes (1 MB).
pub const LOGO_MAX_BYTES: usize = 1024 * 1024;
/// The image types a logo may be uploaded as.
pub const LOGO_TYPES: [&str; 3] = ["image/png", "image/jpeg", "image/webp"];

/// The widest and tallest a logo is decoded at: a larger one is refused before its pixels are
/// allocated (a small file can declare a huge image, a "decompression bomb").
pub const LOGO_DECODE_MAX_SIDE: u32 = 4096;
/// The box a stored logo fits in, in pixels: a larger upload is scaled down, keeping its aspect
/// ratio, to fit within it (a report's header and cover show it at most this big).
pub const LOGO_MAX_WIDTH: u32 = 600;
/// See [`LOGO_MAX_WIDTH`].
pub const LOGO_MAX_HEIGHT: u32 = 200;

/// Refusal when an account that may not brand asks to save one.
pub const NOT_ENTITLED: &str =
    "White-label branding is part of the Agency and Enterprise plans and of Premium reports.";
/// Refusal of a logo that is not PNG, JPEG or WebP, or cannot be decoded as one.
pub const LOGO_TYPE_MESSAGE: &str = "The logo must be a PNG, JPEG or WebP image.";
/// Refusal of a logo over [`LOGO_MAX_BYTES`].
pub const LOGO_SIZE_MESSAGE: &str = "The logo must be at most 1 MB.";

/// Refusal of a logo wider or taller than [`LOGO_DECODE_MAX_SIDE`].
pub const LOGO_DIMENSIONS_MESSAGE: &str = "The logo must be at most 4096 × 4096 pixels.";

/// Checks what an upload says about itself before a byte of it is decoded: its declared media
/// type (`Content-Type`, or a browser's `File.type`; parameters and case ignored) must be one of
/// [`LOGO_TYPES`] and its size at most [`LOGO_MAX_BYTES`]; otherwise the message to show. The
/// server decodes the bytes afterwards, whatever they claim to be.
pub fn check_logo_upload(media_type: &str, size: usize) -> Result<(), &'static str> {
    let essence = media_type
        .split(';')
        .next()
        .unwrap_or_default()
        .trim()
        .to_ascii_lowercase();
    if !LOGO_TYPES.contains(&essence.as_str()) {
        return Err(LOGO_TYPE_MESSAGE);
    }
    if size > LOGO_MAX_BYTES {
        return Err(LOGO_SIZE_MESSAGE);
    }
    Ok(())
}

/// The settings page's view: whether the account's plan includes white-label, whether it may
/// save a brand (the plan, or a paid Premium report it owns), and the brand it saved, if any.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, TS)]
#[serde(rename_all = "camelCase")]
pub struct WhiteLabelSettings {
    /// [`account_white_label`]: every report of the account wears the brand.
    pub account_white_label: bool,
    /// [`may_brand`]: the settings may be saved.
    pub may_brand: bool,
    /// The saved brand.
    pub branding: Option<Branding>,
}

/// A font of the settings' picker: its CSS value and the name shown.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, TS)]
#[serde(rename_all = "camelCase")]
pub struct FontChoice {
    /// The CSS `font-family` value that is stored.
    pub value: String,
    /// The name shown in the picker.
    pub label: String,
}

/// The rules of the branding settings as the settings page states and applies them before it
/// sends anything (the server applies the same ones).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, TS)]
#[serde(rename_all = "camelCase")]
pub struct BrandingRules {
    /// [`FONTS`], the default first.
    pub fonts: Vec<FontChoice>,
    /// [`DEFAULT_PRIMARY`].
    pub default_primary: String,
    /// [`DEFAULT_SECONDARY`].
    pub default_secondary: String,
    /// [`DEFAULT_FONT`].
    pub default_font: String,
    /// [`COMPANY_NAME_MAX`].
    pub company_name_max: u32,
    /// [`LOGO_MAX_BYTES`].
    pub logo_max_bytes: u32,
    /// [`LOGO_TYPES`], for the file picker's `accept`.
    pub logo_types: Vec<String>,
    /// [`LOGO_MAX_WIDTH`].
    pub logo_max_width: u32,
    /// [`LOGO_MAX_HEIGHT`].
    pub logo_max_height: u32,
    /// [`NOT_ENTITLED`]: who may brand.
    pub not_entitled_message: String,
}

/// The settings' rules ([`BrandingRules`]).
pub fn branding_rules() -> BrandingRules {
    BrandingRules {
        fonts: FONTS
            .iter()
            .map(|(value, label)| FontChoice {
                value: (*value).to_owned(),
                label: (*label).to_owned(),
            })
            .collect(),
        default_primary: DEFAULT_PRIMARY.to_owned(),
        default_secondary: DEFAULT_SECONDARY.to_owned(),
        default_font: DEFAULT_FONT.to_owned(),
        company_name_max: COMPANY_NAME_MAX as u32,
        logo_max_bytes: LOGO_MAX_BYTES as u32,
        logo_types: LOGO_TYPES.iter().map(|t| (*t).to_owned()).collect(),
        logo_max_width: LOGO_MAX_WIDTH,
        logo_max_height: LOGO_MAX_HEIGHT,
        not_entitled_message: NOT_ENTITLED.to_owned(),
    }
}

/// What an agency types into the branding settings (the logo is uploaded on its own).
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize, TS)]
#[serde(rename_all = "camelCase")]
pub struct BrandingInput {
    /// Required, at most [`COMPANY_NAME_MAX`] characters.
    pub company_name: String,
    /// `#RRGGBB`; empty takes [`DEFAULT_PRIMARY`].
    #[serde(default)]
    pub primary_color: String,
    /// `#RRGGBB`; empty takes [`DEFAULT_SECONDARY`].
    #[serde(default)]
    pub secondary_color: String,
    /// One of [`FONTS`]; empty takes [`DEFAULT_FONT`].
    #[serde(default)]
    pub font_family: String,
    /// Optional contact e-mail.
    #[serde(default)]
    pub contact_email: String,
    /// Optional contact phone: digits, spaces and `+ ( ) - .`.
    #[serde(default)]
    pub contact_phone: String,
    /// Optional website, normalised like the address form.
    #[serde(default)]
    pub website_url: String,
}

/// A brand as its reports, pages and settings show it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, TS)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[serde(rename_all = "camelCase")]
pub struct Branding {
    /// The agency's name.
    pub company_name: String,
    /// Where the server serves the re-encoded logo, if one was uploaded.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub logo_url: Option<String>,
    /// `#RRGGBB`.
    pub primary_color: String,
    /// `#RRGGBB`.
    pub secondary_color: String,
    /// One of [`FONTS`].
    pub font_family: String,
    /// Contact e-mail.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub contact_email: Option<String>,
    /// Contact phone.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub contact_phone: Option<String>,
    /// Website.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub website_url: Option<String>,
}

impl Branding {
    /// The contact line of a branded report: e-mail, phone and website, those that are set.
    pub fn contact_line(&self) -> Option<String> {
        let parts: Vec<&str> = [&self.contact_email, &self.contact_phone, &self.website_url]
            .into_iter()
            .filter_map(|p| p.as_deref())
            .collect();
        (!parts.is_empty()).then(|| parts.join(" · "))
    }
}

/// The text colour to set on `color` (`#RRGGBB`): white or near-black, whichever contrasts more
/// (WCAG 2 relative luminance), so that a light brand colour still carries legible buttons.
pub fn foreground_for(color: &str) -> &'static str {
    const DARK: &str = "#0F172A";
    const LIGHT: &str = "#FFFFFF";
    if !is_hex_color(color) {
        return LIGHT;
    }
    let channel = |i: usize| {
        let c = f64::from(u8::from_str_radix(&color[i..i + 2], 16).unwrap_or(0)) / 255.0;
        if c <= 0.04045 {
            c / 12.92
        } else {
            ((c + 0.055) / 1.055).powf(2.4)
        }
    };
    let l = 0.2126 * channel(1) + 0.7152 * channel(3) + 0.0722 * channel(5);
    // Contrast with white is 1.05 / (l + 0.05); with #0F172A (luminance 0.0086) it is
    // (l + 0.05) / 0.0586.
    if 1.05 / (l + 0.05) >= (l + 0.05) / 0.0586 {
        LIGHT
    } else {
        DARK
    }
}

/// Whether `color` is `#RRGGBB`.
pub fn is_hex_color(color: &str) -> bool {
    color.len() == 7
        && color.starts_with('#')
        && color.bytes().skip(1).all(|b| b.is_ascii_hexdigit())
}

fn is_phone(phone: &str) -> bool {
    phone.chars().count() <= PHONE_MAX
        && phone.chars().filter(char::is_ascii_digit).count() >= 3
        && phone
            .chars()
            .all(|c| c.is_ascii_digit() || " +()-.".contains(c))
}

/// Checks the settings and returns them normalised (trimmed; defaults for empty colours and
/// font; colours upper-cased; the website canonical), or every failing field in form order.
pub fn validate_branding(input: &BrandingInput) -> Result<BrandingInput, Vec<FieldError>> {
    let mut errors = Vec::new();
    let name = input.company_name.trim();
    if name.is_empty() {
        errors.push(err("companyName", "Company name is required"));
    } else if name.chars().count() > COMPANY_NAME_MAX {
        errors.push(err(
            "companyName",
            "Company name must be at most 80 characters",
        ));
    }
    let mut colour = |field: &str, raw: &str, default: &str| {
        let raw = raw.trim();
        if raw.is_empty() {
            default.to_owned()
        } else if is_hex_color(raw) {
            raw.to_ascii_uppercase()
        } else {
            errors.push(err(
                field,
                "Enter a colour as # and six hex digits, like #4F46E5",
            ));
            raw.to_owned()
        }
    };
    let primary_color = colour("primaryColor", &input.primary_color, DEFAULT_PRIMARY);
    let secondary_color = colour("secondaryColor", &input.secondary_color, DEFAULT_SECONDARY);
    let font = input.font_family.trim();
    let font_family = if font.is_empty() {
        DEFAULT_FONT.to_owned()
    } else if FONTS.iter().any(|(value, _)| *value == font) {
        font.to_owned()
    } else {
        errors.push(err("fontFamily", "Choose one of the listed fonts"));
        font.to_owned()
    };
    let email = input.contact_email.trim();
    if !email.is_empty() && !is_valid_email(email) {
        errors.push(err("contactEmail", EMAIL_MESSAGE));
    }
    let phone = input.contact_phone.trim();
    if !phone.is_empty() && !is_phone(phone) {
        errors.push(err("contactPhone", "Please enter a valid phone number"));
    }
    let site = input.website_url.trim();
    let website_url = if site.is_empty() {
        String::new()
    } else {
        normalize_input(site).unwrap_or_else(|_| {
            errors.push(err("websiteUrl", "Please enter a valid website URL"));
            site.to_owned()
        })
    };
    if !errors.is_empty() {
        return Err(errors);
    }
    Ok(BrandingInput {
        company_name: name.to_owned(),
        primary_color,
        secondary_color,
        font_family,
        contact_email: email.to_owned(),
        contact_phone: phone.to_owned(),
        website_url,
    })
}

/// Whether the account's plan includes white-label: the Agency and Enterprise plans, or the
/// `hasWhiteLabel` flag an administrator sets. `plan` is the stored short name (`agency`).
pub fn account_white_label(plan: &str, has_white_label: bool) -> bool {
    has_white_label || matches!(plan, "agency" | "enterprise")
}

/// Whether an account may save a brand: a white-label account, or one that owns a paid Premium
/// report (Premium is white-label, §9.2).
pub fn may_brand(account_white_label: bool, owns_paid_premium: bool) -> bool {
    account_white_label || owns_paid_premium
}

/// Whether a report wears its owner's saved brand: every report of a white-label account, and a
/// paid Premium report of anyone. (Whether a brand was saved is the caller's to check.)
pub fn report_branded(paid: bool, report_type: ReportType, account_white_label: bool) -> bool {
    account_white_label || (paid && report_type == ReportType::Premium)
}

/// The diagonal watermark of the report's PDF: none on a paid Premium report; on the other tiers
/// Sitelens' own ([`crate::tier::WATERMARK`]), or, when the report is branded, one naming the
/// agency so that nothing of Sitelens shows.
pub fn watermark(report: &AnalysisReport, brand: Option<&str>) -> Option<String> {
    let sitelens = crate::entitlement::watermark(report)?;
    Some(match brand {
        Some(name) => format!("Prepared by {name}"),
        None => sitelens.to_owned(),
    })
}

/// The line at the foot of every page of the report's PDF: the analysed address, then the
/// watermark when there is one.
pub fn pdf_footer(report: &AnalysisReport, brand: Option<&str>) -> String {
    match watermark(report, brand) {
        Some(mark) => format!("Website analysis of {} · {mark}", report.url),
        None => format!("Website analysis of {}", report.url),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn input(name: &str) -> BrandingInput {
        BrandingInput {
            company_name: name.into(),
            ..BrandingInput::default()
        }
    }

    #[test]
    fn empty_fields_take_the_spec_defaults() {
        let ok = validate_branding(&input("  Studio Grace ")).expect("valid");
        assert_eq!(ok.company_name, "Studio Grace");
        assert_eq!(ok.primary_color, DEFAULT_PRIMARY);
        assert_eq!(ok.secondary_color, DEFAULT_SECONDARY);
        assert_eq!(ok.font_family, DEFAULT_FONT);
        assert_eq!(ok.website_url, "");
    }

    #[test]
    fn every_bad_field_is_named_in_form_order() {
        let bad = BrandingInput {
            company_name: " ".into(),
            primary_color: "4F46E5".into(),
            secondary_color: "#10B98".into(),
            font_family: "Comic Sans MS".into(),
            contact_email: "grace@".into(),
            contact_phone: "call me".into(),
            website_url: "http://".into(),
        };
        let fields: Vec<String> = validate_branding(&bad)
            .expect_err("invalid")
            .into_iter()
            .map(|e| e.field)
            .collect();
        assert_eq!(
            fields,
            [
                "companyName",
                "primaryColor",
                "secondaryColor",
                "fontFamily",
                "contactEmail",
                "contactPhone",
                "websiteUrl"
            ]
        );
    }

    #[test]
    fn good_fields_are_normalised() {
        let ok = validate_branding(&BrandingInput {
            company_name: "Ünal & Søn Ajans".into(),
            primary_color: "#0f766e".into(),
            secondary_color: "#F59E0B".into(),
            font_family: "Georgia, 'Times New Roman', serif".into(),
            contact_email: " hello@unal.example ".into(),
            contact_phone: "+90 (212) 555-01.23".into(),
            website_url: "unal.example".into(),
        })
        .expect("valid");
        assert_eq!(ok.primary_color, "#0F766E");
        assert_eq!(ok.contact_email, "hello@unal.example");
        assert_eq!(ok.website_url, "https://unal.example/");
        let long = "é".repeat(COMPANY_NAME_MAX + 1);
        assert!(validate_branding(&input(&long)).is_err());
        assert!(validate_branding(&input(&"é".repeat(COMPANY_NAME_MAX))).is_ok());
    }

    #[test]
    fn text_on_a_brand_colour_stays_legible() {
        assert_eq!(foreground_for(DEFAULT_PRIMARY), "#FFFFFF");
        assert_eq!(foreground_for("#0D6EFD"), "#FFFFFF");
        assert_eq!(foreground_for("#FDE047"), "#0F172A");
        assert_eq!(foreground_for("#FFFFFF"), "#0F172A");
        assert_eq!(foreground_for("#000000"), "#FFFFFF");
        assert_eq!(foreground_for("not a colour"), "#FFFFFF");
    }

    #[test]
    fn who_may_brand_and_which_reports_wear_it() {
        assert!(account_white_label("agency", false));
        assert!(account_white_label("enterprise", false));
        assert!(!account_white_label("business", false));
        assert!(account_white_label("basic", true));
        assert!(may_brand(false, true));
        assert!(!may_brand(false, false));
        assert!(report_branded(false, ReportType::Basic, true));
        assert!(report_branded(true, ReportType::Premium, false));
        assert!(!report_branded(false, ReportType::Premium, false));
        assert!(!report_branded(true, ReportType::Standard, false));
    }

    fn report(report_type: ReportType, paid: bool) -> AnalysisReport {
        let text = include_str!("../tests/stored/premium-report-before-typed-sections.json");
        let mut report: AnalysisReport = serde_json::from_str(text).expect("a report");
        report.report_type = report_type;
        report.paid = paid;
        report
    }

    #[test]
    fn a_branded_watermark_names_the_agency_and_never_sitelens() {
        let basic = report(ReportType::Basic, true);
        assert_eq!(
            watermark(&basic, None).as_deref(),
            Some(crate::tier::WATERMARK)
        );
        let branded = watermark(&basic, Some("Studio Grace")).expect("a mark");
        assert_eq!(branded, "Prepared by Studio Grace");
        let footer = pdf_footer(&basic, Some("Studio Grace"));
        assert!(footer.ends_with("· Prepared by Studio Grace"), "{footer}");
        assert!(!footer.contains("Sitelens"), "{footer}");
        let premium = report(ReportType::Premium, true);
        assert_eq!(watermark(&premium, Some("Studio Grace")), None);
        assert_eq!(watermark(&premium, None), None);
        assert!(!pdf_footer(&premium, None).contains('·'));
    }

    #[test]
    fn an_upload_is_checked_by_its_declared_type_then_its_size() {
        assert_eq!(check_logo_upload("image/png", LOGO_MAX_BYTES), Ok(()));
        assert_eq!(check_logo_upload("Image/JPEG; q=1", 10), Ok(()));
        assert_eq!(check_logo_upload("image/webp", 1), Ok(()));
        assert_eq!(check_logo_upload("image/gif", 10), Err(LOGO_TYPE_MESSAGE));
        assert_eq!(
            check_logo_upload("image/svg+xml", 10),
            Err(LOGO_TYPE_MESSAGE)
        );
        assert_eq!(check_logo_upload("", 10), Err(LOGO_TYPE_MESSAGE));
        assert_eq!(
            check_logo_upload("image/png", LOGO_MAX_BYTES + 1),
            Err(LOGO_SIZE_MESSAGE)
        );
    }

    #[test]
    fn the_rules_list_every_font_with_the_default_first() {
        let rules = branding_rules();
        assert_eq!(rules.fonts.len(), FONTS.len());
        assert_eq!(rules.fonts[0].value, DEFAULT_FONT);
        assert_eq!(rules.fonts[0].value, rules.default_font);
        assert_eq!(rules.logo_types, LOGO_TYPES);
    }

    #[test]
    fn the_contact_line_joins_what_is_set() {
        let mut b = Branding {
            company_name: "Studio".into(),
            logo_url: None,
            primary_color: DEFAULT_PRIMARY.into(),
            secondary_color: DEFAULT_SECONDARY.into(),
            font_family: DEFAULT_FONT.into(),
            contact_email: Some("a@studio.example".into()),
            contact_phone: None,
            website_url: Some("https://studio.example/".into()),
        };
        assert_eq!(
            b.contact_line().as_deref(),
            Some("a@studio.example · https://studio.example/")
        );
        b.contact_email = None;
        b.website_url = None;
        assert_eq!(b.contact_line(), None);
    }
}
