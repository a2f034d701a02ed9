import { useId, useRef, useState, type PointerEvent } from "react";
import { Download, Maximize2, MessageSquarePlus, Monitor, Pencil, Smartphone, Trash2 } from "lucide-react";
import { isValidComment, limits, type Point, type Stroke } from "../../lib/domain";
import { Badge } from "../../components/ui/badge";
import { Button } from "../../components/ui/button";
import { Card, CardContent, CardHeader, CardTitle } from "../../components/ui/card";
import { Dialog, DialogContent, DialogDescription, DialogTitle } from "../../components/ui/dialog";
import { Textarea } from "../../components/ui/input";
import { Label } from "../../components/ui/label";
import { cn } from "../../lib/cn";
import type { Session } from "../../lib/session";
import { pathOf, useAnnotations } from "./annotation-store";
import { useBrand } from "../../lib/brand";

type View = "desktop" | "mobile";
const lim = limits();

function Annotator({ src, view, alt }: { src: string; view: View; alt: string }) {
  const id = useId();
  const [mode, setMode] = useState<"draw" | "comment" | "off">("off");
  const [color, setColor] = useState(lim.annotationColors[0] ?? "red");
  const [draft, setDraft] = useState<Point[] | null>(null);
  const [pending, setPending] = useState<Point | null>(null);
  const [comment, setComment] = useState("");
  const svgRef = useRef<SVGSVGElement>(null);
  const imgRef = useRef<HTMLImageElement>(null);
  const { strokes, pins, addStroke, addPin, clear } = useAnnotations();
  const w = view === "desktop" ? lim.desktopWidth : lim.mobileWidth;
  const h = view === "desktop" ? lim.desktopHeight : lim.mobileHeight;

  const toPoint = (e: PointerEvent<SVGSVGElement>): Point => {
    const r = svgRef.current!.getBoundingClientRect();
    return { x: Math.round(((e.clientX - r.left) / r.width) * w), y: Math.round(((e.clientY - r.top) / r.height) * h) };
  };
  const down = (e: PointerEvent<SVGSVGElement>) => {
    if (mode === "draw") {
      e.currentTarget.setPointerCapture(e.pointerId);
      setDraft([toPoint(e)]);
    } else if (mode === "comment") {
      setPending(toPoint(e));
      setComment("");
    }
  };
  const move = (e: PointerEvent<SVGSVGElement>) => {
    if (draft) setDraft([...draft, toPoint(e)]);
  };
  const up = () => {
    if (draft && draft.length > 1) {
      const s: Stroke = { id: crypto.randomUUID(), points: draft, color, thickness: lim.strokeThickness };
      addStroke(view, s);
    }
    setDraft(null);
  };
  const savePin = () => {
    if (!pending || !isValidComment(comment)) return;
    addPin(view, { id: crypto.randomUUID(), x: pending.x, y: pending.y, color, comment: comment.trim(), timestamp: Date.now() });
    setPending(null);
  };
  const downloadAnnotated = () => {
    const img = imgRef.current;
    if (!img) return;
    const canvas = document.createElement("canvas");
    canvas.width = w;
    canvas.height = h;
    const ctx = canvas.getContext("2d");
    if (!ctx) return;
    ctx.drawImage(img, 0, 0, w, h);
    for (const s of strokes[view]) {
      ctx.strokeStyle = s.color;
      ctx.lineWidth = s.thickness;
      ctx.stroke(new Path2D(pathOf(s.points)));
    }
    for (const p of pins[view]) {
      ctx.fillStyle = p.color;
      ctx.beginPath();
      ctx.arc(p.x, p.y, lim.pinRadius, 0, Math.PI * 2);
      ctx.fill();
    }
    const a = document.createElement("a");
    a.href = canvas.toDataURL("image/png");
    a.download = `annotated-${view}-screenshot.png`;
    a.click();
  };

  return (
    <div className="space-y-3">
      <div className="flex flex-wrap items-center gap-2">
        <Button size="sm" variant={mode === "draw" ? "default" : "outline"} aria-pressed={mode === "draw"} onClick={() => setMode(mode === "draw" ? "off" : "draw")}>
          <Pencil aria-hidden="true" /> Draw
        </Button>
        <Button size="sm" variant={mode === "comment" ? "default" : "outline"} aria-pressed={mode === "comment"} onClick={() => setMode(mode === "comment" ? "off" : "comment")}>
          <MessageSquarePlus aria-hidden="true" /> Comment
        </Button>
        <div className="flex gap-1" role="radiogroup" aria-label="Annotation colour">
          {lim.annotationColors.map((c) => (
            <button
              key={c}
              type="button"
              role="radio"
              aria-checked={color === c}
              aria-label={c}
              onClick={() => setColor(c)}
              className={cn("size-6 rounded-full border border-slate-400", color === c && "ring-2 ring-ring ring-offset-2 ring-offset-background")}
              style={{ backgroundColor: c }}
            />
          ))}
        </div>
        <Button size="sm" variant="ghost" onClick={() => clear(view)}>
          <Trash2 aria-hidden="true" /> Clear
        </Button>
        <Button size="sm" variant="outline" onClick={downloadAnnotated}>
          <Download aria-hidden="true" /> Download annotated image
        </Button>
      </div>
      <div className={cn("relative", view === "mobile" && "max-w-xs")}>
        <img ref={imgRef} src={src} alt={alt} className="w-full rounded-xl border border-border" />
        <svg
          ref={svgRef}
          viewBox={`0 0 ${w} ${h}`}
          preserveAspectRatio="none"
          className={cn("absolute inset-0 size-full touch-none", mode !== "off" && "cursor-crosshair")}
          onPointerDown={down}
          onPointerMove={move}
          onPointerUp={up}
          aria-hidden="true"
        >
          {[...strokes[view], ...(draft ? [{ id: "draft", points: draft, color, thickness: lim.strokeThickness }] : [])].map((s) => (
            <path key={s.id} d={pathOf(s.points)} stroke={s.color} strokeWidth={s.thickness} fill="none" vectorEffect="non-scaling-stroke" />
          ))}
          {pins[view].map((p) => (
            <circle key={p.id} cx={p.x} cy={p.y} r={lim.pinRadius} fill={p.color} stroke="white" strokeWidth="2">
              <title>{p.comment}</title>
            </circle>
          ))}
        </svg>
      </div>
      {pins[view].length > 0 && (
        <ol className="space-y-1 text-sm">
          {pins[view].map((p, i) => (
            <li key={p.id}><span className="font-semibold">{i + 1}.</span> {p.comment}</li>
          ))}
        </ol>
      )}
      <Dialog open={pending !== null} onOpenChange={(o) => !o && setPending(null)}>
        <DialogContent>
          <DialogTitle>Add a comment</DialogTitle>
          <DialogDescription>Your comment is pinned where you clicked.</DialogDescription>
          <Label htmlFor={`${id}-comment`}>Comment</Label>
          <Textarea id={`${id}-comment`} value={comment} onChange={(e) => setComment(e.target.value)} />
          <Button onClick={savePin} disabled={!isValidComment(comment)}>Add comment</Button>
        </DialogContent>
      </Dialog>
    </div>
  );
}

/** Screenshot viewer: desktop/mobile switch, full screen, and annotation for pro and enterprise plans. */
export function ScreenshotViewer({ screenshots, url, plan }: { screenshots: { desktop?: string; mobile?: string }; url: string; plan: Session["plan"] }) {
  const [view, setView] = useState<View>(screenshots.desktop ? "desktop" : "mobile");
  const [full, setFull] = useState(false);
  const [failed, setFailed] = useState<Record<View, boolean>>({ desktop: false, mobile: false });
  const src = screenshots[view];
  const canAnnotate = plan === "pro" || plan === "enterprise";
  const brand = useBrand();
  if (!screenshots.desktop && !screenshots.mobile) return null;
  const alt = `${view === "desktop" ? "Desktop" : "Mobile"} screenshot of ${url}`;
  return (
    <Card>
      <CardHeader className="flex-row flex-wrap items-center justify-between gap-3">
        <div className="flex items-center gap-2">
          <CardTitle as="h2">Screenshots</CardTitle>
          {canAnnotate && <Badge variant="pro" className="capitalize">{plan}</Badge>}
        </div>
        <div className="flex gap-2">
          <div className="inline-flex rounded-lg bg-muted p-1" role="group" aria-label="Device">
            {(["desktop", "mobile"] as const).map((v) => (
              <button
                key={v}
                type="button"
                aria-pressed={view === v}
                onClick={() => setView(v)}
                className={cn("inline-flex items-center gap-1.5 rounded-md px-3 py-1.5 text-sm font-medium capitalize", view === v ? "bg-card shadow-sm" : "text-muted-foreground")}
              >
                {v === "desktop" ? <Monitor className="size-4" aria-hidden="true" /> : <Smartphone className="size-4" aria-hidden="true" />}
                {v}
              </button>
            ))}
          </div>
          {src && (
            <Button size="icon" variant="outline" aria-label="View full screen" onClick={() => setFull(true)}>
              <Maximize2 aria-hidden="true" />
            </Button>
          )}
        </div>
      </CardHeader>
      <CardContent className="space-y-3">
        {!src || failed[view] ? (
          <p className="text-muted-foreground">Screenshot not available for {view} view</p>
        ) : canAnnotate ? (
          <Annotator src={src} view={view} alt={alt} />
        ) : (
          <>
            <img src={src} alt={alt} onError={() => setFailed({ ...failed, [view]: true })} className={cn("w-full rounded-xl border border-border", view === "mobile" && "max-w-xs")} />
            {!brand && (
              <p className="rounded-lg bg-muted px-3 py-2 text-sm text-muted-foreground">
                Drawing and comments on screenshots come with the Pro and Enterprise plans. Upgrade to annotate and share marked-up screenshots with your team.
              </p>
            )}
          </>
        )}
      </CardContent>
      <Dialog open={full} onOpenChange={setFull}>
        <DialogContent className="max-w-[min(96vw,1400px)]">
          <DialogTitle>{alt}</DialogTitle>
          <DialogDescription className="sr-only">Full-screen screenshot</DialogDescription>
          {src && <img src={src} alt={alt} className="w-full rounded-lg" />}
        </DialogContent>
      </Dialog>
    </Card>
  );
}
