// Reads the rendered page's design facts: colours, fonts, typography, navigation, overflow and
// tap targets. Returns a JSON string (parsed by browser/design.rs).
() => {
  const vw = innerWidth;
  const vh = innerHeight;
  const colors = new Map();
  const addColor = (c, weight) => {
    const m = /^rgba?\((\d+),\s*(\d+),\s*(\d+)(?:,\s*([\d.]+))?\)$/.exec(c || '');
    if (!m || weight <= 0) return;
    if (m[4] !== undefined && parseFloat(m[4]) < 0.5) return;
    const hex = '#' + [m[1], m[2], m[3]].map((x) => (+x).toString(16).padStart(2, '0')).join('');
    colors.set(hex, (colors.get(hex) || 0) + weight);
  };
  const fonts = new Map();
  let textChars = 0;
  let smallChars = 0;
  const sizes = new Map();
  const lines = [];
  const ownText = (el) => {
    let n = 0;
    for (const c of el.childNodes) if (c.nodeType === 3) n += c.textContent.trim().length;
    return n;
  };
  const all = document.body ? document.body.getElementsByTagName('*') : [];
  const limit = Math.min(all.length, 4000);
  // The page background counts for the visible viewport.
  const rootBg = document.body ? getComputedStyle(document.body).backgroundColor : '';
  const htmlBg = getComputedStyle(document.documentElement).backgroundColor;
  const transparent = (c) => !c || c === 'rgba(0, 0, 0, 0)' || c === 'transparent';
  addColor(transparent(rootBg) ? (transparent(htmlBg) ? 'rgb(255, 255, 255)' : htmlBg) : rootBg, vw * vh * 0.5);
  for (let i = 0; i < limit; i++) {
    const el = all[i];
    const cs = getComputedStyle(el);
    if (cs.display === 'none' || cs.visibility === 'hidden') continue;
    const r = el.getBoundingClientRect();
    if (r.width <= 0 || r.height <= 0) continue;
    const visW = Math.max(0, Math.min(r.right, vw) - Math.max(r.left, 0));
    const visH = Math.max(0, Math.min(r.bottom, vh) - Math.max(r.top, 0));
    const area = visW * visH;
    if (el !== document.body && !transparent(cs.backgroundColor)) addColor(cs.backgroundColor, area);
    const n = ownText(el);
    if (n > 0) {
      const size = parseFloat(cs.fontSize) || 16;
      addColor(cs.color, n * size * size * 2);
      const family = cs.fontFamily.split(',')[0].trim().replace(/^["']|["']$/g, '');
      if (family) fonts.set(family, (fonts.get(family) || 0) + n);
      textChars += n;
      if (size < 12) smallChars += n;
      sizes.set(size, (sizes.get(size) || 0) + n);
      if (el.tagName === 'P' && n >= 80) {
        const lh = parseFloat(cs.lineHeight) || size * 1.2;
        const rows = Math.max(1, Math.round(r.height / lh));
        lines.push({ charsPerLine: n / rows, lineHeightRatio: lh / size, fontSize: size });
      }
    }
  }
  // The dominant body text size: the size carrying the most characters.
  let bodySize = null;
  let best = -1;
  for (const [size, n] of sizes) if (n > best) { best = n; bodySize = size; }

  const navs = document.querySelectorAll('nav, [role="navigation"]');
  const mainNav = Array.from(navs).find((n) => !/breadcrumb/i.test(n.getAttribute('aria-label') || n.className || ''));
  const menuLinks = mainNav ? mainNav.querySelectorAll('a[href]').length : 0;
  const navItems = mainNav ? Array.from(mainNav.querySelectorAll('a[href]')).map((a) => a.textContent.trim()).filter((t) => t).slice(0, 20) : [];
  const breadcrumb = !!document.querySelector(
    'nav[aria-label*="breadcrumb" i], [itemtype*="BreadcrumbList"], .breadcrumb, .breadcrumbs, [class*="breadcrumb" i]',
  ) || Array.from(document.querySelectorAll('script[type="application/ld+json"]')).some((s) => /BreadcrumbList/.test(s.textContent));
  const footer = document.querySelector('footer, [role="contentinfo"]');
  const footerLinks = footer ? footer.querySelectorAll('a[href]').length : 0;

  // Tap targets: visible interactive elements, measured in CSS pixels.
  const targets = [];
  for (const el of document.querySelectorAll('a[href], button, input:not([type="hidden"]), select, textarea, [role="button"], [onclick]')) {
    const r = el.getBoundingClientRect();
    const cs = getComputedStyle(el);
    if (r.width <= 0 || r.height <= 0 || cs.visibility === 'hidden') continue;
    // Inline links inside a sentence are exempt, as in WCAG 2.5.8 and Lighthouse.
    if (el.tagName === 'A' && cs.display === 'inline' && el.parentElement && ownText(el.parentElement) > 0) continue;
    targets.push({ x: r.left, y: r.top + scrollY, w: r.width, h: r.height, label: (el.textContent || el.getAttribute('aria-label') || el.tagName).trim().slice(0, 40) });
  }
  let small = 0;
  let crowded = 0;
  const examples = [];
  for (let i = 0; i < targets.length && i < 400; i++) {
    const a = targets[i];
    if (a.w >= 48 && a.h >= 48) continue;
    if (a.w < 24 || a.h < 24) {
      small++;
      if (examples.length < 5) examples.push(a.label);
    }
    // A target under 48x48 whose 48x48 zone around its centre overlaps another target.
    const cx = a.x + a.w / 2;
    const cy = a.y + a.h / 2;
    for (let j = 0; j < targets.length && j < 400; j++) {
      if (i === j) continue;
      const b = targets[j];
      if (cx + 24 > b.x && cx - 24 < b.x + b.w && cy + 24 > b.y && cy - 24 < b.y + b.h) {
        crowded++;
        break;
      }
    }
  }
  const scrollWidth = Math.max(document.documentElement.scrollWidth, document.body ? document.body.scrollWidth : 0);
  const sorted = (m) => Array.from(m.entries()).sort((a, b) => b[1] - a[1]);
  return JSON.stringify({
    viewportWidth: vw,
    colors: sorted(colors).slice(0, 12).map(([color, weight]) => ({ color, weight })),
    fonts: sorted(fonts).slice(0, 8).map(([family, chars]) => ({ family, chars })),
    textChars,
    smallChars,
    bodyFontSize: bodySize,
    paragraphs: lines.slice(0, 50),
    navCount: navs.length,
    menuLinks,
    navItems,
    breadcrumb,
    hasFooter: !!footer,
    footerLinks,
    scrollWidth,
    tapTargets: targets.length,
    smallTargets: small,
    crowdedTargets: crowded,
    smallTargetExamples: examples,
  });
}
