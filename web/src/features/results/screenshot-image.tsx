import { useState } from "react";
import { cn } from "../../lib/cn";

/** A screenshot that hides itself when the image fails to load (docs/PRODUCT.md §2.6.5). */
export function ScreenshotImage({ src, alt, className }: { src: string; alt: string; className?: string }) {
  const [failed, setFailed] = useState(false);
  if (failed) return null;
  return (
    <img
      src={src}
      alt={alt}
      loading="lazy"
      onError={() => setFailed(true)}
      className={cn("w-full rounded-xl border border-border bg-muted object-cover object-top shadow-sm", className)}
    />
  );
}
