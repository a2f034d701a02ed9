/**
 * Resolves once the page's first contentful paint has been presented (the paint entry arrives
 * with the frame on screen), or after `ms` at the latest, or at once in a hidden tab (which does
 * not paint).
 */
export function firstPaintShown(ms: number): Promise<void> {
  return new Promise((done) => {
    if (document.visibilityState === "hidden" || typeof PerformanceObserver === "undefined") {
      done();
      return;
    }
    let observer: PerformanceObserver | undefined;
    const finish = () => {
      clearTimeout(timer);
      observer?.disconnect();
      done();
    };
    const timer = setTimeout(finish, ms);
    try {
      observer = new PerformanceObserver((list) => {
        if (list.getEntriesByName("first-contentful-paint").length > 0) finish();
      });
      observer.observe({ type: "paint", buffered: true });
    } catch {
      finish();
    }
  });
}
