//! Whose report it is: the name, colours, logo and contact line the PDF is dressed in.
//!
//! Every report today carries Sitelens' own identity ([`Brand::default`]); a white-label
//! account's settings will build another `Brand` and pass it to [`super::render`].

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
