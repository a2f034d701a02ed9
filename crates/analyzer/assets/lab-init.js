// Sitelens lab instrumentation, installed before any page script runs
// (Page.addScriptToEvaluateOnNewDocument). It only records; it never changes the page.
// Paint, LCP, layout-shift and long-task entries are read through buffered
// PerformanceObservers, since paint entries may arrive after the load event.
(() => {
  if (window.__sitelens) return;
  // Permission requests while the page loads (Lighthouse's geolocation-on-start and
  // notification-on-start): recorded, then passed on unchanged.
  try {
    const geo = navigator.geolocation;
    if (geo) {
      for (const name of ['getCurrentPosition', 'watchPosition']) {
        const original = geo[name].bind(geo);
        geo[name] = (...args) => {
          s.geolocation = true;
          return original(...args);
        };
      }
    }
    if (window.Notification && Notification.requestPermission) {
      const original = Notification.requestPermission.bind(Notification);
      Notification.requestPermission = (...args) => {
        s.notification = true;
        return original(...args);
      };
    }
  } catch (_) {
    /* leave the page's APIs alone */
  }
  const s = {
    paints: {},
    lcp: [],
    shifts: [],
    longtasks: [],
    inserted: new WeakMap(),
    imgLoad: new WeakMap(),
  };
  Object.defineProperty(window, '__sitelens', { value: s, enumerable: false });
  const observers = [];
  const observe = (type, fn) => {
    try {
      const o = new PerformanceObserver((list) => {
        for (const e of list.getEntries()) fn(e);
      });
      o.observe({ type, buffered: true });
      observers.push([o, fn]);
    } catch (_) {
      /* entry type unsupported */
    }
  };
  // Entries already queued but not yet delivered to the callbacks (delivery is a low-priority
  // task) are taken synchronously when the metrics are read.
  s.flush = () => {
    for (const [o, fn] of observers) for (const e of o.takeRecords()) fn(e);
  };
  observe('paint', (e) => {
    s.paints[e.name] = e.startTime;
  });
  observe('largest-contentful-paint', (e) => {
    s.lcp.push({
      t: e.startTime,
      size: e.size,
      url: e.url || '',
      tag: e.element ? e.element.tagName.toLowerCase() : '',
    });
  });
  observe('layout-shift', (e) => {
    s.shifts.push({ t: e.startTime, v: e.value, input: e.hadRecentInput });
  });
  observe('longtask', (e) => {
    s.longtasks.push({ t: e.startTime, d: e.duration });
  });
  // When each element entered the document, for the paint-progression Speed Index: recorded
  // from the end of parsing on. A subtree observer present while the parser runs puts Chromium's
  // parser on a slow path (one page's 550 ms parse task took 850-1,050 ms with an observer whose
  // callback did nothing), lengthening the very tasks the blocking time counts and changing
  // whether the first paint comes before them. Elements the parser inserted have no record and
  // count from the first contentful paint (or their image's load), as do the parser's own.
  const watch = () =>
    new MutationObserver((records) => {
      const t = performance.now();
      for (const r of records)
        for (const n of r.addedNodes) if (n.nodeType === 1 && !s.inserted.has(n)) s.inserted.set(n, t);
    }).observe(document, { childList: true, subtree: true });
  if (document.readyState === 'loading') document.addEventListener('DOMContentLoaded', watch, { once: true });
  else watch();
  // A screen-covering overlay at the load (a preloader, faded out by a script after the load):
  // the content under it is not visible until it goes, and axe-core takes it for an open modal
  // dialog. Found at the load event, before the page's own handlers (registered later) start
  // its fade, with axe-core's own test (a fixed element over at least 75 % of the screen) and
  // our own (opaque, and holding little: a spinner, a logo). It is then followed frame by frame:
  // `faded` is when its opacity fell below 0.1 (a screenshot's colours are then close to the
  // final ones, which is when Lighthouse's filmstrip counts the content under it as painted),
  // `gone` when it stopped covering the screen at all. It is followed for at most 2 s after the
  // load: `overlayPending` is false from then on, so the settle stops waiting.
  const frame = window.requestAnimationFrame.bind(window);
  const covering = (el) => {
    if (!el.isConnected) return 0;
    const cs = getComputedStyle(el);
    if (cs.display === 'none' || cs.visibility === 'hidden' || cs.position !== 'fixed') return 0;
    const r = el.getBoundingClientRect();
    const w = Math.min(r.right, innerWidth) - Math.max(r.left, 0);
    const h = Math.min(r.bottom, innerHeight) - Math.max(r.top, 0);
    if (w <= 0 || h <= 0 || w * h < 0.75 * innerWidth * innerHeight) return 0;
    return Number(cs.opacity);
  };
  const opaque = (el) => {
    const cs = getComputedStyle(el);
    if (cs.backgroundImage !== 'none') return true;
    const m = /rgba?\(([^)]*)\)/.exec(cs.backgroundColor);
    const parts = m ? m[1].split(/[\s,/]+/).filter(Boolean) : [];
    return parts.length === 3 || (parts.length === 4 && Number(parts[3]) >= 0.9);
  };
  const follow = () => {
    const o = s.overlay;
    const now = performance.now();
    const opacity = covering(o.el);
    if (o.faded === null && opacity < 0.1) o.faded = now;
    if (opacity === 0) o.gone = now;
    return o.gone === null && now - o.since < 2000;
  };
  s.overlayPending = () => !!s.overlay && s.overlay.gone === null && follow();
  window.addEventListener(
    'load',
    () => {
      try {
        const hit = document.elementsFromPoint(innerWidth / 2, innerHeight / 2)[0];
        for (let el = hit; el && el !== document.body && el !== document.documentElement; el = el.parentElement) {
          // A preloader holds a spinner, a logo or a line of text, not the page (an app whose
          // whole content scrolls inside one fixed element is not covered by it).
          const small = () => el.getElementsByTagName('*').length <= 50 && el.textContent.trim().length <= 200;
          if (covering(el) >= 0.9 && opaque(el) && small()) {
            s.overlay = { el, since: performance.now(), faded: null, gone: null };
            const tick = () => {
              if (follow()) frame(tick);
            };
            frame(tick);
            break;
          }
        }
      } catch (_) {
        /* nothing to follow */
      }
    },
    { once: true },
  );
  document.addEventListener(
    'load',
    (e) => {
      const el = e.target;
      if (el && el.tagName === 'IMG') s.imgLoad.set(el, performance.now());
    },
    true,
  );
})();
