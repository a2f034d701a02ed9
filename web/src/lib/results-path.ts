/**
 * The report screen's address (docs/PRODUCT.md §2.6): `/results?id=` with the analysed `url`, or,
 * for a report that was paid for, `paid=true` and its `type` (which choose presentation only: the
 * server decides what a report contains).
 */
export function resultsPath(id: string, opts: { url?: string; paid?: boolean; type?: string } = {}): string {
  const base = `/results?id=${encodeURIComponent(id)}`;
  if (opts.paid && opts.type) return `${base}&paid=true&type=${encodeURIComponent(opts.type)}`;
  return opts.url ? `${base}&url=${encodeURIComponent(opts.url)}` : base;
}
