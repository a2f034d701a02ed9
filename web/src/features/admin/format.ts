/** Money of the admin area: cents as US dollars ("$19.00", "-$5.00"). */
const usd = new Intl.NumberFormat("en-US", { style: "currency", currency: "USD" });
export function formatCents(cents: number): string {
  return usd.format(cents / 100);
}

/** A share as "12.5 %", or "—" when there is nothing to divide (no invented 0 %). */
export function formatPercent(percent: number | null): string {
  return percent === null ? "—" : `${percent.toLocaleString("en-US", { maximumFractionDigits: 1 })} %`;
}

/** "28 Nov" of a `YYYY-MM-DD` day. */
const shortDay = new Intl.DateTimeFormat("en-GB", { day: "numeric", month: "short", timeZone: "UTC" });
export function formatDay(day: string): string {
  return shortDay.format(new Date(`${day}T00:00:00Z`));
}
