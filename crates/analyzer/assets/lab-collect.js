// Reads what lab-init.js recorded plus the page's own timing entries, after the page settled.
// Returns a JSON string (parsed by browser/lab.rs).
async () => {
  const s = window.__sitelens || {
    paints: {}, lcp: [], shifts: [], longtasks: [], inserted: new WeakMap(), imgLoad: new WeakMap(),
  };
  // Images still decoding are waited for (at most 1 s), so a late LCP image is painted.
  const pending = Array.from(document.images).filter((i) => !i.complete && i.loading !== 'lazy');
  if (pending.length) {
    await Promise.race([
      Promise.all(pending.map((i) => i.decode().catch(() => {}))),
      new Promise((r) => setTimeout(r, 1000)),
    ]);
  }
  // Two animation frames: paints of the last changes have happened and their entries are queued.
  await new Promise((r) => {
    const done = setTimeout(r, 100);
    requestAnimationFrame(() => requestAnimationFrame(() => { clearTimeout(done); r(); }));
  });
  if (s.flush) s.flush();
  const nav = performance.getEntriesByType('navigation')[0] || {};
  const fcp = s.paints['first-contentful-paint'];
  const vw = innerWidth;
  const vh = innerHeight;
  const resources = performance.getEntriesByType('resource');
  const resEnd = new Map();
  for (const r of resources) resEnd.set(r.name, r.responseEnd);

  // Speed Index by paint progression: every visible piece of content in the first viewport
  // (text, images, media, backgrounds) counts with its visible area, painted at the later of
  // FCP, the time it entered the document and, for images, the time it loaded. Visual
  // completeness is the painted share of that area, and Speed Index = ∫(1 - completeness) dt,
  // which is the area-weighted mean paint time. Content under a screen-covering overlay that has
  // since faded (a preloader, lab-init.js) counts from the time it faded.
  if (s.overlayPending) s.overlayPending();
  const uncovered = s.overlay ? s.overlay.faded : null;
  const insertedAt = (el) => {
    for (let n = el; n; n = n.parentElement) {
      const t = s.inserted.get(n);
      if (t !== undefined) return t;
    }
    return 0;
  };
  const hasOwnText = (el) => {
    for (const c of el.childNodes) if (c.nodeType === 3 && c.textContent.trim()) return true;
    return false;
  };
  const MEDIA = new Set(['IMG', 'SVG', 'VIDEO', 'CANVAS', 'IFRAME', 'INPUT', 'BUTTON', 'SELECT', 'TEXTAREA']);
  let total = 0;
  let weighted = 0;
  let lastPaint = fcp || 0;
  const all = document.body ? document.body.getElementsByTagName('*') : [];
  const limit = Math.min(all.length, 4000);
  for (let i = 0; i < limit; i++) {
    const el = all[i];
    const r = el.getBoundingClientRect();
    const w = Math.min(r.right, vw) - Math.max(r.left, 0);
    const h = Math.min(r.bottom, vh) - Math.max(r.top, 0);
    if (w <= 0 || h <= 0) continue;
    const tag = el.tagName.toUpperCase();
    const cs = getComputedStyle(el);
    if (cs.visibility === 'hidden' || cs.opacity === '0') continue;
    const background =
      cs.backgroundImage !== 'none' ||
      (cs.backgroundColor !== 'rgba(0, 0, 0, 0)' && cs.backgroundColor !== 'transparent');
    if (!MEDIA.has(tag) && !background && !hasOwnText(el)) continue;
    let t = insertedAt(el);
    if (tag === 'IMG') {
      const loaded = s.imgLoad.get(el);
      const end = resEnd.get(el.currentSrc);
      t = Math.max(t, loaded !== undefined ? loaded : end !== undefined ? end : t);
    }
    t = Math.max(t, fcp || 0, uncovered || 0);
    lastPaint = Math.max(lastPaint, t);
    total += w * h;
    weighted += w * h * t;
  }
  const speedIndex = total > 0 ? weighted / total : fcp;

  // Images in a <picture> or with a srcset report a natural size scaled by the chosen density;
  // like Lighthouse, their file's own size is read from a fresh Image (cached, 250 ms at most).
  const intrinsic = new Map();
  const fromSource = Array.from(document.images).filter((i) => i.currentSrc && (i.srcset || (i.parentElement && i.parentElement.tagName === 'PICTURE')));
  await Promise.race([
    Promise.all(fromSource.map((i) => new Promise((done) => {
      const probe = new Image();
      probe.onload = () => { intrinsic.set(i.currentSrc, [probe.naturalWidth, probe.naturalHeight]); done(); };
      probe.onerror = () => done();
      probe.src = i.currentSrc;
    }))),
    new Promise((r) => setTimeout(r, 250)),
  ]);
  const images = [];
  for (const img of document.images) {
    const r = img.getBoundingClientRect();
    const cs = getComputedStyle(img);
    const picture = !!img.parentElement && img.parentElement.tagName === 'PICTURE';
    const own = picture || img.srcset ? intrinsic.get(img.currentSrc) : [img.naturalWidth, img.naturalHeight];
    images.push({
      url: img.currentSrc || img.src || '',
      naturalWidth: img.naturalWidth,
      naturalHeight: img.naturalHeight,
      fileSize: own || null,
      width: r.width,
      height: r.height,
      displayedWidth: img.width,
      displayedHeight: img.height,
      top: r.top,
      bottom: r.bottom,
      left: r.left,
      right: r.right,
      srcset: img.srcset,
      imageRendering: cs.imageRendering,
      hasWidthAttr: img.hasAttribute('width'),
      hasHeightAttr: img.hasAttribute('height'),
      cssSized: !!(img.style.width && img.style.height) || cs.aspectRatio !== 'auto',
      objectFit: cs.objectFit,
      visible: r.width > 0 && r.height > 0 && cs.visibility !== 'hidden' && cs.display !== 'none',
      inViewport: r.bottom > 0 && r.top < vh && r.right > 0 && r.left < vw,
    });
  }
  const metaCharset = document.querySelector('meta[charset], meta[http-equiv="content-type" i]');
  let charsetIndex = -1;
  if (metaCharset && document.head) {
    charsetIndex = Array.prototype.indexOf.call(document.head.children, metaCharset);
  }
  const viewport = document.querySelector('meta[name="viewport" i]');
  // Inputs that cancel a paste (Lighthouse's paste-preventing-inputs): a paste event is sent to
  // each, as Lighthouse does, and a cancelled one is counted.
  let pastePrevented = 0;
  const fields = document.querySelectorAll('input:not([type="hidden"]):not([readonly]), textarea:not([readonly])');
  for (let i = 0; i < fields.length && i < 200; i++) {
    const e = new ClipboardEvent('paste', { bubbles: true, cancelable: true });
    fields[i].dispatchEvent(e);
    if (e.defaultPrevented) pastePrevented++;
  }
  return JSON.stringify({
    paints: s.paints,
    lcp: s.lcp,
    shifts: s.shifts,
    longtasks: s.longtasks,
    speedIndex: speedIndex === undefined ? null : speedIndex,
    lastPaint,
    nav: {
      responseStart: nav.responseStart || 0,
      domContentLoaded: nav.domContentLoadedEventEnd || 0,
      load: nav.loadEventEnd || nav.loadEventStart || 0,
      transferSize: nav.transferSize || 0,
      decodedBodySize: nav.decodedBodySize || 0,
    },
    resources: resources.map((r) => ({
      url: r.name,
      initiatorType: r.initiatorType,
      renderBlocking: r.renderBlockingStatus === 'blocking',
      start: r.startTime,
      end: r.responseEnd,
      transferSize: r.transferSize || 0,
      decodedBodySize: r.decodedBodySize || 0,
    })),
    images,
    screen: { width: vw, height: vh, dpr: devicePixelRatio },
    doctype: document.doctype ? document.doctype.name : null,
    compatMode: document.compatMode,
    characterSet: document.characterSet,
    metaCharsetIndex: charsetIndex,
    viewport: viewport ? viewport.getAttribute('content') || '' : null,
    secureContext: window.isSecureContext,
    geolocationOnStart: !!s.geolocation,
    notificationOnStart: !!s.notification,
    pastePrevented,
    protocol: location.protocol,
    finalUrl: location.href,
    title: document.title,
  });
}
