/**
 * Optional integrations, read from the build environment (docs/PRODUCT.md §10.5: configuration,
 * hidden when not configured).
 */
const env = import.meta.env as Record<string, string | undefined>;

export const config = {
  /** Affiliate link of the recommended WordPress theme (the Technical tab's tip). */
  wordpressThemeUrl: env.VITE_WORDPRESS_THEME_URL,
  /** Booking page for a free consultation (the Action Plan tab). */
  bookingUrl: env.VITE_BOOKING_URL,
  /** Social profile addresses for the footer. */
  githubUrl: env.VITE_SOCIAL_GITHUB,
};
