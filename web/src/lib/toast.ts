import { create } from "zustand";

export type ToastVariant = "default" | "destructive" | "success";
export type ToastItem = { id: number; title: string; description?: string; variant: ToastVariant };

type ToastState = {
  toasts: ToastItem[];
  push: (t: Omit<ToastItem, "id">) => number;
  dismiss: (id: number) => void;
};

let nextId = 1;

/** Client state of the toasts on screen (zustand: client state only, docs/ARCHITECTURE.md §7). */
export const useToastStore = create<ToastState>((set) => ({
  toasts: [],
  push: (t) => {
    const id = nextId++;
    // Keep at most three toasts; the newest is last.
    set((s) => ({ toasts: [...s.toasts, { ...t, id }].slice(-3) }));
    return id;
  },
  dismiss: (id) => set((s) => ({ toasts: s.toasts.filter((t) => t.id !== id) })),
}));

/** Shows a toast with the exact title and text the spec gives. */
export function toast(t: { title: string; description?: string; variant?: ToastVariant }) {
  return useToastStore.getState().push({ variant: "default", ...t });
}
