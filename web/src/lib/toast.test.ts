import { describe, expect, it } from "vitest";
import { toast, useToastStore } from "./toast";

describe("toasts", () => {
  it("shows the newest three and dismisses by id", () => {
    const ids = ["a", "b", "c", "d"].map((t) => toast({ title: t }));
    expect(useToastStore.getState().toasts.map((t) => t.title)).toEqual(["b", "c", "d"]);
    expect(useToastStore.getState().toasts[0]!.variant).toBe("default");
    useToastStore.getState().dismiss(ids[2]!);
    expect(useToastStore.getState().toasts.map((t) => t.title)).toEqual(["b", "d"]);
  });
});
