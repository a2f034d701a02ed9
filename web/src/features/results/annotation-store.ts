import { create } from "zustand";
import type { Pin, Point, Stroke } from "../../lib/domain";

type View = "desktop" | "mobile";
type AnnotationState = {
  strokes: Record<View, Stroke[]>;
  pins: Record<View, Pin[]>;
  addStroke: (view: View, s: Stroke) => void;
  addPin: (view: View, p: Pin) => void;
  clear: (view: View) => void;
};

/** Client state of the screenshot annotations (zustand, docs/ARCHITECTURE.md §7). */
export const useAnnotations = create<AnnotationState>((set) => ({
  strokes: { desktop: [], mobile: [] },
  pins: { desktop: [], mobile: [] },
  addStroke: (view, s) => set((st) => ({ strokes: { ...st.strokes, [view]: [...st.strokes[view], s] } })),
  addPin: (view, p) => set((st) => ({ pins: { ...st.pins, [view]: [...st.pins[view], p] } })),
  clear: (view) => set((st) => ({ strokes: { ...st.strokes, [view]: [] }, pins: { ...st.pins, [view]: [] } })),
}));

export const pathOf = (points: Point[]) => points.map((p, i) => `${i === 0 ? "M" : "L"}${p.x} ${p.y}`).join(" ");
