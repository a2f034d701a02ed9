import { useId, useState } from "react";
import { checkRobots } from "../../lib/domain";
import { Input, Textarea } from "../../components/ui/input";
import { Label } from "../../components/ui/label";
import { cn } from "../../lib/cn";

const example = `User-agent: *
Disallow: /basket
Disallow: /checkout
Disallow: /account/
Allow: /account/help

Sitemap: https://shop.example/sitemap.xml`;

/** The robots.txt tester: the crawler's own matcher (domain::robots), in the browser. */
export function RobotsTester() {
  const id = useId();
  const [text, setText] = useState(example);
  const [agent, setAgent] = useState("Googlebot");
  const [path, setPath] = useState("/account/orders");
  const verdict = checkRobots(text, agent, path);
  return (
    <section aria-labelledby={`${id}-h`} className="rounded-xl border border-border bg-card p-6 shadow-sm">
      <h2 id={`${id}-h`} className="text-2xl font-bold tracking-tight">
        robots.txt tester
      </h2>
      <div className="mt-6 space-y-4">
        <div>
          <Label htmlFor={`${id}-f`}>robots.txt</Label>
          <Textarea id={`${id}-f`} value={text} onChange={(e) => setText(e.target.value)} rows={9} className="font-mono text-sm" spellCheck={false} />
        </div>
        <div className="grid gap-4 sm:grid-cols-2">
          <div>
            <Label htmlFor={`${id}-a`}>Crawler (user agent token)</Label>
            <Input id={`${id}-a`} value={agent} onChange={(e) => setAgent(e.target.value)} />
          </div>
          <div>
            <Label htmlFor={`${id}-p`}>Path or address</Label>
            <Input id={`${id}-p`} value={path} onChange={(e) => setPath(e.target.value)} />
          </div>
        </div>
      </div>
      <div className="mt-6 rounded-lg border border-border bg-background p-4" aria-live="polite">
        <p className={cn("text-lg font-semibold", verdict.allowed ? "text-green-700 dark:text-green-400" : "text-red-700 dark:text-red-400")}>
          {verdict.allowed ? "Allowed" : "Blocked"}
        </p>
        <p className="mt-1 text-sm text-muted-foreground">
          {verdict.rule ? (
            <>
              Decided by <code className="rounded bg-muted px-1">{verdict.rule}</code>
            </>
          ) : (
            "No rule matches this path, so it may be fetched."
          )}
        </p>
        {verdict.errors.length > 0 && (
          <div className="mt-4">
            <p className="text-sm font-medium">Lines crawlers cannot use</p>
            <ul className="mt-2 space-y-1 text-sm">
              {verdict.errors.map((e) => (
                <li key={`${e.line}-${e.message}`}>
                  Line {e.line}: <code className="rounded bg-muted px-1">{e.content}</code> — {e.message}
                </li>
              ))}
            </ul>
          </div>
        )}
      </div>
    </section>
  );
}
