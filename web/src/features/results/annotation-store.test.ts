import { beforeEach, describe, expect, it } from "vitest";
import { limits } from "../../lib/domain";
import { pathOf, useAnnotations } from "./annotation-store";

beforeEach(() => {
  useAnnotations.getState().clear("desktop");
  useAnnotations.getState().clear("mobile");
});

describe("screenshot annotations", () => {
  it("keeps strokes and pins per view", () => {
    const lim = limits();
    const s = useAnnotations.getState();
    s.addStroke("desktop", { id: "s1", points: [{ x: 1, y: 2 }, { x: 3, y: 4 }], color: lim.annotationColors[0]!, thickness: lim.strokeThickness });
    s.addPin("mobile", { id: "p1", x: 10, y: 20, color: "blue", comment: "Make this bigger", timestamp: 1 });
    const after = useAnnotations.getState();
    expect(after.strokes.desktop).toHaveLength(1);
    expect(after.strokes.mobile).toHaveLength(0);
    expect(after.pins.mobile[0]!.comment).toBe("Make this bigger");
    after.clear("desktop");
    expect(useAnnotations.getState().strokes.desktop).toHaveLength(0);
    expect(useAnnotations.getState().pins.mobile).toHaveLength(1);
  });

  it("turns points into an SVG path", () => {
    expect(pathOf([{ x: 1, y: 2 }, { x: 3, y: 4 }, { x: 5, y: 6 }])).toBe("M1 2 L3 4 L5 6");
    expect(pathOf([])).toBe("");
  });
});
