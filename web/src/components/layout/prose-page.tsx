import type { ReactNode } from "react";
import { PageMeta, type PageMetaProps } from "../seo/page-meta";

/** A text page: heading, lead and readable body styles for h2, p, ul and links. */
export function ProsePage({ meta, title, lead, children }: { meta: PageMetaProps; title: string; lead?: string; children: ReactNode }) {
  return (
    <article className="mx-auto max-w-3xl px-4 py-12 sm:px-6 sm:py-16">
      <PageMeta {...meta} />
      <h1 className="text-4xl font-extrabold tracking-tight sm:text-5xl">{title}</h1>
      {lead && <p className="mt-4 text-lg text-muted-foreground">{lead}</p>}
      <div className="mt-10 space-y-5 leading-relaxed [&_a]:text-link [&_a]:underline [&_a]:underline-offset-4 [&_h2]:mt-10 [&_h2]:text-2xl [&_h2]:font-bold [&_h2]:tracking-tight [&_h3]:mt-6 [&_h3]:text-lg [&_h3]:font-semibold [&_li]:pl-1 [&_ul]:list-disc [&_ul]:space-y-2 [&_ul]:pl-6">
        {children}
      </div>
    </article>
  );
}
