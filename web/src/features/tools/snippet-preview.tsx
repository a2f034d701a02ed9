import { useId, useState } from "react";
import { snippetLength, type LengthCheck } from "../../lib/domain";
import { Input, Textarea } from "../../components/ui/input";
import { Label } from "../../components/ui/label";
import { cn } from "../../lib/cn";

const verdicts: Record<LengthCheck["verdict"], { text: string; className: string }> = {
  missing: { text: "Missing", className: "text-red-700 dark:text-red-400" },
  short: { text: "Too short", className: "text-amber-700 dark:text-amber-400" },
  good: { text: "Good length", className: "text-green-700 dark:text-green-400" },
  long: { text: "Too long", className: "text-amber-700 dark:text-amber-400" },
};

function Verdict({ check, id }: { check: LengthCheck; id: string }) {
  const v = verdicts[check.verdict];
  return (
    <p id={id} className="mt-1 text-sm" aria-live="polite">
      <span className={cn("font-medium", v.className)}>{v.text}</span>{" "}
      <span className="text-muted-foreground">
        {check.chars} characters (good: {check.min}-{check.max})
      </span>
    </p>
  );
}

/** Cuts `text` where a result would: at the range's upper end, on a word, with an ellipsis. */
function truncated(text: string, max: number) {
  const chars = Array.from(text);
  if (chars.length <= max) return text;
  const cut = chars.slice(0, max).join("");
  const space = cut.lastIndexOf(" ");
  return `${(space > max / 2 ? cut.slice(0, space) : cut).trimEnd()} …`;
}

/** The search snippet preview: the analyzer's title and description length rule, live. */
export function SnippetPreview() {
  const id = useId();
  const [title, setTitle] = useState("Free website audit with a fix list | Sitelens");
  const [description, setDescription] = useState(
    "Analyse any website in seconds: SEO, design, technical structure and performance scores, with a prioritised action plan and 3 free reports a day.",
  );
  const [url, setUrl] = useState("https://example.com/audit");
  const t = snippetLength("title", title);
  const d = snippetLength("description", description);
  return (
    <section aria-labelledby={`${id}-h`} className="rounded-xl border border-border bg-card p-6 shadow-sm">
      <h2 id={`${id}-h`} className="text-2xl font-bold tracking-tight">
        Search snippet preview
      </h2>
      <div className="mt-6 space-y-4">
        <div>
          <Label htmlFor={`${id}-t`}>Title</Label>
          <Input id={`${id}-t`} value={title} onChange={(e) => setTitle(e.target.value)} aria-describedby={`${id}-tv`} />
          <Verdict check={t} id={`${id}-tv`} />
        </div>
        <div>
          <Label htmlFor={`${id}-d`}>Meta description</Label>
          <Textarea id={`${id}-d`} value={description} onChange={(e) => setDescription(e.target.value)} aria-describedby={`${id}-dv`} />
          <Verdict check={d} id={`${id}-dv`} />
        </div>
        <div>
          <Label htmlFor={`${id}-u`}>Address</Label>
          <Input id={`${id}-u`} value={url} onChange={(e) => setUrl(e.target.value)} />
        </div>
      </div>
      <figure className="mt-6 rounded-lg border border-border bg-background p-4">
        <figcaption className="sr-only">How the result could look</figcaption>
        <p className="truncate text-sm text-muted-foreground">{url}</p>
        <p className="mt-1 text-xl text-link">{title.trim() ? truncated(title, t.max) : "(no title: the search engine picks one)"}</p>
        <p className="mt-1 text-sm text-muted-foreground">
          {description.trim() ? truncated(description, d.max) : "(no description: the search engine picks a sentence from the page)"}
        </p>
      </figure>
    </section>
  );
}
