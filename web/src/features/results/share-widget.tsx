import { Copy, Mail } from "lucide-react";
import { useQuery } from "@tanstack/react-query";
import { useSession } from "../../lib/session";
import { shareLinks } from "../../lib/domain";
import { Button } from "../../components/ui/button";
import { Card, CardContent, CardHeader, CardTitle } from "../../components/ui/card";
import { copyText } from "../../lib/clipboard";
import { toast } from "../../lib/toast";

function XIcon() {
  return <svg viewBox="0 0 24 24" className="size-4" fill="currentColor" aria-hidden="true"><path d="M18.9 2H22l-6.8 7.8L23 22h-6.2l-4.9-6.4L6.3 22H3.2l7.3-8.3L1 2h6.3l4.4 5.9L18.9 2Zm-1.1 18h1.7L6.3 3.9H4.5L17.8 20Z" /></svg>;
}
function LinkedInIcon() {
  return <svg viewBox="0 0 24 24" className="size-4" fill="currentColor" aria-hidden="true"><path d="M4.98 3.5a2.5 2.5 0 1 1 0 5 2.5 2.5 0 0 1 0-5ZM3 9.75h4V21H3V9.75Zm6.5 0h3.8v1.6h.06c.53-1 1.83-2.05 3.77-2.05 4.03 0 4.77 2.6 4.77 6V21h-4v-5c0-1.2-.02-2.74-1.67-2.74-1.67 0-1.93 1.3-1.93 2.65V21h-4V9.75Z" /></svg>;
}
function FacebookIcon() {
  return <svg viewBox="0 0 24 24" className="size-4" fill="currentColor" aria-hidden="true"><path d="M13.5 22v-8h2.7l.4-3.2h-3.1V8.8c0-.9.3-1.5 1.6-1.5h1.7V4.4c-.3 0-1.3-.1-2.4-.1-2.4 0-4 1.4-4 4.1v2.4H7.7V14h2.7v8h3.1Z" /></svg>;
}

export type ShareWidgetProps = {
  reportUrl: string;
  websiteUrl: string;
  overallScore: number;
  reportId: string;
  /** The agency a branded report is shared under. */
  brandName?: string;
};

/** The signed-in approved affiliate's referral code (`GET /api/affiliates/link`), so shared links earn for them. */
function useAffiliateCode(): string | null {
  const { signedIn } = useSession();
  const q = useQuery({
    queryKey: ["affiliate-link"],
    queryFn: async () => {
      const res = await fetch("/api/affiliates/link", { credentials: "include" });
      if (!res.ok) return null;
      return ((await res.json()) as { code: string | null }).code;
    },
    enabled: signedIn,
    staleTime: 300_000,
  });
  return signedIn ? (q.data ?? null) : null;
}

function openShare(url: string) {
  window.open(url, "_blank", "noopener,noreferrer,width=600,height=560");
}

/** Share the report: Twitter, LinkedIn, Facebook, e-mail and copy; text and targets from the domain rules. */
export function ShareWidget({ reportUrl, websiteUrl, overallScore, reportId, brandName }: ShareWidgetProps) {
  const affiliateCode = useAffiliateCode();
  if (!reportUrl || !websiteUrl) return null;
  // A branded report is shared under its agency's name, and without anyone's affiliate code.
  const links = shareLinks({ reportUrl, websiteUrl, overallScore, reportId, brandName, affiliateCode: brandName ? undefined : (affiliateCode ?? undefined) });
  const copy = async () => {
    const ok = await copyText(links.url);
    if (ok) toast({ title: "Copied!", description: "The report link is on your clipboard.", variant: "success" });
  };
  return (
    <Card>
      <CardHeader className="pb-3">
        <CardTitle as="h2" className="text-base">Share this report</CardTitle>
        <p className="text-sm text-muted-foreground">{links.text}</p>
      </CardHeader>
      <CardContent className="grid grid-cols-2 gap-2">
        <Button variant="outline" size="sm" onClick={() => openShare(links.twitter)}>
          <XIcon /> Twitter
        </Button>
        <Button variant="outline" size="sm" onClick={() => openShare(links.linkedin)}>
          <LinkedInIcon /> LinkedIn
        </Button>
        <Button variant="outline" size="sm" onClick={() => openShare(links.facebook)}>
          <FacebookIcon /> Facebook
        </Button>
        <Button asChild variant="outline" size="sm">
          <a href={links.email}>
            <Mail aria-hidden="true" /> Email
          </a>
        </Button>
        <Button variant="secondary" size="sm" className="col-span-2" onClick={copy}>
          <Copy aria-hidden="true" /> Copy share link
        </Button>
      </CardContent>
    </Card>
  );
}
