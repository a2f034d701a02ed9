import { goodRanges } from "../../lib/domain";

/** The good range's wording ("30-60 characters"), from the domain rules (docs/PRODUCT.md §9.7). */
const range = (id: string) => goodRanges().find((r) => r.id === id)?.text;

/** The 'Did you know?' facts shown while an analysis runs. Each is sourced from public research. */
export const facts = [
  "53% of mobile visits are abandoned when a page takes longer than 3 seconds to load (Google, 2016).",
  "Largest Contentful Paint under 2.5 seconds is what Google counts as a good loading experience.",
  `Pages whose title is ${range("title")} are rarely cut off in search results.`,
  `A meta description of ${range("description")} gives searchers a full preview of your page.`,
  "Alt text on images helps screen-reader users and lets search engines understand your pictures.",
  "One clear H1 per page helps both visitors and crawlers understand what the page is about.",
  "Cumulative Layout Shift below 0.1 means content does not jump while the page loads.",
  "A sitemap.xml helps search engines discover pages that few other pages link to.",
];
