//! Whose report it is: the name, colours, logo and contact line the PDF is dressed in.
//!
//! An unbranded report carries Sitelens' own identity ([`Brand::default`]); a branded one
//! ([`domain::whitelabel::report_branded`]) the agency's ([`Brand::white_label`]), and then the
//! file says nothing of Sitelens: not on its pages, its watermark or its metadata.

/// A colour as 8-bit red, green and blue.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Rgb8(pub u8, pub u8, pub u8);

impl Rgb8 {
    /// Reads `#RRGGBB` (the form the branding settings store); `None` for anything else.
    pub fn from_hex(hex: &str) -> Option<Self> {
        let digits = hex.strip_prefix('#')?;
        if digits.len() != 6 || !digits.bytes().all(|b| b.is_ascii_hexdigit()) {
            return None;
        }
        let byte = |i: usize| u8::from_str_radix(&digits[i..i + 2], 16).ok();
        Some(Self(byte(0)?, byte(2)?, byte(4)?))
    }

    /// The colour as printpdf's fractions.
    pub(super) fn fractions(self) -> [f32; 3] {
        [self.0, self.1, self.2].map(|c| f32::from(c) / 255.0)
    }
}

/// The identity a report PDF is dressed in.
#[derive(Debug, Clone, PartialEq)]
pub struct Brand {
    /// Shown on the cover, in every page's header, and as the PDF's author.
    pub name: String,
    /// The cover band, headings' accents and links.
    pub primary: Rgb8,
    /// Accents beside the primary colour (the cover's rule, table headers' underline).
    pub secondary: Rgb8,
    /// A PNG or JPEG logo for the cover; without one the name is set as a word mark.
    pub logo: Option<Vec<u8>>,
    /// A line of contact details at the foot of the cover (e-mail, phone, website).
    pub contact: Option<String>,
    /// Whether this is an agency's brand: the watermark then names the agency
    /// ([`domain::whitelabel::watermark`]) and the file's producer is not Sitelens.
    pub white_label: bool,
}

impl Brand {
    /// An agency's brand from its settings, with its logo (a PNG the settings re-encoded), if
    /// any. A colour that does not read falls back to Sitelens' own, which the settings never
    /// store.
    pub fn white_label(branding: &domain::whitelabel::Branding, logo: Option<Vec<u8>>) -> Self {
        let own = Self::default();
        Self {
            name: branding.company_name.clone(),
            primary: Rgb8::from_hex(&branding.primary_color).unwrap_or(own.primary),
            secondary: Rgb8::from_hex(&branding.secondary_color).unwrap_or(own.secondary),
            logo,
            contact: branding.contact_line(),
            white_label: true,
        }
    }

    /// The name the watermark gives when it is not Sitelens'.
    pub(super) fn agency(&self) -> Option<&str> {
        self.white_label.then_some(self.name.as_str())
    }
}

impl Default for Brand {
    /// Sitelens' own: the brand defaults of docs/PRODUCT.md §9.5 (#4F46E5, #10B981).
    fn default() -> Self {
        Self {
            name: "Sitelens".to_owned(),
            primary: Rgb8(0x4F, 0x46, 0xE5),
            secondary: Rgb8(0x10, 0xB9, 0x81),
            logo: None,
            contact: None,
            white_label: false,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::Rgb8;

    #[test]
    fn hex_colours_read_only_in_their_one_form() {
        assert_eq!(Rgb8::from_hex("#4F46E5"), Some(Rgb8(0x4F, 0x46, 0xE5)));
        assert_eq!(Rgb8::from_hex("#10b981"), Some(Rgb8(0x10, 0xB9, 0x81)));
        for bad in ["4F46E5", "#4F46E", "#4F46E5F", "#GG0000", "", "#"] {
            assert_eq!(Rgb8::from_hex(bad), None, "{bad}");
        }
    }
}
