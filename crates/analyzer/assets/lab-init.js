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
  document.addEventListener(
    'load',
    (e) => {
      const el = e.target;
      if (el && el.tagName === 'IMG') s.imgLoad.set(el, performance.now());
    },
    true,
  );
})();
