//! Drawing on A4 pages with printpdf: text in the embedded fonts (measured with their glyph
//! widths, wrapped, with a fallback font for scripts the main one lacks), filled shapes, score
//! rings as vector arcs, images, links between pages, and the finished file with its metadata
//! and page labels.
//!
//! printpdf places everything at absolute positions (points from the bottom-left corner), so
//! the canvas keeps a cursor `y` for flowing content and a current page that drawing goes to;
//! the document can return to an earlier page (the table of contents is drawn last).

use std::borrow::Cow;
use std::sync::OnceLock;

use printpdf::{
    Actions, BorderArray, Color, ColorArray, Destination, ExtendedGraphicsState,
    ExtendedGraphicsStateId, FontId, HighlightingMode, Line, LineCapStyle, LinePoint,
    LinkAnnotation, Mm, Op, PaintMode, ParsedFont, PdfDocument, PdfFontHandle, PdfPage,
    PdfSaveOptions, Point, Polygon, PolygonRing, Pt, RawImage, Rect, Rgb, TextItem, TextMatrix,
    WindingOrder, XObjectTransform,
};

use super::PdfError;

const REGULAR: &[u8] = include_bytes!("../../../assets/fonts/LiberationSans-Regular.ttf");
const BOLD: &[u8] = include_bytes!("../../../assets/fonts/LiberationSans-Bold.ttf");
/// DejaVu Sans: Arabic, Hebrew, Armenian, Georgian, and the symbols Liberation Sans lacks.
const FALLBACK: &[u8] = include_bytes!("../../../assets/fonts/DejaVuSans.ttf");

/// A4 in points.
pub const PAGE_W: f32 = 595.28;
pub const PAGE_H: f32 = 841.89;
/// Left and right margin.
pub const MARGIN: f32 = 50.0;
/// The width between the margins.
pub const CONTENT_W: f32 = PAGE_W - 2.0 * MARGIN;
/// Where flowing content starts on a page (below the running header).
pub const TOP: f32 = PAGE_H - 72.0;
/// Where flowing content must stop (above the footer).
pub const BOTTOM: f32 = 64.0;

/// Drawn for a character no embedded font has (a CJK character, an emoji): visible, never
/// dropped silently.
const MISSING: char = '\u{25A1}';

/// A colour, as fractions of red, green and blue.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Paint(pub [f32; 3]);

impl Paint {
    /// A colour from 8-bit components.
    pub const fn rgb8(r: u8, g: u8, b: u8) -> Self {
        Self([r as f32 / 255.0, g as f32 / 255.0, b as f32 / 255.0])
    }

    /// This colour mixed with white: `amount` 0 is the colour, 1 is white.
    pub fn tint(self, amount: f32) -> Self {
        Self(self.0.map(|c| c + (1.0 - c) * amount))
    }

    fn color(self) -> Color {
        let [r, g, b] = self.0;
        Color::Rgb(Rgb::new(r, g, b, None))
    }

    fn array(self) -> ColorArray {
        ColorArray::Rgb(self.0)
    }
}

/// A font weight.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Weight {
    Regular,
    Bold,
}

/// Which embedded font draws a character.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Face {
    Regular = 0,
    Bold = 1,
    Fallback = 2,
}

struct Fonts([ParsedFont; 3]);

/// The PostScript names of the faces, in [`Face`] order: the file names its fonts by them.
const FONT_NAMES: [&str; 3] = ["LiberationSans", "LiberationSans-Bold", "DejaVuSans"];

fn fonts() -> Result<&'static Fonts, PdfError> {
    static FONTS: OnceLock<Option<Fonts>> = OnceLock::new();
    FONTS
        .get_or_init(|| {
            let parse = |bytes| ParsedFont::from_bytes(bytes, 0, &mut Vec::new());
            Some(Fonts([parse(REGULAR)?, parse(BOLD)?, parse(FALLBACK)?]))
        })
        .as_ref()
        .ok_or_else(|| PdfError("the embedded fonts could not be parsed".to_owned()))
}

/// Whether `c` is written right to left (Hebrew, Arabic and their presentation forms).
fn is_rtl(c: char) -> bool {
    matches!(u32::from(c), 0x0590..=0x08FF | 0xFB1D..=0xFDFF | 0xFE70..=0xFEFF)
}

/// Arabic letters with the first (isolated) of their presentation forms (Arabic Presentation
/// Forms-B, in the order isolated, final, initial, medial) and how many forms they have: 1 joins
/// neither neighbour, 2 joins only the letter before it, 4 joins both.
const ARABIC: [(char, u32, u8); 36] = [
    ('\u{0621}', 0xFE80, 1),
    ('\u{0622}', 0xFE81, 2),
    ('\u{0623}', 0xFE83, 2),
    ('\u{0624}', 0xFE85, 2),
    ('\u{0625}', 0xFE87, 2),
    ('\u{0626}', 0xFE89, 4),
    ('\u{0627}', 0xFE8D, 2),
    ('\u{0628}', 0xFE8F, 4),
    ('\u{0629}', 0xFE93, 2),
    ('\u{062A}', 0xFE95, 4),
    ('\u{062B}', 0xFE99, 4),
    ('\u{062C}', 0xFE9D, 4),
    ('\u{062D}', 0xFEA1, 4),
    ('\u{062E}', 0xFEA5, 4),
    ('\u{062F}', 0xFEA9, 2),
    ('\u{0630}', 0xFEAB, 2),
    ('\u{0631}', 0xFEAD, 2),
    ('\u{0632}', 0xFEAF, 2),
    ('\u{0633}', 0xFEB1, 4),
    ('\u{0634}', 0xFEB5, 4),
    ('\u{0635}', 0xFEB9, 4),
    ('\u{0636}', 0xFEBD, 4),
    ('\u{0637}', 0xFEC1, 4),
    ('\u{0638}', 0xFEC5, 4),
    ('\u{0639}', 0xFEC9, 4),
    ('\u{063A}', 0xFECD, 4),
    ('\u{0641}', 0xFED1, 4),
    ('\u{0642}', 0xFED5, 4),
    ('\u{0643}', 0xFED9, 4),
    ('\u{0644}', 0xFEDD, 4),
    ('\u{0645}', 0xFEE1, 4),
    ('\u{0646}', 0xFEE5, 4),
    ('\u{0647}', 0xFEE9, 4),
    ('\u{0648}', 0xFEED, 2),
    ('\u{0649}', 0xFEEF, 2),
    ('\u{064A}', 0xFEF1, 4),
];

/// Lam followed by an alef is one ligature: the alef and the ligature's isolated form.
const LAM_ALEF: [(char, u32); 4] = [
    ('\u{0622}', 0xFEF5),
    ('\u{0623}', 0xFEF7),
    ('\u{0625}', 0xFEF9),
    ('\u{0627}', 0xFEFB),
];

fn arabic_forms(c: char) -> Option<(u32, u8)> {
    ARABIC
        .iter()
        .find(|(letter, _, _)| *letter == c)
        .map(|&(_, isolated, forms)| (isolated, forms))
}

/// Marks (vowel signs and the like) that sit on a letter without breaking its joins.
fn is_transparent(c: char) -> bool {
    matches!(u32::from(c), 0x0610..=0x061A | 0x064B..=0x065F | 0x0670 | 0x06D6..=0x06ED)
}

/// Arabic letters replaced by the presentation form their neighbours call for (isolated,
/// final, initial or medial; lam-alef as its ligature), so that a font without shaping tables
/// in use draws them joined. Text without Arabic letters comes back as it is.
fn shape(text: &str) -> Cow<'_, str> {
    if !text.chars().any(|c| arabic_forms(c).is_some()) {
        return Cow::Borrowed(text);
    }
    let chars: Vec<char> = text.chars().collect();
    let letter = |i: usize, step: isize| {
        let mut j = i as isize + step;
        while j >= 0 && (j as usize) < chars.len() {
            let c = chars[j as usize];
            if !is_transparent(c) {
                return arabic_forms(c);
            }
            j += step;
        }
        None
    };
    let mut out = String::with_capacity(text.len());
    let mut i = 0;
    while i < chars.len() {
        let c = chars[i];
        let Some((isolated, forms)) = arabic_forms(c) else {
            out.push(c);
            i += 1;
            continue;
        };
        // Joined to the letter before when that one joins both sides.
        let after_joining = letter(i, -1).is_some_and(|(_, f)| f == 4);
        if c == '\u{0644}' {
            let alef = chars
                .get(i + 1)
                .and_then(|next| LAM_ALEF.iter().find(|(a, _)| a == next));
            if let Some(&(_, ligature)) = alef {
                let form = ligature + u32::from(after_joining);
                out.extend(char::from_u32(form));
                i += 2;
                continue;
            }
        }
        let before_joining = forms == 4 && letter(i, 1).is_some_and(|(_, f)| f > 1);
        let form = match (forms, after_joining, before_joining) {
            (1, _, _) | (_, false, false) => isolated,
            (_, true, false) => isolated + 1,
            (_, false, true) => isolated + 2,
            (_, true, true) => isolated + 3,
        };
        out.extend(char::from_u32(form));
        i += 1;
    }
    Cow::Owned(out)
}

/// The line in the order its characters are drawn left to right: every stretch of
/// right-to-left text (with the spaces and punctuation inside it) reversed.
fn visual_order(line: &str) -> String {
    let chars: Vec<char> = line.chars().collect();
    if !chars.iter().any(|&c| is_rtl(c)) {
        return line.to_owned();
    }
    let mut out = Vec::with_capacity(chars.len());
    let mut i = 0;
    while i < chars.len() {
        if !is_rtl(chars[i]) {
            out.push(chars[i]);
            i += 1;
            continue;
        }
        // The stretch runs to the last right-to-left character before a left-to-right one.
        let mut end = i;
        let mut j = i;
        while j < chars.len() && (is_rtl(chars[j]) || !chars[j].is_alphanumeric()) {
            if is_rtl(chars[j]) {
                end = j;
            }
            j += 1;
        }
        out.extend(chars[i..=end].iter().rev());
        i = end + 1;
    }
    out.into_iter().collect()
}

/// A page being drawn: its operations and the title its running header shows.
pub struct Page {
    pub ops: Vec<Op>,
    pub header: Option<String>,
}

/// The document being drawn.
pub struct Canvas {
    doc: PdfDocument,
    fonts: &'static Fonts,
    font_ids: [Option<FontId>; 3],
    pub pages: Vec<Page>,
    /// The page drawing goes to (an index into `pages`).
    pub current: usize,
    /// The flowing content's cursor: the top of the next block.
    pub y: f32,
    /// The running header of pages that flowing content starts.
    pub header: Option<String>,
    translucent: Option<ExtendedGraphicsStateId>,
    /// Characters drawn as [`MISSING`] because no embedded font has them.
    pub missing_glyphs: usize,
}

impl Canvas {
    pub fn new(title: &str) -> Result<Self, PdfError> {
        Ok(Self {
            doc: PdfDocument::new(title),
            fonts: fonts()?,
            font_ids: [None, None, None],
            pages: Vec::new(),
            current: 0,
            y: TOP,
            header: None,
            translucent: None,
            missing_glyphs: 0,
        })
    }

    /// Starts a new page at the end and makes it current; returns its index.
    pub fn new_page(&mut self) -> usize {
        self.pages.push(Page {
            ops: Vec::new(),
            header: self.header.clone(),
        });
        self.current = self.pages.len() - 1;
        self.y = TOP;
        self.current
    }

    /// Starts a new page unless `height` still fits above the footer.
    pub fn ensure(&mut self, height: f32) {
        if self.y - height < BOTTOM {
            self.new_page();
        }
    }

    fn ops(&mut self) -> &mut Vec<Op> {
        &mut self.pages[self.current].ops
    }

    fn font_id(&mut self, face: Face) -> FontId {
        let i = face as usize;
        if let Some(id) = &self.font_ids[i] {
            return id.clone();
        }
        let id = self.doc.add_font(&self.fonts.0[i]);
        self.font_ids[i] = Some(id.clone());
        id
    }

    /// The face that draws `c` in `weight`, and the character it draws.
    fn face_of(&self, c: char, weight: Weight) -> (Face, char) {
        let primary = match weight {
            Weight::Regular => Face::Regular,
            Weight::Bold => Face::Bold,
        };
        let has = |face: Face, c: char| {
            self.fonts.0[face as usize]
                .lookup_glyph_index(u32::from(c))
                .is_some()
        };
        if c.is_whitespace() || has(primary, c) {
            (primary, c)
        } else if has(Face::Fallback, c) {
            (Face::Fallback, c)
        } else {
            (Face::Fallback, MISSING)
        }
    }

    fn char_width(&self, face: Face, c: char, size: f32) -> f32 {
        let font = &self.fonts.0[face as usize];
        let upem = f32::from(font.units_per_em.max(1));
        let units = font
            .lookup_glyph_index(u32::from(c))
            .and_then(|g| font.get_glyph_width(g))
            .map_or(upem * 0.5, f32::from);
        units / upem * size
    }

    /// The width of `text` set in `size` and `weight`.
    pub fn width(&self, text: &str, size: f32, weight: Weight) -> f32 {
        shape(text)
            .chars()
            .map(|c| {
                let (face, c) = self.face_of(c, weight);
                self.char_width(face, c, size)
            })
            .sum()
    }

    /// `text` broken into lines no wider than `width`: at spaces, and inside a word (an address)
    /// that is wider than a line by itself.
    pub fn wrap(&self, text: &str, size: f32, weight: Weight, width: f32) -> Vec<String> {
        let mut lines = Vec::new();
        for paragraph in text.split('\n') {
            let mut line = String::new();
            let mut line_w = 0.0;
            let space = self.width(" ", size, weight);
            for word in paragraph.split_whitespace() {
                let word_w = self.width(word, size, weight);
                let gap = if line.is_empty() { 0.0 } else { space };
                if line_w + gap + word_w <= width {
                    if !line.is_empty() {
                        line.push(' ');
                    }
                    line.push_str(word);
                    line_w += gap + word_w;
                    continue;
                }
                if !line.is_empty() {
                    lines.push(std::mem::take(&mut line));
                    line_w = 0.0;
                }
                if word_w <= width {
                    line.push_str(word);
                    line_w = word_w;
                    continue;
                }
                // A word wider than the line: break it between characters.
                for c in word.chars() {
                    let (face, drawn) = self.face_of(c, weight);
                    let w = self.char_width(face, drawn, size);
                    if line_w + w > width && !line.is_empty() {
                        lines.push(std::mem::take(&mut line));
                        line_w = 0.0;
                    }
                    line.push(c);
                    line_w += w;
                }
            }
            if !line.is_empty() || lines.is_empty() {
                lines.push(line);
            }
        }
        lines
    }

    /// `text` cut to `width`, ending in an ellipsis when it was longer.
    pub fn clip(&self, text: &str, size: f32, weight: Weight, width: f32) -> String {
        if self.width(text, size, weight) <= width {
            return text.to_owned();
        }
        let budget = width - self.width("…", size, weight);
        let mut out = String::new();
        let mut used = 0.0;
        for c in text.chars() {
            let w = self.width(&c.to_string(), size, weight);
            if used + w > budget {
                break;
            }
            used += w;
            out.push(c);
        }
        out.push('…');
        out
    }

    /// Draws one line of text with its baseline at `y`, starting at `x`.
    pub fn text(&mut self, x: f32, y: f32, text: &str, size: f32, weight: Weight, paint: Paint) {
        let line = visual_order(&shape(text));
        // Runs of characters one face draws, each placed where the previous one ended.
        let mut runs: Vec<(Face, String, f32)> = Vec::new();
        let mut pen = x;
        for c in line.chars() {
            let (face, drawn) = self.face_of(c, weight);
            if drawn == MISSING && c != MISSING {
                self.missing_glyphs += 1;
            }
            let advance = self.char_width(face, drawn, size);
            match runs.last_mut() {
                Some((f, s, _)) if *f == face => s.push(drawn),
                _ => runs.push((face, drawn.to_string(), pen)),
            }
            pen += advance;
        }
        for (face, run, at) in runs {
            if run.trim().is_empty() {
                continue;
            }
            let font = self.font_id(face);
            self.ops().extend([
                Op::StartTextSection,
                Op::SetFont {
                    font: PdfFontHandle::External(font),
                    size: Pt(size),
                },
                Op::SetFillColor { col: paint.color() },
                Op::SetTextCursor {
                    pos: Point {
                        x: Pt(at),
                        y: Pt(y),
                    },
                },
                Op::ShowText {
                    items: vec![TextItem::Text(run)],
                },
                Op::EndTextSection,
            ]);
        }
    }

    /// Draws one line of text ending at `right`.
    pub fn text_right(
        &mut self,
        right: f32,
        y: f32,
        text: &str,
        size: f32,
        weight: Weight,
        paint: Paint,
    ) {
        let w = self.width(text, size, weight);
        self.text(right - w, y, text, size, weight, paint);
    }

    /// Draws one line of text centred on `cx`.
    pub fn text_center(
        &mut self,
        cx: f32,
        y: f32,
        text: &str,
        size: f32,
        weight: Weight,
        paint: Paint,
    ) {
        let w = self.width(text, size, weight);
        self.text(cx - w / 2.0, y, text, size, weight, paint);
    }

    /// The height `text` takes wrapped to `width`, lines `size * 1.4` apart.
    pub fn block_height(&self, width: f32, text: &str, size: f32, weight: Weight) -> f32 {
        self.wrap(text, size, weight, width).len() as f32 * size * 1.4
    }

    /// Flows a paragraph at the cursor, `indent` from the left margin, starting a new page
    /// between lines when one fills.
    pub fn para(&mut self, indent: f32, text: &str, size: f32, weight: Weight, paint: Paint) {
        let leading = size * 1.4;
        for line in self.wrap(text, size, weight, CONTENT_W - indent) {
            self.ensure(leading);
            self.text(
                MARGIN + indent,
                self.y - size * 0.95,
                &line,
                size,
                weight,
                paint,
            );
            self.y -= leading;
        }
    }

    /// A filled rectangle with its lower-left corner at (`x`, `y`).
    pub fn rect(&mut self, x: f32, y: f32, w: f32, h: f32, paint: Paint) {
        self.round_rect(x, y, w, h, 0.0, paint);
    }

    /// A filled rectangle with corners rounded by `r`.
    pub fn round_rect(&mut self, x: f32, y: f32, w: f32, h: f32, r: f32, paint: Paint) {
        let r = r.min(w / 2.0).min(h / 2.0);
        let p = |x: f32, y: f32, bezier: bool| LinePoint {
            p: Point { x: Pt(x), y: Pt(y) },
            bezier,
        };
        // The control points of a quarter circle lie 0.5523 of the radius from its ends.
        let k = r * (1.0 - 0.552_285);
        let points = if r <= 0.0 {
            vec![
                p(x, y, false),
                p(x + w, y, false),
                p(x + w, y + h, false),
                p(x, y + h, false),
            ]
        } else {
            vec![
                p(x + r, y, false),
                p(x + w - r, y, false),
                p(x + w - k, y, true),
                p(x + w, y + k, true),
                p(x + w, y + r, false),
                p(x + w, y + h - r, false),
                p(x + w, y + h - k, true),
                p(x + w - k, y + h, true),
                p(x + w - r, y + h, false),
                p(x + r, y + h, false),
                p(x + k, y + h, true),
                p(x, y + h - k, true),
                p(x, y + h - r, false),
                p(x, y + r, false),
                p(x, y + k, true),
                p(x + k, y, true),
                p(x + r, y, false),
            ]
        };
        self.fill(points, paint);
    }

    fn fill(&mut self, points: Vec<LinePoint>, paint: Paint) {
        self.ops().extend([
            Op::SetFillColor { col: paint.color() },
            Op::DrawPolygon {
                polygon: Polygon {
                    rings: vec![PolygonRing { points }],
                    mode: PaintMode::Fill,
                    winding_order: WindingOrder::NonZero,
                },
            },
        ]);
    }

    /// A filled circle.
    pub fn circle(&mut self, cx: f32, cy: f32, r: f32, paint: Paint) {
        let mut points = arc_points(cx, cy, r, 90.0, -360.0);
        points.pop();
        self.fill(points, paint);
    }

    /// A horizontal rule.
    pub fn hline(&mut self, x1: f32, x2: f32, y: f32, thickness: f32, paint: Paint) {
        self.rect(x1, y - thickness / 2.0, x2 - x1, thickness, paint);
    }

    /// A score ring: the whole circle in `track`, and from twelve o'clock clockwise the share
    /// `fraction` of it in `paint`, with round ends.
    #[allow(clippy::too_many_arguments)]
    pub fn ring(
        &mut self,
        cx: f32,
        cy: f32,
        r: f32,
        thickness: f32,
        fraction: f32,
        paint: Paint,
        track: Paint,
    ) {
        let fraction = fraction.clamp(0.0, 1.0);
        let stroke = |points: Vec<LinePoint>, paint: Paint, closed: bool| {
            [
                Op::SetOutlineColor { col: paint.color() },
                Op::DrawLine {
                    line: Line {
                        points,
                        is_closed: closed,
                    },
                },
            ]
        };
        let mut ops = vec![
            Op::SaveGraphicsState,
            Op::SetOutlineThickness { pt: Pt(thickness) },
            Op::SetLineCapStyle {
                cap: LineCapStyle::Round,
            },
        ];
        ops.extend(stroke(arc_points(cx, cy, r, 90.0, -360.0), track, true));
        if fraction > 0.0 {
            ops.extend(stroke(
                arc_points(cx, cy, r, 90.0, -360.0 * fraction),
                paint,
                false,
            ));
        }
        ops.push(Op::RestoreGraphicsState);
        self.ops().extend(ops);
    }

    /// Draws an image `w` points wide (less when that makes it taller than `max_h`), its
    /// top-left corner at (`x`, `top`), on a rounded `frame` 4 points wider all round when given;
    /// returns the height it took, `None` when the bytes are not an image.
    pub fn image(
        &mut self,
        bytes: &[u8],
        x: f32,
        top: f32,
        w: f32,
        max_h: f32,
        frame: Option<Paint>,
    ) -> Option<f32> {
        let image = RawImage::decode_from_bytes(bytes, &mut Vec::new()).ok()?;
        let (pw, ph) = (image.width as f32, image.height as f32);
        if pw <= 0.0 || ph <= 0.0 {
            return None;
        }
        // As wide as `w`, unless that makes it taller than `max_h`.
        let scale = (w / pw).min(max_h / ph);
        let (dw, dh) = (pw * scale, ph * scale);
        let left = x;
        if let Some(paint) = frame {
            self.round_rect(left - 4.0, top - dh - 4.0, dw + 8.0, dh + 8.0, 6.0, paint);
        }
        let id = self.doc.add_image(&image);
        self.ops().push(Op::UseXobject {
            id,
            transform: XObjectTransform {
                translate_x: Some(Pt(left)),
                translate_y: Some(Pt(top - dh)),
                // At `dpi`, one pixel is 72/dpi points.
                dpi: Some(72.0 / scale),
                ..Default::default()
            },
        });
        Some(dh)
    }

    /// A link over the rectangle whose lower-left corner is (`x`, `y`) to the top of `page`
    /// (an index into `pages`).
    pub fn link(&mut self, x: f32, y: f32, w: f32, h: f32, page: usize) {
        self.ops().push(Op::LinkAnnotation {
            link: LinkAnnotation::new(
                Rect::from_xywh(Pt(x), Pt(y), Pt(w), Pt(h)),
                Actions::go_to(Destination::Xyz {
                    page: page + 1,
                    left: Some(0.0),
                    top: Some(PAGE_H),
                    zoom: None,
                }),
                Some(BorderArray::Solid([0.0, 0.0, 0.0])),
                Some(Paint([1.0, 1.0, 1.0]).array()),
                Some(HighlightingMode::Outline),
            ),
        });
    }

    /// Text across the page's diagonal, at `alpha` opacity, over everything drawn before it.
    pub fn diagonal(&mut self, text: &str, size: f32, paint: Paint, alpha: f32) {
        let gs = match &self.translucent {
            Some(gs) => gs.clone(),
            None => {
                let gs = self.doc.add_graphics_state(
                    ExtendedGraphicsState::default().with_current_fill_alpha(alpha),
                );
                self.translucent = Some(gs.clone());
                gs
            }
        };
        let angle = (PAGE_H / PAGE_W).atan();
        let (sin, cos) = angle.sin_cos();
        let w = self.width(text, size, Weight::Bold);
        // The text's centre (half its width along the diagonal, a third of its size across)
        // on the page's centre.
        let x = PAGE_W / 2.0 - cos * w / 2.0 + sin * size * 0.35;
        let y = PAGE_H / 2.0 - sin * w / 2.0 - cos * size * 0.35;
        let font = self.font_id(Face::Bold);
        self.ops().extend([
            Op::SaveGraphicsState,
            Op::LoadGraphicsState { gs },
            Op::StartTextSection,
            Op::SetFont {
                font: PdfFontHandle::External(font),
                size: Pt(size),
            },
            Op::SetFillColor { col: paint.color() },
            Op::SetTextMatrix {
                matrix: TextMatrix::Raw([cos, sin, -sin, cos, x, y]),
            },
            Op::ShowText {
                items: vec![TextItem::Text(text.to_owned())],
            },
            Op::EndTextSection,
            Op::RestoreGraphicsState,
        ]);
    }

    /// The finished file: the pages, an outline entry per `bookmarks` (title, page index),
    /// `info`'s metadata, and page labels numbering the pages from 1.
    pub fn finish(
        mut self,
        info: Info,
        bookmarks: &[(String, usize)],
    ) -> Result<Vec<u8>, PdfError> {
        let pages = std::mem::take(&mut self.pages)
            .into_iter()
            .map(|p| PdfPage::new(Mm(210.0), Mm(297.0), p.ops))
            .collect();
        self.doc.with_pages(pages);
        for (title, page) in bookmarks {
            self.doc.add_bookmark(title, page + 1);
        }
        let meta = &mut self.doc.metadata.info;
        meta.document_title = info.title;
        meta.author = info.author.clone();
        meta.creator = info.author;
        meta.subject = info.subject;
        meta.keywords = info.keywords;
        meta.producer = info.producer;
        let when = printpdf::OffsetDateTime::from_unix_timestamp(info.created)
            .map_err(|e| PdfError(format!("the report's time: {e}")))?;
        meta.creation_date = when;
        meta.modification_date = when;
        meta.metadata_date = when;

        let mut doc = self
            .doc
            .to_lopdf_document(&PdfSaveOptions::default(), &mut Vec::new());
        finish_catalog(&mut doc)?;
        let names: Vec<(String, &str)> = self
            .font_ids
            .iter()
            .zip(FONT_NAMES)
            .filter_map(|(id, name)| Some((id.as_ref()?.0.clone(), name)))
            .collect();
        name_fonts(&mut doc, &names);
        doc.compress();
        let mut bytes = Vec::new();
        doc.save_to(&mut bytes)
            .map_err(|e| PdfError(format!("writing the file: {e}")))?;
        Ok(bytes)
    }
}

/// The document information of the finished file.
pub struct Info {
    pub title: String,
    pub author: String,
    /// The program named as the file's producer.
    pub producer: String,
    pub subject: String,
    pub keywords: Vec<String>,
    /// The creation date, in seconds since 1970 (UTC).
    pub created: i64,
}

/// Page labels (1, 2, 3 … as the footers count) and, when there is an outline, the viewer
/// opening with it shown.
fn finish_catalog(doc: &mut lopdf::Document) -> Result<(), PdfError> {
    use lopdf::{Dictionary, Object};
    let root = doc
        .trailer
        .get(b"Root")
        .and_then(Object::as_reference)
        .map_err(|e| PdfError(format!("the catalog: {e}")))?;
    let catalog = doc
        .get_object_mut(root)
        .and_then(Object::as_dict_mut)
        .map_err(|e| PdfError(format!("the catalog: {e}")))?;
    let mut decimal = Dictionary::new();
    decimal.set("S", Object::Name(b"D".to_vec()));
    let mut labels = Dictionary::new();
    labels.set(
        "Nums",
        Object::Array(vec![Object::Integer(0), Object::Dictionary(decimal)]),
    );
    catalog.set("PageLabels", Object::Dictionary(labels));
    if catalog.has(b"Outlines") {
        catalog.set("PageMode", Object::Name(b"UseOutlines".to_vec()));
    }
    Ok(())
}

/// Names each embedded font by its face (printpdf names them by their random resource id):
/// `fonts` pairs a resource name with the face's name.
fn name_fonts(doc: &mut lopdf::Document, fonts: &[(String, &str)]) {
    use lopdf::Object;
    let resource_dicts: Vec<(String, lopdf::ObjectId)> = doc
        .objects
        .values()
        .filter_map(|o| o.as_dict().ok())
        .flat_map(|d| {
            fonts.iter().filter_map(|(id, _)| {
                let r = d.get(id.as_bytes()).and_then(Object::as_reference).ok()?;
                Some((id.clone(), r))
            })
        })
        .collect();
    for (id, font) in resource_dicts {
        let Some(&(_, name)) = fonts.iter().find(|(i, _)| *i == id) else {
            continue;
        };
        let name = Object::Name(name.as_bytes().to_vec());
        let mut descriptor = None;
        if let Ok(d) = doc.get_object_mut(font).and_then(Object::as_dict_mut) {
            d.set("BaseFont", name.clone());
            if let Ok(Object::Array(descendants)) = d.get_mut(b"DescendantFonts") {
                for cid in descendants.iter_mut() {
                    if let Ok(cid) = cid.as_dict_mut() {
                        cid.set("BaseFont", name.clone());
                        descriptor = cid
                            .get(b"FontDescriptor")
                            .and_then(Object::as_reference)
                            .ok();
                    }
                }
            }
        }
        if let Some(Ok(d)) = descriptor.map(|r| doc.get_object_mut(r).and_then(Object::as_dict_mut))
        {
            d.set("FontName", name);
        }
    }
}

/// The points of a circular arc from `start` degrees (counter-clockwise from three o'clock)
/// through `sweep` degrees (negative: clockwise), as cubic Bézier segments of at most 90°.
fn arc_points(cx: f32, cy: f32, r: f32, start: f32, sweep: f32) -> Vec<LinePoint> {
    let segments = (sweep.abs() / 90.0).ceil().max(1.0) as usize;
    let step = (sweep / segments as f32).to_radians();
    let k = 4.0 / 3.0 * (step / 4.0).tan() * r;
    let at = |a: f32| (cx + r * a.cos(), cy + r * a.sin());
    let p = |(x, y): (f32, f32), bezier: bool| LinePoint {
        p: Point { x: Pt(x), y: Pt(y) },
        bezier,
    };
    let mut a = start.to_radians();
    let mut points = vec![p(at(a), false)];
    for _ in 0..segments {
        let b = a + step;
        let (x0, y0) = at(a);
        let (x1, y1) = at(b);
        points.push(p((x0 - k * a.sin(), y0 + k * a.cos()), true));
        points.push(p((x1 + k * b.sin(), y1 - k * b.cos()), true));
        points.push(p((x1, y1), false));
        a = b;
    }
    points
}

#[cfg(test)]
mod tests {
    use super::{shape, visual_order};

    #[test]
    fn arabic_letters_take_the_form_their_neighbours_call_for() {
        // Meem initial, khah medial, beh medial, zain final.
        assert_eq!(shape("مخبز"), "\u{FEE3}\u{FEA8}\u{FE92}\u{FEB0}");
        // Alef joins only the letter before it: the meem after it starts again.
        assert_eq!(shape("ام"), "\u{FE8D}\u{FEE1}");
        // Lam-alef as its ligature, joined to the beh before it.
        assert_eq!(shape("بلا"), "\u{FE91}\u{FEFC}");
        assert_eq!(shape("plain"), "plain");
    }

    #[test]
    fn right_to_left_stretches_are_reversed_and_the_rest_kept() {
        assert_eq!(visual_order("plain text"), "plain text");
        assert_eq!(visual_order("שלום עולם"), "םלוע םולש");
        assert_eq!(visual_order("Site: مرحبا - home"), "Site: ابحرم - home");
    }
}
