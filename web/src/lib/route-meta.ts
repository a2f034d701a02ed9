import meta from "../route-meta.json";

export type PublicPath = keyof typeof meta;

/**
 * Title and description of a public page. One file (src/route-meta.json) holds them; the build
 * copies it to dist/route-meta.json so the server can put the same tags in the HTML it sends.
 */
export function routeMeta(path: PublicPath) {
  return { ...meta[path], path };
}
